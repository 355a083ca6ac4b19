//! The fixed time step: the simulation always advances in ticks of `1 / tick_hz`
//! seconds, whatever the frame rate, so the same level, seed and input give the
//! same frames on any machine ("Fix Your Timestep!", Glenn Fiedler, 2004).
//!
//! Headless runs advance a fixed number of ticks per frame (one, or
//! [`crate::headless::HeadlessOptions::ticks_per_frame`]); a window accumulates real
//! elapsed time and runs as many whole ticks as fit (at most [`MAX_TICKS_PER_FRAME`],
//! so a long stall does not make the game spiral).

/// Default simulation rate, ticks per second.
pub const DEFAULT_TICK_HZ: f64 = 60.0;

/// Most ticks one windowed frame may run before the remaining time is dropped.
pub const MAX_TICKS_PER_FRAME: u32 = 8;

/// Counts ticks and converts real time into whole ticks.
#[derive(Clone, Debug, PartialEq)]
pub struct FixedTimestep {
    dt: f64,
    accumulator: f64,
    tick: u64,
}

impl FixedTimestep {
    /// A clock ticking `tick_hz` times per second (non-positive or non-finite rates fall back to 60 Hz).
    pub fn new(tick_hz: f64) -> Self {
        let hz = if tick_hz.is_finite() && tick_hz > 0.0 {
            tick_hz
        } else {
            DEFAULT_TICK_HZ
        };
        Self {
            dt: 1.0 / hz,
            accumulator: 0.0,
            tick: 0,
        }
    }

    /// Seconds per tick.
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// Ticks run so far.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Simulated time in seconds (`tick * dt`; exact in ticks, never accumulated in floats).
    pub fn time(&self) -> f64 {
        self.tick as f64 * self.dt
    }

    /// Adds `elapsed` real seconds and returns how many ticks to run now; each
    /// returned tick must be followed by one [`FixedTimestep::advance`] call.
    pub fn ticks_due(&mut self, elapsed: f64) -> u32 {
        self.accumulator += elapsed.max(0.0);
        let due = (self.accumulator / self.dt).floor();
        let run = due.min(f64::from(MAX_TICKS_PER_FRAME)) as u32;
        // Dropped ticks are forgotten rather than owed: the game slows down instead of spiralling.
        self.accumulator = if due > f64::from(MAX_TICKS_PER_FRAME) {
            0.0
        } else {
            self.accumulator - f64::from(run) * self.dt
        };
        run
    }

    /// Records one tick as run.
    pub fn advance(&mut self) {
        self.tick += 1;
    }

    /// Fraction of a tick left in the accumulator (0..1), for interpolating between ticks.
    pub fn alpha(&self) -> f64 {
        (self.accumulator / self.dt).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_time_becomes_whole_ticks_and_the_remainder_carries() {
        let mut clock = FixedTimestep::new(60.0);
        assert_eq!(clock.ticks_due(1.0 / 120.0), 0);
        assert_eq!(clock.ticks_due(1.0 / 120.0 + 1e-9), 1);
        clock.advance();
        assert_eq!(clock.ticks_due(2.5 / 60.0), 2);
        assert!((clock.alpha() - 0.5).abs() < 1e-6);
        assert_eq!(clock.tick(), 1);
        assert!((clock.time() - 1.0 / 60.0).abs() < 1e-12);
    }

    #[test]
    fn a_long_stall_runs_at_most_the_cap_and_forgets_the_rest() {
        let mut clock = FixedTimestep::new(60.0);
        assert_eq!(clock.ticks_due(10.0), MAX_TICKS_PER_FRAME);
        assert_eq!(clock.ticks_due(0.0), 0);
    }

    #[test]
    fn bad_rates_fall_back_to_60_hz() {
        assert_eq!(FixedTimestep::new(0.0).dt(), 1.0 / 60.0);
        assert_eq!(FixedTimestep::new(f64::NAN).dt(), 1.0 / 60.0);
    }
}
