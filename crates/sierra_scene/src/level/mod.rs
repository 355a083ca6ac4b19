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
use std::path::{Component as PathComponent, Path, PathBuf};

use glam::{Quat, Vec3};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
    /// The file this level was loaded from (empty for [`Level::from_json_str`] without a path).
    #[serde(skip)]
    pub file: PathBuf,
    /// Folder that asset paths must stay inside (default: the level file's folder).
    #[serde(skip)]
    pub asset_root: PathBuf,
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
    /// HDR → display mapping.
    pub tonemap: Tonemap,
    /// Draw the procedural sky (gradient and sun disc) behind the scene instead of the clear colour.
    pub sky: bool,
    /// Multisample anti-aliasing: samples per pixel of the scene passes, 1 (off, the default)
    /// or 4 (4× MSAA, resolved before bloom and tonemapping).
    #[serde(deserialize_with = "deserialize_msaa")]
    #[schemars(with = "MsaaJson")]
    pub msaa: u32,
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
            tonemap: Tonemap::None,
            sky: false,
            msaa: 1,
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
    let path = path.as_ref();
    let root = path.parent().map(Path::to_path_buf).unwrap_or_default();
    load_level_with_root(path, root)
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
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Level::from_json_str(&text, path, asset_root)
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
        let file = file.into();
        let mut de = serde_json::Deserializer::from_str(text);
        let mut level: Level = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            json_error(&file, path, e.into_inner())
        })?;
        de.end().map_err(|e| json_error(&file, ".".into(), e))?;
        level.file = file;
        level.asset_root = asset_root.into();
        level.validate()?;
        Ok(level)
    }

    /// The folder relative asset paths start from (the level file's folder).
    pub fn folder(&self) -> &Path {
        self.file.parent().unwrap_or(Path::new(""))
    }

    /// Resolves an asset path written in this level (relative to the level's folder)
    /// and checks it stays inside the asset root and exists.
    ///
    /// # Errors
    /// [`Error::OutsideAssetRoot`], [`Error::AssetNotFound`].
    pub fn resolve_asset(&self, asset: &Path) -> Result<PathBuf, Error> {
        resolve_asset_path(&self.asset_root, self.folder(), asset)
    }

    /// Index of the object called `name`.
    pub fn object_index(&self, name: &str) -> Option<usize> {
        self.objects.iter().position(|o| o.name == name)
    }

    fn validate(&self) -> Result<(), Error> {
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
        for (i, obj) in self.objects.iter().enumerate() {
            if let Some(MeshRef::Gltf(rel)) = &obj.mesh {
                self.resolve_asset(rel).map_err(|source| Error::InLevel {
                    file: file.clone(),
                    json_path: format!("objects[{i}].mesh"),
                    source: Box::new(source),
                })?;
            }
            if let Some(NormalMapRef::File(rel)) = &obj.material.normal_map {
                self.resolve_asset(rel).map_err(|source| Error::InLevel {
                    file: file.clone(),
                    json_path: format!("objects[{i}].material.normalMap"),
                    source: Box::new(source),
                })?;
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

/// Resolves `asset` (relative to `folder`) lexically, refusing anything that leaves
/// `root`, then refuses it again if symlinks lead outside, and checks it exists.
///
/// # Errors
/// [`Error::OutsideAssetRoot`] for absolute paths, `..` escapes and symlink escapes;
/// [`Error::AssetNotFound`] when the file does not exist.
pub fn resolve_asset_path(root: &Path, folder: &Path, asset: &Path) -> Result<PathBuf, Error> {
    let written = asset.to_string_lossy().into_owned();
    let root_abs = absolute_lexical(root);
    let outside = |resolved: PathBuf| Error::OutsideAssetRoot {
        asset: written.clone(),
        resolved,
        root: root_abs.clone(),
    };
    if asset.is_absolute()
        || asset
            .components()
            .any(|c| matches!(c, PathComponent::Prefix(_) | PathComponent::RootDir))
    {
        return Err(outside(asset.to_path_buf()));
    }
    let resolved = absolute_lexical(&folder.join(asset));
    if !resolved.starts_with(&root_abs) {
        return Err(outside(resolved));
    }
    if !resolved.is_file() {
        return Err(Error::AssetNotFound {
            asset: written,
            resolved,
        });
    }
    // Symlinks inside the root may point elsewhere: compare canonical paths too.
    if let (Ok(real), Ok(real_root)) = (resolved.canonicalize(), root_abs.canonicalize()) {
        if !real.starts_with(&real_root) {
            return Err(outside(real));
        }
    }
    Ok(resolved)
}

/// Absolute path with `.` and `..` removed without touching the file system.
fn absolute_lexical(path: &Path) -> PathBuf {
    let base = if path.is_absolute() {
        PathBuf::new()
    } else {
        std::env::current_dir().unwrap_or_default()
    };
    let mut out = PathBuf::new();
    for c in base.join(path).components() {
        match c {
            PathComponent::ParentDir => {
                out.pop();
            }
            PathComponent::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
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
