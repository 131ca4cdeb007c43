//! One move: push out of an overlapping start, collide and slide (each contact a plane the motion left is
//! projected along), step up risers, then find the ground and snap down onto it. Every sweep is of the body
//! with its radius grown by half the skin, and each stops short of its contact so that the real body keeps
//! the whole skin from what it met: that gap is what lets the next motion slide freely.

use glam::Vec3;

use super::result::{
    CharacterHit, CharacterMove, Constraint, Ground, Limit, MoveTrace, PushOut, SweepHit,
    SweepPhase, SweepRecord, degrees_from_up,
};
use super::support::{faces_at, faces_near};
use super::{CharacterController, pushout};
use crate::id::ObjectId;
use crate::scene::{NearScene, Scene, SceneToi};
use crate::shape::Capsule;
use clip::{Plane, Planes, add_plane, clip};

mod clip;
mod hung;
mod into;
mod step;

/// Below this, a motion is done.
const TINY: f32 = 1e-7;

/// The state of one move in progress.
pub(super) struct Mover<'a> {
    ctl: &'a CharacterController,
    scene: &'a Scene,
    /// `cos(max_slope_deg)`: a face whose normal has at least this `y` is walkable.
    walkable_y: f32,
    /// Whether the workings are kept in `trace` (the hits are always kept: they are part of the answer).
    record: bool,
    trace: MoveTrace,
    hits: Vec<CharacterHit>,
    /// The ground under the start, which the walk follows (kept apart from the trace, which may be off).
    start_ground: Option<Ground>,
    /// A list of ids kept for a [`Limit::Corner`], so a move in a corner allocates nothing once warm.
    spare: Vec<ObjectId>,
    /// The last reason the motion was cut short.
    block: Option<Limit>,
    /// The height of the ground the move started from (or last stood on), for measuring risers.
    ground_y: Option<f32>,
    /// The height of the edge the body stood on at the start, held by its rounded bottom above its feet (see
    /// [`Self::ground_at_start`]): a step onto that edge's tread climbs by the feet's rise.
    held_edge: Option<f32>,
    /// Whether the body stood on something walkable at the start or met something walkable since.
    on_ground: bool,
    stepped_up: f32,
    /// The move's motion's horizontal direction (unit, or zero): no step-up ends back against it.
    heading: Vec3,
    /// Whether the caller has just found the body at the start overlapping nothing (the start's overlap test
    /// would answer the same, so it is skipped).
    start_clear: bool,
    /// What lies near the move, gathered once after the start is settled (see `scene/near.rs`); `None`
    /// before, and every query then walks the scene's trees.
    near: Option<NearScene>,
    /// Whether a step settling onto its tread moves on over an edge higher than the riser's top that is still
    /// within a step of the feet (a faceted log's next edge), rather than back off it (the next riser's nosing
    /// of stairs narrower than the body): the step is tried the second way only when the first is refused.
    over_higher_edges: bool,
    /// Whether the last settling onto a tread moved back off an edge that the second way would move on over:
    /// only then can that second try end otherwise, so only then is it made.
    backed_off_within_step: bool,
}

/// What one sweep did.
struct Swept {
    to: Vec3,
    hit: Option<SceneToi>,
}

impl<'a> Mover<'a> {
    /// A move that keeps its workings, in buffers of its own.
    pub(super) fn new(ctl: &'a CharacterController, scene: &'a Scene) -> Self {
        Self::with_buffers(
            ctl,
            scene,
            true,
            MoveTrace::default(),
            Vec::new(),
            Vec::new(),
        )
    }

    /// A move that writes into the buffers given (emptied first), keeping its workings when `record`.
    fn with_buffers(
        ctl: &'a CharacterController,
        scene: &'a Scene,
        record: bool,
        mut trace: MoveTrace,
        mut hits: Vec<CharacterHit>,
        spare: Vec<ObjectId>,
    ) -> Self {
        trace.sweeps.clear();
        trace.steps.clear();
        trace.push_out = None;
        trace.ground_at_start = None;
        hits.clear();
        Self {
            ctl,
            scene,
            walkable_y: ctl.max_slope_deg.to_radians().cos(),
            record,
            trace,
            hits,
            start_ground: None,
            spare,
            block: None,
            ground_y: None,
            held_edge: None,
            on_ground: false,
            stepped_up: 0.0,
            heading: Vec3::ZERO,
            start_clear: false,
            near: None,
            over_higher_edges: false,
            backed_off_within_step: false,
        }
    }

    /// Skip the start's overlap test: the caller found [`Mover::body`] at the start overlapping nothing.
    pub(super) fn start_clear(mut self, clear: bool) -> Self {
        self.start_clear = clear;
        self
    }

    /// The body used for every sweep and overlap: radius grown by half the skin.
    fn body(&self, feet: Vec3) -> Capsule {
        let mut c = self.ctl.capsule(feet);
        c.radius += self.ctl.skin * 0.5;
        c
    }

    /// Sweep the body from `from` by `motion`, stopping short of the first contact so that the grown body keeps
    /// half the skin from it (measured along its normal), never moving back past `from`.
    fn sweep(&mut self, phase: SweepPhase, iteration: u32, from: Vec3, motion: Vec3) -> Swept {
        let hit = self
            .scene
            .sweep_capsule_near(self.near.as_ref(), &self.body(from), motion);
        let to = match &hit {
            None => from + motion,
            Some(h) => {
                let len = motion.length();
                let dir = motion / len;
                let travel = h.t * len;
                let closing = (-h.normal).dot(dir);
                let back = if closing > 0.0 {
                    self.ctl.skin * 0.5 / closing.max(0.05)
                } else {
                    travel
                };
                from + dir * (travel - back).max(0.0)
            }
        };
        if !self.record {
            return Swept { to, hit };
        }
        self.trace.sweeps.push(SweepRecord {
            phase,
            iteration,
            from,
            motion,
            hit: hit.map(|h| SweepHit {
                object: h.object,
                t: h.t,
                point: h.point,
                normal: h.normal,
                constraint: None,
            }),
            to,
            left: Vec3::ZERO,
        });
        Swept { to, hit }
    }

    /// The supporting face through a contact: the most level face of the object at the point, or when it has
    /// none walkable, the most level of any object's faces through the point (a riser and its tread held by two
    /// objects meet at the nosing, and the sweep names the lower id); the contact normal when none is found.
    /// Also whether the contact is on the interior of a face of the object hit.
    fn support(&self, hit: &SceneToi, feet: Vec3) -> (Vec3, bool) {
        let axis = self.axis_near(feet, hit.point);
        let tol = 1e-5 * (1.0 + hit.point.abs().max_element());
        let faces = self
            .scene
            .object_near(self.near.as_ref(), hit.object)
            .map(|(s, tris)| faces_near(s, tris.as_ref(), hit.point, axis, tol))
            .unwrap_or_default();
        let on_face = faces.has(hit.normal);
        let mut best = faces.most_level();
        // Only a contact facing up can rest on another object's face (a wall's contact cannot: skipped, as the
        // slides along walls are most contacts).
        if hit.normal.y > 1e-3 && best.is_none_or(|n| n.y < self.walkable_y) {
            let r = Vec3::splat(tol);
            self.scene
                .objects_in_box(hit.point - r, hit.point + r, |id, shape| {
                    let through = shape
                        .closest_point(hit.point, tol)
                        .is_some_and(|q| q.distance(hit.point) <= tol);
                    if id == hit.object || !through {
                        return;
                    }
                    if let Some(n) = faces_at(shape, hit.point, axis, tol).most_level()
                        && best.is_none_or(|b| n.y > b.y)
                    {
                        best = Some(n);
                    }
                });
        }
        (best.unwrap_or(hit.normal), on_face)
    }

    /// Whether the contact `point` of the body at `feet` lies under it within the walkable cone: the direction
    /// from the point to the nearest point of the body's axis is no steeper from up than `max_slope_deg`.
    fn met_from_above(&self, feet: Vec3, point: Vec3) -> bool {
        self.cos_from_up(feet, point) >= self.walkable_y
    }

    /// Whether the body at `feet` is higher over the face of its ground `g` than the skin band (two skins,
    /// and a millimetre): measured from the body's bottom sphere to the plane of the supporting face, upright.
    /// A body risen against a steep rim beside it (a squat tilted cylinder's, 68°), with a floor found under
    /// it by the probe past the edge (`held_below`, whose reach is grown for slopes), was 9.5 cm over that
    /// floor: rising, it stands on neither (found by `never_back_against_the_motion_on_random_levels` with
    /// another proptest seed than CI's).
    fn over_band(&self, feet: Vec3, g: &Ground) -> bool {
        let (r, skin) = (self.ctl.radius, self.ctl.skin);
        if g.normal.y <= 1e-3 || g.point.y >= feet.y - 2.0 * skin - 1e-3 {
            return false;
        }
        let centre = feet + Vec3::Y * r;
        (g.normal.dot(centre - g.point) - r) / g.normal.y > 2.0 * skin + 1e-3
    }

    /// The cosine of the angle from up of the direction from the contact `point` to the nearest point of the
    /// axis of the body at `feet` (1: the contact straight under the axis, 0: level with it).
    fn cos_from_up(&self, feet: Vec3, point: Vec3) -> f32 {
        (self.axis_near(feet, point) - point).normalize_or_zero().y
    }

    /// Whether an edge contact at `point` of the body at `feet` is higher above the feet than a step climbs
    /// from there (the riser from the feet's floor, a skin under them, to the edge is more than `max_step`, as
    /// the step measures it from an edge the body stands on) and outside the walkable cone under the axis
    /// ([`Self::met_from_above`]): the body hangs beside it. Held there, it could neither climb nor leave.
    fn hangs_beside(&self, feet: Vec3, point: Vec3) -> bool {
        point.y - feet.y > self.ctl.max_step - self.ctl.skin + 1e-3
            && !self.met_from_above(feet, point)
    }

    /// Whether an edge contact at `point` of the body at `feet` lies at its side rather than under it: the
    /// direction from the point to the nearest point of the axis is more than 60° from up (and outside the
    /// walkable cone). A rounded bottom held there rests on the edge by a sliver of itself, however low the
    /// edge: a 1.26 m body hung for good on a crate's corner 0.47 m above its feet, within its 0.55 m step, the
    /// contact 75° from up.
    fn held_at_side(&self, feet: Vec3, point: Vec3) -> bool {
        self.cos_from_up(feet, point) < self.walkable_y.min(SIDE_COS)
    }

    /// Feet `drop` above resting on their ground, settled (and how far snapped): as they are within a skin,
    /// snapped within `snap_distance` when `falling` (the motion not rising), else `None` (not on the ground).
    fn settled(&self, end: Vec3, drop: f32, falling: bool) -> Option<(Vec3, f32)> {
        if drop <= self.ctl.skin + 1e-5 {
            Some((end, 0.0))
        } else if falling && drop <= self.ctl.snap_distance + 1e-5 {
            Some((end - Vec3::Y * drop, drop))
        } else {
            None
        }
    }

    /// What walkable lies under the body at `feet` within `reach` (a probe's), found by a sphere inside the
    /// body's bottom (as low, half as wide as the walkable cone there, so clear of an edge the body hangs
    /// beside) swept down: a body standing on a floor while an edge beside it is met first is held up as
    /// before, and that floor is its ground. On a slope the narrow sphere meets the ground lower than the body
    /// does: its reach is grown by the difference at the steepest walkable slope (at most the radius) and a
    /// skin.
    fn held_below(&self, feet: Vec3, reach: f32) -> Option<Ground> {
        let (r, skin) = (self.ctl.radius, self.ctl.skin);
        let sin = (1.0 - self.walkable_y * self.walkable_y).max(0.0).sqrt();
        let narrow = (0.5 * r * sin).max(1e-3).min(r);
        let centre = feet + Vec3::Y * narrow;
        let sphere = Capsule::new(centre, centre, narrow + 0.5 * skin);
        let slack = ((r - narrow) * (1.0 / self.walkable_y.max(1e-3) - 1.0)).min(r);
        let motion = Vec3::NEG_Y * (reach + slack + skin);
        let hit = self
            .scene
            .sweep_capsule_near(self.near.as_ref(), &sphere, motion)?;
        let (support, _) = self.walkable_support(&hit, feet)?;
        Some(Ground {
            object: hit.object,
            point: hit.point,
            normal: support,
        })
    }

    /// The supporting face through `hit` ([`Self::support`]) and whether the contact is on a face's interior,
    /// when that face can hold the body up: walkable, and the contact facing up.
    fn walkable_support(&self, hit: &SceneToi, feet: Vec3) -> Option<(Vec3, bool)> {
        let (support, on_face) = self.support(hit, feet);
        if support.y < self.walkable_y || hit.normal.y <= 0.0 {
            return None;
        }
        Some((support, on_face))
    }

    /// The point of the axis of the body at `feet` nearest `point`.
    fn axis_near(&self, feet: Vec3, point: Vec3) -> Vec3 {
        crate::query::closest::point_segment(point, &self.ctl.capsule(feet).segment())
    }

    /// The ground under `feet`: a short probe down (or down to `snap` when that is farther). Answers the ground
    /// and how far down the feet would settle onto it (0 when already within the skin band).
    fn probe_ground(&mut self, feet: Vec3, reach: f32, phase: SweepPhase) -> Option<(Ground, f32)> {
        let swept = self.sweep(phase, 0, feet, Vec3::NEG_Y * reach);
        let hit = swept.hit?;
        let support = self.walkable_support(&hit, feet);
        // An edge held on the rounded side, higher above the feet than a step and outside the walkable cone
        // under the axis, or at the body's side (past 60° from up) however low, does not hold the body up
        // unless something walkable lies under it within reach (its most level face is a tread it hangs beside,
        // not one it stands on): it slides down off the edge as off a steep face. Where something does, that is
        // the body's ground, not the edge beside it: a body on a floor touching a higher floor's edge at its
        // side stood on that edge's object (a mover beside it carried it; steering, reading a contact half a
        // metre over the feet as a rim above a jump's take-off, never jumped there: the navigation soak's
        // sector seed 33). So too an edge at the body's side whose faces toward it hold nothing up (a thin
        // roof's rim sloping away, passed beside): else a rim 2 mm inside a wide body's side, met on the snap's
        // way down a slope, threw it off (navigation seed 102).
        let beside = match support {
            Some((_, on_face)) => self.beside_edge(swept.to, hit.point, on_face),
            None => hit.normal.y > 0.0 && self.held_at_side(swept.to, hit.point),
        };
        if beside {
            let below = self.held_below(feet, reach)?;
            return Some((below, feet.y - swept.to.y));
        }
        let (support, _) = support?;
        Some((
            Ground {
                object: hit.object,
                point: hit.point,
                normal: support,
            },
            feet.y - swept.to.y,
        ))
    }

    /// The whole move.
    pub(super) fn run(mut self, feet: Vec3, motion: Vec3) -> CharacterMove {
        self.heading = Vec3::new(motion.x, 0.0, motion.z).normalize_or_zero();
        self.gather_near(feet, motion);
        let pos = match self.push_out_start(feet) {
            Ok(pos) => pos,
            Err(objects) => {
                return self.finish(
                    feet,
                    motion,
                    feet,
                    None,
                    0.0,
                    Some(Limit::Inside { objects }),
                );
            }
        };
        if pos != feet {
            self.gather_near(pos, motion);
        }
        let standing = self.ground_at_start(pos);
        let (walk, fall, planes) = self.split(motion, standing);
        let (end, left, used) = self.slide(pos, walk, planes, 0);
        let (mut end, mut ground, snapped, left) = self.settle(end, motion, fall, used, left);
        // Never inside by construction; checked all the same (one overlap test). A body that rose through a
        // one-way floor and ended within its tolerance of resting on it counts as on it, and overlapping: it
        // is lifted onto it a skin above; a body standing a hair into a rim it grazed, half a skin up. Anything
        // else falls back to the start, with the start's ground.
        if self.overlaps(end) {
            let onto = ground.map_or(end.y, |g| g.point.y) + self.ctl.skin;
            let lifted = Vec3::new(end.x, onto.max(end.y), end.z);
            let band = ground.map_or(f32::NEG_INFINITY, |g| g.point.y + 2.0 * self.ctl.skin);
            if onto > end.y && onto - end.y <= self.ctl.skin && !self.overlaps(lifted) {
                end = lifted;
            } else if let Some(up) = self.lifted(end).filter(|up| up.y <= band) {
                // Standing, a hair into what the walk grazed (a rim held steeply, the sweep's tolerance): half a
                // skin up, within the skin band of the ground it stands on, rather than back to the start, where
                // the same move would end the same way for ever.
                end = up;
            } else {
                end = pos;
                ground = self
                    .probe_ground(pos, 2.5 * self.ctl.skin, SweepPhase::Ground)
                    .filter(|(_, drop)| *drop <= self.ctl.skin + 1e-5)
                    .map(|(g, _)| g);
            }
        }
        let limit = self.shortfall(motion, end - feet, left);
        self.finish(feet, motion, end, ground, snapped, limit)
    }

    /// Whether the body at `feet` overlaps anything.
    fn overlaps(&self, feet: Vec3) -> bool {
        self.scene
            .overlaps_capsule_any_near(self.near.as_ref(), &self.body(feet))
    }

    /// Gather what lies near the move from `pos` by `motion`: within the motion's length, a step, the snap
    /// probe and a few skins of the body there, every way (slides turn the motion but never lengthen it). A
    /// query reaching past it walks the trees, so this decides only how many do.
    fn gather_near(&mut self, pos: Vec3, motion: Vec3) {
        let ctl = self.ctl;
        let (len, skin) = (motion.length(), ctl.skin);
        let b = self.body(pos).bounds();
        let side = len + 2.0 * skin;
        let below = Vec3::new(side, len + snap_probe_length(ctl) + 3.0 * skin, side);
        let above = Vec3::new(side, len + ctl.max_step + 3.0 * skin, side);
        let mut near = self.near.take().unwrap_or_else(NearScene::take);
        self.scene
            .gather_near(b.min - below, b.max + above, &mut near);
        self.near = Some(near);
    }

    /// Push a start that overlaps out; `Err` with what it overlaps when it cannot be.
    fn push_out_start(&mut self, feet: Vec3) -> Result<Vec3, Vec<ObjectId>> {
        if self.start_clear || !self.overlaps(feet) {
            return Ok(feet);
        }
        let ctl = *self.ctl;
        let out = pushout::push_out(self.scene, feet, ctl.radius + ctl.skin, |f| self.body(f));
        if self.record {
            self.trace.push_out = Some(PushOut {
                from: feet,
                to: out.feet,
                objects: out.objects.clone(),
                resolved: out.resolved,
            });
        }
        if out.resolved {
            Ok(out.feet)
        } else {
            Err(out.objects)
        }
    }

    /// The ground under the start (a probe down through the skin band): whether the body stands on it.
    fn ground_at_start(&mut self, pos: Vec3) -> bool {
        let ctl = *self.ctl;
        let Some((g, drop)) = self.probe_ground(pos, 2.5 * ctl.skin, SweepPhase::Ground) else {
            return false;
        };
        self.ground_y = Some(g.point.y);
        self.on_ground = true;
        self.start_ground = Some(g);
        if self.record {
            self.trace.ground_at_start = Some(g);
        }
        let standing = drop <= ctl.skin + 1e-5;
        // Standing on an edge held by the rounded bottom (the contact above the feet's skin band: a rim over a
        // slot, a crate's corner within a step), on the ground (a move with a snap: `Body::step` moves a body
        // in the air without one, and a body in the air steps up nothing).
        if standing && ctl.snap_distance > 0.0 && g.point.y > pos.y + ctl.skin {
            self.held_edge = Some(g.point.y);
        }
        standing
    }

    /// Standing within the skin band, the ground takes the motion's downward part while it supports the body:
    /// the walk is horizontal (following the ground, whose plane the walk starts against), and only what is
    /// left of the fall once off the ground is fallen (walking off a ledge). The feet keep their height instead
    /// of sinking through the band move by move. Answers the walk, the fall and the starting planes.
    fn split(&self, motion: Vec3, standing: bool) -> (Vec3, f32, Planes) {
        match self.start_ground {
            Some(g) if standing => {
                let planes = Planes::one(Plane {
                    normal: g.normal,
                    constraint: Constraint::Ground,
                    object: g.object,
                });
                if motion.y < 0.0 {
                    (Vec3::new(motion.x, 0.0, motion.z), motion.y, planes)
                } else {
                    (motion, 0.0, planes)
                }
            }
            _ => (motion, 0.0, Planes::new()),
        }
    }

    /// After the walk: the fall left (when off the ground), then the ground at the end and the snap, with one
    /// probe down to the farther of the skin band and the snap. Answers the end, the ground, the snap's drop and
    /// the motion left undone.
    fn settle(
        &mut self,
        mut end: Vec3,
        motion: Vec3,
        fall: f32,
        used: u32,
        mut left: Vec3,
    ) -> (Vec3, Option<Ground>, f32, Vec3) {
        let ctl = *self.ctl;
        let reach = if motion.y <= 0.0 {
            snap_probe_length(&ctl)
        } else {
            2.5 * ctl.skin
        };
        let mut probe = self.probe_ground(end, reach, SweepPhase::Snap);
        if fall < 0.0 && !probe.is_some_and(|(_, drop)| drop <= ctl.skin + 1e-5) {
            let (at, rest, _) = self.slide(end, Vec3::new(0.0, fall, 0.0), Planes::new(), used);
            end = at;
            left += rest;
            probe = self.probe_ground(end, reach, SweepPhase::Snap);
        }
        let Some((g, drop)) = probe else {
            return (end, None, 0.0, left);
        };
        // Rising (a jump), the body stands only on ground met from above: a contact on a riser's top edge that
        // it grazes on the way up is not standing (the most level face there is the tread, but the body is
        // beside it, not on it), or it would land mid-jump and could jump again.
        if motion.y > 0.0 && (!self.met_from_above(end, g.point) || self.over_band(end, &g)) {
            return (end, None, 0.0, left);
        }
        // `drop` is how far the feet would settle to rest a skin above it: within a skin, they stand.
        let Some((end, snapped)) = self.settled(end, drop, motion.y <= 0.0) else {
            return (end, None, 0.0, left);
        };
        // Hung on an edge over the floor that holds it up: slid down off the edge onto it (`hung.rs`).
        if motion.y <= 0.0
            && let Some((at, under)) = self.off_the_edge(end, &g, used, reach)
        {
            return (at, Some(under), snapped + (end.y - at.y), left);
        }
        (end, Some(g), snapped, left)
    }

    /// The limit to report when the move fell short of its horizontal motion (or of an upward one), if it did.
    fn shortfall(&mut self, motion: Vec3, moved: Vec3, left: Vec3) -> Option<Limit> {
        let want = Vec3::new(motion.x, 0.0, motion.z).length();
        let got = Vec3::new(moved.x, 0.0, moved.z).length();
        let short = got < want - (1e-4 + 1e-4 * want);
        let short_up = motion.y > 0.0 && moved.y < motion.y - 1e-4;
        if !(short || short_up) {
            return None;
        }
        if let Some(b) = self.block.take() {
            return Some(b);
        }
        (left.length() > 1e-5).then_some(Limit::Iterations)
    }

    /// Assemble the answer.
    fn finish(
        mut self,
        start: Vec3,
        motion: Vec3,
        feet: Vec3,
        ground: Option<Ground>,
        snapped_down: f32,
        limit: Option<Limit>,
    ) -> CharacterMove {
        if let Some(near) = self.near.take() {
            near.keep();
        }
        CharacterMove {
            feet,
            grounded: ground.is_some(),
            ground,
            hits: self.hits,
            stepped_up: self.stepped_up,
            snapped_down,
            start,
            motion,
            limit,
            trace: self.trace,
            crushed: false,
            movers: Vec::new(),
        }
    }

    /// Collide and slide from `pos` by `motion`, kept out of `planes` from the start, numbering its iterations
    /// from `first`: the end, the motion left undone (when the iterations ran out) and the next iteration.
    fn slide(
        &mut self,
        mut pos: Vec3,
        motion: Vec3,
        mut planes: Planes,
        first: u32,
    ) -> (Vec3, Vec3, u32) {
        let mut rem = clip(motion, planes.as_slice(), motion).0;
        let mut raised = false;
        // The iterations left of the move's budget (at least one, for the fall after a walk).
        let last = self.ctl.max_iterations.max(first + 1);
        for it in first..last {
            if rem.length_squared() <= TINY * TINY {
                return (pos, Vec3::ZERO, it);
            }
            let swept = self.sweep(SweepPhase::Slide, it, pos, rem);
            let Some(hit) = swept.hit else {
                return (swept.to, Vec3::ZERO, it + 1);
            };
            let stalled = swept.to == pos;
            let left = rem - (swept.to - pos);
            pos = swept.to;
            self.hits.push(CharacterHit {
                object: hit.object,
                point: hit.point,
                normal: hit.normal,
                iteration: it,
            });
            let (support, on_face) = self.support(&hit, pos);
            let constraint = self.constraint(&hit, left, support, on_face);
            if let Some(rec) = self.trace.sweeps.last_mut()
                && let Some(h) = rec.hit.as_mut()
            {
                h.constraint = Some(constraint);
            }
            let horizontal = Vec3::new(left.x, 0.0, left.z);
            let candidate = self.step_candidate(&hit, pos, left, constraint, on_face);
            if constraint == Constraint::Ground {
                self.on_ground = true;
                if !candidate {
                    self.ground_y = Some(hit.point.y);
                }
            }
            if candidate {
                match self.try_step(it, pos, horizontal, &hit) {
                    Ok((landed, rest)) => {
                        pos = landed;
                        rem = rest;
                        planes.clear();
                        self.set_left(rem);
                        continue;
                    }
                    Err(limit) => self.set_block(limit),
                }
            } else if constraint != Constraint::Ground {
                let limit = self.limit_of(&hit, constraint, support, pos);
                self.set_block(limit);
            }
            add_plane(&mut planes, &hit, constraint, left);
            let (clipped, corner) = clip(left, planes.as_slice(), motion);
            if corner && planes.len() >= 2 {
                self.name_corner(&planes, hit.point);
            }
            // A walk that met the ground where it stood and is sent the same way again would meet it there
            // again: the body stands lower than its skin over a rim it grazes (held by the rim's edge, its
            // bottom half a skin under the face beyond). Lifted half a skin (once a slide), it passes over.
            if stalled
                && !raised
                && constraint == Constraint::Ground
                && (clipped - rem).length_squared() <= TINY * TINY
                && let Some(lifted) = self.lifted(pos)
            {
                pos = lifted;
                raised = true;
            }
            rem = clipped;
            self.set_left(rem);
        }
        (pos, rem, last)
    }

    /// A corner met at `at`: the limit names the objects of the planes that wall the body in.
    fn name_corner(&mut self, planes: &Planes, at: Vec3) {
        let mut objects = std::mem::take(&mut self.spare);
        objects.clear();
        objects.extend(planes.as_slice().iter().map(|p| p.object));
        objects.sort_unstable();
        objects.dedup();
        if objects.len() < 2 {
            self.spare = objects;
            return;
        }
        // Named by what walls the body in: the ground it stands on is one of the planes, but not the reason
        // (the door's two jambs, not the floor between them).
        let walls = |o: &ObjectId| {
            planes
                .as_slice()
                .iter()
                .any(|p| p.object == *o && p.constraint != Constraint::Ground)
        };
        if objects.iter().any(walls) {
            objects.retain(walls);
        }
        self.set_block(Limit::Corner { objects, at });
    }

    /// The body at `pos` lifted half a skin, when it overlaps nothing there.
    fn lifted(&self, pos: Vec3) -> Option<Vec3> {
        let up = pos + Vec3::Y * (0.5 * self.ctl.skin);
        (!self.overlaps(up)).then_some(up)
    }

    /// The limit met last, keeping the list of ids of the one it replaces for the next corner.
    fn set_block(&mut self, limit: Limit) {
        if let Some(Limit::Corner { objects, .. } | Limit::Inside { objects }) =
            self.block.replace(limit)
            && objects.capacity() > self.spare.capacity()
        {
            self.spare = objects;
        }
    }

    /// Note the motion left after the last slide sweep in its record.
    fn set_left(&mut self, left: Vec3) {
        if let Some(rec) = self
            .trace
            .sweeps
            .iter_mut()
            .rev()
            .find(|r| r.phase == SweepPhase::Slide)
        {
            rec.left = left;
        }
    }

    /// How a contact constrains the motion left.
    fn constraint(&self, hit: &SceneToi, left: Vec3, support: Vec3, on_face: bool) -> Constraint {
        let n = hit.normal;
        if n.y < -1e-3 {
            Constraint::Ceiling
        } else if n.y >= self.walkable_y
            && (on_face || support.y >= self.walkable_y)
            && left.y <= 0.0
        {
            Constraint::Ground
        } else if n.y >= self.walkable_y && left.y > 0.0 {
            // Moving up (a jump) onto something walkable: slide along it as along any surface.
            Constraint::Wall
        } else if n.y > 1e-3 {
            Constraint::Steep
        } else {
            Constraint::Wall
        }
    }

    /// Whether a contact may be a riser to step up: standing (or having stood this move), not moving up,
    /// moving into it horizontally, met above the feet and no higher than a step, and not the interior of a
    /// walkable face (a ramp is walked, not stepped).
    fn step_candidate(
        &self,
        hit: &SceneToi,
        feet: Vec3,
        left: Vec3,
        constraint: Constraint,
        on_face: bool,
    ) -> bool {
        let ctl = self.ctl;
        let horizontal = Vec3::new(left.x, 0.0, left.z);
        let nh = Vec3::new(hit.normal.x, 0.0, hit.normal.z);
        self.on_ground
            && ctl.max_step > 0.0
            && left.y <= 1e-6 * (1.0 + left.length())
            && horizontal.length() > TINY
            && nh.dot(horizontal) < 0.0
            && hit.point.y > feet.y + 0.25 * ctl.skin
            && hit.point.y <= feet.y + ctl.max_step + ctl.skin + 1e-3
            && !(constraint == Constraint::Ground && on_face)
    }

    /// The limit a blocking contact stands for.
    fn limit_of(&self, hit: &SceneToi, constraint: Constraint, support: Vec3, feet: Vec3) -> Limit {
        match constraint {
            Constraint::Ceiling => Limit::Ceiling {
                object: hit.object,
                at: hit.point,
            },
            Constraint::Steep => Limit::SlopeTooSteep {
                object: hit.object,
                degrees: degrees_from_up(if support.y < self.walkable_y {
                    support
                } else {
                    hit.normal
                }),
                at: hit.point,
            },
            _ => self.wall_or_riser(hit, feet),
        }
    }

    /// A blocking wall-like contact: a riser above `max_step` when the obstacle is lower than the body (its
    /// height measured), else a wall.
    fn wall_or_riser(&self, hit: &SceneToi, feet: Vec3) -> Limit {
        if self.on_ground
            && let Some(height) = self.obstacle_height(hit, feet)
            && height > self.ctl.max_step
            && height < self.ctl.height
        {
            return Limit::StepTooHigh {
                object: hit.object,
                height: Some(height),
                at: hit.point,
            };
        }
        Limit::Wall {
            object: hit.object,
            at: hit.point,
        }
    }

    /// The height of an obstacle met at `hit` above the ground the move stood on: a ray down onto its top just
    /// beyond the contact, from the top of the body. `None` when it is at least as tall as the body.
    fn obstacle_height(&self, hit: &SceneToi, feet: Vec3) -> Option<f32> {
        let base = self.ground_y.unwrap_or(feet.y - self.ctl.skin);
        let nh = Vec3::new(hit.normal.x, 0.0, hit.normal.z).normalize_or_zero();
        let top = feet.y + self.ctl.height;
        let probe = hit.point - nh * (self.ctl.skin.max(1e-3)) + Vec3::Y * (top - hit.point.y);
        let ray = crate::shape::Ray::new(probe, Vec3::NEG_Y);
        let h = self.scene.cast_ray(&ray, top - base)?;
        if h.t <= 0.0 {
            return None;
        }
        Some(h.point.y - base)
    }

    /// The height of the surface straight under the feet, within the body's height below them.
    fn ground_below(&self, feet: Vec3) -> Option<f32> {
        let ray = crate::shape::Ray::new(feet + Vec3::Y * self.ctl.skin, Vec3::NEG_Y);
        self.scene
            .cast_ray(&ray, self.ctl.height)
            .map(|h| h.point.y)
    }
}

/// The cosine of the angle from up past which an edge contact is at the body's side (60°).
const SIDE_COS: f32 = 0.5;

/// How far down the ground probe after a move that does not rise looks: the farther of the skin band (2.5
/// skins) and the snap (a skin and a half past `snap_distance`). The reachability map's level moves ask the same
/// probe of their target.
pub(super) fn snap_probe_length(ctl: &CharacterController) -> f32 {
    (2.5 * ctl.skin).max(ctl.snap_distance + 1.5 * ctl.skin)
}
