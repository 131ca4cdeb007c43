//! The BVH build: a binary tree by binned SAH over the triangles' centroids (16 bins, costs counted in packets
//! of four), then collapsed into eight-wide nodes with the leaves' triangles laid out in packets.

use glam::{Vec3, Vec4};

use super::layout::{Tri4, WIDTH, Wide};
use crate::shape::Aabb;

/// One BVH node: 32 bytes. A leaf has `count > 0` triangles starting at `first` in the mesh's triangle order;
/// an inner node has `count == 0` and its children at `first` and `first + 1`.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Node {
    min: [f32; 3],
    first: u32,
    max: [f32; 3],
    count: u32,
}

impl Node {
    /// A node to be filled in.
    const EMPTY: Self = Self {
        min: [0.0; 3],
        first: 0,
        max: [0.0; 3],
        count: 0,
    };
}

/// Largest number of triangles in a leaf.
const MAX_LEAF: usize = 4;
/// Depth after which the builder splits at the object median (so a tie-heavy SAH cannot make the tree deeper
/// than `SAH_DEPTH + log2(triangles)`, well within the traversal stack).
const SAH_DEPTH: usize = 64;
/// SAH cost of visiting a node, relative to testing one packet of four triangles.
const TRAVERSAL_COST: f32 = 1.0;
/// Packets of four needed for `n` triangles, the unit of the SAH's intersection cost.
fn blocks(n: usize) -> f32 {
    n.div_ceil(4) as f32
}
/// SAH bins.
const BINS: usize = 16;

/// The BVH over the hittable triangles `order` (reordered into BVH order): the root's box (padded), the
/// eight-wide nodes and the triangle packets.
pub(super) fn tree(
    vertices: &[Vec3],
    indices: &[[u32; 3]],
    mut order: Vec<u32>,
) -> (Aabb, Vec<Wide>, Vec<Tri4>) {
    let nodes = {
        let tri_of = |i: u32| indices[i as usize].map(|k| vertices[k as usize]);
        let centroids: Vec<Vec3> = (0..indices.len() as u32)
            .map(|i| {
                let [a, b, c] = tri_of(i);
                (a + b + c) / 3.0
            })
            .collect();
        let bounds_of = |i: u32| {
            let [a, b, c] = tri_of(i);
            (a.min(b).min(c), a.max(b).max(c))
        };
        let mut builder = Builder {
            nodes: Vec::with_capacity(2 * order.len() / MAX_LEAF + 1),
            centroids: &centroids,
            bounds_of: &bounds_of,
        };
        builder.nodes.push(Node::EMPTY);
        let len = order.len();
        builder.build(0, &mut order, 0, len, 0);
        builder.nodes
    };
    let bounds = Aabb::new(Vec3::from(nodes[0].min), Vec3::from(nodes[0].max));
    let tri_of = |slot: usize| indices[order[slot] as usize].map(|k| vertices[k as usize]);
    let (wide, packets) = collapse(&nodes, &order, &tri_of);
    (bounds, wide, packets)
}

/// Collapse the binary tree into eight-wide nodes: each wide node takes its binary node's children and
/// keeps opening the inner child with the largest surface area until it has eight.
/// Also lay the leaves' triangles out in packets of four (a leaf owns whole packets).
fn collapse(
    nodes: &[Node],
    order: &[u32],
    tri_of: &dyn Fn(usize) -> [Vec3; 3],
) -> (Vec<Wide>, Vec<Tri4>) {
    let area = |n: &Node| {
        let d = (Vec3::from(n.max) - Vec3::from(n.min)).max(Vec3::ZERO);
        d.x * d.y + d.y * d.z + d.z * d.x
    };
    let mut wide = Vec::with_capacity(nodes.len() / 3 + 1);
    let mut packets: Vec<Tri4> = Vec::with_capacity(order.len() / 3 + 1);
    wide.push(Wide::EMPTY);
    let mut work = vec![(0usize, 0usize)];
    while let Some((b, w)) = work.pop() {
        let root = &nodes[b];
        let mut kids = [0usize; WIDTH];
        let mut len = if root.count > 0 {
            kids[0] = b;
            1
        } else {
            kids[0] = root.first as usize;
            kids[1] = root.first as usize + 1;
            2
        };
        while len < WIDTH {
            let open = (0..len)
                .filter(|&k| nodes[kids[k]].count == 0)
                .max_by(|&x, &y| area(&nodes[kids[x]]).total_cmp(&area(&nodes[kids[y]])));
            let Some(k) = open else {
                break;
            };
            let first = nodes[kids[k]].first as usize;
            kids[k] = first;
            kids[len] = first + 1;
            len += 1;
        }
        let mut out = Wide::EMPTY;
        out.len = len as u8;
        for (lane, &k) in kids[..len].iter().enumerate() {
            let n = &nodes[k];
            out.set_lane(lane, n.min, n.max);
            if n.count > 0 {
                // Leaves hold at most 2 * MAX_LEAF triangles.
                debug_assert!(n.count as usize <= 2 * MAX_LEAF);
                out.first[lane] = packets.len() as u32;
                out.count[lane] = n.count as u8;
                out.leaves |= 1 << lane;
                let (start, end) = (n.first as usize, (n.first + n.count) as usize);
                for chunk in (start..end).collect::<Vec<_>>().chunks(4) {
                    let mut packet = Tri4 {
                        v: [[Vec4::ZERO; 3]; 3],
                        id: [u32::MAX; 4],
                    };
                    for l in 0..4 {
                        // Unused lanes copy lane 0 (masked off in every use).
                        let slot = chunk.get(l).copied().unwrap_or(chunk[0]);
                        for (vertex, p) in tri_of(slot).iter().enumerate() {
                            for axis in 0..3 {
                                packet.v[vertex][axis][l] = p[axis];
                            }
                        }
                        if let Some(&s) = chunk.get(l) {
                            packet.id[l] = order[s];
                        }
                    }
                    packets.push(packet);
                }
            } else {
                out.first[lane] = wide.len() as u32;
                wide.push(Wide::EMPTY);
                work.push((k, wide.len() - 1));
            }
        }
        wide[w] = out;
    }
    (wide, packets)
}

/// The binary tree under construction, and what the build reads of the triangles (by index in the mesh).
struct Builder<'a> {
    nodes: Vec<Node>,
    centroids: &'a [Vec3],
    bounds_of: &'a dyn Fn(u32) -> (Vec3, Vec3),
}

impl Builder<'_> {
    /// Recursive binned-SAH build of node `node` over `order[start..end]`.
    fn build(&mut self, node: usize, order: &mut [u32], start: usize, end: usize, depth: usize) {
        let (lo, hi, clo, chi) = self.bounds(&order[start..end]);
        self.set_box(node, lo, hi);
        let count = end - start;
        if count <= MAX_LEAF {
            self.make_leaf(node, start, end);
            return;
        }
        // Binned SAH along the centroid bounds' longest axis.
        let extent = chi - clo;
        let axis = longest_axis(extent);
        if !(extent[axis] > 0.0) || depth >= SAH_DEPTH {
            // All centroids coincide, or the tree is already deep: split at the object median.
            let mid = start + self.median(&mut order[start..end], axis);
            self.split_at(node, order, start, mid, end, depth);
            return;
        }
        let mut bins = Bins::new(axis, clo, extent);
        bins.fill(&order[start..end], self.centroids, self.bounds_of);
        let best = bins.best_split();
        // Split cost: one more node to traverse, then each side's packets weighted by its area.
        let best = (best.0 + TRAVERSAL_COST * area(lo, hi), best.1);
        let leaf_cost = area(lo, hi) * blocks(count);
        if best.0 >= leaf_cost && count <= 2 * MAX_LEAF || best.0 == f32::INFINITY {
            if count <= 2 * MAX_LEAF {
                self.make_leaf(node, start, end);
            } else {
                self.split_at(node, order, start, start + count / 2, end, depth);
            }
            return;
        }
        // Partition by bin.
        let (split_bin, centroids) = (best.1, self.centroids);
        let below = partition(&mut order[start..end], |i| {
            bins.of(centroids[i as usize]) < split_bin
        });
        self.split_at(node, order, start, start + below, end, depth);
    }

    /// The box of the triangles `tris`, and the box of their centroids.
    fn bounds(&self, tris: &[u32]) -> (Vec3, Vec3, Vec3, Vec3) {
        let mut lo = Vec3::splat(f32::INFINITY);
        let mut hi = Vec3::splat(f32::NEG_INFINITY);
        let mut clo = lo;
        let mut chi = hi;
        for &i in tris {
            let (l, h) = (self.bounds_of)(i);
            lo = lo.min(l);
            hi = hi.max(h);
            clo = clo.min(self.centroids[i as usize]);
            chi = chi.max(self.centroids[i as usize]);
        }
        (lo, hi, clo, chi)
    }

    /// Give `node` the box `lo..hi`, padded.
    fn set_box(&mut self, node: usize, lo: Vec3, hi: Vec3) {
        // Pad by a relative hair so rays lying on a face plane still enter (watertight traversal).
        let pad = (hi - lo).max(hi.abs().max(lo.abs())) * 4.0 * f32::EPSILON
            + Vec3::splat(f32::MIN_POSITIVE);
        self.nodes[node].min = (lo - pad).to_array();
        self.nodes[node].max = (hi + pad).to_array();
    }

    /// Make `node` a leaf of the triangles `start..end`.
    fn make_leaf(&mut self, node: usize, start: usize, end: usize) {
        self.nodes[node].first = start as u32;
        self.nodes[node].count = (end - start) as u32;
    }

    /// Put the median triangle of `tris` by centroid along `axis` (ties by index) in the middle, the ones
    /// below before it and the ones above after it; its position.
    fn median(&self, tris: &mut [u32], axis: usize) -> usize {
        let mid = tris.len() / 2;
        let centroids = self.centroids;
        tris.select_nth_unstable_by(mid, |&a, &b| {
            centroids[a as usize][axis]
                .total_cmp(&centroids[b as usize][axis])
                .then(a.cmp(&b))
        });
        mid
    }

    /// Make `node` an inner node whose children cover `start..mid` and `mid..end`, and build them.
    fn split_at(
        &mut self,
        node: usize,
        order: &mut [u32],
        start: usize,
        mid: usize,
        end: usize,
        depth: usize,
    ) {
        if mid == start || mid == end {
            self.make_leaf(node, start, end);
            return;
        }
        let left = self.nodes.len();
        self.nodes.push(Node::EMPTY);
        self.nodes.push(Node::EMPTY);
        self.nodes[node].first = left as u32;
        self.nodes[node].count = 0;
        self.build(left, order, start, mid, depth + 1);
        self.build(left + 1, order, mid, end, depth + 1);
    }
}

/// The axis along which `extent` is longest (the first of equals).
fn longest_axis(extent: Vec3) -> usize {
    if extent.x >= extent.y && extent.x >= extent.z {
        0
    } else if extent.y >= extent.z {
        1
    } else {
        2
    }
}

/// Half the surface area of the box `l..h` (zero when empty), the SAH's weight.
fn area(l: Vec3, h: Vec3) -> f32 {
    let d = (h - l).max(Vec3::ZERO);
    d.x * d.y + d.y * d.z + d.z * d.x
}

/// Move the triangles of `tris` for which `below` holds to the front; how many there are.
fn partition(tris: &mut [u32], below: impl Fn(u32) -> bool) -> usize {
    let mut i = 0;
    let mut j = tris.len();
    while i < j {
        if below(tris[i]) {
            i += 1;
        } else {
            j -= 1;
            tris.swap(i, j);
        }
    }
    i
}

/// A node's triangles in [`BINS`] bins of equal width along `axis` over their centroids' extent: how many
/// triangles fell in each and the box of their bounds.
struct Bins {
    axis: usize,
    /// The centroids' lowest coordinate along the axis.
    origin: f32,
    /// Bins per unit of length.
    scale: f32,
    count: [usize; BINS],
    lo: [Vec3; BINS],
    hi: [Vec3; BINS],
}

impl Bins {
    /// Empty bins along `axis` over the centroid box from `clo`, `extent` long.
    fn new(axis: usize, clo: Vec3, extent: Vec3) -> Self {
        Self {
            axis,
            origin: clo[axis],
            scale: BINS as f32 / extent[axis],
            count: [0; BINS],
            lo: [Vec3::splat(f32::INFINITY); BINS],
            hi: [Vec3::splat(f32::NEG_INFINITY); BINS],
        }
    }

    /// The bin of a triangle with this centroid.
    fn of(&self, centroid: Vec3) -> usize {
        (((centroid[self.axis] - self.origin) * self.scale) as usize).min(BINS - 1)
    }

    /// Put the triangles `tris` in their bins.
    fn fill(&mut self, tris: &[u32], centroids: &[Vec3], bounds_of: &dyn Fn(u32) -> (Vec3, Vec3)) {
        for &i in tris {
            let b = self.of(centroids[i as usize]);
            let (l, h) = bounds_of(i);
            self.count[b] += 1;
            self.lo[b] = self.lo[b].min(l);
            self.hi[b] = self.hi[b].max(h);
        }
    }

    /// The cheapest split between bins: its cost (each side's area times its packets) and the first bin on
    /// its right; `(INFINITY, 0)` when no split leaves triangles on both sides.
    fn best_split(&self) -> (f32, usize) {
        // Sweep from the left and from the right.
        let mut left_area = [0.0f32; BINS];
        let mut left_count = [0usize; BINS];
        let (mut l, mut h, mut c) = (
            Vec3::splat(f32::INFINITY),
            Vec3::splat(f32::NEG_INFINITY),
            0,
        );
        for b in 0..BINS - 1 {
            l = l.min(self.lo[b]);
            h = h.max(self.hi[b]);
            c += self.count[b];
            left_area[b] = area(l, h);
            left_count[b] = c;
        }
        let (mut l, mut h, mut c) = (
            Vec3::splat(f32::INFINITY),
            Vec3::splat(f32::NEG_INFINITY),
            0,
        );
        let mut best = (f32::INFINITY, 0usize);
        for b in (1..BINS).rev() {
            l = l.min(self.lo[b]);
            h = h.max(self.hi[b]);
            c += self.count[b];
            let cost = left_area[b - 1] * blocks(left_count[b - 1]) + area(l, h) * blocks(c);
            if left_count[b - 1] > 0 && c > 0 && cost < best.0 {
                best = (cost, b);
            }
        }
        best
    }
}
