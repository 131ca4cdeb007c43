//! A first-person walker (seeds 000 and 003): a circle of `radius` on the floor with an eye at `eye_height`,
//! moved against top-down walls (seed 003) and against triangles with the walk test (seed 000).
//!
//! Modes:
//! - [`WalkMode::Stop`], the seeds' rule: a move that would touch a wall (the walker's circle against the
//!   wall's collision distance, found by the exact sweep, so a long step cannot jump a thin wall) or whose eye
//!   would cross a triangle is not made at all.
//! - [`WalkMode::Slide`]: walls are slid along ([`crate::walls::move_and_slide`]); a triangle crossing is
//!   retried once with the motion along the triangle, else the walker stays.
//! - [`WalkMode::Ghost`] (seed 003's ghost mode): no collision.
//!
//! In `Stop` and `Slide` the walker never ends within a wall's collision distance plus its radius (when it
//! starts outside them).

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use crate::level::WalkerStart;
use crate::query::sweep::circle_wall;
use crate::query::triangle::walk_test;
use crate::shape::Triangle;
use crate::walls::WallGrid;

/// How the walker meets walls and triangles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WalkMode {
    /// Refuse a move that would touch anything (the seeds' rule).
    Stop,
    /// Slide along walls.
    #[default]
    Slide,
    /// Pass through everything.
    Ghost,
}

/// What stopped or deflected a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Blocker {
    /// A wall, by index in the grid.
    Wall(usize),
    /// A triangle, by index in the slice given.
    Triangle(usize),
}

/// The result of one [`Walker::walk`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WalkOutcome {
    /// Where the walker is now.
    pub position: Vec2,
    /// The first thing that stopped or deflected the move, if any.
    pub blocked_by: Option<Blocker>,
    /// For a triangle, the eye's crossing point that the walk test found.
    pub crossing: Option<Vec3>,
}

/// A first-person walker.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Walker {
    /// Position on the floor, `(x, z)`.
    pub position: Vec2,
    /// Facing in degrees about `y`: 0 looks down `-z`, 90 down `-x`.
    pub facing_deg: f32,
    /// Eye height, metres.
    pub eye_height: f32,
    /// Collision radius, metres.
    pub radius: f32,
    /// Collision mode.
    pub mode: WalkMode,
}

impl Walker {
    /// A walker at a level's start.
    #[must_use]
    pub fn from_start(start: &WalkerStart, mode: WalkMode) -> Self {
        Self {
            position: start.position,
            facing_deg: start.facing_deg,
            eye_height: start.eye_height,
            radius: start.radius,
            mode,
        }
    }

    /// The eye in 3D.
    #[must_use]
    pub fn eye(&self) -> Vec3 {
        Vec3::new(self.position.x, self.eye_height, self.position.y)
    }

    /// Unit forward direction on the floor, `(x, z)`.
    #[must_use]
    pub fn forward(&self) -> Vec2 {
        let a = self.facing_deg.to_radians();
        Vec2::new(-a.sin(), -a.cos())
    }

    /// Unit direction to the walker's right on the floor.
    #[must_use]
    pub fn right(&self) -> Vec2 {
        let f = self.forward();
        Vec2::new(-f.y, f.x)
    }

    /// Move by `motion` (`(x, z)`, metres) against `walls` and `triangles` according to the mode.
    ///
    /// ```
    /// use collidoscope::{glam::{Vec2, Vec3}, shape::{Triangle, Wall}, walls::WallGrid};
    /// use collidoscope::walker::{Walker, WalkMode, Blocker};
    /// // Maurice's wall at z = -5; the walker at the origin, eye at 1, facing it.
    /// let tri = [Triangle::new(Vec3::new(-2.0, 0.0, -5.0), Vec3::new(2.0, 0.0, -5.0), Vec3::new(0.0, 3.0, -5.0))];
    /// let grid = WallGrid::new(Vec::<Wall>::new());
    /// let mut w = Walker { position: Vec2::ZERO, facing_deg: 0.0, eye_height: 1.0, radius: 0.2, mode: WalkMode::Stop };
    /// for _ in 0..4 {
    ///     w.walk(w.forward() * 1.0, &grid, &tri); // to z = -4
    /// }
    /// // The fifth and sixth steps would cross the wall: refused.
    /// let out = w.walk(w.forward() * 1.5, &grid, &tri);
    /// assert_eq!(out.blocked_by, Some(Blocker::Triangle(0)));
    /// assert_eq!(out.crossing, Some(Vec3::new(0.0, 1.0, -5.0)));
    /// assert_eq!(w.position, Vec2::new(0.0, -4.0));
    /// ```
    pub fn walk(&mut self, motion: Vec2, walls: &WallGrid, triangles: &[Triangle]) -> WalkOutcome {
        let (position, blocked_by, crossing) = self.resolve(motion, walls, triangles);
        self.position = position;
        WalkOutcome {
            position,
            blocked_by,
            crossing,
        }
    }

    /// Where a move ends, what blocked it and where the eye crossed a triangle.
    fn resolve(
        &self,
        motion: Vec2,
        walls: &WallGrid,
        triangles: &[Triangle],
    ) -> (Vec2, Option<Blocker>, Option<Vec3>) {
        let from = self.position;
        if !motion.is_finite() || !from.is_finite() {
            return (from, None, None);
        }
        match self.mode {
            WalkMode::Ghost => (from + motion, None, None),
            WalkMode::Stop => {
                if let Some(k) = self.first_wall_contact(from, motion, walls) {
                    return (from, Some(Blocker::Wall(k)), None);
                }
                if let Some((k, p)) = self.first_crossing(from, from + motion, triangles) {
                    return (from, Some(Blocker::Triangle(k)), Some(p));
                }
                (from + motion, None, None)
            }
            WalkMode::Slide => {
                let end = walls.move_and_slide(from, self.radius, motion);
                let wall_hit = if (end - (from + motion)).length() > 1e-6 {
                    self.first_wall_contact(from, motion, walls)
                        .map(Blocker::Wall)
                } else {
                    None
                };
                let Some((k, p)) = self.first_crossing(from, end, triangles) else {
                    return (end, wall_hit, None);
                };
                // Retry once along the triangle's horizontal direction.
                let n = triangles[k].normal_unnormalized();
                let n2 = Vec2::new(n.x, n.z).normalize_or_zero();
                let along = motion - n2 * motion.dot(n2);
                let retry = walls.move_and_slide(from, self.radius, along);
                let position = if along.length() > 0.0
                    && self.first_crossing(from, retry, triangles).is_none()
                {
                    retry
                } else {
                    from
                };
                (position, Some(Blocker::Triangle(k)), Some(p))
            }
        }
    }

    /// [`Walker::walk`] against a level's [`Scene`](crate::scene::Scene): its walls, and only the triangles
    /// near the move (the same answer as walking against all of them, found without scanning them all).
    /// `Blocker::Wall(k)` is the `k`-th wall and `Blocker::Triangle(k)` the `k`-th triangle of the level.
    pub fn walk_in(&mut self, motion: Vec2, scene: &crate::scene::Scene) -> WalkOutcome {
        if !(motion.is_finite() && self.position.is_finite()) {
            return self.walk(motion, scene.walls(), &[]);
        }
        // A slide (and its retry) stays within |motion| of the start, plus the push-out of a start inside walls
        // (at most one radius and the largest wall radius per round); the eye is at one height.
        let push_out = (crate::walls::MAX_SLIDE_ITERATIONS as f32 + 1.0)
            * (self.radius.max(0.0) + scene.walls().max_radius());
        let reach = motion.length() + push_out + 1e-3;
        let (p, y) = (self.position, self.eye_height);
        let lo = Vec3::new(p.x - reach, y, p.y - reach);
        let hi = Vec3::new(p.x + reach, y, p.y + reach);
        let near = scene.triangles_near(lo, hi);
        let tris: Vec<Triangle> = near.iter().map(|(_, t)| *t).collect();
        let mut out = self.walk(motion, scene.walls(), &tris);
        if let Some(Blocker::Triangle(k)) = out.blocked_by {
            out.blocked_by = Some(Blocker::Triangle(near[k].0));
        }
        out
    }

    /// The wall the walker's circle would touch first on `from + motion`.
    fn first_wall_contact(&self, from: Vec2, motion: Vec2, walls: &WallGrid) -> Option<usize> {
        let end = from + motion;
        let pad = Vec2::splat(self.radius.max(0.0));
        walls
            .query_box(from.min(end) - pad, from.max(end) + pad)
            .into_iter()
            .filter_map(|k| {
                circle_wall(from, self.radius, motion, &walls.walls()[k]).map(|t| (t.t, k))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
            .map(|(_, k)| k)
    }

    /// The first triangle the eye crosses going from `from` to `to`, with the crossing point.
    fn first_crossing(
        &self,
        from: Vec2,
        to: Vec2,
        triangles: &[Triangle],
    ) -> Option<(usize, Vec3)> {
        let a = Vec3::new(from.x, self.eye_height, from.y);
        let b = Vec3::new(to.x, self.eye_height, to.y);
        triangles
            .iter()
            .enumerate()
            .filter_map(|(k, t)| walk_test(a, b, t).map(|p| (k, p)))
            .min_by(|x, y| a.distance_squared(x.1).total_cmp(&a.distance_squared(y.1)))
    }
}
