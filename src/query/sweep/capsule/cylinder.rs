//! A moving capsule against a solid capped cylinder: the segment against the cylinder's side in closed
//! form, against its caps' disks by root finding on the convex distance.

use super::*;

/// Segment `p..q` and the solid capped cylinder `a..b` of radius `rc`, exact. A point of the segment between
/// the caps' planes is nearest the solid's side at its own height (or inside), so over that stretch of the
/// segment the distance is the distance to the axis line less `rc`, least where the segment comes nearest
/// the line (clamped to the stretch); beyond the caps' planes the solid's nearest part is a cap's disk, whose
/// pair with the whole segment `segment_disk` gives exactly. Every candidate is a true pair of a segment point
/// and a solid point, and the nearest pair is one of them.
pub(super) fn segment_cylinder(p: DVec3, q: DVec3, a: DVec3, b: DVec3, rc: f64) -> Pair {
    let axis = b - a;
    let len = axis.length();
    if !(len > 0.0) {
        return segment_disk(p, q, a, DVec3::Y, rc);
    }
    let u = axis / len;
    let d = q - p;
    let (h0, hd) = (u.dot(p - a), u.dot(d));
    // The stretch of the segment between the caps' planes: `0 <= h0 + s hd <= len`.
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    if hd != 0.0 {
        let (s1, s2) = ((0.0 - h0) / hd, (len - h0) / hd);
        lo = lo.max(s1.min(s2));
        hi = hi.min(s1.max(s2));
    } else if !(0.0..=len).contains(&h0) {
        hi = -1.0;
    }
    let mut best = None;
    if lo <= hi {
        // The radial offset from the axis, `rho0 + s rhod`, is least in length at `s*` (any `s` when the
        // segment is parallel to the axis).
        let (rho0, rhod) = (p - a - u * h0, d - u * hd);
        let rr = rhod.length_squared();
        let s = if rr > 0.0 { -rho0.dot(rhod) / rr } else { lo };
        let s = s.clamp(lo, hi);
        let x = p + d * s;
        let rho = rho0 + rhod * s;
        let r = rho.length();
        if r <= rc {
            return (x, x);
        }
        best = Some((x, x - rho + rho * (rc / r)));
    }
    let caps = nearer(segment_disk(p, q, a, u, rc), segment_disk(p, q, b, u, rc));
    best.map_or(caps, |side| nearer(side, caps))
}

/// The point of the disk of centre `c`, unit normal `u` and radius `rc` closest to `x`.
pub(super) fn point_disk_d(x: DVec3, c: DVec3, u: DVec3, rc: f64) -> DVec3 {
    let v = x - c;
    let radial = v - u * v.dot(u);
    let len = radial.length();
    if len <= rc {
        c + radial
    } else {
        c + radial * (rc / len)
    }
}

/// Segment `p..q` and the disk of centre `c`, unit normal `u` and radius `rc`. Along the segment, the height
/// over the disk's plane `h(s)` and the radial offset `ρ(s)` are linear; the squared distance is `h²` where
/// `|ρ| <= rc` (over the disk: an interval of `s`, from a quadratic) and `h² + (|ρ| - rc)²` outside it. It is
/// convex and smooth, its derivative continuous and non-decreasing: the derivative's signs at the interval's
/// ends say where the minimum lies, which over the disk is in closed form (`h = 0`, or an end) and outside it
/// the root of a smooth monotone function (regula falsi with the Illinois modification, halving the bracket
/// whenever it fails to). A golden-section search would take about 70 steps.
pub(super) fn segment_disk(p: DVec3, q: DVec3, c: DVec3, u: DVec3, rc: f64) -> Pair {
    let d = q - p;
    let at = |s: f64| {
        let x = p + d * s;
        (x, point_disk_d(x, c, u, rc))
    };
    if p == q {
        return at(0.0);
    }
    let (h0, hd) = (u.dot(p - c), u.dot(d));
    let (rho0, rhod) = (p - c - u * h0, d - u * hd);
    // Half the derivative of the squared distance.
    let slope = |s: f64| {
        let rho = rho0 + rhod * s;
        let len = rho.length();
        let mut v = (h0 + hd * s) * hd;
        if len > rc {
            v += (len - rc) * rho.dot(rhod) / len;
        }
        v
    };
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    if let Some((s1, s2)) = over_disk(rho0, rhod, rc)
        && s2 >= 0.0
        && s1 <= 1.0
    {
        let (s1, s2) = (s1.max(0.0), s2.min(1.0));
        let (g1, g2) = (slope(s1), slope(s2));
        if g1 >= 0.0 {
            hi = s1;
        } else if g2 <= 0.0 {
            lo = s2;
        } else {
            // Over the disk: the squared distance is h², least where h = 0 (the segment crosses the disk).
            let s = if hd != 0.0 { -h0 / hd } else { s1 };
            return at(s.clamp(s1, s2));
        }
    }
    let (fa, fb) = (slope(lo), slope(hi));
    if !(fa < 0.0) {
        return at(lo);
    }
    if !(fb > 0.0) {
        return at(hi);
    }
    match illinois_root(slope, (lo, fa), (hi, fb)) {
        Ok(s) => at(s),
        Err((a, b)) => nearer(at(a), at(b)),
    }
}

/// Where the segment `ρ0 + s ρd` (the radial offsets from the disk's axis) is within `rc` of the axis:
/// `|ρ0 + s ρd|² <= rc²`, an interval of `s` (unbounded when the segment is parallel to the axis), or `None`.
fn over_disk(rho0: DVec3, rhod: DVec3, rc: f64) -> Option<(f64, f64)> {
    let (qa, qb, qc) = (
        rhod.length_squared(),
        rho0.dot(rhod),
        rho0.length_squared() - rc * rc,
    );
    if qa > 0.0 {
        let disc = qb * qb - qa * qc;
        (disc >= 0.0).then(|| {
            let root = disc.sqrt();
            ((-qb - root) / qa, (-qb + root) / qa)
        })
    } else {
        (qc <= 0.0).then_some((f64::NEG_INFINITY, f64::INFINITY))
    }
}

/// The root of the increasing function `slope` between `a` (where it is `fa < 0`) and `b` (`fb > 0`): regula
/// falsi with the Illinois modification, a bisection step whenever the bracket shrinks by less than half.
/// `Ok` with a point where `slope` is exactly zero, else `Err` with the final bracket.
fn illinois_root(
    slope: impl Fn(f64) -> f64,
    (mut a, mut fa): (f64, f64),
    (mut b, mut fb): (f64, f64),
) -> Result<f64, (f64, f64)> {
    let mut last = 0i8;
    for _ in 0..200 {
        let width = b - a;
        let mut s = (a * fb - b * fa) / (fb - fa);
        if !(s > a && s < b) {
            s = 0.5 * (a + b);
        }
        let fs = slope(s);
        if fs < 0.0 {
            (a, fa) = (s, fs);
            if last < 0 {
                fb *= 0.5;
            }
            last = -1;
        } else if fs > 0.0 {
            (b, fb) = (s, fs);
            if last > 0 {
                fa *= 0.5;
            }
            last = 1;
        } else {
            return Ok(s);
        }
        if b - a > 0.5 * width {
            // Too slow a shrink: a bisection step.
            let mid = 0.5 * (a + b);
            if mid <= a || mid >= b {
                break;
            }
            let fm = slope(mid);
            if fm < 0.0 {
                (a, fa) = (mid, fm);
            } else if fm > 0.0 {
                (b, fb) = (mid, fm);
            } else {
                return Ok(mid);
            }
            last = 0;
        }
        if b - a <= 1e-15 {
            break;
        }
    }
    Err((a, b))
}

/// First contact of a capsule that starts clear of the solid cylinder `a..b` (radius `rc`).
pub(super) fn cylinder_entry(cap: &CapD, m: DVec3, a: DVec3, b: DVec3, rc: f64) -> Option<f64> {
    if m == DVec3::ZERO {
        return None;
    }
    let r = cap.r;
    let closed = earliest([
        sphere_cylinder_entry_tol(cap.p, m, r, a, b, rc, CAPSULE_ROOT_TOLERANCE),
        sphere_cylinder_entry_tol(cap.q, m, r, a, b, rc, CAPSULE_ROOT_TOLERANCE),
        line_line_entry(cap.p, cap.q, m, a, b, r + rc),
    ]);
    // The segment's interior against a rim: root finding on the convex distance to each cap's disk, only
    // while the capsule can reach the disk (its moving box meets the disk's box and its segment is within its
    // radius of the disk's plane, with the rounding slack) and before the earliest closed-form contact.
    let u = (b - a).normalize();
    let mut best = closed;
    for c in [a, b] {
        let limit = best.unwrap_or(1.0);
        let Some((t0, t1)) = disk_reach(cap, m, c, u, rc, limit) else {
            continue;
        };
        if let Some(t) = disk_root(cap, m, c, u, rc, (t0, t1))
            && best.is_none_or(|b| t < b)
        {
            best = Some(t);
        }
    }
    best
}

/// First contact in `range` of a capsule moving by `m` with the disk of centre `c`, unit normal `u`, radius
/// `rc` (a cylinder's cap, rim included), by [`first_root_newton`] on the convex distance from the moving
/// segment to the disk ([`segment_disk`]), whose slope is `n·m` for `n` the unit direction from the disk's
/// closest point to the segment's.
pub(super) fn disk_root(
    cap: &CapD,
    m: DVec3,
    c: DVec3,
    u: DVec3,
    rc: f64,
    range: (f64, f64),
) -> Option<f64> {
    let eval = |t: f64| {
        let now = cap.moved(m * t);
        let (s, d) = segment_disk(now.p, now.q, c, u, rc);
        let away = s - d;
        let len = away.length();
        let slope = if len > 0.0 {
            away.dot(m) / len
        } else {
            -m.length()
        };
        (len - cap.r, slope)
    };
    first_root_newton(eval, range, pair_scale(cap, m, c), m.length())
}

/// First `t` in `range` at which a convex function `f` (a distance minus a radius; `eval(t)` gives `f(t)` and
/// its slope) comes within `tol = CAPSULE_ROOT_TOLERANCE * scale` of 0, for `f > tol` at the range's start.
///
/// Newton's method from the left: for a convex function each tangent lies below it, so each step lands at or
/// before the first root, and it converges in a handful of steps where golden-section search and bisection
/// take about 120 evaluations. The slope comes from an inner search and can be a little off where the distance
/// is nearly flat along the segment, so nothing rests on it alone: a step that lands past the root (`f <
/// -tol`) is followed by bisection back to it, and every "no root" (a slope not falling, a step past the
/// range's end) is left to [`first_root_convex_fn`] from the last point where `f > tol` (its Lipschitz bound
/// settles clear misses in a few steps). A landing within `tol` of the root is the answer.
fn first_root_newton(
    eval: impl Fn(f64) -> (f64, f64),
    range: (f64, f64),
    scale: f64,
    lipschitz: f64,
) -> Option<f64> {
    let tol = CAPSULE_ROOT_TOLERANCE * scale;
    let (start, end) = range;
    let f_only = |x: f64| eval(x).0;
    let (mut clear, mut t) = (start, start);
    for _ in 0..40 {
        let (f, slope) = eval(t);
        if f <= tol {
            if f >= -tol || t == clear {
                return Some(t);
            }
            // Past the root: the first point at or below the tolerance lies in (clear, t].
            let (mut a, mut b) = (clear, t);
            for _ in 0..64 {
                let mid = 0.5 * (a + b);
                if mid <= a || mid >= b {
                    break;
                }
                if f_only(mid) <= tol {
                    b = mid;
                } else {
                    a = mid;
                }
            }
            return Some(b);
        }
        clear = t;
        let next = t - f / slope;
        if !(slope < 0.0) || !(next <= end) {
            break;
        }
        if next <= t {
            // Within rounding of the root.
            return Some(t);
        }
        t = next;
    }
    first_root_convex_fn(f_only, clear, end, scale, lipschitz)
}

/// The times within `0..=limit` at which a capsule moving by `m` can touch the disk of centre `c`, unit normal
/// `u` and radius `rc`: its moving box meets the disk's box and its segment is within its radius of the disk's
/// plane (both with the rounding slack). `None` when never.
pub(super) fn disk_reach(
    cap: &CapD,
    m: DVec3,
    c: DVec3,
    u: DVec3,
    rc: f64,
    limit: f64,
) -> Option<(f64, f64)> {
    let reach = cap.r + reject_slack(cap, m, c);
    let (lo, hi) = (
        cap.p.min(cap.q) - DVec3::splat(reach),
        cap.p.max(cap.q) + DVec3::splat(reach),
    );
    let mut range = (0.0, limit);
    for i in 0..3 {
        range = interval_meet(lo[i], hi[i], m[i], c[i] - rc, c[i] + rc, range)?;
    }
    let (sp, sq) = (u.dot(cap.p - c), u.dot(cap.q - c));
    interval_meet(sp.min(sq), sp.max(sq), u.dot(m), -reach, reach, range)
}

/// The scale of a root search's tolerance: the sizes and distances involved.
fn pair_scale(cap: &CapD, m: DVec3, c: DVec3) -> f64 {
    cap.p.length() + cap.q.length() + m.length() + cap.r + c.length()
}

/// For a segment meeting the solid cylinder: the way out through the nearest of its side and caps (from the
/// segment's middle), and the point of the cylinder's boundary nearest the segment.
fn cylinder_way_out(cap: &CapD, inner: DVec3, a: DVec3, b: DVec3, rc: f64) -> (DVec3, DVec3) {
    let point = overlap_point(
        cap,
        inner,
        |x| point_cylinder_d(x, a, b, rc),
        |x| cylinder_exit(x, a, b, rc).1,
    );
    (cylinder_way_out_normal(cap, a, b, rc), point)
}

/// The way out of [`cylinder_way_out`].
fn cylinder_way_out_normal(cap: &CapD, a: DVec3, b: DVec3, rc: f64) -> DVec3 {
    let mid = (cap.p + cap.q) * 0.5;
    let axis = b - a;
    let h = axis.length();
    let u = axis / h;
    let s = (mid - a).dot(u);
    let radial = mid - a - u * s;
    let rl = radial.length();
    let (side, to_a, to_b) = (rc - rl, s, h - s);
    if side <= to_a && side <= to_b && rl > 0.0 {
        radial / rl
    } else if to_a <= to_b {
        -u
    } else {
        u
    }
}

/// A capsule moving against the solid cylinder `a..b` of radius `rc`, in f64.
fn capsule_cylinder_d(cap: &CapD, m: DVec3, a: DVec3, b: DVec3, rc: f64) -> Option<ToiD> {
    let pair_at = |p: DVec3, q: DVec3| segment_cylinder(p, q, a, b, rc);
    let pair = pair_at(cap.p, cap.q);
    if pair.0.distance_squared(pair.1) <= cap.r * cap.r {
        return touching(pair, m, || Some(cylinder_way_out(cap, pair.0, a, b, rc)));
    }
    let t = cylinder_entry(cap, m, a, b, rc)?;
    contact(t, cap, m, pair_at, 0.0)
}

/// A moving capsule against a solid, finite, capped cylinder: its end spheres against the cylinder, its
/// segment against the cylinder's axis (side contacts), and its segment against the rims (root finding on the
/// convex distance to each cap's disk).
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Capsule, Cylinder}, query::sweep::capsule_cylinder};
/// // A pillar of radius 1 from y = 0 to 4; a lying capsule (radius 0.5) along z moving +x toward it.
/// let pillar = Cylinder::new(Vec3::ZERO, Vec3::new(0.0, 4.0, 0.0), 1.0);
/// let c = Capsule::new(Vec3::new(-5.0, 2.0, -3.0), Vec3::new(-5.0, 2.0, 3.0), 0.5);
/// let toi = capsule_cylinder(&c, Vec3::new(4.0, 0.0, 0.0), &pillar).unwrap();
/// // The axes come within 1.5 when x = -1.5: after 3.5 of 4.
/// assert!((toi.t - 0.875).abs() < 1e-6);
/// assert!((toi.point - Vec3::new(-1.0, 2.0, 0.0)).length() < 1e-6);
/// ```
#[must_use]
pub fn capsule_cylinder(capsule: &Capsule, motion: Vec3, cylinder: &Cylinder) -> Option<Toi> {
    let (cap, m) = start(capsule, motion)?;
    if !cylinder.is_valid() {
        return None;
    }
    let (a, b, rc) = (d3(cylinder.a), d3(cylinder.b), f64::from(cylinder.radius));
    capsule_cylinder_d(&cap, m, a, b, rc)?.to_f32()
}

/// The f64 pair of a capsule and a cylinder, for the overlap tests.
pub(crate) fn cylinder_pair(cap: &CapD, cylinder: &Cylinder) -> Pair {
    segment_cylinder(
        cap.p,
        cap.q,
        d3(cylinder.a),
        d3(cylinder.b),
        f64::from(cylinder.radius),
    )
}
