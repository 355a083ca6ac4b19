//! Errors of the water-columns simulation.

use thiserror::Error;

/// Everything that can go wrong when building or stepping a [`super::WaterSim`].
///
/// Every variant names the offending value so a CLI or level loader can print
/// it as is. Nothing in `water` panics on user input.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum WaterError {
    /// Grid size zero or above [`super::MAX_GRID_SIDE`] / [`super::MAX_GRID_CELLS`].
    #[error(
        "invalid water grid size {cols}x{rows}: each side must be 1..={max_side} and the grid \
         at most {max_cells} cells"
    )]
    GridSize {
        /// Columns (cells along +X).
        cols: usize,
        /// Rows (cells along +Z).
        rows: usize,
        /// Largest allowed side.
        max_side: usize,
        /// Largest allowed cell count.
        max_cells: usize,
    },
    /// A scalar parameter out of its valid range (negative cell size, NaN gravity...).
    #[error("invalid water parameter `{name}` = {value}: {reason}")]
    Parameter {
        /// Field name as in [`super::WaterParams`] or the level component.
        name: &'static str,
        /// The rejected value.
        value: f32,
        /// What the valid range is.
        reason: &'static str,
    },
    /// An input array does not have `cols * rows` entries.
    #[error("{what} has {found} values, expected {expected} (cols * rows, row-major)")]
    Length {
        /// Which array (`terrain`, `depth`...).
        what: &'static str,
        /// `cols * rows`.
        expected: usize,
        /// What was passed.
        found: usize,
    },
    /// A NaN or infinite value in an input array.
    #[error("{what}[{index}] (col {col}, row {row}) is {value}, not a finite number")]
    NonFinite {
        /// Which array.
        what: &'static str,
        /// Row-major index.
        index: usize,
        /// Column of the cell.
        col: usize,
        /// Row of the cell.
        row: usize,
        /// The value.
        value: f32,
    },
    /// A negative water depth in the initial state.
    #[error("depth[{index}] (col {col}, row {row}) is {value} m; water depth cannot be negative")]
    NegativeDepth {
        /// Row-major index.
        index: usize,
        /// Column of the cell.
        col: usize,
        /// Row of the cell.
        row: usize,
        /// The value.
        value: f32,
    },
    /// A time step above the stability limit (see [`super::WaterParams::max_stable_dt`]).
    #[error(
        "time step {dt} s is above the stability limit {max_dt} s of this grid \
         (pipe-model and CFL bounds); use `advance`, which subdivides, or a smaller step"
    )]
    TimeStepTooLarge {
        /// Requested step, seconds.
        dt: f32,
        /// Largest stable step for the current state, seconds.
        max_dt: f32,
    },
    /// A time step that is zero, negative or not finite.
    #[error("time step {0} s must be finite and > 0")]
    TimeStep(f32),
}

/// Result alias of the water module.
pub type Result<T, E = WaterError> = std::result::Result<T, E>;
