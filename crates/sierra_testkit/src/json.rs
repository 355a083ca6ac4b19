//! JSON that programs under test print or write (`stats.json`, `bench --json`, `pose`), read
//! with failure messages that show the text, and compared with a tolerance for numbers.

use std::path::Path;

use serde_json::Value;

/// `bytes` (a program's standard output) parsed as one JSON document.
///
/// # Panics
/// When it is not JSON (the error and the text in the message).
pub fn parse(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", String::from_utf8_lossy(bytes)))
}

/// The JSON document in the file at `path` (e.g. a run's `stats.json`).
///
/// # Panics
/// When the file cannot be read or is not JSON (the path in the message).
pub fn read(path: &Path) -> Value {
    let bytes =
        std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// The numbers of the JSON array `v` as `f32` (a matrix, a track's key values).
///
/// # Panics
/// When `v` is not an array of numbers (the value in the message).
pub fn f32_array(v: &Value) -> Vec<f32> {
    let numbers = v.as_array().unwrap_or_else(|| panic!("not an array: {v}"));
    numbers
        .iter()
        .map(|x| x.as_f64().unwrap_or_else(|| panic!("not a number: {x}")) as f32)
        .collect()
}

/// Structural equality, with numbers equal within `1e-6 × (1 + |b|)`: JSON text round-trips
/// an `f32` through `f64`, so a printed pose equals the in-memory one only to that tolerance.
/// Objects must have the same keys, arrays the same lengths.
pub fn approx_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            (x - y).abs() <= 1e-6 * (1.0 + y.abs())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| approx_eq(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| approx_eq(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::{approx_eq, f32_array};
    use serde_json::json;

    #[test]
    fn numbers_agree_within_the_f32_round_trip_and_shapes_must_match() {
        assert!(approx_eq(
            &json!({"a": [1.0, 2.0]}),
            &json!({"a": [1.0000005, 2.0]})
        ));
        assert!(!approx_eq(
            &json!({"a": [1.0, 2.0]}),
            &json!({"a": [1.001, 2.0]})
        ));
        assert!(!approx_eq(&json!({"a": [1.0]}), &json!({"a": [1.0, 2.0]})));
        assert!(!approx_eq(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(!approx_eq(&json!("x"), &json!("y")));
        assert_eq!(f32_array(&json!([1, 2.5, -3])), [1.0, 2.5, -3.0]);
    }
}
