//! The importer's error type: every variant names the file and the place.

use std::path::PathBuf;

use thiserror::Error;

/// Import errors. Each carries the file and the glTF index (accessor, node,
/// skin, animation) where the problem is.
#[derive(Debug, Error)]
pub enum Error {
    /// The file could not be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// The file.
        file: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The glTF/GLB container or JSON is invalid (truncated `.glb`, bad JSON,
    /// index out of range, missing buffer, undecodable image...).
    #[error("{file}: invalid glTF: {source}")]
    Gltf {
        /// The file.
        file: PathBuf,
        /// The parser's error.
        source: gltf::Error,
    },
    /// A file could not be opened or read within the asset root and budgets (including the
    /// decoded-bytes and image-size budgets of an import).
    #[error("{0}")]
    Asset(#[from] sierra_assets::AssetError),
    /// The GLB container is truncated or malformed (at which byte, of how many).
    #[error("{file}: {reason}")]
    Container {
        /// The file.
        file: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A buffer could not be read (bad URI, outside the root, too short, bad base64).
    #[error("{file}: buffer {buffer}: {reason}")]
    Buffer {
        /// The file.
        file: PathBuf,
        /// Buffer index.
        buffer: usize,
        /// What is wrong.
        reason: String,
    },
    /// The file requires (`extensionsRequired`) a glTF extension Sierra does not read.
    #[error("{file}: requires the glTF extension `{extension}`, which Sierra does not support (supported: {})", supported.join(", "))]
    UnsupportedExtension {
        /// The file.
        file: PathBuf,
        /// The extension's name.
        extension: String,
        /// The extensions Sierra reads ([`crate::SUPPORTED_EXTENSIONS`]).
        supported: Vec<String>,
    },
    /// An `EXT_meshopt_compression` buffer view could not be decoded.
    #[error("{file}: buffer view {view} (EXT_meshopt_compression): {reason}")]
    Meshopt {
        /// The file.
        file: PathBuf,
        /// Buffer view index.
        view: usize,
        /// What is wrong.
        reason: String,
    },
    /// A `builtin:` model name that does not exist.
    #[error("unknown built-in model `{name}`; the built-in models are: {}", available.join(", "))]
    UnknownBuiltin {
        /// The name as given.
        name: String,
        /// The built-in model names.
        available: Vec<String>,
    },
    /// An accessor has the wrong type or lies outside its buffer.
    #[error("{file}: accessor {accessor} ({usage}): {reason}")]
    Accessor {
        /// The file.
        file: PathBuf,
        /// glTF accessor index.
        accessor: usize,
        /// What the accessor is used for, e.g. `mesh 0 primitive 0 JOINTS_0`.
        usage: String,
        /// What is wrong.
        reason: String,
    },
    /// A `JOINTS_n` value indexes past the end of the skin's `joints` array.
    #[error("{file}: accessor {accessor} (mesh {mesh} primitive {primitive} JOINTS_{set}): vertex {vertex} uses joint index {joint}, but skin {skin} used by node {node} has {joint_count} joints")]
    JointIndexOutOfRange {
        /// The file.
        file: PathBuf,
        /// The JOINTS accessor index.
        accessor: usize,
        /// Mesh index.
        mesh: usize,
        /// Primitive index in the mesh.
        primitive: usize,
        /// The n of `JOINTS_n`.
        set: usize,
        /// Vertex index.
        vertex: usize,
        /// The bad joint index.
        joint: usize,
        /// Skin index.
        skin: usize,
        /// The node binding mesh and skin.
        node: usize,
        /// Number of joints of the skin.
        joint_count: usize,
    },
    /// The node hierarchy is not a forest (a node with two parents, or a cycle).
    #[error("{file}: node {node}: {reason}")]
    Node {
        /// The file.
        file: PathBuf,
        /// Node index.
        node: usize,
        /// What is wrong.
        reason: String,
    },
    /// A skin's joint is not part of the scene (not reachable from the scene's root nodes).
    #[error("{file}: skin {skin}: joint {index} is node {node}, which is not in scene {scene}")]
    SkinJointNotInScene {
        /// The file.
        file: PathBuf,
        /// Skin index.
        skin: usize,
        /// Index in the skin's `joints` array.
        index: usize,
        /// The node index.
        node: usize,
        /// The scene used.
        scene: usize,
    },
    /// A skin lists the same node twice in its `joints` (glTF 2.0 §5.28: the joints are unique).
    #[error("{file}: skin {skin}: joints[{index}] is node {node}, already listed as joints[{first}]; a skin's joints must be unique")]
    DuplicateSkinJoint {
        /// The file.
        file: PathBuf,
        /// Skin index.
        skin: usize,
        /// Index in the skin's `joints` array of the repeat.
        index: usize,
        /// Index in `joints` where the node first appears.
        first: usize,
        /// The node index.
        node: usize,
    },
    /// A skin's skeleton (its joints plus their non-joint ancestors) has more joints than
    /// the runtime's 16-bit joint indices address.
    #[error("{file}: skin {skin} lists {joints} joints, and with their {ancestors} non-joint ancestor node(s) its skeleton has {skeleton} joints; at most {max} are supported (joint indices are 16-bit and 65535 marks a root)")]
    SkinTooLarge {
        /// The file.
        file: PathBuf,
        /// Skin index.
        skin: usize,
        /// Length of the skin's `joints`.
        joints: usize,
        /// Ancestors of the joints that are not joints themselves (part of the skeleton).
        ancestors: usize,
        /// Joints of the skeleton (`joints + ancestors`).
        skeleton: usize,
        /// Most joints a skeleton may have.
        max: usize,
    },
    /// Keyframes of an animation channel are invalid (NaN, times not increasing, count mismatch).
    #[error(
        "{file}: animation {animation} ({name:?}) channel {channel}, accessor {accessor}: {reason}"
    )]
    Keyframes {
        /// The file.
        file: PathBuf,
        /// Animation index.
        animation: usize,
        /// Animation name.
        name: String,
        /// Channel index.
        channel: usize,
        /// Input or output accessor index.
        accessor: usize,
        /// What is wrong.
        reason: String,
    },
    /// No clip has this name (or index).
    #[error("{file}: no clip named {name:?}; clips are: {available:?}")]
    UnknownClip {
        /// The file.
        file: PathBuf,
        /// The requested name.
        name: String,
        /// `index: name` of every clip.
        available: Vec<String>,
    },
    /// A skin index that does not exist.
    #[error("{file}: no skin {index} (the file has {count})")]
    UnknownSkin {
        /// The file.
        file: PathBuf,
        /// Requested index.
        index: usize,
        /// Number of skins.
        count: usize,
    },
    /// An image whose pixel format cannot be converted to RGBA8.
    #[error("{file}: image {image}: {reason}")]
    Image {
        /// The file.
        file: PathBuf,
        /// Image index.
        image: usize,
        /// What is wrong.
        reason: String,
    },
    /// Building runtime animation data failed.
    #[error("{file}: {context}: {source}")]
    Anim {
        /// The file.
        file: PathBuf,
        /// Skin/animation being built.
        context: String,
        /// The builder's error.
        source: sierra_anim::AnimError,
    },
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
