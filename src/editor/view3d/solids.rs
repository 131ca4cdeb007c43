//! Plain 3D drawing data, without the GPU: [`Solids`] holds lit triangles (position, normal, colour) with
//! their winding always matching their normal: the renderer treats counter-clockwise as the front and tints
//! back faces, so a level triangle shows its front (the side `(b - a) × (c - a)` points to) in its own
//! colour and its back in the back-face tint. [`Spheres`] holds one instance per ball. The static scene
//! (`scene.rs`) and the moved objects (`movers.rs`) both draw into these.

use glam::Vec3;

use crate::editor::draw::lines::pack;
use crate::sector::FaceKind;

/// Floats per [`Solids`] vertex: position (3), normal (3), colour (RGBA8 bits in one float).
pub const SOLID_FLOATS: usize = 7;
/// Segments around a cylinder (the static scene's and the moved objects').
pub const CYLINDER_SEGMENTS: usize = 32;
/// Floats per [`Spheres`] instance: centre (3), radius, colour.
pub const SPHERE_FLOATS: usize = 5;

/// Lit triangles, flat-shaded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Solids {
    /// Interleaved vertices, [`SOLID_FLOATS`] each.
    pub data: Vec<f32>,
}

impl Solids {
    /// Number of vertices.
    #[must_use]
    pub fn vertices(&self) -> usize {
        self.data.len() / SOLID_FLOATS
    }

    fn vertex(&mut self, p: Vec3, n: Vec3, c: f32) {
        self.data
            .extend_from_slice(&[p.x, p.y, p.z, n.x, n.y, n.z, c]);
    }

    /// A triangle facing `n` (its winding is swapped when it disagrees). Degenerate or non-finite
    /// triangles are skipped.
    pub fn tri(&mut self, a: Vec3, b: Vec3, c: Vec3, n: Vec3, rgba: [u8; 4]) {
        let cross = (b - a).cross(c - a);
        let n = n.normalize_or_zero();
        if !(cross.length_squared() > 1e-20) || !cross.is_finite() || n == Vec3::ZERO {
            return;
        }
        let col = pack(rgba);
        if cross.dot(n) >= 0.0 {
            self.vertex(a, n, col);
            self.vertex(b, n, col);
            self.vertex(c, n, col);
        } else {
            self.vertex(a, n, col);
            self.vertex(c, n, col);
            self.vertex(b, n, col);
        }
    }

    /// A triangle with its own winding: front is `(b - a) × (c - a)`.
    pub fn tri_as_wound(&mut self, a: Vec3, b: Vec3, c: Vec3, rgba: [u8; 4]) {
        let n = (b - a).cross(c - a);
        self.tri(a, b, c, n, rgba);
    }

    /// A planar quad `a b c d` (in order around its rim) facing `n`.
    pub fn quad(&mut self, a: Vec3, b: Vec3, c: Vec3, d: Vec3, n: Vec3, rgba: [u8; 4]) {
        self.tri(a, b, c, n, rgba);
        self.tri(a, c, d, n, rgba);
    }

    /// A box from its centre, three unit axes and half extents, faces outward.
    pub fn cuboid(&mut self, center: Vec3, axes: [Vec3; 3], half: Vec3, rgba: [u8; 4]) {
        let h = [axes[0] * half.x, axes[1] * half.y, axes[2] * half.z];
        for k in 0..3 {
            let (u, v) = (h[(k + 1) % 3], h[(k + 2) % 3]);
            for s in [-1.0f32, 1.0] {
                let c = center + h[k] * s;
                let n = axes[k] * s;
                self.quad(c - u - v, c + u - v, c + u + v, c - u + v, n, rgba);
            }
        }
    }

    /// A capped cylinder from `a` to `b`, `segments` around.
    pub fn cylinder(&mut self, a: Vec3, b: Vec3, radius: f32, segments: usize, rgba: [u8; 4]) {
        let axis = b - a;
        let len = axis.length();
        if !(len > 1e-6) || !(radius > 0.0) || !len.is_finite() || !radius.is_finite() {
            return;
        }
        let w = axis / len;
        let (u, v) = w.any_orthonormal_pair();
        let ring = |i: usize| {
            let ang = i as f32 / segments as f32 * std::f32::consts::TAU;
            u * ang.cos() + v * ang.sin()
        };
        for i in 0..segments {
            let (r0, r1) = (ring(i), ring(i + 1));
            let mid = (r0 + r1).normalize_or_zero();
            self.quad(
                a + r0 * radius,
                a + r1 * radius,
                b + r1 * radius,
                b + r0 * radius,
                mid,
                rgba,
            );
            self.tri(a, a + r0 * radius, a + r1 * radius, -w, rgba);
            self.tri(b, b + r0 * radius, b + r1 * radius, w, rgba);
        }
    }
}

/// Sphere instances.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spheres {
    /// Interleaved instances, [`SPHERE_FLOATS`] each.
    pub data: Vec<f32>,
}

impl Spheres {
    /// Number of instances.
    #[must_use]
    pub fn len(&self) -> usize {
        self.data.len() / SPHERE_FLOATS
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// One sphere (skipped when not finite or not positive).
    pub fn push(&mut self, center: Vec3, radius: f32, rgba: [u8; 4]) {
        if center.is_finite() && radius.is_finite() && radius > 0.0 {
            self.data
                .extend_from_slice(&[center.x, center.y, center.z, radius, pack(rgba)]);
        }
    }
}

/// A unit sphere (positions equal normals) as an indexed triangle list: an icosahedron subdivided
/// `levels` times ([`crate::generate::icosphere`]).
#[must_use]
pub fn unit_sphere(levels: u32) -> (Vec<Vec3>, Vec<u32>) {
    let (v, f) = crate::generate::icosphere(levels, Vec3::ZERO, 1.0);
    (v, f.into_iter().flatten().collect())
}

/// Colour of each object's geometry.
pub type Paint<'a> = &'a dyn Fn(crate::level::ObjectId, crate::editor::document::Kind) -> [u8; 4];

/// A box drawn from its two corners (each vertex one of `lo`'s or `hi`'s coordinates, bit for bit), faces
/// outward.
pub fn corner_box(s: &mut Solids, lo: Vec3, hi: Vec3, rgba: [u8; 4]) {
    let p = |x: bool, y: bool, z: bool| {
        Vec3::new(
            if x { hi.x } else { lo.x },
            if y { hi.y } else { lo.y },
            if z { hi.z } else { lo.z },
        )
    };
    for side in [false, true] {
        let sign = if side { 1.0 } else { -1.0 };
        s.quad(
            p(side, false, false),
            p(side, true, false),
            p(side, true, true),
            p(side, false, true),
            Vec3::X * sign,
            rgba,
        );
        s.quad(
            p(false, side, false),
            p(true, side, false),
            p(true, side, true),
            p(false, side, true),
            Vec3::Y * sign,
            rgba,
        );
        s.quad(
            p(false, false, side),
            p(true, false, side),
            p(true, true, side),
            p(false, true, side),
            Vec3::Z * sign,
            rgba,
        );
    }
}

/// A sector face's colour from the sector's: floors its own, ceilings darker, risers, lintels and walls
/// lighter (the static scene's shading).
#[must_use]
pub fn face_color(base: [u8; 4], face: FaceKind) -> [u8; 4] {
    let shade = |f: f32| {
        let c = |v: u8| (f32::from(v) * f).clamp(0.0, 255.0) as u8;
        [c(base[0]), c(base[1]), c(base[2]), base[3]]
    };
    match face {
        FaceKind::Floor => base,
        FaceKind::Ceiling => shade(0.6),
        FaceKind::Riser => shade(1.25),
        FaceKind::Lintel | FaceKind::Wall => shade(0.85),
    }
}
