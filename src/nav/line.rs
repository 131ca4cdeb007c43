//! Straight walks decided without stepping a body, where geometry settles them: a shortcut across one flat
//! floor that the widest body checked sweeps across touching nothing is walked; one that even the narrowest,
//! lifted over any step, cannot sweep along is not.
//!
//! Why the first is a proof: on a level floor with nothing within a body's reach, [`Body::step`] moves the
//! body exactly by its wish (the ground holds it at the floor's height; nothing to slide along or step onto),
//! and the wish points at the shortcut's end, so the body goes along the line and arrives, on the ground. The
//! sweep of the widest body (radius grown by half a skin, as every move keeps clear) along the line from the
//! start's feet shows nothing is within reach of it or of the narrower ones, at any of the body's heights; and
//! every point of the line (every half cell) lies within half a cell's diagonal of a place of the map at the
//! floor's height, so the floor is there (a place is where the scan found a level surface under the body, a
//! skin below the feet). Anything else (steps, slopes, walls near the line, a floor with a gap) is stepped as
//! before.
//!
//! [`Body::step`]: crate::character::Body::step

use glam::{Vec2, Vec3};

use crate::character::{CharacterController, MoveGraph};
use crate::scene::Scene;

/// How far a place may stand from the floor's height and still count as on it, metres.
const LEVEL: f32 = 1e-3;

/// The most support look-ups one proof makes (a longer shortcut is stepped instead).
const MAX_SAMPLES: usize = 4096;

/// Whether bodies as wide as `ctl`'s agent and up to `margin` wider or narrower (as tall as the agent, or as
/// the widest needs) surely walk from `a` to `b` on the ground, decided from the scene and the graph alone
/// (see the module). `false` says only that geometry does not settle it.
pub(super) fn proven(
    scene: &Scene,
    g: &MoveGraph,
    ctl: &CharacterController,
    margin: f32,
    a: Vec3,
    b: Vec3,
) -> bool {
    if !(a.is_finite() && b.is_finite()) || (a.y - b.y).abs() > LEVEL {
        return false;
    }
    let cell = g.cell();
    let length = Vec2::new(b.x - a.x, b.z - a.z).length();
    let samples = (length / (0.5 * cell)).ceil() as usize + 1;
    if samples > MAX_SAMPLES {
        return false;
    }
    let wide = ctl.radius + margin.max(0.0);
    let mut body = CharacterController {
        radius: wide,
        height: ctl.height.max(2.0 * wide),
        ..*ctl
    }
    .capsule(a);
    body.radius += 0.5 * ctl.skin;
    let motion = Vec3::new(b.x - a.x, 0.0, b.z - a.z);
    // The sweep does not report what the capsule already overlaps and moves away from: ask at both ends (at
    // one, for a line of no length: an anchor's room).
    let moves = motion != Vec3::ZERO;
    if !scene.overlap_capsule(&body).is_empty()
        || (moves
            && (scene.sweep_capsule(&body, motion).is_some()
                || !scene.overlap_capsule(&body.translated(motion)).is_empty()))
    {
        return false;
    }
    let near = cell * std::f32::consts::FRAC_1_SQRT_2 + LEVEL;
    (0..samples).all(|s| {
        let t = s as f32 / (samples - 1).max(1) as f32;
        let p = a.lerp(Vec3::new(b.x, a.y, b.z), t);
        g.has_spot_near(p, near, LEVEL)
    })
}

/// Whether a body up to `margin` narrower than `ctl`'s agent and half a radius more (the stepped body may
/// slide that far off the line), lifted over any step (`max_step` and two skins
/// above the higher end), meets something sweeping from above `a` to above `b`: a wall or a rise too high to
/// step across the line, which the stepped body would not get past either. A heuristic, never a proof: it
/// only spares stepping bodies into a wall (a shortcut it turns down is not taken; the path stays walkable).
pub(super) fn blocked(
    scene: &Scene,
    ctl: &CharacterController,
    margin: f32,
    a: Vec3,
    b: Vec3,
) -> bool {
    // The stepped body may slide up to half a radius off the line (`walks`): so much narrower still.
    let thin = (ctl.radius - margin.max(0.0) - 0.5 * ctl.radius).max(0.02);
    let lift = a.y.max(b.y) - a.y + ctl.max_step + 2.0 * ctl.skin;
    let height = ctl.height - lift;
    if !(a.is_finite() && b.is_finite()) || height < 2.0 * thin {
        return false;
    }
    let body = CharacterController {
        radius: thin,
        height,
        ..*ctl
    }
    .capsule(a + Vec3::Y * lift);
    let motion = Vec3::new(b.x - a.x, 0.0, b.z - a.z);
    scene.sweep_capsule(&body, motion).is_some()
}

/// What the nav modules' tests stand on: a floor with boxes on it and the default agent's move graph.
#[cfg(test)]
pub(super) mod fixture {
    use glam::Vec3;

    use crate::character::{CharacterController, MoveGraph, ReachSettings};
    use crate::level::Level;
    use crate::scene::Scene;
    use crate::shape::Aabb;

    /// A 6 m floor box (x and z from -3 to 3, its top at y 0) with the boxes `more` on it (RON, ids from 2),
    /// and the default agent's move graph over it.
    pub(in crate::nav) fn floor(more: &str) -> (Scene, MoveGraph) {
        let text = format!(
            "(version: 2, aabbs: [(id: 1, min: (-3.0, -0.5, -3.0), max: (3.0, 0.0, 3.0)), {more}])"
        );
        let scene = Scene::build(&Level::from_ron_str(&text).unwrap_or_else(|e| panic!("{e}")));
        let bounds = Aabb::new(Vec3::new(-3.0, -0.5, -3.0), Vec3::new(3.0, 2.5, 3.0));
        let ctl = CharacterController::default();
        let g = MoveGraph::build(&scene, &ctl, bounds, &ReachSettings::default())
            .unwrap_or_else(|e| panic!("{e}"));
        (scene, g)
    }

    /// [`floor`] with two walls across it, leaving a way round at alternate ends (a small maze).
    pub(in crate::nav) fn two_walls() -> (Scene, MoveGraph) {
        floor(
            "(id: 2, min: (-1.1, 0.0, -3.0), max: (-0.9, 2.5, 1.5)), \
             (id: 3, min: (0.9, 0.0, -1.5), max: (1.1, 2.5, 3.0))",
        )
    }

    /// The feet of the place of `g` nearest `(x, 0, z)` (within 0.2 m across and 0.1 m up or down).
    pub(in crate::nav) fn feet(g: &MoveGraph, x: f32, z: f32) -> Vec3 {
        let n = g
            .node_near(Vec3::new(x, 0.0, z), 0.2, 0.1)
            .unwrap_or_else(|| panic!("a place near {x}, {z}"));
        g.feet(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::character::ReachSettings;
    use crate::level::Level;
    use crate::shape::Aabb;

    #[test]
    fn open_floor_is_proven_walls_block_steps_are_left_to_the_walk() {
        // A 6 m floor, a wall across x = 0 from z = -3 to z = 1, a 0.3 m crate at x = 2.
        let (scene, g) = fixture::floor(
            "(id: 2, min: (-0.1, 0.0, -3.0), max: (0.1, 2.5, 1.0)), \
             (id: 3, min: (1.7, 0.0, -2.5), max: (2.3, 0.3, -1.5))",
        );
        let ctl = CharacterController::default();
        let feet = |x: f32, z: f32| fixture::feet(&g, x, z);
        let m = 0.05;
        // In the open, along the wall's far side.
        let (a, b) = (feet(-2.0, 2.0), feet(2.0, 2.2));
        assert!(proven(&scene, &g, &ctl, m, a, b));
        assert!(!blocked(&scene, &ctl, m, a, b));
        // Through the wall: never proven, and blocked.
        let (a, b) = (feet(-1.5, -1.0), feet(1.0, -1.0));
        assert!(!proven(&scene, &g, &ctl, m, a, b));
        assert!(blocked(&scene, &ctl, m, a, b));
        // Grazing the wall's end (within the widest body): not proven, left to the walk.
        let (a, b) = (feet(-1.5, 1.25), feet(1.5, 1.25));
        assert!(!proven(&scene, &g, &ctl, m, a, b));
        // Over the crate (a step): not proven, not blocked.
        let (a, b) = (feet(1.0, -2.0), feet(2.8, -2.0));
        assert!(!proven(&scene, &g, &ctl, m, a, b));
        assert!(!blocked(&scene, &ctl, m, a, b));
    }

    #[test]
    fn a_line_across_a_gap_narrower_than_the_body_is_not_proven() {
        // The sample house's west and north walls leave a gap of about 0.3 m between their 3 m high tops; a
        // 0.35 m body with a 5 cm step walking across sinks 9 cm between the rims and stays there. The sweep
        // touches nothing (the body passes over the gap), but no place at the tops' height lies near the
        // line's middle.
        let level = Level::from_ron_str(include_str!("../../levels/house.ron"))
            .unwrap_or_else(|e| panic!("{e}"));
        let scene = Scene::from_level(&level).unwrap_or_else(|e| panic!("{e}"));
        let ctl = CharacterController {
            radius: 0.175_717_58,
            height: 0.451_435_15,
            max_step: 0.05,
            max_slope_deg: 53.664_066,
            ..CharacterController::default()
        };
        let bounds = Aabb::new(
            Vec3::new(-26.15, -1.0, 11.35),
            Vec3::new(-22.15, 4.0, 15.35),
        );
        let g = MoveGraph::build(&scene, &ctl, bounds, &ReachSettings::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let at = |z: f32| {
            let n = g.node_near(Vec3::new(-24.025, 3.01, z), 0.15, 0.02);
            g.feet(n.unwrap_or_else(|| panic!("a place at z {z}")))
        };
        let (a, b) = (at(13.475), at(13.975));
        assert!(!proven(&scene, &g, &ctl, 0.05, a, b));
        // Along the west top it is.
        assert!(proven(&scene, &g, &ctl, 0.05, at(12.225), a));
    }
}
