//! Ray casts: the front-to-back traversal of the eight-wide BVH with robust slab tests, and Woop, Benthin and
//! Wald's watertight ray/triangle test on packets of four triangles.

use std::cell::RefCell;

use glam::{Vec3, Vec3A, Vec4};

use super::layout::{GROUPS, Stack, Tri4, WIDTH, Wide, lanes, leaf_packets};
use super::{MeshHit, TriMesh};
use crate::pages::prefetch;
use crate::shape::Ray;

/// `1 + 2γ₃` with `γₙ = nε / (1 - nε)`, `ε = 2⁻²⁴`: the exit-distance widening of a robust slab test.
const ROBUST_EXIT: f32 = 1.0 + 2.0 * (3.0 * f32::EPSILON * 0.5) / (1.0 - 3.0 * f32::EPSILON * 0.5);
/// How far past the best hit so far a box may begin and still be opened: 32 ulps. A triangle at a shared
/// vertex or edge meets the ray where its neighbours do, but the slab test rounds its leaf box's entry up by a
/// few ulps, and the watertight test rounds each triangle's `t` a little differently: without this slack a
/// neighbour whose `t` rounds an ulp lower could sit in a box that rounds just past the best hit and never be
/// tested. Opening such boxes costs a few leaf tests on rays through shared vertices and edges, and the answer
/// is the nearest `t` of every triangle, bit for bit.
const REACH: f32 = 1.0 + 32.0 * f32::EPSILON;

/// The largest box entry still worth opening while the best hit is at `t` (see [`REACH`]).
#[inline(always)]
fn reach(t: f32) -> f32 {
    t * REACH
}

/// Trees smaller than this are not prefetched: they stay in the L2 cache of the CPUs we run on, where a
/// prefetch only costs instructions (the bunny's 220 KB: about 5% faster without, alternating runs).
const PREFETCH_MIN_BYTES: usize = 512 << 10;

thread_local! {
    /// Each thread's traversal stack of (wide node, entry `t`), kept from ray to ray: a fresh one would write
    /// its whole inline array first (a `memset` of 256 bytes, 6% of a ray's instructions on the bunny), and a
    /// deep ray's heap spill keeps its memory for the next.
    static TRAVERSAL: RefCell<Stack<(u32, f32)>> = const { RefCell::new(Stack::new((0, 0.0))) };
}

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
    /// Watertight: rays through shared edges and vertices never slip between triangles. Where several
    /// triangles meet the ray at one point (a shared edge or vertex) the answer is one of them, always the
    /// same one for the same mesh and ray: the lowest BVH slot among the nearest the traversal tests. Its `t`
    /// is the smallest any triangle's watertight test gives, bit for bit: boxes beginning up to 32 ulps past
    /// the best hit are still opened, so a neighbour whose leaf box rounds just past it is tested too.
    /// An invalid ray or a NaN/negative `max_t` gives `None`.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray, max_t: f32) -> Option<MeshHit> {
        if !ray.is_valid() || !(max_t >= 0.0) {
            return None;
        }
        TRAVERSAL
            .try_with(|stack| match stack.try_borrow_mut() {
                Ok(mut stack) => {
                    stack.clear();
                    Some(self.traverse(ray, max_t, &mut stack))
                }
                // Only if a traversal were running on this thread already, which cannot happen (it calls no
                // code of the caller's).
                Err(_) => None,
            })
            .ok()
            .flatten()
            // That case, and a cast from a thread-local's destructor after this thread's stack is gone: a
            // fresh stack.
            .unwrap_or_else(|| self.traverse(ray, max_t, &mut Stack::new((0, 0.0))))
    }

    /// [`TriMesh::cast_ray`] for a valid ray and `max_t`, with an empty traversal stack.
    #[inline(always)]
    fn traverse(&self, ray: &Ray, max_t: f32, stack: &mut Stack<(u32, f32)>) -> Option<MeshHit> {
        let wt = Watertight::new(ray);
        let slabs = Slabs::new(ray);
        let mut best = Nearest {
            t: max_t,
            hit: None,
        };
        let (wide, packets) = (&*self.wide, &*self.packets);
        // `bvh_bytes` from the slices at hand (each `Pages` deref is a match on its storage).
        let prefetching = size_of_val(wide) + size_of_val(packets) >= PREFETCH_MIN_BYTES;
        // (wide node, entry t) still to visit, nearest on top. The node being visited is not on it: a node
        // goes straight on to its nearest inner child, so a ray that enters one child per level (the common
        // case) never touches the stack on its way down.
        let mut node = Some(0u32);
        while let Some(w) = node.take().or_else(|| next_on_stack(stack, reach(best.t))) {
            let n = &wide[w as usize];
            let (bits, nears) = slabs.enter(n, reach(best.t));
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
            node = descend(stack, n, bits & !leaves, &nears, reach(best.t));
        }
        best.hit
            .and_then(|(k, t, u, v)| self.finish_hit(ray, k, t, u, v))
    }

    /// The public hit for triangle slot `k` of the BVH order.
    #[inline(always)]
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
    /// Per axis, the side of a box (0: lower corner, 1: upper) whose plane the ray crosses first: the lower
    /// one when the inverse direction is positive (`+inf` included), else the upper one.
    near: [usize; 3],
}

impl Slabs {
    /// The constants of a ray: the reciprocal direction is one vector division (`Vec3::recip` would be three
    /// scalar ones, with the same quotients).
    #[inline(always)]
    fn new(ray: &Ray) -> Self {
        let inv = Vec3::from(Vec3A::from(ray.dir).recip());
        Self {
            ox: Vec4::splat(ray.origin.x),
            oy: Vec4::splat(ray.origin.y),
            oz: Vec4::splat(ray.origin.z),
            ix: Vec4::splat(inv.x),
            iy: Vec4::splat(inv.y),
            iz: Vec4::splat(inv.z),
            near: [
                usize::from(inv.x.is_sign_negative()),
                usize::from(inv.y.is_sign_negative()),
                usize::from(inv.z.is_sign_negative()),
            ],
        }
    }

    /// The used lanes of `n` whose boxes the ray enters before `best_t`, and every lane's entry distance.
    ///
    /// The slab test of four children at once, twice. Rounding is monotone, so along an axis the plane on the
    /// ray's near side gives the smaller distance of the two whatever the numbers: each axis computes only
    /// its entry from the near plane and its exit from the far one (Embree's node test), with the bits the
    /// `min` and `max` of both would give. A slab whose plane holds the origin of a ray parallel to it gives
    /// 0 * inf = NaN: the boxes are padded at build time, so such a ray cannot reach the triangles inside and
    /// whichever way the NaN falls is right. Ize's robust traversal ("Robust BVH Ray Traversal", JCGT 2013):
    /// the exit is widened by 1 + 2γ₃ so that rounding in the slab distances never culls a box the ray
    /// touches, however far away its origin.
    #[inline(always)]
    fn enter(&self, n: &Wide, best_t: f32) -> (u32, [f32; WIDTH]) {
        let Self {
            ox,
            oy,
            oz,
            ix,
            iy,
            iz,
            near: [nx, ny, nz],
        } = *self;
        let (near_side, far_side) = (
            [&n.bounds[nx], &n.bounds[ny], &n.bounds[nz]],
            [&n.bounds[1 - nx], &n.bounds[1 - ny], &n.bounds[1 - nz]],
        );
        let mut nears = [0.0f32; WIDTH];
        let mut bits = 0;
        for g in 0..GROUPS {
            let tnx = (near_side[0][g][0] - ox) * ix;
            let tny = (near_side[1][g][1] - oy) * iy;
            let tnz = (near_side[2][g][2] - oz) * iz;
            let tfx = (far_side[0][g][0] - ox) * ix;
            let tfy = (far_side[1][g][1] - oy) * iy;
            let tfz = (far_side[2][g][2] - oz) * iz;
            let near = tnx.max(tny).max(tnz).max(Vec4::ZERO);
            let far = (tfx.min(tfy).min(tfz) * ROBUST_EXIT).min(Vec4::splat(best_t));
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
    /// Take the hit `(t, u, v)` on triangle slot `k` if it is nearer than the best so far, or as near and
    /// earlier in BVH order (so among the tied triangles tested the lowest slot wins, whatever the visiting
    /// order), or the first hit within the largest `t` wanted.
    #[inline(always)]
    fn offer(&mut self, k: usize, t: f32, u: f32, v: f32) {
        if t < self.t || (t == self.t && self.hit.is_none_or(|(bk, ..)| k < bk)) {
            self.t = t;
            self.hit = Some((k, t, u, v));
        }
    }

    /// Test the leaf lanes `bits` of `n`, nearest first by their entry distances `nears`, so that a hit in one
    /// skips the leaves behind it (at the bottom of a big mesh a node's children are all leaves, and a grazing
    /// ray crosses several).
    #[inline(always)]
    fn test_leaves(
        &mut self,
        wt: &Watertight,
        packets: &[Tri4],
        n: &Wide,
        bits: u32,
        nears: &[f32; WIDTH],
    ) {
        if bits & bits.wrapping_sub(1) == 0 {
            // No leaf, or one (the slab test already kept it within the best `t`): nothing to order.
            if bits != 0 {
                self.test_leaf(wt, packets, n, bits.trailing_zeros() as usize);
            }
            return;
        }
        if let Some((near, far)) = two_nearest_first(bits, nears) {
            // Two (common at the bottom of the tree): one comparison instead of the sort.
            self.test_leaf(wt, packets, n, near);
            if nears[far] <= reach(self.t) {
                self.test_leaf(wt, packets, n, far);
            }
            return;
        }
        let (order, order_len) = nearest_first(bits, nears);
        for &lane in &order[..order_len] {
            let lane = usize::from(lane);
            if nears[lane] > reach(self.t) {
                break;
            }
            self.test_leaf(wt, packets, n, lane);
        }
    }

    /// Test the triangles of the leaf in lane `lane` of `n`.
    #[inline(always)]
    fn test_leaf(&mut self, wt: &Watertight, packets: &[Tri4], n: &Wide, lane: usize) {
        for (p, valid) in leaf_packets(n.first[lane], n.count[lane]) {
            wt.intersect4(&packets[p], p, valid, self);
        }
    }
}

/// Start loading the children of `n` in the lanes `bits` (wide nodes or leaf packets).
#[inline(always)]
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

/// The next node to visit below `n`: the nearest of its inner children in the lanes `bits` that the ray enters
/// (at `nears`) no later than `best_t`, with the others pushed farthest first, so the nearest of them is popped
/// next. `None` when no inner child is entered in time.
#[inline(always)]
fn descend(
    stack: &mut Stack<(u32, f32)>,
    n: &Wide,
    bits: u32,
    nears: &[f32; WIDTH],
    best_t: f32,
) -> Option<u32> {
    if bits & bits.wrapping_sub(1) == 0 {
        // At most one inner child hit (the common case): no sorting, no stack.
        let lane = bits.trailing_zeros() as usize;
        return (bits != 0 && nears[lane] <= best_t).then(|| n.first[lane]);
    }
    if let Some((near, far)) = two_nearest_first(bits, nears) {
        // Two (the next most common case): one comparison instead of the sort.
        if nears[near] > best_t {
            return None;
        }
        if nears[far] <= best_t {
            stack.push((n.first[far], nears[far]));
        }
        return Some(n.first[near]);
    }
    let (order, order_len) = nearest_first(bits, nears);
    let nearest = usize::from(order[0]);
    if nears[nearest] > best_t {
        return None; // Nor any farther one.
    }
    for &lane in order[1..order_len].iter().rev() {
        let lane = usize::from(lane);
        if nears[lane] <= best_t {
            stack.push((n.first[lane], nears[lane]));
        }
    }
    Some(n.first[nearest])
}

/// Pop the stack down to the nearest node the ray still enters within `best_t` (entries pushed before a nearer
/// hit shrank it are dropped).
#[inline(always)]
fn next_on_stack(stack: &mut Stack<(u32, f32)>, best_t: f32) -> Option<u32> {
    while let Some((w, entry)) = stack.pop() {
        if entry <= best_t {
            return Some(w);
        }
    }
    None
}

/// The two lanes set in `bits` when there are exactly two, nearer first by their entry distances `nears` and
/// the lower lane on a tie (as [`nearest_first`] orders them); `None` for three or more. `bits` has at least
/// two lanes set (the callers have dealt with fewer).
#[inline(always)]
fn two_nearest_first(bits: u32, nears: &[f32; WIDTH]) -> Option<(usize, usize)> {
    debug_assert!(bits.count_ones() >= 2, "{bits:b}");
    let rest = bits & (bits - 1);
    if rest & (rest - 1) != 0 {
        return None;
    }
    let (a, b) = (
        bits.trailing_zeros() as usize,
        rest.trailing_zeros() as usize,
    );
    Some(if nears[b] < nears[a] { (b, a) } else { (a, b) })
}

/// The lanes set in `bits`, nearest first by their entry distances `nears` (ties in lane order), and how many
/// there are. An insertion sort of eight keys at most: each key is a distance's bits above its lane, and
/// distances (never negative: the slab test clamps them at `+0`) order as their bits do.
#[inline(always)]
pub(super) fn nearest_first(bits: u32, nears: &[f32; WIDTH]) -> ([u8; WIDTH], usize) {
    let mut keys = [0u64; WIDTH];
    let mut len = 0;
    for lane in lanes(bits) {
        let key = (u64::from(nears[lane].to_bits()) << 3) | lane as u64;
        let mut j = len;
        while j > 0 && keys[j - 1] > key {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = key;
        len += 1;
    }
    (keys.map(|k| (k & 7) as u8), len)
}

/// Per-ray constants of the watertight test: the axis permutation and shear that make the ray `+z` from the
/// origin, and the same splatted over four lanes for [`Watertight::intersect4`].
struct Watertight {
    origin: Vec3,
    /// The ray's dominant axis and the two others, ordered to keep the winding: `(kx, ky, kz)`.
    k: [usize; 3],
    /// `d[kx] / d[kz]`, `d[ky] / d[kz]`, `1 / d[kz]`.
    shear: Vec3,
    /// `origin[kx]`, `origin[ky]`, `origin[kz]`, four times each.
    origin4: [Vec4; 3],
    /// `shear.x`, `shear.y`, `shear.z`, four times each.
    shear4: [Vec4; 3],
}

impl Watertight {
    /// The constants of a valid ray (finite, non-zero direction). Written without branches on the direction,
    /// which incoherent rays would mispredict: the axis choice and the winding swap are selects, and the three
    /// divisions are one vector division (each lane the same IEEE quotient as a scalar one).
    #[inline(always)]
    fn new(ray: &Ray) -> Self {
        /// The axis after each axis, cyclically.
        const NEXT: [usize; 3] = [1, 2, 0];
        let d = ray.dir.to_array();
        let a = ray.dir.abs();
        let x_largest = (a.x >= a.y) & (a.x >= a.z);
        let kz = if x_largest {
            0
        } else {
            1 + usize::from(!(a.y >= a.z))
        };
        let (next, after) = (NEXT[kz], NEXT[NEXT[kz]]);
        // Keep the winding: swap x and y when the ray points down its z axis.
        let (kx, ky) = if d[kz] < 0.0 {
            (after, next)
        } else {
            (next, after)
        };
        let shear = Vec3::from(Vec3A::new(d[kx], d[ky], 1.0) / Vec3A::splat(d[kz]));
        let o = ray.origin.to_array();
        Self {
            origin: ray.origin,
            k: [kx, ky, kz],
            shear,
            origin4: [Vec4::splat(o[kx]), Vec4::splat(o[ky]), Vec4::splat(o[kz])],
            shear4: [
                Vec4::splat(shear.x),
                Vec4::splat(shear.y),
                Vec4::splat(shear.z),
            ],
        }
    }

    /// Offer `best` the hits of the lanes of `packet` (packet `p` of the BVH order) in the mask `valid`: the
    /// same arithmetic as [`Watertight::intersect`] on four triangles at once (the same operations in the
    /// same order, so the same bits); lanes with an edge function exactly zero go through the scalar test and
    /// its f64 retry.
    #[inline(always)]
    fn intersect4(&self, packet: &Tri4, p: usize, valid: u32, best: &mut Nearest) {
        let [kx, ky, kz] = self.k;
        let [ox, oy, oz] = self.origin4;
        let [sx, sy, sz] = self.shear4;
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
        // Some edge function negative and some positive: outside. (A NaN lane may fall either way here; its
        // `t` is NaN below, which no comparison with the best `t` accepts.)
        let mixed = u.min(v).min(w).cmplt(zero) & u.max(v).max(w).cmpgt(zero);
        if exact_zero != 0 {
            self.offer_exact(packet, p, exact_zero, best);
        }
        // Most packets a ray reaches it misses in all four lanes, which the edge functions' signs already say:
        // then the determinant, the distance and the division (the end of the longest chain) are skipped.
        let inside = !mixed.bitmask() & valid & !exact_zero;
        if inside == 0 {
            return;
        }
        let det = u + v + w;
        let t_scaled = u * (sz * az) + v * (sz * bz) + w * (sz * cz);
        let behind =
            (det.cmpgt(zero) & t_scaled.cmplt(zero)) | (det.cmplt(zero) & t_scaled.cmpgt(zero));
        let inv = Vec4::ONE / det;
        let t = t_scaled * inv;
        let ok = !(behind | det.cmpeq(zero)) & t.cmple(Vec4::splat(best.t));
        let fast = ok.bitmask() & inside;
        if fast != 0 {
            // Lanes of arrays, not of `Vec4`s: a `Vec4` indexed by a run-time lane is a jump table, whose
            // indirect jump the hit lane (anything from 0 to 3) mispredicts.
            let (t, bu, bv) = (t.to_array(), (v * inv).to_array(), (w * inv).to_array());
            for l in lanes(fast) {
                if t[l].is_finite() {
                    best.offer(p * 4 + l, t[l], bu[l], bv[l]);
                }
            }
        }
    }

    /// Offer `best` the hits of the lanes `bits` of packet `p`, whose f32 edge functions have an exact zero:
    /// the scalar test decides them (in f64 where needed). Rare, so kept out of the traversal's loop.
    #[cold]
    #[inline(never)]
    fn offer_exact(&self, packet: &Tri4, p: usize, bits: u32, best: &mut Nearest) {
        for l in lanes(bits) {
            if let Some((t, u, v)) = self.intersect(&packet.lane(l)) {
                best.offer(p * 4 + l, t, u, v);
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::SplitMix64;

    /// The hits of the scalar watertight test on every triangle slot within `max_t`, as the public hits the
    /// traversal would give for them.
    fn brute_force(mesh: &TriMesh, ray: &Ray, max_t: f32) -> Vec<MeshHit> {
        let wt = Watertight::new(ray);
        (0..mesh.packets.len() * 4)
            .filter(|&k| mesh.id(k) != u32::MAX)
            .filter_map(|k| {
                let (t, u, v) = wt.intersect(&mesh.slot(k)).filter(|h| h.0 <= max_t)?;
                mesh.finish_hit(ray, k, t, u, v)
            })
            .collect()
    }

    fn bits(h: &MeshHit) -> [u32; 7] {
        let n = h.normal.to_array().map(f32::to_bits);
        [
            h.t.to_bits(),
            h.u.to_bits(),
            h.v.to_bits(),
            h.triangle,
            n[0],
            n[1],
            n[2],
        ]
    }

    #[test]
    fn traversal_equals_the_scalar_test_on_every_triangle_bit_for_bit() {
        // A bumpy 16 x 16 grid (shared edges and vertices everywhere), rays from all around aimed at random
        // points, vertices and edge midpoints, some along axes or grazing, some with a short max_t.
        let w = 17;
        let mut rng = SplitMix64::new(41);
        let vertices: Vec<Vec3> = (0..w * w)
            .map(|i| Vec3::new((i % w) as f32, rng.range(-0.5, 0.5), (i / w) as f32))
            .collect();
        let mut indices = Vec::new();
        for z in 0..w - 1 {
            for x in 0..w - 1 {
                let i = (z * w + x) as u32;
                let w = w as u32;
                indices.push([i, i + w, i + 1]);
                indices.push([i + 1, i + w, i + w + 1]);
            }
        }
        let mesh = TriMesh::new(vertices.clone(), indices.clone()).unwrap();
        let (mut hits, mut rays, mut ties) = (0, 0, 0);
        for i in 0..6_000u32 {
            let o = Vec3::new(
                rng.range(-4.0, 20.0),
                rng.range(-6.0, 6.0),
                rng.range(-4.0, 20.0),
            );
            let [a, b, _] =
                indices[rng.next_u64() as usize % indices.len()].map(|k| vertices[k as usize]);
            let target = match i % 3 {
                0 => a,
                1 => (a + b) * 0.5,
                _ => Vec3::new(
                    rng.range(0.0, 16.0),
                    rng.range(-0.5, 0.5),
                    rng.range(0.0, 16.0),
                ),
            };
            let mut d = target - o;
            if i % 7 == 0 {
                d.x = 0.0;
            }
            if i % 11 == 0 {
                d.y *= 1e-3;
            }
            if d == Vec3::ZERO {
                continue;
            }
            let ray = Ray::new(o, d);
            let max_t = if i % 5 == 0 {
                rng.range(0.0, 1.0)
            } else {
                f32::INFINITY
            };
            // The nearest t, bit for bit; among triangles at exactly that t the traversal may answer any
            // one, but always with exactly the scalar test's numbers for it.
            let fast = mesh.cast_ray(&ray, max_t);
            let all = brute_force(&mesh, &ray, max_t);
            let nearest = all.iter().map(|h| h.t).min_by(f32::total_cmp);
            assert_eq!(
                fast.map(|h| h.t.to_bits()),
                nearest.map(f32::to_bits),
                "{ray:?}, max_t {max_t}"
            );
            if let Some(fast) = fast {
                assert!(
                    all.iter().any(|h| bits(h) == bits(&fast)),
                    "{ray:?}, max_t {max_t}: {fast:?} is not the scalar test's answer for its triangle"
                );
                ties += usize::from(all.iter().filter(|h| h.t == fast.t).count() > 1);
            }
            hits += usize::from(fast.is_some());
            rays += 1;
        }
        // The cases are not trivial: many rays hit, many miss, and many hit a shared edge or vertex.
        assert!(hits > rays / 4 && hits < rays * 9 / 10, "{hits} of {rays}");
        assert!(ties > rays / 20, "{ties} ties in {rays} rays");
    }

    /// The thread's traversal stack is reused from ray to ray: every ray leaves it empty (a traversal ends only
    /// when its stack is drained), and every answer equals a traversal with a fresh stack, bit for bit. A fan
    /// of 2,000 triangles sharing an edge (a deep tree, many pushes) and random rays in turn.
    #[test]
    fn the_reused_traversal_stack_carries_nothing_from_one_ray_to_the_next() {
        let n = 2_000u32;
        let mut vertices = vec![Vec3::new(-10.0, 10.0, -10.0), Vec3::new(10.0, -10.0, 10.0)];
        vertices.extend((0..n).map(|k| {
            Vec3::new(
                ((k * 37) % 101) as f32 / 50.0 - 1.0,
                -10.0 + 20.0 * (k as f32 + 0.5) / n as f32,
                ((k * 61) % 103) as f32 / 51.5 - 1.0,
            )
        }));
        let indices: Vec<[u32; 3]> = (0..n).map(|k| [0, 1, k + 2]).collect();
        let mesh = TriMesh::new(vertices, indices).unwrap();
        let deep = Ray::new(Vec3::new(-7.0, -26.0, -13.0), Vec3::new(6.0, 26.0, 13.0));
        let mut fresh = Stack::new((0, 0.0));
        let mut rng = SplitMix64::new(3);
        for i in 0..400 {
            let ray = if i % 2 == 0 {
                deep
            } else {
                let o = Vec3::new(
                    rng.range(-30.0, 30.0),
                    rng.range(-30.0, 30.0),
                    rng.range(-30.0, 30.0),
                );
                Ray::new(
                    o,
                    Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 1.0) - o * 0.05,
                )
            };
            let reused = mesh.cast_ray(&ray, f32::INFINITY);
            fresh.clear();
            let alone = mesh.traverse(&ray, f32::INFINITY, &mut fresh);
            assert_eq!(reused.map(|h| bits(&h)), alone.map(|h| bits(&h)), "{ray:?}");
            assert!(TRAVERSAL.with_borrow(|s| s.len == 0 && s.spill.is_empty()));
        }
    }

    /// Bug: through a vertex of this grid the slab test rounded a neighbour's leaf box just past the hit, the
    /// leaf was never opened, and the answer's `t` was an ulp above that neighbour's (1065353215 against
    /// 1065353214). Boxes within [`REACH`] of the best hit are opened now.
    #[test]
    fn a_neighbour_whose_box_rounds_past_the_hit_is_still_tested() {
        let n = 16u32;
        let w = n + 1;
        let vertices: Vec<Vec3> = (0..w * w)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                Vec3::new(x as f32, ((x * 7 + y * 13) % 5) as f32 * 0.1, y as f32)
            })
            .collect();
        let mut indices = Vec::new();
        for y in 0..n {
            for x in 0..n {
                let i = y * w + x;
                indices.push([i, i + w, i + 1]);
                indices.push([i + 1, i + w, i + w + 1]);
            }
        }
        let mesh = TriMesh::new(vertices, indices).unwrap();
        let ray = Ray::new(
            Vec3::new(10.454_384, 2.975_349_4, -1.514_516_4),
            Vec3::new(-7.454_384, -2.575_349_3, 7.514_516_4),
        );
        let nearest = brute_force(&mesh, &ray, f32::INFINITY)
            .iter()
            .map(|h| h.t)
            .min_by(f32::total_cmp)
            .unwrap();
        assert_eq!(nearest.to_bits(), 1_065_353_214);
        let hit = mesh.cast_ray(&ray, f32::INFINITY).unwrap();
        assert_eq!(hit.t.to_bits(), nearest.to_bits(), "{hit:?}");
        // And 20,000 more rays like it: from above the grid's side through its vertices and edge midpoints.
        let mut rng = SplitMix64::new(7);
        for i in 0..20_000 {
            let o = Vec3::new(
                rng.range(-2.0, 18.0),
                rng.range(0.5, 4.0),
                rng.range(-2.0, 18.0),
            );
            let (x, y) = (rng.next_u64() % 16, rng.next_u64() % 16);
            let h = |x: u64, y: u64| ((x * 7 + y * 13) % 5) as f32 * 0.1;
            let a = Vec3::new(x as f32, h(x, y), y as f32);
            let b = Vec3::new((x + 1) as f32, h(x + 1, y), y as f32);
            let target = if i % 2 == 0 { a } else { (a + b) * 0.5 };
            let ray = Ray::new(o, target - o);
            let nearest = brute_force(&mesh, &ray, f32::INFINITY)
                .iter()
                .map(|h| h.t)
                .min_by(f32::total_cmp);
            let fast = mesh.cast_ray(&ray, f32::INFINITY).map(|h| h.t);
            assert_eq!(fast.map(f32::to_bits), nearest.map(f32::to_bits), "{ray:?}");
        }
    }
}
