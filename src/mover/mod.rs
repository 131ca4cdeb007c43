//! Moving parts: the kinds a level's movers are made of ([`MoverPart`], [`Repeat`], [`MoverStart`], re-exported
//! by `collidoscope::level`) and the path math ([`MoverPath`]): where a mover is, and how fast it goes, at a
//! time, as a pure function of that time and the mover's start time.
//!
//! This room sits below the scene (which moves its objects with it) and above the shapes; it knows nothing of
//! levels. A path is a polyline of offsets from the object's place, the first `(0, 0, 0)`. A started mover
//! leaves its first point at once and moves along the polyline at `speed` m/s; it waits `wait` s at each end
//! it reaches: [`Repeat::Once`] stops at the last point for good, [`Repeat::PingPong`] waits at the last point,
//! comes back, waits at the first and starts over, [`Repeat::Loop`] goes on from the last point to the first
//! (a closed path) and waits at the first point each lap. A mover that has not started (or is asked about a
//! time before its start) is at its first point, at rest.
//!
//! The time math is done in `f64`, so a long game (`t = 10^5` s) keeps sub-millimetre places; the same time
//! always gives the same bits.

use glam::{DVec3, Vec3};
use serde::{Deserialize, Serialize};

use crate::id::ObjectId;
use crate::shape::{Aabb, Cylinder, Obb, Triangle};
use crate::statics::Static;

#[cfg(test)]
mod tests;
mod track;

pub(crate) use track::Track;

/// What a mover moves of its object.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoverPart {
    /// The whole object (a box, triangle, cylinder, mesh or a whole sector).
    #[default]
    Whole,
    /// A sector's floor (a lift): its path is vertical only.
    Floor,
    /// A sector's ceiling (a crusher, a door closing from above): its path is vertical only.
    Ceiling,
}

/// What a mover does at the end of its path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Repeat {
    /// Stops at the last point for good.
    Once,
    /// Goes on from the last point back to the first (a closed path), waiting at the first each lap.
    Loop,
    /// Turns back at each end (after waiting there): first → last → first → …. The default.
    #[default]
    PingPong,
}

/// When a mover starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoverStart {
    /// At time 0. The default.
    #[default]
    Always,
    /// When the character (or the game) enters this trigger.
    OnTrigger(ObjectId),
}

/// A mover's path and timing: where it is, and its velocity, at any time ([`MoverPath::at`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MoverPath {
    /// The polyline's points (offsets), the first `(0, 0, 0)`; for a loop the closing point (the first
    /// again) is appended.
    points: Vec<DVec3>,
    /// Distance along the path at each point (`cum[0] = 0`).
    cum: Vec<f64>,
    /// Metres per second.
    speed: f64,
    /// Seconds waited at each end.
    wait: f64,
    /// What happens at the ends.
    repeat: Repeat,
}

/// Where a mover is at a time, and how it moves then.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoverState {
    /// The offset from the object's place.
    pub offset: Vec3,
    /// The velocity, m/s (zero while waiting, before the start and after a `Once` mover's end).
    pub velocity: Vec3,
}

impl MoverPath {
    /// A path through `points` (offsets; the first is where the object is placed) at `speed` m/s, waiting
    /// `wait` s at each end. Non-finite points are dropped, a non-finite or negative `speed` is 0 (the mover
    /// stays at its first point) and a non-finite or negative `wait` is 0, so any input gives a usable path
    /// (a level's validation reports such input before it gets here).
    #[must_use]
    pub fn new(points: &[Vec3], speed: f32, wait: f32, repeat: Repeat) -> Self {
        let mut pts: Vec<DVec3> = points
            .iter()
            .filter(|p| p.is_finite())
            .map(|p| p.as_dvec3())
            .collect();
        if pts.is_empty() {
            pts.push(DVec3::ZERO);
        }
        if repeat == Repeat::Loop && pts.len() > 1 {
            pts.push(pts[0]);
        }
        let mut cum = Vec::with_capacity(pts.len());
        let mut d = 0.0f64;
        cum.push(0.0);
        for w in pts.windows(2) {
            d += (w[1] - w[0]).length();
            cum.push(d);
        }
        let ok = |x: f32| {
            if x.is_finite() && x > 0.0 {
                f64::from(x)
            } else {
                0.0
            }
        };
        Self {
            points: pts,
            cum,
            speed: ok(speed),
            wait: ok(wait),
            repeat,
        }
    }

    /// The path's length (a loop's includes the closing leg), metres.
    #[must_use]
    pub fn length(&self) -> f64 {
        self.cum.last().copied().unwrap_or(0.0)
    }

    /// Seconds to travel the whole path once (0 when the path has no length or the speed is 0).
    #[must_use]
    pub fn travel_time(&self) -> f64 {
        if self.speed > 0.0 {
            self.length() / self.speed
        } else {
            0.0
        }
    }

    /// The repeat mode.
    #[must_use]
    pub fn repeat(&self) -> Repeat {
        self.repeat
    }

    /// Whether a mover started at `start` has stopped for good by time `t` (only a `Once` mover ever does:
    /// at the end of its travel; a path with no length or speed is finished at once).
    #[must_use]
    pub fn finished(&self, t: f64, start: f64) -> bool {
        self.repeat == Repeat::Once && t - start >= self.travel_time()
    }

    /// The offset range the path covers on each axis: `(min, max)` over its points.
    #[must_use]
    pub fn extent(&self) -> (Vec3, Vec3) {
        let lo = self.points.iter().fold(DVec3::INFINITY, |a, p| a.min(*p));
        let hi = self
            .points
            .iter()
            .fold(DVec3::NEG_INFINITY, |a, p| a.max(*p));
        (lo.as_vec3(), hi.as_vec3())
    }

    /// Where the mover is at time `t` and its velocity then, when it started at `start` (`None`: not started,
    /// at its first point at rest). A pure function: the same arguments give the same bits. Non-finite times
    /// give the first point at rest.
    #[must_use]
    pub fn at(&self, t: f64, start: Option<f64>) -> MoverState {
        let first = self.points[0];
        let rest = |p: DVec3| MoverState {
            offset: p.as_vec3(),
            velocity: Vec3::ZERO,
        };
        let Some(start) = start else {
            return rest(first);
        };
        let e = t - start;
        let travel = self.travel_time();
        if !(e.is_finite() && e > 0.0 && travel > 0.0 && travel.is_finite()) {
            return rest(first);
        }
        let last = *self.points.last().unwrap_or(&first);
        match self.repeat {
            Repeat::Once => {
                if e >= travel {
                    rest(last)
                } else {
                    self.along(e * self.speed, 1.0)
                }
            }
            Repeat::Loop => {
                let period = travel + self.wait;
                let u = wrap(e, period);
                if u < travel {
                    self.along(u * self.speed, 1.0)
                } else {
                    rest(first)
                }
            }
            Repeat::PingPong => {
                let period = 2.0 * (travel + self.wait);
                let u = wrap(e, period);
                if u < travel {
                    self.along(u * self.speed, 1.0)
                } else if u < travel + self.wait {
                    rest(last)
                } else if u < 2.0 * travel + self.wait {
                    let back = u - travel - self.wait;
                    self.along(self.length() - back * self.speed, -1.0)
                } else {
                    rest(first)
                }
            }
        }
    }

    /// The point at distance `d` along the path, moving forward (`sign = 1`) or back (`-1`).
    fn along(&self, d: f64, sign: f64) -> MoverState {
        let d = d.clamp(0.0, self.length());
        // The leg holding `d`: the last point whose distance is at most `d`, and not the very last point.
        let i = self
            .cum
            .partition_point(|&c| c <= d)
            .saturating_sub(1)
            .min(self.points.len().saturating_sub(2));
        let (a, b) = (self.points[i], self.points[i + 1]);
        let len = self.cum[i + 1] - self.cum[i];
        if !(len > 0.0) {
            return MoverState {
                offset: a.as_vec3(),
                velocity: Vec3::ZERO,
            };
        }
        let f = ((d - self.cum[i]) / len).clamp(0.0, 1.0);
        let dir = (b - a) / len;
        MoverState {
            offset: (a + (b - a) * f).as_vec3(),
            velocity: (dir * (self.speed * sign)).as_vec3(),
        }
    }
}

/// `e` modulo `period` (both positive), in `0..period`: a floor and a multiply, which is several times faster
/// than `rem_euclid`'s `fmod` (a scene puts every mover at each time) and as exact here (the `f64` product's
/// error is far below the offsets' `f32` rounding for any game's length).
#[inline]
fn wrap(e: f64, period: f64) -> f64 {
    let u = e - period * floor_nonneg(e / period);
    if u >= period || u < 0.0 { 0.0 } else { u }
}

/// `q.floor()` (the same bits for every input): a positive `q` below 2^52 is truncated through an integer,
/// one conversion each way instead of a call to the C library's `floor` (the default x86-64 target has no
/// rounding instruction); other values (zeros, negative, NaN, or already whole) go through `floor`.
#[inline]
fn floor_nonneg(q: f64) -> f64 {
    const WHOLE: f64 = 4_503_599_627_370_496.0; // 2^52: every f64 from here up is a whole number.
    if q > 0.0 && q < WHOLE {
        (q as i64) as f64
    } else {
        q.floor()
    }
}

/// `shape` moved by `offset` (translation only): what a mover makes of its object's unmoved shape at each
/// time, always from the unmoved shape (never cumulative, so the same offset gives the same bits). Planes and
/// walls are not movable (a level's validation refuses such movers) and come back unmoved.
#[must_use]
pub fn translated(shape: &Static, offset: Vec3) -> Static {
    match shape {
        Static::Cylinder(c) => {
            Static::Cylinder(Cylinder::new(c.a + offset, c.b + offset, c.radius))
        }
        Static::Triangle(t) => {
            Static::Triangle(Triangle::new(t.a + offset, t.b + offset, t.c + offset))
        }
        Static::Aabb(b) => Static::Aabb(Aabb::new(b.min + offset, b.max + offset)),
        Static::Obb(o) => Static::Obb(Obb::new(o.center + offset, o.half_extents, o.rotation)),
        Static::Mesh(m) => Static::Mesh(m.translated(offset)),
        Static::Plane(_) | Static::Wall { .. } => shape.clone(),
    }
}
