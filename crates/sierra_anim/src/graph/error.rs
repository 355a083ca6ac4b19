//! Errors of graph assets: each names the file and the JSON path at fault.

use std::path::PathBuf;

/// A graph that cannot be parsed, validated or bound to a model.
#[derive(Debug, thiserror::Error)]
pub enum GraphError {
    /// The JSON does not match the schema (`assets/anim/graph.schema.json`).
    #[error("{}: at `{json_path}` (line {line}, column {column}): {message}", file.display())]
    Json {
        /// Graph file.
        file: PathBuf,
        /// JSON path of the offending value (`layers[0].states[2].clip`).
        json_path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde found wrong.
        message: String,
    },
    /// Well-formed JSON with a wrong value: an unknown state, parameter or clip slot, a
    /// condition that does not fit its parameter's type, a duplicate name, a bad number.
    #[error("{}: at `{json_path}`: {message}", file.display())]
    Invalid {
        /// Graph file.
        file: PathBuf,
        /// JSON path of the offending value.
        json_path: String,
        /// What is wrong and what is allowed.
        message: String,
    },
}
