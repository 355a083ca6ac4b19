//! glTF files built in tests: a minimal GLB writer (glTF 2.0 §4.4 "GLB File Format
//! Specification": a JSON chunk and an optional binary chunk, each padded to 4 bytes) and a
//! JSON merge for variations of one document.

use serde_json::Value;

/// Merges `from` into `into`: objects key by key (recursively), anything else replaced.
pub fn merge(into: &mut Value, from: Value) {
    match (into, from) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                merge(a.entry(k).or_insert(Value::Null), v);
            }
        }
        (slot, v) => *slot = v,
    }
}

/// The GLB of `json` (a glTF JSON document, whose `buffers[0].byteLength` the caller set to
/// `bin.len()` rounded up to 4) and the binary chunk `bin` (none when empty).
pub fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let pad = |bytes: &[u8], with: u8| {
        let mut v = bytes.to_vec();
        v.resize(bytes.len().next_multiple_of(4), with);
        v
    };
    let (json, bin) = (pad(json, b' '), pad(bin, 0));
    let bin_chunk = if bin.is_empty() { 0 } else { 8 + bin.len() };
    let total = 12 + 8 + json.len() + bin_chunk;
    let mut out = b"glTF".to_vec();
    for word in [2, total, json.len()] {
        out.extend((word as u32).to_le_bytes());
    }
    out.extend(b"JSON");
    out.extend(&json);
    if !bin.is_empty() {
        out.extend((bin.len() as u32).to_le_bytes());
        out.extend(b"BIN\0");
        out.extend(&bin);
    }
    out
}
