//! Each ball's nearby statics, kept from step to step: the scene's tree is asked once for a region around
//! the ball larger than it needs now (its box grown by a margin for the ball's speed), and while the boxes
//! the step asks about stay inside that region, the list answers them: each cached object is tested against
//! the box exactly as the tree's leaves test it, so the answer is the tree's own, in ascending order instead of
//! tree order. A ball crossing a large level thus asks the tree every few steps instead of twice a step plus
//! once an event. The lists are dropped when the scene is rebuilt (statics added).

use glam::Vec3;

use crate::scene::Scene;

/// One ball's cached region and the bounded statics touching it, ascending.
#[derive(Clone, Debug)]
struct Region {
    lo: Vec3,
    hi: Vec3,
    statics: Vec<u32>,
}

impl Default for Region {
    fn default() -> Self {
        // An empty region: contains no box.
        Self {
            lo: Vec3::INFINITY,
            hi: Vec3::NEG_INFINITY,
            statics: Vec::new(),
        }
    }
}

/// The balls' cached regions.
#[derive(Clone, Debug, Default)]
pub(super) struct NearStatics {
    regions: Vec<Region>,
    /// The scene generation the regions were filled under.
    generation: u64,
}

impl NearStatics {
    /// Make ready for a step of `n` balls in `scene`: regions of a rebuilt scene are dropped.
    pub(super) fn begin(&mut self, scene: &Scene, n: usize) {
        if self.generation != scene.generation() {
            self.regions.clear();
            self.generation = scene.generation();
        }
        self.regions.resize_with(n, Region::default);
    }

    /// Every static that may touch the box `lo..=hi` of ball `i` (the answer of [`Scene::candidates`]): the
    /// planes first, then the bounded statics ascending. When the box leaves the ball's region, the region is
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
            scene.candidates(lo, hi, f);
            return;
        };
        if !(lo.cmpge(region.lo).all() && hi.cmple(region.hi).all()) {
            let grow = Vec3::splat(margin.max(0.0));
            let (rlo, rhi) = (lo - grow, hi + grow);
            if !(rlo.is_finite() && rhi.is_finite()) {
                // Not cacheable: ask the tree for this box alone.
                region.lo = Vec3::INFINITY;
                region.hi = Vec3::NEG_INFINITY;
                scene.candidates(lo, hi, f);
                return;
            }
            region.lo = rlo;
            region.hi = rhi;
            region.statics.clear();
            scene.bounded_candidates(rlo, rhi, |k| region.statics.push(k as u32));
            region.statics.sort_unstable();
        }
        scene.unbounded_candidates(lo, hi, &mut f);
        for &k in &region.statics {
            if scene.box_touches(k as usize, lo, hi) {
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
        near.begin(&scene, 4);
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
