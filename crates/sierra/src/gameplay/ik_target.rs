//! `IkTarget` components → [`IkTask`]s of the characters' [`IkHook`], and the figure-eight
//! path of an orb target.
//!
//! Joint limits: the level's `limits` entry for a chain joint if there is one, otherwise the
//! model's own — seed 001's `ConstraintDef` in the joint node's glTF `extras.constraint`
//! (read by [`sierra_scene::assets::node_extras`] into `sierra_anim`'s type) — otherwise none.
//!
//! Validation happens at load with the level file and JSON path: unknown character, unknown
//! joint name, a chain that is not a parent chain, a zero-length bone, limits with min > max
//! or on joints outside the chain, malformed extras on a chain joint. Each tick the goal is the target node's world position,
//! propagated in the same tick before the animation jobs run (seed 000's frame order).

use std::path::Path;

use glam::{Affine3A, Vec3};
use sierra_anim::ik::{
    ConstraintDef, ConstraintType, FabrikSettings, IkChain, IkError, IkGoal, IkHook, IkSolver,
    IkTask,
};
use sierra_scene::components::{IkSolverKind, IkTarget, LimitType};
use sierra_scene::{NodeId, Scene};

use super::character::Character;
use super::error::GameplayError;

/// A target node bound to a task of the hook.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IkBinding {
    /// The node whose world position is the goal.
    pub target: NodeId,
    /// Task index in the hook.
    pub task: usize,
    /// Pole in the character node's frame.
    pub pole: Option<Vec3>,
    /// Character index.
    pub character: usize,
}

/// The limit the character's model gives joint `name`: its skin joint node's
/// `extras.constraint`, or no limit.
///
/// Errors: the extras message (field named) for malformed extras.
fn model_constraint(character: &Character, name: &str) -> Result<ConstraintDef, String> {
    let asset = &character.model.asset;
    let Some(node) = asset
        .skins
        .first()
        .and_then(|skin| {
            skin.joint_nodes
                .iter()
                .find(|&&n| asset.nodes.get(n).is_some_and(|node| node.name == name))
        })
        .and_then(|&n| asset.nodes.get(n))
    else {
        return Ok(ConstraintDef::default());
    };
    let parent = node
        .parent
        .and_then(|p| asset.nodes.get(p))
        .map(|p| p.name.as_str());
    let (_, constraint) = sierra_scene::assets::node_extras(node.extras.as_ref(), parent)?;
    Ok(constraint.unwrap_or_default())
}

/// Builds the task of one `IkTarget` on `character` (index `index`).
///
/// Errors: [`GameplayError::Ik`] with `json_path` (`objects[i].components[j]`) + the field.
pub fn build_task(
    component: &IkTarget,
    character: &Character,
    index: usize,
    file: &Path,
    json_path: &str,
) -> Result<IkTask, GameplayError> {
    let skeleton = &character.model.skeleton;
    let err = |field: String, source: IkError| GameplayError::Ik {
        file: file.to_owned(),
        json_path: format!("{json_path}.{field}"),
        source,
    };
    let chain = IkChain::from_joint_names(skeleton, component.chain.as_slice()).map_err(|e| {
        let field = match &e {
            IkError::UnknownJoint { position, .. } | IkError::NotAParentChain { position, .. } => {
                format!("chain[{position}]")
            }
            _ => "chain".to_owned(),
        };
        err(field, e)
    })?;
    for name in component.limits.keys() {
        let position = component.chain.iter().position(|c| c == name);
        if position.is_none_or(|p| p + 1 == component.chain.len()) {
            return Err(GameplayError::LimitOutsideChain {
                file: file.to_owned(),
                json_path: format!("{json_path}.limits.{name}"),
                joint: name.clone(),
            });
        }
    }
    let defs: Vec<ConstraintDef> = component.chain[..component.chain.len() - 1]
        .iter()
        .map(|name| match component.limits.get(name) {
            None => {
                model_constraint(character, name).map_err(|message| GameplayError::ModelExtras {
                    file: file.to_owned(),
                    json_path: format!("{json_path}.chain"),
                    joint: name.clone(),
                    message,
                })
            }
            Some(l) => Ok(ConstraintDef {
                kind: match l.kind {
                    LimitType::None => ConstraintType::None,
                    LimitType::BallSocket => ConstraintType::BallSocket,
                    LimitType::Hinge => ConstraintType::Hinge,
                },
                swing_limit_deg: l.swing_limit_deg,
                twist_limit_deg: l.twist_limit_deg,
                hinge_min_deg: l.hinge_min_deg,
                hinge_max_deg: l.hinge_max_deg,
                hinge_axis: l.hinge_axis,
            }),
        })
        .collect::<Result<Vec<_>, GameplayError>>()?;
    let chain = chain.with_constraint_defs(&defs).map_err(|e| {
        let field = match &e {
            IkError::LimitMinGreaterThanMax { position, .. }
            | IkError::InvalidLimit { position, .. } => {
                format!("limits.{}", component.chain[*position])
            }
            _ => "limits".to_owned(),
        };
        err(field, e)
    })?;
    // Zero-length bones: measured on the rest pose, so a bad chain fails at load, not mid-game.
    let mut rest = vec![glam::Mat4::IDENTITY; skeleton.joint_count()];
    sierra_anim::local_to_model(
        skeleton,
        skeleton.rest_pose(),
        glam::Mat4::IDENTITY,
        &mut rest,
    )
    .map_err(|source| GameplayError::Anim {
        file: file.to_owned(),
        source,
    })?;
    for (position, pair) in chain.joints().windows(2).enumerate() {
        let length = (rest[pair[1]].w_axis - rest[pair[0]].w_axis)
            .truncate()
            .length();
        if length < 1e-5 {
            return Err(err(
                format!("chain[{position}]"),
                IkError::ZeroLengthBone {
                    position,
                    joint: pair[0],
                    length,
                },
            ));
        }
    }
    let solver = match component.solver {
        IkSolverKind::Fabrik => IkSolver::Fabrik(FabrikSettings::default()),
        IkSolverKind::TwoBone => {
            if chain.joints().len() < 3 {
                return Err(err(
                    "chain".into(),
                    IkError::ChainTooShort {
                        len: chain.joints().len(),
                        min: 3,
                    },
                ));
            }
            IkSolver::TwoBone { softness: 0.0 }
        }
    };
    Ok(IkTask {
        character: index,
        chain,
        solver,
        goal: IkGoal {
            target: Vec3::ZERO,
            pole: None,
            weight: component.weight.clamp(0.0, 1.0),
        },
    })
}

/// Sets every task's goal from its target node's world position (call after propagation,
/// before the animation jobs).
pub fn update_goals(
    hook: &mut IkHook,
    bindings: &[IkBinding],
    characters: &[Character],
    scene: &Scene,
) {
    for b in bindings {
        let Some(task) = hook.tasks_mut().get_mut(b.task) else {
            continue;
        };
        if let Some(w) = scene.graph.world(b.target) {
            task.goal.target = Vec3::from(w.translation);
        }
        task.goal.pole = b.pole.map(|pole| {
            let frame = characters
                .get(b.character)
                .and_then(|c| scene.graph.world(c.node))
                .unwrap_or(Affine3A::IDENTITY);
            frame.transform_point3(pole)
        });
    }
}
