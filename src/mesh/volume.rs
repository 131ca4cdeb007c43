//! Volume queries: sphere and capsule overlap and sweeps, and the triangles in a box, all through the BVH
//! boxes that touch a query box.

use std::cell::RefCell;

use glam::{DVec3, Vec3, Vec4};

use super::TriMesh;
use super::layout::{GROUPS, Stack, lanes, leaf_packets};
use super::near::Near;
use crate::query::closest_segment::segment_triangle;
use crate::query::sweep::{
    CapD, TriangleHit, capsule_triangle_hit, sphere_triangle, triangle_contact, triangle_reach,
};
use crate::query::{Toi, closest::point_triangle_d};
use crate::shape::{Aabb, Capsule, Sphere, Triangle};

thread_local! {
    /// Each thread's list of the triangles a capsule sweep reaches (its reach, slot and index among the
    /// gathered triangles, or `usize::MAX`), kept from sweep to sweep.
    static REACH: RefCell<Vec<(f64, usize, usize)>> = const { RefCell::new(Vec::new()) };
    /// Each thread's stack for [`TriMesh::visit_box`], kept from visit to visit.
    static VISIT: RefCell<Stack<u32>> = const { RefCell::new(Stack::new(0)) };
}

impl TriMesh {
    /// Whether the solid sphere touches any triangle.
    #[must_use]
    pub fn overlaps_sphere(&self, sphere: &Sphere) -> bool {
        if !sphere.is_valid() {
            return false;
        }
        let r = Vec3::splat(sphere.radius);
        let (lo, hi) = (sphere.center - r, sphere.center + r);
        let c = sphere.center.as_dvec3();
        let rr = f64::from(sphere.radius) * f64::from(sphere.radius);
        let mut found = false;
        self.visit_box(lo, hi, |k| {
            let [a, b, cc] = self.slot(k).map(Vec3::as_dvec3);
            if c.distance_squared(point_triangle_d(c, a, b, cc)) <= rr {
                found = true;
            }
            !found
        });
        found
    }

    /// First contact of a sphere moving by `motion` with any triangle (both faces), and which triangle:
    /// [`sphere_triangle`] on the triangles whose boxes the swept sphere's box touches.
    #[must_use]
    pub fn sweep_sphere(&self, sphere: &Sphere, motion: Vec3) -> Option<(Toi, u32)> {
        self.sweep_sphere_where(sphere, motion, |_| true)
    }

    /// [`TriMesh::sweep_sphere`] keeping only the contacts `accept` approves: the simulation skips contacts
    /// the sphere is merely resting on, so that the triangles it is moving toward are still found (a mesh is
    /// not convex: the floor it rolls on must not hide the wall ahead).
    #[must_use]
    pub fn sweep_sphere_where(
        &self,
        sphere: &Sphere,
        motion: Vec3,
        accept: impl Fn(&Toi) -> bool,
    ) -> Option<(Toi, u32)> {
        if !sphere.is_valid() || !motion.is_finite() {
            return None;
        }
        let r = Vec3::splat(sphere.radius);
        let end = sphere.center + motion;
        let (lo, hi) = (sphere.center.min(end) - r, sphere.center.max(end) + r);
        let mut best: Option<(Toi, u32)> = None;
        self.visit_box(lo, hi, |k| {
            let [a, b, c] = self.slot(k);
            if let Some(toi) = sphere_triangle(sphere, motion, &Triangle::new(a, b, c))
                && best.is_none_or(|(t, _)| toi.t < t.t)
                && accept(&toi)
            {
                best = Some((toi, self.id(k)));
            }
            true
        });
        best
    }

    /// Whether the solid capsule touches any triangle (the per-triangle test of
    /// [`crate::query::overlap::capsule_triangle`] on the triangles whose boxes the capsule's box touches).
    #[must_use]
    pub fn overlaps_capsule(&self, capsule: &Capsule) -> bool {
        self.overlaps_capsule_in(None, capsule)
    }

    /// [`TriMesh::overlaps_capsule`] over the triangles of `near` when its region holds the capsule's reach
    /// (the same answer: every triangle the tree would give is in it), else through the tree.
    pub(crate) fn overlaps_capsule_in(&self, near: Option<&Near<'_>>, capsule: &Capsule) -> bool {
        if !capsule.is_valid() {
            return false;
        }
        let bounds = capsule.bounds();
        let cap = CapD::of(capsule);
        let rr = cap.r * cap.r;
        let (lo, hi) = reach_box(&cap, DVec3::ZERO, self.bounds);
        if let Some(n) = near.filter(|n| n.holds(lo, hi)) {
            // The gathered triangles, with their kept geometry and closest pairs: the same tests.
            return n.touching(lo, hi).any(|(_, _, t)| {
                t.reach(&cap, DVec3::ZERO).is_some() && {
                    let (on_segment, on_triangle) = t.segment_pair(cap.p, cap.q);
                    on_segment.distance_squared(on_triangle) <= rr
                }
            });
        }
        let mut found = false;
        self.visit_triangles(bounds.min, bounds.max, lo, hi, |k| {
            let [a, b, c] = self.slot(k).map(Vec3::as_dvec3);
            // A triangle whose box or plane stays beyond the radius (and the rounding slack) of the segment
            // cannot come within it: the sweeps' own reach test, not moving. Most triangles near a body
            // standing a skin above a terrain end here, a few operations in.
            if triangle_reach(&cap, DVec3::ZERO, a, b, c).is_none() {
                return true;
            }
            let (on_segment, on_triangle) = segment_triangle(cap.p, cap.q, a, b, c);
            found = on_segment.distance_squared(on_triangle) <= rr;
            !found
        });
        found
    }

    /// First contact of a capsule moving by `motion` with any triangle (both faces), and which triangle:
    /// [`crate::query::sweep::capsule_triangle`] on the triangles whose boxes the swept capsule's box
    /// touches; equal times go to the triangle met first (by the bound below, then by slot). Each triangle is
    /// judged on its own, as by `capsule_triangle`: a triangle the capsule starts on and moves away from does
    /// not stop it (a mesh is not convex: the floor it stands on must not hide the wall ahead).
    ///
    /// Each triangle gets a lower bound on its contact time from its plane (when the capsule first comes within
    /// its radius of it, a few operations; a triangle whose plane it never reaches is dropped there), and they
    /// are met in full nearest bound first, only while they can still come before the earliest contact found;
    /// the contact point and normal are read off for the earliest triangle only. The time is the smallest of
    /// the triangles' own `capsule_triangle` times, bit for bit.
    #[must_use]
    pub fn sweep_capsule(&self, capsule: &Capsule, motion: Vec3) -> Option<(Toi, u32)> {
        self.sweep_capsule_in(None, capsule, motion)
    }

    /// [`TriMesh::sweep_capsule`] over the triangles of `near` when its region holds the sweep's reach (the
    /// same answer: every triangle the tree would give is in it), else through the tree.
    pub(crate) fn sweep_capsule_in(
        &self,
        near: Option<&Near<'_>>,
        capsule: &Capsule,
        motion: Vec3,
    ) -> Option<(Toi, u32)> {
        if !capsule.is_valid() || !motion.is_finite() {
            return None;
        }
        let (from, to) = (capsule.bounds(), capsule.translated(motion).bounds());
        let cap = CapD::of(capsule);
        let m = motion.as_dvec3();
        // Every triangle the swept box reaches, with the time its plane comes within reach (a lower bound on
        // its contact), nearest first; each is met in full only while it can still come first.
        // Kept from sweep to sweep on each thread (taken out while in use, so a sweep made meanwhile would only
        // allocate): a character's moves make no heap allocation once warm.
        let mut reach = REACH
            .try_with(|r| std::mem::take(&mut *r.borrow_mut()))
            .unwrap_or_default();
        reach.clear();
        // Room for the triangles of any sweep but a long one over a dense mesh, from the first.
        reach.reserve(256);
        let (lo, hi) = reach_box(&cap, m, self.bounds);
        let held = near.filter(|n| n.holds(lo, hi));
        if let Some(n) = held {
            // The gathered triangles, with their kept geometry (`reach` is `triangle_reach` bit for bit).
            for (k, j, t) in n.touching(lo, hi) {
                if let Some(t0) = t.reach(&cap, m) {
                    reach.push((t0, k, j));
                }
            }
        } else {
            self.visit_triangles(from.min.min(to.min), from.max.max(to.max), lo, hi, |k| {
                let [a, b, c] = self.slot(k).map(Vec3::as_dvec3);
                if let Some(t0) = triangle_reach(&cap, m, a, b, c) {
                    reach.push((t0, k, usize::MAX));
                }
                true
            });
        }
        reach.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let mut best: Option<(TriangleHit, u32, [DVec3; 3])> = None;
        for &(t0, k, j) in &reach {
            let bound = best.map_or(f64::INFINITY, |(hit, ..)| hit.t());
            if t0 >= bound {
                break;
            }
            let pre = held.and_then(|n| n.pre.get(j));
            let tri = pre.map_or_else(|| self.slot(k).map(Vec3::as_dvec3), |t| t.v);
            let [a, b, c] = tri;
            let pair = || match pre {
                Some(t) => t.segment_pair(cap.p, cap.q),
                None => segment_triangle(cap.p, cap.q, a, b, c),
            };
            if let Some(hit) = capsule_triangle_hit(&cap, m, tri, (t0, bound), pair)
                && hit.t() < bound
            {
                best = Some((hit, self.id(k), tri));
            }
        }
        // Gone at thread teardown: the list is then dropped here.
        let _ = REACH.try_with(|r| *r.borrow_mut() = reach);
        let (hit, triangle, [a, b, c]) = best?;
        let toi = match hit {
            TriangleHit::Touching(toi) => toi,
            TriangleHit::Entry(t) => triangle_contact(&cap, m, a, b, c, t)?,
        };
        Some((toi.to_f32()?, triangle))
    }

    /// Call `f` with the index and the triangle of every hittable (non-degenerate) triangle whose bounding box
    /// touches the box `lo..=hi` (in BVH order).
    pub fn triangles_in_box(&self, lo: Vec3, hi: Vec3, mut f: impl FnMut(u32, Triangle)) {
        self.visit_box(lo, hi, |k| {
            let [a, b, c] = self.slot(k);
            if a.min(b).min(c).cmple(hi).all() && a.max(b).max(c).cmpge(lo).all() {
                f(self.id(k), Triangle::new(a, b, c));
            }
            true
        });
    }

    /// [`TriMesh::visit_box`] over the node boxes touching `lo..=hi`, calling `f` only for the triangles whose
    /// own boxes touch `tri_lo..=tri_hi`, four at a time in f32 (a leaf's other triangles are skipped before
    /// any f64 work).
    pub(super) fn visit_triangles(
        &self,
        lo: Vec3,
        hi: Vec3,
        tri_lo: Vec3,
        tri_hi: Vec3,
        mut f: impl FnMut(usize) -> bool,
    ) {
        let (lx, ly, lz) = (
            Vec4::splat(tri_lo.x),
            Vec4::splat(tri_lo.y),
            Vec4::splat(tri_lo.z),
        );
        let (hx, hy, hz) = (
            Vec4::splat(tri_hi.x),
            Vec4::splat(tri_hi.y),
            Vec4::splat(tri_hi.z),
        );
        let mut packet = usize::MAX;
        let mut touching = 0u32;
        self.visit_box(lo, hi, |k| {
            // Slots come packet by packet, lanes ascending: one box test per packet, at its first slot.
            if k / 4 != packet {
                packet = k / 4;
                let [a, b, c] = &self.packets[packet].v;
                let axis = |i: usize| (a[i].min(b[i]).min(c[i]), a[i].max(b[i]).max(c[i]));
                let ((x0, x1), (y0, y1), (z0, z1)) = (axis(0), axis(1), axis(2));
                let touch = x0.cmple(hx)
                    & y0.cmple(hy)
                    & z0.cmple(hz)
                    & x1.cmpge(lx)
                    & y1.cmpge(ly)
                    & z1.cmpge(lz);
                touching = touch.bitmask();
            }
            touching & (1 << (k % 4)) == 0 || f(k)
        });
    }

    /// Call `f` with the BVH slot of every triangle whose node boxes touch `lo..=hi`, until it returns false.
    fn visit_box(&self, lo: Vec3, hi: Vec3, f: impl FnMut(usize) -> bool) {
        // Each thread's stack, taken out while in use (a visit made meanwhile makes its own): a deep visit's
        // heap spill keeps its memory for the next, so a character's moves allocate nothing once warm.
        let mut stack = VISIT
            .try_with(|v| std::mem::replace(&mut *v.borrow_mut(), Stack::new(0)))
            .unwrap_or_else(|_| Stack::new(0));
        stack.clear();
        // Room past the inline entries from the first visit on (a box over a deep tree needs a few dozen).
        stack.spill.reserve(64);
        stack.push(0);
        self.visit_stack(lo, hi, &mut stack, f);
        let _ = VISIT.try_with(|v| *v.borrow_mut() = stack);
    }

    /// [`TriMesh::visit_box`] with the stack given.
    fn visit_stack(
        &self,
        lo: Vec3,
        hi: Vec3,
        stack: &mut Stack<u32>,
        mut f: impl FnMut(usize) -> bool,
    ) {
        let (lx, ly, lz) = (Vec4::splat(lo.x), Vec4::splat(lo.y), Vec4::splat(lo.z));
        let (hx, hy, hz) = (Vec4::splat(hi.x), Vec4::splat(hi.y), Vec4::splat(hi.z));
        while let Some(w) = stack.pop() {
            let n = &self.wide[w as usize];
            let mut bits = 0;
            for g in 0..GROUPS {
                let (lo, hi) = (&n.bounds[0], &n.bounds[1]);
                let touch = lo[0][g].cmple(hx)
                    & lo[1][g].cmple(hy)
                    & lo[2][g].cmple(hz)
                    & hi[0][g].cmpge(lx)
                    & hi[1][g].cmpge(ly)
                    & hi[2][g].cmpge(lz);
                bits |= touch.bitmask() << (4 * g);
            }
            for lane in lanes(bits & n.used()) {
                if n.count[lane] > 0 {
                    for (p, valid) in leaf_packets(n.first[lane], n.count[lane]) {
                        for l in lanes(valid) {
                            if !f(p * 4 + l) {
                                return;
                            }
                        }
                    }
                } else {
                    stack.push(n.first[lane]);
                }
            }
        }
    }
}

/// An f32 box holding every point within the capsule's radius of its segment moving by `m` (over the whole
/// motion), grown by far more than the rounding of the f64 work and of the conversion to f32: a triangle whose
/// box misses it is one [`triangle_reach`] rejects (its moving box never meets the triangle's box), so skipping
/// it changes no answer. Its margin, a millionth of the largest coordinate of the capsule, the motion and the
/// mesh (`bounds`) and of a metre, is a million times the reach's own slack.
fn reach_box(cap: &CapD, m: DVec3, bounds: Aabb) -> (Vec3, Vec3) {
    let (p1, q1) = (cap.p + m, cap.q + m);
    let lo = cap.p.min(cap.q).min(p1).min(q1) - DVec3::splat(cap.r);
    let hi = cap.p.max(cap.q).max(p1).max(q1) + DVec3::splat(cap.r);
    let mesh = f64::from(bounds.min.abs().max(bounds.max.abs()).max_element());
    let scale = lo.abs().max(hi.abs()).max_element() + m.abs().max_element() + cap.r + mesh;
    let margin = DVec3::splat(1e-6 * (1.0 + scale));
    ((lo - margin).as_vec3(), (hi + margin).as_vec3())
}
