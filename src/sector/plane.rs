//! A surface's height over the plan: flat, or the plane through one outline edge rising at an angle into the
//! sector.

use glam::{DVec2, Vec2, Vec3};

use super::Surface;

/// Slopes at or above this many degrees (either way) are invalid; cooking treats them as flat.
pub const MAX_SLOPE_DEGREES: f32 = 89.0;

/// `y = height + rise * ((p - origin) · dir)` over the plan, in `f64`; every cooked vertex takes its `y` from
/// [`HeightFn::at`], so two sectors meeting at a plan point agree on a height bit for bit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeightFn {
    height: f64,
    rise: f64,
    origin: DVec2,
    dir: DVec2,
    /// How many `f32` steps [`HeightFn::at`] goes down (a ceiling's, see [`HeightFn::lowered`]).
    drop: u8,
}

/// The `f32` steps a cooked ceiling sits below its plane: see [`HeightFn::lowered`].
pub const CEILING_DROP_ULPS: u8 = 4;

impl HeightFn {
    /// A flat surface at `height`.
    #[must_use]
    pub fn flat(height: f32) -> Self {
        Self {
            height: f64::from(height),
            rise: 0.0,
            origin: DVec2::ZERO,
            dir: DVec2::ZERO,
            drop: 0,
        }
    }

    /// The same surface a few `f32` steps lower ([`CEILING_DROP_ULPS`]: a millionth of its height or so),
    /// as cooked ceilings are: where a storey stands on the ceiling below, the upper floor and the lower
    /// ceiling would be the same plane, and a ray would meet both at one `t` (the scene gives ties to the
    /// lower id). Lowered, a ray down from the upper storey meets its floor first and a ray up from the lower
    /// one its ceiling, each at its plane's height to a few ulps.
    #[must_use]
    pub fn lowered(self) -> Self {
        Self {
            drop: CEILING_DROP_ULPS,
            ..self
        }
    }

    /// The surface over `outline` (the sector's outline as written: the slope's edge indexes it). A slope whose
    /// edge is out of range or of zero length, or whose angle is not below [`MAX_SLOPE_DEGREES`], is flat
    /// (validation reports it).
    #[must_use]
    pub fn new(surface: &Surface, outline: &[Vec2]) -> Self {
        let flat = Self::flat(surface.height);
        let Some(slope) = surface.slope else {
            return flat;
        };
        let n = outline.len();
        let e = slope.edge as usize;
        if e >= n || !(slope.degrees.abs() < MAX_SLOPE_DEGREES) || n < 3 {
            return flat;
        }
        let a = outline[e].as_dvec2();
        let b = outline[(e + 1) % n].as_dvec2();
        let d = b - a;
        let len = d.length();
        let area = super::ring::signed_area(outline);
        if !(len > 0.0) || !len.is_finite() || area == 0.0 || !area.is_finite() {
            return flat;
        }
        // Counter-clockwise (positive area): the interior is on the left of every edge.
        let inward = DVec2::new(-d.y, d.x) / len * area.signum();
        Self {
            height: f64::from(surface.height),
            rise: f64::from(slope.degrees).to_radians().tan(),
            origin: a,
            dir: inward,
            drop: 0,
        }
    }

    /// The height over the plan point `p`, in `f64`.
    #[must_use]
    pub fn at64(&self, p: DVec2) -> f64 {
        if self.rise == 0.0 {
            return self.height;
        }
        self.height + self.rise * (p - self.origin).dot(self.dir)
    }

    /// The height over the plan point `p`, rounded to `f32`.
    #[must_use]
    pub fn at(&self, p: Vec2) -> f32 {
        let mut y = self.at64(p.as_dvec2()) as f32;
        for _ in 0..self.drop {
            y = y.next_down();
        }
        y
    }

    /// The unit normal facing up (`+y`).
    #[must_use]
    pub fn up_normal(&self) -> Vec3 {
        let g = self.dir * self.rise;
        Vec3::new(-g.x as f32, 1.0, -g.y as f32).normalize()
    }

    /// Whether the surface is flat.
    #[must_use]
    pub fn is_flat(&self) -> bool {
        self.rise == 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sector::Slope;

    #[test]
    fn a_slope_rises_into_the_sector_whatever_the_winding() {
        let ccw = [
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 4.0),
            Vec2::new(0.0, 4.0),
        ];
        let cw: Vec<Vec2> = ccw.iter().rev().copied().collect();
        let s = Surface {
            height: 1.0,
            slope: Some(Slope {
                edge: 0,
                degrees: 45.0,
            }),
        };
        let f = HeightFn::new(&s, &ccw);
        assert!((f.at(Vec2::new(2.0, 0.0)) - 1.0).abs() < 1e-6);
        assert!((f.at(Vec2::new(2.0, 2.0)) - 3.0).abs() < 1e-5);
        // Reversed, edge 0 runs from (0, 4) to (4, 4): the floor rises toward z = 0.
        let g = HeightFn::new(&s, &cw);
        assert!((g.at(Vec2::new(2.0, 4.0)) - 1.0).abs() < 1e-6);
        assert!((g.at(Vec2::new(2.0, 2.0)) - 3.0).abs() < 1e-5);
        let angle = f.up_normal().angle_between(Vec3::Y).to_degrees();
        assert!((angle - 45.0).abs() < 1e-3);
    }
}
