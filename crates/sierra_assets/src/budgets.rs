//! The limits every load runs under, their defaults, and how each is changed.
//!
//! | budget | default | CLI flag | level `settings.limits` field |
//! |---|---|---|---|
//! | bytes read per file | 256 MiB | `--max-file-bytes` | `fileBytes` |
//! | decoded bytes per glTF (accessors counted per use after sparse expansion, RGBA8 images) | 256 MiB | `--max-gltf-bytes` | `gltfDecodedBytes` |
//! | image width and height, read from the header before decoding | 8192 px | `--max-image-size` | `imageSize` |
//! | vertices per generated mesh (`grid:N`: (N+1)², `Terrain.resolution`², `export-obj --resolution`²) | 4,194,304 (2048²) | `--max-vertices` | `meshVertices` |
//! | crowd members of a level, summed over its `Crowd` components | 100,000 | `--max-crowd-instances` (at most [`MAX_CROWD_INSTANCES_LIMIT`]) | `crowdInstances` |
//!
//! A CLI flag replaces the default. A level's `settings.limits` can only *lower* a limit
//! ([`Budgets::lowered_by`]): a level is untrusted input, so it cannot grant itself more
//! than the person running it allowed.

/// One of the [`Budgets`], for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// [`Budgets::file_bytes`].
    FileBytes,
    /// [`Budgets::gltf_decoded_bytes`].
    GltfDecodedBytes,
    /// [`Budgets::image_size`].
    ImageSize,
    /// [`Budgets::mesh_vertices`].
    MeshVertices,
    /// [`Budgets::crowd_instances`].
    CrowdInstances,
}

/// The most `--max-crowd-instances` may grant: each member is baked, animated and drawn every
/// frame, so the flag is bounded like every count on the command line.
pub const MAX_CROWD_INSTANCES_LIMIT: u64 = 1_000_000;

impl Budget {
    /// The command-line flag that sets it.
    pub fn flag(self) -> &'static str {
        match self {
            Budget::FileBytes => "--max-file-bytes",
            Budget::GltfDecodedBytes => "--max-gltf-bytes",
            Budget::ImageSize => "--max-image-size",
            Budget::MeshVertices => "--max-vertices",
            Budget::CrowdInstances => "--max-crowd-instances",
        }
    }

    /// The level field that lowers it.
    pub fn setting(self) -> &'static str {
        match self {
            Budget::FileBytes => "settings.limits.fileBytes",
            Budget::GltfDecodedBytes => "settings.limits.gltfDecodedBytes",
            Budget::ImageSize => "settings.limits.imageSize",
            Budget::MeshVertices => "settings.limits.meshVertices",
            Budget::CrowdInstances => "settings.limits.crowdInstances",
        }
    }

    /// The default value.
    pub fn default_value(self) -> u64 {
        let d = Budgets::DEFAULT;
        match self {
            Budget::FileBytes => d.file_bytes,
            Budget::GltfDecodedBytes => d.gltf_decoded_bytes,
            Budget::ImageSize => u64::from(d.image_size),
            Budget::MeshVertices => d.mesh_vertices,
            Budget::CrowdInstances => d.crowd_instances,
        }
    }

    /// `default N; raise it with --flag`, for refusals.
    pub fn how_to_raise(self) -> String {
        format!(
            "default {}; raise it with {}",
            self.default_value(),
            self.flag()
        )
    }
}

/// The limits of one load. Amounts are checked before the memory is allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// Most bytes read from one file (level, glTF, buffer, image, sound, key track).
    pub file_bytes: u64,
    /// Most bytes one glTF import may decode: every accessor read, counted each time it is
    /// used (a sparse accessor at its expanded size), plus every image at 4 bytes per pixel.
    pub gltf_decoded_bytes: u64,
    /// Largest image width or height in pixels, checked from the image header before decoding.
    pub image_size: u32,
    /// Most vertices of one generated mesh: `grid:N` has (N+1)², a `Terrain` of resolution R
    /// has R², `export-obj --resolution R` R².
    pub mesh_vertices: u64,
    /// Most crowd members one level places, summed over all its `Crowd` components.
    pub crowd_instances: u64,
}

impl Budgets {
    /// The documented defaults (see the module table).
    pub const DEFAULT: Budgets = Budgets {
        file_bytes: 256 << 20,
        gltf_decoded_bytes: 256 << 20,
        image_size: 8192,
        mesh_vertices: 2048 * 2048,
        crowd_instances: 100_000,
    };

    /// These budgets with every limit `overrides` sets replaced (CLI flags).
    pub fn with(mut self, overrides: &BudgetOverrides) -> Budgets {
        if let Some(v) = overrides.file_bytes {
            self.file_bytes = v;
        }
        if let Some(v) = overrides.gltf_decoded_bytes {
            self.gltf_decoded_bytes = v;
        }
        if let Some(v) = overrides.image_size {
            self.image_size = v;
        }
        if let Some(v) = overrides.mesh_vertices {
            self.mesh_vertices = v;
        }
        if let Some(v) = overrides.crowd_instances {
            self.crowd_instances = v;
        }
        self
    }

    /// These budgets with every limit `lower` sets applied only where it is lower (a level's
    /// `settings.limits`: untrusted input may tighten limits, never loosen them).
    pub fn lowered_by(mut self, lower: &BudgetOverrides) -> Budgets {
        if let Some(v) = lower.file_bytes {
            self.file_bytes = self.file_bytes.min(v);
        }
        if let Some(v) = lower.gltf_decoded_bytes {
            self.gltf_decoded_bytes = self.gltf_decoded_bytes.min(v);
        }
        if let Some(v) = lower.image_size {
            self.image_size = self.image_size.min(v);
        }
        if let Some(v) = lower.mesh_vertices {
            self.mesh_vertices = self.mesh_vertices.min(v);
        }
        if let Some(v) = lower.crowd_instances {
            self.crowd_instances = self.crowd_instances.min(v);
        }
        self
    }
}

impl Default for Budgets {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Limits given explicitly (CLI flags, a level's `settings.limits`); `None` keeps the base value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BudgetOverrides {
    /// See [`Budgets::file_bytes`].
    pub file_bytes: Option<u64>,
    /// See [`Budgets::gltf_decoded_bytes`].
    pub gltf_decoded_bytes: Option<u64>,
    /// See [`Budgets::image_size`].
    pub image_size: Option<u32>,
    /// See [`Budgets::mesh_vertices`].
    pub mesh_vertices: Option<u64>,
    /// See [`Budgets::crowd_instances`].
    pub crowd_instances: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_replace_and_levels_only_lower() {
        let flags = BudgetOverrides {
            file_bytes: Some(1 << 40),
            mesh_vertices: Some(10),
            ..Default::default()
        };
        let b = Budgets::DEFAULT.with(&flags);
        assert_eq!(b.file_bytes, 1 << 40);
        assert_eq!(b.mesh_vertices, 10);
        assert_eq!(b.image_size, 8192);
        let level = BudgetOverrides {
            file_bytes: Some(1 << 50),
            image_size: Some(64),
            ..Default::default()
        };
        let l = b.lowered_by(&level);
        assert_eq!(l.file_bytes, 1 << 40, "a level cannot raise a limit");
        assert_eq!(l.image_size, 64, "a level can lower one");
    }
}
