//! The GPU half of what lives around the island ([`crate::world::sky_objects`]): the planet and
//! its cloud layer, the birds' wing poses and the palms, uploaded once and drawn each frame.

use anyhow::{Context, Result};
use glam::{Mat4, Vec3, Vec4};
use sierra_content::terrain::terrain_mesh;
use sierra_render::compute::noise::NoiseCompute;
use sierra_render::material::{AlphaMode, SurfaceMaterial};
use sierra_render::{DrawItem, GpuContext, Material, MeshHandle, Renderer};
use sierra_terrain::birds::{bird_mesh, wing_pose};
use sierra_terrain::palm::palms_mesh;
use sierra_terrain::Island;

use crate::world::sky_objects::SkyObjects;

/// Wing poses uploaded for the birds, evenly spaced over `[-1, 1]`; each bird draws the nearest.
pub const BIRD_POSES: usize = 9;

/// Uploaded meshes.
pub struct SkyObjectsGpu {
    planet: Option<(MeshHandle, MeshHandle)>,
    bird_poses: Vec<MeshHandle>,
    palms: Option<MeshHandle>,
}

fn plain() -> Material {
    Material {
        base_color: Vec4::ONE,
        specular_color: Vec3::splat(0.05),
        specular_power: 16.0,
        emissive: Vec3::ZERO,
    }
}

impl SkyObjectsGpu {
    /// Uploads planet, clouds (alpha-blended), bird wing poses and palms (double-sided fronds,
    /// placed on `island`'s beach; none without an island).
    ///
    /// # Errors
    /// GPU and parameter errors.
    pub fn upload(
        sky: &SkyObjects,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        island: Option<&Island>,
    ) -> Result<Self> {
        let planet = match &sky.planet {
            Some(p) => {
                // The fBm of every vertex on the GPU (the noise compute shader), at the level's
                // `rings`: the demo's 96 rings draw 2 × 36,480 triangles, a level of detail of
                // the thesis's 318,400 (`THESIS_RINGS`) for a planet this far away.
                let noise = NoiseCompute::new(ctx)?;
                let (body, clouds) = sierra_content::planet::planet_meshes_gpu(ctx, &noise, p)?;
                log::info!(
                    "planet: {} rings, {} vertices, {} triangles (with clouds)",
                    p.rings,
                    body.vertex_count() + clouds.vertex_count(),
                    body.triangle_count() + clouds.triangle_count()
                );
                let body = renderer.upload_mesh(ctx, &terrain_mesh(&body), "planet")?;
                let clouds = renderer.upload_mesh(ctx, &terrain_mesh(&clouds), "clouds")?;
                renderer.set_material(
                    ctx,
                    clouds,
                    &SurfaceMaterial {
                        alpha_mode: AlphaMode::Blend,
                        ..Default::default()
                    },
                )?;
                Some((body, clouds))
            }
            None => None,
        };
        let mut bird_poses = Vec::new();
        if let Some(birds) = &sky.birds {
            let wingspan = birds.wingspan;
            for k in 0..BIRD_POSES {
                let pose = -1.0 + 2.0 * k as f32 / (BIRD_POSES - 1) as f32;
                let mesh = terrain_mesh(&bird_mesh(wingspan, pose));
                bird_poses.push(renderer.upload_mesh(ctx, &mesh, "bird")?);
            }
        }
        let palms = match (&sky.palms, island) {
            (Some(p), Some(island)) => {
                let mesh = palms_mesh(island, p).context("PalmTrees component")?;
                let handle = renderer.upload_mesh(ctx, &terrain_mesh(&mesh), "palms")?;
                renderer.set_material(
                    ctx,
                    handle,
                    &SurfaceMaterial {
                        double_sided: true,
                        ..Default::default()
                    },
                )?;
                Some(handle)
            }
            _ => None,
        };
        Ok(Self {
            planet,
            bird_poses,
            palms,
        })
    }

    /// Planet and clouds turned to time `t` seconds, each bird at its wing pose, palms.
    pub fn push_draws(&self, sky: &SkyObjects, t: f32, draws: &mut Vec<DrawItem>) {
        let gpu = self;
        if let (Some(p), Some((body, clouds))) = (&sky.planet, gpu.planet) {
            let at = Mat4::from_translation(Vec3::from(p.position));
            draws.push(DrawItem {
                mesh: body,
                model: at * Mat4::from_quat(p.spin(t)),
                material: plain(),
                surface: None,
            });
            draws.push(DrawItem {
                mesh: clouds,
                model: at * Mat4::from_quat(p.cloud_rotation(t)),
                material: plain(),
                surface: None,
            });
        }
        if let (Some(flock), false) = (&sky.flock, gpu.bird_poses.is_empty()) {
            let last = (BIRD_POSES - 1) as f32;
            for (i, bird) in flock.birds().iter().enumerate() {
                let k = ((wing_pose(bird.phase) + 1.0) * 0.5 * last).round() as usize;
                draws.push(DrawItem {
                    mesh: gpu.bird_poses[k.min(BIRD_POSES - 1)],
                    model: flock.transform(i),
                    material: plain(),
                    surface: None,
                });
            }
        }
        if let Some(palms) = gpu.palms {
            draws.push(DrawItem {
                mesh: palms,
                model: Mat4::IDENTITY,
                material: plain(),
                surface: None,
            });
        }
    }
}
