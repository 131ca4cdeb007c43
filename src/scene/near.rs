//! The objects and mesh triangles near one place, gathered once for the many queries a character's move asks
//! there (a few sweeps and overlap tests within a few body widths): each query then scans what was gathered
//! instead of walking the scene's tree and the meshes' trees from their roots. A query whose reach leaves the
//! region goes through the trees as before, so the region only decides the speed, never an answer.

use std::cell::RefCell;

use glam::Vec3;

use super::Scene;
use crate::id::ObjectId;
use crate::mesh::{Near, NearTriangle, TrianglePre};
use crate::shape::Capsule;
use crate::statics::Static;

thread_local! {
    /// Each thread's gathered region, kept from move to move (a move allocates nothing once warm).
    static NEAR: RefCell<NearScene> = RefCell::new(NearScene::default());
}

/// What lies near a region: the scene objects that may touch it and the triangles of its meshes that do.
#[derive(Debug, Default)]
pub(crate) struct NearScene {
    lo: Vec3,
    hi: Vec3,
    /// The planes the region is not clear of (`Scene::unbounded_candidates`), as scene indices: a query held
    /// by the region tests only these (the others' own tests answer nothing anywhere in it).
    planes: Vec<u32>,
    /// Bounded objects whose padded boxes touch the region (the scene's candidates), as scene indices.
    objects: Vec<u32>,
    /// For each mesh among `objects`: its scene index and its run of `triangles`.
    meshes: Vec<(u32, u32, u32)>,
    triangles: Vec<NearTriangle>,
    /// The geometry of `triangles`, in the same order.
    pre: Vec<TrianglePre>,
}

impl NearScene {
    /// This thread's kept region (emptied), to hand back with [`NearScene::keep`].
    pub(crate) fn take() -> NearScene {
        NEAR.try_with(|n| std::mem::take(&mut *n.borrow_mut()))
            .unwrap_or_default()
    }

    /// Hand the buffers back for the thread's next move.
    pub(crate) fn keep(self) {
        // Gone at thread teardown: the buffers are then dropped here.
        let _ = NEAR.try_with(|n| *n.borrow_mut() = self);
    }

    /// Whether the region holds the box `lo..=hi`.
    fn holds(&self, lo: Vec3, hi: Vec3) -> bool {
        lo.cmpge(self.lo).all() && hi.cmple(self.hi).all()
    }

    /// Mesh `i`'s gathered triangles.
    fn mesh(&self, i: usize) -> Option<Near<'_>> {
        let &(_, a, b) = self.meshes.iter().find(|m| m.0 as usize == i)?;
        Some(Near {
            lo: self.lo,
            hi: self.hi,
            triangles: self.triangles.get(a as usize..b as usize)?,
            pre: self.pre.get(a as usize..b as usize)?,
        })
    }
}

impl Scene {
    /// Gather into `out` what lies near the box `lo..=hi` (a non-finite box gathers nothing usable: no query
    /// box is held by it, so every query goes through the trees).
    pub(crate) fn gather_near(&self, lo: Vec3, hi: Vec3, out: &mut NearScene) {
        out.planes.clear();
        out.objects.clear();
        out.meshes.clear();
        out.triangles.clear();
        out.pre.clear();
        (out.lo, out.hi) = (lo, hi);
        if !(lo.is_finite() && hi.is_finite()) {
            (out.lo, out.hi) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
            return;
        }
        self.unbounded_candidates(lo, hi, |i| out.planes.push(i as u32));
        self.bounded_candidates(lo, hi, |i| {
            out.objects.push(i as u32);
            if let Static::Mesh(m) = &self.shapes[i] {
                let start = out.triangles.len() as u32;
                m.gather_near(lo, hi, &mut out.triangles, &mut out.pre);
                out.meshes
                    .push((i as u32, start, out.triangles.len() as u32));
            }
        });
    }

    /// Object `id`'s shape and, for a mesh, its triangles gathered in `near`.
    pub(crate) fn object_near<'n>(
        &'n self,
        near: Option<&'n NearScene>,
        id: ObjectId,
    ) -> Option<(&'n Static, Option<Near<'n>>)> {
        let i = *self.by_id.get(&id)? as usize;
        Some((self.shapes.get(i)?, near.and_then(|n| n.mesh(i))))
    }

    /// The bounded objects that may touch the box `lo..=hi`: through `near` when its region holds the box
    /// (those of its objects whose padded boxes touch it, a superset of what the tree's casts inside the box
    /// visit), else `None`.
    pub(super) fn near_objects<'n>(
        &'n self,
        near: Option<&'n NearScene>,
        lo: Vec3,
        hi: Vec3,
    ) -> Option<impl Iterator<Item = usize> + 'n> {
        let near = near.filter(|n| n.holds(lo, hi))?;
        let boxes = &self.boxes;
        Some(near.objects.iter().map(|&i| i as usize).filter(move |&i| {
            let b = &boxes[i];
            b.min.cmple(hi).all() && b.max.cmpge(lo).all()
        }))
    }

    /// The planes a query inside the box `lo..=hi` must test: through `near` when its region holds the box
    /// (those the region is not clear of), else every one.
    pub(super) fn planes_near<'n>(
        &'n self,
        near: Option<&'n NearScene>,
        lo: Vec3,
        hi: Vec3,
    ) -> &'n [u32] {
        match near.filter(|n| n.holds(lo, hi)) {
            Some(n) => &n.planes,
            None => &self.unbounded,
        }
    }

    /// Object `i`'s capsule sweep ([`Static::sweep_capsule`]), a mesh's through its gathered triangles.
    pub(super) fn object_sweep_capsule(
        &self,
        near: Option<&NearScene>,
        i: usize,
        capsule: &Capsule,
        motion: Vec3,
    ) -> Option<crate::query::Toi> {
        match (&self.shapes[i], near.and_then(|n| n.mesh(i))) {
            (Static::Mesh(m), Some(tris)) => m
                .sweep_capsule_in(Some(&tris), capsule, motion)
                .map(|(toi, _)| toi),
            (shape, _) => shape.sweep_capsule(capsule, motion),
        }
    }

    /// Object `i`'s capsule overlap test ([`Static::overlaps_capsule`]), a mesh's through its gathered
    /// triangles.
    pub(super) fn object_overlaps_capsule(
        &self,
        near: Option<&NearScene>,
        i: usize,
        capsule: &Capsule,
    ) -> bool {
        match (&self.shapes[i], near.and_then(|n| n.mesh(i))) {
            (Static::Mesh(m), Some(tris)) => m.overlaps_capsule_in(Some(&tris), capsule),
            (shape, _) => shape.overlaps_capsule(capsule),
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::NearScene;
    use crate::generate::SplitMix64;
    use crate::id::ObjectId;
    use crate::mesh::TriMesh;
    use crate::scene::Scene;
    use crate::shape::{Aabb, Capsule, Plane};
    use crate::statics::Static;

    /// A bumpy grid of triangles over 8 m and a few boxes on it.
    fn scene(rng: &mut SplitMix64) -> Scene {
        let n = 17;
        let mut vertices = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let (x, z) = (i as f32 * 0.5 - 4.0, j as f32 * 0.5 - 4.0);
                vertices.push(Vec3::new(x, rng.range(-0.2, 0.2), z));
            }
        }
        let mut indices = Vec::new();
        for i in 0..n - 1 {
            for j in 0..n - 1 {
                let k = (i * n + j) as u32;
                let n = n as u32;
                indices.push([k, k + 1, k + n]);
                indices.push([k + 1, k + n + 1, k + n]);
            }
        }
        let mut objects = vec![(
            ObjectId(1),
            Static::Mesh(TriMesh::new(vertices, indices).expect("a grid")),
        )];
        for id in 2..8 {
            let c = Vec3::new(rng.range(-3.0, 3.0), 0.0, rng.range(-3.0, 3.0));
            let h = Vec3::new(
                rng.range(0.2, 0.6),
                rng.range(0.1, 0.5),
                rng.range(0.2, 0.6),
            );
            objects.push((ObjectId(id), Static::Aabb(Aabb::new(c - h, c + h))));
        }
        // Two planes, each near some regions and clear of others: a floor below the grid and a tilted one
        // across its side.
        let floor = Plane::new(Vec3::Y, rng.range(-1.2, -0.2));
        let tilted = Vec3::new(-1.0, rng.range(-0.5, 0.5), rng.range(-0.5, 0.5)).normalize();
        let side = Plane::new(tilted, tilted.dot(Vec3::X * rng.range(1.0, 4.0)));
        objects.push((ObjectId(8), Static::Plane(floor)));
        objects.push((ObjectId(9), Static::Plane(side)));
        Scene::from_objects(objects)
    }

    /// Sweeps and overlap tests through a gathered region answer as through the trees, bit for bit, whether
    /// the region holds them (most) or not (they then go through the trees).
    #[test]
    fn gathered_queries_answer_as_the_trees() {
        let mut rng = SplitMix64::new(31);
        let mut near = NearScene::default();
        let (mut held, mut total, mut clear) = (0, 0, 0);
        for _ in 0..20 {
            let scene = scene(&mut rng);
            for _ in 0..200 {
                let feet = Vec3::new(
                    rng.range(-3.5, 3.5),
                    rng.range(-0.3, 0.6),
                    rng.range(-3.5, 3.5),
                );
                let r = rng.range(0.2, 0.5);
                let body = Capsule::new(feet + Vec3::Y * r, feet + Vec3::Y * (r + 1.0), r);
                let reach = rng.range(0.0, 1.0);
                let b = body.bounds();
                scene.gather_near(
                    b.min - Vec3::splat(reach),
                    b.max + Vec3::splat(reach),
                    &mut near,
                );
                clear += 2 - near.planes.len();
                for _ in 0..6 {
                    let motion = Vec3::new(
                        rng.range(-1.0, 1.0),
                        rng.range(-1.0, 1.0),
                        rng.range(-1.0, 1.0),
                    ) * rng.range(0.0, 0.8);
                    let moved = body.translated(motion).bounds();
                    held += usize::from(near.holds(b.min.min(moved.min), b.max.max(moved.max)));
                    total += 1;
                    let hit = scene.sweep_capsule_near(Some(&near), &body, motion);
                    assert_eq!(hit, scene.sweep_capsule(&body, motion));
                    // The faces through the contact (and through it within a wider reach, where the order of
                    // several matters), gathered as through the tree.
                    if let Some(h) = hit
                        && let Some((shape, tris)) = scene.object_near(Some(&near), h.object)
                    {
                        for tol in [1e-5, 0.3] {
                            let faces = |t| {
                                let mut out = Vec::new();
                                shape.faces_through(t, h.point, body.a, tol, |n| out.push(n));
                                out
                            };
                            assert_eq!(faces(tris.as_ref()), faces(None));
                        }
                    }
                    let at = body.translated(motion);
                    assert_eq!(
                        scene.overlaps_capsule_any_near(Some(&near), &at),
                        scene.overlaps_capsule_any(&at)
                    );
                }
            }
        }
        // Both paths were taken, the gathered one mostly.
        assert!(held > total / 3 && held < total, "{held} of {total}");
        // Regions clear of a plane (which their queries then leave out) and regions near one, both.
        assert!(
            clear > 200 && clear < 6_000,
            "{clear} planes left out of 8,000"
        );
    }
}
