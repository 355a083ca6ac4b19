//! Inverse kinematics and attachments.
//!
//! - [`fabrik`]: FABRIK (Aristidou & Lasenby, Graphical Models 73(5), 2011) iterated to a
//!   tolerance, with a pole and per-joint limits applied inside the iterations.
//! - [`constraints`]: hinge and ball-and-socket limits, seed 001's `ConstraintDef`.
//! - [`rotations`]: solved positions back to local rotations (seed 000's conversion, with the
//!   collinear/opposite cases made stable).
//! - [`two_bone`]: analytic two-bone IK with pole and soft reach.
//! - [`ccd`]: Cyclic Coordinate Descent, the baseline of the paper's Table 1.
//! - [`chain`]: [`IkChain`] (validated skeleton joints + limits) and the solve step that edits a
//!   skeleton pose's local rotations — what the character job's post-sampling hook calls.
//! - [`hook`]: [`IkHook`], the character job's post-sampling hook running [`IkTask`]s.
//! - [`attachment`]: nodes fixed to joints (a sword in a hand).
//! - [`continuity`]: per-frame rotation change, for "no popping" checks of scripted runs.
//!
//! Frame order (ARCHITECTURE "One frame"): sample → blend → local-to-model → IK edits the chain's
//! local rotations (it needs model-space positions) → local-to-model again from
//! [`IkChain::root_joint`] → palette → attachments.
//!
//! Conventions: right-handed, Y up, metres, radians, column-major matrices (glTF).

pub mod attachment;
pub mod ccd;
pub mod chain;
pub mod constraints;
pub mod continuity;
mod error;
pub mod fabrik;
pub mod hook;
pub mod pose;
mod refine;
pub mod rotations;
pub mod two_bone;

pub use attachment::Attachment;
pub use ccd::solve_ccd;
pub use chain::{IkChain, IkGoal, IkSolver};
pub use constraints::{ConstraintDef, ConstraintType, JointLimit};
pub use continuity::{max_rotation_change, rotation_change, RotationChangeTracker};
pub use error::IkError;
pub use fabrik::{solve_positions, FabrikSettings, SolveReport};
pub use hook::{IkHook, IkTask};
pub use pose::ChainPose;
pub use rotations::{aim_chain, shortest_arc};
pub use two_bone::{solve_two_bone, TwoBoneSolution};
