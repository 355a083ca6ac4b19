//! Level files v0: the JSON format, its loader and its validation.
//!
//! # Format
//! ```json
//! {
//!   "camera": { "position": [0, 4, 10], "target": [0, 0, 0], "fovYDegrees": 60, "near": 0.1, "far": 500 },
//!   "sun": { "direction": [-0.4, -1, -0.3], "color": [1, 1, 1], "intensity": 1, "ambient": [0.1, 0.1, 0.1] },
//!   "clearColor": [0.05, 0.05, 0.08],
//!   "objects": [
//!     { "name": "Platform", "position": [0, 0, 0], "rotation": [0, 45, 0], "scale": [4, 0.2, 4],
//!       "mesh": "cube", "material": { "baseColor": [0.8, 0.3, 0.2] },
//!       "components": [ { "type": "Spinner", "degreesPerSecond": 30 },
//!                       { "type": "CollisionBox", "halfExtents": [0.5, 0.5, 0.5] } ] },
//!     { "name": "Lamp", "parent": "Platform", "position": [0, 2, 0], "scale": 0.2, "mesh": "sphere",
//!       "components": [ { "type": "PointLight", "lightColor": [1, 0.8, 0.5], "innerRadius": 2, "outerRadius": 6 } ] }
//!   ]
//! }
//! ```
//! Field names are camelCase (seed 000). Unknown fields are errors. Every field except
//! an object's `name` and the components' required fields has a default (below).
//! `rotation` is `[x, y, z]` Euler **degrees** (`q = Rx·Ry·Rz`) or an `[x, y, z, w]`
//! quaternion — see [`values::deserialize_rotation`]. `scale` is a number or `[x, y, z]`.
//! `position`, `rotation`, `scale` are local to the `parent` object when one is named
//! (objects may be listed in any order). Right-handed, Y up, metres, linear RGB colours.
//! The JSON Schema is `assets/levels/schema.json` ([`level_schema`]).

pub mod values;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use sierra_assets::{AssetRoot, BudgetOverrides, Budgets, Resolver};

use crate::components::{Component, COMPONENT_TYPES};
use crate::error::Error;
pub use values::{MeshRef, NormalMapRef, Primitive, BUILTIN_NORMAL_MAPS, PRIMITIVE_NAMES};

/// A parsed, validated level.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(title = "Sierra level v0")]
pub struct Level {
    /// The view camera.
    #[serde(default)]
    pub camera: Camera,
    /// The directional light and ambient term.
    #[serde(default)]
    pub sun: Sun,
    /// Linear RGB background (default `[0.05, 0.05, 0.08]`).
    #[serde(default = "default_clear")]
    #[schemars(with = "[f32; 3]")]
    pub clear_color: Vec3,
    /// Post-processing and sky (all off by default, so render tests see linear values).
    #[serde(default)]
    pub post: Post,
    /// The objects, in any order (parents need not come first).
    #[serde(default)]
    pub objects: Vec<ObjectDef>,
    /// Load settings: limits this level lowers (never raises).
    #[serde(default)]
    pub settings: Settings,
    /// The file this level was loaded from (empty for [`Level::from_json_str`] without a path).
    #[serde(skip)]
    pub file: PathBuf,
    /// Folder that asset paths must stay inside (default: the level file's folder).
    #[serde(skip)]
    pub asset_root: PathBuf,
    /// Name of the asset root in messages: `level folder` or `--asset-root`.
    #[serde(skip)]
    pub asset_root_name: String,
    /// The budgets this level loads under: the CLI's (or the defaults), lowered by
    /// [`Settings::limits`].
    #[serde(skip)]
    pub budgets: Budgets,
}

/// A level's `settings`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Settings {
    /// Limits on what loading this level may read, decode and generate. A level can only
    /// lower them below the defaults (or the `--max-*` flags); see docs/security.md.
    pub limits: Limits,
}

/// `settings.limits`: each field lowers one budget (`sierra_assets::Budgets`); absent
/// fields keep the default or the CLI flag's value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Limits {
    /// Most bytes read from one file (default 268435456 = 256 MiB; `--max-file-bytes`).
    pub file_bytes: Option<u64>,
    /// Most bytes decoded from one glTF: accessors at each use, after sparse expansion, plus
    /// images at 4 bytes per pixel (default 268435456; `--max-gltf-bytes`).
    pub gltf_decoded_bytes: Option<u64>,
    /// Largest image width or height, pixels, read from the header before decoding (default
    /// 8192; `--max-image-size`).
    pub image_size: Option<u32>,
    /// Most vertices of one generated mesh: `grid:N` has (N+1)², a `Terrain` of resolution R
    /// has R² (default 4194304 = 2048²; `--max-vertices`).
    pub mesh_vertices: Option<u64>,
    /// Most crowd members the level places, summed over all its `Crowd` components (default
    /// 100000; `--max-crowd-instances`).
    pub crowd_instances: Option<u64>,
}

impl Limits {
    /// As budget overrides.
    pub fn overrides(&self) -> BudgetOverrides {
        BudgetOverrides {
            file_bytes: self.file_bytes,
            gltf_decoded_bytes: self.gltf_decoded_bytes,
            image_size: self.image_size,
            mesh_vertices: self.mesh_vertices,
            crowd_instances: self.crowd_instances,
        }
    }
}

/// How to load a level: the asset root and the budgets the person running it chose.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// Folder every asset must stay inside (`--asset-root`); `None`: the level's folder.
    pub asset_root: Option<PathBuf>,
    /// Budgets set on the command line (`--max-*`); unset ones keep their defaults.
    pub limits: BudgetOverrides,
}

/// Perspective camera (right-handed, Y up, looking from `position` to `target`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Camera {
    /// Eye position, world metres (default `[0, 4, 10]`).
    #[schemars(with = "[f32; 3]")]
    pub position: Vec3,
    /// Point looked at, world metres (default origin).
    #[schemars(with = "[f32; 3]")]
    pub target: Vec3,
    /// Vertical field of view in degrees (default 60).
    pub fov_y_degrees: f32,
    /// Near plane distance, metres (default 0.1).
    pub near: f32,
    /// Far plane distance, metres (default 500).
    pub far: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            position: Vec3::new(0.0, 4.0, 10.0),
            target: Vec3::ZERO,
            fov_y_degrees: 60.0,
            near: 0.1,
            far: 500.0,
        }
    }
}

/// The level's post-processing: HDR bloom (seed 000), tonemapping and the procedural sky.
///
/// Everything is off by default so that a level's rendered values are the linear shading
/// values (render tests rely on it); the demo level switches them on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Post {
    /// Add bloom: bright pass, quarter-resolution separable Gaussian, additive composite.
    pub bloom: bool,
    /// Brightest-channel threshold of the bright pass (linear HDR units; seed 000: 0.8).
    pub bloom_threshold: f32,
    /// Scale of the blurred highlights added back.
    pub bloom_intensity: f32,
    /// HDR → display mapping. Absent: ACES when a light of the level is brighter than 1 (the
    /// sun's or a point light's colour × intensity in any channel), so bright lights roll off
    /// instead of clipping to flat colour; otherwise none (linear values, as render tests
    /// expect). `"none"` keeps linear values whatever the lights.
    pub tonemap: Option<Tonemap>,
    /// Draw the procedural sky (gradient and sun disc) behind the scene instead of the clear colour.
    pub sky: bool,
    /// Multisample anti-aliasing: samples per pixel of the scene passes, 1 (off, the default)
    /// or 4 (4× MSAA, resolved before bloom and tonemapping).
    #[serde(deserialize_with = "deserialize_msaa")]
    #[schemars(with = "MsaaJson")]
    pub msaa: u32,
    /// Post-process anti-aliasing of the final image: `none` (the default) or `fxaa` (FXAA 3.11
    /// after tonemapping; works with or without `msaa`).
    pub aa: AntiAliasing,
    /// Image-based lighting. Absent: metallic-roughness (glTF) materials are lit by the sky when
    /// one is drawn, else by a uniform environment of the sun's `ambient`, and Phong materials by
    /// the flat ambient term. Present: both kinds are lit by this environment.
    pub environment: Option<Environment>,
    /// Exposure in stops (EV, default 0): the HDR image is scaled by `2^exposure` before the
    /// tone curve (and after bloom). Fixed per level: Sierra has no automatic exposure, so a
    /// level lit brighter or darker than the demo sets it here.
    pub exposure: f32,
}

/// The environment of [`Post::environment`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Environment {
    /// Multiplies the environment's light (1: the sky's radiance as drawn; below 0 acts as 0).
    #[schemars(range(min = 0.0))]
    pub intensity: f32,
    /// Where its light comes from.
    pub source: EnvironmentSource,
}

impl Default for Environment {
    fn default() -> Self {
        Self {
            intensity: 1.0,
            source: EnvironmentSource::Sky,
        }
    }
}

/// Source of [`Environment::source`]: `"sky"`, `"ambient"` or an image path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum EnvironmentSource {
    /// `"sky"`: the procedural sky under the level's sun (its disc left out: the sun is a light
    /// of its own), whether or not the sky is drawn.
    #[default]
    Sky,
    /// `"ambient"`: a uniform environment of the sun's `ambient` colour.
    Ambient,
    /// An equirectangular image — a Radiance `.hdr` (linear radiance) or an sRGB `.png`/`.jpg`;
    /// the centre column (u = 0.5) looks toward −Z and u = 0.75 toward +X (u = 0.25 toward −X,
    /// both edges toward +Z), +Y at its top row — relative to the
    /// level's folder (or `shared:PATH`), read through the level's asset root and budgets like a
    /// normal map.
    Image(PathBuf),
}

impl EnvironmentSource {
    /// Parses a level `environment.source` string.
    ///
    /// # Errors
    /// A message naming the accepted values when `text` is neither `sky`, `ambient` nor a path
    /// ending in `.hdr`/`.png`/`.jpg`/`.jpeg`.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "sky" => return Ok(Self::Sky),
            "ambient" => return Ok(Self::Ambient),
            _ => {}
        }
        let lower = text.to_ascii_lowercase();
        if [".hdr", ".png", ".jpg", ".jpeg"]
            .iter()
            .any(|e| lower.ends_with(e))
        {
            return Ok(Self::Image(PathBuf::from(text)));
        }
        Err(format!(
            "unknown environment source `{text}`: expected `sky`, `ambient` or a path to an equirectangular .hdr/.png/.jpg image"
        ))
    }
}

impl<'de> Deserialize<'de> for EnvironmentSource {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        EnvironmentSource::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl Serialize for EnvironmentSource {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Sky => s.serialize_str("sky"),
            Self::Ambient => s.serialize_str("ambient"),
            Self::Image(path) => s.serialize_str(&path.to_string_lossy()),
        }
    }
}

impl JsonSchema for EnvironmentSource {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "EnvironmentSource".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Where the environment's light comes from: `sky` (the procedural sky under the level's sun, without its disc), `ambient` (a uniform environment of the sun's ambient colour) or an equirectangular image path relative to the level file's folder: Radiance .hdr (linear) or sRGB .png/.jpg; the centre column (u = 0.5) looks toward -Z and u = 0.75 toward +X (u = 0.25 toward -X, both edges toward +Z), +Y at its top row.",
            "type": "string",
            "anyOf": [
                { "enum": ["sky", "ambient"] },
                { "pattern": "(?i)\\.(hdr|png|jpe?g)$" }
            ]
        })
    }
}

/// Post-process anti-aliasing of [`Post::aa`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AntiAliasing {
    /// No post-process anti-aliasing.
    #[default]
    None,
    /// FXAA 3.11 (Lottes 2011) on the tonemapped image.
    Fxaa,
}

/// Deserializes [`Post::msaa`]: 1 or 4.
fn deserialize_msaa<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let samples = u32::deserialize(d)?;
    if matches!(samples, 1 | 4) {
        Ok(samples)
    } else {
        Err(serde::de::Error::custom(format!(
            "msaa must be 1 (off) or 4 samples per pixel, got {samples}"
        )))
    }
}

/// Schema of [`Post::msaa`].
struct MsaaJson;

impl JsonSchema for MsaaJson {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Msaa".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Samples per pixel: 1 (no multisampling) or 4 (4x MSAA).",
            "type": "integer",
            "enum": [1, 4]
        })
    }
}

impl Default for Post {
    fn default() -> Self {
        Self {
            bloom: false,
            bloom_threshold: 0.8,
            bloom_intensity: 1.0,
            tonemap: None,
            sky: false,
            msaa: 1,
            aa: AntiAliasing::None,
            environment: None,
            exposure: 0.0,
        }
    }
}

/// Tonemapping operator of [`Post::tonemap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Tonemap {
    /// Clamp only: linear values pass unchanged.
    None,
    /// ACES filmic.
    Aces,
    /// AgX base look.
    Agx,
}

/// Directional light plus ambient term (Blinn-Phong, see the renderer).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Sun {
    /// Direction the light travels (from the sun into the scene), world space; need not
    /// be normalised (default `[-0.4, -1, -0.3]`).
    #[schemars(with = "[f32; 3]")]
    pub direction: Vec3,
    /// Linear RGB colour (default white).
    #[schemars(with = "[f32; 3]")]
    pub color: Vec3,
    /// Multiplier on `color` (default 1).
    pub intensity: f32,
    /// Linear RGB ambient light added everywhere (default `[0.1, 0.1, 0.1]`).
    #[schemars(with = "[f32; 3]")]
    pub ambient: Vec3,
}

impl Default for Sun {
    fn default() -> Self {
        Self {
            direction: Vec3::new(-0.4, -1.0, -0.3),
            color: Vec3::ONE,
            intensity: 1.0,
            ambient: Vec3::splat(0.1),
        }
    }
}

/// Phong material of seed 000 (linear RGB).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Material {
    /// Diffuse colour (default `[0.8, 0.8, 0.8]`).
    #[schemars(with = "[f32; 3]")]
    pub base_color: Vec3,
    /// Specular colour (default `[0.2, 0.2, 0.2]`).
    #[schemars(with = "[f32; 3]")]
    pub specular_color: Vec3,
    /// Blinn-Phong exponent of `(N·H)` (default 32).
    pub specular_power: f32,
    /// Emitted colour added after lighting (default black).
    #[schemars(with = "[f32; 3]")]
    pub emissive: Vec3,
    /// Tangent-space normal map bending the shading normal (default none): `"builtin:bumps"`,
    /// `"builtin:bricks"`, `"builtin:ripples"`, or a `.png`/`.jpg` path relative to the level's
    /// folder. Primitives' UVs span each face (cube), the square (plane, grid) or the
    /// longitude/latitude (sphere) once.
    pub normal_map: Option<NormalMapRef>,
    /// Scale of the normal map's X and Y slopes (default 1; 0 is flat; glTF `normalTexture.scale`).
    pub normal_scale: f32,
    /// Colour texture (default none): a `.png`/`.jpg`/`.jpeg` path resolved as `normalMap` files
    /// are (relative to the level's folder or `shared:PATH`, inside the asset root, within the
    /// file budget), sRGB, multiplying `baseColor` (as glTF `baseColorTexture`), mapped by the
    /// primitive's UVs as `normalMap` is. Only built-in primitives use it (a glTF `mesh` has its
    /// file's materials).
    pub base_color_texture: Option<PathBuf>,
}

impl Default for Material {
    fn default() -> Self {
        Self {
            base_color: Vec3::splat(0.8),
            specular_color: Vec3::splat(0.2),
            specular_power: 32.0,
            emissive: Vec3::ZERO,
            normal_map: None,
            normal_scale: 1.0,
            base_color_texture: None,
        }
    }
}

/// One level object: a scene node with optional mesh, material and components.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ObjectDef {
    /// Unique name; used by `parent`, references and scene paths.
    pub name: String,
    /// Local translation, metres (default origin).
    #[serde(default)]
    #[schemars(with = "[f32; 3]")]
    pub position: Vec3,
    /// Local rotation (default identity): `[x, y, z]` Euler degrees applied as
    /// `Rx·Ry·Rz`, or an `[x, y, z, w]` quaternion.
    #[serde(
        default = "identity",
        deserialize_with = "values::deserialize_rotation"
    )]
    #[schemars(with = "values::RotationJson")]
    pub rotation: Quat,
    /// Local scale (default 1): a number or `[x, y, z]`.
    #[serde(default = "unit_scale", deserialize_with = "values::deserialize_scale")]
    #[schemars(with = "values::ScaleJson")]
    pub scale: Vec3,
    /// What to draw, if anything.
    #[serde(default)]
    pub mesh: Option<MeshRef>,
    /// Material for primitive meshes (glTF files bring their own).
    #[serde(default)]
    pub material: Material,
    /// Name of the parent object; transforms are then local to it.
    #[serde(default)]
    pub parent: Option<String>,
    /// Components attached to the object.
    #[serde(default)]
    pub components: Vec<Component>,
}

impl ObjectDef {
    /// An object called `name` at the origin, unrotated, unit scale, with no mesh, the
    /// default material, no parent and no components (for levels built in code).
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
            mesh: None,
            material: Material::default(),
            parent: None,
            components: Vec::new(),
        }
    }
}

fn identity() -> Quat {
    Quat::IDENTITY
}
fn unit_scale() -> Vec3 {
    Vec3::ONE
}
fn default_clear() -> Vec3 {
    Vec3::new(0.05, 0.05, 0.08)
}

/// Loads and validates a level; the asset root is the level file's folder.
///
/// # Errors
/// [`Error::Io`] when the file cannot be read; [`Error::Json`] (file, line:column,
/// JSON path) for syntax errors, unknown fields, wrong types, missing fields, unknown
/// component types or mesh primitives; [`Error::DuplicateName`],
/// [`Error::UnknownObject`], [`Error::ParentCycle`] for bad references; and
/// [`Error::InLevel`] wrapping [`Error::AssetNotFound`] / [`Error::OutsideAssetRoot`]
/// for mesh files.
pub fn load_level(path: impl AsRef<Path>) -> Result<Level, Error> {
    load_level_with(path, &LoadOptions::default())
}

/// Like [`load_level`] with an explicit asset root (a folder that must contain every
/// asset the level references; the level's own folder should be inside it).
///
/// # Errors
/// As [`load_level`].
pub fn load_level_with_root(
    path: impl AsRef<Path>,
    asset_root: impl Into<PathBuf>,
) -> Result<Level, Error> {
    let options = LoadOptions {
        asset_root: Some(asset_root.into()),
        ..Default::default()
    };
    load_level_with(path, &options)
}

/// Loads and validates a level under `options` (asset root, CLI budgets). The level file
/// itself is read like any asset: inside the root, a regular file, within
/// [`Budgets::file_bytes`] (so `/dev/zero` or a FIFO is refused, not read).
///
/// # Errors
/// As [`load_level`]; [`Error::OutsideAssetRoot`] when the level is not inside
/// `--asset-root`, [`Error::Asset`] when it is not a regular file or too large.
pub fn load_level_with(path: impl AsRef<Path>, options: &LoadOptions) -> Result<Level, Error> {
    let path = path.as_ref();
    let folder = path.parent().unwrap_or(Path::new(""));
    let name = path.file_name().unwrap_or_default();
    let root = match &options.asset_root {
        Some(r) => AssetRoot::open(r, "--asset-root")?,
        None => AssetRoot::open(folder, "level folder").map_err(|e| match e {
            // The level's own folder is missing: name the level file.
            sierra_assets::AssetError::Io { source, .. } => Error::Io {
                path: path.to_path_buf(),
                source,
            },
            other => other.into(),
        })?,
    };
    let relative = root.relative_of(folder)?.join(name);
    let budgets = Budgets::DEFAULT.with(&options.limits);
    let bytes = sierra_assets::open_within(&root, &relative, budgets.file_bytes)?;
    let text = String::from_utf8(bytes).map_err(|e| Error::Io {
        path: path.to_path_buf(),
        source: std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (byte {} is invalid)",
                e.utf8_error().valid_up_to()
            ),
        ),
    })?;
    Level::from_json_str_with(&text, path, root.path().to_path_buf(), options)
}

impl Level {
    /// Parses and validates level JSON; `file` names it in errors and anchors relative
    /// asset paths (its folder), `asset_root` bounds them.
    ///
    /// # Errors
    /// As [`load_level`], except [`Error::Io`].
    pub fn from_json_str(
        text: &str,
        file: impl Into<PathBuf>,
        asset_root: impl Into<PathBuf>,
    ) -> Result<Level, Error> {
        let asset_root = asset_root.into();
        let options = LoadOptions {
            asset_root: Some(asset_root.clone()),
            ..Default::default()
        };
        Self::from_json_str_with(text, file, asset_root, &options)
    }

    /// As [`Level::from_json_str`] with the CLI's budgets; `asset_root` is the root folder
    /// (named `--asset-root` when `options.asset_root` is set, else `level folder`).
    ///
    /// # Errors
    /// As [`load_level`], except [`Error::Io`].
    pub fn from_json_str_with(
        text: &str,
        file: impl Into<PathBuf>,
        asset_root: impl Into<PathBuf>,
        options: &LoadOptions,
    ) -> Result<Level, Error> {
        let file = file.into();
        let mut de = serde_json::Deserializer::from_str(text);
        let mut level: Level = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            json_error(&file, path, e.into_inner())
        })?;
        de.end().map_err(|e| json_error(&file, ".".into(), e))?;
        // Numbers beyond f32 parse as infinities: refuse them by path before anything uses them.
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
            values::check_f32_range(&value).map_err(|(json_path, message)| Error::Invalid {
                file: file.clone(),
                json_path,
                message,
            })?;
        }
        level.file = file;
        level.asset_root = asset_root.into();
        level.asset_root_name = if options.asset_root.is_some() {
            "--asset-root".into()
        } else {
            "level folder".into()
        };
        level.budgets = Budgets::DEFAULT
            .with(&options.limits)
            .lowered_by(&level.settings.limits.overrides());
        level.validate()?;
        Ok(level)
    }

    /// The resolver of this level's references: its asset root, its folder, its budgets.
    ///
    /// # Errors
    /// [`Error::Asset`] when the root cannot be opened, [`Error::OutsideAssetRoot`] when the
    /// level's folder is not inside it.
    pub fn resolver(&self) -> Result<Resolver, Error> {
        let root = AssetRoot::open(&self.asset_root, &self.asset_root_name)?;
        let folder = root.relative_of(self.folder())?;
        Ok(Resolver::new(
            std::sync::Arc::new(root),
            folder,
            self.budgets,
        ))
    }

    /// The folder relative asset paths start from (the level file's folder).
    pub fn folder(&self) -> &Path {
        self.file.parent().unwrap_or(Path::new(""))
    }

    /// Opens an asset path written in this level (relative to the level's folder) inside
    /// the asset root, checks that it is a regular file within the file budget, and returns
    /// where it is (for messages); nothing is read.
    ///
    /// # Errors
    /// [`Error::OutsideAssetRoot`], [`Error::AssetNotFound`], [`Error::Asset`].
    pub fn resolve_asset(&self, asset: &Path) -> Result<PathBuf, Error> {
        check_asset(&self.resolver()?, asset, self.budgets.file_bytes)
    }

    /// Index of the object called `name`.
    pub fn object_index(&self, name: &str) -> Option<usize> {
        self.objects.iter().position(|o| o.name == name)
    }

    /// An empty level built in code (no file): the default camera, sun, post-processing and
    /// budgets, no objects; relative asset paths resolve from `folder`, which is also the asset
    /// root (named `level folder`). Fill in the public fields, then [`Level::validate`].
    pub fn in_folder(folder: impl Into<PathBuf>) -> Self {
        let folder = folder.into();
        Self {
            camera: Camera::default(),
            sun: Sun::default(),
            clear_color: default_clear(),
            post: Post::default(),
            objects: Vec::new(),
            settings: Settings::default(),
            file: folder.join("level.json"),
            asset_root: folder,
            asset_root_name: "level folder".into(),
            budgets: Budgets::DEFAULT,
        }
    }

    /// Checks what parsing cannot: unique names, parents that exist and form no cycle, and
    /// the other rules a loaded level obeys (a level built in code should call it).
    ///
    /// # Errors
    /// [`Error::DuplicateName`], [`Error::UnknownObject`], [`Error::ParentCycle`] and the
    /// other validation errors, naming the JSON path.
    pub fn validate(&self) -> Result<(), Error> {
        let file = &self.file;
        let mut index: HashMap<&str, usize> = HashMap::new();
        for (i, obj) in self.objects.iter().enumerate() {
            if index.insert(obj.name.as_str(), i).is_some() {
                return Err(Error::DuplicateName {
                    file: file.clone(),
                    json_path: format!("objects[{i}].name"),
                    name: obj.name.clone(),
                });
            }
        }
        let known = || {
            self.objects
                .iter()
                .map(|o| o.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        for (i, obj) in self.objects.iter().enumerate() {
            if let Some(parent) = &obj.parent {
                if !index.contains_key(parent.as_str()) {
                    return Err(Error::UnknownObject {
                        file: file.clone(),
                        json_path: format!("objects[{i}].parent"),
                        name: parent.clone(),
                        known: known(),
                    });
                }
            }
            for (j, c) in obj.components.iter().enumerate() {
                if let Component::FollowCamera(f) = c {
                    if !index.contains_key(f.target.as_str()) {
                        return Err(Error::UnknownObject {
                            file: file.clone(),
                            json_path: format!("objects[{i}].components[{j}].target"),
                            name: f.target.clone(),
                            known: known(),
                        });
                    }
                }
            }
        }
        self.check_parent_cycles(&index)?;
        self.check_budgets()?;
        self.check_looks()?;
        self.check_asset_files()
    }

    /// `post.exposure` is a finite number of stops within ±16 and every `Character`'s
    /// `material` has finite colours in `[0, 1]` (specular ≥ 0) and a specular power ≥ 1.
    fn check_looks(&self) -> Result<(), Error> {
        let invalid = |json_path: String, message: String| Error::Invalid {
            file: self.file.clone(),
            json_path,
            message,
        };
        let exposure = self.post.exposure;
        if !(exposure.is_finite() && exposure.abs() <= 16.0) {
            return Err(invalid(
                "post.exposure".into(),
                format!("{exposure} is not a number of stops in [-16, 16]"),
            ));
        }
        for (i, obj) in self.objects.iter().enumerate() {
            for (j, c) in obj.components.iter().enumerate() {
                let Component::Character(c) = c else { continue };
                let Some(m) = &c.material else { continue };
                let at = |field: &str| format!("objects[{i}].components[{j}].material.{field}");
                if !m.base_color.iter().all(|v| (0.0..=1.0).contains(v)) {
                    return Err(invalid(
                        at("baseColor"),
                        format!("{:?} is not a colour in [0, 1]", m.base_color),
                    ));
                }
                if !m.specular_color.iter().all(|v| v.is_finite() && *v >= 0.0) {
                    return Err(invalid(
                        at("specularColor"),
                        format!("{:?} is not a finite colour ≥ 0", m.specular_color),
                    ));
                }
                if !(m.specular_power.is_finite() && m.specular_power >= 1.0) {
                    return Err(invalid(
                        at("specularPower"),
                        format!("{} is not an exponent ≥ 1", m.specular_power),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Every file the level names (meshes, normal maps, character and crowd models, sounds)
    /// opens inside the root as a regular file within the file budget.
    fn check_asset_files(&self) -> Result<(), Error> {
        let mut refs: Vec<(String, &Path)> = Vec::new();
        for (i, obj) in self.objects.iter().enumerate() {
            if let Some(MeshRef::Gltf(rel)) = &obj.mesh {
                refs.push((format!("objects[{i}].mesh"), rel));
            }
            if let Some(NormalMapRef::File(rel)) = &obj.material.normal_map {
                refs.push((format!("objects[{i}].material.normalMap"), rel));
            }
            if let Some(rel) = &obj.material.base_color_texture {
                let json_path = format!("objects[{i}].material.baseColorTexture");
                check_image_extension(rel).map_err(|message| Error::Invalid {
                    file: self.file.clone(),
                    json_path: json_path.clone(),
                    message,
                })?;
                refs.push((json_path, rel));
            }
            for (j, c) in obj.components.iter().enumerate() {
                let at = |field: &str| format!("objects[{i}].components[{j}].{field}");
                match c {
                    Component::Character(c) if !c.model.starts_with("builtin:") => {
                        refs.push((at("model"), Path::new(&c.model)));
                    }
                    Component::Crowd(c) if !c.model.starts_with("builtin:") => {
                        refs.push((at("model"), Path::new(&c.model)));
                    }
                    Component::AudioLoop(a) => {
                        if let crate::components::SoundRef::File(p) = &a.source {
                            refs.push((at("source"), p));
                        }
                    }
                    _ => {}
                }
            }
        }
        if refs.is_empty() {
            return Ok(());
        }
        let in_level = |json_path: &str, source: Error| Error::InLevel {
            file: self.file.clone(),
            json_path: json_path.to_owned(),
            source: Box::new(source),
        };
        let resolver = self.resolver().map_err(|e| in_level(&refs[0].0, e))?;
        for (json_path, rel) in refs {
            check_asset(&resolver, rel, self.budgets.file_bytes)
                .map_err(|e| in_level(&json_path, e))?;
        }
        Ok(())
    }

    /// Generated meshes within [`Budgets::mesh_vertices`]: `grid:N` has (N+1)² vertices, a
    /// `Terrain` of resolution R has R².
    fn check_budgets(&self) -> Result<(), Error> {
        let limit = self.budgets.mesh_vertices;
        let over = |json_path: String, what: String, vertices: u64| {
            Error::Invalid {
            file: self.file.clone(),
            json_path,
            message: format!(
                "{what} has {vertices} vertices, more than the limit of {limit} vertices per generated mesh ({})",
                sierra_assets::Budget::MeshVertices.how_to_raise()
            ),
        }
        };
        let mut crowd_members = 0u64;
        for (i, obj) in self.objects.iter().enumerate() {
            if let Some(MeshRef::Primitive(Primitive::Grid { cells })) = obj.mesh {
                let n = u64::from(cells) + 1;
                if n * n > limit {
                    return Err(over(
                        format!("objects[{i}].mesh"),
                        format!("`grid:{cells}`"),
                        n * n,
                    ));
                }
            }
            for (j, c) in obj.components.iter().enumerate() {
                if let Component::Crowd(crowd) = c {
                    crowd_members += u64::from(crowd.count);
                    let cap = self.budgets.crowd_instances;
                    if crowd_members > cap {
                        return Err(Error::Invalid {
                            file: self.file.clone(),
                            json_path: format!("objects[{i}].components[{j}].count"),
                            message: format!(
                                "this crowd brings the level's crowds to {crowd_members} members, more than the limit of {cap} crowd instances per level ({})",
                                sierra_assets::Budget::CrowdInstances.how_to_raise()
                            ),
                        });
                    }
                }
                if let Component::Terrain(t) = c {
                    let r = t.resolution.unsigned_abs();
                    if r.saturating_mul(r) > limit {
                        return Err(over(
                            format!("objects[{i}].components[{j}].resolution"),
                            format!("a terrain of resolution {r}"),
                            r.saturating_mul(r),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    fn check_parent_cycles(&self, index: &HashMap<&str, usize>) -> Result<(), Error> {
        // 0 = unvisited, 1 = on the current walk, 2 = known to reach a root.
        let mut state = vec![0u8; self.objects.len()];
        for start in 0..self.objects.len() {
            let mut walk: Vec<usize> = Vec::new();
            let mut i = start;
            loop {
                match state[i] {
                    2 => break,
                    1 => {
                        let from = walk.iter().position(|&w| w == i).unwrap_or(0);
                        let mut cycle: Vec<String> = walk[from..]
                            .iter()
                            .map(|&w: &usize| self.objects[w].name.clone())
                            .collect();
                        cycle.push(self.objects[i].name.clone());
                        let last = walk.last().copied().unwrap_or(i);
                        return Err(Error::ParentCycle {
                            file: self.file.clone(),
                            json_path: format!("objects[{last}].parent"),
                            cycle,
                        });
                    }
                    _ => {}
                }
                state[i] = 1;
                walk.push(i);
                match self.objects[i].parent.as_deref().and_then(|p| index.get(p)) {
                    Some(&p) => i = p,
                    None => break,
                }
            }
            for w in walk {
                state[w] = 2;
            }
        }
        Ok(())
    }
}

/// Opens `asset` through `resolver` (inside the root, a regular file) and checks its size
/// against `max_bytes` without reading it; returns where it is.
///
/// # Errors
/// [`Error::OutsideAssetRoot`], [`Error::AssetNotFound`], [`Error::Asset`].
/// A texture path must name a `.png`, `.jpg` or `.jpeg` image (the decoders the engine has).
fn check_image_extension(path: &Path) -> Result<(), String> {
    let lower = path.to_string_lossy().to_ascii_lowercase();
    if [".png", ".jpg", ".jpeg"].iter().any(|e| lower.ends_with(e)) {
        Ok(())
    } else {
        Err(format!(
            "`{}` is not a .png/.jpg/.jpeg image",
            path.display()
        ))
    }
}

fn check_asset(resolver: &Resolver, asset: &Path, max_bytes: u64) -> Result<PathBuf, Error> {
    let file = resolver.open(asset)?;
    if file.len() > max_bytes {
        // Reading refuses it the same way; say so now, at the level's JSON path.
        file.read(max_bytes)?;
    }
    Ok(resolver.display(asset))
}

fn json_error(file: &Path, json_path: String, inner: serde_json::Error) -> Error {
    let (line, column) = (inner.line(), inner.column());
    let mut message = inner.to_string();
    let suffix = format!(" at line {line} column {column}");
    if let Some(stripped) = message.strip_suffix(&suffix) {
        message = stripped.to_string();
    }
    Error::Json {
        file: file.to_path_buf(),
        json_path,
        line,
        column,
        message,
    }
}

/// The JSON Schema (draft 2020-12) of level files, as committed in `assets/levels/schema.json`.
pub fn level_schema() -> serde_json::Value {
    let mut schema = schemars::schema_for!(Level).to_value();
    if let Some(obj) = schema.as_object_mut() {
        obj.insert(
            "description".into(),
            serde_json::Value::String(format!(
                "Sierra level file v0 (crates/sierra_scene/src/level). Component types: {}. Mesh primitives: {}.",
                COMPONENT_TYPES.join(", "),
                PRIMITIVE_NAMES.join(", ")
            )),
        );
    }
    schema
}
