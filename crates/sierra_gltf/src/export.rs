//! A minimal glTF 2.0 binary (`.glb`) writer: the caller builds the JSON
//! document (nodes, meshes, skins, animations, materials) with `serde_json`,
//! and [`GlbWriter`] owns the single binary buffer, its buffer views and
//! accessors, then packs JSON + BIN chunks (glTF 2.0 §4.4 "GLB File Format").
//!
//! Used by the built-in mannequin so that the in-memory model and
//! `sierra export-mannequin OUT.glb` are the same bytes and go through the same
//! importer as every sample model.

use serde_json::{json, Value};

/// glTF accessor component types (glTF 2.0 §3.6.2.2).
const FLOAT: u32 = 5126;
const UNSIGNED_BYTE: u32 = 5121;
const UNSIGNED_SHORT: u32 = 5123;
const UNSIGNED_INT: u32 = 5125;
/// bufferView targets.
const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;

/// Accumulates one binary buffer with its `bufferViews` and `accessors`.
#[derive(Debug, Default)]
pub struct GlbWriter {
    bin: Vec<u8>,
    buffer_views: Vec<Value>,
    accessors: Vec<Value>,
}

impl GlbWriter {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        // Accessor offsets must be multiples of the component size: keep views 4-aligned.
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut v = json!({ "buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len() });
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        self.bin.extend_from_slice(bytes);
        self.buffer_views.push(v);
        self.buffer_views.len() - 1
    }

    fn accessor(&mut self, view: usize, component: u32, count: usize, kind: &str) -> usize {
        self.accessors.push(json!({
            "bufferView": view, "componentType": component, "count": count, "type": kind
        }));
        self.accessors.len() - 1
    }

    /// Float accessor of `kind` (`"SCALAR"`, `"VEC3"`, `"VEC4"`, `"MAT4"`) whose
    /// elements have `width` floats each; `data.len()` must be a multiple of `width`.
    /// With `min_max`, writes per-component `min`/`max` (required for POSITION and
    /// animation inputs). Returns the accessor index.
    pub fn floats(
        &mut self,
        data: &[f32],
        width: usize,
        kind: &str,
        vertex: bool,
        min_max: bool,
    ) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|f| f.to_le_bytes()).collect();
        let view = self.view(&bytes, vertex.then_some(ARRAY_BUFFER));
        let count = data.len() / width.max(1);
        let a = self.accessor(view, FLOAT, count, kind);
        if min_max && count > 0 {
            let mut min = vec![f32::INFINITY; width];
            let mut max = vec![f32::NEG_INFINITY; width];
            for e in data.chunks_exact(width) {
                for (c, &x) in e.iter().enumerate() {
                    min[c] = min[c].min(x);
                    max[c] = max[c].max(x);
                }
            }
            self.accessors[a]["min"] = json!(min);
            self.accessors[a]["max"] = json!(max);
        }
        a
    }

    /// `JOINTS_0` accessor: 4 unsigned bytes per vertex (so at most 256 joints).
    pub fn joints_u8(&mut self, data: &[[u8; 4]]) -> usize {
        let bytes: Vec<u8> = data.iter().flatten().copied().collect();
        let view = self.view(&bytes, Some(ARRAY_BUFFER));
        self.accessor(view, UNSIGNED_BYTE, data.len(), "VEC4")
    }

    /// Triangle-list indices: `u16` when every index fits, else `u32`.
    pub fn indices(&mut self, data: &[u32]) -> usize {
        if data.iter().all(|&i| i <= u32::from(u16::MAX)) {
            let bytes: Vec<u8> = data
                .iter()
                .flat_map(|&i| (i as u16).to_le_bytes())
                .collect();
            let view = self.view(&bytes, Some(ELEMENT_ARRAY_BUFFER));
            self.accessor(view, UNSIGNED_SHORT, data.len(), "SCALAR")
        } else {
            let bytes: Vec<u8> = data.iter().flat_map(|i| i.to_le_bytes()).collect();
            let view = self.view(&bytes, Some(ELEMENT_ARRAY_BUFFER));
            self.accessor(view, UNSIGNED_INT, data.len(), "SCALAR")
        }
    }

    /// Adds `buffers`, `bufferViews` and `accessors` to `document` and packs it
    /// as a `.glb`: 12-byte header, JSON chunk padded with spaces, BIN chunk
    /// padded with zeros (both to 4 bytes), as glTF 2.0 §4.4 requires.
    pub fn finish(mut self, mut document: Value) -> Vec<u8> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        document["buffers"] = json!([{ "byteLength": self.bin.len() }]);
        document["bufferViews"] = Value::Array(self.buffer_views);
        document["accessors"] = Value::Array(self.accessors);
        let mut json_bytes = document.to_string().into_bytes();
        while !json_bytes.len().is_multiple_of(4) {
            json_bytes.push(b' ');
        }
        let total = 12 + 8 + json_bytes.len() + 8 + self.bin.len();
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(json_bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&json_bytes);
        out.extend_from_slice(&(self.bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&self.bin);
        out
    }
}
