//! The triangles of a mesh near one place, gathered once for many queries there: a character's move asks
//! several sweeps and overlap tests within a few body widths, and each walked the mesh's tree from its root.
//! Gathered once for the move's region, each query scans the few triangles' boxes instead, and answers as the
//! tree would (see [`Near::touching`]). Each gathered triangle also keeps what every query of the move
//! works out of it again (its f64 corners and box, its unit normal, its closest pair to the body).

use std::cell::Cell;

use glam::{DVec3, Vec3};

use super::TriMesh;
use crate::query::closest_segment::{Pair, segment_triangle};
use crate::query::sweep::{CapD, interval_meet, reject_slack};

/// A gathered triangle: its BVH slot and its box.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NearTriangle {
    slot: u32,
    lo: Vec3,
    hi: Vec3,
}

impl NearTriangle {
    /// Whether the triangle's box touches `lo..=hi`.
    fn touches(&self, lo: Vec3, hi: Vec3) -> bool {
        self.lo.cmple(hi).all() && self.hi.cmpge(lo).all()
    }
}

/// The key of a capsule's segment in a triangle's kept pair: its ends' bits.
type SegmentKey = [u64; 6];

/// A gathered triangle's f64 geometry, worked out once for every query of the move, and the last closest pair
/// of a segment and the triangle asked (a move asks the same pair of its body at the start, or at the end,
/// in more than one query).
#[derive(Clone, Debug)]
pub(crate) struct TrianglePre {
    /// The corners, as `TriMesh::slot` holds them.
    pub(crate) v: [DVec3; 3],
    lo: DVec3,
    hi: DVec3,
    /// The unit normal exactly as [`crate::query::sweep::triangle_reach`] works it out; `None` for no area.
    normal: Option<DVec3>,
    /// The last segment asked of [`TrianglePre::segment_pair`] and its answer.
    pair: Cell<Option<(SegmentKey, Pair)>>,
}

impl TrianglePre {
    fn of([a, b, c]: [Vec3; 3]) -> Self {
        let v = [a, b, c].map(Vec3::as_dvec3);
        let [a, b, c] = v;
        let n = (b - a).cross(c - a);
        let len = n.length();
        Self {
            v,
            lo: a.min(b).min(c),
            hi: a.max(b).max(c),
            normal: (len > 0.0).then(|| n / len),
            pair: Cell::new(None),
        }
    }

    /// [`crate::query::sweep::triangle_reach`] of this triangle, bit for bit (the same operations in the same
    /// order, the normal kept from the gathering).
    pub(crate) fn reach(&self, cap: &CapD, m: DVec3) -> Option<f64> {
        let a = self.v[0];
        let reach = cap.r + reject_slack(cap, m, a);
        let (lo, hi) = (
            cap.p.min(cap.q) - DVec3::splat(reach),
            cap.p.max(cap.q) + DVec3::splat(reach),
        );
        let mut range = (0.0, 1.0);
        for i in 0..3 {
            range = interval_meet(lo[i], hi[i], m[i], self.lo[i], self.hi[i], range)?;
        }
        if let Some(n) = self.normal {
            let (sp, sq) = (n.dot(cap.p - a), n.dot(cap.q - a));
            range = interval_meet(sp.min(sq), sp.max(sq), n.dot(m), -reach, reach, range)?;
        }
        Some(range.0)
    }

    /// `segment_triangle` of the segment `p..q` and this triangle: the kept answer when the segment is the
    /// last one asked, bit for bit.
    pub(crate) fn segment_pair(&self, p: DVec3, q: DVec3) -> Pair {
        let key = [p.x, p.y, p.z, q.x, q.y, q.z].map(f64::to_bits);
        if let Some((k, pair)) = self.pair.get()
            && k == key
        {
            return pair;
        }
        let [a, b, c] = self.v;
        let pair = segment_triangle(p, q, a, b, c);
        self.pair.set(Some((key, pair)));
        pair
    }

    /// Whether the point `p` may lie within `tol` of the triangle: `false` when it is farther than that from
    /// the triangle's plane (by a margin far above the rounding of both distances), so no closest point on
    /// the triangle is within `tol` either.
    pub(crate) fn may_be_within(&self, p: DVec3, tol: f64) -> bool {
        self.normal.is_none_or(|n| {
            let margin = 1e-9 * (1.0 + p.abs().max_element() + self.v[0].abs().max_element());
            n.dot(p - self.v[0]).abs() <= tol + margin
        })
    }
}

/// The triangles of one mesh whose boxes touch a region, and the region.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Near<'a> {
    /// The region's corners.
    pub lo: Vec3,
    pub hi: Vec3,
    /// Every triangle whose box touches `lo..=hi`, in the tree's slot order.
    pub triangles: &'a [NearTriangle],
    /// Their geometry, in the same order.
    pub pre: &'a [TrianglePre],
}

impl Near<'_> {
    /// Whether the region holds the box `lo..=hi`.
    pub(crate) fn holds(&self, lo: Vec3, hi: Vec3) -> bool {
        lo.cmpge(self.lo).all() && hi.cmple(self.hi).all()
    }

    /// The slot, index in [`Near::pre`] and geometry of every gathered triangle whose box touches `lo..=hi`, a box the region holds.
    /// That is every triangle the tree gives for it (each touches the region, so it was gathered) and at most
    /// a few whose box touches a query's reach box though no node box on their way touches the query's own
    /// box (the reach box is the larger by its rounding margin): the queries' own per-triangle tests reject
    /// those, so the answers are the tree's. The order is the tree's: its visits follow one depth-first order
    /// of the whole tree, of which a smaller box's are a part.
    pub(crate) fn touching(
        &self,
        lo: Vec3,
        hi: Vec3,
    ) -> impl Iterator<Item = (usize, usize, &TrianglePre)> + '_ {
        self.triangles
            .iter()
            .zip(self.pre)
            .enumerate()
            .filter(move |(_, (t, _))| t.touches(lo, hi))
            .map(|(j, (t, p))| (t.slot as usize, j, p))
    }
}

impl TriMesh {
    /// Push every hittable triangle whose box touches `lo..=hi` onto `out`, its geometry onto `pre` (the
    /// triangles a query inside the region can reach).
    pub(crate) fn gather_near(
        &self,
        lo: Vec3,
        hi: Vec3,
        out: &mut Vec<NearTriangle>,
        pre: &mut Vec<TrianglePre>,
    ) {
        self.visit_triangles(lo, hi, lo, hi, |k| {
            let [a, b, c] = self.slot(k);
            out.push(NearTriangle {
                // Slots are below the mesh's triangle count, itself a `u32`.
                slot: k as u32,
                lo: a.min(b).min(c),
                hi: a.max(b).max(c),
            });
            pre.push(TrianglePre::of([a, b, c]));
            true
        });
    }
}
