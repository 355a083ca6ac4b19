//! Material samplers: a glTF sampler's wrap modes and filters (glTF 2.0 §3.8.4) as plain data
//! ([`MaterialSampler`]), turned into wgpu samplers once each ([`SamplerCache`]).
//!
//! Anisotropic filtering needs every filter linear (WebGPU `GPUSamplerDescriptor`), so only
//! the trilinear samplers get the adapter's anisotropy
//! ([`crate::context::GpuContext::material_anisotropy`]). A sampler without mips
//! (`mipmap_filter: None`, glTF `minFilter` `NEAREST`/`LINEAR`) is bound with one-level texture
//! views (`material.rs`), not a LOD clamp of 0: the clamped LOD also picks between the min and
//! mag filters (Vulkan "Texel Filtering"), so a clamp of 0 would magnify everywhere.

use std::collections::HashMap;
use std::sync::Mutex;

/// How a texture coordinate outside [0, 1] wraps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SamplerWrap {
    /// Repeat (glTF's default).
    #[default]
    Repeat,
    /// Repeat, mirrored every other time.
    MirroredRepeat,
    /// Clamp to the edge texel.
    ClampToEdge,
}

/// Texel filter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SamplerFilter {
    /// Nearest texel.
    Nearest,
    /// Linear blend.
    #[default]
    Linear,
}

/// A material's sampler. The default is repeat, trilinear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MaterialSampler {
    /// Wrap along U.
    pub wrap_u: SamplerWrap,
    /// Wrap along V.
    pub wrap_v: SamplerWrap,
    /// Magnification filter.
    pub mag_filter: SamplerFilter,
    /// Minification filter within a mip.
    pub min_filter: SamplerFilter,
    /// Filter between mips; `None`: mip 0 only.
    pub mipmap_filter: Option<SamplerFilter>,
}

impl Default for MaterialSampler {
    fn default() -> Self {
        Self {
            wrap_u: SamplerWrap::Repeat,
            wrap_v: SamplerWrap::Repeat,
            mag_filter: SamplerFilter::Linear,
            min_filter: SamplerFilter::Linear,
            mipmap_filter: Some(SamplerFilter::Linear),
        }
    }
}

fn wrap(w: SamplerWrap) -> wgpu::AddressMode {
    match w {
        SamplerWrap::Repeat => wgpu::AddressMode::Repeat,
        SamplerWrap::MirroredRepeat => wgpu::AddressMode::MirrorRepeat,
        SamplerWrap::ClampToEdge => wgpu::AddressMode::ClampToEdge,
    }
}

fn filter(f: SamplerFilter) -> wgpu::FilterMode {
    match f {
        SamplerFilter::Nearest => wgpu::FilterMode::Nearest,
        SamplerFilter::Linear => wgpu::FilterMode::Linear,
    }
}

/// The wgpu descriptor of `s`; `anisotropy` (1 = off) applies only when every filter is linear.
pub fn sampler_descriptor(
    s: &MaterialSampler,
    anisotropy: u16,
) -> wgpu::SamplerDescriptor<'static> {
    let trilinear = s.mag_filter == SamplerFilter::Linear
        && s.min_filter == SamplerFilter::Linear
        && s.mipmap_filter == Some(SamplerFilter::Linear);
    wgpu::SamplerDescriptor {
        label: Some("material"),
        address_mode_u: wrap(s.wrap_u),
        address_mode_v: wrap(s.wrap_v),
        address_mode_w: wgpu::AddressMode::Repeat,
        mag_filter: filter(s.mag_filter),
        min_filter: filter(s.min_filter),
        mipmap_filter: match s.mipmap_filter {
            Some(SamplerFilter::Linear) => wgpu::MipmapFilterMode::Linear,
            _ => wgpu::MipmapFilterMode::Nearest,
        },
        anisotropy_clamp: if trilinear {
            anisotropy.clamp(1, 16)
        } else {
            1
        },
        ..Default::default()
    }
}

/// wgpu samplers by [`MaterialSampler`], each created once.
#[derive(Debug)]
pub struct SamplerCache {
    anisotropy: u16,
    samplers: Mutex<HashMap<MaterialSampler, wgpu::Sampler>>,
}

impl SamplerCache {
    /// An empty cache whose trilinear samplers filter `anisotropy`× anisotropically.
    pub fn new(anisotropy: u16) -> Self {
        Self {
            anisotropy,
            samplers: Mutex::new(HashMap::new()),
        }
    }

    /// The sampler for `s`, created on first use.
    pub fn get(&self, device: &wgpu::Device, s: &MaterialSampler) -> wgpu::Sampler {
        let mut samplers = self.samplers.lock().unwrap_or_else(|e| e.into_inner());
        samplers
            .entry(*s)
            .or_insert_with(|| device.create_sampler(&sampler_descriptor(s, self.anisotropy)))
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anisotropy_only_for_trilinear() {
        let trilinear = sampler_descriptor(&MaterialSampler::default(), 8);
        assert_eq!(trilinear.anisotropy_clamp, 8);
        let nearest = MaterialSampler {
            mag_filter: SamplerFilter::Nearest,
            ..Default::default()
        };
        assert_eq!(sampler_descriptor(&nearest, 8).anisotropy_clamp, 1);
        let no_mips = MaterialSampler {
            mipmap_filter: None,
            wrap_u: SamplerWrap::ClampToEdge,
            wrap_v: SamplerWrap::MirroredRepeat,
            ..Default::default()
        };
        let d = sampler_descriptor(&no_mips, 8);
        assert_eq!(d.anisotropy_clamp, 1);
        assert_eq!(
            (d.address_mode_u, d.address_mode_v),
            (
                wgpu::AddressMode::ClampToEdge,
                wgpu::AddressMode::MirrorRepeat
            )
        );
    }
}
