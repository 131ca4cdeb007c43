//! Differential tests: collidoscope's queries against parry3d 0.31 on seeded random inputs.
//!
//! Every query family is run on [`CASES`] deterministic random cases (SplitMix64, fixed seeds) and must agree
//! with parry to `TOL = 1e-4` times the scale of the case (`max(1, |largest coordinate or size|)`): times of
//! impact and ray parameters are compared as distances along the motion (`|dt| * |dir|`), points by
//! Euclidean distance, unit normals to `NORMAL_TOL`.
//!
//! Excused cases (counted, printed with `eprintln!`, and asserted to stay below 1% of the cases):
//! - **boundary**: a boolean disagreement (hit/miss, overlap) where the pair is within `TOL * scale` of
//!   touching — measured with parry's exact point projection (signed distance along the ray or motion, or
//!   between a sphere's centre and the shape) or parry's `distance`/`contact` for polyhedral pairs — or where a
//!   hit lies within `TOL * scale` of `max_t`;
//! - **grazing**: both hit but the ray/motion meets the surface at a glancing angle (`|cos| < 0.02`), where `t`
//!   is ill-conditioned in f32 (parry solves its quadratics in f32, collidoscope in f64);
//! - **ambiguous normals** (not an error, not counted against the 1%): a hit on a box edge/corner or a
//!   cylinder rim, where either face normal is right; normals are then not compared.
//!
//! Differences of convention between collidoscope and parry, and what is compared instead:
//! - Ray starting inside a solid: collidoscope hits at `t = 0` with `normal = -dir.normalize()`; parry with
//!   `solid = true` hits at `t = 0` with a zero normal (cuboid) or an outward/other normal (ball, cylinder).
//!   Only `t = 0` and the point are compared against parry; collidoscope's normal is checked against its own
//!   documented convention.
//! - parry's ray–cylinder cast and its ball–cuboid/triangle/cylinder shape casts run GJK, which stops at a
//!   relative tolerance of `sqrt(10 * f32::EPSILON) ~ 1.1e-3`; measured errors reach 1e-2 in distance. For
//!   these, the reference `t` is parry's *exact* `PointQuery` signed distance, minimised along the ray/motion
//!   (it is convex) and bisected to its first root; the raw GJK answer is still compared for hit/miss, and its
//!   worst deviation is printed. Normals and contact points come from parry's projection at that `t`.
//! - parry's ray–ball cast and ball–ball shape cast solve their quadratic in f32 and lose up to ~1e-3 for
//!   small spheres far from the ray origin (checked against f64 by hand); when collidoscope disagrees with
//!   them, it must then agree with the bisected reference instead (counted as "matched only the refined
//!   reference").
//! - Sweeps whose shapes already overlap at `t = 0`: parry reports `t = 0` (status `PenetratingOrWithinTargetDist`)
//!   whatever the motion; collidoscope reports `t = 0` unless the motion separates them (strictly positive
//!   component along the normal), then `None`. The test checks both directions: `t = 0` is a failure when the
//!   motion clearly separates them (`cos > 0.01` with the direction from the obstacle's closest point to the
//!   centre), `None` is a failure when it clearly does not; with the centre inside the obstacle, "separating"
//!   means leaving through the nearest surface (parry's projection with `solid = false`).
//! - Sweep normals: collidoscope's points from the obstacle toward the moving sphere; parry's `normal2` is the
//!   outward normal of the obstacle in its local frame (rotated to world here) — the same direction.
//! - parry's ray `t` and collidoscope's are both in units of `dir` (dirs here are not normalised).
//! - Triangles are surfaces in both; parry's `Triangle` ray cast is two-sided like `ray_triangle`.
#![allow(clippy::unwrap_used)]

use crate::parry_glam::{FromParry, ToParry};
use collidoscope::query::{Cull, RayHit, Toi, closest, overlap, ray, sweep, triangle};
use collidoscope::shape::{Aabb, Cylinder, Obb, Ray, Segment, Sphere, Triangle};
use glam::{Mat3, Quat, Vec3, Vec4};
use parry3d::math::Pose;
use parry3d::query::{
    self as pq, PointQuery, Ray as PRay, RayCast, ShapeCastOptions, ShapeCastStatus,
};
use parry3d::shape::{
    Ball, Cuboid, Cylinder as PCylinder, Segment as PSegment, Shape, Triangle as PTriangle,
};

/// Random cases per query.
const CASES: usize = 20_000;
/// Relative tolerance (times the scale of the case).
const TOL: f32 = 1e-4;
/// Tolerance on unit normals (absolute; normals are derived from points through a division by the feature
/// size, which amplifies f32 rounding of coordinates up to 10 by up to 1/0.05).
const NORMAL_TOL: f32 = 1e-3;
/// Below this `|cos|` between the ray/motion and the surface normal, `t` is ill-conditioned.
const GRAZE: f32 = 0.02;
/// Largest allowed fraction of excused cases.
const MAX_EXCUSED: f64 = 0.01;

// ---------------------------------------------------------------------------------------------------------
// Random numbers

struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed)
    }
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
    fn chance(&mut self, p: f32) -> bool {
        self.unit() < p
    }
    fn vec(&mut self, lo: f32, hi: f32) -> Vec3 {
        Vec3::new(self.range(lo, hi), self.range(lo, hi), self.range(lo, hi))
    }
    fn sym(&mut self, h: f32) -> Vec3 {
        self.vec(-h, h)
    }
    /// Uniform random unit quaternion (rejection sampling in the 4-ball).
    fn quat(&mut self) -> Quat {
        loop {
            let v = Vec4::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let l = v.length();
            if l > 0.1 && l <= 1.0 {
                return Quat::from_vec4(v / l);
            }
        }
    }
    fn size(&mut self) -> f32 {
        self.range(0.05, 5.0)
    }
    fn center(&mut self) -> Vec3 {
        self.sym(10.0)
    }
    fn sphere(&mut self, c: Vec3) -> GSphere {
        GSphere::random(self, c)
    }
    fn cuboid(&mut self, c: Vec3, rotated: bool) -> GBox {
        GBox::random(self, c, rotated)
    }
    fn triangle(&mut self, c: Vec3) -> GTri {
        GTri::random(self, c)
    }
    fn cylinder(&mut self, c: Vec3) -> GCyl {
        GCyl::random(self, c)
    }
}

// ---------------------------------------------------------------------------------------------------------
// Generated shapes, with their parry twins

#[derive(Clone, Copy, Debug)]
struct GSphere {
    c: Vec3,
    r: f32,
}

impl GSphere {
    fn random(rng: &mut Rng, c: Vec3) -> Self {
        Self { c, r: rng.size() }
    }
    fn mine(&self) -> Sphere {
        Sphere::new(self.c, self.r)
    }
    fn parry(&self) -> (Ball, Pose) {
        (Ball::new(self.r), Pose::from_translation(self.c.p()))
    }
    fn extent(&self) -> f32 {
        self.r
    }
}

/// A box: an AABB when `q` is the identity.
#[derive(Clone, Copy, Debug)]
struct GBox {
    c: Vec3,
    he: Vec3,
    q: Quat,
}

impl GBox {
    fn random(rng: &mut Rng, c: Vec3, rotated: bool) -> Self {
        let he = Vec3::new(rng.size(), rng.size(), rng.size());
        let q = if rotated { rng.quat() } else { Quat::IDENTITY };
        Self { c, he, q }
    }
    fn aabb(&self) -> Aabb {
        Aabb::new(self.c - self.he, self.c + self.he)
    }
    fn obb(&self) -> Obb {
        Obb::new(self.c, self.he, Mat3::from_quat(self.q))
    }
    fn parry(&self) -> (Cuboid, Pose) {
        (
            Cuboid::new(self.he.p()),
            Pose::from_parts(self.c.p(), self.q.p()),
        )
    }
    fn extent(&self) -> f32 {
        self.he.length()
    }
    /// Number of faces the world point lies within `tol` of (2 or more: an edge or corner).
    fn faces_near(&self, p: Vec3, tol: f32) -> usize {
        let l = self.q.inverse() * (p - self.c);
        (0..3)
            .filter(|&i| (l[i].abs() - self.he[i]).abs() <= tol)
            .count()
    }
}

#[derive(Clone, Copy, Debug)]
struct GTri {
    t: Triangle,
}

impl GTri {
    /// Half the time: vertices uniform in `[-10, 10]`; otherwise within a random size of `c`.
    fn random(rng: &mut Rng, c: Vec3) -> Self {
        loop {
            let (a, b, d) = if rng.chance(0.5) {
                (rng.sym(10.0), rng.sym(10.0), rng.sym(10.0))
            } else {
                let s = rng.range(0.1, 5.0);
                (c + rng.sym(s), c + rng.sym(s), c + rng.sym(s))
            };
            let n = (b - a).cross(d - a).length();
            let e = (b - a)
                .length_squared()
                .max((d - a).length_squared())
                .max((d - b).length_squared());
            // Keep away from slivers: both libraries treat them differently and the tests would measure
            // conditioning rather than correctness.
            if n > 0.02 * e {
                return Self {
                    t: Triangle::new(a, b, d),
                };
            }
        }
    }
    fn parry(&self) -> (PTriangle, Pose) {
        (
            PTriangle::new(self.t.a.p(), self.t.b.p(), self.t.c.p()),
            Pose::IDENTITY,
        )
    }
    fn centroid(&self) -> Vec3 {
        (self.t.a + self.t.b + self.t.c) / 3.0
    }
    fn extent(&self) -> f32 {
        let c = self.centroid();
        (self.t.a - c)
            .length()
            .max((self.t.b - c).length())
            .max((self.t.c - c).length())
    }
    /// A random point of the triangle grown by 30% about its centroid (so some rays miss near the edges).
    fn random_point(&self, rng: &mut Rng) -> Vec3 {
        let (mut u, mut v) = (rng.unit(), rng.unit());
        if u + v > 1.0 {
            (u, v) = (1.0 - u, 1.0 - v);
        }
        let p = self.t.a + u * (self.t.b - self.t.a) + v * (self.t.c - self.t.a);
        let c = self.centroid();
        c + 1.3 * (p - c)
    }
    fn unit_normal(&self) -> Vec3 {
        (self.t.b - self.t.a).cross(self.t.c - self.t.a).normalize()
    }
    fn verts(&self) -> [Vec3; 3] {
        [self.t.a, self.t.b, self.t.c]
    }
}

/// A cylinder: centre `c`, axis `q * Y`, half height `hh`, radius `r`.
#[derive(Clone, Copy, Debug)]
struct GCyl {
    c: Vec3,
    q: Quat,
    hh: f32,
    r: f32,
}

impl GCyl {
    fn random(rng: &mut Rng, c: Vec3) -> Self {
        Self {
            c,
            q: rng.quat(),
            hh: rng.size(),
            r: rng.size(),
        }
    }
    fn mine(&self) -> Cylinder {
        let axis = self.q * Vec3::Y * self.hh;
        Cylinder::new(self.c - axis, self.c + axis, self.r)
    }
    fn parry(&self) -> (PCylinder, Pose) {
        (
            PCylinder::new(self.hh, self.r),
            Pose::from_parts(self.c.p(), self.q.p()),
        )
    }
    fn extent(&self) -> f32 {
        self.hh.hypot(self.r)
    }
    /// Outward normal at a surface point, or `None` on the rim (within `tol` of both cap and side).
    fn normal_at(&self, p: Vec3, tol: f32) -> Option<Vec3> {
        let l = self.q.inverse() * (p - self.c);
        let radial = Vec3::new(l.x, 0.0, l.z);
        let d_cap = l.y.abs() - self.hh;
        let d_side = radial.length() - self.r;
        if (d_cap - d_side).abs() <= tol {
            return None;
        }
        let n = if d_cap > d_side {
            Vec3::Y * l.y.signum()
        } else {
            radial.normalize()
        };
        Some(self.q * n)
    }
}

// ---------------------------------------------------------------------------------------------------------
// Helpers

/// `max(1, every |coordinate| and size)`.
fn scale_of(points: &[Vec3], sizes: &[f32]) -> f32 {
    let mut s = 1.0f32;
    for p in points {
        s = s.max(p.abs().max_element());
    }
    for x in sizes {
        s = s.max(x.abs());
    }
    s
}

/// Signed distance from `p` to a parry shape (negative inside solids), from parry's exact projection.
fn signed_dist<S: PointQuery + ?Sized>(shape: &S, pose: &Pose, p: Vec3) -> f32 {
    let proj = shape.project_point(pose, p.p(), false);
    let d = (proj.point.ours() - p).length();
    if proj.is_inside { -d } else { d }
}

/// Minimum of a convex function on `[a, b]` by golden-section search: `(argmin, min)`.
fn golden_min(f: &dyn Fn(f64) -> f64, a0: f64, b0: f64) -> (f64, f64) {
    const G: f64 = 0.618_033_988_749_894_9;
    let (mut a, mut b) = (a0, b0);
    let mut c = b - G * (b - a);
    let mut d = a + G * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..90 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - G * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + G * (b - a);
            fd = f(d);
        }
    }
    let mut best = (0.5 * (a + b), f(0.5 * (a + b)));
    for t in [a0, b0] {
        let v = f(t);
        if v < best.1 {
            best = (t, v);
        }
    }
    best
}

/// First contact of a convex function `f` (a signed distance) on `[0, t_end]`: the first `t` with
/// `f(t) <= 0`, or `None`; also returns `f(0)` and the minimum of `f`.
struct FirstContact {
    t: Option<f64>,
    f0: f64,
    fmin: f64,
}

fn first_contact(f: &dyn Fn(f64) -> f64, t_end: f64) -> FirstContact {
    let f0 = f(0.0);
    let (tm, fm) = golden_min(f, 0.0, t_end);
    let fmin = fm.min(f0);
    if f0 <= 0.0 {
        return FirstContact {
            t: Some(0.0),
            f0,
            fmin,
        };
    }
    if fm > 0.0 {
        return FirstContact { t: None, f0, fmin };
    }
    let (mut lo, mut hi) = (0.0f64, tm);
    for _ in 0..80 {
        let m = 0.5 * (lo + hi);
        if f(m) > 0.0 {
            lo = m;
        } else {
            hi = m;
        }
    }
    FirstContact {
        t: Some(hi),
        f0,
        fmin,
    }
}

fn pray(r: &Ray) -> PRay {
    PRay::new(r.origin.p(), r.dir.p())
}

/// Bookkeeping for one query.
struct Stats {
    name: &'static str,
    cases: usize,
    positive: usize,
    negative: usize,
    boundary: usize,
    grazing: usize,
    inside: usize,
    ambiguous_normal: usize,
    convention: usize,
    refined: usize,
    unverified: usize,
    check_balance: bool,
    failures: usize,
    messages: Vec<String>,
    notes: Vec<String>,
}

impl Stats {
    fn new(name: &'static str) -> Self {
        Self {
            name,
            cases: 0,
            positive: 0,
            negative: 0,
            boundary: 0,
            grazing: 0,
            inside: 0,
            ambiguous_normal: 0,
            convention: 0,
            refined: 0,
            unverified: 0,
            check_balance: true,
            failures: 0,
            messages: Vec::new(),
            notes: Vec::new(),
        }
    }
    fn fail(&mut self, msg: String) {
        self.failures += 1;
        if self.messages.len() < 12 {
            self.messages.push(msg);
        }
    }
    fn finish(self) {
        let excused = self.boundary + self.grazing;
        eprintln!(
            "{}: {} cases, {} hit/overlap, {} miss/apart, excused {} boundary + {} grazing = {:.3}%, \
             {} starting inside, {} ambiguous normals, {} convention cases, \
             {} matched only the refined reference, {} unverified, {} failures",
            self.name,
            self.cases,
            self.positive,
            self.negative,
            self.boundary,
            self.grazing,
            100.0 * excused as f64 / self.cases as f64,
            self.inside,
            self.ambiguous_normal,
            self.convention,
            self.refined,
            self.unverified,
            self.failures
        );
        for n in &self.notes {
            eprintln!("  note: {n}");
        }
        for m in &self.messages {
            eprintln!("  FAIL: {m}");
        }
        assert!(
            self.cases >= CASES,
            "{}: only {} cases",
            self.name,
            self.cases
        );
        assert_eq!(
            self.failures, 0,
            "{}: {} disagreements with parry (first ones printed above)",
            self.name, self.failures
        );
        assert!(
            (excused as f64) < MAX_EXCUSED * self.cases as f64,
            "{}: too many excused cases ({excused})",
            self.name
        );
        // Both outcomes must be well represented, or the comparison says little.
        let min_share = self.cases / 20;
        assert!(
            !self.check_balance || self.positive >= min_share && self.negative >= min_share,
            "{}: unbalanced cases ({} positive, {} negative)",
            self.name,
            self.positive,
            self.negative
        );
    }
}

// ---------------------------------------------------------------------------------------------------------
// Rays

/// A ray aimed near `target` most of the time; `dir` is not normalised. `max_t` is unbounded in 70% of cases.
fn gen_ray(rng: &mut Rng, target: Vec3, extent: f32) -> (Ray, f32) {
    loop {
        let origin = rng.sym(10.0);
        let dir = if rng.chance(0.8) {
            (target + rng.sym(1.5 * extent) - origin) * rng.range(0.05, 3.0)
        } else {
            rng.sym(3.0)
        };
        if dir.length() < 1e-3 {
            continue;
        }
        let max_t = if rng.chance(0.7) {
            1e6
        } else {
            rng.range(0.0, 3.0)
        };
        return (Ray::new(origin, dir), max_t);
    }
}

/// The reference side of a ray comparison.
struct RayRef {
    /// `(t, outward-or-facing normal)`; the normal is `None` when ambiguous or undefined.
    hit: Option<(f32, Option<Vec3>)>,
    /// Normal tolerance: `NORMAL_TOL`, or more for small round features (see `normal_tol`).
    ntol: f32,
}

/// Normal tolerance for a round feature of radius `size`: a point error of `TOL * scale` turns the normal
/// by `TOL * scale / size`.
fn normal_tol(scale: f32, size: f32) -> f32 {
    NORMAL_TOL.max(2.0 * TOL * scale / size)
}

/// Outcome of comparing one hit against one reference.
enum Verdict {
    Agree,
    Grazing,
    Fail(String),
}

/// Compares a hit with a reference `(t, normal)`; both hit and the origin is not inside.
#[allow(clippy::too_many_arguments)]
fn judge_ray_hit(
    h: &RayHit,
    tp: f32,
    np: Option<Vec3>,
    r: &Ray,
    tol: f32,
    ntol: f32,
    solid: bool,
    boundary: &dyn Fn() -> bool,
) -> Verdict {
    let dl = r.dir.length();
    let dn = r.dir / dl;
    let cos = np.map_or(1.0, |n| n.dot(dn).abs());
    if (h.t - tp).abs() * dl > tol {
        if cos < GRAZE || boundary() {
            return Verdict::Grazing;
        }
        return Verdict::Fail(format!("t differs: parry t={tp} normal={np:?}"));
    }
    let Some(n) = np else {
        return Verdict::Agree;
    };
    // Face the reference normal against dir (parry's can be outward only).
    let n = if n.dot(r.dir) > 0.0 { -n } else { n };
    if (h.normal - n).length() <= ntol {
        return Verdict::Agree;
    }
    if h.t == 0.0 && solid && (h.normal + dn).length() <= NORMAL_TOL {
        // Origin on the surface: collidoscope may use its inside convention.
        return Verdict::Agree;
    }
    if cos < GRAZE {
        return Verdict::Grazing;
    }
    Verdict::Fail(format!("normal differs: parry t={tp} normal={n:?}"))
}

/// Compares one ray cast. `boundary` says whether the case is within tolerance of a hit/miss change;
/// `refined` gives a better-conditioned reference (parry's exact projection, bisected) to fall back on when
/// parry's own cast loses precision.
#[allow(clippy::too_many_arguments)]
fn compare_ray(
    st: &mut Stats,
    ctx: &dyn Fn() -> String,
    r: &Ray,
    max_t: f32,
    scale: f32,
    solid: bool,
    mine: Option<RayHit>,
    reference: RayRef,
    boundary: &dyn Fn() -> bool,
    refined: &dyn Fn() -> Option<(f32, Option<Vec3>)>,
) {
    st.cases += 1;
    let tol = TOL * scale;
    let dl = r.dir.length();
    let dn = r.dir / dl;
    match (mine, reference.hit) {
        (None, None) => st.negative += 1,
        (Some(h), None) => {
            if (h.t - max_t).abs() * dl <= tol || boundary() {
                st.boundary += 1;
            } else {
                st.fail(format!("{}: collidoscope hits {h:?}, parry misses", ctx()));
            }
        }
        (None, Some((tp, _))) => {
            if (tp - max_t).abs() * dl <= tol || boundary() {
                st.boundary += 1;
            } else {
                st.fail(format!(
                    "{}: collidoscope misses, parry hits at t={tp}",
                    ctx()
                ));
            }
        }
        (Some(h), Some((tp, np))) => {
            st.positive += 1;
            let finite = h.t.is_finite() && h.point.is_finite() && h.normal.is_finite();
            if !finite || h.t < 0.0 || h.t > max_t {
                st.fail(format!("{}: bad hit {h:?} (max_t {max_t})", ctx()));
                return;
            }
            if (h.point - r.at(h.t)).length() > tol {
                st.fail(format!(
                    "{}: point {:?} is not origin + t*dir",
                    ctx(),
                    h.point
                ));
            }
            if (h.normal.length() - 1.0).abs() > NORMAL_TOL {
                st.fail(format!("{}: normal {:?} is not unit", ctx(), h.normal));
            }
            if h.normal.dot(r.dir) > tol * dl {
                st.fail(format!(
                    "{}: normal {:?} does not face against dir",
                    ctx(),
                    h.normal
                ));
            }
            if solid && tp == 0.0 {
                // Origin inside (parry's solid convention): t must be 0 in both.
                st.inside += 1;
                if h.t * dl > tol {
                    st.fail(format!(
                        "{}: origin inside, parry t=0, collidoscope {h:?}",
                        ctx()
                    ));
                } else if h.t == 0.0 && !boundary() && (h.normal + dn).length() > NORMAL_TOL {
                    st.fail(format!(
                        "{}: origin inside: normal {:?} should be -dir.normalize() = {:?}",
                        ctx(),
                        h.normal,
                        -dn
                    ));
                }
                return;
            }
            if np.is_none() {
                st.ambiguous_normal += 1;
            }
            match judge_ray_hit(&h, tp, np, r, tol, reference.ntol, solid, boundary) {
                Verdict::Agree => {}
                Verdict::Grazing => st.grazing += 1,
                Verdict::Fail(why) => {
                    let second = refined().map(|(t2, n2)| {
                        judge_ray_hit(&h, t2, n2, r, tol, reference.ntol, solid, boundary)
                    });
                    match second {
                        Some(Verdict::Agree) => st.refined += 1,
                        Some(Verdict::Grazing) => st.grazing += 1,
                        _ => st.fail(format!("{}: collidoscope {h:?}: {why}", ctx())),
                    }
                }
            }
        }
    }
}

/// Is the ray within `tol` of touching the convex solid (parry's exact signed distance along the ray)?
fn ray_convex_boundary<S: PointQuery + ?Sized>(
    s: &S,
    pose: &Pose,
    r: &Ray,
    max_t: f32,
    tol: f32,
) -> bool {
    let fc = ray_convex_contact(s, pose, r, max_t);
    fc.fmin.abs() <= tol as f64 || fc.f0.abs() <= tol as f64
}

fn ray_convex_contact<S: PointQuery + ?Sized>(
    s: &S,
    pose: &Pose,
    r: &Ray,
    max_t: f32,
) -> FirstContact {
    let dl = r.dir.length() as f64;
    let t_end = (max_t as f64).min(100.0 / dl);
    let f = |t: f64| signed_dist(s, pose, r.origin + r.dir * t as f32) as f64;
    first_contact(&f, t_end)
}

#[test]
fn ray_sphere_matches_parry() {
    let mut rng = Rng::new(0x5151);
    let mut st = Stats::new("ray_sphere");
    for _ in 0..CASES {
        let center = rng.center();
        let s = rng.sphere(center);
        let (r, max_t) = gen_ray(&mut rng, s.c, s.extent());
        let scale = scale_of(&[s.c, r.origin, r.dir], &[s.r]);
        let (ball, pose) = s.parry();
        let p = ball.cast_ray_and_get_normal(&pose, &pray(&r), max_t, true);
        let mine = ray::ray_sphere(&r, &s.mine(), max_t);
        let reference = RayRef {
            hit: p.map(|h| (h.time_of_impact, Some(h.normal.ours()))),
            ntol: normal_tol(scale, s.r),
        };
        let ctx = || format!("ray_sphere({r:?}, {:?}, {max_t})", s.mine());
        let tol = TOL * scale;
        compare_ray(
            &mut st,
            &ctx,
            &r,
            max_t,
            scale,
            true,
            mine,
            reference,
            &|| ray_convex_boundary(&ball, &pose, &r, max_t, tol),
            &|| {
                ray_convex_contact(&ball, &pose, &r, max_t).t.map(|t| {
                    let t = t as f32;
                    (t, Some((r.at(t) - s.c).normalize()))
                })
            },
        );
    }
    st.finish();
}

fn ray_box(name: &'static str, seed: u64, rotated: bool) {
    let mut rng = Rng::new(seed);
    let mut st = Stats::new(name);
    for _ in 0..CASES {
        let center = rng.center();
        let b = rng.cuboid(center, rotated);
        let (r, max_t) = gen_ray(&mut rng, b.c, b.extent());
        let scale = scale_of(&[b.c, r.origin, r.dir], &[b.he.max_element()]);
        let tol = TOL * scale;
        let (cub, pose) = b.parry();
        let p = cub.cast_ray_and_get_normal(&pose, &pray(&r), max_t, true);
        let mine = if rotated {
            ray::ray_obb(&r, &b.obb(), max_t)
        } else {
            ray::ray_aabb(&r, &b.aabb(), max_t)
        };
        let reference = RayRef {
            hit: p.map(|h| {
                let point = r.at(h.time_of_impact);
                let n = (b.faces_near(point, tol) < 2).then_some(h.normal.ours());
                (h.time_of_impact, n)
            }),
            ntol: NORMAL_TOL,
        };
        let ctx = || {
            if rotated {
                format!("ray_obb({r:?}, {:?}, {max_t})", b.obb())
            } else {
                format!("ray_aabb({r:?}, {:?}, {max_t})", b.aabb())
            }
        };
        compare_ray(
            &mut st,
            &ctx,
            &r,
            max_t,
            scale,
            true,
            mine,
            reference,
            &|| ray_convex_boundary(&cub, &pose, &r, max_t, tol),
            &|| None,
        );
    }
    st.finish();
}

#[test]
fn ray_aabb_matches_parry() {
    ray_box("ray_aabb", 0xAABB, false);
}

#[test]
fn ray_obb_matches_parry() {
    ray_box("ray_obb", 0x0BB0, true);
}

/// Is a ray/triangle case within `tol` of a hit/miss change: edge-on, origin on the plane, or crossing the
/// plane within `tol` of the triangle's boundary, or of `max_t`?
fn ray_triangle_boundary(tri: &GTri, r: &Ray, max_t: f32, tol: f32) -> bool {
    let n = tri.unit_normal();
    let dl = r.dir.length();
    let dn = r.dir / dl;
    let denom = n.dot(dn);
    if denom.abs() < 1e-3 {
        return true;
    }
    let dist = n.dot(tri.t.a - r.origin);
    if dist.abs() <= tol {
        return true;
    }
    let s = dist / denom; // distance along the unit direction
    if s < 0.0 {
        return false;
    }
    if (s - max_t * dl).abs() <= tol {
        return true;
    }
    let q = r.origin + dn * s;
    let v = tri.verts();
    (0..3).any(|i| {
        let seg = PSegment::new(v[i].p(), v[(i + 1) % 3].p());
        seg.distance_to_point(&Pose::IDENTITY, q.p(), true) <= tol
    })
}

#[test]
fn ray_triangle_matches_parry() {
    let mut rng = Rng::new(0x7215);
    let mut st = Stats::new("ray_triangle");
    for _ in 0..CASES {
        let center = rng.center();
        let tri = rng.triangle(center);
        let aim = tri.random_point(&mut rng);
        let (r, max_t) = gen_ray(&mut rng, aim, 0.0);
        let scale = scale_of(&[tri.t.a, tri.t.b, tri.t.c, r.origin, r.dir], &[]);
        let tol = TOL * scale;
        let (pt, pose) = tri.parry();
        let p = pt.cast_ray_and_get_normal(&pose, &pray(&r), max_t, true);
        let mine = ray::ray_triangle(&r, &tri.t, max_t);
        let reference = RayRef {
            hit: p.map(|h| (h.time_of_impact, Some(h.normal.ours()))),
            ntol: NORMAL_TOL,
        };
        let ctx = || format!("ray_triangle({r:?}, {:?}, {max_t})", tri.t);
        compare_ray(
            &mut st,
            &ctx,
            &r,
            max_t,
            scale,
            false,
            mine,
            reference,
            &|| ray_triangle_boundary(&tri, &r, max_t, tol),
            &|| None,
        );
    }
    st.finish();
}

#[test]
fn moller_trumbore_matches_parry() {
    let mut rng = Rng::new(0x3017);
    let mut st = Stats::new("moller_trumbore(Cull::None)");
    for _ in 0..CASES {
        let center = rng.center();
        let tri = rng.triangle(center);
        let aim = tri.random_point(&mut rng);
        let (r, _) = gen_ray(&mut rng, aim, 0.0);
        let scale = scale_of(&[tri.t.a, tri.t.b, tri.t.c, r.origin, r.dir], &[]);
        let tol = TOL * scale;
        let p = pq::details::local_ray_intersection_with_triangle(
            tri.t.a.p(),
            tri.t.b.p(),
            tri.t.c.p(),
            &pray(&r),
        );
        let mine = triangle::moller_trumbore(&r, &tri.t, Cull::None);
        let ctx = || format!("moller_trumbore({r:?}, {:?}, Cull::None)", tri.t);
        st.cases += 1;
        let dl = r.dir.length();
        match (mine, p) {
            (None, None) => st.negative += 1,
            (Some(_), None) | (None, Some(_)) => {
                if ray_triangle_boundary(&tri, &r, f32::INFINITY, tol) {
                    st.boundary += 1;
                } else {
                    st.fail(format!(
                        "{}: collidoscope {mine:?}, parry {:?}",
                        ctx(),
                        p.map(|x| x.0)
                    ));
                }
            }
            (Some(h), Some((pi, bary))) => {
                st.positive += 1;
                let cos = pi.normal.ours().dot(r.dir / dl).abs();
                let point: Vec3 = (1.0 - h.u - h.v) * tri.t.a + h.u * tri.t.b + h.v * tri.t.c;
                let p_point = r.at(pi.time_of_impact);
                if !(h.t >= 0.0 && h.t.is_finite() && h.u.is_finite() && h.v.is_finite()) {
                    st.fail(format!("{}: bad hit {h:?}", ctx()));
                } else if (h.t - pi.time_of_impact).abs() * dl > tol
                    || (point - p_point).length() > tol
                {
                    if cos < GRAZE {
                        st.grazing += 1;
                    } else {
                        st.fail(format!(
                            "{}: collidoscope {h:?} (point {point:?}), parry t={} bary={bary:?}",
                            ctx(),
                            pi.time_of_impact
                        ));
                    }
                } else if ((h.u - bary.y) * (tri.t.b - tri.t.a)
                    + (h.v - bary.z) * (tri.t.c - tri.t.a))
                    .length()
                    > tol
                {
                    // u, v are compared through the points they weight (their own f32 conditioning is
                    // ~ scale / triangle size); near edge-on rays they are ill-conditioned.
                    if cos < GRAZE {
                        st.grazing += 1;
                    } else {
                        st.fail(format!("{}: barycentrics {h:?} vs parry {bary:?}", ctx()));
                    }
                }
            }
        }
    }
    st.finish();
}

#[test]
fn ray_cylinder_matches_parry() {
    let mut rng = Rng::new(0xC1C1);
    let mut st = Stats::new("ray_cylinder");
    let mut gjk_worst = 0.0f32;
    let mut gjk_bool = 0usize;
    for _ in 0..CASES {
        let center = rng.center();
        let cy = rng.cylinder(center);
        let (r, max_t) = gen_ray(&mut rng, cy.c, cy.extent());
        let scale = scale_of(&[cy.c, r.origin, r.dir], &[cy.hh, cy.r]);
        let tol = TOL * scale;
        let (pc, pose) = cy.parry();
        let fc = ray_convex_contact(&pc, &pose, &r, max_t);
        let boundary = fc.fmin.abs() <= tol as f64 || fc.f0.abs() <= tol as f64;
        // Raw GJK answer: hit/miss must agree with the exact reference (a check of the reference itself).
        let gjk = pc.cast_ray_and_get_normal(&pose, &pray(&r), max_t, true);
        match (gjk, fc.t) {
            (Some(g), Some(t)) => {
                gjk_worst = gjk_worst.max((g.time_of_impact - t as f32).abs() * r.dir.length())
            }
            (None, None) => {}
            _ if boundary => {}
            _ => {
                gjk_bool += 1;
                st.notes.push(format!(
                    "GJK {gjk:?} vs exact {:?} for {r:?}, {:?}, {max_t}",
                    fc.t,
                    cy.mine()
                ));
            }
        }
        let reference = RayRef {
            hit: fc.t.map(|t| {
                let t = t as f32;
                (t, cy.normal_at(r.at(t), tol))
            }),
            ntol: normal_tol(scale, cy.r),
        };
        let mine = ray::ray_cylinder(&r, &cy.mine(), max_t);
        let ctx = || format!("ray_cylinder({r:?}, {:?}, {max_t})", cy.mine());
        compare_ray(
            &mut st,
            &ctx,
            &r,
            max_t,
            scale,
            true,
            mine,
            reference,
            &|| boundary,
            &|| None,
        );
    }
    st.notes.push(format!(
        "parry's GJK ray cast vs exact reference: worst |dt|*|dir| = {gjk_worst}, {gjk_bool} hit/miss disagreements"
    ));
    // A check of the reference itself: GJK may fail on rare cases, the exact reference may not often.
    assert!(
        gjk_bool * 1000 < CASES,
        "parry GJK and the exact reference disagree on hit/miss ({gjk_bool})"
    );
    st.finish();
}

// ---------------------------------------------------------------------------------------------------------
// Overlaps

/// A centre for the second shape: uniform in half the cases, near `c` (within `reach`) otherwise.
fn partner_center(rng: &mut Rng, c: Vec3, reach: f32) -> Vec3 {
    if rng.chance(0.5) {
        rng.sym(10.0)
    } else {
        c + rng.sym(reach)
    }
}

fn parry_intersects(p1: &Pose, s1: &dyn Shape, p2: &Pose, s2: &dyn Shape) -> bool {
    pq::intersection_test(p1, s1, p2, s2).unwrap().intersecting
}

/// Within `tol` of touching: parry's distance when apart, its penetration depth when overlapping.
fn near_touching(p1: &Pose, s1: &dyn Shape, p2: &Pose, s2: &dyn Shape, tol: f32) -> bool {
    if parry_intersects(p1, s1, p2, s2) {
        match pq::contact(p1, s1, p2, s2, 0.0).unwrap() {
            Some(c) => c.dist >= -tol,
            None => true,
        }
    } else {
        pq::distance(p1, s1, p2, s2).unwrap().distance <= tol
    }
}

fn compare_bool(
    st: &mut Stats,
    ctx: &dyn Fn() -> String,
    mine: bool,
    theirs: bool,
    boundary: &dyn Fn() -> bool,
) {
    st.cases += 1;
    if mine == theirs {
        if mine {
            st.positive += 1;
        } else {
            st.negative += 1;
        }
    } else if boundary() {
        st.boundary += 1;
    } else {
        st.fail(format!("{}: collidoscope {mine}, parry {theirs}", ctx()));
    }
}

/// Sphere against a parry shape: exact, through the signed distance from the centre.
fn sphere_vs(
    st: &mut Stats,
    s: &GSphere,
    other: &dyn Shape,
    pose: &Pose,
    scale: f32,
    mine: bool,
    ctx: &dyn Fn() -> String,
) {
    let (ball, bp) = s.parry();
    let theirs = parry_intersects(&bp, &ball, pose, other);
    let tol = TOL * scale;
    compare_bool(st, ctx, mine, theirs, &|| {
        (signed_dist(other, pose, s.c) - s.r).abs() <= tol
    });
}

#[test]
fn overlap_sphere_sphere_matches_parry() {
    let mut rng = Rng::new(0x0551);
    let mut st = Stats::new("overlap::sphere_sphere");
    for _ in 0..CASES {
        let center = rng.center();
        let a = rng.sphere(center);
        let mut b = rng.sphere(Vec3::ZERO);
        b.c = partner_center(&mut rng, a.c, a.r + b.r);
        let scale = scale_of(&[a.c, b.c], &[a.r, b.r]);
        let (pb, pose) = b.parry();
        let mine = overlap::sphere_sphere(&a.mine(), &b.mine());
        let ctx = || format!("sphere_sphere({:?}, {:?})", a.mine(), b.mine());
        sphere_vs(&mut st, &a, &pb, &pose, scale, mine, &ctx);
    }
    st.finish();
}

#[test]
fn overlap_sphere_aabb_matches_parry() {
    let mut rng = Rng::new(0x05AB);
    let mut st = Stats::new("overlap::sphere_aabb");
    for _ in 0..CASES {
        let center = rng.center();
        let b = rng.cuboid(center, false);
        let mut s = rng.sphere(Vec3::ZERO);
        s.c = partner_center(&mut rng, b.c, b.extent() + s.r);
        let scale = scale_of(&[s.c, b.c], &[s.r, b.he.max_element()]);
        let (pb, pose) = b.parry();
        let mine = overlap::sphere_aabb(&s.mine(), &b.aabb());
        let ctx = || format!("sphere_aabb({:?}, {:?})", s.mine(), b.aabb());
        sphere_vs(&mut st, &s, &pb, &pose, scale, mine, &ctx);
    }
    st.finish();
}

#[test]
fn overlap_sphere_obb_matches_parry() {
    let mut rng = Rng::new(0x050B);
    let mut st = Stats::new("overlap::sphere_obb");
    for _ in 0..CASES {
        let center = rng.center();
        let b = rng.cuboid(center, true);
        let mut s = rng.sphere(Vec3::ZERO);
        s.c = partner_center(&mut rng, b.c, b.extent() + s.r);
        let scale = scale_of(&[s.c, b.c], &[s.r, b.he.max_element()]);
        let (pb, pose) = b.parry();
        let mine = overlap::sphere_obb(&s.mine(), &b.obb());
        let ctx = || format!("sphere_obb({:?}, {:?})", s.mine(), b.obb());
        sphere_vs(&mut st, &s, &pb, &pose, scale, mine, &ctx);
    }
    st.finish();
}

#[test]
fn overlap_sphere_triangle_matches_parry() {
    let mut rng = Rng::new(0x0573);
    let mut st = Stats::new("overlap::sphere_triangle");
    for _ in 0..CASES {
        let center = rng.center();
        let t = rng.triangle(center);
        let mut s = rng.sphere(Vec3::ZERO);
        s.c = partner_center(&mut rng, t.centroid(), t.extent() + s.r);
        let scale = scale_of(&[s.c, t.t.a, t.t.b, t.t.c], &[s.r]);
        let (pt, pose) = t.parry();
        let mine = overlap::sphere_triangle(&s.mine(), &t.t);
        let ctx = || format!("sphere_triangle({:?}, {:?})", s.mine(), t.t);
        sphere_vs(&mut st, &s, &pt, &pose, scale, mine, &ctx);
    }
    st.finish();
}

/// Two parry-backed shapes of any kind; `gen` returns (mine, shape1, pose1, shape2, pose2, scale, context).
type PairCase = (
    bool,
    Box<dyn Shape>,
    Pose,
    Box<dyn Shape>,
    Pose,
    f32,
    String,
);

fn overlap_pairs(name: &'static str, seed: u64, mut make: impl FnMut(&mut Rng) -> PairCase) {
    let mut rng = Rng::new(seed);
    let mut st = Stats::new(name);
    for _ in 0..CASES {
        let (mine, s1, p1, s2, p2, scale, ctx) = make(&mut rng);
        let theirs = parry_intersects(&p1, &*s1, &p2, &*s2);
        let tol = TOL * scale;
        compare_bool(&mut st, &|| ctx.clone(), mine, theirs, &|| {
            near_touching(&p1, &*s1, &p2, &*s2, tol)
        });
    }
    st.finish();
}

fn box_pair(rng: &mut Rng, rot1: bool, rot2: bool) -> (GBox, GBox, f32) {
    let center = rng.center();
    let a = rng.cuboid(center, rot1);
    let mut b = rng.cuboid(Vec3::ZERO, rot2);
    b.c = partner_center(rng, a.c, a.extent() + b.extent());
    let scale = scale_of(&[a.c, b.c], &[a.he.max_element(), b.he.max_element()]);
    (a, b, scale)
}

#[test]
fn overlap_aabb_aabb_matches_parry() {
    overlap_pairs("overlap::aabb_aabb", 0xA0A0, |rng| {
        let (a, b, scale) = box_pair(rng, false, false);
        let mine = overlap::aabb_aabb(&a.aabb(), &b.aabb());
        let ((s1, p1), (s2, p2)) = (a.parry(), b.parry());
        let ctx = format!("aabb_aabb({:?}, {:?})", a.aabb(), b.aabb());
        (mine, Box::new(s1), p1, Box::new(s2), p2, scale, ctx)
    });
}

#[test]
fn overlap_aabb_obb_matches_parry() {
    overlap_pairs("overlap::aabb_obb", 0xA0B0, |rng| {
        let (a, b, scale) = box_pair(rng, false, true);
        let mine = overlap::aabb_obb(&a.aabb(), &b.obb());
        let ((s1, p1), (s2, p2)) = (a.parry(), b.parry());
        let ctx = format!("aabb_obb({:?}, {:?})", a.aabb(), b.obb());
        (mine, Box::new(s1), p1, Box::new(s2), p2, scale, ctx)
    });
}

#[test]
fn overlap_obb_obb_matches_parry() {
    overlap_pairs("overlap::obb_obb", 0xB0B0, |rng| {
        let (a, b, scale) = box_pair(rng, true, true);
        let mine = overlap::obb_obb(&a.obb(), &b.obb());
        let ((s1, p1), (s2, p2)) = (a.parry(), b.parry());
        let ctx = format!("obb_obb({:?}, {:?})", a.obb(), b.obb());
        (mine, Box::new(s1), p1, Box::new(s2), p2, scale, ctx)
    });
}

fn box_tri(rng: &mut Rng, rotated: bool) -> (GBox, GTri, f32) {
    let center = rng.center();
    let b = rng.cuboid(center, rotated);
    let c = partner_center(rng, b.c, b.extent() + 3.0);
    let t = rng.triangle(c);
    let scale = scale_of(&[b.c, t.t.a, t.t.b, t.t.c], &[b.he.max_element()]);
    (b, t, scale)
}

#[test]
fn overlap_aabb_triangle_matches_parry() {
    overlap_pairs("overlap::aabb_triangle", 0xA073, |rng| {
        let (b, t, scale) = box_tri(rng, false);
        let mine = overlap::aabb_triangle(&b.aabb(), &t.t);
        let ((s1, p1), (s2, p2)) = (b.parry(), t.parry());
        let ctx = format!("aabb_triangle({:?}, {:?})", b.aabb(), t.t);
        (mine, Box::new(s1), p1, Box::new(s2), p2, scale, ctx)
    });
}

#[test]
fn overlap_obb_triangle_matches_parry() {
    overlap_pairs("overlap::obb_triangle", 0xB073, |rng| {
        let (b, t, scale) = box_tri(rng, true);
        let mine = overlap::obb_triangle(&b.obb(), &t.t);
        let ((s1, p1), (s2, p2)) = (b.parry(), t.parry());
        let ctx = format!("obb_triangle({:?}, {:?})", b.obb(), t.t);
        (mine, Box::new(s1), p1, Box::new(s2), p2, scale, ctx)
    });
}

#[test]
fn overlap_triangle_triangle_matches_parry() {
    overlap_pairs("overlap::triangle_triangle", 0x7373, |rng| {
        let center = rng.center();
        let a = rng.triangle(center);
        let c = partner_center(rng, a.centroid(), a.extent() + 3.0);
        let b = rng.triangle(c);
        let scale = scale_of(&[a.t.a, a.t.b, a.t.c, b.t.a, b.t.b, b.t.c], &[]);
        let mine = overlap::triangle_triangle(&a.t, &b.t);
        let ((s1, p1), (s2, p2)) = (a.parry(), b.parry());
        let ctx = format!("triangle_triangle({:?}, {:?})", a.t, b.t);
        (mine, Box::new(s1), p1, Box::new(s2), p2, scale, ctx)
    });
}

// ---------------------------------------------------------------------------------------------------------
// Sweeps

/// A sphere and a motion, aimed near `target` in most cases; the motion is 0.2..2.5 times the way there.
fn gen_moving_sphere(rng: &mut Rng, target: Vec3, extent: f32) -> (GSphere, Vec3) {
    let center = rng.center();
    let s = rng.sphere(center);
    let m = if rng.chance(0.85) {
        (target + rng.sym(extent + s.r) - s.c) * rng.range(0.2, 2.5)
    } else {
        rng.sym(10.0)
    };
    (s, m)
}

/// Compares a sweep against a static parry obstacle, with the exact reference from parry's projection.
#[allow(clippy::too_many_arguments)]
fn compare_sweep(
    st: &mut Stats,
    ctx: &dyn Fn() -> String,
    s: &GSphere,
    m: Vec3,
    obst: &dyn Shape,
    pose: &Pose,
    scale: f32,
    mine: Option<Toi>,
    gjk_worst: &mut f32,
    gjk_bool: &mut usize,
) {
    st.cases += 1;
    let tol = TOL * scale;
    let ml = m.length();
    let f = |t: f64| (signed_dist(obst, pose, s.c + m * t as f32) - s.r) as f64;
    let fc = first_contact(&f, 1.0);
    let boundary = fc.fmin.abs() <= tol as f64 || fc.f0.abs() <= tol as f64;

    // parry's own shape cast (GJK), for hit/miss and as a check of the reference.
    let (ball, bp) = s.parry();
    let opts = ShapeCastOptions::with_max_time_of_impact(1.0);
    let raw = pq::cast_shapes(&bp, m.p(), &ball, pose, glam_parry::Vec3::ZERO, obst, opts).unwrap();
    match (raw, fc.t) {
        (Some(h), Some(t)) => *gjk_worst = gjk_worst.max((h.time_of_impact - t as f32).abs() * ml),
        (None, None) => {}
        _ if boundary => {}
        _ => {
            *gjk_bool += 1;
            st.notes.push(format!(
                "GJK cast {:?} vs exact {:?} for {}",
                raw.map(|h| h.time_of_impact),
                fc.t,
                ctx()
            ));
        }
    }

    if let Some(h) = mine {
        let ok = h.t.is_finite()
            && (0.0..=1.0).contains(&h.t)
            && h.point.is_finite()
            && h.normal.is_finite();
        if !ok || (h.normal.length() - 1.0).abs() > NORMAL_TOL {
            st.fail(format!("{}: malformed {h:?}", ctx()));
            return;
        }
    }
    if fc.f0 <= 0.0 {
        // Already touching or overlapping at t = 0.
        st.inside += 1;
        let proj = obst.project_point(pose, s.c.p(), true);
        match mine {
            Some(h) if h.t * ml <= tol => {
                // t = 0 is right unless the motion clearly separates them (centre outside the obstacle).
                let away = s.c - proj.point.ours();
                let cos_away = away.normalize_or_zero().dot(m / ml);
                if !proj.is_inside && away.length() > tol && cos_away > 0.01 {
                    st.fail(format!(
                        "{}: touching at t=0 but the motion separates them (cos {cos_away}), collidoscope \
                         {h:?} instead of None",
                        ctx()
                    ));
                }
            }
            Some(h) => {
                if fc.f0.abs() <= tol as f64 {
                    st.boundary += 1;
                } else {
                    st.fail(format!("{}: overlapping at t=0, collidoscope {h:?}", ctx()));
                }
            }
            None => {
                let away = s.c - proj.point.ours();
                if proj.is_inside || away.length() <= tol {
                    // Centre inside the obstacle: collidoscope may only answer None when the motion leaves
                    // through the nearest surface (the direction of least penetration); a motion clearly
                    // deeper than that cannot separate them.
                    let out = obst.project_point(pose, s.c.p(), false).point.ours() - s.c;
                    let cos_out = out.normalize_or_zero().dot(m / ml);
                    if cos_out > 0.0 {
                        st.convention += 1;
                    } else if cos_out > -0.01 {
                        st.unverified += 1;
                    } else {
                        st.fail(format!(
                            "{}: centre inside the obstacle, motion not leaving it (cos {cos_out} with the \
                             way out {out:?}), collidoscope None instead of t = 0",
                            ctx()
                        ));
                    }
                } else if away.dot(m) <= 0.0 && fc.f0.abs() > tol as f64 {
                    st.fail(format!(
                        "{}: overlapping at t=0 and not separating, collidoscope None",
                        ctx()
                    ));
                } else if away.dot(m) <= 0.0 {
                    st.boundary += 1;
                } else {
                    st.convention += 1;
                }
            }
        }
        return;
    }
    match (mine, fc.t) {
        (None, None) => st.negative += 1,
        (Some(_), None) | (None, Some(_)) => {
            if boundary {
                st.boundary += 1;
            } else {
                st.fail(format!(
                    "{}: collidoscope {mine:?}, reference t={:?}",
                    ctx(),
                    fc.t
                ));
            }
        }
        (Some(h), Some(t)) => {
            st.positive += 1;
            let t = t as f32;
            let c_t = s.c + m * t;
            let proj = obst.project_point(pose, c_t.p(), true).point.ours();
            let n_ref = (c_t - proj).normalize_or_zero();
            let cos = n_ref.dot(m / ml).abs();
            if (h.t - t).abs() * ml > tol {
                if cos < GRAZE || boundary {
                    st.grazing += 1;
                } else {
                    st.fail(format!(
                        "{}: collidoscope {h:?}, reference t={t} point={proj:?} normal={n_ref:?}",
                        ctx()
                    ));
                }
                return;
            }
            if cos < GRAZE {
                st.grazing += 1;
                return;
            }
            if (h.point - proj).length() > tol {
                st.fail(format!(
                    "{}: point {:?} vs reference {proj:?}",
                    ctx(),
                    h.point
                ));
            } else if (h.normal - n_ref).length() > normal_tol(scale, s.r) {
                st.fail(format!(
                    "{}: normal {:?} vs reference {n_ref:?}",
                    ctx(),
                    h.normal
                ));
            }
        }
    }
}

/// collidoscope's sweep of a sphere along a motion against a fixed obstacle.
type SweepFn = Box<dyn Fn(&Sphere, Vec3) -> Option<Toi>>;

/// A static obstacle for the sweep tests: parry's twin, where to aim, and collidoscope's sweep against it.
struct Obstacle {
    shape: Box<dyn Shape>,
    pose: Pose,
    target: Vec3,
    extent: f32,
    points: Vec<Vec3>,
    cast: SweepFn,
    desc: String,
}

fn sweep_against(name: &'static str, seed: u64, mut make: impl FnMut(&mut Rng) -> Obstacle) {
    let mut rng = Rng::new(seed);
    let mut st = Stats::new(name);
    let mut gjk_worst = 0.0f32;
    let mut gjk_bool = 0usize;
    for _ in 0..CASES {
        let o = make(&mut rng);
        let (s, m) = gen_moving_sphere(&mut rng, o.target, o.extent);
        let mut all = o.points.clone();
        all.extend([s.c, s.c + m]);
        let scale = scale_of(&all, &[s.r, o.extent]);
        let h = (o.cast)(&s.mine(), m);
        let ctx = || format!("{name}({:?}, {m:?}, {})", s.mine(), o.desc);
        compare_sweep(
            &mut st,
            &ctx,
            &s,
            m,
            &*o.shape,
            &o.pose,
            scale,
            h,
            &mut gjk_worst,
            &mut gjk_bool,
        );
    }
    st.notes.push(format!(
        "parry's GJK cast_shapes vs exact reference: worst |dt|*|motion| = {gjk_worst}, \
         {gjk_bool} hit/miss disagreements"
    ));
    // A check of the reference itself: GJK may fail on rare cases, the exact reference may not often.
    assert!(
        gjk_bool * 1000 < CASES,
        "{name}: parry's cast_shapes and the exact reference disagree on hit/miss ({gjk_bool})"
    );
    st.finish();
}

#[test]
fn sweep_sphere_aabb_matches_parry() {
    sweep_against("sweep::sphere_aabb", 0x5AAB, |rng| {
        let center = rng.center();
        let b = rng.cuboid(center, false);
        let (c, pose) = b.parry();
        let aabb = b.aabb();
        Obstacle {
            shape: Box::new(c),
            pose,
            target: b.c,
            extent: b.extent(),
            points: vec![b.c],
            cast: Box::new(move |s, m| sweep::sphere_aabb(s, m, &aabb)),
            desc: format!("{aabb:?}"),
        }
    });
}

#[test]
fn sweep_sphere_triangle_matches_parry() {
    sweep_against("sweep::sphere_triangle", 0x5A73, |rng| {
        let center = rng.center();
        let t = rng.triangle(center);
        let (c, pose) = t.parry();
        let tri = t.t;
        Obstacle {
            shape: Box::new(c),
            pose,
            target: t.centroid(),
            extent: t.extent(),
            points: t.verts().to_vec(),
            cast: Box::new(move |s, m| sweep::sphere_triangle(s, m, &tri)),
            desc: format!("{tri:?}"),
        }
    });
}

#[test]
fn sweep_sphere_cylinder_matches_parry() {
    sweep_against("sweep::sphere_cylinder", 0x5AC1, |rng| {
        let center = rng.center();
        let cy = rng.cylinder(center);
        let (c, pose) = cy.parry();
        let mc = cy.mine();
        Obstacle {
            shape: Box::new(c),
            pose,
            target: cy.c,
            extent: cy.extent(),
            points: vec![mc.a, mc.b],
            cast: Box::new(move |s, m| sweep::sphere_cylinder(s, m, &mc)),
            desc: format!("{mc:?}"),
        }
    });
}

#[test]
fn sweep_sphere_sphere_matches_parry() {
    let mut rng = Rng::new(0x5555);
    let mut st = Stats::new("sweep::sphere_sphere");
    for _ in 0..CASES {
        let center = rng.center();
        let b = rng.sphere(center);
        let (a, ma) = gen_moving_sphere(&mut rng, b.c, b.r);
        let mb = if rng.chance(0.7) {
            rng.sym(5.0)
        } else {
            Vec3::ZERO
        };
        let ma = ma + mb; // keep the relative motion aimed at b
        let scale = scale_of(&[a.c, b.c, a.c + ma, b.c + mb], &[a.r, b.r]);
        let tol = TOL * scale;
        let rel = ma - mb;
        let rl = rel.length();
        let mine = sweep::sphere_sphere(&a.mine(), ma, &b.mine(), mb);
        let ctx = || {
            format!(
                "sweep::sphere_sphere({:?}, {ma:?}, {:?}, {mb:?})",
                a.mine(),
                b.mine()
            )
        };
        let (pa, posa) = a.parry();
        let (pb, posb) = b.parry();
        let opts = ShapeCastOptions::with_max_time_of_impact(1.0);
        let theirs = pq::cast_shapes(&posa, ma.p(), &pa, &posb, mb.p(), &pb, opts).unwrap();
        // Exact boundary measure: gap along the relative motion.
        let gap = |t: f64| ((a.c - b.c) + rel * t as f32).length() as f64 - (a.r + b.r) as f64;
        let fc = first_contact(&gap, 1.0);
        let boundary = fc.fmin.abs() <= tol as f64 || fc.f0.abs() <= tol as f64;
        st.cases += 1;
        if let Some(h) = mine {
            let ok = h.t.is_finite()
                && (0.0..=1.0).contains(&h.t)
                && h.point.is_finite()
                && h.normal.is_finite();
            if !ok || (h.normal.length() - 1.0).abs() > NORMAL_TOL {
                st.fail(format!("{}: malformed {h:?}", ctx()));
                continue;
            }
        }
        match (mine, theirs) {
            (None, None) => st.negative += 1,
            (Some(h), Some(p)) if p.status == ShapeCastStatus::PenetratingOrWithinTargetDist => {
                st.inside += 1;
                let d = a.c - b.c;
                let cos_away = d.normalize_or_zero().dot(rel / rl);
                if h.t * rl > tol && !boundary {
                    st.fail(format!("{}: overlapping at t=0, collidoscope {h:?}", ctx()));
                } else if d.length() > tol && cos_away > 0.01 {
                    st.fail(format!(
                        "{}: overlapping at t=0 but separating (cos {cos_away}), collidoscope {h:?} \
                         instead of None",
                        ctx()
                    ));
                }
            }
            (None, Some(p)) if p.status == ShapeCastStatus::PenetratingOrWithinTargetDist => {
                st.inside += 1;
                // collidoscope: None only if the motion separates them.
                if (a.c - b.c).dot(rel) <= 0.0 {
                    if boundary || (a.c - b.c).length() <= tol {
                        st.boundary += 1;
                    } else {
                        st.fail(format!(
                            "{}: overlapping and not separating, collidoscope None",
                            ctx()
                        ));
                    }
                } else {
                    st.convention += 1;
                }
            }
            (Some(_), None) | (None, Some(_)) => {
                if boundary {
                    st.boundary += 1;
                } else {
                    st.fail(format!(
                        "{}: collidoscope {mine:?}, parry {:?}",
                        ctx(),
                        theirs.map(|p| p.time_of_impact)
                    ));
                }
            }
            (Some(h), Some(p)) => {
                st.positive += 1;
                let ntol = normal_tol(scale, a.r + b.r);
                // Judge against (t, normal of b toward a); the contact point is on b.
                let judge = |t: f32, n: Vec3| -> Verdict {
                    let cos = n.dot(rel / rl).abs();
                    if (h.t - t).abs() * rl > tol {
                        if cos < GRAZE || boundary {
                            return Verdict::Grazing;
                        }
                        return Verdict::Fail(format!("t differs: reference t={t} normal={n:?}"));
                    }
                    if cos < GRAZE {
                        return Verdict::Grazing;
                    }
                    let point = b.c + mb * t + n * b.r;
                    if (h.normal - n).length() > ntol {
                        Verdict::Fail(format!("normal differs: reference {n:?}"))
                    } else if (h.point - point).length() > tol {
                        Verdict::Fail(format!("point differs: reference {point:?}"))
                    } else {
                        Verdict::Agree
                    }
                };
                // parry's normal2: outward normal of b (local frame = world, no rotation).
                match judge(p.time_of_impact, p.normal2.ours()) {
                    Verdict::Agree => {}
                    Verdict::Grazing => st.grazing += 1,
                    Verdict::Fail(why) => {
                        // parry solves the quadratic in f32; fall back on the bisected gap.
                        let second = fc.t.map(|t| {
                            let t = t as f32;
                            let n = ((a.c + ma * t) - (b.c + mb * t)).normalize();
                            judge(t, n)
                        });
                        match second {
                            Some(Verdict::Agree) => st.refined += 1,
                            Some(Verdict::Grazing) => st.grazing += 1,
                            _ => st.fail(format!(
                                "{}: collidoscope {h:?}; parry t={} normal={:?}: {why}",
                                ctx(),
                                p.time_of_impact,
                                p.normal2
                            )),
                        }
                    }
                }
            }
        }
    }
    st.finish();
}

// ---------------------------------------------------------------------------------------------------------
// Closest points

/// A query point: uniform in half the cases, near `c` (within `reach`) otherwise.
fn query_point(rng: &mut Rng, c: Vec3, reach: f32) -> Vec3 {
    partner_center(rng, c, reach)
}

/// The shape of a closest-point case: parry's twin and collidoscope's query on it.
struct ClosestCase {
    shape: Box<dyn Shape>,
    pose: Pose,
    target: Vec3,
    extent: f32,
    points: Vec<Vec3>,
    closest: Box<dyn Fn(Vec3) -> Vec3>,
    desc: String,
    /// For solids, a box `(centre, rotation, half extents)` inside the shape, to sample interior points.
    interior: Option<(Vec3, Quat, Vec3)>,
}

/// Compares closest points; "positive" counts query points inside/on the shape (answer = the point itself).
fn closest_against(
    name: &'static str,
    seed: u64,
    solid: bool,
    mut make: impl FnMut(&mut Rng) -> ClosestCase,
) {
    let mut rng = Rng::new(seed);
    let mut st = Stats::new(name);
    st.check_balance = solid;
    for _ in 0..CASES {
        let o = make(&mut rng);
        let p = match o.interior {
            Some((c, q, he)) if rng.chance(0.3) => c + q * (he * rng.sym(1.0)),
            _ => query_point(&mut rng, o.target, 1.5 * o.extent),
        };
        let mut all = o.points.clone();
        all.push(p);
        let scale = scale_of(&all, &[o.extent]);
        let tol = TOL * scale;
        let theirs = o.shape.project_point(&o.pose, p.p(), solid);
        let got = (o.closest)(p);
        st.cases += 1;
        if (got - p).length() <= tol {
            st.positive += 1;
        } else {
            st.negative += 1;
        }
        if !got.is_finite() || (got - theirs.point.ours()).length() > tol {
            st.fail(format!(
                "{name}({p:?}, {}): collidoscope {got:?}, parry {:?}",
                o.desc, theirs.point
            ));
        }
    }
    st.finish();
}

#[test]
fn closest_point_sphere_matches_parry() {
    closest_against("closest::point_sphere", 0xC5, true, |rng| {
        let center = rng.center();
        let s = rng.sphere(center);
        let (b, pose) = s.parry();
        let sphere = s.mine();
        ClosestCase {
            shape: Box::new(b),
            pose,
            target: s.c,
            extent: s.r,
            points: vec![s.c],
            closest: Box::new(move |p| closest::point_sphere(p, &sphere)),
            desc: format!("{sphere:?}"),
            interior: Some((s.c, Quat::IDENTITY, Vec3::splat(s.r * 0.57))),
        }
    });
}

#[test]
fn closest_point_aabb_matches_parry() {
    closest_against("closest::point_aabb", 0xCA, true, |rng| {
        let center = rng.center();
        let b = rng.cuboid(center, false);
        let (c, pose) = b.parry();
        let aabb = b.aabb();
        ClosestCase {
            shape: Box::new(c),
            pose,
            target: b.c,
            extent: b.extent(),
            points: vec![aabb.min, aabb.max],
            closest: Box::new(move |p| closest::point_aabb(p, &aabb)),
            desc: format!("{aabb:?}"),
            interior: Some((b.c, b.q, b.he)),
        }
    });
}

#[test]
fn closest_point_obb_matches_parry() {
    closest_against("closest::point_obb", 0xCB, true, |rng| {
        let center = rng.center();
        let b = rng.cuboid(center, true);
        let (c, pose) = b.parry();
        let obb = b.obb();
        ClosestCase {
            shape: Box::new(c),
            pose,
            target: b.c,
            extent: b.extent(),
            points: vec![b.c],
            closest: Box::new(move |p| closest::point_obb(p, &obb)),
            desc: format!("{obb:?}"),
            interior: Some((b.c, b.q, b.he)),
        }
    });
}

#[test]
fn closest_point_triangle_matches_parry() {
    closest_against("closest::point_triangle", 0xC7, false, |rng| {
        let center = rng.center();
        let t = rng.triangle(center);
        let (c, pose) = t.parry();
        let tri = t.t;
        ClosestCase {
            shape: Box::new(c),
            pose,
            target: t.centroid(),
            extent: t.extent(),
            points: t.verts().to_vec(),
            closest: Box::new(move |p| closest::point_triangle(p, &tri)),
            desc: format!("{tri:?}"),
            interior: None,
        }
    });
}

#[test]
fn closest_point_segment_matches_parry() {
    closest_against("closest::point_segment", 0xC9, false, |rng| {
        let a = rng.sym(10.0);
        let b = if rng.chance(0.5) {
            rng.sym(10.0)
        } else {
            let h = rng.size();
            a + rng.sym(h)
        };
        let seg = Segment::new(a, b);
        let c = 0.5 * (a + b);
        ClosestCase {
            shape: Box::new(PSegment::new(a.p(), b.p())),
            pose: Pose::IDENTITY,
            target: c,
            extent: 0.5 * (b - a).length(),
            points: vec![a, b],
            closest: Box::new(move |p| closest::point_segment(p, &seg)),
            desc: format!("{seg:?}"),
            interior: None,
        }
    });
}
