//! Coloured line segments for the 3D preview, as plain data (no GPU here): a feature lays its 3D marks
//! into [`Lines`] and hands them to the view, which uploads them. Each vertex is a position and a packed
//! sRGB colour ([`LINE_FLOATS`] floats), the layout [`super::translucent::Translucent`] shares.

use glam::Vec3;

use crate::shape::Aabb;

/// Floats per [`Lines`] vertex: position (3), colour.
pub const LINE_FLOATS: usize = 4;

/// An RGBA8 colour packed into the bits of an `f32` (the vertex attribute reads it as `unorm8x4`).
#[must_use]
pub fn pack(rgba: [u8; 4]) -> f32 {
    f32::from_bits(u32::from_le_bytes(rgba))
}

/// Coloured line segments.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lines {
    /// Interleaved vertices, [`LINE_FLOATS`] each, two per segment.
    pub data: Vec<f32>,
}

impl Lines {
    /// Number of vertices.
    #[must_use]
    pub fn vertices(&self) -> usize {
        self.data.len() / LINE_FLOATS
    }

    /// One segment (skipped when not finite).
    pub fn line(&mut self, a: Vec3, b: Vec3, rgba: [u8; 4]) {
        if !a.is_finite() || !b.is_finite() {
            return;
        }
        let c = pack(rgba);
        self.data
            .extend_from_slice(&[a.x, a.y, a.z, c, b.x, b.y, b.z, c]);
    }

    /// Room for `segments` more segments, so that many strips added in turn do not grow the buffer by
    /// doubling.
    pub fn reserve_segments(&mut self, segments: usize) {
        self.data.reserve(segments * 2 * LINE_FLOATS);
    }

    /// A polyline through `pts` (a segment with a non-finite end is skipped, as [`Lines::line`] skips it).
    /// Each point is checked once and the colour packed once: a thousand trails a frame while playing.
    pub fn strip(&mut self, pts: &[Vec3], rgba: [u8; 4]) {
        let c = pack(rgba);
        self.reserve_segments(pts.len().saturating_sub(1));
        let mut prev: Option<Vec3> = None;
        for &p in pts {
            let finite = p.is_finite();
            if let (Some(a), true) = (prev, finite) {
                self.data
                    .extend_from_slice(&[a.x, a.y, a.z, c, p.x, p.y, p.z, c]);
            }
            prev = finite.then_some(p);
        }
    }

    /// An arrow from `a` to `b` with a small head.
    pub fn arrow(&mut self, a: Vec3, b: Vec3, rgba: [u8; 4]) {
        self.line(a, b, rgba);
        let d = b - a;
        let len = d.length();
        if !(len > 1e-6) {
            return;
        }
        let dir = d / len;
        let (u, v) = dir.any_orthonormal_pair();
        let head = (len * 0.25).min(0.3);
        for side in [u, -u, v, -v] {
            self.line(b, b - dir * head + side * head * 0.4, rgba);
        }
    }

    /// A circle about `center` in the plane normal to `normal`.
    pub fn circle(&mut self, center: Vec3, normal: Vec3, radius: f32, rgba: [u8; 4]) {
        // The 25 angles' cosines and sines, computed once (a thousand contact flashes a frame while playing
        // made this a sine and cosine per point and an allocation per circle); the points are the same.
        static UNIT: std::sync::OnceLock<[(f32, f32); 25]> = std::sync::OnceLock::new();
        let unit = UNIT.get_or_init(|| {
            std::array::from_fn(|i| {
                let a = i as f32 / 24.0 * std::f32::consts::TAU;
                (a.cos(), a.sin())
            })
        });
        let (u, v) = normal.normalize_or(Vec3::Y).any_orthonormal_pair();
        let point = |(c, s): (f32, f32)| center + (u * c + v * s) * radius;
        let mut prev = point(unit[0]);
        for &cs in &unit[1..] {
            let p = point(cs);
            self.line(prev, p, rgba);
            prev = p;
        }
    }

    /// The wire frame of a capsule (the points within `radius` of segment `a`–`b`): a ring at each end of
    /// the segment and one between, four lines along its sides, and two half circles over each end cap.
    pub fn capsule(&mut self, a: Vec3, b: Vec3, radius: f32, rgba: [u8; 4]) {
        let axis = (b - a).normalize_or(Vec3::Y);
        let (u, v) = axis.any_orthonormal_pair();
        for c in [a, (a + b) * 0.5, b] {
            self.circle(c, axis, radius, rgba);
        }
        for side in [u, -u, v, -v] {
            self.line(a + side * radius, b + side * radius, rgba);
        }
        for (c, out) in [(a, -axis), (b, axis)] {
            for side in [u, v] {
                let pts: Vec<Vec3> = (0..=12)
                    .map(|i| {
                        let t = i as f32 / 12.0 * std::f32::consts::PI;
                        c + (side * t.cos() + out * t.sin()) * radius
                    })
                    .collect();
                self.strip(&pts, rgba);
            }
        }
    }

    /// A small three-axis cross (a marker).
    pub fn cross(&mut self, p: Vec3, size: f32, rgba: [u8; 4]) {
        for ax in [Vec3::X, Vec3::Y, Vec3::Z] {
            self.line(p - ax * size, p + ax * size, rgba);
        }
    }

    /// The twelve edges of an axis-aligned box.
    pub fn aabb(&mut self, b: &Aabb, rgba: [u8; 4]) {
        let c = |i: u8| {
            Vec3::new(
                if i & 1 == 0 { b.min.x } else { b.max.x },
                if i & 2 == 0 { b.min.y } else { b.max.y },
                if i & 4 == 0 { b.min.z } else { b.max.z },
            )
        };
        for i in 0u8..8 {
            for bit in [1u8, 2, 4] {
                if i & bit == 0 {
                    self.line(c(i), c(i | bit), rgba);
                }
            }
        }
    }
}
