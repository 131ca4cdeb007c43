//! The broad phase for balls: a uniform hash grid of each ball's swept box for the rest of the step. Balls are
//! similar in size and move, so a grid re-filed per event suits them (statics sit in the scene's tree). A box
//! spanning more than [`MAX_CELLS`] cells is kept in a short "big" list that every query returns.

use std::collections::HashMap;

use glam::Vec3;

/// A fast hasher for grid cell keys (multiply-rotate, as rustc's FxHash): cell keys are small integers that
/// the default SipHash would spend most of the grid's time on. Only lookups use it; nothing iterates the map,
/// so determinism does not depend on it.
#[derive(Default, Clone, Copy)]
struct CellHasher(u64);

impl std::hash::Hasher for CellHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_i32(&mut self, v: i32) {
        self.write_u64(u64::from(v as u32));
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type CellMap = HashMap<(i32, i32, i32), Vec<u32>, std::hash::BuildHasherDefault<CellHasher>>;

/// Cells a swept box may span before the ball is kept in the "big" list instead.
const MAX_CELLS: i64 = 64;

/// A uniform grid of balls' swept boxes for the rest of the step.
pub(super) struct BallGrid {
    inv_cell: f32,
    cells: CellMap,
    ranges: Vec<Option<([i32; 3], [i32; 3])>>,
    big: Vec<u32>,
    is_big: Vec<bool>,
}

impl BallGrid {
    pub(super) fn new(n: usize, cell: f32) -> Self {
        Self {
            inv_cell: 1.0 / cell,
            cells: CellMap::default(),
            ranges: vec![None; n],
            big: Vec::new(),
            is_big: vec![false; n],
        }
    }

    fn range(&self, lo: Vec3, hi: Vec3) -> Option<([i32; 3], [i32; 3])> {
        let to = |v: f32| {
            let c = (v * self.inv_cell).floor();
            if c.is_finite() && c.abs() < 1e9 {
                Some(c as i32)
            } else {
                None
            }
        };
        let a = [to(lo.x)?, to(lo.y)?, to(lo.z)?];
        let b = [to(hi.x)?, to(hi.y)?, to(hi.z)?];
        let count: i64 = (0..3).map(|k| i64::from(b[k] - a[k] + 1)).product();
        (count <= MAX_CELLS).then_some((a, b))
    }

    pub(super) fn insert(&mut self, i: usize, lo: Vec3, hi: Vec3) {
        match self.range(lo, hi) {
            Some((a, b)) => {
                for x in a[0]..=b[0] {
                    for y in a[1]..=b[1] {
                        for z in a[2]..=b[2] {
                            self.cells.entry((x, y, z)).or_default().push(i as u32);
                        }
                    }
                }
                self.ranges[i] = Some((a, b));
            }
            None => {
                self.is_big[i] = true;
                self.big.push(i as u32);
            }
        }
    }

    pub(super) fn remove(&mut self, i: usize) {
        if self.is_big[i] {
            self.is_big[i] = false;
            self.big.retain(|&k| k as usize != i);
            return;
        }
        if let Some((a, b)) = self.ranges[i].take() {
            for x in a[0]..=b[0] {
                for y in a[1]..=b[1] {
                    for z in a[2]..=b[2] {
                        if let Some(v) = self.cells.get_mut(&(x, y, z))
                            && let Some(p) = v.iter().position(|&k| k as usize == i)
                        {
                            v.swap_remove(p);
                        }
                    }
                }
            }
        }
    }

    /// Balls whose swept boxes may touch `lo..=hi`, sorted, each once, into `out`; `false` (and `out` empty)
    /// when the box spans too many cells or is not finite: then every ball may touch it.
    pub(super) fn query(&self, lo: Vec3, hi: Vec3, out: &mut Vec<u32>) -> bool {
        out.clear();
        let Some((a, b)) = self.range(lo, hi) else {
            return false;
        };
        for x in a[0]..=b[0] {
            for y in a[1]..=b[1] {
                for z in a[2]..=b[2] {
                    if let Some(v) = self.cells.get(&(x, y, z)) {
                        out.extend_from_slice(v);
                    }
                }
            }
        }
        out.extend_from_slice(&self.big);
        out.sort_unstable();
        out.dedup();
        true
    }
}
