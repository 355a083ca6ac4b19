//! Characters drawn as GPU-skinned meshes: one [`SkinnedModel`] instance per
//! [`Character`](crate::gameplay::character::Character) (each instance owns the
//! vertex buffer its skinned vertices are written to), posed by the palettes the
//! gameplay animation jobs computed this tick.
//!
//! Per frame, in the extract step ([`crate::scene_to_frame::extract`]):
//! [`CharacterMeshes::extract`] copies every character's palette and morph weights into the
//! frame's [`SkinnedFrame`]; the renderer skins them in one compute pass before its scene
//! passes and draws the results culled by their posed bounds.

use anyhow::{Context, Result};
use glam::{Mat4, Vec3};
use sierra_content::SkinnedModel;
use sierra_render::{GpuContext, Renderer, SkinnedFrame};

use crate::gameplay::Gameplay;

/// One uploaded skinned instance per character, in `Gameplay::characters` order.
pub struct CharacterMeshes {
    models: Vec<SkinnedModel>,
}

impl CharacterMeshes {
    /// Uploads each character's model (mesh and glTF base colour) as its own skinned instance,
    /// with the level's material for it where the `Character` component gives one.
    ///
    /// # Errors
    /// GPU errors, or a character model without a skinned mesh, naming the level object.
    pub fn upload(ctx: &GpuContext, renderer: &mut Renderer, gameplay: &Gameplay) -> Result<Self> {
        let models = gameplay
            .characters
            .iter()
            .map(|c| {
                let mut model =
                    SkinnedModel::upload(ctx, renderer, &c.model.asset).with_context(|| {
                        format!(
                            "uploading the skinned mesh of character object {}",
                            c.object
                        )
                    })?;
                if let Some(m) = &c.material {
                    model.set_material(
                        Vec3::from(m.base_color),
                        Vec3::from(m.specular_color),
                        m.specular_power,
                    );
                }
                Ok(model)
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Self { models })
    }

    /// Appends every character's skinned draws to `frame`: this tick's palette
    /// (`gameplay.poses[i].palette`, skin 0, world space, so the draws' model matrix is the
    /// identity) and the morph weights of the clip playing. Allocates nothing once the frame's
    /// lists have grown.
    ///
    /// # Errors
    /// A palette that does not match its model, a clip out of range.
    pub fn extract(&mut self, gameplay: &Gameplay, frame: &mut SkinnedFrame) -> Result<()> {
        for (i, ((model, pose), character)) in self
            .models
            .iter_mut()
            .zip(&gameplay.poses)
            .zip(&gameplay.characters)
            .enumerate()
        {
            // Morph targets follow the clip playing (the fading-out clip's weights are not blended).
            model
                .morph_weights(character.current.clip, character.current.time, frame)
                .with_context(|| format!("morph weights of character {i}"))?;
            model
                .draw_with_palette(
                    0,
                    &pose.palette,
                    Mat4::IDENTITY,
                    &mut frame.palettes,
                    &mut frame.draws,
                )
                .with_context(|| format!("drawing character {i}"))?;
        }
        Ok(())
    }
}
