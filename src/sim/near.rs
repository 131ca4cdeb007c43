//! Each ball's nearby statics, kept from step to step: the scene's tree is asked once for a region around
//! the ball larger than it needs now (its box grown by a margin for the ball's speed), and while the boxes
//! the step asks about stay inside that region, the list answers them: each cached object is tested against
//! the box exactly as the tree's leaves test it, so the answer is the tree's own, in ascending order instead of
//! tree order. A ball crossing a large level thus asks the tree every few steps instead of twice a step plus
//! once an event. The lists are dropped when the scene is rebuilt (statics added).

use glam::Vec3;

use crate::scene::Scene;

/// One ball's cached region and where its statics lie in the pool.
#[derive(Clone, Copy, Debug)]
struct Region {
    lo: Vec3,
    hi: Vec3,
    start: u32,
    len: u32,
}

impl Default for Region {
    fn default() -> Self {
        // An empty region: contains no box.
        Self {
            lo: Vec3::INFINITY,
            hi: Vec3::NEG_INFINITY,
            start: 0,
            len: 0,
        }
    }
}

/// The balls' cached regions. Their statics (indices) lie in one pool, each region's as a run, ascending; a region asked
/// again appends its new run and leaves the old one behind, and the pool is rebuilt in ball order when the
/// runs left behind outnumber the live ones (so the step, which visits the balls in order, reads it in order).
#[derive(Clone, Debug, Default)]
pub(super) struct NearStatics {
    regions: Vec<Region>,
    pool: Vec<u32>,
    /// Entries of the pool in live runs.
    live: usize,
    /// The world's structure count the regions were filled under.
    generation: u64,
}

impl NearStatics {
    /// Make ready for a step of `n` balls among statics at `structure` (the world's count of
    /// changes to them): regions of changed statics are dropped, and the pool is rebuilt in ball order when
    /// most of it is left behind. Moved entries are never cached (the world meets them in `movers.rs`), so
    /// the motion of movers keeps the regions.
    pub(super) fn begin(&mut self, n: usize, structure: u64) {
        if self.generation != structure {
            self.regions.clear();
            self.pool.clear();
            self.live = 0;
            self.generation = structure;
        }
        self.regions.resize_with(n, Region::default);
        self.live = self.regions.iter().map(|r| r.len as usize).sum();
        if self.pool.len() > 2 * self.live + 1024 {
            let mut pool = Vec::with_capacity(2 * self.live);
            for r in &mut self.regions {
                let run = &self.pool[r.start as usize..(r.start + r.len) as usize];
                r.start = pool.len() as u32;
                pool.extend_from_slice(run);
            }
            self.pool = pool;
        }
    }

    /// Every static that may touch the box `lo..=hi` of ball `i` (the answer of [`Scene::candidates`] less
    /// the moved entries): the planes first, then the bounded statics ascending. When the box leaves the ball's region, the region is
    /// asked of the tree again, grown by `margin` on every side.
    pub(super) fn candidates(
        &mut self,
        scene: &Scene,
        i: usize,
        lo: Vec3,
        hi: Vec3,
        margin: f32,
        mut f: impl FnMut(usize),
    ) {
        let Some(region) = self.regions.get_mut(i) else {
            scene.candidates(lo, hi, |k| {
                if !scene.is_moving_entry(k) {
                    f(k);
                }
            });
            return;
        };
        if !(lo.cmpge(region.lo).all() && hi.cmple(region.hi).all()) {
            let grow = Vec3::splat(margin.max(0.0));
            let (rlo, rhi) = (lo - grow, hi + grow);
            self.live -= region.len as usize;
            if !(rlo.is_finite() && rhi.is_finite()) {
                // Not cacheable: ask the tree for this box alone.
                *region = Region::default();
                scene.candidates(lo, hi, |k| {
                    if !scene.is_moving_entry(k) {
                        f(k);
                    }
                });
                return;
            }
            let start = self.pool.len();
            scene.bounded_candidates(rlo, rhi, |k| {
                if !scene.is_moving_entry(k) {
                    self.pool.push(k as u32);
                }
            });
            self.pool[start..].sort_unstable();
            *region = Region {
                lo: rlo,
                hi: rhi,
                start: start as u32,
                len: (self.pool.len() - start) as u32,
            };
            self.live += region.len as usize;
        }
        scene.unbounded_candidates(lo, hi, &mut f);
        let run = &self.pool[region.start as usize..(region.start + region.len) as usize];
        for &k in run {
            // The tree's leaf test, on the same box.
            let (min, max) = scene.padded_box(k as usize);
            if min.cmple(hi).all() && max.cmpge(lo).all() {
                f(k as usize);
            }
        }
    }
}

/// How far beyond a ball's box its region reaches: its radius and two steps of its motion, at most 8 radii
/// (a very fast ball asks the tree more often rather than hold a long list).
pub(super) fn margin(radius: f32, speed: f32, dt: f32) -> f32 {
    (radius + 2.0 * speed * dt).min(8.0 * radius)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::ObjectId;
    use crate::shape::{Aabb, Plane};
    use crate::sim::Static;

    /// The cached answers equal the scene's own, as balls wander through many boxes.
    #[test]
    fn cached_answers_equal_the_trees() {
        let mut rng = crate::generate::SplitMix64::new(3);
        let mut objects = vec![(ObjectId(0), Static::Plane(Plane::new(Vec3::Y, 0.0)))];
        for k in 0..400 {
            let c = Vec3::new(
                rng.range(-30.0, 30.0),
                rng.range(0.0, 5.0),
                rng.range(-30.0, 30.0),
            );
            let e = Vec3::new(
                rng.range(0.1, 2.0),
                rng.range(0.1, 2.0),
                rng.range(0.1, 2.0),
            );
            objects.push((ObjectId(k + 1), Static::Aabb(Aabb::new(c - e, c + e))));
        }
        let scene = Scene::from_objects(objects);
        let mut near = NearStatics::default();
        near.begin(4, 1);
        let mut pos = [Vec3::ZERO; 4];
        for step in 0..3000 {
            let i = step % 4;
            pos[i] += Vec3::new(
                rng.range(-0.5, 0.5),
                rng.range(-0.2, 0.2),
                rng.range(-0.5, 0.5),
            );
            let r = rng.range(0.1, 1.0);
            let (lo, hi) = (pos[i] - Vec3::splat(r), pos[i] + Vec3::splat(r));
            let mut want = Vec::new();
            scene.candidates(lo, hi, |k| want.push(k));
            let mut got = Vec::new();
            near.candidates(&scene, i, lo, hi, margin(r, 3.0, 1.0 / 60.0), |k| {
                got.push(k)
            });
            // The plane is object 0: first either way.
            want.sort_unstable();
            assert_eq!(got, want, "step {step}");
        }
    }
}
