//! Characters drawn as GPU-skinned meshes: one [`SkinnedModel`] instance per
//! [`Character`](crate::gameplay::character::Character) (each instance owns the
//! vertex buffer its skinned vertices are written to), posed by the palettes the
//! gameplay animation jobs computed this tick.
//!
//! Per frame, after [`build_frame`](crate::scene_to_frame::build_frame) and before
//! the render: [`CharacterMeshes::skin`] uploads every character's palette in one
//! write, runs one skinning compute pass (submitted to the queue ahead of the
//! frame's render) and appends the skinned meshes to the frame's draws.

use anyhow::{Context, Result};
use glam::{Mat4, Vec3};
use sierra_content::SkinnedModel;
use sierra_render::skinning::{SkinnedDrawItem, Skinning};
use sierra_render::{DrawItem, GpuContext, MeshHandle, Renderer};

use crate::gameplay::Gameplay;

/// The skinning pass and one uploaded skinned instance per character, in
/// `Gameplay::characters` order, with the frame buffers reused every frame.
pub struct CharacterMeshes {
    skinning: Skinning,
    models: Vec<SkinnedModel>,
    /// `[total joints]` this frame's palettes, all characters back to back.
    palettes: Vec<Mat4>,
    draws: Vec<SkinnedDrawItem>,
}

impl CharacterMeshes {
    /// Compiles the skinning pass and uploads each character's model (mesh and
    /// glTF base colour) as its own skinned instance.
    ///
    /// # Errors
    /// GPU errors, or a character model without a skinned mesh, naming the level object.
    pub fn upload(ctx: &GpuContext, renderer: &mut Renderer, gameplay: &Gameplay) -> Result<Self> {
        let mut skinning = Skinning::new(ctx).context("creating the skinning pass")?;
        let models = gameplay
            .characters
            .iter()
            .map(|c| {
                SkinnedModel::upload(ctx, renderer, &mut skinning, &c.model.asset).with_context(
                    || {
                        format!(
                            "uploading the skinned mesh of character object {}",
                            c.object
                        )
                    },
                )
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            skinning,
            models,
            palettes: Vec::new(),
            draws: Vec::new(),
        })
    }

    /// Skins every character with this tick's palette (`gameplay.poses[i].palette`,
    /// skin 0, world space, so the draws' model matrix is the identity) and appends
    /// one [`DrawItem`] per skinned primitive to `draws`. The compute pass is
    /// submitted before this returns, so the frame rendered next sees the new vertices;
    /// each output mesh's culling bounds in `renderer` become its posed bounds (from the
    /// posed joints), so frustum culling treats skinned draws like the others.
    ///
    /// # Errors
    /// A palette that does not match its model, GPU errors.
    pub fn skin(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        gameplay: &Gameplay,
        draws: &mut Vec<DrawItem>,
    ) -> Result<()> {
        self.palettes.clear();
        self.draws.clear();
        for (i, ((model, pose), character)) in self
            .models
            .iter_mut()
            .zip(&gameplay.poses)
            .zip(&gameplay.characters)
            .enumerate()
        {
            // Morph targets follow the clip playing (the fading-out clip's weights are not blended).
            model
                .set_morph_weights(
                    ctx,
                    &self.skinning,
                    character.current.clip,
                    character.current.time,
                )
                .with_context(|| format!("morph weights of character {i}"))?;
            model
                .draw_with_palette(
                    0,
                    &pose.palette,
                    Mat4::IDENTITY,
                    &mut self.palettes,
                    &mut self.draws,
                )
                .with_context(|| format!("drawing character {i}"))?;
        }
        self.skinning
            .skin(ctx, &self.palettes, &self.draws, draws)
            .context("skinning the characters")?;
        for (mesh, bounds) in self.posed_bounds() {
            renderer.set_mesh_bounds(mesh, bounds);
        }
        Ok(())
    }

    /// Each character primitive's output mesh (the handle in this frame's draws) and its
    /// world-space bounds `(min, max)` as the last [`CharacterMeshes::skin`] posed it, from the
    /// posed joints (`None` before the first skin: never cull).
    pub fn posed_bounds(&self) -> impl Iterator<Item = (MeshHandle, Option<(Vec3, Vec3)>)> + '_ {
        self.models
            .iter()
            .flat_map(|m| m.meshes())
            .filter_map(|h| Some((self.skinning.output_mesh(h)?, self.skinning.posed_bounds(h))))
    }
}
