//! When the environment is baked, and in which steps: all at once when nothing (or another
//! source) was baked, else — when the sky or sun changed — again at most every
//! [`REBAKE_INTERVAL_S`] seconds, one step per frame ([`BakeStep`]), published when complete.

/// Least simulation time between the starts of two incremental bakes, seconds.
pub const REBAKE_INTERVAL_S: f64 = 0.5;

/// One step of a bake; an incremental bake records one per frame, in [`bake_steps`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BakeStep {
    /// Mip 0 of one face (0..6: +X, -X, +Y, -Y, +Z, -Z) of the source cube.
    SourceFace(u32),
    /// The source cube's other mips, every face.
    SourceMips,
    /// The diffuse irradiance cube.
    Irradiance,
    /// One mip of the prefiltered specular cube.
    Prefilter(u32),
    /// Copies the new irradiance and prefiltered cubes over those the scene passes sample.
    Publish,
}

/// Every step of one bake of a prefiltered cube with `prefiltered_mips` mips, in order.
pub fn bake_steps(prefiltered_mips: u32) -> Vec<BakeStep> {
    let mut steps: Vec<BakeStep> = (0..6).map(BakeStep::SourceFace).collect();
    steps.push(BakeStep::SourceMips);
    steps.push(BakeStep::Irradiance);
    steps.extend((0..prefiltered_mips).map(BakeStep::Prefilter));
    steps.push(BakeStep::Publish);
    steps
}

/// What a bake is of: the source's kind (a change bakes at once) and its parameters (a change
/// bakes again over frames). Compared bit for bit.
#[derive(Clone, Debug, PartialEq)]
pub struct BakeKey {
    /// Source kind (and image generation for images).
    pub kind: u64,
    /// The source's parameters as the GPU reads them.
    pub params: Vec<u8>,
}

/// The bake's state across frames.
#[derive(Debug, Default)]
pub struct BakeSchedule {
    /// What the published maps hold.
    baked: Option<BakeKey>,
    /// The bake under way and its next step.
    pending: Option<(BakeKey, usize)>,
    /// Time the last bake started, seconds.
    last_start: f64,
    /// Steps of one bake.
    steps: Vec<BakeStep>,
}

/// What to do this frame.
#[derive(Debug, PartialEq)]
pub enum Plan {
    /// Nothing.
    Idle,
    /// Start a bake of this key (write its parameters) and record the steps.
    Start(Vec<BakeStep>),
    /// Record the steps (a bake under way).
    Continue(Vec<BakeStep>),
}

impl BakeSchedule {
    /// A schedule for bakes of `prefiltered_mips` prefiltered mips; nothing baked yet.
    pub fn new(prefiltered_mips: u32) -> Self {
        Self {
            steps: bake_steps(prefiltered_mips),
            ..Self::default()
        }
    }

    /// Forgets what was baked (the maps were recreated): the next frame bakes at once.
    pub fn reset(&mut self) {
        self.baked = None;
        self.pending = None;
    }

    /// Whether the published maps hold `key`.
    pub fn holds(&self, key: &BakeKey) -> bool {
        self.baked.as_ref() == Some(key)
    }

    /// Records a complete bake of `key` done now (at load).
    pub fn baked_now(&mut self, key: BakeKey, time_s: f64) {
        self.baked = Some(key);
        self.pending = None;
        self.last_start = time_s;
    }

    /// The steps to record for a frame whose environment is `key` at `time_s` seconds.
    pub fn plan(&mut self, key: &BakeKey, time_s: f64) -> Plan {
        if self
            .pending
            .as_ref()
            .is_some_and(|(p, _)| p.kind != key.kind)
        {
            self.pending = None;
        }
        if let Some((pending, next)) = self.pending.take() {
            let step = self.steps[next];
            if next + 1 == self.steps.len() {
                self.baked = Some(pending);
            } else {
                self.pending = Some((pending, next + 1));
            }
            return Plan::Continue(vec![step]);
        }
        let kind_changed = self.baked.as_ref().is_none_or(|b| b.kind != key.kind);
        if kind_changed {
            self.baked_now(key.clone(), time_s);
            return Plan::Start(self.steps.clone());
        }
        let due = time_s - self.last_start >= REBAKE_INTERVAL_S || time_s < self.last_start;
        if self.holds(key) || !due {
            return Plan::Idle;
        }
        self.last_start = time_s;
        self.pending = Some((key.clone(), 1));
        Plan::Start(vec![self.steps[0]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(kind: u64, param: u8) -> BakeKey {
        BakeKey {
            kind,
            params: vec![param; 4],
        }
    }

    #[test]
    fn the_first_frame_bakes_everything_at_once() {
        let mut schedule = BakeSchedule::new(5);
        let plan = schedule.plan(&key(0, 1), 0.0);
        assert_eq!(plan, Plan::Start(bake_steps(5)));
        assert_eq!(bake_steps(5).len(), 6 + 1 + 1 + 5 + 1);
        assert_eq!(schedule.plan(&key(0, 1), 0.1), Plan::Idle);
    }

    #[test]
    fn a_moved_sun_rebakes_one_step_per_frame_at_most_every_half_second() {
        let mut schedule = BakeSchedule::new(5);
        schedule.baked_now(key(0, 1), 0.0);
        // Moved, but too soon after the load bake.
        assert_eq!(schedule.plan(&key(0, 2), 0.25), Plan::Idle);
        let steps = bake_steps(5);
        assert_eq!(schedule.plan(&key(0, 2), 0.5), Plan::Start(vec![steps[0]]));
        for (frame, step) in steps.iter().enumerate().skip(1) {
            // The sun keeps moving: the bake under way finishes first.
            let t = 0.5 + frame as f64 / 60.0;
            assert_eq!(schedule.plan(&key(0, 3), t), Plan::Continue(vec![*step]));
        }
        assert!(schedule.holds(&key(0, 2)));
        // 14 frames at 60 Hz after 0.5 s: the next start waits for 1.0 s.
        assert_eq!(schedule.plan(&key(0, 3), 0.9), Plan::Idle);
        assert_eq!(schedule.plan(&key(0, 3), 1.0), Plan::Start(vec![steps[0]]));
    }

    #[test]
    fn another_source_kind_bakes_at_once() {
        let mut schedule = BakeSchedule::new(3);
        schedule.baked_now(key(0, 1), 0.0);
        assert_eq!(schedule.plan(&key(1, 1), 0.01), Plan::Start(bake_steps(3)));
        assert!(schedule.holds(&key(1, 1)));
    }
}
