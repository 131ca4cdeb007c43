//! A mover's path made ready for the scene's pass at each time ([`Track`]): the same answers as
//! [`MoverPath::at`], bit for bit, from a small record that keeps the path's constants (travel time, period,
//! first and last points) and the leg the last answer was on, so a pass over a thousand movers reads one
//! contiguous array and does no search, no per-leg division and no heap load while a mover stays on its leg.

use glam::{DVec3, Vec3, Vec3A};

use super::{MoverPath, MoverState, Repeat, wrap};

/// The leg of a path a distance falls on, with what its point and velocity need.
#[derive(Clone, Copy, Debug)]
struct Leg {
    /// Distance along the path at the leg's start (`cum[i]`).
    lo: f64,
    /// Distance at which the next leg takes over (`cum[i + 1]`; infinite for the last leg, which also takes
    /// every distance past the end). NaN until a leg is found, so the first ask searches.
    hi: f64,
    /// The leg's first point and its vector to the second.
    a: DVec3,
    ab: DVec3,
    /// The leg's length (`cum[i + 1] - cum[i]`).
    len: f64,
    /// The velocity along the leg going forward and back (zero on a leg of no length).
    fwd: Vec3A,
    back: Vec3A,
}

impl Leg {
    const NONE: Leg = Leg {
        lo: f64::NAN,
        hi: f64::NAN,
        a: DVec3::ZERO,
        ab: DVec3::ZERO,
        len: 0.0,
        fwd: Vec3A::ZERO,
        back: Vec3A::ZERO,
    };

    /// The leg holding distance `d` as [`MoverPath::along`] picks it: the last point whose distance is at most
    /// `d`, and not the very last point. `None` for a path of fewer than two points.
    fn find(path: &MoverPath, d: f64) -> Option<Leg> {
        let n = path.points.len();
        let i = path
            .cum
            .partition_point(|&c| c <= d)
            .saturating_sub(1)
            .min(n.saturating_sub(2));
        let (&a, &b) = (path.points.get(i)?, path.points.get(i + 1)?);
        let (&lo, &next) = (path.cum.get(i)?, path.cum.get(i + 1)?);
        let len = next - lo;
        let dir = (b - a) / len;
        let vel = |sign: f64| {
            if len > 0.0 {
                Vec3A::from((dir * (path.speed * sign)).as_vec3())
            } else {
                Vec3A::ZERO
            }
        };
        Some(Leg {
            lo,
            hi: if i + 2 >= n { f64::INFINITY } else { next },
            a,
            ab: b - a,
            len,
            fwd: vel(1.0),
            back: vel(-1.0),
        })
    }

    /// Whether `d` falls on this leg (a NaN `d` never does).
    #[inline]
    fn holds(&self, d: f64) -> bool {
        self.lo <= d && d < self.hi
    }
}

/// One mover's path constants and the leg it was last on: [`Track::at`] answers what [`MoverPath::at`] does,
/// bit for bit (every value is computed by the same operations in the same order, once instead of at each
/// ask), given the same path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Track {
    speed: f64,
    wait: f64,
    /// [`MoverPath::travel_time`].
    travel: f64,
    /// [`MoverPath::length`].
    length: f64,
    /// The repeat's period: one lap and a wait for a loop, there and back with both waits for a ping-pong.
    period: f64,
    /// The first and last points, as the state gives them at rest.
    first: Vec3,
    last: Vec3,
    repeat: Repeat,
    leg: Leg,
}

impl Track {
    /// The track of `path`.
    #[must_use]
    pub(crate) fn new(path: &MoverPath) -> Track {
        let travel = path.travel_time();
        let first = path.points.first().copied().unwrap_or(DVec3::ZERO);
        let last = path.points.last().copied().unwrap_or(first);
        Track {
            speed: path.speed,
            wait: path.wait,
            travel,
            length: path.length(),
            period: match path.repeat {
                Repeat::PingPong => 2.0 * (travel + path.wait),
                Repeat::Loop | Repeat::Once => travel + path.wait,
            },
            first: first.as_vec3(),
            last: last.as_vec3(),
            repeat: path.repeat,
            leg: Leg::NONE,
        }
    }

    /// [`MoverPath::at`] of `path` (the path this track was made from): where the mover is at time `t` and its
    /// velocity then, when it started at `start`. Remembers the leg for the next ask.
    #[inline]
    pub(crate) fn at(&mut self, path: &MoverPath, t: f64, start: Option<f64>) -> MoverState {
        let (offset, velocity) = self.at_a(path, t, start);
        MoverState {
            offset: offset.into(),
            velocity: velocity.into(),
        }
    }

    /// [`Track::at`] as the offset and the velocity in SIMD form (kept in registers through the branches).
    #[inline(always)]
    pub(crate) fn at_a(&mut self, path: &MoverPath, t: f64, start: Option<f64>) -> (Vec3A, Vec3A) {
        let rest = |p: Vec3| (Vec3A::from(p), Vec3A::ZERO);
        let Some(start) = start else {
            return rest(self.first);
        };
        let e = t - start;
        let travel = self.travel;
        if !(e.is_finite() && e > 0.0 && travel > 0.0 && travel.is_finite()) {
            return rest(self.first);
        }
        match self.repeat {
            Repeat::Once => {
                if e >= travel {
                    rest(self.last)
                } else {
                    self.along(path, e * self.speed, true)
                }
            }
            Repeat::Loop => {
                let u = wrap(e, self.period);
                if u < travel {
                    self.along(path, u * self.speed, true)
                } else {
                    rest(self.first)
                }
            }
            Repeat::PingPong => {
                let u = wrap(e, self.period);
                if u < travel {
                    self.along(path, u * self.speed, true)
                } else if u < travel + self.wait {
                    rest(self.last)
                } else if u < 2.0 * travel + self.wait {
                    let back = u - travel - self.wait;
                    self.along(path, self.length - back * self.speed, false)
                } else {
                    rest(self.first)
                }
            }
        }
    }

    /// `MoverPath::along`: the point at distance `d`, going forward or back. Inlined into [`Track::at`]'s
    /// caller's loop: returned through memory, the state cost a store-forwarding stall per mover.
    #[inline(always)]
    fn along(&mut self, path: &MoverPath, d: f64, forward: bool) -> (Vec3A, Vec3A) {
        let d = d.clamp(0.0, self.length);
        if !self.leg.holds(d) {
            match Leg::find(path, d) {
                Some(leg) => self.leg = leg,
                None => {
                    let s = path.along(d, if forward { 1.0 } else { -1.0 });
                    return (s.offset.into(), s.velocity.into());
                }
            }
        }
        let leg = &self.leg;
        if !(leg.len > 0.0) {
            return (leg.a.as_vec3().into(), Vec3A::ZERO);
        }
        let f = ((d - leg.lo) / leg.len).clamp(0.0, 1.0);
        let at = (leg.a + leg.ab * f).as_vec3();
        (at.into(), if forward { leg.fwd } else { leg.back })
    }
}
