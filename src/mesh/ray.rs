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
        let raw = TRAVERSAL
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
            .unwrap_or_else(|| self.traverse(ray, max_t, &mut Stack::new((0, 0.0))));
        self.finish_hit(ray, raw)
    }

    /// [`TriMesh::cast_ray`] for a valid ray and `max_t`, with an empty traversal stack: the traversal
    /// compiled for AVX2 (each node's eight boxes tested in one 256-bit vector, [`Slabs::enter8`]) when the
    /// CPU has it, else the baseline one (two groups of four, [`Slabs::enter`]). Both give the same bits.
    fn traverse(&self, ray: &Ray, max_t: f32, stack: &mut Stack<(u32, f32)>) -> RawHit {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = Avx2::detect() {
            // SAFETY: `traverse_avx2` needs AVX2, which `Avx2::detect` just found.
            #[expect(unsafe_code)]
            return unsafe { self.traverse_avx2(avx2, ray, max_t, stack) };
        }
        self.traverse_with(Baseline, ray, max_t, stack)
    }

    /// [`TriMesh::traverse_with`] with the eight-lane node test, compiled for AVX2 (calling it is `unsafe`
    /// only in that the CPU must have AVX2, which the token proves).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn traverse_avx2(
        &self,
        avx2: Avx2,
        ray: &Ray,
        max_t: f32,
        stack: &mut Stack<(u32, f32)>,
    ) -> RawHit {
        self.traverse_with(avx2, ray, max_t, stack)
    }

    /// The traversal, with the node test `test` (each node's boxes in two groups of four, or eight lanes
    /// at once).
    #[inline(always)]
    fn traverse_with(
        &self,
        test: impl NodeTest,
        ray: &Ray,
        max_t: f32,
        stack: &mut Stack<(u32, f32)>,
    ) -> RawHit {
        let wt = Watertight::new(ray);
        let slabs = Slabs::new(ray);
        let mut best = Nearest {
            t: max_t,
            reach: reach(max_t),
            hit: None,
        };
        let (wide, packets) = (&*self.wide, &*self.packets);
        // `bvh_bytes` from the slices at hand (each `Pages` deref is a match on its storage).
        let prefetching = size_of_val(wide) + size_of_val(packets) >= PREFETCH_MIN_BYTES;
        // (wide node, entry t) still to visit, nearest on top. The node being visited is not on it: a node
        // goes straight on to its nearest inner child, so a ray that enters one child per level (the common
        // case) never touches the stack on its way down.
        let mut node = Some(0u32);
        while let Some(w) = node.take().or_else(|| next_on_stack(stack, best.reach)) {
            let n = &wide[w as usize];
            let (bits, nears) = test.enter(&slabs, n, best.reach);
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
            node = descend(stack, n, bits & !leaves, &nears, best.reach);
        }
        best.hit.map_or(RawHit::MISS, |(k, t, u, v)| {
            // Slots are below `u32::MAX`: a mesh has at most `MAX_TRIANGLES` (2^26) triangles, so at most 2^28
            // slots with the packets' padding.
            RawHit::new(u32::try_from(k).unwrap_or(u32::MAX), t, u, v)
        })
    }

    /// The public hit for a traversal's raw hit.
    #[inline(always)]
    fn finish_hit(&self, ray: &Ray, raw: RawHit) -> Option<MeshHit> {
        let (slot, t, u, v) = raw.parts();
        if slot == u32::MAX {
            return None;
        }
        let (p, lane) = (slot as usize / 4, slot as usize % 4);
        // One look-up of the packet for the triangle and its index (`slot` and `id` each dereference the
        // packet storage and check the bound).
        let packet = &self.packets[p];
        let [a, b, c] = packet.lane(lane);
        let n = (b - a).cross(c - a).normalize();
        let normal = if n.dot(ray.dir) > 0.0 { -n } else { n };
        (t.is_finite() && normal.is_finite()).then_some(MeshHit {
            t,
            triangle: packet.id[lane],
            u,
            v,
            normal,
        })
    }
}

/// A traversal's answer: the nearest hit's triangle slot in BVH order and its `t`, `u`, `v` (slot `u32::MAX`:
/// no hit), packed in two `u64`s so that it comes back in two registers. A traversal returning the whole
/// `Option<MeshHit>` through the stack had 7% of a bunny ray's profile samples on copying it, and a struct
/// of four 32-bit fields is returned through memory too: written as four 4-byte stores, then read back as
/// one 16-byte load, which cannot be forwarded from them (a stall on every ray).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RawHit(u64, u64);

impl RawHit {
    /// No hit (no slot is `u32::MAX`).
    const MISS: Self = Self::new(u32::MAX, f32::NAN, f32::NAN, f32::NAN);

    #[inline(always)]
    const fn new(slot: u32, t: f32, u: f32, v: f32) -> Self {
        Self(
            ((slot as u64) << 32) | t.to_bits() as u64,
            ((u.to_bits() as u64) << 32) | v.to_bits() as u64,
        )
    }

    /// `(slot, t, u, v)`.
    #[inline(always)]
    fn parts(self) -> (u32, f32, f32, f32) {
        let low = |x: u64| f32::from_bits(x as u32);
        (
            (self.0 >> 32) as u32,
            low(self.0),
            low(self.1 >> 32),
            low(self.1),
        )
    }
}

/// A node test: which lanes of a wide node a ray enters before a limit, and every lane's entry distance.
trait NodeTest: Copy {
    fn enter(self, slabs: &Slabs, n: &Wide, limit: f32) -> (u32, [f32; WIDTH]);
}

/// The node test every CPU runs: [`Slabs::enter`], two groups of four lanes.
#[derive(Clone, Copy)]
struct Baseline;

impl NodeTest for Baseline {
    #[inline(always)]
    fn enter(self, slabs: &Slabs, n: &Wide, limit: f32) -> (u32, [f32; WIDTH]) {
        slabs.enter(n, limit)
    }
}

/// Proof that the CPU has AVX2: only [`Avx2::detect`] makes one (the field is private to this module), so
/// the eight-lane node test it runs, [`Slabs::enter8`], cannot be reached on a CPU without it.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// `Some` when this CPU has AVX2 (the standard library caches the answer).
    #[inline(always)]
    fn detect() -> Option<Self> {
        std::arch::is_x86_feature_detected!("avx2").then_some(Self(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl NodeTest for Avx2 {
    #[inline(always)]
    fn enter(self, slabs: &Slabs, n: &Wide, limit: f32) -> (u32, [f32; WIDTH]) {
        // SAFETY: `enter8` needs AVX2; an `Avx2` exists only where `Avx2::detect` found it.
        #[expect(unsafe_code)]
        unsafe {
            slabs.enter8(n, limit)
        }
    }
}

/// A ray's origin and inverse direction, per axis, for the slab tests (each splats them over its lanes).
struct Slabs {
    origin: [f32; 3],
    inverse: [f32; 3],
    /// Per axis, the side of a box (0: lower corner, 1: upper) whose plane the ray crosses first: the lower
    /// one when the inverse direction is positive (`+inf` included), else the upper one.
    near: [usize; 3],
}

impl Slabs {
    /// The constants of a ray: the reciprocal direction is one vector division (`Vec3::recip` would be three
    /// scalar ones, with the same quotients).
    #[inline(always)]
    fn new(ray: &Ray) -> Self {
        let inverse = Vec3::from(Vec3A::from(ray.dir).recip()).to_array();
        Self {
            origin: ray.origin.to_array(),
            inverse,
            near: inverse.map(|i| usize::from(i.is_sign_negative())),
        }
    }

    /// [`Slabs::enter`] on all eight lanes at once in 256-bit vectors: the same operations on the same
    /// operands in the same order, lane by lane, so the same bits (an axis's two groups of four are adjacent
    /// in the node: one 32-byte load).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    fn enter8(&self, n: &Wide, best_t: f32) -> (u32, [f32; WIDTH]) {
        use std::arch::x86_64::{
            __m256, _CMP_LE_OQ, _mm256_cmp_ps, _mm256_max_ps, _mm256_min_ps, _mm256_movemask_ps,
            _mm256_mul_ps, _mm256_set1_ps, _mm256_setzero_ps, _mm256_sub_ps,
        };
        let [nx, ny, nz] = self.near;
        let origin = self.origin.map(|x| _mm256_set1_ps(x));
        let inverse = self.inverse.map(|x| _mm256_set1_ps(x));
        let slab = |side: usize, axis: usize| {
            let plane = bytemuck::cast::<[Vec4; GROUPS], __m256>(n.bounds[side][axis]);
            _mm256_mul_ps(_mm256_sub_ps(plane, origin[axis]), inverse[axis])
        };
        let (tnx, tny, tnz) = (slab(nx, 0), slab(ny, 1), slab(nz, 2));
        let (tfx, tfy, tfz) = (slab(1 - nx, 0), slab(1 - ny, 1), slab(1 - nz, 2));
        let near = _mm256_max_ps(
            _mm256_max_ps(_mm256_max_ps(tnx, tny), tnz),
            _mm256_setzero_ps(),
        );
        let far = _mm256_min_ps(
            _mm256_mul_ps(
                _mm256_min_ps(_mm256_min_ps(tfx, tfy), tfz),
                _mm256_set1_ps(ROBUST_EXIT),
            ),
            _mm256_set1_ps(best_t),
        );
        let bits = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_LE_OQ>(near, far)).cast_unsigned();
        (bits & n.used(), bytemuck::cast(near))
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
        let [nx, ny, nz] = self.near;
        let [ox, oy, oz] = self.origin.map(Vec4::splat);
        let [ix, iy, iz] = self.inverse.map(Vec4::splat);
        let (near_side, far_side) = (
            [&n.bounds[nx], &n.bounds[ny], &n.bounds[nz]],
            [&n.bounds[1 - nx], &n.bounds[1 - ny], &n.bounds[1 - nz]],
        );
        let mut nears = [0.0f32; WIDTH];
        let mut bits = 0;
        for g in 0..GROUPS {
            let tnx = (near_side[0][0][g] - ox) * ix;
            let tny = (near_side[1][1][g] - oy) * iy;
            let tnz = (near_side[2][2][g] - oz) * iz;
            let tfx = (far_side[0][0][g] - ox) * ix;
            let tfy = (far_side[1][1][g] - oy) * iy;
            let tfz = (far_side[2][2][g] - oz) * iz;
            let near = tnx.max(tny).max(tnz).max(Vec4::ZERO);
            let far = (tfx.min(tfy).min(tfz) * ROBUST_EXIT).min(Vec4::splat(best_t));
            bits |= near.cmple(far).bitmask() << (4 * g);
            nears[4 * g..4 * g + 4].copy_from_slice(&near.to_array());
        }
        (bits & n.used(), nears)
    }
}

/// The nearest hit found so far: its `t` (the largest `t` still wanted until there is one) and the hit, as
/// `(slot, t, u, v)`, and the largest box entry still worth opening (`reach(t)`, set wherever `t` changes
/// rather than multiplied out at each of its uses: 0.8% fewer instructions a bunny ray).
struct Nearest {
    t: f32,
    reach: f32,
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
            self.reach = reach(t);
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
            if nears[far] <= self.reach {
                self.test_leaf(wt, packets, n, far);
            }
            return;
        }
        let (order, order_len) = nearest_first(bits, nears);
        for &lane in &order[..order_len] {
            let lane = usize::from(lane);
            if nears[lane] > self.reach {
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
/// (at `nears`) no later than `limit` (the best hit's reach), with the others pushed farthest first, so the
/// nearest of them is popped next. `None` when no inner child is entered in time.
#[inline(always)]
fn descend(
    stack: &mut Stack<(u32, f32)>,
    n: &Wide,
    bits: u32,
    nears: &[f32; WIDTH],
    limit: f32,
) -> Option<u32> {
    if bits & bits.wrapping_sub(1) == 0 {
        // At most one inner child hit (the common case): no sorting, no stack.
        let lane = bits.trailing_zeros() as usize;
        return (bits != 0 && nears[lane] <= limit).then(|| n.first[lane]);
    }
    if let Some((near, far)) = two_nearest_first(bits, nears) {
        // Two (the next most common case): one comparison instead of the sort.
        if nears[near] > limit {
            return None;
        }
        if nears[far] <= limit {
            stack.push((n.first[far], nears[far]));
        }
        return Some(n.first[near]);
    }
    let (order, order_len) = nearest_first(bits, nears);
    let nearest = usize::from(order[0]);
    if nears[nearest] > limit {
        return None; // Nor any farther one.
    }
    for &lane in order[1..order_len].iter().rev() {
        let lane = usize::from(lane);
        if nears[lane] <= limit {
            stack.push((n.first[lane], nears[lane]));
        }
    }
    Some(n.first[nearest])
}

/// Pop the stack down to the nearest node the ray still enters within `limit`, the best hit's reach (entries
/// pushed before a nearer hit shrank it are dropped).
#[inline(always)]
fn next_on_stack(stack: &mut Stack<(u32, f32)>, limit: f32) -> Option<u32> {
    while let Some((w, entry)) = stack.pop() {
        if entry <= limit {
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
mod tests;
