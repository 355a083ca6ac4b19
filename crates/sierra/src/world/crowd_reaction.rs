//! Crowd members reacting to the player at run time: a member idles (its level clip) until the
//! player comes within [`NOTICE_RADIUS`], then crossfades to `walk` and walks away from the
//! player at [`WALK_SPEED`]; once farther than [`CALM_RADIUS`] it crossfades back to its own
//! clip and stands. Each change is one [`CrowdInstance::switch_to`] (the GPU runs the fade);
//! walking members move each tick. Changed members reach the renderer as
//! the frame's crowd updates ([`write_changed`], called by
//! [`LevelCrowds::flush`](super::crowds::LevelCrowds::flush)); nothing else is uploaded.

use glam::{Mat4, Quat, Vec3};
use sierra_render::passes::crowd::{CrowdHandle, CrowdInstance};
use sierra_render::{CrowdFrame, CrowdUpdate};

/// A member notices the player within this distance, metres (horizontal).
pub const NOTICE_RADIUS: f32 = 4.0;
/// A walking member stops beyond this distance from the player, metres.
pub const CALM_RADIUS: f32 = 8.0;
/// Walking speed of a member at playback speed 1, metres per second.
pub const WALK_SPEED: f32 = 1.3;
/// Crossfade between standing and walking, seconds.
pub const REACTION_FADE_SECONDS: f32 = 0.3;

/// What a member is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mood {
    /// Plays its level clip where it stands.
    Calm,
    /// Walks away from the player.
    Fleeing,
}

/// Run-time state of one crowd's members.
#[derive(Debug, Clone, Default)]
pub struct CrowdReaction {
    /// `[member]` mood.
    pub moods: Vec<Mood>,
    /// `[member]` the clip it plays when calm.
    home_clips: Vec<u32>,
    /// The model's `walk` clip (no reaction without one).
    walk_clip: Option<u32>,
    /// Members changed since the last flush, unsorted, no duplicates.
    dirty: Vec<usize>,
    /// `[member]` whether it is in `dirty`.
    is_dirty: Vec<bool>,
}

impl CrowdReaction {
    /// Every member calm, playing the clip it has in `instances`.
    pub fn new(instances: &[CrowdInstance], walk_clip: Option<u32>) -> Self {
        Self {
            moods: vec![Mood::Calm; instances.len()],
            home_clips: instances.iter().map(|i| i.clip).collect(),
            walk_clip,
            dirty: Vec::new(),
            is_dirty: vec![false; instances.len()],
        }
    }

    fn mark(&mut self, i: usize) {
        if !self.is_dirty[i] {
            self.is_dirty[i] = true;
            self.dirty.push(i);
        }
    }

    /// One tick of `dt` seconds at global crowd time `now` with the player at `focus`
    /// (`None`: no player; walking members keep walking until calm).
    pub fn tick(
        &mut self,
        instances: &mut [CrowdInstance],
        focus: Option<Vec3>,
        now: f32,
        dt: f32,
    ) {
        let Some(walk) = self.walk_clip else {
            return;
        };
        for i in 0..instances.len().min(self.moods.len()) {
            let m = &mut instances[i];
            let (scale, _, position) = m.model.to_scale_rotation_translation();
            let away = focus.map_or(Vec3::ZERO, |f| (position - f).with_y(0.0));
            let distance = if focus.is_some() {
                away.length()
            } else {
                f32::INFINITY
            };
            match self.moods[i] {
                Mood::Calm if distance < NOTICE_RADIUS => {
                    self.moods[i] = Mood::Fleeing;
                    m.switch_to(walk, now, REACTION_FADE_SECONDS);
                }
                Mood::Fleeing if distance > CALM_RADIUS => {
                    self.moods[i] = Mood::Calm;
                    m.switch_to(self.home_clips[i], now, REACTION_FADE_SECONDS);
                    self.mark(i);
                    continue;
                }
                Mood::Fleeing => {}
                Mood::Calm => continue,
            }
            let dir = away.normalize_or(Vec3::Z);
            let step = dir * WALK_SPEED * m.speed * dt;
            m.model = Mat4::from_scale_rotation_translation(
                scale,
                Quat::from_rotation_y(dir.x.atan2(dir.z)),
                position + step,
            );
            self.mark(i);
        }
    }

    /// Sorted members changed since the last [`CrowdReaction::take_dirty`]; clears the list
    /// into `out` (reused, no allocation once grown).
    pub fn take_dirty(&mut self, out: &mut Vec<usize>) {
        out.clear();
        out.extend_from_slice(&self.dirty);
        out.sort_unstable();
        for &i in &self.dirty {
            self.is_dirty[i] = false;
        }
        self.dirty.clear();
    }
}

/// Runs of adjacent indices in sorted `members`: `(first, end)` half-open ranges.
pub fn runs(members: &[usize]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut k = 0;
    std::iter::from_fn(move || {
        let first = *members.get(k)?;
        let mut end = first + 1;
        k += 1;
        while members.get(k) == Some(&end) {
            end += 1;
            k += 1;
        }
        Some((first, end))
    })
}

/// The fixed cost of one queue write (staging allocation, copy command) in bytes of copying:
/// `sierra bench crowd --changing 1` measured ~2.9 µs per 96-byte write, ~16-32 KB of memcpy.
pub const WRITE_OVERHEAD_BYTES: usize = 16 * 1024;

/// Lists the `changed` members (sorted, no duplicates) of `instances` as updates of the
/// renderer crowds `handles` in `frame`: one update per run of adjacent members, or a single
/// update of the span from the first to the last changed member when that copies fewer bytes
/// counting [`WRITE_OVERHEAD_BYTES`] per write (many scattered changes). The crowd pass writes
/// each update with one queue write.
pub fn write_changed(
    frame: &mut CrowdFrame,
    handles: &[CrowdHandle],
    instances: &[CrowdInstance],
    changed: &[usize],
) {
    let (Some(&first), Some(&last)) = (changed.first(), changed.last()) else {
        return;
    };
    let size = std::mem::size_of::<CrowdInstance>();
    let run_count = runs(changed).count();
    let per_run = run_count * WRITE_OVERHEAD_BYTES + changed.len() * size;
    let span = WRITE_OVERHEAD_BYTES + (last + 1 - first) * size;
    let push = |frame: &mut CrowdFrame, crowd: CrowdHandle, a: usize, b: usize| {
        frame.updates.push(CrowdUpdate {
            crowd,
            first: a as u32,
            count: (b - a) as u32,
            start: frame.instances.len() as u32,
        });
        frame.instances.extend_from_slice(&instances[a..b]);
    };
    for &h in handles {
        if span <= per_run {
            push(frame, h, first, last + 1);
        } else {
            for (a, b) in runs(changed) {
                push(frame, h, a, b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members() -> Vec<CrowdInstance> {
        (0..5)
            .map(|i| {
                CrowdInstance::new(
                    Mat4::from_translation(Vec3::new(i as f32 * 3.0, 0.0, 0.0)),
                    0,
                    0.0,
                    1.0,
                )
            })
            .collect()
    }

    #[test]
    fn members_near_the_player_walk_away_and_calm_down_far_from_it() {
        let mut instances = members();
        let mut r = CrowdReaction::new(&instances, Some(1));
        let player = Vec3::new(-1.0, 0.0, 0.0);
        r.tick(&mut instances, Some(player), 10.0, 0.0);
        // Only member 0 (1 m away) notices; member 1 is 4 m away (not < 4).
        assert_eq!(r.moods[..2], [Mood::Fleeing, Mood::Calm]);
        assert_eq!(
            (instances[0].second_clip, instances[0].second_weight(10.0)),
            (1, 0.0)
        );
        assert!((instances[0].second_weight(10.0 + REACTION_FADE_SECONDS) - 1.0).abs() < 1e-6);
        assert_eq!(instances[1], members()[1], "a calm member is untouched");
        let mut dirty = Vec::new();
        r.take_dirty(&mut dirty);
        assert_eq!(dirty, [0]);
        // It walks along +X (away from the player) at WALK_SPEED, facing +X.
        let mut now = 10.0;
        for _ in 0..60 {
            now += 0.1;
            r.tick(&mut instances, Some(player), now, 0.1);
        }
        // 0.13 m per tick: 54 ticks reach x = 7.02, 8.02 m from the player, where it calms down.
        let x = instances[0].model.w_axis.x;
        assert!(
            r.moods[0] == Mood::Calm && (x - 7.02).abs() < 1e-3,
            "{x} {:?}",
            r.moods
        );
        let forward = instances[0].model.transform_vector3(Vec3::Z);
        assert!((forward - Vec3::X).length() < 1e-5, "{forward}");
        assert_eq!(instances[0].second_clip, 0, "back to its own clip");
        assert_eq!(
            runs(&[1, 2, 3, 7, 9, 10]).collect::<Vec<_>>(),
            [(1, 4), (7, 8), (9, 11)]
        );
    }

    #[test]
    fn a_model_without_a_walk_clip_does_not_react() {
        let mut instances = members();
        let mut r = CrowdReaction::new(&instances, None);
        r.tick(&mut instances, Some(Vec3::ZERO), 1.0, 0.1);
        assert_eq!(instances, members());
    }
}
