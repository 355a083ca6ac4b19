//! A glTF crowd model baked for the crowd pass: its skinned primitives as
//! [`SkinnedMeshData`] and every clip's palettes (`sierra_anim::bake_skinning_matrices`, named
//! clips), handed to the pass as the renderer's [`BakedPalettes`] ([`baked_palettes`]).

use sierra_anim::BakedAnimation;
use sierra_gltf::{GltfAsset, ImportedImage, ImportedMaterial};
use sierra_render::compute::skinning::SkinnedMeshData;
use sierra_render::material::SurfaceMaterial;
use sierra_render::passes::crowd::{BakedPaletteClip, BakedPalettes};
use sierra_render::{GpuContext, Material, RenderError, Result};

use crate::gltf_material::GltfMaterials;
use crate::skinned_mesh::skinned_primitive_mesh;

/// A glTF asset ready for [`sierra_render::passes::crowd::CrowdPass::add_crowd`]: the first skinned mesh
/// instance's primitives (`[primitive]`, each one crowd) and every clip of that skin baked at
/// `sample_rate` frames per second, in the asset's clip order (the instance's clip index is the
/// asset's clip index). Give the pass [`baked_palettes`] of the bake.
///
/// # Errors
/// [`RenderError::InvalidInput`] when the asset has no skinned mesh, a primitive has no
/// `JOINTS_0`/`WEIGHTS_0`, or sampling/baking fails (the `sierra_gltf`/`sierra_anim` message).
pub fn bake_asset(
    asset: &GltfAsset,
    sample_rate: f32,
) -> Result<(Vec<SkinnedMeshData>, BakedAnimation)> {
    let Some(instance) = asset.skin_instances().into_iter().next() else {
        return Err(RenderError::InvalidInput(
            "model has no skinned mesh: a crowd needs a skin".into(),
        ));
    };
    let skin = &asset.skins[instance.skin];
    let joints = skin.joint_count();
    let meshes = asset.meshes[instance.mesh]
        .primitives
        .iter()
        .map(|p| skinned_primitive_mesh(p, joints))
        .collect::<Result<Vec<_>>>()?;
    let clips = (0..asset.clips.len())
        .map(|c| asset.skin_clip(instance.skin, c))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| RenderError::InvalidInput(format!("sampling the crowd's clips: {e}")))?;
    let refs: Vec<_> = clips.iter().collect();
    let baked = sierra_anim::bake_skinning_matrices(&skin.skeleton, &skin.skin, &refs, sample_rate)
        .map_err(|e| RenderError::InvalidInput(format!("baking the crowd's clips: {e}")))?;
    Ok((meshes, baked))
}

/// The renderer's copy of a bake: same joint count, rate, clip ranges and texels (the layouts
/// are the same; clip names stay with the bake).
pub fn baked_palettes(baked: &BakedAnimation) -> BakedPalettes {
    BakedPalettes {
        joint_count: baked.joint_count,
        sample_rate: baked.sample_rate,
        clips: baked
            .clips
            .iter()
            .map(|c| BakedPaletteClip {
                first_frame: c.first_frame,
                frame_count: c.frame_count,
                duration: c.duration,
            })
            .collect(),
        texels: baked.texels.clone(),
    }
}

/// The glTF materials of each primitive [`bake_asset`] returns (same order), kept on the CPU
/// (materials and decoded images) until the crowd is uploaded: a level loads its crowd models
/// before the GPU exists.
#[derive(Clone, Debug, Default)]
pub struct CrowdMaterials {
    /// The file, for error messages.
    name: String,
    /// The file's materials.
    materials: Vec<ImportedMaterial>,
    /// The file's decoded images.
    images: Vec<ImportedImage>,
    /// `[primitive]` material index (`None`: glTF's default material).
    primitives: Vec<Option<usize>>,
}

impl CrowdMaterials {
    /// The materials of `asset`'s first skinned mesh instance's primitives (none without one).
    pub fn of(asset: &GltfAsset) -> Self {
        let primitives = asset
            .skin_instances()
            .into_iter()
            .next()
            .and_then(|instance| asset.meshes.get(instance.mesh))
            .map(|mesh| mesh.primitives.iter().map(|p| p.material).collect())
            .unwrap_or_default();
        Self {
            name: asset.path.display().to_string(),
            materials: asset.materials.clone(),
            images: asset.images.clone(),
            primitives,
        }
    }

    /// Uploads the materials through [`GltfMaterials`] (the one conversion, as
    /// [`crate::SkinnedModel`] draws single characters): `[primitive]` surface and draw factors,
    /// for [`sierra_render::passes::crowd::CrowdPass::add_crowd`].
    ///
    /// # Errors
    /// As [`GltfMaterials::from_parts`] and [`GltfMaterials::get`].
    pub fn upload(&self, ctx: &GpuContext) -> Result<Vec<(SurfaceMaterial, Material)>> {
        let converted = GltfMaterials::from_parts(ctx, &self.name, &self.materials, &self.images)?;
        self.primitives
            .iter()
            .map(|&m| converted.get(m).map(|(s, f)| (s.clone(), f)))
            .collect()
    }
}
