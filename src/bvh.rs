//! A static bounding-volume tree over boxes: the simulation's acceleration structure for everything that does
//! not move (walls, triangles, cylinders, boxes, meshes).
//!
//! Built once by median splits along the longest axis (objects are few compared with mesh triangles, and a
//! query only needs to prune), stored flat with children side by side.

use glam::Vec3;

use crate::shape::Aabb;

/// Largest number of items in a leaf.
const LEAF: usize = 4;

#[derive(Clone, Copy, Debug)]
struct Node {
    min: Vec3,
    max: Vec3,
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
    /// Each item's box, by item index (checked in the leaves, so queries are exact).
    boxes: Vec<Aabb>,
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
                min: Vec3::ZERO,
                max: Vec3::ZERO,
                first: 0,
                count: 0,
            });
            let len = items.len();
            build(&mut nodes, 0, &mut items, 0, len, boxes);
        }
        Self {
            nodes,
            items,
            boxes: boxes.to_vec(),
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
        let mut stack = [0u32; 64];
        let mut sp = 1usize;
        while sp > 0 {
            sp -= 1;
            let n = &self.nodes[stack[sp] as usize];
            if n.min.cmpgt(hi).any() || n.max.cmplt(lo).any() {
                continue;
            }
            if n.count > 0 {
                let start = n.first as usize;
                for &i in &self.items[start..start + n.count as usize] {
                    let b = &self.boxes[i as usize];
                    if b.min.cmple(hi).all() && b.max.cmpge(lo).all() {
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
        mut f: impl FnMut(usize) -> Option<f32>,
    ) {
        if self.nodes.is_empty() || !(max_t >= 0.0) || !origin.is_finite() || !dir.is_finite() {
            return;
        }
        let inv = dir.recip();
        let grow = Vec3::splat(inflate.max(0.0));
        let mut bound = max_t;
        let entry = |min: Vec3, max: Vec3, bound: f32| -> Option<f32> {
            let (min, max) = (min - grow, max + grow);
            let mut t0 = 0.0f32;
            let mut t1 = bound;
            for k in 0..3 {
                if dir[k] == 0.0 {
                    if origin[k] < min[k] || origin[k] > max[k] {
                        return None;
                    }
                    continue;
                }
                let (mut a, mut b) = ((min[k] - origin[k]) * inv[k], (max[k] - origin[k]) * inv[k]);
                if a.is_nan() || b.is_nan() {
                    (a, b) = ((min[k] - origin[k]) / dir[k], (max[k] - origin[k]) / dir[k]);
                }
                let (lo, hi) = (a.min(b), a.max(b));
                let slack = 4.0 * f32::EPSILON;
                t0 = t0.max(lo - lo.abs() * slack);
                t1 = t1.min(hi + hi.abs() * slack);
                if !(t0 <= t1) {
                    return None;
                }
            }
            Some(t0)
        };
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
                let start = n.first as usize;
                for &i in &self.items[start..start + n.count as usize] {
                    let b = &self.boxes[i as usize];
                    if entry(b.min, b.max, bound).is_some()
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

fn build(
    nodes: &mut Vec<Node>,
    node: usize,
    items: &mut [u32],
    start: usize,
    end: usize,
    boxes: &[Aabb],
) {
    let mut lo = Vec3::splat(f32::INFINITY);
    let mut hi = Vec3::splat(f32::NEG_INFINITY);
    for &i in &items[start..end] {
        lo = lo.min(boxes[i as usize].min);
        hi = hi.max(boxes[i as usize].max);
    }
    nodes[node].min = lo;
    nodes[node].max = hi;
    let count = end - start;
    // Depth is bounded by log2 of the item count (median splits), far below the query stack's 64.
    if count <= LEAF {
        nodes[node].first = start as u32;
        nodes[node].count = count as u32;
        return;
    }
    let e = hi - lo;
    let axis = if e.x >= e.y && e.x >= e.z {
        0
    } else if e.y >= e.z {
        1
    } else {
        2
    };
    let mid = start + count / 2;
    items[start..end].select_nth_unstable_by(count / 2, |&a, &b| {
        let ca = boxes[a as usize].min[axis] + boxes[a as usize].max[axis];
        let cb = boxes[b as usize].min[axis] + boxes[b as usize].max[axis];
        ca.total_cmp(&cb).then(a.cmp(&b))
    });
    let left = nodes.len();
    let blank = Node {
        min: Vec3::ZERO,
        max: Vec3::ZERO,
        first: 0,
        count: 0,
    };
    nodes.push(blank);
    nodes.push(blank);
    nodes[node].first = left as u32;
    nodes[node].count = 0;
    build(nodes, left, items, start, mid, boxes);
    build(nodes, left + 1, items, mid, end, boxes);
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
