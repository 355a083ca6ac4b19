//! Graph updates and evaluations allocate nothing in the steady state (a counting global
//! allocator, hence its own test binary), events included.

mod graph_common;

use sierra_testkit::alloc::{allocations, count_this_thread, Counting};

use graph_common::Rig;
use sierra_anim::Transform;

#[global_allocator]
static GLOBAL: Counting = Counting;

const GRAPH: &str = r#"{
  "parameters": [ { "name": "speed", "type": "float" }, { "name": "wave", "type": "trigger" } ],
  "clips": [ { "slot": "a", "events": [ { "name": "step", "time": 0.1 } ] },
             { "slot": "c", "events": [ { "name": "step", "time": 0.3 } ] },
             { "slot": "b", "loop": false }, { "slot": "rest" }, { "slot": "lifted" } ],
  "layers": [
    { "name": "base", "entry": "idle", "states": [
        { "name": "idle", "clip": "a" },
        { "name": "move", "blend1d": { "parameter": "speed", "points": [ { "clip": "a", "value": 0 }, { "clip": "c", "value": 2 } ] } } ],
      "transitions": [
        { "from": "idle", "to": "move", "duration": 0.2, "conditions": [ { "parameter": "speed", "test": "greater", "value": 0.5 } ] },
        { "from": "move", "to": "idle", "duration": 0.2, "conditions": [ { "parameter": "speed", "test": "less", "value": 0.5 } ] } ] },
    { "name": "upper", "mask": { "include": ["spine"] }, "entry": "none", "states": [
        { "name": "none", "clip": "rest" }, { "name": "wave", "clip": "b" } ],
      "transitions": [
        { "from": "none", "to": "wave", "duration": 0.1, "conditions": [ { "parameter": "wave", "test": "triggered" } ] },
        { "from": "wave", "to": "none", "duration": 0.1, "exitTime": 1 } ] },
    { "name": "lift", "blend": "additive", "weight": 0.5, "entry": "s", "states": [ { "name": "s", "clip": "lifted" } ] }
  ]
}"#;

#[test]
fn graph_frames_allocate_nothing() {
    count_this_thread();
    let mut rig = Rig::new(GRAPH);
    let mut out = vec![Transform::IDENTITY; rig.skeleton.joint_count()];
    let mut frame = |rig: &mut Rig, f: usize| {
        rig.instance
            .set_float("speed", 1.5 * (f as f32 * 0.05).sin() + 1.0);
        if f % 45 == 0 {
            rig.instance.fire("wave");
        }
        rig.events.clear();
        rig.update(1.0 / 60.0);
        sierra_anim::graph::evaluate_graph(
            &rig.instance,
            &rig.binding,
            &rig.clips,
            &rig.skeleton,
            &mut rig.buffers,
            &mut out,
        )
        .unwrap();
        rig.events.events().len()
    };
    for f in 0..60 {
        frame(&mut rig, f);
    }
    let before = allocations();
    let mut events = 0;
    let mut visited = [[false; 2]; 2];
    for f in 60..600 {
        events += frame(&mut rig, f);
        let after = allocations();
        assert_eq!(after, before, "frame {f} allocated");
        for (layer, v) in visited.iter_mut().enumerate() {
            v[rig.instance.state(layer) as usize] = true;
        }
    }
    // The frames did real work: every state was visited and footsteps fired.
    assert_eq!(visited, [[true; 2]; 2]);
    assert!(events > 10, "{events}");
    assert!(out.iter().all(Transform::is_finite));
    let before = allocations();
    let v = std::hint::black_box(vec![1u8; 10]);
    assert!(allocations() > before && v.len() == 10);
}
