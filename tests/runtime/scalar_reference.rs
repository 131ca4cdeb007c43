//! The SIMD forms of the box ray queries and of `is_orthonormal` against their scalar definitions, bit for
//! bit: `ray_aabb` and `ray_obb` run on SSE registers (`Vec3A`, `Mat3A`) and `is_orthonormal` as one transposed
//! product, on the promise (ARCHITECTURE.md, "SIMD without new answers") that every operation rounds as the
//! scalar `Vec3` code does. The references below are that scalar code, kept plainly: the slab method on `Vec3`,
//! the change of frame as `rotation.transpose() * v`, the normal by `Vec3::normalize`, the six dot products one
//! by one. Cases are seeded and adversarial (zeros of both signs, axis-parallel rays, subnormals, huge and
//! non-finite numbers, origins on faces, matrices at the tolerance's edge); every answer must have the same
//! bits, `None` included.

use collidoscope::glam::{Mat3, Quat, Vec3};
use collidoscope::query::RayHit;
use collidoscope::query::ray::{ray_aabb, ray_obb};
use collidoscope::shape::{Aabb, Interval, ORTHONORMAL_TOLERANCE, Obb, Ray, is_orthonormal};

use super::capsule_differential::Rng;

/// An adversarial number: signed zeros, small integers and halves, subnormals, huge values, random bit
/// patterns (NaN and infinities among them), or an ordinary value in `-scale..scale`.
fn number(rng: &mut Rng, scale: f32) -> f32 {
    match rng.next_u64() % 16 {
        0 => 0.0,
        1 => -0.0,
        2 => 1.0,
        3 => -1.0,
        4 => (rng.next_u64() % 7) as f32 - 3.0,
        5 => ((rng.next_u64() % 13) as f32 - 6.0) * 0.5,
        6 => 1e-40 * rng.range(-1.0, 1.0),
        7 => 1e30 * rng.range(-1.0, 1.0),
        8 => f32::from_bits(rng.next_u64() as u32),
        9 => [f32::INFINITY, f32::NEG_INFINITY, f32::NAN][(rng.next_u64() % 3) as usize],
        10 => 3.0e38 * rng.range(-1.0, 1.0),
        _ => rng.range(-scale, scale),
    }
}

/// Three adversarial numbers, or three ordinary ones in `-scale..scale`.
fn vector(rng: &mut Rng, scale: f32, adversarial: bool) -> Vec3 {
    if adversarial {
        Vec3::new(number(rng, scale), number(rng, scale), number(rng, scale))
    } else {
        Vec3::new(
            rng.range(-scale, scale),
            rng.range(-scale, scale),
            rng.range(-scale, scale),
        )
    }
}

/// A rotation from a normalised random quaternion (its rounding leaves it a few ulps off orthonormal).
fn rotation(rng: &mut Rng) -> Mat3 {
    let q = Quat::from_xyzw(
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
    );
    Mat3::from_quat(q.normalize())
}

/// Every bit of an answer (`None` as all ones).
fn bits(h: Option<RayHit>) -> [u32; 7] {
    h.map_or([u32::MAX; 7], |h| {
        [
            h.t.to_bits(),
            h.point.x.to_bits(),
            h.point.y.to_bits(),
            h.point.z.to_bits(),
            h.normal.x.to_bits(),
            h.normal.y.to_bits(),
            h.normal.z.to_bits(),
        ]
    })
}

/// The scalar definitions.
mod scalar {
    use super::*;

    pub fn is_orthonormal(m: &Mat3) -> bool {
        if !m.is_finite() {
            return false;
        }
        let (x, y, z) = (m.x_axis, m.y_axis, m.z_axis);
        let tol = ORTHONORMAL_TOLERANCE;
        (x.length_squared() - 1.0).abs() <= tol
            && (y.length_squared() - 1.0).abs() <= tol
            && (z.length_squared() - 1.0).abs() <= tol
            && x.dot(y).abs() <= tol
            && y.dot(z).abs() <= tol
            && z.dot(x).abs() <= tol
    }

    fn obb_is_valid(o: &Obb) -> bool {
        o.center.is_finite()
            && o.half_extents.is_finite()
            && o.half_extents.cmpge(Vec3::ZERO).all()
            && is_orthonormal(&o.rotation)
    }

    fn unit(v: Vec3) -> Vec3 {
        let m = v.abs().max_element();
        (v / m).normalize()
    }

    fn finite_hit(hit: RayHit) -> Option<RayHit> {
        let sum = hit.t + hit.point.element_sum() + hit.normal.element_sum();
        (sum.is_finite() || (hit.t.is_finite() && hit.point.is_finite() && hit.normal.is_finite()))
            .then_some(hit)
    }

    fn slab(o: f32, d: f32, min: f32, max: f32) -> Interval {
        if d == 0.0 {
            return if o < min || o > max {
                Interval::EMPTY
            } else {
                Interval::EVERYTHING
            };
        }
        let inv = 1.0 / d;
        let (mut t1, mut t2) = ((min - o) * inv, (max - o) * inv);
        if t1.is_nan() || t2.is_nan() {
            (t1, t2) = ((min - o) / d, (max - o) / d);
            if t1.is_nan() || t2.is_nan() {
                return Interval::EMPTY;
            }
        }
        Interval::new(t1.min(t2), t1.max(t2))
    }

    /// `(t, entered axis)` of the first point of the ray in the box within `0..=max_t`.
    fn entry(o: Vec3, d: Vec3, min: Vec3, max: Vec3, max_t: f32) -> Option<(f32, Option<usize>)> {
        let inv = d.recip();
        let (near, far, axis) = if inv.is_finite() && d.is_finite() {
            let (t1, t2) = ((min - o) * inv, (max - o) * inv);
            let (lo, hi) = (t1.min(t2), t1.max(t2));
            let axis = if lo.x >= lo.y && lo.x >= lo.z {
                0
            } else if lo.y >= lo.z {
                1
            } else {
                2
            };
            (lo[axis], hi.min_element(), axis)
        } else {
            let axes = [
                slab(o.x, d.x, min.x, max.x),
                slab(o.y, d.y, min.y, max.y),
                slab(o.z, d.z, min.z, max.z),
            ];
            let mut axis = 0;
            for i in 1..3 {
                if axes[i].min > axes[axis].min {
                    axis = i;
                }
            }
            let far = axes[0].max.min(axes[1].max).min(axes[2].max);
            (axes[axis].min, far, axis)
        };
        if !(near <= far && far >= 0.0 && near <= max_t) {
            return None;
        }
        Some(if near < 0.0 {
            (0.0, None)
        } else {
            (near, Some(axis))
        })
    }

    fn axis_normal(axis: usize, d: f32) -> Vec3 {
        let mut n = Vec3::ZERO;
        n[axis] = if d > 0.0 { -1.0 } else { 1.0 };
        n
    }

    pub fn ray_aabb(ray: &Ray, b: &Aabb, max_t: f32) -> Option<RayHit> {
        let (t, axis) = entry(ray.origin, ray.dir, b.min, b.max, max_t)?;
        if !(max_t >= 0.0) || !ray.is_valid() || !b.is_valid() {
            return None;
        }
        let normal = axis.map_or_else(|| -unit(ray.dir), |a| axis_normal(a, ray.dir[a]));
        finite_hit(RayHit {
            t,
            point: ray.at(t),
            normal,
        })
    }

    pub fn ray_obb(ray: &Ray, b: &Obb, max_t: f32) -> Option<RayHit> {
        let rt = b.rotation.transpose();
        let (mut o, mut d) = (rt * (ray.origin - b.center), rt * ray.dir);
        if !(o.is_finite() && d.is_finite()) {
            let rt = rt.as_dmat3();
            o = (rt * (ray.origin.as_dvec3() - b.center.as_dvec3())).as_vec3();
            d = (rt * ray.dir.as_dvec3()).as_vec3();
        }
        let (t, axis) = entry(o, d, -b.half_extents, b.half_extents, max_t)?;
        if !(max_t >= 0.0) || !ray.is_valid() || !obb_is_valid(b) {
            return None;
        }
        let normal = axis.map_or_else(
            || -unit(ray.dir),
            |a| (b.rotation * axis_normal(a, d[a])).normalize(),
        );
        finite_hit(RayHit {
            t,
            point: ray.at(t),
            normal,
        })
    }
}

#[test]
fn box_rays_equal_the_scalar_definitions_bit_for_bit() {
    let mut rng = Rng::new(7);
    let (mut hits, mut cases) = (0, 0);
    for i in 0..150_000 {
        let adversarial = i % 3 == 0;
        let centre = vector(&mut rng, 3.0, adversarial && i % 2 == 0);
        let half = if adversarial && i % 4 == 0 {
            vector(&mut rng, 2.0, true)
        } else {
            vector(&mut rng, 2.0, false).abs() + Vec3::splat(0.01)
        };
        let aabb = Aabb::new(centre - half, centre + half);
        let mut ray = Ray::new(
            vector(&mut rng, 5.0, adversarial),
            vector(&mut rng, 2.0, adversarial),
        );
        if !adversarial && i % 2 == 0 {
            ray.dir = centre + vector(&mut rng, 1.5, false) - ray.origin; // aimed: about half hit
        }
        match i % 7 {
            1 => ray.dir[(rng.next_u64() % 3) as usize] = 0.0,
            2 => {
                let k = (rng.next_u64() % 3) as usize;
                (ray.dir[(k + 1) % 3], ray.dir[(k + 2) % 3]) = (0.0, -0.0);
            }
            3 => ray.origin = Vec3::new(aabb.min.x, centre.y, aabb.max.z), // on two faces
            _ => {}
        }
        let max_t = match rng.next_u64() % 6 {
            0 => f32::INFINITY,
            1 => 0.0,
            2 => -1.0,
            3 => rng.range(0.0, 10.0),
            4 => f32::NAN,
            _ => 100.0,
        };
        let turn = match rng.next_u64() % 8 {
            0 => Mat3::IDENTITY,
            1 => Mat3::from_rotation_z(std::f32::consts::FRAC_PI_2),
            2 => Mat3::from_cols(vector(&mut rng, 1.0, true), Vec3::Y, Vec3::Z),
            3 => rotation(&mut rng) * 1.0005,
            _ => rotation(&mut rng),
        };
        let obb = Obb::new(centre, half, turn);
        let ours = (ray_aabb(&ray, &aabb, max_t), ray_obb(&ray, &obb, max_t));
        let reference = (
            scalar::ray_aabb(&ray, &aabb, max_t),
            scalar::ray_obb(&ray, &obb, max_t),
        );
        assert_eq!(
            (bits(ours.0), bits(ours.1)),
            (bits(reference.0), bits(reference.1)),
            "case {i}: {ray:?} {aabb:?} {obb:?} max_t {max_t}: {ours:?} vs {reference:?}"
        );
        hits += usize::from(ours.0.is_some()) + usize::from(ours.1.is_some());
        cases += 2;
    }
    // The cases are not mostly misses: the comparison covers the hit path's normal and point.
    assert!(hits * 10 > cases, "{hits} hits in {cases} queries");
}

#[test]
fn is_orthonormal_equals_the_six_dot_products() {
    let mut rng = Rng::new(11);
    let mut yes = 0;
    let n = 200_000;
    for i in 0..n {
        let mut m = rotation(&mut rng);
        // Nudges around the tolerance: 1e-3 on a squared length is about 5e-4 on one entry.
        let eps = [0.0, 1e-4, 4e-4, 5e-4, 6e-4, 1e-3][i % 6];
        for c in 0..3 {
            for r in 0..3 {
                if rng.next_u64().is_multiple_of(3) {
                    m.col_mut(c)[r] += rng.range(-eps, eps);
                }
            }
        }
        if i % 13 == 0 {
            m.col_mut((rng.next_u64() % 3) as usize)[(rng.next_u64() % 3) as usize] =
                number(&mut rng, 1.0);
        }
        if i % 17 == 0 {
            m = Mat3::from_cols(
                vector(&mut rng, 1.0, true),
                vector(&mut rng, 1.0, true),
                vector(&mut rng, 1.0, true),
            );
        }
        assert_eq!(is_orthonormal(&m), scalar::is_orthonormal(&m), "{m:?}");
        yes += usize::from(is_orthonormal(&m));
    }
    // Both answers are common: the nudges straddle the tolerance.
    assert!(yes > n / 4 && yes < n * 9 / 10, "{yes} of {n} orthonormal");
}
