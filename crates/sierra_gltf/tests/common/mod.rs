//! Test-only, independent glTF reading: GLB/JSON parsing, accessor decoding,
//! spec interpolation formulas and naive node-tree products, written without
//! the importer or `sierra_anim` so tests compare against independent values.
#![allow(dead_code)]

use std::path::Path;

use glam::{Mat4, Quat, Vec3, Vec4};
use serde_json::{json, Value};

pub struct RawGltf {
    pub json: Value,
    pub buffers: Vec<Vec<u8>>,
}

const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn base64_decode(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes() {
        let Some(v) = B64.iter().position(|&b| b == c) else {
            continue;
        };
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

pub fn base64_encode(data: &[u8]) -> String {
    let mut s = String::new();
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                s.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

fn u32le(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(b[o..o + 4].try_into().unwrap())
}

impl RawGltf {
    /// The index (a JSON integer) at `pointer` in the document, e.g.
    /// `"/animations/0/samplers/0/input"` (RFC 6901 JSON pointer).
    ///
    /// # Panics
    /// When there is no integer there.
    pub fn index_at(&self, pointer: &str) -> usize {
        self.json
            .pointer(pointer)
            .and_then(|v| v.as_u64())
            .unwrap_or_else(|| panic!("no index at {pointer}")) as usize
    }

    /// The accessor of attribute `name` (e.g. `"WEIGHTS_0"`) of mesh 0's first primitive.
    pub fn first_primitive_attribute(&self, name: &str) -> usize {
        self.index_at(&format!("/meshes/0/primitives/0/attributes/{name}"))
    }

    /// Reads float accessor `index`, lets `edit` change its values, and writes them back
    /// (little-endian `f32`, tightly packed).
    pub fn edit_f32_accessor(&mut self, index: usize, edit: impl FnOnce(&mut Vec<f32>)) {
        let mut values = self.accessor(index);
        edit(&mut values);
        let bytes: Vec<u8> = values.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.write_accessor(index, &bytes);
    }

    /// The shared sample asset `relative` (e.g. `"gltf/Fox/Fox.glb"`) loaded for editing, or
    /// `None` (test skipped, or failed under CI) as [`sierra_testkit::shared_asset`] says.
    pub fn shared(relative: &str) -> Option<Self> {
        sierra_testkit::shared_asset(relative).map(|path| Self::load(&path))
    }

    pub fn load(path: &Path) -> Self {
        let bytes = std::fs::read(path).unwrap();
        if &bytes[0..4] == b"glTF" {
            let jlen = u32le(&bytes, 12) as usize;
            let json: Value = serde_json::from_slice(&bytes[20..20 + jlen]).unwrap();
            let bin_start = 20 + jlen;
            let bin = if bytes.len() > bin_start + 8 {
                let blen = u32le(&bytes, bin_start) as usize;
                bytes[bin_start + 8..bin_start + 8 + blen].to_vec()
            } else {
                Vec::new()
            };
            Self {
                json,
                buffers: vec![bin],
            }
        } else {
            let json: Value = serde_json::from_slice(&bytes).unwrap();
            let buffers = json["buffers"]
                .as_array()
                .map(|bs| {
                    bs.iter()
                        .map(|b| {
                            let uri = b["uri"].as_str().unwrap();
                            if let Some(i) = uri.find(";base64,") {
                                base64_decode(&uri[i + 8..])
                            } else {
                                std::fs::read(path.parent().unwrap().join(uri)).unwrap()
                            }
                        })
                        .collect()
                })
                .unwrap_or_default();
            Self { json, buffers }
        }
    }

    /// Decodes a (non-sparse) accessor to floats (normalized ints per spec).
    pub fn accessor(&self, index: usize) -> Vec<f32> {
        let a = &self.json["accessors"][index];
        let count = a["count"].as_u64().unwrap() as usize;
        let comps = match a["type"].as_str().unwrap() {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "VEC4" => 4,
            "MAT4" => 16,
            t => panic!("{t}"),
        };
        let ct = a["componentType"].as_u64().unwrap();
        let norm = a["normalized"].as_bool().unwrap_or(false);
        let size = match ct {
            5120 | 5121 => 1,
            5122 | 5123 => 2,
            _ => 4,
        };
        let Some(vi) = a["bufferView"].as_u64() else {
            return vec![0.0; count * comps];
        };
        let v = &self.json["bufferViews"][vi as usize];
        let buf = &self.buffers[v["buffer"].as_u64().unwrap() as usize];
        let base = v["byteOffset"].as_u64().unwrap_or(0) as usize
            + a["byteOffset"].as_u64().unwrap_or(0) as usize;
        let stride = v["byteStride"]
            .as_u64()
            .map(|s| s as usize)
            .unwrap_or(size * comps);
        let mut out = Vec::with_capacity(count * comps);
        for i in 0..count {
            for c in 0..comps {
                let o = base + i * stride + c * size;
                let x = match ct {
                    5126 => f32::from_le_bytes(buf[o..o + 4].try_into().unwrap()),
                    5121 => buf[o] as f32 / if norm { 255.0 } else { 1.0 },
                    5123 => {
                        u16::from_le_bytes([buf[o], buf[o + 1]]) as f32
                            / if norm { 65535.0 } else { 1.0 }
                    }
                    5120 => (buf[o] as i8 as f32 / if norm { 127.0 } else { 1.0 }).max(-1.0),
                    5122 => (i16::from_le_bytes([buf[o], buf[o + 1]]) as f32
                        / if norm { 32767.0 } else { 1.0 })
                    .max(-1.0),
                    5125 => u32::from_le_bytes(buf[o..o + 4].try_into().unwrap()) as f32,
                    _ => panic!(),
                };
                out.push(x);
            }
        }
        out
    }

    /// Appends `bytes` to buffer 0 with a new bufferView and accessor; returns the accessor index.
    pub fn add_accessor(
        &mut self,
        bytes: &[u8],
        component_type: u32,
        ty: &str,
        count: usize,
        normalized: bool,
    ) -> usize {
        while self.buffers[0].len() % 4 != 0 {
            self.buffers[0].push(0);
        }
        let offset = self.buffers[0].len();
        self.buffers[0].extend_from_slice(bytes);
        let views = self.json["bufferViews"].as_array_mut().unwrap();
        views.push(json!({"buffer": 0, "byteOffset": offset, "byteLength": bytes.len()}));
        let view = views.len() - 1;
        let accs = self.json["accessors"].as_array_mut().unwrap();
        let mut a = json!({"bufferView": view, "componentType": component_type, "type": ty, "count": count});
        if normalized {
            a["normalized"] = json!(true);
        }
        accs.push(a);
        accs.len() - 1
    }

    /// Overwrites the bytes of accessor `index` (tightly packed view assumed) with `bytes`.
    pub fn write_accessor(&mut self, index: usize, bytes: &[u8]) {
        let a = &self.json["accessors"][index];
        let v = &self.json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
        assert!(
            v["byteStride"].is_null()
                || v["byteStride"].as_u64().unwrap() as usize
                    * a["count"].as_u64().unwrap() as usize
                    == bytes.len()
        );
        let base = v["byteOffset"].as_u64().unwrap_or(0) as usize
            + a["byteOffset"].as_u64().unwrap_or(0) as usize;
        let b = v["buffer"].as_u64().unwrap() as usize;
        self.buffers[b][base..base + bytes.len()].copy_from_slice(bytes);
    }

    /// Serialises as GLB (buffer 0 = BIN chunk).
    pub fn to_glb(&self) -> Vec<u8> {
        let mut json = self.json.clone();
        json["buffers"] = json!([{"byteLength": self.buffers[0].len()}]);
        let mut j = serde_json::to_vec(&json).unwrap();
        while j.len() % 4 != 0 {
            j.push(b' ');
        }
        let mut bin = self.buffers[0].clone();
        while bin.len() % 4 != 0 {
            bin.push(0);
        }
        let total = 12 + 8 + j.len() + 8 + bin.len();
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(j.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&j);
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
        out
    }

    /// Serialises as .gltf JSON with data-URI buffers.
    pub fn to_gltf(&self) -> Vec<u8> {
        let mut json = self.json.clone();
        json["buffers"] = Value::Array(
            self.buffers
                .iter()
                .map(|b| json!({"byteLength": b.len(), "uri": format!("data:application/octet-stream;base64,{}", base64_encode(b))}))
                .collect(),
        );
        serde_json::to_vec(&json).unwrap()
    }

    pub fn node_count(&self) -> usize {
        self.json["nodes"].as_array().unwrap().len()
    }

    pub fn parents(&self) -> Vec<Option<usize>> {
        let mut p = vec![None; self.node_count()];
        for (i, n) in self.json["nodes"].as_array().unwrap().iter().enumerate() {
            for c in n["children"].as_array().into_iter().flatten() {
                p[c.as_u64().unwrap() as usize] = Some(i);
            }
        }
        p
    }

    /// Rest TRS of node `i` (matrix nodes returned as matrix).
    pub fn node_trs(&self, i: usize) -> NodeLocal {
        let n = &self.json["nodes"][i];
        if let Some(m) = n["matrix"].as_array() {
            let v: Vec<f32> = m.iter().map(|x| x.as_f64().unwrap() as f32).collect();
            return NodeLocal::Matrix(Mat4::from_cols_slice(&v));
        }
        let f = |k: &str, d: &[f32]| -> Vec<f32> {
            n[k].as_array()
                .map(|a| a.iter().map(|x| x.as_f64().unwrap() as f32).collect())
                .unwrap_or(d.to_vec())
        };
        NodeLocal::Trs(
            Vec3::from_slice(&f("translation", &[0.0; 3])),
            Quat::from_slice(&f("rotation", &[0.0, 0.0, 0.0, 1.0])),
            Vec3::from_slice(&f("scale", &[1.0; 3])),
        )
    }

    /// World matrices of all nodes (naive recursive product) where the animation
    /// `anim` (if any) is sampled at `t` with the spec formulas.
    pub fn world_matrices(&self, anim: Option<usize>, t: f32) -> Vec<Mat4> {
        let n = self.node_count();
        let mut locals: Vec<NodeLocal> = (0..n).map(|i| self.node_trs(i)).collect();
        if let Some(a) = anim {
            let anim = &self.json["animations"][a];
            for ch in anim["channels"].as_array().unwrap() {
                let node = ch["target"]["node"].as_u64().unwrap() as usize;
                let path = ch["target"]["path"].as_str().unwrap();
                if path == "weights" {
                    continue;
                }
                let v = self.sample_channel(a, ch["sampler"].as_u64().unwrap() as usize, t);
                let NodeLocal::Trs(ref mut tr, ref mut r, ref mut s) = locals[node] else {
                    panic!("animated matrix node")
                };
                match path {
                    "translation" => *tr = v.truncate(),
                    "rotation" => *r = Quat::from_vec4(v),
                    "scale" => *s = v.truncate(),
                    _ => {}
                }
            }
        }
        let parents = self.parents();
        fn world(i: usize, parents: &[Option<usize>], locals: &[NodeLocal]) -> Mat4 {
            let l = match locals[i] {
                NodeLocal::Matrix(m) => m,
                NodeLocal::Trs(t, r, s) => {
                    Mat4::from_translation(t) * Mat4::from_quat(r) * Mat4::from_scale(s)
                }
            };
            match parents[i] {
                Some(p) => world(p, parents, locals) * l,
                None => l,
            }
        }
        (0..n).map(|i| world(i, &parents, &locals)).collect()
    }

    /// Samples sampler `s` of animation `a` at `t` (clamped), by the glTF spec
    /// formulas (Appendix C). Rotations as (x,y,z,w) Vec4; vectors padded with 0.
    pub fn sample_channel(&self, a: usize, s: usize, t: f32) -> Vec4 {
        let v = self.sample_sampler(a, s, t);
        let mut out = [0.0; 4];
        out[..v.len().min(4)].copy_from_slice(&v[..v.len().min(4)]);
        Vec4::from(out)
    }

    /// Samples any sampler (weights: all components) by the spec formulas.
    pub fn sample_sampler(&self, a: usize, s: usize, t: f32) -> Vec<f32> {
        let sampler = &self.json["animations"][a]["samplers"][s];
        let input = self.accessor(sampler["input"].as_u64().unwrap() as usize);
        let out_index = sampler["output"].as_u64().unwrap() as usize;
        let output = self.accessor(out_index);
        let interp = sampler["interpolation"].as_str().unwrap_or("LINEAR");
        let is_rot = self.json["accessors"][out_index]["type"] == "VEC4"
            && self.json["animations"][a]["channels"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["sampler"] == s && c["target"]["path"] == "rotation");
        let n = input.len();
        let cubic = interp == "CUBICSPLINE";
        let w = output.len() / n / if cubic { 3 } else { 1 };
        let val = |k: usize| -> Vec<f32> {
            let base = if cubic { (3 * k + 1) * w } else { k * w };
            output[base..base + w].to_vec()
        };
        if t <= input[0] {
            return val(0);
        }
        if t >= input[n - 1] {
            return val(n - 1);
        }
        let mut k = 0;
        while input[k + 1] <= t {
            k += 1;
        }
        let td = input[k + 1] - input[k];
        let u = (t - input[k]) / td;
        match interp {
            "STEP" => val(k),
            "LINEAR" if is_rot => {
                let (a, mut b) = (Vec4::from_slice(&val(k)), Vec4::from_slice(&val(k + 1)));
                let mut d = a.dot(b);
                if d < 0.0 {
                    b = -b;
                    d = -d;
                }
                let r = if d > 0.9999 {
                    (a + (b - a) * u).normalize()
                } else {
                    let th = d.acos();
                    (a * ((1.0 - u) * th).sin() + b * (u * th).sin()) / th.sin()
                };
                r.to_array().to_vec()
            }
            "LINEAR" => val(k)
                .iter()
                .zip(val(k + 1))
                .map(|(a, b)| a * (1.0 - u) + b * u)
                .collect(),
            _ => {
                let (u2, u3) = (u * u, u * u * u);
                let bk = &output[(3 * k + 2) * w..(3 * k + 3) * w];
                let ak1 = &output[(3 * (k + 1)) * w..(3 * (k + 1) + 1) * w];
                let (vk, vk1) = (val(k), val(k + 1));
                let mut r: Vec<f32> = (0..w)
                    .map(|i| {
                        (2.0 * u3 - 3.0 * u2 + 1.0) * vk[i]
                            + td * (u3 - 2.0 * u2 + u) * bk[i]
                            + (-2.0 * u3 + 3.0 * u2) * vk1[i]
                            + td * (u3 - u2) * ak1[i]
                    })
                    .collect();
                if is_rot {
                    let l = r.iter().map(|x| x * x).sum::<f32>().sqrt();
                    r.iter_mut().for_each(|x| *x /= l);
                }
                r
            }
        }
    }

    pub fn animation_index(&self, name: &str) -> usize {
        self.json["animations"]
            .as_array()
            .unwrap()
            .iter()
            .position(|a| a["name"] == name)
            .unwrap()
    }
}

pub enum NodeLocal {
    Matrix(Mat4),
    Trs(Vec3, Quat, Vec3),
}

pub fn assert_mat_close(a: &Mat4, b: &Mat4, tol: f32, what: &str) {
    let d = a
        .to_cols_array()
        .iter()
        .zip(b.to_cols_array())
        .map(|(x, y)| (x - y).abs())
        .fold(0.0f32, f32::max);
    assert!(d <= tol, "{what}: max difference {d} > {tol}\n{a:?}\n{b:?}");
}
