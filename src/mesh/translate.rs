//! Moving a mesh: [`TriMesh::translated`] adds an offset to the vertices, the packets' triangles and the
//! BVH's node boxes, keeping the tree's shape (a mover's mesh moves every frame: no rebuild).

use glam::{Vec3, Vec4};

use super::TriMesh;
use crate::pages::Pages;
use crate::shape::Aabb;

impl TriMesh {
    /// This mesh moved by `offset`, without rebuilding its BVH: the same triangles (each vertex `v + offset`
    /// in `f32`), the same tree with every node box moved by the same offset. Adding one offset to every
    /// coordinate keeps their order (rounding is monotonic), so every box still holds its triangles. Always
    /// built from an unmoved mesh by a mover, so the same offset gives the same bits. A non-finite offset gives
    /// the mesh unmoved.
    #[must_use]
    pub fn translated(&self, offset: Vec3) -> TriMesh {
        if !offset.is_finite() || offset == Vec3::ZERO {
            return self.clone();
        }
        let d4 = [
            Vec4::splat(offset.x),
            Vec4::splat(offset.y),
            Vec4::splat(offset.z),
        ];
        let packets: Vec<_> = self
            .packets
            .iter()
            .map(|p| {
                let mut p = *p;
                for vertex in &mut p.v {
                    for (axis, lanes) in vertex.iter_mut().enumerate() {
                        *lanes += d4[axis];
                    }
                }
                p
            })
            .collect();
        let wide: Vec<_> = self
            .wide
            .iter()
            .map(|w| {
                let mut w = *w;
                // Unused lanes hold ±inf, which stay so.
                for side in &mut w.bounds {
                    for (axis, groups) in side.iter_mut().enumerate() {
                        for g in groups.iter_mut() {
                            *g += d4[axis];
                        }
                    }
                }
                w
            })
            .collect();
        TriMesh {
            vertices: self.vertices.iter().map(|&v| v + offset).collect(),
            indices: self.indices.clone(),
            packets: Pages::new(packets),
            wide: Pages::new(wide),
            bounds: Aabb::new(self.bounds.min + offset, self.bounds.max + offset),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Ray, Sphere};

    #[test]
    fn a_moved_mesh_answers_as_one_built_there() {
        let grid = |d: Vec3| {
            let mut v = Vec::new();
            let mut idx = Vec::new();
            for i in 0..20u32 {
                for j in 0..20u32 {
                    let p = Vec3::new(i as f32, ((i * 7 + j * 3) % 5) as f32 * 0.1, j as f32) + d;
                    let n = v.len() as u32;
                    v.extend([p, p + Vec3::X, p + Vec3::Z]);
                    idx.push([n, n + 1, n + 2]);
                }
            }
            TriMesh::new(v, idx).unwrap()
        };
        let d = Vec3::new(3.25, -1.5, 0.75);
        let (moved, built) = (grid(Vec3::ZERO).translated(d), grid(d));
        moved.assert_well_formed();
        assert_eq!(moved.vertices(), built.vertices());
        for k in 0..400 {
            let a = k as f32 * 0.61;
            let r = Ray::new(
                Vec3::new(10.0 + 8.0 * a.sin(), 3.0, 10.0 + 8.0 * a.cos()) + d,
                Vec3::new(0.3 * a.cos(), -1.0, 0.2),
            );
            assert_eq!(moved.cast_ray(&r, 100.0), built.cast_ray(&r, 100.0));
            let s = Sphere::new(r.origin - Vec3::Y * 2.8, 0.3);
            assert_eq!(moved.overlaps_sphere(&s), built.overlaps_sphere(&s));
        }
    }
}
