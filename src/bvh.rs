//! A static bounding-volume tree over boxes: the simulation's acceleration structure for everything that does
//! not move (walls, triangles, cylinders, boxes, meshes).
//!
//! Built once with binned surface-area-heuristic splits (object medians past depth 40, which bounds the
//! depth for the fixed traversal stacks), stored flat with children side by side. It serves box queries
//! (the simulation's broad phase) and nearest-first ray and swept-sphere casts (the game's `Scene`).

use glam::{Vec3, Vec3A};

use crate::shape::Aabb;

/// Largest number of items in a leaf.
const LEAF: usize = 4;

#[derive(Clone, Copy, Debug)]
struct Node {
    min: Vec3A,
    max: Vec3A,
    /// Leaf: first item in `items`; inner: left child (right is `first + 1`).
    first: u32,
    /// Items in a leaf, 0 for an inner node.
    count: u32,
}

/// A bounding-volume tree over a fixed set of boxes.
#[derive(Clone, Debug, Default)]
pub struct AabbTree {
    nodes: Vec<Node>,
    items: Vec<u32>,
    /// The box of `items[k]` at `k` (checked in the leaves, so queries are exact): a leaf's boxes lie side by
    /// side, in SIMD-friendly form.
    item_boxes: Vec<(Vec3A, Vec3A)>,
}

impl AabbTree {
    /// Build over `boxes`; item `i` is `boxes[i]`. Invalid boxes (NaN, `min > max`) are left out.
    #[must_use]
    pub fn new(boxes: &[Aabb]) -> Self {
        let mut items: Vec<u32> = (0..boxes.len() as u32)
            .filter(|&i| boxes[i as usize].is_valid())
            .collect();
        let mut nodes = Vec::new();
        if !items.is_empty() {
            nodes.push(Node {
                min: Vec3A::ZERO,
                max: Vec3A::ZERO,
                first: 0,
                count: 0,
            });
            let len = items.len();
            build_at(&mut nodes, 0, &mut items, 0, len, boxes, 0);
        }
        let item_boxes = items
            .iter()
            .map(|&i| {
                let b = &boxes[i as usize];
                (Vec3A::from(b.min), Vec3A::from(b.max))
            })
            .collect();
        Self {
            nodes,
            items,
            item_boxes,
        }
    }

    /// Number of items in the tree.
    #[must_use]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the tree is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Call `f` with every item whose box touches `lo..=hi` (in tree order).
    pub fn query(&self, lo: Vec3, hi: Vec3, mut f: impl FnMut(usize)) {
        if self.nodes.is_empty() {
            return;
        }
        let (lo, hi) = (Vec3A::from(lo), Vec3A::from(hi));
        let mut stack = [0u32; 64];
        let mut sp = 1usize;
        while sp > 0 {
            sp -= 1;
            let n = &self.nodes[stack[sp] as usize];
            if n.min.cmpgt(hi).any() || n.max.cmplt(lo).any() {
                continue;
            }
            if n.count > 0 {
                let range = n.first as usize..(n.first + n.count) as usize;
                for (&i, (min, max)) in self.items[range.clone()]
                    .iter()
                    .zip(&self.item_boxes[range])
                {
                    if min.cmple(hi).all() && max.cmpge(lo).all() {
                        f(i as usize);
                    }
                }
            } else if sp + 2 <= stack.len() {
                stack[sp] = n.first + 1;
                stack[sp + 1] = n.first;
                sp += 2;
            }
        }
    }
}

impl AabbTree {
    /// Give item `item` the box `b` and refit every node's bounds to their children (the tree's shape stays:
    /// queries stay exact, and stay fast while the item moves little). `false` (nothing changed) when the item
    /// is not in the tree or `b` is not a valid box: the caller rebuilds.
    pub fn refit(&mut self, item: usize, b: &Aabb) -> bool {
        if !b.is_valid() {
            return false;
        }
        let Some(k) = self.items.iter().position(|&i| i as usize == item) else {
            return false;
        };
        self.item_boxes[k] = (Vec3A::from(b.min), Vec3A::from(b.max));
        self.refit_nodes();
        true
    }

    /// Give every item `i` in the tree the box `boxes[i]` and refit the nodes once (a scene's movers, all moved
    /// at one time: one pass instead of one per item). `false` when an item's new box is missing or invalid:
    /// the tree is then left half updated (the items before it have their new boxes, the nodes are not
    /// refitted) and the caller rebuilds.
    pub fn refit_all(&mut self, boxes: &[Aabb]) -> bool {
        // One pass that checks and copies (the check was a pass of its own over the same random reads).
        for (&i, slot) in self.items.iter().zip(&mut self.item_boxes) {
            match boxes.get(i as usize) {
                Some(b) if b.is_valid() => *slot = (Vec3A::from(b.min), Vec3A::from(b.max)),
                _ => return false,
            }
        }
        self.refit_nodes();
        true
    }

    /// Every node's bounds refitted to its children's or its items' boxes.
    fn refit_nodes(&mut self) {
        // Children come after their parent: back to front, every node sees its children refitted.
        for n in (0..self.nodes.len()).rev() {
            let node = self.nodes[n];
            let (lo, hi) = if node.count > 0 {
                let range = node.first as usize..(node.first + node.count) as usize;
                self.item_boxes[range].iter().fold(
                    (Vec3A::splat(f32::INFINITY), Vec3A::splat(f32::NEG_INFINITY)),
                    |(lo, hi), (a, b)| (lo.min(*a), hi.max(*b)),
                )
            } else {
                let (l, r) = (
                    &self.nodes[node.first as usize],
                    &self.nodes[node.first as usize + 1],
                );
                (l.min.min(r.min), l.max.max(r.max))
            };
            self.nodes[n].min = lo;
            self.nodes[n].max = hi;
        }
    }
}

impl AabbTree {
    /// Visit the items whose boxes, grown by `inflate` on every side, the ray `origin + t dir` enters with
    /// `t <= max_t`, nearer nodes first. `f(item)` answers the item's own hit `t`, if any: a hit below the
    /// current bound lowers it, and nodes entered beyond the bound are skipped (those entered exactly at it are
    /// still visited, so a caller can break ties itself). A zero `dir` visits the boxes that contain `origin`.
    ///
    /// The slab test is conservative: entry and exit are widened by a few ulps (Ize's robust traversal), so a
    /// hit that the item's own exact query finds on its box's boundary is never pruned.
    pub fn cast(
        &self,
        origin: Vec3,
        dir: Vec3,
        inflate: f32,
        max_t: f32,
        f: impl FnMut(usize) -> Option<f32>,
    ) {
        self.cast_box(origin, dir, Vec3::splat(inflate), max_t, f);
    }

    /// [`AabbTree::cast`] with the boxes grown by `grow` along each axis (a moving box's half extents: the
    /// items a box centred on the ray can touch). Negative or NaN components grow nothing.
    pub fn cast_box(
        &self,
        origin: Vec3,
        dir: Vec3,
        grow: Vec3,
        max_t: f32,
        mut f: impl FnMut(usize) -> Option<f32>,
    ) {
        if self.nodes.is_empty() || !(max_t >= 0.0) || !origin.is_finite() || !dir.is_finite() {
            return;
        }
        let slab = Slab::with_grow(origin, dir, grow);
        let mut bound = max_t;
        let entry = |min: Vec3A, max: Vec3A, bound: f32| slab.entry(min, max, bound);
        // Stack of (node, entry t) on the stack frame: median splits bound the depth by log2 of the item count,
        // and each level leaves at most one sibling waiting.
        let mut stack = [(0u32, 0.0f32); 64];
        let mut sp = 0usize;
        if let Some(t) = entry(self.nodes[0].min, self.nodes[0].max, bound) {
            stack[0] = (0, t);
            sp = 1;
        }
        while sp > 0 {
            sp -= 1;
            let (node, t_in) = stack[sp];
            if t_in > bound {
                continue;
            }
            let n = self.nodes[node as usize];
            if n.count > 0 {
                let range = n.first as usize..(n.first + n.count) as usize;
                for (&i, &(min, max)) in self.items[range.clone()]
                    .iter()
                    .zip(&self.item_boxes[range])
                {
                    if entry(min, max, bound).is_some()
                        && let Some(t) = f(i as usize)
                        && t < bound
                    {
                        bound = t;
                    }
                }
            } else if sp + 2 <= stack.len() {
                let (l, r) = (n.first, n.first + 1);
                let tl = entry(
                    self.nodes[l as usize].min,
                    self.nodes[l as usize].max,
                    bound,
                );
                let tr = entry(
                    self.nodes[r as usize].min,
                    self.nodes[r as usize].max,
                    bound,
                );
                // Nearer child on top.
                let mut push = |node: u32, t: Option<f32>| {
                    if let Some(t) = t {
                        stack[sp] = (node, t);
                        sp += 1;
                    }
                };
                match (tl, tr) {
                    (Some(a), Some(b)) if a <= b => {
                        push(r, tr);
                        push(l, tl);
                    }
                    _ => {
                        push(l, tl);
                        push(r, tr);
                    }
                }
            }
        }
    }
}

/// A ray's precomputed slab test against boxes (the hot loop of every cast), in SIMD lanes.
pub(crate) struct Slab {
    origin: Vec3A,
    inv: Vec3A,
    grow: Vec3A,
    parallel: glam::BVec3A,
    any_parallel: bool,
}

impl Slab {
    pub(crate) fn new(origin: Vec3, dir: Vec3, inflate: f32) -> Self {
        Self::with_grow(origin, dir, Vec3::splat(inflate))
    }

    /// The slab test of boxes grown by `grow` along each axis (negative or NaN components grow nothing).
    pub(crate) fn with_grow(origin: Vec3, dir: Vec3, grow: Vec3) -> Self {
        let dir = Vec3A::from(dir);
        let parallel = dir.cmpeq(Vec3A::ZERO);
        Self {
            origin: Vec3A::from(origin),
            inv: dir.recip(),
            grow: Vec3A::from(grow).max(Vec3A::ZERO),
            parallel,
            any_parallel: parallel.any(),
        }
    }

    /// Where the ray enters the box grown by `grow`, if it does by `bound`. Branch-light: axes the ray runs
    /// parallel to (or whose product is 0 * inf, a subnormal direction on a face) count as inside when the
    /// origin is within the slab, and a miss otherwise; entry and exit are widened by a few ulps.
    #[inline(always)]
    pub(crate) fn entry(&self, min: Vec3A, max: Vec3A, bound: f32) -> Option<f32> {
        const SLACK: f32 = 4.0 * f32::EPSILON;
        let (min, max) = (min - self.grow, max + self.grow);
        let o = self.origin;
        if self.any_parallel && ((o.cmplt(min) | o.cmpgt(max)) & self.parallel).any() {
            return None;
        }
        let a = (min - o) * self.inv;
        let b = (max - o) * self.inv;
        let undefined = self.parallel | a.is_nan_mask() | b.is_nan_mask();
        let lo = Vec3A::select(undefined, Vec3A::NEG_INFINITY, a.min(b));
        let hi = Vec3A::select(undefined, Vec3A::INFINITY, a.max(b));
        let (t0, t1) = (lo.max_element(), hi.min_element());
        let t0 = (t0 - t0.abs() * SLACK).max(0.0);
        let t1 = (t1 + t1.abs() * SLACK).min(bound);
        (t0 <= t1).then_some(t0)
    }
}

/// Bins per axis of the SAH split search.
const BINS: usize = 16;
/// Below this depth splits follow the surface-area heuristic; past it, object medians, which keep the depth
/// within the traversal stacks (64 entries) whatever the input.
const SAH_DEPTH: usize = 40;

fn half_area(lo: Vec3, hi: Vec3) -> f32 {
    let e = (hi - lo).max(Vec3::ZERO);
    e.x * e.y + e.y * e.z + e.z * e.x
}

fn centre(b: &Aabb, axis: usize) -> f32 {
    (b.min[axis] + b.max[axis]) * 0.5
}

/// Build the subtree of `items[start..end]` at `node`: binned SAH splits (16 bins on each axis, the
/// cheapest of `area(left) * n_left + area(right) * n_right`), a leaf when no split beats testing every item,
/// object-median splits past [`SAH_DEPTH`]. Ties are broken by item index, so the tree is deterministic.
fn build_at(
    nodes: &mut Vec<Node>,
    node: usize,
    items: &mut [u32],
    start: usize,
    end: usize,
    boxes: &[Aabb],
    depth: usize,
) {
    let mut lo = Vec3::splat(f32::INFINITY);
    let mut hi = Vec3::splat(f32::NEG_INFINITY);
    let mut clo = Vec3::splat(f32::INFINITY);
    let mut chi = Vec3::splat(f32::NEG_INFINITY);
    for &i in &items[start..end] {
        let b = &boxes[i as usize];
        lo = lo.min(b.min);
        hi = hi.max(b.max);
        let c = (b.min + b.max) * 0.5;
        clo = clo.min(c);
        chi = chi.max(c);
    }
    nodes[node].min = Vec3A::from(lo);
    nodes[node].max = Vec3A::from(hi);
    let count = end - start;
    let leaf = |nodes: &mut Vec<Node>| {
        nodes[node].first = start as u32;
        nodes[node].count = count as u32;
    };
    if count <= LEAF {
        leaf(nodes);
        return;
    }
    let mid = if depth < SAH_DEPTH {
        match sah_split(&items[start..end], boxes, clo, chi, half_area(lo, hi)) {
            Some((axis, split)) => {
                let left = partition_by_bin(&mut items[start..end], boxes, (clo, chi), axis, split);
                if left == 0 || left == count {
                    None
                } else {
                    Some(start + left)
                }
            }
            None if count <= 2 * LEAF => {
                leaf(nodes);
                return;
            }
            None => None,
        }
    } else {
        None
    };
    let mid = mid.unwrap_or_else(|| start + median_split(&mut items[start..end], boxes, hi - lo));
    let left = nodes.len();
    let blank = Node {
        min: Vec3A::ZERO,
        max: Vec3A::ZERO,
        first: 0,
        count: 0,
    };
    nodes.push(blank);
    nodes.push(blank);
    nodes[node].first = left as u32;
    nodes[node].count = 0;
    build_at(nodes, left, items, start, mid, boxes, depth + 1);
    build_at(nodes, left + 1, items, mid, end, boxes, depth + 1);
}

/// Put the items of `slice` whose centre falls in a bin below `split` (of the [`BINS`] bins along `axis` over
/// the centre box `clo..chi`) first, each side in item order; how many there are.
fn partition_by_bin(
    slice: &mut [u32],
    boxes: &[Aabb],
    (clo, chi): (Vec3, Vec3),
    axis: usize,
    split: usize,
) -> usize {
    // Partition by bin: items whose centre falls below the split plane go left.
    let ext = chi[axis] - clo[axis];
    let bin = |i: u32| {
        let c = centre(&boxes[i as usize], axis);
        (((c - clo[axis]) / ext * BINS as f32) as usize).min(BINS - 1)
    };
    slice.sort_unstable_by(|&a, &b| (bin(a) >= split).cmp(&(bin(b) >= split)).then(a.cmp(&b)));
    slice.iter().take_while(|&&i| bin(i) < split).count()
}

/// Put the median item of `items` by centre along the longest axis of the extent `e` (ties by index) in the
/// middle, the ones below before it and the ones above after it; its position.
fn median_split(items: &mut [u32], boxes: &[Aabb], e: Vec3) -> usize {
    let axis = if e.x >= e.y && e.x >= e.z {
        0
    } else if e.y >= e.z {
        1
    } else {
        2
    };
    let count = items.len();
    items.select_nth_unstable_by(count / 2, |&a, &b| {
        centre(&boxes[a as usize], axis)
            .total_cmp(&centre(&boxes[b as usize], axis))
            .then(a.cmp(&b))
    });
    count / 2
}

/// The best binned SAH split of `items`: (axis, first bin of the right side), or `None` when testing every
/// item (cost `n`) is cheaper than any split (cost `1 + (area_l n_l + area_r n_r) / area`).
fn sah_split(
    items: &[u32],
    boxes: &[Aabb],
    clo: Vec3,
    chi: Vec3,
    area: f32,
) -> Option<(usize, usize)> {
    let mut best: Option<(f32, usize, usize)> = None;
    for axis in 0..3 {
        let ext = chi[axis] - clo[axis];
        if !(ext > 0.0) {
            continue;
        }
        let mut bins = [(
            0u32,
            Vec3::splat(f32::INFINITY),
            Vec3::splat(f32::NEG_INFINITY),
        ); BINS];
        for &i in items {
            let b = &boxes[i as usize];
            let k = (((centre(b, axis) - clo[axis]) / ext * BINS as f32) as usize).min(BINS - 1);
            bins[k].0 += 1;
            bins[k].1 = bins[k].1.min(b.min);
            bins[k].2 = bins[k].2.max(b.max);
        }
        // Sweep from the right: the right side's count and area for each split.
        let mut right = [(0u32, 0.0f32); BINS];
        let (mut n, mut rlo, mut rhi) = (
            0u32,
            Vec3::splat(f32::INFINITY),
            Vec3::splat(f32::NEG_INFINITY),
        );
        for k in (1..BINS).rev() {
            n += bins[k].0;
            rlo = rlo.min(bins[k].1);
            rhi = rhi.max(bins[k].2);
            right[k] = (n, half_area(rlo, rhi));
        }
        let (mut nl, mut llo, mut lhi) = (
            0u32,
            Vec3::splat(f32::INFINITY),
            Vec3::splat(f32::NEG_INFINITY),
        );
        for k in 1..BINS {
            nl += bins[k - 1].0;
            llo = llo.min(bins[k - 1].1);
            lhi = lhi.max(bins[k - 1].2);
            let (nr, ar) = right[k];
            if nl == 0 || nr == 0 {
                continue;
            }
            let cost = half_area(llo, lhi) * nl as f32 + ar * nr as f32;
            if best.is_none_or(|b| cost < b.0) {
                best = Some((cost, axis, k));
            }
        }
    }
    let (cost, axis, split) = best?;
    let n = items.len() as f32;
    // A flat (zero-area) node always splits: the heuristic cannot rank it.
    let worth = if area > 0.0 {
        1.0 + cost / area < n
    } else {
        true
    };
    worth.then_some((axis, split))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_finds_exactly_the_touching_boxes() {
        let mut rng = crate::generate::SplitMix64::new(9);
        let boxes: Vec<Aabb> = (0..500)
            .map(|_| {
                let c = Vec3::new(
                    rng.range(-50.0, 50.0),
                    rng.range(-50.0, 50.0),
                    rng.range(-50.0, 50.0),
                );
                let h = Vec3::new(
                    rng.range(0.0, 3.0),
                    rng.range(0.0, 3.0),
                    rng.range(0.0, 3.0),
                );
                Aabb::new(c - h, c + h)
            })
            .collect();
        let tree = AabbTree::new(&boxes);
        for _ in 0..200 {
            let c = Vec3::new(
                rng.range(-50.0, 50.0),
                rng.range(-50.0, 50.0),
                rng.range(-50.0, 50.0),
            );
            let (lo, hi) = (c - Vec3::splat(5.0), c + Vec3::splat(5.0));
            let mut got = Vec::new();
            tree.query(lo, hi, |i| got.push(i));
            got.sort_unstable();
            let want: Vec<usize> = (0..boxes.len())
                .filter(|&i| boxes[i].min.cmple(hi).all() && boxes[i].max.cmpge(lo).all())
                .collect();
            assert_eq!(got, want);
        }
    }
}
