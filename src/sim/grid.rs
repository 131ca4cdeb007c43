//! The broad phase for balls: a spatial hash of each ball's swept box for the rest of the step. Balls are
//! similar in size and move, so a grid re-filed per event suits them (statics sit in the scene's tree). A box
//! spanning more than [`MAX_CELLS`] cells is kept in a short "big" list that every query returns.
//!
//! A cell's balls are chained from the bucket its coordinates hash to, each entry keeping the cell's 32-bit
//! hash, so the cells sharing a bucket are told apart (two cells with the same 32-bit hash are not, which only
//! adds candidates: a query's answer is a superset of the balls whose boxes share a cell with it, sorted, and
//! the exact sweeps that follow decide). An entry is one 12-byte record (ball, hash, next), so walking a chain
//! reads one cache line per entry. Nothing is allocated per step once the buffers have grown: the buckets are
//! cleared and the chains refilled, and a ball moved by an event has its old entries marked dead rather than
//! unlinked (the chains are compacted when the dead outnumber the live).

use glam::Vec3;

/// Cells a swept box may span before the ball is kept in the "big" list instead.
const MAX_CELLS: i64 = 64;

/// No entry / a dead entry.
const NONE: u32 = u32::MAX;

/// The low bits of [`Entry::ball`] hold the ball's index; balls from this index on go to the big list.
const BALL_BITS: u32 = (1 << 29) - 1;

/// One (ball, cell) entry of a chain.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The ball's index in the low 29 bits, and in bit `29 + k` whether the cell is the lowest of the ball's
    /// range on axis `k` (so the lowest cell two ranges share is found from the two entries alone); [`NONE`]
    /// once the ball has left the cell.
    ball: u32,
    /// The cell's hash.
    key: u32,
    /// The next entry in the bucket's chain.
    next: u32,
}

impl Entry {
    /// The lowest-on-each-axis bits.
    fn edges(self) -> u32 {
        self.ball >> 29
    }
}

/// The cell range of a box: lowest and highest cell on each axis.
type Range = ([i32; 3], [i32; 3]);

/// Where a ball is filed.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Filed {
    /// Not in the grid.
    Out,
    /// In the cells of this range; its entries are `first..first + count`.
    Cells {
        range: Range,
        first: u32,
        count: u32,
    },
    /// In the big list.
    Big,
}

/// A spatial hash of balls' swept boxes, its buffers kept from step to step.
#[derive(Clone, Debug, Default)]
pub(super) struct BallGrid {
    inv_cell: f32,
    /// Bucket count minus one (a power of two minus one).
    mask: u32,
    /// Each bucket's first entry.
    head: Vec<u32>,
    entries: Vec<Entry>,
    /// Entries marked dead since the last compaction.
    dead: usize,
    filed: Vec<Filed>,
    big: Vec<u32>,
    /// Buckets used by the last initial filing.
    fill_hint: usize,
    /// Buckets in use.
    used: usize,
}

/// The cell coordinate of `v` (scaled by the inverse cell size): `floor(v)`, or `None` when it is not finite
/// or too large. (A branch-free floor: `f32::floor` is a library call on baseline x86-64.)
#[inline]
fn cell_of(v: f32) -> Option<i32> {
    if !(v.abs() < 1e9) {
        return None;
    }
    let t = v as i32;
    Some(t - i32::from(v < t as f32))
}

/// A cell's 32-bit hash: a linear form of the coordinates with large odd coefficients, then mixed (murmur3's
/// finaliser, a bijection) so its high bits pick the bucket. Two cells collide only when their difference
/// solves `dx·A + dy·B + dz·C = 0 (mod 2^32)`, and no solution has every component below 1,000 (checked by
/// search; the shortest found is 2,238 cells long), so cells nearer than that never collide, unlike with an
/// xor of products. Entries keep it to tell the cells sharing a bucket apart.
#[inline]
fn cell_hash(x: i32, y: i32, z: i32) -> u32 {
    let mut h = (x as u32)
        .wrapping_mul(0x8da6_b343)
        .wrapping_add((y as u32).wrapping_mul(0xd816_3841))
        .wrapping_add((z as u32).wrapping_mul(0xcb1a_b31f));
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

/// The bucket of a cell hash.
#[inline]
fn bucket(h: u32, mask: u32) -> usize {
    ((h >> 7) & mask) as usize
}

impl BallGrid {
    /// Empty the grid for `n` balls and cells of side `cell`. The buckets are sized for the cells the grid
    /// used after its last initial filing ([`BallGrid::filed_all`]), or a few per ball the first time.
    pub(super) fn reset(&mut self, n: usize, cell: f32) {
        self.inv_cell = 1.0 / cell;
        let cells = if self.fill_hint > 0 {
            self.fill_hint
        } else {
            4 * n
        };
        let buckets = (3 * cells).next_power_of_two().max(64);
        self.mask = buckets as u32 - 1;
        self.head.clear();
        self.head.resize(buckets, NONE);
        self.entries.clear();
        self.dead = 0;
        self.used = 0;
        self.filed.clear();
        self.filed.resize(n, Filed::Out);
        self.big.clear();
    }

    /// Every ball has been filed: remember how many buckets that used (about the cells in use), to size the
    /// next step's buckets.
    pub(super) fn filed_all(&mut self) {
        self.fill_hint = self.used;
    }

    /// The cell range of the box `lo..=hi`, or `None` when it spans more than [`MAX_CELLS`] cells or is not
    /// finite.
    #[inline]
    fn range(&self, lo: Vec3, hi: Vec3) -> Option<Range> {
        // The lattice is shifted by a quarter cell, so the floor `y = 0` of a level lies inside a row of cells:
        // a ball resting on it (its box from `y = 0` to its diameter, under a cell) spans one row, not two.
        let shift = Vec3::splat(0.25);
        let (lo, hi) = (lo * self.inv_cell + shift, hi * self.inv_cell + shift);
        let a = [cell_of(lo.x)?, cell_of(lo.y)?, cell_of(lo.z)?];
        let b = [cell_of(hi.x)?, cell_of(hi.y)?, cell_of(hi.z)?];
        let count: i64 = (0..3).map(|k| i64::from(b[k] - a[k] + 1)).product();
        (count <= MAX_CELLS).then_some((a, b))
    }

    /// File ball `i` (not filed now) under the box `lo..=hi`.
    pub(super) fn insert(&mut self, i: usize, lo: Vec3, hi: Vec3) {
        match self.range(lo, hi).filter(|_| i < BALL_BITS as usize) {
            Some(range) => {
                let first = self.entries.len() as u32;
                self.link(i as u32, range);
                let count = self.entries.len() as u32 - first;
                self.filed[i] = Filed::Cells {
                    range,
                    first,
                    count,
                };
            }
            None => {
                self.filed[i] = Filed::Big;
                self.big.push(i as u32);
            }
        }
    }

    /// New entries for ball `i` in every cell of `range`.
    fn link(&mut self, i: u32, (a, b): Range) {
        for x in a[0]..=b[0] {
            for y in a[1]..=b[1] {
                for z in a[2]..=b[2] {
                    let h = cell_hash(x, y, z);
                    let k = bucket(h, self.mask);
                    let e = self.entries.len() as u32;
                    self.used += usize::from(self.head[k] == NONE);
                    let edges = u32::from(x == a[0])
                        | u32::from(y == a[1]) << 1
                        | u32::from(z == a[2]) << 2;
                    self.entries.push(Entry {
                        ball: i | edges << 29,
                        key: h,
                        next: self.head[k],
                    });
                    self.head[k] = e;
                }
            }
        }
    }

    /// File ball `i` under the box `lo..=hi` unless it is filed in cells covering that box's already; whether
    /// it was filed anew.
    pub(super) fn refile(&mut self, i: usize, lo: Vec3, hi: Vec3) -> bool {
        let want = self.range(lo, hi).filter(|_| i < BALL_BITS as usize);
        match (self.filed[i], want) {
            (Filed::Cells { range, .. }, Some((a, b)))
                if (0..3).all(|k| range.0[k] <= a[k] && b[k] <= range.1[k]) =>
            {
                false
            }
            (Filed::Big, None) => false,
            _ => {
                self.remove(i);
                self.insert(i, lo, hi);
                true
            }
        }
    }

    /// Take ball `i` out of the grid.
    pub(super) fn remove(&mut self, i: usize) {
        match std::mem::replace(&mut self.filed[i], Filed::Out) {
            Filed::Out => {}
            Filed::Big => self.big.retain(|&k| k as usize != i),
            Filed::Cells { first, count, .. } => {
                let (first, count) = (first as usize, count as usize);
                for e in &mut self.entries[first..first + count] {
                    e.ball = NONE;
                }
                self.dead += count;
                if self.dead > 64 && self.dead * 2 > self.entries.len() {
                    self.compact();
                }
            }
        }
    }

    /// Rebuild the chains from the live balls' ranges, dropping the dead entries.
    fn compact(&mut self) {
        self.head.fill(NONE);
        self.entries.clear();
        self.dead = 0;
        self.used = 0;
        for i in 0..self.filed.len() {
            if let Filed::Cells { range, .. } = self.filed[i] {
                let first = self.entries.len() as u32;
                self.link(i as u32, range);
                let count = self.entries.len() as u32 - first;
                self.filed[i] = Filed::Cells {
                    range,
                    first,
                    count,
                };
            }
        }
    }

    /// Every pair of balls filed in a common cell, and every ball paired with each ball in the big list, as
    /// (lower index, higher index), each pair once (a pair is taken in the lowest cell its two ranges share),
    /// into `out`, in no particular order. (Two cells with the same 32-bit hash could list a pair twice.)
    pub(super) fn pairs(&self, out: &mut Vec<(u32, u32)>) {
        out.clear();
        let entries = &self.entries;
        for &first in &self.head {
            let mut e = first;
            while e != NONE {
                let a = entries[e as usize];
                let mut f = a.next;
                if a.ball != NONE {
                    let ball_a = a.ball & BALL_BITS;
                    while f != NONE {
                        let b = entries[f as usize];
                        // The lowest cell both ranges share is, on each axis, the lowest cell of one of them.
                        if b.ball != NONE
                            && b.key == a.key
                            && (a.edges() | b.edges()) == 0b111
                            && b.ball & BALL_BITS != ball_a
                        {
                            let ball_b = b.ball & BALL_BITS;
                            out.push((ball_a.min(ball_b), ball_a.max(ball_b)));
                        }
                        f = b.next;
                    }
                }
                e = a.next;
            }
        }
        for &a in &self.big {
            for (b, filed) in self.filed.iter().enumerate() {
                let b = b as u32;
                let listed = match filed {
                    Filed::Out => false,
                    Filed::Cells { .. } => true,
                    // Two big balls: once.
                    Filed::Big => b > a,
                };
                if listed {
                    out.push((a.min(b), a.max(b)));
                }
            }
        }
    }

    /// Balls `k` with `keep(k)` whose swept boxes may touch `lo..=hi`, sorted, each once, into `out`; `false`
    /// (and `out` empty) when the box spans too many cells or is not finite: then every ball may touch it.
    pub(super) fn query(
        &self,
        lo: Vec3,
        hi: Vec3,
        keep: impl Fn(u32) -> bool,
        out: &mut Vec<u32>,
    ) -> bool {
        out.clear();
        let Some((a, b)) = self.range(lo, hi) else {
            return false;
        };
        for x in a[0]..=b[0] {
            for y in a[1]..=b[1] {
                for z in a[2]..=b[2] {
                    let h = cell_hash(x, y, z);
                    let mut e = self.head[bucket(h, self.mask)];
                    while e != NONE {
                        let entry = self.entries[e as usize];
                        if entry.ball != NONE && entry.key == h {
                            let k = entry.ball & BALL_BITS;
                            if keep(k) {
                                out.push(k);
                            }
                        }
                        e = entry.next;
                    }
                }
            }
        }
        out.extend(self.big.iter().copied().filter(|&k| keep(k)));
        out.sort_unstable();
        out.dedup();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_matches_the_library() {
        for v in [
            -2.5f32, -2.0, -1.5, -1e-30, -0.0, 0.0, 1e-30, 0.5, 1.0, 7.999, 8e6, -8e6, 9.9e8,
        ] {
            assert_eq!(cell_of(v), Some(v.floor() as i32), "{v}");
        }
        assert_eq!(cell_of(f32::NAN), None);
        assert_eq!(cell_of(f32::INFINITY), None);
        assert_eq!(cell_of(2e9), None);
    }

    /// The grid's answers are supersets of the brute-force overlaps, through inserts, removals and compaction.
    #[test]
    fn queries_find_every_overlapping_box() {
        let mut rng = crate::generate::SplitMix64::new(5);
        let n = 300;
        let mut grid = BallGrid::default();
        grid.reset(n, 1.0);
        let mut boxes = vec![None; n];
        let mut out = Vec::new();
        for round in 0..2000 {
            let i = rng.below(n);
            grid.remove(i);
            let c = Vec3::new(
                rng.range(-20.0, 20.0),
                rng.range(-5.0, 5.0),
                rng.range(-20.0, 20.0),
            );
            let e = if round % 97 == 0 {
                Vec3::splat(30.0)
            } else {
                Vec3::new(
                    rng.range(0.0, 1.5),
                    rng.range(0.0, 1.5),
                    rng.range(0.0, 1.5),
                )
            };
            grid.insert(i, c - e, c + e);
            boxes[i] = Some((c - e, c + e));
            let (lo, hi) = (c - Vec3::splat(0.7), c + Vec3::splat(0.7));
            assert!(grid.query(lo, hi, |_| true, &mut out));
            for (k, b) in boxes.iter().enumerate() {
                if let Some((l, h)) = b
                    && l.cmple(hi).all()
                    && h.cmpge(lo).all()
                {
                    assert!(out.binary_search(&(k as u32)).is_ok(), "round {round}: {k}");
                }
            }
            assert!(out.windows(2).all(|w| w[0] < w[1]));
        }
        assert!(!grid.query(Vec3::splat(-1e3), Vec3::splat(1e3), |_| true, &mut out));
        // Every pair of overlapping boxes is listed, once.
        let mut pairs = Vec::new();
        grid.pairs(&mut pairs);
        pairs.sort_unstable();
        assert!(pairs.windows(2).all(|w| w[0] < w[1]), "a pair listed twice");
        for a in 0..n {
            for b in a + 1..n {
                if let (Some((la, ha)), Some((lb, hb))) = (boxes[a], boxes[b])
                    && la.cmple(hb).all()
                    && ha.cmpge(lb).all()
                {
                    assert!(
                        pairs.binary_search(&(a as u32, b as u32)).is_ok(),
                        "{a} {b}"
                    );
                }
            }
        }
    }
}
