//! Which scene time the views show the movers at (no egui). Walk mode shows its selected move's time on its
//! own scene; otherwise the debugger's frame (its world's scene, whose time and starts a step back or a scrub
//! restores exactly); otherwise an open recording's frame (its scene time and the movers' recorded starts);
//! otherwise the level as saved, at time 0. A mover's place is a pure function of that time and its start
//! ([`crate::scene::Scene::set_time`]), so the drawing follows every step, step back and scrub exactly.

use glam::Vec3;

use crate::level::{Level, MoverObject, MoverStart, ObjectId};
use crate::mover::MoverPath;
use crate::scene::Scene;

/// A recording frame's scene time and the movers' starts it kept: `(time, [(mover id, start)])`.
pub type Recorded<'a> = (f32, &'a [(ObjectId, Option<f32>)]);

/// The time, and the movers' starts, the views draw the movers at.
#[derive(Clone, Copy, Debug, Default)]
pub enum Clock<'a> {
    /// The level as saved: time 0, `Always` movers at their first point.
    #[default]
    Level,
    /// A scene's movers, with its starts, at time `t` (Walk mode's scene at its shown move; the debugger's
    /// world at its frame).
    Scene(&'a Scene, f32),
    /// A recording's frame: its scene time and the movers' starts it recorded.
    Recorded {
        /// The frame's scene time, seconds.
        time: f32,
        /// `(mover id, start)` as the game had them; a mover not named starts by its rule.
        starts: &'a [(ObjectId, Option<f32>)],
    },
}

impl Clock<'_> {
    /// The shown time, seconds.
    #[must_use]
    pub fn time(&self) -> f32 {
        match *self {
            Clock::Level => 0.0,
            Clock::Scene(_, t) => t,
            Clock::Recorded { time, .. } => time,
        }
    }

    /// Where mover `mover` (a mover's id) has its object at the shown time, as an offset from the object's
    /// place in the level (zero for an unknown id or a non-finite result).
    #[must_use]
    pub fn offset(&self, level: &Level, mover: ObjectId) -> Vec3 {
        let Some(m) = level.movers.iter().find(|m| m.id == mover) else {
            return Vec3::ZERO;
        };
        let d = match *self {
            Clock::Level => Vec3::ZERO,
            Clock::Scene(scene, t) => scene.mover_offset_at(m.object, t),
            Clock::Recorded { time, starts } => {
                let start = starts
                    .iter()
                    .find(|(id, _)| *id == mover)
                    .map_or_else(|| rule_start(m), |(_, s)| *s);
                path_offset(m, time, start)
            }
        };
        if d.is_finite() { d } else { Vec3::ZERO }
    }

    /// The offset of object `object` (the moved box's or sector's id): its mover's, zero when none moves it.
    #[must_use]
    pub fn object_offset(&self, level: &Level, object: ObjectId) -> Vec3 {
        level
            .movers
            .iter()
            .find(|m| m.object == object)
            .map_or(Vec3::ZERO, |m| self.offset(level, m.id))
    }
}

/// A mover's start by its rule alone: `Always` at 0, a triggered one not yet.
fn rule_start(m: &MoverObject) -> Option<f32> {
    (m.start == MoverStart::Always).then_some(0.0)
}

/// The offset of mover `m` at time `t` started at `start` (the path math the scene uses).
fn path_offset(m: &MoverObject, t: f32, start: Option<f32>) -> Vec3 {
    if !(m.speed.is_finite() && m.speed > 0.0) || m.path.iter().any(|p| !p.is_finite()) {
        return Vec3::ZERO;
    }
    MoverPath::new(&m.path, m.speed, m.wait, m.repeat)
        .at(f64::from(t), start.map(f64::from))
        .offset
}

/// The clock the views show, in the order of the module docs: Walk mode's (`walk`: its scene and shown
/// time), the debugger's world past frame 0 (`debugger`), a recording's frame that kept its scene time
/// (`recorded`: its time and starts), else the level's.
#[must_use]
pub fn clock<'a>(
    walk: Option<(&'a Scene, f32)>,
    debugger: Option<&'a Scene>,
    recorded: Option<Recorded<'a>>,
) -> Clock<'a> {
    if let Some((scene, t)) = walk {
        Clock::Scene(scene, t)
    } else if let Some(scene) = debugger {
        Clock::Scene(scene, scene.time())
    } else if let Some((time, starts)) = recorded {
        Clock::Recorded { time, starts }
    } else {
        Clock::Level
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIFT: &str = r#"(version: 3,
        aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (2.0, 0.2, 2.0))],
        triggers: [(id: 5, shape: Sphere((center: (0.0, 1.0, 0.0), radius: 1.0)))],
        movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 3.0, 0.0)], speed: 1.5, wait: 0.5),
                 (id: 3, object: 4, path: [(0.0, 0.0, 0.0), (2.0, 0.0, 0.0)], speed: 1.0,
                  start: OnTrigger(5))],
        obbs: [(id: 4, center: (5.0, 0.5, 0.0), half_extents: (0.5, 0.5, 0.5), rotation_deg: (0.0, 0.0, 0.0))])"#;

    #[test]
    fn a_scene_clock_and_a_recorded_clock_agree_with_the_scene_bit_for_bit() {
        let level = Level::from_ron_str(LIFT).unwrap();
        let mut scene = Scene::from_level(&level).unwrap();
        scene.start_triggered(ObjectId(5), 0.75);
        let starts: Vec<(ObjectId, Option<f32>)> = scene
            .movers()
            .iter()
            .map(|m| (m.mover, m.started))
            .collect();
        for k in 0..40 {
            let t = k as f32 * 0.173;
            scene.set_time(t);
            let by_scene = Clock::Scene(&scene, t);
            let recorded = Clock::Recorded {
                time: t,
                starts: &starts,
            };
            for m in scene.movers() {
                assert_eq!(by_scene.offset(&level, m.mover), m.offset, "t {t}");
                assert_eq!(recorded.offset(&level, m.mover), m.offset, "t {t}");
                assert_eq!(by_scene.object_offset(&level, m.object), m.offset);
            }
        }
        assert_eq!(Clock::Level.offset(&level, ObjectId(2)), Vec3::ZERO);
        assert_eq!(Clock::Level.object_offset(&level, ObjectId(99)), Vec3::ZERO);
    }

    #[test]
    fn walk_mode_wins_then_the_debugger_then_a_recording() {
        let level = Level::from_ron_str(LIFT).unwrap();
        let scene = Scene::from_level(&level).unwrap();
        let starts = [];
        assert!(matches!(
            clock(Some((&scene, 2.0)), Some(&scene), Some((1.0, &starts))),
            Clock::Scene(_, 2.0)
        ));
        assert!(matches!(
            clock(None, Some(&scene), Some((1.0, &starts))),
            Clock::Scene(_, 0.0)
        ));
        assert_eq!(clock(None, None, Some((1.0, &starts))).time(), 1.0);
        assert!(matches!(clock(None, None, None), Clock::Level));
    }
}
