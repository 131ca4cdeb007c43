//! Translucent, unlit triangles for the 3D preview, as plain data (no GPU here): overlays laid on surfaces,
//! such as the reachability map's cells. Each vertex is a position and a packed sRGB colour with its alpha,
//! the same layout as [`super::lines::Lines`] ([`LINE_FLOATS`] floats); the view draws them depth-tested
//! without writing depth so what lies under them still shows.

use glam::Vec3;

use super::lines::{LINE_FLOATS, pack};

/// Unlit triangles with alpha.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Translucent {
    /// Interleaved vertices, [`LINE_FLOATS`] each, three per triangle.
    pub data: Vec<f32>,
}

impl Translucent {
    /// Number of vertices.
    #[must_use]
    pub fn vertices(&self) -> usize {
        self.data.len() / LINE_FLOATS
    }

    /// One triangle (skipped when a corner is not finite).
    pub fn tri(&mut self, a: Vec3, b: Vec3, c: Vec3, rgba: [u8; 4]) {
        if !(a.is_finite() && b.is_finite() && c.is_finite()) {
            return;
        }
        let col = pack(rgba);
        for p in [a, b, c] {
            self.data.extend_from_slice(&[p.x, p.y, p.z, col]);
        }
    }

    /// A quad `a b c d` (corners in order around it) as two triangles.
    pub fn quad(&mut self, a: Vec3, b: Vec3, c: Vec3, d: Vec3, rgba: [u8; 4]) {
        self.tri(a, b, c, rgba);
        self.tri(a, c, d, rgba);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quad_is_two_triangles_and_nan_is_skipped() {
        let mut t = Translucent::default();
        t.quad(Vec3::ZERO, Vec3::X, Vec3::ONE, Vec3::Z, [1, 2, 3, 4]);
        assert_eq!(t.vertices(), 6);
        t.tri(Vec3::NAN, Vec3::X, Vec3::Z, [0; 4]);
        assert_eq!(t.vertices(), 6);
        assert_eq!(t.data[3].to_bits(), u32::from_le_bytes([1, 2, 3, 4]));
    }
}
