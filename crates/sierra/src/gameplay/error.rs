//! The errors of building and running gameplay ([`GameplayError`]).

use std::path::PathBuf;

use sierra_anim::ik::IkError;
use sierra_anim::AnimError;

/// Errors building or running gameplay; each names the level file and JSON path.
#[derive(Debug, thiserror::Error)]
pub enum GameplayError {
    /// The character model could not be imported.
    #[error("{}: at `{json_path}`: {source}", file.display())]
    Model {
        /// Level file.
        file: PathBuf,
        /// JSON path of the `model` field.
        json_path: String,
        /// Import error (names the model file).
        source: sierra_gltf::Error,
    },
    /// A joint node of the character's model has malformed seed 001 extras.
    #[error("{}: at `{json_path}`: model joint `{joint}`: {message}", file.display())]
    ModelExtras {
        /// Level file.
        file: PathBuf,
        /// JSON path of the component using the joint.
        json_path: String,
        /// The joint (glTF node name).
        joint: String,
        /// What is wrong (names the extras field).
        message: String,
    },
    /// The model has no skin, so it cannot be a character.
    #[error("{}: at `{json_path}`: model `{model}` has no skin (a Character needs a skinned glTF model)", file.display())]
    NoSkin {
        /// Level file.
        file: PathBuf,
        /// JSON path of the `model` field.
        json_path: String,
        /// The model as written.
        model: String,
    },
    /// A clip name the model does not have.
    #[error("{}: at `{json_path}`: model `{model}` has no clip `{clip}` (clips: {available})", file.display())]
    UnknownClip {
        /// Level file.
        file: PathBuf,
        /// JSON path of the clip name.
        json_path: String,
        /// Model.
        model: String,
        /// Missing name.
        clip: String,
        /// Comma-separated clip names.
        available: String,
    },
    /// A gameplay state without a clip, or bound to a clip the model lacks.
    #[error("{}: at `{json_path}`: state `{state}`: {problem} (model `{model}` has clips {available})", file.display())]
    StateClip {
        /// Level file.
        file: PathBuf,
        /// JSON path of the binding (or of the `clips` field).
        json_path: String,
        /// The state (a clip slot of the player graph: `idle`, `walk`, `run` …).
        state: String,
        /// What is wrong.
        problem: String,
        /// The model as written.
        model: String,
        /// The model's clips as `index: "name"`.
        available: String,
    },
    /// A reference to an object that has no `Character`.
    #[error("{}: at `{json_path}`: no object named `{name}` carries a Character component", file.display())]
    NotACharacter {
        /// Level file.
        file: PathBuf,
        /// JSON path of the reference.
        json_path: String,
        /// The name.
        name: String,
    },
    /// An unknown object name.
    #[error("{}: at `{json_path}`: no object is named `{name}`", file.display())]
    UnknownObject {
        /// Level file.
        file: PathBuf,
        /// JSON path.
        json_path: String,
        /// The name.
        name: String,
    },
    /// A joint name not in the character's skeleton.
    #[error("{}: at `{json_path}`: no joint named `{joint}` in the character's skeleton", file.display())]
    UnknownJoint {
        /// Level file.
        file: PathBuf,
        /// JSON path.
        json_path: String,
        /// The name.
        joint: String,
    },
    /// An IK chain or limit error.
    #[error("{}: at `{json_path}`: {source}", file.display())]
    Ik {
        /// Level file.
        file: PathBuf,
        /// JSON path of the offending field.
        json_path: String,
        /// What is wrong.
        source: IkError,
    },
    /// A limit on a joint that is not a bone start of the chain.
    #[error("{}: at `{json_path}`: joint `{joint}` is not in the chain (or is its end effector, which has no bone to limit)", file.display())]
    LimitOutsideChain {
        /// Level file.
        file: PathBuf,
        /// JSON path.
        json_path: String,
        /// The joint.
        joint: String,
    },
    /// The player's animation graph does not fit the character's model.
    #[error("{}: at `{json_path}`: {source}", file.display())]
    Graph {
        /// Level file.
        file: PathBuf,
        /// JSON path of the component.
        json_path: String,
        /// What is wrong (names the graph file and its JSON path).
        source: sierra_anim::graph::GraphError,
    },
    /// An animation job failed.
    #[error("{}: animation: {source}", file.display())]
    Anim {
        /// Level file.
        file: PathBuf,
        /// What failed.
        source: AnimError,
    },
    /// A scene graph edit failed.
    #[error("{}: scene: {source}", file.display())]
    Scene {
        /// Level file.
        file: PathBuf,
        /// What failed.
        source: sierra_scene::Error,
    },
}
