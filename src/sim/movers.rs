//! Movers in the simulation: obstacles that move during a step.
//!
//! The world's scene holds a level's movers ([`crate::scene::Scene::set_time`]); the world moves them by its
//! own clock, from 0 at [`World::from_level`](super::World). During a step from `T0` to `T1 = T0 + dt` the
//! scene stays at `T0`, and each moved entry goes in a straight line at constant velocity `u = d / dt` from its
//! place at `T0` to its place at `T1` (`d`: the difference of the two, both exact on the mover's path). At
//! the end of the step the scene is set to `T1`, so the entry ends exactly where its path has it.
//!
//! # Times of impact in the mover's frame
//! A ball whose clock is `t0` into the step, with `rest = dt − t0` left, is swept against the entry at its
//! start-of-step place: its centre moved back by the entry's displacement so far (`c − d·t0/dt`) and its motion
//! the relative one (`v·rest − d·rest/dt`). The sweep's fraction is the time of impact (the frame is only a
//! translation, so fractions and normals are the same in both); the contact point is moved forward again by
//! the displacement at that time. The time of impact is thus as exact as a static one, and a ball never
//! tunnels through a mover however fast either moves.
//!
//! # A step across a path corner (bounded, not split)
//! Where a mover turns a corner of its path, reaches an end, or starts or stops waiting inside a step, its
//! real place between `T0` and `T1` leaves the straight line by at most `speed · dt / 2` (at 60 Hz and 5 m/s,
//! 4 cm), and its velocity is the step's mean. Both ends of the step are exact, so nothing drifts, and the
//! overlap a corner may leave at the end of a step (at most that bound) is pushed out at the start of the next
//! one. Splitting the step at the corners would make every mover's corner a step of its own for every ball.
//!
//! # Responses with the relative velocity
//! A ball meeting a mover of velocity `u` is answered by the contact policy on `v − u` (the reflection with
//! restitution, the rest threshold, the approach test), then `u` is added back, so a ball resting on a rising
//! lift keeps the lift's velocity and rises with it. The push-out settles the same way on `v − u`, and a ball
//! sunk into a mover (a corner, rounding) is pushed out along the contact normal with at least the mover's
//! velocity along it, so it does not sink again.
//!
//! # Triggers
//! An `OnTrigger` mover starts when a ball enters its trigger: at the end of that step (at most one step late),
//! so its motion is always swept from a place the balls were kept out of.

use glam::Vec3;

use crate::bvh::AabbTree;
use crate::id::ObjectId;
use crate::query::Toi;
use crate::scene::Scene;
use crate::shape::{Aabb, Sphere};
use crate::statics::Static;

/// A moved scene entry during one step.
#[derive(Clone, Copy, Debug)]
pub(super) struct Moving {
    /// The scene index.
    pub(super) index: u32,
    /// Its displacement over the step (its place at `T1` minus its place at `T0`).
    pub(super) d: Vec3,
    /// The box it sweeps over the step (its padded box at both places).
    pub(super) lo: Vec3,
    pub(super) hi: Vec3,
}

/// The world's moved entries and their motion in the current step.
#[derive(Clone, Debug, Default)]
pub(super) struct Movers {
    /// (scene index, object id) of each moved entry, ascending.
    entries: Vec<(u32, ObjectId)>,
    /// The slot in `step` of each scene index (`u32::MAX`: static); empty without movers.
    slot: Vec<u32>,
    /// This step's motion of each entry, in the order of `entries`.
    pub(super) step: Vec<Moving>,
    /// The step's length, seconds.
    dt: f64,
    /// The swept boxes of `step` (item `k`: `step[k]`) in a tree, refitted at each step's start (a ball's
    /// prediction asks it instead of every mover: its shape is the first step's, and movers stay near
    /// their paths). Rebuilt when a box is missing from it or not valid.
    tree: AabbTree,
    /// The boxes the tree was refitted to.
    swept: Vec<Aabb>,
    /// Scratch: each entry's displacement over the step, by slot.
    moved: Vec<Vec3>,
}

impl Movers {
    /// Take the moved entries of `scene` (after its movers were installed).
    pub(super) fn install(&mut self, scene: &Scene) {
        self.entries.clear();
        self.slot.clear();
        self.step.clear();
        for i in 0..scene.len() {
            if scene.is_moving_entry(i) {
                self.entries.push((i as u32, scene.ids()[i]));
            }
        }
        if !self.entries.is_empty() {
            self.slot.resize(scene.len(), u32::MAX);
            for (k, &(i, _)) in self.entries.iter().enumerate() {
                self.slot[i as usize] = k as u32;
            }
        }
    }

    /// Whether any entry moves (a world without movers skips everything here).
    pub(super) fn any(&self) -> bool {
        !self.entries.is_empty()
    }

    /// Make ready for a step of `dt` seconds from scene time `t0` to `t1` (the scene is at `t0`).
    pub(super) fn begin(&mut self, scene: &Scene, t0: f32, t1: f32, dt: f64) {
        self.dt = dt;
        self.step.clear();
        self.swept.clear();
        // Each entry's displacement by slot: the scene gives them in its own order, from its movers' states
        // (it is at `t0`) with no search by object.
        self.moved.clear();
        if scene.time().to_bits() == t0.to_bits() {
            self.moved.resize(self.entries.len(), Vec3::ZERO);
            scene.moved_displacements(t1, |i, d| {
                if let Some(&k) = self.slot.get(i)
                    && let Some(x) = self.moved.get_mut(k as usize)
                {
                    *x = d;
                }
            });
        } else {
            self.moved.extend(self.entries.iter().map(|&(_, object)| {
                scene.mover_offset_at(object, t1) - scene.mover_offset_at(object, t0)
            }));
        }
        let mut valid = 0;
        for (&(index, _), &d) in self.entries.iter().zip(&self.moved) {
            let d = if d.is_finite() { d } else { Vec3::ZERO };
            let (min, max) = scene.padded_box(index as usize);
            let m = Moving {
                index,
                d,
                lo: min.min(min + d),
                hi: max.max(max + d),
            };
            let b = Aabb::new(m.lo, m.hi);
            valid += usize::from(b.is_valid());
            self.swept.push(b);
            self.step.push(m);
        }
        if valid != self.tree.len() || !self.tree.refit_all(&self.swept) {
            self.tree = AabbTree::new(&self.swept);
        }
    }

    /// Whether scene index `s` is moved.
    #[inline]
    pub(super) fn is_moving(&self, s: usize) -> bool {
        matches!(self.slot.get(s), Some(&k) if k != u32::MAX)
    }

    /// The velocity of scene index `s` in this step (zero for a static).
    #[inline]
    pub(super) fn velocity(&self, s: usize) -> Vec3 {
        match self.slot.get(s) {
            Some(&k) if k != u32::MAX && self.dt > 0.0 => self
                .step
                .get(k as usize)
                .map_or(Vec3::ZERO, |m| (m.d.as_dvec3() / self.dt).as_vec3()),
            _ => Vec3::ZERO,
        }
    }

    /// The moved entries whose swept boxes touch `lo..=hi`, in scene order (found in the tree, then sorted, so
    /// the answers come in the order of a scan of every entry).
    #[inline]
    pub(super) fn touching(&self, lo: Vec3, hi: Vec3, mut f: impl FnMut(&Moving)) {
        let mut found: Vec<u32> = Vec::new();
        self.tree.query(lo, hi, |k| found.push(k as u32));
        found.sort_unstable();
        for k in found {
            if let Some(m) = self.step.get(k as usize) {
                f(m);
            }
        }
    }

    /// The displacement of moved entry `m` from the start of the step to `t` seconds into it.
    #[inline]
    pub(super) fn shift(&self, m: &Moving, t: f64) -> Vec3 {
        if self.dt > 0.0 {
            m.d * (t / self.dt) as f32
        } else {
            Vec3::ZERO
        }
    }
}

/// A ball's sweep against a moved entry in the entry's frame (see the module's notes): `shape` is the entry at
/// its start-of-step place, the ball `sphere` is where it is at its clock `t0` (seconds into the step) and
/// moves by `motion` over the `rest` seconds left; `movers` gives the entry's displacement. `keep` filters the
/// contacts (in the frame: its normal is the world's). Returns the contact with its fraction of `rest` and its
/// point where the entry is at that time.
pub(super) fn sweep_in_frame(
    movers: &Movers,
    m: &Moving,
    shape: &Static,
    sphere: &Sphere,
    motion: Vec3,
    (t0, rest): (f64, f64),
    keep: impl Fn(&Toi) -> bool,
) -> Option<Toi> {
    let back = movers.shift(m, t0);
    let rel = motion - movers.shift(m, t0 + rest) + back;
    let s = Sphere::new(sphere.center - back, sphere.radius);
    let found = match shape {
        Static::Mesh(mesh) => mesh.sweep_sphere_where(&s, rel, &keep).map(|(toi, _)| toi),
        other => other.sweep_sphere(&s, rel).filter(|toi| keep(toi)),
    }?;
    let at = t0 + f64::from(found.t) * rest;
    Some(Toi {
        point: found.point + movers.shift(m, at),
        ..found
    })
}
