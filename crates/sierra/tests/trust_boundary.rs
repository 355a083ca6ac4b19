//! Issue #21: hostile but small inputs, each built here in a temporary folder and run through
//! the `sierra` binary in a child process under a 1 GiB address-space limit with a wall-clock
//! timeout (`sierra_testkit::child`), so a regression fails the test instead of the machine.
//! Every escape case also places an outside file that would make the load *succeed* if it were
//! read, and a positive control shows the same input loads when the file is inside the root.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::{json, Value};
use sierra_testkit::child::{run_limited, Limits, Outcome};

const GIB: u64 = 1 << 30;

fn sierra(args: &[&str]) -> Outcome {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sierra"));
    cmd.args(args).env("RUST_LOG", "warn");
    let out = run_limited(
        &mut cmd,
        &Limits::address_space(GIB, Duration::from_secs(60)),
    )
    .expect("spawn sierra");
    assert!(!out.timed_out, "{args:?} timed out: {}", out.describe());
    assert!(
        out.peak_rss_kib < 768 * 1024,
        "{args:?}: peak RSS {} KiB",
        out.peak_rss_kib
    );
    out
}

/// Runs and expects exit 1 with every needle in stderr.
fn refused(args: &[&str], needles: &[&str]) -> String {
    let out = sierra(args);
    assert_eq!(out.exit_code(), Some(1), "{args:?}: {}", out.describe());
    for n in needles {
        assert!(
            out.stderr.contains(n),
            "{args:?}: `{n}` not in:\n{}",
            out.stderr
        );
    }
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    out.stderr
}

fn ok(args: &[&str]) -> Outcome {
    let out = sierra(args);
    assert_eq!(out.exit_code(), Some(0), "{args:?}: {}", out.describe());
    out
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// 16 little-endian f32s of a column-major matrix.
fn mat_bytes(m: [f32; 16]) -> Vec<u8> {
    m.iter().flat_map(|f| f.to_le_bytes()).collect()
}

const IDENTITY: [f32; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// A one-joint skinned glTF (no mesh data needed for `pose`) whose inverse bind matrix is read
/// from buffer 0 at `uri` (64 bytes), with one unnamed clip rotating the joint by `rotation`.
fn skin_gltf(uri: &str, rotation: [f32; 4]) -> (Value, Vec<u8>) {
    // buffer 1 (embedded): time 0 and the rotation key.
    let mut keys = Vec::new();
    keys.extend(0f32.to_le_bytes());
    for r in rotation {
        keys.extend(r.to_le_bytes());
    }
    let b64 = base64_encode(&keys);
    let doc = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "root", "children": [1]}, {"name": "joint"}],
        "skins": [{"joints": [1], "inverseBindMatrices": 0}],
        "buffers": [
            {"uri": uri, "byteLength": 64},
            {"uri": format!("data:application/octet-stream;base64,{b64}"), "byteLength": 20}
        ],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 64},
            {"buffer": 1, "byteOffset": 0, "byteLength": 4},
            {"buffer": 1, "byteOffset": 4, "byteLength": 16}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 1, "type": "MAT4"},
            {"bufferView": 1, "componentType": 5126, "count": 1, "type": "SCALAR", "min": [0.0], "max": [0.0]},
            {"bufferView": 2, "componentType": 5126, "count": 1, "type": "VEC4"}
        ],
        "animations": [{
            "samplers": [{"input": 1, "output": 2, "interpolation": "LINEAR"}],
            "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]
        }]
    });
    (doc, mat_bytes(IDENTITY))
}

fn base64_encode(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= c.len() {
                out.push(T[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn write_json(path: &Path, v: &Value) {
    std::fs::write(path, serde_json::to_vec(v).unwrap()).unwrap();
}

/// `tmp/root/models/` with the model, `tmp/secret.bin` outside (valid bytes: reading it would
/// make the load succeed).
struct Layout {
    _dir: tempfile::TempDir,
    tmp: PathBuf,
    root: PathBuf,
    models: PathBuf,
}

fn layout() -> Layout {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().to_path_buf();
    let root = tmp.join("root");
    let models = root.join("models");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::write(tmp.join("secret.bin"), mat_bytes(IDENTITY)).unwrap();
    Layout {
        _dir: dir,
        tmp,
        root,
        models,
    }
}

#[test]
fn gltf_buffer_uris_cannot_leave_the_root() {
    let l = layout();
    let model = l.models.join("m.gltf");
    let secret = l.tmp.join("secret.bin");
    std::os::unix::fs::symlink(&secret, l.models.join("link.bin")).unwrap();
    let abs = secret.display().to_string();
    let file_uri = format!("file://{abs}");
    for uri in [
        "../../secret.bin",
        abs.as_str(),
        "..%2F..%2Fsecret.bin",
        "link.bin",
    ] {
        write_json(&model, &skin_gltf(uri, [0.0, 0.0, 0.0, 1.0]).0);
        refused(
            &["pose", s(&model), "--list"],
            &["buffer 0", "outside the asset root"],
        );
        // A root the user chose that still excludes the file.
        refused(
            &["pose", s(&model), "--list", "--asset-root", s(&l.root)],
            &["buffer 0", "outside the asset root", "(--asset-root)"],
        );
    }
    write_json(&model, &skin_gltf(&file_uri, [0.0, 0.0, 0.0, 1.0]).0);
    refused(
        &["pose", s(&model), "--list"],
        &["buffer 0", "`file:` URIs are refused"],
    );
    // Positive controls: inside the model's folder, and `../` inside a root the user chose.
    std::fs::copy(&secret, l.models.join("in.bin")).unwrap();
    write_json(&model, &skin_gltf("in.bin", [0.0, 0.0, 0.0, 1.0]).0);
    ok(&["pose", s(&model), "--list"]);
    std::fs::create_dir(l.root.join("bin")).unwrap();
    std::fs::copy(&secret, l.root.join("bin/My Buffer.bin")).unwrap();
    write_json(
        &model,
        &skin_gltf("../bin/My%20Buffer.bin", [0.0, 0.0, 0.0, 1.0]).0,
    );
    refused(&["pose", s(&model), "--list"], &["outside the asset root"]);
    ok(&["pose", s(&model), "--list", "--asset-root", s(&l.root)]);
}

#[test]
fn special_files_are_refused_not_read() {
    let l = layout();
    let model = l.models.join("m.gltf");
    refused(
        &["pose", "/dev/zero", "--list"],
        &["/dev/zero", "a character device"],
    );
    refused(
        &["inspect", "/dev/zero"],
        &["/dev/zero", "a character device"],
    );
    write_json(&model, &skin_gltf("/dev/zero", [0.0, 0.0, 0.0, 1.0]).0);
    refused(
        &["pose", s(&model), "--list"],
        &["buffer 0", "outside the asset root"],
    );
    std::os::unix::fs::symlink("/dev/zero", l.models.join("zero.bin")).unwrap();
    write_json(&model, &skin_gltf("zero.bin", [0.0, 0.0, 0.0, 1.0]).0);
    refused(
        &["pose", s(&model), "--list"],
        &["buffer 0", "outside the asset root"],
    );
    std::fs::create_dir(l.models.join("dev")).unwrap();
    let fifo = std::ffi::CString::new(s(&l.models.join("pipe.bin"))).unwrap();
    // SAFETY: mkfifo on a NUL-terminated path in our temporary folder.
    assert_eq!(unsafe { libc_mkfifo(fifo.as_ptr(), 0o600) }, 0);
    write_json(&model, &skin_gltf("pipe.bin", [0.0, 0.0, 0.0, 1.0]).0);
    refused(&["pose", s(&model), "--list"], &["buffer 0", "a FIFO"]);
    refused(&["inspect", s(&l.models.join("pipe.bin"))], &["a FIFO"]);
}

extern "C" {
    #[link_name = "mkfifo"]
    fn libc_mkfifo(path: *const std::ffi::c_char, mode: u32) -> i32;
}

/// A level in `root/levels/` naming `components` on one object (and `mesh` if given).
fn level(l: &Layout, object: Value) -> PathBuf {
    let dir = l.root.join("levels");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("level.json");
    write_json(&path, &json!({"objects": [object]}));
    path
}

#[test]
fn level_references_cannot_leave_the_root() {
    let l = layout();
    // A mesh inside the root whose buffer lies outside it.
    let (doc, _) = skin_gltf("../../secret.bin", [0.0, 0.0, 0.0, 1.0]);
    write_json(&l.root.join("levels.gltf"), &doc);
    std::fs::create_dir_all(l.root.join("levels")).unwrap();
    write_json(&l.root.join("levels/m.gltf"), &doc);
    let lvl = level(&l, json!({"name": "A", "mesh": "m.gltf"}));
    refused(
        &["inspect", s(&lvl)],
        &["objects[0].mesh", "buffer 0", "outside the asset root"],
    );
    // Character and Crowd models and AudioLoop sounds: absolute, `../`, symlinks.
    let (good, bin) = skin_gltf("in.bin", [0.0, 0.0, 0.0, 1.0]);
    write_json(&l.tmp.join("outside.gltf"), &good);
    std::fs::write(l.tmp.join("in.bin"), &bin).unwrap();
    std::fs::write(l.tmp.join("outside.wav"), b"RIFF").unwrap();
    let levels = l.root.join("levels");
    std::os::unix::fs::symlink(l.tmp.join("outside.gltf"), levels.join("link.gltf")).unwrap();
    std::os::unix::fs::symlink(l.tmp.join("outside.wav"), levels.join("link.wav")).unwrap();
    let abs = l.tmp.join("outside.gltf").display().to_string();
    for model in [abs.as_str(), "../../outside.gltf", "link.gltf"] {
        for component in [
            json!({"type": "Character", "model": model, "clip": "0"}),
            json!({"type": "Crowd", "model": model, "count": 1, "clips": ["0"]}),
        ] {
            let lvl = level(&l, json!({"name": "A", "components": [component]}));
            refused(
                &["inspect", s(&lvl)],
                &["objects[0].components[0].model", "outside the asset root"],
            );
        }
    }
    let lvl = level(
        &l,
        json!({"name": "A", "components": [{"type": "AudioLoop", "source": "link.wav"}]}),
    );
    refused(
        &["inspect", s(&lvl)],
        &["objects[0].components[0].source", "outside the asset root"],
    );
    // Positive control: the same model inside the root loads; its unnamed clip is `"0"`.
    write_json(&levels.join("good.gltf"), &good);
    std::fs::write(levels.join("in.bin"), &bin).unwrap();
    let lvl = level(
        &l,
        json!({"name": "A", "components": [{"type": "Character", "model": "good.gltf", "clip": "0"}]}),
    );
    ok(&["inspect", s(&lvl)]);
    let lvl = level(
        &l,
        json!({"name": "A", "components": [{"type": "Character", "model": "good.gltf", "clip": "Walk"}]}),
    );
    refused(
        &["inspect", s(&lvl)],
        &["objects[0].components[0].clip", "0: (unnamed)"],
    );
}

/// PNG signature + IHDR declaring `w × h` RGBA8 + an empty IDAT + IEND (valid header, no pixels).
fn png_header(w: u32, h: u32) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8], data: &[u8]) {
        out.extend((data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend(kind);
        out.extend(data);
        let crc = crc32(&out[start..]);
        out.extend(crc.to_be_bytes());
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend(w.to_be_bytes());
    ihdr.extend(h.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &[]);
    chunk(&mut out, b"IEND", &[]);
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

#[test]
fn tiny_files_cannot_demand_huge_memory() {
    let l = layout();
    let dir = l.root.join("levels");
    std::fs::create_dir_all(&dir).unwrap();
    // Four PNGs declaring 11000×11000 (and one 100000×100000), each from its header.
    for (name, side) in [("big.gltf", 11000u32), ("huge.gltf", 100_000)] {
        let images: Vec<Value> = (0..4)
            .map(|i| {
                let png = png_header(side, side);
                std::fs::write(dir.join(format!("{name}{i}.png")), &png).unwrap();
                json!({"uri": format!("{name}{i}.png")})
            })
            .collect();
        write_json(
            &dir.join(name),
            &json!({"asset": {"version": "2.0"}, "images": images, "nodes": [{"name": "n"}]}),
        );
        let lvl = dir.join("level.json");
        write_json(&lvl, &json!({"objects": [{"name": "A", "mesh": name}]}));
        refused(
            &["inspect", s(&lvl)],
            &[
                "objects[0].mesh",
                "image 0",
                &format!("width, from its header, is {side} pixels"),
                "limit of 8192 pixels",
                "--max-image-size",
            ],
        );
    }
    // 32 primitives sharing one sparse accessor without a buffer view (2^24 VEC3 each).
    let count = 1u64 << 24;
    let mut bytes = Vec::new();
    bytes.extend(0u32.to_le_bytes());
    bytes.extend([0u8; 12]);
    let prims: Vec<Value> = (0..32)
        .map(|_| json!({"attributes": {"POSITION": 0}}))
        .collect();
    let doc = json!({
        "asset": {"version": "2.0"},
        "buffers": [{"uri": format!("data:application/octet-stream;base64,{}", base64_encode(&bytes)), "byteLength": 16}],
        "bufferViews": [{"buffer": 0, "byteLength": 4}, {"buffer": 0, "byteOffset": 4, "byteLength": 12}],
        "accessors": [{"componentType": 5126, "count": count, "type": "VEC3",
            "min": [0, 0, 0], "max": [0, 0, 0],
            "sparse": {"count": 1, "indices": {"bufferView": 0, "componentType": 5125}, "values": {"bufferView": 1}}}],
        "meshes": [{"primitives": prims}],
        "nodes": [{"mesh": 0}]
    });
    write_json(&dir.join("sparse.gltf"), &doc);
    let lvl = dir.join("level.json");
    write_json(
        &lvl,
        &json!({"objects": [{"name": "A", "mesh": "sparse.gltf"}]}),
    );
    refused(
        &["inspect", s(&lvl)],
        &[
            "accessor 0 (mesh 0 primitive 1 POSITION)",
            "402653184 bytes",
            "limit of 268435456 bytes",
            "--max-gltf-bytes",
        ],
    );
    // Eight grid:4096 objects; a Terrain of resolution 16384; export-obj --resolution 16384.
    let objects: Vec<Value> = (0..8)
        .map(|i| json!({"name": format!("g{i}"), "mesh": "grid:4096"}))
        .collect();
    write_json(&lvl, &json!({"objects": objects}));
    refused(
        &["inspect", s(&lvl)],
        &[
            "objects[0].mesh",
            "`grid:4096` has 16785409 vertices",
            "limit of 4194304",
            "--max-vertices",
        ],
    );
    write_json(
        &lvl,
        &json!({"objects": [{"name": "A", "components": [{"type": "Terrain", "resolution": 16384}]}]}),
    );
    refused(
        &["inspect", s(&lvl)],
        &["objects[0].components[0].resolution", "268435456 vertices"],
    );
    refused(
        &[
            "export-obj",
            "--object",
            "island",
            "--resolution",
            "16384",
            "--out",
            s(&l.tmp.join("obj")),
        ],
        &[
            "--resolution 16384",
            "268435456 vertices",
            "limit of 4194304",
        ],
    );
    // A level may lower a limit but not raise it.
    write_json(
        &lvl,
        &json!({"settings": {"limits": {"meshVertices": 10}}, "objects": [{"name": "A", "mesh": "grid:8"}]}),
    );
    refused(
        &["inspect", s(&lvl)],
        &["`grid:8` has 81 vertices, more than the limit of 10"],
    );
    write_json(
        &lvl,
        &json!({"settings": {"limits": {"meshVertices": 1u64 << 40}}, "objects": [{"name": "A", "mesh": "grid:4096"}]}),
    );
    refused(&["inspect", s(&lvl)], &["limit of 4194304"]);
    ok(&["inspect", s(&lvl), "--max-vertices", "17000000"]);
}

#[test]
fn numbers_are_checked_and_degenerate_input_is_finite() {
    let l = layout();
    let lvl = level(&l, json!({"name": "A", "position": [1e39, 0, 0]}));
    refused(
        &["inspect", s(&lvl)],
        &["objects[0].position[0]", "out of range"],
    );
    // Rotation key (3e38, 0, 0, 3e38) is 90° about X (normalised in f64).
    let model = l.models.join("m.gltf");
    std::fs::write(l.models.join("in.bin"), mat_bytes(IDENTITY)).unwrap();
    write_json(&model, &skin_gltf("in.bin", [3e38, 0.0, 0.0, 3e38]).0);
    let out = ok(&["pose", s(&model), "--clip", "0"]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let world: Vec<f64> = serde_json::from_value(v["joints"][0]["world"].clone()).unwrap();
    // Column 1 (the image of +Y) is +Z after 90° about X.
    for (got, want) in world[4..8].iter().zip([0.0, 0.0, 1.0, 0.0]) {
        assert!((got - want).abs() < 1e-6, "{world:?}");
    }
    // A skinned mesh node scaled by 0: finite matrices, a warning naming the node.
    let (mut doc, _) = skin_gltf("in.bin", [0.0, 0.0, 0.0, 1.0]);
    doc["nodes"][0]["scale"] = json!([0.0, 0.0, 0.0]);
    doc["nodes"][0]["skin"] = json!(0);
    doc["nodes"][0]["mesh"] = json!(0);
    doc["accessors"].as_array_mut().unwrap().push(json!(
        {"bufferView": 0, "componentType": 5126, "count": 1, "type": "VEC3", "min": [1, 0, 0], "max": [1, 0, 0]}
    ));
    doc["meshes"] = json!([{"primitives": [{"attributes": {"POSITION": 3}}]}]);
    write_json(&model, &doc);
    let out = ok(&["pose", s(&model), "--clip", "0"]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    for field in ["world", "skin"] {
        let m = v["joints"][0][field].as_array().unwrap();
        assert!(
            m.len() == 16 && m.iter().all(|x| x.as_f64().is_some_and(f64::is_finite)),
            "{field}: {m:?}"
        );
    }
    assert!(
        out.stderr.contains("node 0 (`root`)") && out.stderr.contains("singular"),
        "{}",
        out.stderr
    );
    // A zero quaternion node: identity with a warning naming the node, not "not finite".
    let (mut doc, _) = skin_gltf("in.bin", [0.0, 0.0, 0.0, 1.0]);
    doc["nodes"][1]["rotation"] = json!([0.0, 0.0, 0.0, 0.0]);
    write_json(&model, &doc);
    let out = ok(&["pose", s(&model), "--list"]);
    assert!(
        out.stderr.contains("node 1 (`joint`)") && out.stderr.contains("zero quaternion"),
        "{}",
        out.stderr
    );
    // A translation of 1e39 in a glTF node is an error naming its path.
    doc["nodes"][1]["translation"] = json!([1e39, 0.0, 0.0]);
    write_json(&model, &doc);
    refused(
        &["pose", s(&model), "--list"],
        &["node 1", "`nodes[1].translation[0]` is inf"],
    );
}

#[test]
fn unclear_errors_are_rewritten() {
    let l = layout();
    // Truncated GLB: at which byte, of how many.
    let glb = sierra_gltf::builtin::mannequin::glb();
    let cut = l.models.join("cut.glb");
    std::fs::write(&cut, &glb[..glb.len() / 2]).unwrap();
    refused(
        &["pose", s(&cut), "--list"],
        &[
            "truncated GLB",
            &format!(
                "declares {} bytes but the file ends at byte {}",
                glb.len(),
                glb.len() / 2
            ),
        ],
    );
    // Bad base64 names the buffer and the offset.
    let model = l.models.join("m.gltf");
    write_json(
        &model,
        &skin_gltf(
            "data:application/octet-stream;base64,@AAA",
            [0.0, 0.0, 0.0, 1.0],
        )
        .0,
    );
    refused(
        &["pose", s(&model), "--list"],
        &["buffer 0", "byte 0 of the payload is `@`"],
    );
    // 65,535 nodes in a static scene load.
    let nodes: Vec<Value> = (0..65_535).map(|_| json!({})).collect();
    write_json(
        &model,
        &json!({"asset": {"version": "2.0"}, "nodes": nodes}),
    );
    ok(&["pose", s(&model), "--list"]);
    // Unknown built-in models list the built-ins.
    refused(
        &["view", "builtin:nothing", "--out", s(&l.tmp.join("v"))],
        &[
            "unknown built-in model `builtin:nothing`",
            "builtin:mannequin",
        ],
    );
}
