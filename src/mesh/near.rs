//! The triangles of a mesh near one place, gathered once for many queries there: a character's move asks
//! several sweeps and overlap tests within a few body widths, and each walked the mesh's tree from its root.
//! Gathered once for the move's region, each query scans the few triangles' boxes instead, and answers as the
//! tree would (see [`TriMesh::visit_near`]).

use glam::Vec3;

use super::TriMesh;

/// A gathered triangle: its BVH slot and its box.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NearTriangle {
    slot: u32,
    lo: Vec3,
    hi: Vec3,
}

/// The triangles of one mesh whose boxes touch a region, and the region.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Near<'a> {
    /// The region's corners.
    pub lo: Vec3,
    pub hi: Vec3,
    /// Every triangle whose box touches `lo..=hi`, in the tree's slot order.
    pub triangles: &'a [NearTriangle],
}

impl TriMesh {
    /// Push every hittable triangle whose box touches `lo..=hi` onto `out` (the triangles a query inside the
    /// region can reach).
    pub(crate) fn gather_near(&self, lo: Vec3, hi: Vec3, out: &mut Vec<NearTriangle>) {
        self.visit_triangles(lo, hi, lo, hi, |k| {
            let [a, b, c] = self.slot(k);
            out.push(NearTriangle {
                // Slots are below the mesh's triangle count, itself a `u32`.
                slot: k as u32,
                lo: a.min(b).min(c),
                hi: a.max(b).max(c),
            });
            true
        });
    }

    /// [`TriMesh::visit_triangles`] through `near` when its region holds `tri_lo..=tri_hi`: `f` gets every
    /// gathered triangle whose box touches `tri_lo..=tri_hi`. That is every triangle the tree gives (each
    /// touches the region, so it was gathered) and at most a few whose box touches the reach box though no
    /// node box on their way touches `lo..=hi` (the reach box is the larger by its rounding margin): the
    /// queries' own per-triangle tests reject those, so the answers are the tree's.
    pub(super) fn visit_near(
        &self,
        near: Option<&Near<'_>>,
        lo: Vec3,
        hi: Vec3,
        tri_lo: Vec3,
        tri_hi: Vec3,
        mut f: impl FnMut(usize) -> bool,
    ) {
        match near {
            Some(n) if tri_lo.cmpge(n.lo).all() && tri_hi.cmple(n.hi).all() => {
                for t in n.triangles {
                    if t.lo.cmple(tri_hi).all() && t.hi.cmpge(tri_lo).all() && !f(t.slot as usize) {
                        return;
                    }
                }
            }
            _ => self.visit_triangles(lo, hi, tri_lo, tri_hi, f),
        }
    }
}
