//! Hand-worked and edge-case tests of the ray casts.

use glam::Vec3;

use super::super::{RayHit, unit};
use super::*;
use crate::shape::{Aabb, Cylinder, Ray, Sphere};

#[test]
fn slab_parallel_on_boundary_is_inside() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    // Runs along the face y = 1, parallel to it: touching counts.
    let hit = ray_aabb(
        &Ray::new(Vec3::new(-1.0, 1.0, 0.5), Vec3::X),
        &b,
        f32::INFINITY,
    )
    .unwrap();
    assert_eq!(hit.t, 1.0);
    // Tiny (subnormal) direction component with origin on the boundary: no 0 * inf NaN. Heading
    // inward it enters at x = 0; heading outward it leaves the slab at once and misses.
    let r = Ray::new(Vec3::new(-1.0, 1.0, 0.5), Vec3::new(1.0, -1e-40, 0.0));
    assert_eq!(ray_aabb(&r, &b, f32::INFINITY).map(|h| h.t), Some(1.0));
    let r = Ray::new(Vec3::new(-1.0, 1.0, 0.5), Vec3::new(1.0, 1e-40, 0.0));
    assert!(ray_aabb(&r, &b, f32::INFINITY).is_none());
}

#[test]
fn inside_box_hits_at_zero_facing_back() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let hit = ray_aabb(
        &Ray::new(Vec3::splat(0.5), Vec3::new(0.0, 2.0, 0.0)),
        &b,
        1.0,
    )
    .unwrap();
    assert_eq!((hit.t, hit.normal), (0.0, -Vec3::Y));
}

#[test]
fn cylinder_parallel_to_axis_inside_radius_hits_cap() {
    let c = Cylinder::new(Vec3::ZERO, Vec3::new(0.0, 0.0, 2.0), 1.0);
    let hit = ray_cylinder(&Ray::new(Vec3::new(0.5, 0.0, -3.0), Vec3::Z), &c, 10.0).unwrap();
    assert_eq!((hit.t, hit.normal), (3.0, -Vec3::Z));
    assert!(ray_cylinder(&Ray::new(Vec3::new(1.5, 0.0, -3.0), Vec3::Z), &c, 10.0).is_none());
}

/// The f32 sphere cast as it was before [`clear_miss`], the `Vec3A` form and the wider hand-over to f64:
/// every answer of [`ray_sphere`] must equal this one bit for bit, except where this one's f32 numbers
/// ran out of range ([`old_out_of_range`]) and the new one answers as [`ray_sphere_f64`].
fn ray_sphere_reference(ray: &Ray, sphere: &Sphere, max_t: f32) -> Option<RayHit> {
    let d = ray.dir;
    let oc = ray.origin - sphere.center;
    let r = sphere.radius;
    let a = d.length_squared();
    let half_b = oc.dot(d);
    let c = oc.length_squared() - r * r;
    if !((a + c + half_b).is_finite() && a > 0.0) {
        return ray_sphere_f64(ray, sphere, max_t);
    }
    if c < 0.0 || (c == 0.0 && half_b >= 0.0) {
        return valid_hit(sphere, max_t, 0.0, ray.origin, -unit(d));
    }
    if half_b > 0.0 {
        return None;
    }
    let hb2 = half_b * half_b;
    let mut disc = hb2 - a * c;
    if disc < hb2 * (1.0 / 64.0) {
        disc = a * (r * r) - oc.cross(d).length_squared();
    }
    if !(disc >= 0.0) {
        return None;
    }
    let denom = -half_b + disc.sqrt();
    let t = if denom > 0.0 { c / denom } else { 0.0 };
    if !(t <= max_t) {
        return None;
    }
    let point = ray.origin + d * t;
    valid_hit(sphere, max_t, t, point, (point - sphere.center) * (1.0 / r))
}

/// Whether an f32 number of [`ray_sphere_reference`]'s outside-the-sphere path is infinite or NaN for
/// valid input: its answer there was an accident of overflow (`None` for a hit, or a hit at `t = 0`
/// with a normal that is not unit), which [`ray_sphere`] now leaves to f64.
fn old_out_of_range(ray: &Ray, sphere: &Sphere) -> bool {
    let (d, oc, r) = (ray.dir, ray.origin - sphere.center, sphere.radius);
    let (a, half_b, c) = (d.length_squared(), oc.dot(d), oc.length_squared() - r * r);
    let (hb2, lagrange) = (half_b * half_b, a * (r * r) - oc.cross(d).length_squared());
    let disc = if hb2 - a * c < hb2 * (1.0 / 64.0) {
        lagrange
    } else {
        hb2 - a * c
    };
    let t = c / (-half_b + disc.max(0.0).sqrt());
    let point = ray.origin + d * t;
    let numbers = [
        a,
        half_b,
        c,
        hb2,
        a * c,
        hb2 - a * c,
        a * (r * r),
        lagrange,
        1.0 / r,
        t,
    ];
    ray.is_valid()
        && sphere.is_valid()
        && c >= 0.0
        && (numbers.iter().any(|x| !x.is_finite())
            || !(point.is_finite() && ((point - sphere.center) * (1.0 / r)).is_finite()))
}

fn hit_bits(h: Option<RayHit>) -> Option<[u32; 7]> {
    h.map(|h| {
        [
            h.t, h.point.x, h.point.y, h.point.z, h.normal.x, h.normal.y, h.normal.z,
        ]
        .map(f32::to_bits)
    })
}

/// Checks that [`ray_sphere`] answers as [`ray_sphere_reference`] (or, where that one's f32 numbers
/// overflowed, exactly as [`ray_sphere_f64`]) and that a hit is finite with `t` in `0..=max_t`. Returns
/// whether the answer came from the f64 hand-over.
fn check_same(ray: &Ray, sphere: &Sphere, max_t: f32) -> Result<bool, String> {
    let new = ray_sphere(ray, sphere, max_t);
    let reference = ray_sphere_reference(ray, sphere, max_t);
    let mut handed_over = false;
    if hit_bits(new) != hit_bits(reference) {
        handed_over = old_out_of_range(ray, sphere)
            && hit_bits(new) == hit_bits(ray_sphere_f64(ray, sphere, max_t));
        if !handed_over {
            return Err(format!(
                "ray_sphere({ray:?}, {sphere:?}, {max_t}) = {new:?}, reference {reference:?}"
            ));
        }
    }
    if let Some(h) = new {
        let finite = h.t.is_finite() && h.point.is_finite() && h.normal.is_finite();
        if !(finite && h.t >= 0.0 && h.t <= max_t) {
            return Err(format!(
                "ray_sphere({ray:?}, {sphere:?}, {max_t}): bad hit {h:?}"
            ));
        }
    }
    Ok(handed_over)
}

/// SplitMix64, for the deterministic sweeps below.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// `2^e` with `e` uniform in `lo..hi`.
    fn scale(&mut self, lo: i32, hi: i32) -> f32 {
        2f32.powi(lo + (self.next() % (hi - lo) as u64) as i32)
    }

    fn dir(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            if v.length_squared() > 1e-3 {
                return v.normalize();
            }
        }
    }

    /// Any f32 bit pattern, with infinities, NaNs, zeros and subnormals now and then.
    fn any(&mut self) -> f32 {
        match self.next() % 8 {
            0 => f32::from_bits(self.next() as u32),
            1 => [
                0.0,
                -0.0,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::NAN,
                1e-40,
                -1e-45,
                f32::MAX,
            ][(self.next() % 8) as usize],
            _ => self.range(-1.0, 1.0) * self.scale(-60, 60),
        }
    }
}

/// One case of the sweep: a sphere at any scale and distance, and a ray aimed at it, near its rim
/// (grazing, just inside or just outside the tangent), from inside, from its surface, or anywhere.
fn sweep_case(m: &mut Mix) -> (Ray, Sphere, f32) {
    let kind = m.next() % 8;
    if kind == 0 {
        let v = |m: &mut Mix| Vec3::new(m.any(), m.any(), m.any());
        let (origin, dir, center) = (v(m), v(m), v(m));
        return (Ray::new(origin, dir), Sphere::new(center, m.any()), m.any());
    }
    let unit = m.scale(-40, 40);
    let radius = m.range(0.5, 2.0) * unit * m.scale(-20, 4);
    let center = Vec3::new(m.range(-1.0, 1.0), m.range(-1.0, 1.0), m.range(-1.0, 1.0))
        * unit
        * m.scale(0, 24);
    let sphere = Sphere::new(center, radius);
    let dist = radius * m.range(0.0, 1.0) * m.scale(0, 30);
    let origin = center + m.dir() * dist;
    // Aim at a point on the plane through the centre across the ray, at `offset` radii from the centre.
    let towards = (center - origin).try_normalize().unwrap_or(Vec3::X);
    let side = towards.any_orthonormal_vector();
    let offset = match kind {
        1 => 1.0 + m.range(-1.0, 1.0) * m.scale(-24, -4),
        2 => 1.0,
        3 => m.range(0.0, 1.0),
        4 => m.range(0.0, 3.0),
        _ => m.range(0.0, 1.5),
    };
    let aim = center + side * (radius * offset);
    let mut dir = (aim - origin) * m.scale(-30, 30);
    if kind == 5 {
        dir = m.dir() * m.scale(-30, 30);
    }
    let origin = if kind == 6 {
        center + m.dir() * radius
    } else {
        origin
    };
    let max_t = match m.next() % 4 {
        0 => f32::INFINITY,
        1 => m.range(0.0, 2.0),
        _ => m.range(0.0, 2.0) * m.scale(0, 40),
    };
    (Ray::new(origin, dir), sphere, max_t)
}

#[test]
fn ray_sphere_equals_reference_on_a_million_cases() {
    let mut m = Mix(0x5EED_0F5F_4E2E);
    let mut hits = 0;
    let mut handed_over = 0;
    for _ in 0..1_000_000 {
        let (ray, sphere, max_t) = sweep_case(&mut m);
        match check_same(&ray, &sphere, max_t) {
            Ok(f64_answer) => handed_over += usize::from(f64_answer),
            Err(e) => panic!("{e}"),
        }
        hits += usize::from(ray_sphere(&ray, &sphere, max_t).is_some());
    }
    // The sweep exercises both answers in earnest, and the overflow cases stay rare.
    assert!((200_000..800_000).contains(&hits), "{hits} hits");
    assert!(
        handed_over < 100_000,
        "{handed_over} answers differ from the old f32 form"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 20_000,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    #[test]
    fn ray_sphere_equals_reference(seed in proptest::prelude::any::<u64>()) {
        let (ray, sphere, max_t) = sweep_case(&mut Mix(seed));
        check_same(&ray, &sphere, max_t).map_err(proptest::test_runner::TestCaseError::fail)?;
    }

    #[test]
    fn ray_sphere_equals_reference_on_raw_floats(
        o in proptest::array::uniform3(proptest::num::f32::ANY),
        d in proptest::array::uniform3(proptest::num::f32::ANY),
        c in proptest::array::uniform3(proptest::num::f32::ANY),
        r in proptest::num::f32::ANY,
        max_t in proptest::num::f32::ANY,
    ) {
        let (ray, sphere) = (Ray::new(Vec3::from(o), Vec3::from(d)), Sphere::new(Vec3::from(c), r));
        check_same(&ray, &sphere, max_t).map_err(proptest::test_runner::TestCaseError::fail)?;
    }
}

/// The rounding errors of the two f32 discriminants against the exact one, measured: [`clear_miss`]
/// relies on their sum staying below A·O·2⁻¹⁸ (its bound is 55u·A·O, u = 2⁻²⁴).
#[test]
fn discriminant_errors_within_bound() {
    let mut m = Mix(0xD15C);
    let mut worst: f64 = 0.0;
    for _ in 0..2_000_000 {
        let (ray, sphere, _) = sweep_case(&mut m);
        let (oc, d, r) = (ray.origin - sphere.center, ray.dir, sphere.radius);
        let (a, half_b, oc2) = (d.length_squared(), oc.dot(d), oc.length_squared());
        let c = oc2 - r * r;
        if !((a + c + half_b + oc2).is_finite() && a.min(oc2) > 2f32.powi(-50) && c >= 0.0) {
            continue;
        }
        let hb2 = half_b * half_b;
        let (textbook, lagrange) = (hb2 - a * c, a * (r * r) - oc.cross(d).length_squared());
        if !(hb2.is_finite() && textbook.is_finite() && lagrange.is_finite()) {
            continue;
        }
        // Products of f32 values are exact in f64; the sums round at 2⁻⁵³, far below what is measured.
        let (oc, d, r) = (oc.as_dvec3(), d.as_dvec3(), f64::from(r));
        let exact = d.length_squared() * r * r - oc.cross(d).length_squared();
        let ao = d.length_squared() * oc.length_squared();
        let err = ((f64::from(textbook) - exact).abs() + (f64::from(lagrange) - exact).abs()) / ao;
        worst = worst.max(err);
    }
    let bound = 55.0 * 2f64.powi(-24);
    assert!(
        worst > 0.0 && worst < bound,
        "worst {worst:e} against {bound:e}"
    );
}

/// Against the f64 version (the referee for far, tiny, huge and grazing spheres): the same hits and
/// misses wherever the true discriminant is not within rounding of zero, and close `t`.
#[test]
fn ray_sphere_agrees_with_f64() {
    let mut m = Mix(0xF64);
    let mut compared = 0;
    for _ in 0..2_000_000 {
        let (ray, sphere, max_t) = sweep_case(&mut m);
        // f32 keeps its relative precision while no square underflows: |dir|² and r² of at least 2⁻⁴⁰
        // keep every product of the discriminants (a·r², a·|oc|², ...) at 2⁻⁸⁰ or more. Below that the
        // f32 path is as it always was (products lose digits to gradual underflow).
        let tiny = 2f32.powi(-40);
        let normal_range =
            ray.dir.length_squared() >= tiny && sphere.radius * sphere.radius >= tiny;
        if !(ray.is_valid() && sphere.is_valid() && max_t >= 0.0 && normal_range) {
            continue;
        }
        let (oc, d) = ((ray.origin - sphere.center).as_dvec3(), ray.dir.as_dvec3());
        let r = f64::from(sphere.radius);
        let (a, o2, r2) = (d.length_squared(), oc.length_squared(), r * r);
        let exact = a * r2 - oc.cross(d).length_squared();
        // f32 rounds `origin - center` by up to `delta` (f64 does not): the answers may differ where that
        // moves the line across the rim or the origin across the surface, and the distance to the
        // entry by up to `delta` over the cosine of incidence (at least sqrt(1e-5) past the rim cut).
        let delta = 2f64.powi(-24)
            * 3f64.sqrt()
            * f64::from(ray.origin.abs().max_element() + sphere.center.abs().max_element());
        let tangent = exact.abs() < a * (o2 + r2) * 1e-5 + 8.0 * (o2 * a).sqrt() * a.sqrt() * delta;
        if tangent || (o2 - r2).abs() < (o2 + r2) * 1e-5 + 8.0 * o2.sqrt() * delta {
            continue; // Tangent or on the surface: either answer is within rounding.
        }
        let (new, referee) = (
            ray_sphere(&ray, &sphere, max_t),
            ray_sphere_f64(&ray, &sphere, max_t),
        );
        match (new, referee) {
            (Some(h), Some(g)) => {
                compared += 1;
                let gap = f64::from((h.t - g.t).abs()) * a.sqrt();
                let allowed = 1e-4 * f64::from(g.t) * a.sqrt() + 400.0 * delta;
                let ok = gap <= allowed && (h.t == 0.0) == (g.t == 0.0);
                assert!(ok, "{ray:?} {sphere:?} {max_t}: {h:?} vs f64 {g:?}");
            }
            (None, None) => {}
            // The end of the range: t within rounding of max_t.
            (Some(h), None) | (None, Some(h))
                if (h.t - max_t).abs() <= 1e-3 * max_t.min(f32::MAX) => {}
            (a, b) => panic!("{ray:?} {sphere:?} {max_t}: {a:?} vs f64 {b:?}"),
        }
    }
    assert!(compared > 50_000, "{compared} hits compared");
}

#[test]
fn max_t_is_inclusive_and_nan_rejected() {
    let s = Sphere::new(Vec3::new(0.0, 0.0, 10.0), 2.0);
    let r = Ray::new(Vec3::ZERO, Vec3::Z);
    assert!(ray_sphere(&r, &s, 8.0).is_some());
    assert!(ray_sphere(&r, &s, 7.999).is_none());
    assert!(ray_sphere(&r, &s, f32::NAN).is_none());
}
