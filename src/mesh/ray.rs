//! Ray casts: the front-to-back traversal of the eight-wide BVH with robust slab tests, and Woop, Benthin and
//! Wald's watertight ray/triangle test on packets of four triangles.

use glam::{Vec3, Vec4};

use super::layout::{GROUPS, Stack, Tri4, WIDTH, Wide, lanes, leaf_packets};
use super::{MeshHit, TriMesh};
use crate::pages::prefetch;
use crate::shape::Ray;

/// `1 + 2γ₃` with `γₙ = nε / (1 - nε)`, `ε = 2⁻²⁴`: the exit-distance widening of a robust slab test.
const ROBUST_EXIT: f32 = 1.0 + 2.0 * (3.0 * f32::EPSILON * 0.5) / (1.0 - 3.0 * f32::EPSILON * 0.5);
/// Trees smaller than this are not prefetched: they stay in the L2 cache of the CPUs we run on, where a
/// prefetch only costs instructions (the bunny's 220 KB: about 5% faster without, alternating runs).
const PREFETCH_MIN_BYTES: usize = 512 << 10;

impl TriMesh {
    /// Nearest hits of many rays (unbounded `t`), in order. With the `parallel` feature the rays are spread
    /// over all cores with rayon; the answers are the same either way.
    #[must_use]
    pub fn cast_rays(&self, rays: &[Ray]) -> Vec<Option<MeshHit>> {
        self.cast_rays_max(rays, f32::INFINITY)
    }

    /// [`TriMesh::cast_rays`] with a largest `t`.
    #[must_use]
    pub fn cast_rays_max(&self, rays: &[Ray], max_t: f32) -> Vec<Option<MeshHit>> {
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            rays.par_iter().map(|r| self.cast_ray(r, max_t)).collect()
        }
        #[cfg(not(feature = "parallel"))]
        {
            rays.iter().map(|r| self.cast_ray(r, max_t)).collect()
        }
    }

    /// Nearest hit of the ray on either face of any triangle, with `t <= max_t`.
    ///
    /// Watertight: rays through shared edges and vertices never slip between triangles. Ties (a shared edge)
    /// go to the triangle met first in BVH order. An invalid ray or a NaN/negative `max_t` gives `None`.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray, max_t: f32) -> Option<MeshHit> {
        if !ray.is_valid() || !(max_t >= 0.0) {
            return None;
        }
        let wt = Watertight::new(ray);
        let slabs = Slabs::new(ray);
        let mut best = Nearest {
            t: max_t,
            hit: None,
        };
        let (wide, packets) = (&*self.wide, &*self.packets);
        let prefetching = self.bvh_bytes() >= PREFETCH_MIN_BYTES;
        // (wide node, entry t), nearest on top.
        let mut stack = Stack::new((0u32, 0.0f32));
        stack.push((0, 0.0));
        while let Some((w, entry)) = stack.pop() {
            if entry > best.t {
                continue;
            }
            let n = &wide[w as usize];
            let (bits, nears) = slabs.enter(n, best.t);
            if bits == 0 {
                continue;
            }
            let leaves = u32::from(n.leaves);
            // Start loading every hit child now, so that on a big mesh their cache misses overlap with each
            // other and with the leaf tests below instead of each stalling the ray in turn.
            if prefetching {
                prefetch_children(wide, packets, n, bits);
            }
            best.test_leaves(&wt, packets, n, bits & leaves, &nears);
            push_inner(&mut stack, n, bits & !leaves, &nears, best.t);
        }
        best.hit
            .and_then(|(k, t, u, v)| self.finish_hit(ray, k, t, u, v))
    }

    /// The public hit for triangle slot `k` of the BVH order.
    fn finish_hit(&self, ray: &Ray, k: usize, t: f32, u: f32, v: f32) -> Option<MeshHit> {
        let [a, b, c] = self.slot(k);
        let n = (b - a).cross(c - a).normalize();
        let normal = if n.dot(ray.dir) > 0.0 { -n } else { n };
        (t.is_finite() && normal.is_finite()).then_some(MeshHit {
            t,
            triangle: self.id(k),
            u,
            v,
            normal,
        })
    }
}

/// A ray's origin and inverse direction, four times over: the slab test of four boxes at once.
struct Slabs {
    ox: Vec4,
    oy: Vec4,
    oz: Vec4,
    ix: Vec4,
    iy: Vec4,
    iz: Vec4,
}

impl Slabs {
    fn new(ray: &Ray) -> Self {
        let inv = ray.dir.recip();
        Self {
            ox: Vec4::splat(ray.origin.x),
            oy: Vec4::splat(ray.origin.y),
            oz: Vec4::splat(ray.origin.z),
            ix: Vec4::splat(inv.x),
            iy: Vec4::splat(inv.y),
            iz: Vec4::splat(inv.z),
        }
    }

    /// The used lanes of `n` whose boxes the ray enters before `best_t`, and every lane's entry distance.
    ///
    /// The slab test of four children at once, twice. A slab whose plane holds the origin of a ray parallel
    /// to it gives 0 * inf = NaN: the boxes are padded at build time, so such a ray cannot reach the
    /// triangles inside and whichever way the NaN falls is right. Ize's robust traversal ("Robust BVH
    /// Ray Traversal", JCGT 2013): the exit is widened by 1 + 2γ₃ so that rounding in the slab
    /// distances never culls a box the ray touches, however far away its origin.
    #[inline]
    fn enter(&self, n: &Wide, best_t: f32) -> (u32, [f32; WIDTH]) {
        let Self {
            ox,
            oy,
            oz,
            ix,
            iy,
            iz,
        } = *self;
        let mut nears = [0.0f32; WIDTH];
        let mut bits = 0;
        for g in 0..GROUPS {
            let (lo, hi) = (&n.min[g], &n.max[g]);
            let t1x = (lo[0] - ox) * ix;
            let t2x = (hi[0] - ox) * ix;
            let t1y = (lo[1] - oy) * iy;
            let t2y = (hi[1] - oy) * iy;
            let t1z = (lo[2] - oz) * iz;
            let t2z = (hi[2] - oz) * iz;
            let near = t1x
                .min(t2x)
                .max(t1y.min(t2y))
                .max(t1z.min(t2z))
                .max(Vec4::ZERO);
            let far = (t1x.max(t2x).min(t1y.max(t2y)).min(t1z.max(t2z)) * ROBUST_EXIT)
                .min(Vec4::splat(best_t));
            bits |= near.cmple(far).bitmask() << (4 * g);
            nears[4 * g..4 * g + 4].copy_from_slice(&near.to_array());
        }
        (bits & n.used(), nears)
    }
}

/// The nearest hit found so far: its `t` (the largest `t` still wanted until there is one) and the hit, as
/// `(slot, t, u, v)`.
struct Nearest {
    t: f32,
    hit: Option<(usize, f32, f32, f32)>,
}

impl Nearest {
    /// Test the leaf lanes `bits` of `n`, nearest first by their entry distances `nears`, so that a hit in one
    /// skips the leaves behind it (at the bottom of a big mesh a node's children are all leaves, and a grazing
    /// ray crosses several).
    #[inline]
    fn test_leaves(
        &mut self,
        wt: &Watertight,
        packets: &[Tri4],
        n: &Wide,
        bits: u32,
        nears: &[f32; WIDTH],
    ) {
        let (order, order_len) = nearest_first(bits, nears);
        for &lane in &order[..order_len] {
            let lane = usize::from(lane);
            if nears[lane] > self.t {
                break;
            }
            for (p, valid) in leaf_packets(n.first[lane], n.count[lane]) {
                for (l, t, u, v) in wt.intersect4(&packets[p], valid, self.t) {
                    // Ties (a shared edge) go to the lowest BVH slot, whatever the visiting order.
                    let k = p * 4 + l;
                    if self
                        .hit
                        .is_none_or(|(bk, bt, _, _)| t < bt || (t == bt && k < bk))
                    {
                        self.t = t;
                        self.hit = Some((k, t, u, v));
                    }
                }
            }
        }
    }
}

/// Start loading the children of `n` in the lanes `bits` (wide nodes or leaf packets).
#[inline]
fn prefetch_children(wide: &[Wide], packets: &[Tri4], n: &Wide, bits: u32) {
    let leaves = u32::from(n.leaves);
    for lane in lanes(bits) {
        let (first, count) = (n.first[lane], n.count[lane]);
        let at = first as usize;
        if leaves & (1 << lane) == 0 {
            prefetch(wide.get(at..=at).unwrap_or_default());
        } else {
            let end = at + leaf_packets(first, count).len();
            prefetch(packets.get(at..end).unwrap_or_default());
        }
    }
}

/// Push the inner children of `n` in the lanes `bits` that the ray enters (at `nears`) no later than `best_t`,
/// farthest first, so the nearest is popped next.
#[inline]
fn push_inner(
    stack: &mut Stack<(u32, f32)>,
    n: &Wide,
    bits: u32,
    nears: &[f32; WIDTH],
    best_t: f32,
) {
    if bits & (bits.wrapping_sub(1)) == 0 {
        // At most one inner child hit (the common case): no sorting.
        if bits != 0 {
            let lane = bits.trailing_zeros() as usize;
            if nears[lane] <= best_t {
                stack.push((n.first[lane], nears[lane]));
            }
        }
        return;
    }
    let (order, order_len) = nearest_first(bits, nears);
    for &lane in order[..order_len].iter().rev() {
        let lane = usize::from(lane);
        if nears[lane] <= best_t {
            stack.push((n.first[lane], nears[lane]));
        }
    }
}

/// The lanes set in `bits`, nearest first by their entry distances `nears` (an insertion sort: eight at most),
/// and how many there are.
pub(super) fn nearest_first(bits: u32, nears: &[f32; WIDTH]) -> ([u8; WIDTH], usize) {
    let mut order = [0u8; WIDTH];
    let mut len = 0;
    for lane in lanes(bits) {
        let mut j = len;
        while j > 0 && nears[usize::from(order[j - 1])] > nears[lane] {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = lane as u8;
        len += 1;
    }
    (order, len)
}

/// Per-ray constants of the watertight test: the axis permutation and shear that make the ray `+z` from the
/// origin.
struct Watertight {
    origin: Vec3,
    /// The ray's dominant axis and the two others, ordered to keep the winding: `(kx, ky, kz)`.
    k: [usize; 3],
    /// `d[kx] / d[kz]`, `d[ky] / d[kz]`, `1 / d[kz]`.
    shear: Vec3,
}

impl Watertight {
    fn new(ray: &Ray) -> Self {
        let d = ray.dir;
        let a = d.abs();
        let kz = if a.x >= a.y && a.x >= a.z {
            0
        } else if a.y >= a.z {
            1
        } else {
            2
        };
        let mut kx = (kz + 1) % 3;
        let mut ky = (kx + 1) % 3;
        // Keep the winding: swap x and y when the ray points down its z axis.
        if d[kz] < 0.0 {
            std::mem::swap(&mut kx, &mut ky);
        }
        Self {
            origin: ray.origin,
            k: [kx, ky, kz],
            shear: Vec3::new(d[kx] / d[kz], d[ky] / d[kz], 1.0 / d[kz]),
        }
    }

    /// The hits `(lane, t, u, v)` with `t <= max_t` of the lanes of `packet` in the mask `valid`: the same
    /// arithmetic as [`Watertight::intersect`] on four triangles at once (the same operations in the same
    /// order, so the same bits); lanes with an edge function exactly zero go through the scalar test and
    /// its f64 retry.
    #[inline]
    fn intersect4<'a>(
        &'a self,
        packet: &'a Tri4,
        valid: u32,
        max_t: f32,
    ) -> impl Iterator<Item = (usize, f32, f32, f32)> + use<'a> {
        let [kx, ky, kz] = self.k;
        let (ox, oy, oz) = (
            Vec4::splat(self.origin[kx]),
            Vec4::splat(self.origin[ky]),
            Vec4::splat(self.origin[kz]),
        );
        let (sx, sy) = (Vec4::splat(self.shear.x), Vec4::splat(self.shear.y));
        // Vertex `i` relative to the origin, sheared: the scalar test's operations, lane by lane.
        let rel = |i: usize| {
            let p = &packet.v[i];
            let z = p[kz] - oz;
            ((p[kx] - ox) - sx * z, (p[ky] - oy) - sy * z, z)
        };
        let (ax, ay, az) = rel(0);
        let (bx, by, bz) = rel(1);
        let (cx, cy, cz) = rel(2);
        let u = cx * by - cy * bx;
        let v = ax * cy - ay * cx;
        let w = bx * ay - by * ax;
        let zero = Vec4::ZERO;
        let exact_zero = (u.cmpeq(zero) | v.cmpeq(zero) | w.cmpeq(zero)).bitmask() & valid;
        let mixed = (u.cmplt(zero) | v.cmplt(zero) | w.cmplt(zero))
            & (u.cmpgt(zero) | v.cmpgt(zero) | w.cmpgt(zero));
        let det = u + v + w;
        let sz = Vec4::splat(self.shear.z);
        let t_scaled = u * (sz * az) + v * (sz * bz) + w * (sz * cz);
        let behind =
            (det.cmpgt(zero) & t_scaled.cmplt(zero)) | (det.cmplt(zero) & t_scaled.cmpgt(zero));
        let inv = Vec4::ONE / det;
        let t = t_scaled * inv;
        let (bu, bv) = (v * inv, w * inv);
        let ok = !(mixed | behind | det.cmpeq(zero)) & t.cmple(Vec4::splat(max_t));
        let fast = ok.bitmask() & valid & !exact_zero;
        lanes(fast | exact_zero).filter_map(move |l| {
            if exact_zero & (1 << l) != 0 {
                self.intersect(&packet.lane(l))
                    .filter(|h| h.0 <= max_t)
                    .map(|(t, u, v)| (l, t, u, v))
            } else {
                let hit = (l, t[l], bu[l], bv[l]);
                hit.1.is_finite().then_some(hit)
            }
        })
    }

    /// `(t, u, v)` of a hit on either face, or `None`.
    #[inline]
    fn intersect(&self, tri: &[Vec3; 3]) -> Option<(f32, f32, f32)> {
        let [kx, ky, kz] = self.k;
        let (o, sh) = (self.origin, self.shear);
        let rel = |p: Vec3| {
            let z = p[kz] - o[kz];
            ((p[kx] - o[kx]) - sh.x * z, (p[ky] - o[ky]) - sh.y * z, z)
        };
        let (ax, ay, az) = rel(tri[0]);
        let (bx, by, bz) = rel(tri[1]);
        let (cx, cy, cz) = rel(tri[2]);
        let mut u = cx * by - cy * bx;
        let mut v = ax * cy - ay * cx;
        let mut w = bx * ay - by * ax;
        if u == 0.0 || v == 0.0 || w == 0.0 {
            // Exactly on an edge in f32: decide in f64 so both neighbours agree.
            let (ax, ay, bx, by, cx, cy) = (
                f64::from(ax),
                f64::from(ay),
                f64::from(bx),
                f64::from(by),
                f64::from(cx),
                f64::from(cy),
            );
            u = (cx * by - cy * bx) as f32;
            v = (ax * cy - ay * cx) as f32;
            w = (bx * ay - by * ax) as f32;
        }
        if (u < 0.0 || v < 0.0 || w < 0.0) && (u > 0.0 || v > 0.0 || w > 0.0) {
            return None;
        }
        let det = u + v + w;
        if det == 0.0 {
            return None;
        }
        let t_scaled = u * (sh.z * az) + v * (sh.z * bz) + w * (sh.z * cz);
        // t >= 0 with the determinant's sign, without dividing first.
        if (det > 0.0 && t_scaled < 0.0) || (det < 0.0 && t_scaled > 0.0) {
            return None;
        }
        let inv = 1.0 / det;
        let t = t_scaled * inv;
        t.is_finite().then_some((t, v * inv, w * inv))
    }
}
