//! The BVH's memory layout: eight-wide nodes ([`Wide`]) whose children's boxes are SIMD lanes, triangles in
//! packets of four ([`Tri4`]), the traversal [`Stack`], the helpers that walk a node's lanes and a leaf's
//! packets, and the check of the layout's invariants.

use glam::{Vec3, Vec4};

use super::TriMesh;

/// Children per wide node.
pub(super) const WIDTH: usize = 8;
/// Four-lane groups per wide node.
pub(super) const GROUPS: usize = WIDTH / 4;
/// Traversal stack entries kept inline (in the stack frame, zeroed for every ray, so not more than needed);
/// more spill to the heap, which a ray seldom needs (a wide node pushes at most `WIDTH - 1` more entries than
/// it pops, and front-to-back rays push little more than one per level).
pub(super) const STACK: usize = 32;

/// An eight-wide BVH node: its children's boxes as lanes in two groups of four (`bounds[side][axis][group]`
/// holds that axis of the lower corners (side 0) or upper corners (side 1) of four children, so a ray picks
/// its near and far planes per axis by an index, as Embree's traversal does; an axis's two groups are
/// adjacent, 32 bytes, which the 256-bit node test loads as one vector of eight lanes). Lanes `len..8` are
/// unused and hold the empty box (lower corner `+inf`, upper `-inf`), which no ray enters. A child is a leaf
/// when its `count > 0` (`count` triangles in the packets from `first` on), else an inner node (wide node
/// `first`, always after this one).
///
/// 234 bytes padded to 256 and aligned to 64, so a node is exactly four cache lines.
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(64))]
pub(super) struct Wide {
    pub(super) bounds: [[[Vec4; GROUPS]; 3]; 2],
    pub(super) first: [u32; WIDTH],
    pub(super) count: [u8; WIDTH],
    pub(super) len: u8,
    /// Bit `k` set when lane `k` is a leaf (`count[k] > 0`), so traversal splits hit lanes into leaves and
    /// inner children with two masks instead of a branch per lane.
    pub(super) leaves: u8,
    /// Explicit padding (plain data has none implicit).
    pub(super) pad: [u8; WIDE_PAD],
}

/// Bytes of a [`Wide`]'s fields, and the padding that rounds it to whole cache lines.
const WIDE_FIELDS: usize = 2 * GROUPS * 48 + 5 * WIDTH + 2;
const WIDE_PAD: usize = WIDE_FIELDS.next_multiple_of(64) - WIDE_FIELDS;

impl Wide {
    pub(super) const EMPTY: Self = Self {
        bounds: [
            [[Vec4::INFINITY; GROUPS]; 3],
            [[Vec4::NEG_INFINITY; GROUPS]; 3],
        ],
        first: [0; WIDTH],
        count: [0; WIDTH],
        len: 0,
        leaves: 0,
        pad: [0; WIDE_PAD],
    };

    /// Lane `k`'s box.
    pub(super) fn lane(&self, k: usize) -> (Vec3, Vec3) {
        let (g, l) = (k / 4, k % 4);
        let corner =
            |side: &[[Vec4; GROUPS]; 3]| Vec3::new(side[0][g][l], side[1][g][l], side[2][g][l]);
        (corner(&self.bounds[0]), corner(&self.bounds[1]))
    }

    /// Set lane `k`'s box.
    pub(super) fn set_lane(&mut self, k: usize, lo: [f32; 3], hi: [f32; 3]) {
        for axis in 0..3 {
            self.bounds[0][axis][k / 4][k % 4] = lo[axis];
            self.bounds[1][axis][k / 4][k % 4] = hi[axis];
        }
    }

    /// The mask of used lanes.
    pub(super) fn used(&self) -> u32 {
        (1u32 << self.len) - 1
    }
}

/// The traversal stack: [`STACK`] entries inline, the rest (seldom needed) on the heap, so no entry is ever
/// dropped.
pub(super) struct Stack<T: Copy> {
    pub(super) inline: [T; STACK],
    pub(super) len: usize,
    pub(super) spill: Vec<T>,
}

impl<T: Copy> Stack<T> {
    pub(super) const fn new(fill: T) -> Self {
        Self {
            inline: [fill; STACK],
            len: 0,
            spill: Vec::new(),
        }
    }

    /// Empty the stack, keeping its memory.
    #[inline]
    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }

    #[inline]
    pub(super) fn push(&mut self, x: T) {
        if self.len < STACK {
            self.inline[self.len] = x;
            self.len += 1;
        } else {
            self.spill.push(x);
        }
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<T> {
        if let Some(x) = self.spill.pop() {
            Some(x)
        } else if self.len > 0 {
            self.len -= 1;
            Some(self.inline[self.len])
        } else {
            None
        }
    }
}

/// Four triangles' vertices as lanes: `v[vertex][axis]` holds that coordinate of all four, so the watertight
/// test runs on four triangles at once, and their indices in the mesh (so a hit's index is read from the
/// packet just tested, not from a separate array: one cache miss less per ray on a big mesh). A leaf's last
/// packet may have unused lanes (their `id` is `u32::MAX`; they copy lane 0 and are masked off).
///
/// 160 bytes, aligned to 32.
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(32))]
pub(super) struct Tri4 {
    pub(super) v: [[Vec4; 3]; 3],
    pub(super) id: [u32; 4],
}

impl Tri4 {
    /// Lane `k`'s triangle.
    #[inline]
    pub(super) fn lane(&self, k: usize) -> [Vec3; 3] {
        // Through arrays: indexing a `Vec4` by a run-time lane is a jump table (an unpredictable indirect
        // jump), an array's index is a load.
        let vertex = |p: &[Vec4; 3]| {
            let [x, y, z]: [&[f32; 4]; 3] = [p[0].as_ref(), p[1].as_ref(), p[2].as_ref()];
            Vec3::new(x[k], y[k], z[k])
        };
        [vertex(&self.v[0]), vertex(&self.v[1]), vertex(&self.v[2])]
    }
}

/// The set bits of `bits` (a wide node's lanes), lowest first.
pub(super) fn lanes(mut bits: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let lane = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            lane
        })
    })
}

/// The packets of a leaf of `count` triangles from packet `first`, each with its mask of used lanes.
pub(super) fn leaf_packets(first: u32, count: u8) -> impl ExactSizeIterator<Item = (usize, u32)> {
    let count = u32::from(count);
    (0..count.div_ceil(4)).map(move |p| {
        let used = (count - p * 4).min(4);
        ((first + p) as usize, (1u32 << used) - 1)
    })
}

impl TriMesh {
    /// Check the BVH's invariants: every node's box contains its children's boxes or its triangles, every
    /// hittable triangle is in exactly one leaf, leaves are non-empty and children are in range.
    ///
    /// # Panics
    /// When an invariant is broken (a bug in the builder), with a description.
    pub fn assert_well_formed(&self) {
        let mut seen = vec![0u32; self.packets.len() * 4];
        let mut reached = vec![0u32; self.wide.len()];
        let mut stack = vec![0usize];
        reached[0] = 1;
        let contains = |(olo, ohi): (Vec3, Vec3), lo: Vec3, hi: Vec3| {
            olo.cmple(lo).all() && ohi.cmpge(hi).all()
        };
        while let Some(i) = stack.pop() {
            let n = &self.wide[i];
            assert!(
                (1..=WIDTH).contains(&usize::from(n.len)),
                "node {i} has {} children",
                n.len
            );
            for lane in usize::from(n.len)..WIDTH {
                assert_eq!(
                    n.lane(lane),
                    (Vec3::INFINITY, Vec3::NEG_INFINITY),
                    "node {i}'s unused lane {lane} is not the empty box"
                );
            }
            for lane in 0..n.len as usize {
                let lane_box = n.lane(lane);
                assert_eq!(
                    n.leaves >> lane & 1 == 1,
                    n.count[lane] > 0,
                    "node {i}.{lane}: leaf bit and count disagree"
                );
                if n.count[lane] > 0 {
                    for (p, valid) in leaf_packets(n.first[lane], n.count[lane]) {
                        assert!(p < self.packets.len(), "leaf {i}.{lane} out of range");
                        for l in lanes(valid) {
                            let k = p * 4 + l;
                            assert!(self.id(k) != u32::MAX, "slot {k} is used but empty");
                            let [a, b, c] = self.slot(k);
                            assert!(
                                contains(lane_box, a.min(b).min(c), a.max(b).max(c)),
                                "leaf {i}.{lane} does not contain triangle slot {k}"
                            );
                            seen[k] += 1;
                        }
                    }
                } else {
                    let c = n.first[lane] as usize;
                    assert!(
                        c > i && c < self.wide.len(),
                        "node {i} has a child out of order or range"
                    );
                    let child = &self.wide[c];
                    for l in 0..child.len as usize {
                        let (lo, hi) = child.lane(l);
                        assert!(
                            contains(lane_box, lo, hi),
                            "node {i}.{lane} does not contain its child's lane {l}"
                        );
                    }
                    reached[c] += 1;
                    stack.push(c);
                }
            }
        }
        assert!(
            seen.iter()
                .enumerate()
                .all(|(k, &s)| s == u32::from(self.id(k) != u32::MAX)),
            "a triangle is in no leaf or in several"
        );
        assert!(
            reached.iter().all(|&r| r == 1),
            "a node is unreachable or shared"
        );
    }
}
