//! Transform propagation against a naive recursive reference, dirty-flag counts and
//! parent-first order under add / remove / re-parent, and the structure-of-arrays pass against
//! the per-node reference (`world[parent] * local.to_affine()`) bit for bit.

mod common;

use common::add_at;
use glam::{Affine3A, EulerRot, Quat, Vec3};
use proptest::prelude::*;
use sierra_scene::graph::{NodeId, SceneGraph, Transform};

/// Small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
    fn transform(&mut self) -> Transform {
        let t = Vec3::new(
            self.range(-2.0, 2.0),
            self.range(-2.0, 2.0),
            self.range(-2.0, 2.0),
        );
        let r = Quat::from_euler(
            EulerRot::XYZ,
            self.range(-3.0, 3.0),
            self.range(-3.0, 3.0),
            self.range(-3.0, 3.0),
        );
        // Mostly near-unit, sometimes non-uniform or mirrored scales.
        let mut s = Vec3::new(
            self.range(0.8, 1.2),
            self.range(0.8, 1.2),
            self.range(0.8, 1.2),
        );
        if self.below(10) == 0 {
            s.x = -s.x;
        }
        Transform::new(t, r, s)
    }
}

/// The reference: world = parent world · local, by recursion up the parent chain, in f64.
fn naive_world(g: &SceneGraph, id: NodeId) -> glam::DMat4 {
    let l = g.local(id).unwrap();
    let local = glam::DMat4::from_scale_rotation_translation(
        l.scale.as_dvec3(),
        l.rotation.as_dquat(),
        l.translation.as_dvec3(),
    );
    match g.parent(id) {
        Some(p) => naive_world(g, p) * local,
        None => local,
    }
}

fn assert_matches_reference(g: &SceneGraph, live: &[NodeId], tol: f64) {
    for &id in live {
        let want = naive_world(g, id);
        let got = glam::Mat4::from(g.world(id).unwrap()).as_dmat4();
        let err = (got - want)
            .to_cols_array()
            .iter()
            .fold(0.0f64, |a, v| a.max(v.abs()));
        // Relative to the matrix magnitude: deep chains of scales > 1 grow the entries.
        let scale = want
            .to_cols_array()
            .iter()
            .fold(1.0f64, |a, v| a.max(v.abs()));
        assert!(
            err <= tol * scale,
            "node {:?} differs by {err} (magnitude {scale})",
            g.path_of(id)
        );
    }
}

fn assert_parent_first(g: &SceneGraph) {
    let order = g.parent_first_order();
    assert_eq!(order.len(), g.len());
    let pos: std::collections::HashMap<NodeId, usize> =
        order.iter().enumerate().map(|(i, &id)| (id, i)).collect();
    for (i, &id) in order.iter().enumerate() {
        if let Some(p) = g.parent(id) {
            assert!(
                pos[&p] < i,
                "parent {:?} after child {:?}",
                g.name(p),
                g.name(id)
            );
            assert!(g.children(p).contains(&id));
        }
    }
}

/// Builds a random forest; parents are drawn from existing nodes.
fn random_graph(rng: &mut Rng, n: usize) -> (SceneGraph, Vec<NodeId>) {
    let mut g = SceneGraph::new();
    let mut ids: Vec<NodeId> = Vec::with_capacity(n);
    for i in 0..n {
        let parent = if ids.is_empty() || rng.below(20) == 0 {
            None
        } else {
            Some(ids[rng.below(ids.len())])
        };
        ids.push(g.add(format!("n{i}"), rng.transform(), parent).unwrap());
    }
    (g, ids)
}

fn is_descendant(g: &SceneGraph, node: NodeId, of: NodeId) -> bool {
    let mut w = Some(node);
    while let Some(x) = w {
        if x == of {
            return true;
        }
        w = g.parent(x);
    }
    false
}

#[test]
fn random_trees_match_naive_recursion() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut g, mut ids) = random_graph(&mut rng, 1000);
    g.propagate();
    assert_matches_reference(&g, &ids, 1e-5);
    for round in 0..30 {
        // Random local edits.
        for _ in 0..rng.below(40) {
            let id = ids[rng.below(ids.len())];
            g.set_local(id, rng.transform());
        }
        // Random re-parenting, including to later nodes (forcing subtree moves) and to roots.
        for _ in 0..rng.below(10) {
            let id = ids[rng.below(ids.len())];
            let target = ids[rng.below(ids.len())];
            if rng.below(8) == 0 {
                g.set_parent(id, None).unwrap();
            } else if is_descendant(&g, target, id) {
                assert!(g.set_parent(id, Some(target)).is_err(), "cycle accepted");
            } else {
                g.set_parent(id, Some(target)).unwrap();
            }
        }
        // Occasionally remove a subtree and add fresh nodes.
        if round % 5 == 4 {
            let victim = ids[rng.below(ids.len())];
            let removed = g.remove(victim).unwrap();
            ids.retain(|&id| g.contains(id));
            assert!(!g.contains(victim) && removed >= 1);
            for k in 0..removed {
                let parent = Some(ids[rng.below(ids.len())]);
                ids.push(
                    g.add(format!("r{round}_{k}"), rng.transform(), parent)
                        .unwrap(),
                );
            }
        }
        assert_parent_first(&g);
        g.propagate();
        assert_eq!(g.len(), ids.len());
        assert_matches_reference(&g, &ids, 1e-5);
    }
}

#[test]
fn frame_without_edits_recomputes_nothing() {
    let mut rng = Rng(7);
    let (mut g, _) = random_graph(&mut rng, 1000);
    assert_eq!(g.propagate().recomputed, 1000);
    let stats = g.propagate();
    assert_eq!(stats.recomputed, 0);
    assert_eq!(stats.visited, 0, "a clean frame should not even scan");
}

#[test]
fn moving_one_node_recomputes_only_its_subtree() {
    let mut g = SceneGraph::new();
    let root = g.add("root", Transform::IDENTITY, None).unwrap();
    let a = add_at(&mut g, "a", Vec3::X, Some(root));
    let b = add_at(&mut g, "b", Vec3::Y, Some(root));
    let a1 = add_at(&mut g, "a1", Vec3::Z, Some(a));
    let _a2 = add_at(&mut g, "a2", Vec3::Z, Some(a));
    let _a11 = add_at(&mut g, "a11", Vec3::Z, Some(a1));
    let _b1 = add_at(&mut g, "b1", Vec3::Z, Some(b));
    g.propagate();
    g.set_local(a, Transform::from_translation(Vec3::new(5.0, 0.0, 0.0)));
    assert_eq!(g.propagate().recomputed, 4, "a, a1, a2, a11");
    assert!(g.moved_last_pass(a1) && !g.moved_last_pass(b));
    let w = g.world(g.find_path("root/a/a1/a11").unwrap()).unwrap();
    assert_eq!(Vec3::from(w.translation), Vec3::new(5.0, 0.0, 2.0));
    // A leaf edit recomputes one node.
    g.set_local(a1, Transform::from_translation(Vec3::ONE));
    assert_eq!(g.propagate().recomputed, 2, "a1 and a11");
}

#[test]
fn reparent_under_a_later_node_keeps_parents_first() {
    let mut g = SceneGraph::new();
    let a = add_at(&mut g, "a", Vec3::X, None);
    let a1 = add_at(&mut g, "a1", Vec3::Y, Some(a));
    let a11 = add_at(&mut g, "a11", Vec3::Z, Some(a1));
    let b = add_at(&mut g, "b", Vec3::new(10.0, 0.0, 0.0), None);
    g.propagate();
    // a1 (slot 1) goes under b (slot 3): its subtree must move behind b.
    g.set_parent(a1, Some(b)).unwrap();
    assert_parent_first(&g);
    assert_eq!(g.parent_first_order(), &[a, b, a1, a11]);
    let stats = g.propagate();
    assert_eq!(stats.recomputed, 2);
    assert_eq!(
        Vec3::from(g.world(a11).unwrap().translation),
        Vec3::new(10.0, 1.0, 1.0)
    );
    assert_eq!(g.find_path("b/a1/a11"), Some(a11));
    assert_eq!(g.path_of(a11).as_deref(), Some("b/a1/a11"));
    // Cycles are refused and leave the graph unchanged.
    assert!(g.set_parent(b, Some(a11)).is_err());
    assert!(g.set_parent(b, Some(b)).is_err());
    assert_parent_first(&g);
    // Ids survive the move; removing b removes its subtree and makes the ids stale.
    assert_eq!(g.remove(b).unwrap(), 3);
    assert!(!g.contains(a11) && g.world(a11).is_none() && !g.set_local(a1, Transform::IDENTITY));
    assert_eq!(g.parent_first_order(), &[a]);
}

#[test]
fn driven_joints_are_not_recomputed_and_attachments_follow() {
    let mut g = SceneGraph::new();
    let character = add_at(&mut g, "Player", Vec3::new(1.0, 0.0, 0.0), None);
    let hips = add_at(&mut g, "Hips", Vec3::Y, Some(character));
    let hand = add_at(&mut g, "Hand_R", Vec3::X, Some(hips));
    let sword = add_at(&mut g, "Sword", Vec3::new(0.0, 0.5, 0.0), Some(hand));
    g.propagate();
    // The animation job writes the joints' world matrices.
    let hips_world = Affine3A::from_translation(Vec3::new(1.0, 1.1, 0.0));
    let hand_world =
        Affine3A::from_rotation_translation(Quat::from_rotation_z(1.0), Vec3::new(1.5, 1.6, 0.2));
    g.set_world(hips, hips_world);
    g.set_world(hand, hand_world);
    let stats = g.propagate();
    assert_eq!(
        stats.recomputed, 1,
        "only the sword is computed; joints are not propagated again"
    );
    assert_eq!(g.world(hand), Some(hand_world));
    let expected = hand_world * Affine3A::from_translation(Vec3::new(0.0, 0.5, 0.0));
    assert!(g.world(sword).unwrap().abs_diff_eq(expected, 1e-6));
    // Moving the character does not overwrite driven joints (the next animation write will).
    g.set_local(
        character,
        Transform::from_translation(Vec3::new(3.0, 0.0, 0.0)),
    );
    assert_eq!(g.propagate().recomputed, 1);
    assert_eq!(g.world(hand), Some(hand_world));
}

/// The per-node pass the structure-of-arrays pass replaced, by recursion in f32 with glam's
/// operations: `world = parent_world * local.to_affine()`.
fn per_node_reference(g: &SceneGraph, id: NodeId) -> Affine3A {
    let local = g.local(id).unwrap().to_affine();
    match g.parent(id) {
        Some(p) => per_node_reference(g, p) * local,
        None => local,
    }
}

fn assert_bit_equal_to_per_node_reference(g: &SceneGraph, ids: &[NodeId]) {
    for &id in ids {
        let want = per_node_reference(g, id);
        let got = g.world(id).unwrap();
        assert!(
            got.to_cols_array().map(f32::to_bits) == want.to_cols_array().map(f32::to_bits),
            "node {:?}: {got:?} != {want:?}",
            g.path_of(id)
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random forests, then rounds of random local edits, re-parenting and removals: after every
    /// pass each world matrix has exactly the bits of the per-node reference.
    #[test]
    fn soa_pass_equals_the_per_node_reference_bit_for_bit(
        seed in any::<u64>(),
        n in 1usize..260,
        rounds in 1usize..6,
    ) {
        let mut rng = Rng(seed | 1);
        let (mut g, mut ids) = random_graph(&mut rng, n);
        g.propagate();
        assert_bit_equal_to_per_node_reference(&g, &ids);
        for _ in 0..rounds {
            // Removing a root removes its whole subtree, which may be every node left.
            if ids.is_empty() {
                break;
            }
            for _ in 0..rng.below(n) {
                let id = ids[rng.below(ids.len())];
                g.set_local(id, rng.transform());
            }
            for _ in 0..rng.below(4) {
                let id = ids[rng.below(ids.len())];
                let target = ids[rng.below(ids.len())];
                if !is_descendant(&g, target, id) {
                    g.set_parent(id, Some(target)).unwrap();
                }
            }
            if ids.len() > 1 && rng.below(3) == 0 {
                g.remove(ids[rng.below(ids.len())]).unwrap();
                ids.retain(|&id| g.contains(id));
            }
            g.propagate();
            assert_bit_equal_to_per_node_reference(&g, &ids);
        }
    }
}

#[test]
fn the_pass_touches_only_the_moving_subtrees() {
    // Ten 12-node rigs; every second one moves: exactly its nodes are visited and recomputed.
    let mut g = SceneGraph::new();
    let mut roots = Vec::new();
    for r in 0..10 {
        let root = g
            .add(
                format!("rig{r}"),
                Transform::from_translation(Vec3::X),
                None,
            )
            .unwrap();
        let mut last = root;
        for j in 0..11 {
            let parent = if j % 4 == 3 { root } else { last };
            last = g
                .add(
                    format!("j{j}"),
                    Transform::from_translation(Vec3::Y),
                    Some(parent),
                )
                .unwrap();
        }
        roots.push(root);
    }
    g.propagate();
    for &root in roots.iter().step_by(2) {
        g.set_local(root, Transform::from_translation(Vec3::Z));
    }
    let stats = g.propagate();
    assert_eq!(stats.recomputed, 5 * 12);
    assert_eq!(stats.visited, 5 * 12, "static rigs are not scanned");
    // Negative control: a rig that did not move keeps its world, a moved one changed.
    assert!(!g.moved_last_pass(roots[1]) && g.moved_last_pass(roots[2]));
    assert_eq!(Vec3::from(g.world(roots[2]).unwrap().translation), Vec3::Z);
}
