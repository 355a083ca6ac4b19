//! [`SkinnedModel`]: one animated character instance for the game loop — a
//! glTF asset's skinned primitives uploaded for the renderer's skinning pass, drawn with
//! palettes the animation job computed (`sierra_anim::CharacterJob`; outside the game,
//! [`crate::ModelPoser`]).
//!
//! Per frame (the extract step): `model.draw_with_palette(skin, palette, world, ...)` and
//! `model.morph_weights(clip, time, &mut frame.skinned)` for each character.
//! Joint matrices are glTF's (§3.7.3.3): the skeleton includes every ancestor
//! of the joints, so model space is the glTF scene's world space and the skinned
//! mesh node's own transform is not applied; `world` places the whole model.

use glam::{Mat4, Vec3};
use sierra_anim::{Clip, Playback};
use sierra_gltf::GltfAsset;
use sierra_render::compute::skinned_bounds::{transform_bounds, JointBounds};
use sierra_render::compute::skinning::{SkinnedDrawItem, SkinnedMeshHandle};
use sierra_render::{
    GpuContext, Material, MorphWeights, RenderError, Renderer, Result, SkinnedFrame,
};

use crate::gltf_material::GltfMaterials;
use crate::poser::node_morph_weights;
use crate::skinned_mesh::skinned_primitive_mesh;

struct Part {
    mesh: SkinnedMeshHandle,
    skin: usize,
    material: Material,
    /// Per-joint bind-space boxes, for [`SkinnedModel::posed_bounds`].
    bounds: JointBounds,
    /// The glTF node drawing it (the target of its `weights` channels).
    node: usize,
    /// `[morph target]` weights when no channel animates them (node's, else mesh's defaults).
    default_weights: Vec<f32>,
}

/// One animated instance of a skinned glTF model (upload one per character).
pub struct SkinnedModel {
    name: String,
    clip_names: Vec<String>,
    durations: Vec<f32>,
    /// `[skin]` palette length (skin joint count).
    skin_joints: Vec<usize>,
    /// `[clip]` built for skin 0's skeleton, for their morph `weights` tracks (which target
    /// glTF nodes whatever the skeleton).
    clips: Vec<Clip>,
    parts: Vec<Part>,
    /// Scratch `[morph target]` weights (no allocation per frame once grown).
    weights: Vec<f32>,
}

fn invalid(e: impl std::fmt::Display) -> RenderError {
    RenderError::InvalidInput(e.to_string())
}

impl SkinnedModel {
    /// Uploads every skinned primitive of `asset` (one instance) with its glTF material
    /// ([`GltfMaterials`]: textures, factors, alpha mode, sides) and builds every clip for every
    /// skin.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] when the asset has no skinned mesh (naming the file),
    /// or a clip cannot be built; upload errors as [`Renderer::upload_skinned_mesh`].
    pub fn upload(ctx: &GpuContext, renderer: &mut Renderer, asset: &GltfAsset) -> Result<Self> {
        let name = asset.path.display().to_string();
        let instances = asset.skin_instances();
        if instances.is_empty() {
            return Err(RenderError::InvalidInput(format!(
                "{name} has no skinned mesh (no node with both mesh and skin): it cannot be drawn as an animated character"
            )));
        }
        let clips = (0..asset.clips.len())
            .map(|c| asset.skin_clip(0, c).map_err(invalid))
            .collect::<Result<Vec<_>>>()?;
        let skin_joints = asset.skins.iter().map(|s| s.joint_count()).collect();
        let materials = GltfMaterials::upload(ctx, asset)?;
        let mut parts = Vec::new();
        for inst in instances {
            let Some(mesh) = asset.meshes.get(inst.mesh) else {
                return Err(RenderError::InvalidInput(format!(
                    "{name}: node {} uses missing mesh {} (meshes not imported?)",
                    inst.node, inst.mesh
                )));
            };
            let joints = asset.skins[inst.skin].joint_count();
            for (p, prim) in mesh.primitives.iter().enumerate() {
                let data = skinned_primitive_mesh(prim, joints).map_err(|e| {
                    RenderError::InvalidInput(format!(
                        "{name}: mesh {} primitive {p}: {e}",
                        inst.mesh
                    ))
                })?;
                let handle = renderer.upload_skinned_mesh(
                    ctx,
                    &data,
                    &format!("{name} node {}", inst.node),
                )?;
                let node = &asset.nodes[inst.node];
                let default_weights = if node.weights.is_empty() {
                    mesh.weights.clone()
                } else {
                    node.weights.clone()
                };
                if default_weights.len() != data.morph_targets.len() {
                    return Err(RenderError::InvalidInput(format!(
                        "{name}: node {} has {} morph weights for {} morph targets",
                        inst.node,
                        default_weights.len(),
                        data.morph_targets.len()
                    )));
                }
                renderer.set_rest_morph_weights(ctx, handle, &default_weights)?;
                let material = materials.bind_skinned(ctx, renderer, handle, prim.material)?;
                parts.push(Part {
                    bounds: JointBounds::new(&data),
                    node: inst.node,
                    default_weights,
                    mesh: handle,
                    skin: inst.skin,
                    material,
                });
            }
        }
        Ok(Self {
            name,
            clip_names: asset.clips.iter().map(|c| c.name.clone()).collect(),
            durations: asset.clips.iter().map(|c| c.duration).collect(),
            weights: Vec::new(),
            skin_joints,
            clips,
            parts,
        })
    }

    /// The uploaded skinned mesh instances, one per skinned primitive (for
    /// `sierra_render::compute::skinning::Skinning::posed_bounds` and `output_mesh`).
    pub fn meshes(&self) -> impl Iterator<Item = SkinnedMeshHandle> + '_ {
        self.parts.iter().map(|part| part.mesh)
    }

    /// Clip names, in file order.
    pub fn clip_names(&self) -> &[String] {
        &self.clip_names
    }

    /// Index of clip `name`.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] naming the model, the clip and the clips that exist.
    pub fn clip(&self, name: &str) -> Result<usize> {
        self.clip_names
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| {
                RenderError::InvalidInput(format!(
                    "{}: no clip named `{name}` (clips: {})",
                    self.name,
                    self.clip_names.join(", ")
                ))
            })
    }

    /// World-space bounds `(min, max)` of skin `skin`'s primitives posed by `palette` (as
    /// [`SkinnedModel::draw_with_palette`] takes it) and placed by `world`, from the posed joints
    /// ([`JointBounds::posed_bounds`]): contains every skinned vertex, for frustum culling.
    /// `None` for an unknown skin, a palette shorter than the skin, or no influenced vertex.
    pub fn posed_bounds(&self, skin: usize, palette: &[Mat4], world: Mat4) -> Option<(Vec3, Vec3)> {
        self.parts
            .iter()
            .filter(|part| part.skin == skin)
            .filter_map(|part| part.bounds.posed_bounds(palette))
            .map(|b| transform_bounds(world, b))
            .reduce(|(lo, hi), (l, h)| (lo.min(l), hi.max(h)))
    }

    /// Sets the morph target weights of every morphed primitive for `clip` at `time` seconds
    /// (looping): [`node_morph_weights`], the clip's `weights` channel on the primitive's node
    /// when it has one, else the node's (or mesh's) default weights, appended to `frame`'s morph
    /// weights; the renderer applies them on the GPU before skinning. Primitives without morph
    /// targets are skipped.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for an unknown clip or a sampling error.
    pub fn morph_weights(
        &mut self,
        clip: usize,
        time: f32,
        frame: &mut SkinnedFrame,
    ) -> Result<()> {
        if clip >= self.clip_names.len() {
            return Err(RenderError::InvalidInput(format!(
                "{}: clip index {clip} out of range ({} clips)",
                self.name,
                self.clip_names.len()
            )));
        }
        for part in self.parts.iter().filter(|p| !p.default_weights.is_empty()) {
            node_morph_weights(
                &self.clips[clip],
                part.node,
                &part.default_weights,
                time,
                Playback::Loop,
                &mut self.weights,
            )
            .map_err(invalid)?;
            frame.morphs.push(MorphWeights {
                mesh: part.mesh,
                first: frame.morph_weights.len() as u32,
                count: self.weights.len() as u32,
            });
            frame.morph_weights.extend_from_slice(&self.weights);
        }
        Ok(())
    }

    /// Duration of clip `clip` in seconds (0 when out of range).
    pub fn duration(&self, clip: usize) -> f32 {
        self.durations.get(clip).copied().unwrap_or(0.0)
    }

    /// Replaces every part's draw factors with one material (`base_color` linear RGB, alpha
    /// kept from the model; Blinn-Phong `specular_color` and `specular_power`), so one instance
    /// looks unlike others of the same model (the player among the crowd). Textures stay bound:
    /// the colour multiplies the model's base colour texture as its own factor did.
    pub fn set_material(&mut self, base_color: Vec3, specular_color: Vec3, specular_power: f32) {
        for part in &mut self.parts {
            part.material.base_color = base_color.extend(part.material.base_color.w);
            part.material.specular_color = specular_color;
            part.material.specular_power = specular_power;
        }
    }

    /// Draws the primitives of skin `skin` with an already computed skinning
    /// `palette` (`[skin joint_count]` column-major `Mat4`, joint matrix × inverse
    /// bind matrix, in the space that `world` maps to world space: pass
    /// `Mat4::IDENTITY` when the palette is already in world space, as the game's
    /// animation jobs write it). Appends the palette to `palettes` and one draw per
    /// primitive of that skin to `draws`; allocates nothing once they have grown.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for an unknown skin or a palette whose length
    /// is not the skin's joint count.
    pub fn draw_with_palette(
        &self,
        skin: usize,
        palette: &[Mat4],
        world: Mat4,
        palettes: &mut Vec<Mat4>,
        draws: &mut Vec<SkinnedDrawItem>,
    ) -> Result<()> {
        let Some(&joints) = self.skin_joints.get(skin) else {
            return Err(RenderError::InvalidInput(format!(
                "{}: skin {skin} out of range ({} skins)",
                self.name,
                self.skin_joints.len()
            )));
        };
        if palette.len() != joints {
            return Err(RenderError::InvalidInput(format!(
                "{}: skin {skin} has {joints} joints but the palette has {} matrices",
                self.name,
                palette.len()
            )));
        }
        let offset = palettes.len() as u32;
        palettes.extend_from_slice(palette);
        draws.extend(
            self.parts
                .iter()
                .filter(|part| part.skin == skin)
                .map(|part| SkinnedDrawItem {
                    mesh: part.mesh,
                    model: world,
                    palette_offset: offset,
                    material: part.material,
                }),
        );
        Ok(())
    }
}
