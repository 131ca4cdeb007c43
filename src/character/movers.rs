//! Riding movers: what [`super::Body::step`] does before the body's own move, so that lifts, platforms and
//! doors carry, push and crush the body, and what one-way surfaces it passed through after it.
//!
//! - **Carry.** A body whose ground is a moved object is carried by that object's displacement between the
//!   scene time of the body's previous step and now (the mover's place is a pure function of time, so the
//!   displacement is exact whatever the frame rate). The vertical part is applied first and whole: going
//!   down, the body is taken down before gravity acts (it never floats above a descending lift); going up, it
//!   is lifted before its own move (the rising floor never swallows the feet). The horizontal part is then
//!   swept, so a platform sliding under a wall leaves the body against the wall instead of carrying it in.
//! - **Push.** A moved object that moved into the body pushes it out along that object's own motion, by the
//!   least distance that leaves the body a skin from it (a one-way object only pushes up), as far as nothing
//!   else is in the way: the push stops a skin short of what is behind the body (the floor under a crusher,
//!   the wall behind a door). An object moving away from a body it is in (a crusher rising off a body it
//!   crushed) does not push. Anything else the body then overlaps is left by the shortest push found, as a
//!   move's start is, when the way there is open (not through a surface the body is not in).
//! - **Crouch.** A standing body overlapped after the carry and the pushes crouches when its crouched body
//!   overlaps nothing where it is (a ceiling coming down on it, a lift taking it up under a low ceiling).
//! - **Crush.** When no free place is found, the body stays where the pushes left it and the step says
//!   `crushed`: the only way a body ends inside anything.

use glam::Vec3;

use super::result::MoverEvent;
use super::{CharacterController, Ground, pushout};
use crate::id::ObjectId;
use crate::scene::{Scene, Static};
use crate::shape::Capsule;

/// Displacements shorter than this are no motion (a mover waiting, rounding).
const STILL: f32 = 1e-7;

/// What happened before the body's own move.
pub(super) struct Before {
    /// Where the feet are now.
    pub(super) feet: Vec3,
    /// Whether the body had to crouch to fit.
    pub(super) crouch: bool,
    /// When no free place was found: the moved objects and the others the body overlaps.
    pub(super) crushed: Option<(Vec<ObjectId>, Vec<ObjectId>)>,
    /// The grown body found to overlap nothing where the feet are now, if one was: the move that follows need
    /// not ask again of the same body.
    pub(super) clear: Option<Capsule>,
}

/// The body (of `ctl`'s height) with its radius grown by half the skin, as every sweep and overlap of a move.
fn grown(ctl: &CharacterController, feet: Vec3) -> Capsule {
    let mut c = ctl.capsule(feet);
    c.radius += ctl.skin * 0.5;
    c
}

/// How far moved object `object` moved from scene time `since` to `now` (with no previous step, its velocity
/// times `dt`).
fn displacement(scene: &Scene, object: ObjectId, since: Option<f32>, now: f32, dt: f32) -> Vec3 {
    let d = match since {
        Some(t0) => scene.mover_offset_at(object, now) - scene.mover_offset_at(object, t0),
        None => scene.mover_velocity(object) * dt,
    };
    if d.is_finite() { d } else { Vec3::ZERO }
}

/// The carry, the pushes, the crouch and the crush of one step, before the body's own move. `ctl` is the
/// controller the body moves with now (its crouching height when crouching), `standing` the full controller.
#[allow(clippy::too_many_arguments)] // The step's own arguments, passed through.
pub(super) fn before_move(
    ctl: &CharacterController,
    standing: Option<&CharacterController>,
    scene: &Scene,
    feet: Vec3,
    ground: Option<Ground>,
    since: Option<f32>,
    dt: f32,
    events: &mut Vec<MoverEvent>,
) -> Before {
    let now = scene.time();
    let carried = carry(ctl, scene, feet, ground, since, now, events);
    let mut out = Before {
        feet: carried,
        crouch: false,
        crushed: None,
        clear: None,
    };
    if !scene.has_movers() {
        // Nothing moves: the body is where it was, and the move's own start test (through what it gathers
        // near the move, cheaper than the scene's trees) answers whether it is clear, as this one would.
        return out;
    }
    let body = grown(ctl, carried);
    if !scene.overlaps_capsule_any(&body) {
        out.clear = Some(body);
        return out;
    }
    let overlapped = scene.overlap_capsule(&body);
    let moved_into = overlapped.iter().any(|&id| scene.mover_of(id).is_some());
    if !moved_into && carried == feet {
        // Nothing moved into the body: a start inside static things is the move's own push-out.
        return out;
    }
    if let Some(c) = standing {
        let crouched = CharacterController {
            height: c.crouching_height(),
            ..*c
        };
        if !scene.overlaps_capsule_any(&grown(&crouched, carried)) {
            if let Some(&object) = overlapped.first() {
                events.push(MoverEvent::Crouched { object });
            }
            out.crouch = true;
            return out;
        }
    }
    let mut at = carried;
    // What stopped a push short (the floor under a crusher, the wall behind a door): what the body is crushed
    // against, though it stays a little short of it.
    let mut blockers: Vec<ObjectId> = Vec::new();
    for &id in &overlapped {
        let Some(mover) = scene.mover_of(id) else {
            continue;
        };
        let mut dm = displacement(scene, id, since, now, dt);
        if scene.is_one_way(id) {
            // A one-way surface holds things from below only: it lifts, it never shoves sideways or down.
            dm = Vec3::new(0.0, dm.y.max(0.0), 0.0);
        }
        let Some(shape) = scene.object(id) else {
            continue;
        };
        if dm.length_squared() <= STILL * STILL || !shape.overlaps_capsule(&grown(ctl, at)) {
            continue;
        }
        if !ahead_of(shape, at + Vec3::Y * (ctl.height * 0.5), dm) {
            // A mover moving away from a body it is in (a crusher rising off a crushed body) leaves it: a push
            // along its motion would carry the body through it to its far side.
            continue;
        }
        if let Some(to) = push_along(ctl, shape, at, dm) {
            let (to, stop) = push_room(ctl, scene, id, at, to);
            blockers.extend(stop);
            events.push(MoverEvent::Pushed {
                object: id,
                mover,
                by: to - at,
            });
            at = to;
        }
    }
    if scene.overlaps_capsule_any(&grown(ctl, at)) {
        let pushed = pushout::push_out(scene, at, ctl.radius + ctl.skin, |f| grown(ctl, f));
        // The shortest way out must be open from where the body is: not through the floor under a crusher
        // (a surface the body is not in, which the shortest push may cross).
        let open = pushed.resolved && {
            let inside = scene.overlap_capsule(&grown(ctl, at));
            first_blocker(ctl, scene, &inside, at, pushed.feet - at).is_none()
        };
        if open {
            at = pushed.feet;
        } else {
            // The movers that pushed the body this step and those it is still in, against the rest.
            let (mut movers, mut against): (Vec<ObjectId>, Vec<ObjectId>) = scene
                .overlap_capsule(&grown(ctl, at))
                .into_iter()
                .partition(|&id| scene.mover_of(id).is_some());
            movers.extend(events.iter().filter_map(|e| match e {
                MoverEvent::Pushed { object, .. } => Some(*object),
                _ => None,
            }));
            movers.sort_unstable();
            movers.dedup();
            against.extend(blockers.iter().filter(|id| scene.mover_of(**id).is_none()));
            against.sort_unstable();
            against.dedup();
            events.push(MoverEvent::Crushed {
                movers: movers.clone(),
                against: against.clone(),
            });
            out.crushed = Some((movers, against));
        }
    }
    out.feet = at;
    out
}

/// Carry a body standing on a moved object by its displacement since the body's previous step: the vertical
/// part whole, then the horizontal part swept (stopping a skin short of what it meets).
fn carry(
    ctl: &CharacterController,
    scene: &Scene,
    feet: Vec3,
    ground: Option<Ground>,
    since: Option<f32>,
    now: f32,
    events: &mut Vec<MoverEvent>,
) -> Vec3 {
    let (Some(g), Some(_)) = (ground, since) else {
        return feet;
    };
    let Some(mover) = scene.mover_of(g.object) else {
        return feet;
    };
    let d = displacement(scene, g.object, since, now, 0.0);
    if d.length_squared() <= STILL * STILL {
        return feet;
    }
    let lifted = feet + Vec3::new(0.0, d.y, 0.0);
    let across = Vec3::new(d.x, 0.0, d.z);
    let to = if across.length_squared() > STILL * STILL {
        sweep_short(ctl, scene, lifted, across)
    } else {
        lifted
    };
    events.push(MoverEvent::Carried {
        object: g.object,
        mover,
        by: to - feet,
    });
    to
}

/// Sweep the grown body from `from` by `motion` through the scene, stopping so that it keeps half the skin from
/// the first contact (the real body a whole skin), as a move's sweeps do.
fn sweep_short(ctl: &CharacterController, scene: &Scene, from: Vec3, motion: Vec3) -> Vec3 {
    let Some(hit) = scene.sweep_capsule(&grown(ctl, from), motion) else {
        return from + motion;
    };
    let len = motion.length();
    let dir = motion / len;
    let back = skin_back(ctl, (-hit.normal).dot(dir));
    from + dir * (hit.t * len - back).max(0.0)
}

/// Where the body at `at` goes when pushed out of `shape` along `dm` (the object's motion): the least push
/// along it that leaves the grown body half a skin from the object. Found by sweeping the body back from
/// far enough along the motion (where it is clear of the object) toward `at`. `None` when no place along the
/// motion is clear within the body's own size past the motion.
fn push_along(ctl: &CharacterController, shape: &Static, at: Vec3, dm: Vec3) -> Option<Vec3> {
    let dir = dm.normalize_or_zero();
    if dir == Vec3::ZERO {
        return None;
    }
    let near = dm.length() + 2.0 * ctl.skin;
    let far = near + ctl.height + 2.0 * ctl.radius;
    for reach in [near, far] {
        let from = at + dir * reach;
        let body = grown(ctl, from);
        if shape.overlaps_capsule(&body) {
            continue;
        }
        let toi = shape.sweep_capsule(&body, -dir * reach)?;
        let back = skin_back(ctl, toi.normal.dot(dir));
        let travel = (reach * (1.0 - toi.t) + back).min(reach);
        return Some(at + dir * travel);
    }
    None
}

/// How far back from a contact a body moving into it with `closing` (the cosine between the motion and the
/// contact's inward normal) stops, so that the grown body keeps half a skin from it: nothing when it is not
/// closing in; at a grazing angle no more than twenty half-skins.
fn skin_back(ctl: &CharacterController, closing: f32) -> f32 {
    if closing > 0.0 {
        ctl.skin * 0.5 / closing.max(0.05)
    } else {
        0.0
    }
}

/// Whether a point of the body (`mid`, its middle) lies ahead of the moved object along its motion `dm`: past
/// the middle of the object's box in the direction it moves.
fn ahead_of(shape: &Static, mid: Vec3, dm: Vec3) -> bool {
    shape
        .bounds()
        .is_none_or(|b| (mid - b.center()).dot(dm) >= 0.0)
}

/// How far the body follows a push from `at` to `to` before it meets anything but the pushing object `pusher`
/// (a floor under a crusher, a wall behind a closing door): it stops half a skin short of that, still inside
/// the pusher (the step then says `crushed`), instead of being pushed through. Also the object that stopped it.
fn push_room(
    ctl: &CharacterController,
    scene: &Scene,
    pusher: ObjectId,
    at: Vec3,
    to: Vec3,
) -> (Vec3, Option<ObjectId>) {
    let motion = to - at;
    let Some((t, normal, id)) = first_blocker(ctl, scene, &[pusher], at, motion) else {
        return (to, None);
    };
    let len = motion.length();
    let dir = motion / len;
    let back = skin_back(ctl, (-normal).dot(dir));
    (at + dir * (t * len - back).max(0.0), Some(id))
}

/// The first thing but the objects `ignore` that the grown body meets moving from `at` by `motion`: its time
/// (a fraction of the motion), its normal and its id. A one-way surface stops only what comes down onto its
/// top. `None` for no motion.
fn first_blocker(
    ctl: &CharacterController,
    scene: &Scene,
    ignore: &[ObjectId],
    at: Vec3,
    motion: Vec3,
) -> Option<(f32, Vec3, ObjectId)> {
    if motion.length() <= STILL {
        return None;
    }
    let body = grown(ctl, at);
    let (a, b) = (body.bounds(), body.translated(motion).bounds());
    let mut first: Option<(f32, Vec3, ObjectId)> = None;
    scene.objects_in_box(a.min.min(b.min), a.max.max(b.max), |id, shape| {
        if ignore.contains(&id) {
            return;
        }
        let Some(toi) = shape.sweep_capsule(&body, motion) else {
            return;
        };
        if scene.is_one_way(id) && !(motion.y < 0.0 && toi.normal.y > 0.5) {
            return;
        }
        if first.is_none_or(|(t, _, _)| toi.t < t) {
            first = Some((toi.t, toi.normal, id));
        }
    });
    first
}

/// The one-way objects the body moved through in its own move from `from` to `to` (going up through them, or
/// across their sides), other than the one it ended standing on; ids ascending.
pub(super) fn passed_one_way(
    ctl: &CharacterController,
    scene: &Scene,
    from: Vec3,
    to: Vec3,
    ground: Option<ObjectId>,
    events: &mut Vec<MoverEvent>,
) {
    let motion = to - from;
    if !scene.has_one_way() || motion.length_squared() <= STILL * STILL {
        return;
    }
    let (a, b) = (grown(ctl, from), grown(ctl, to));
    let (ba, bb) = (a.bounds(), b.bounds());
    let mut found = Vec::new();
    scene.objects_in_box(ba.min.min(bb.min), ba.max.max(bb.max), |id, shape| {
        if Some(id) == ground || !scene.is_one_way(id) || found.contains(&id) {
            return;
        }
        // The object's own geometry, without the one-way rule: did the body's path cross it?
        if shape.overlaps_capsule(&a) || shape.sweep_capsule(&a, motion).is_some() {
            found.push(id);
        }
    });
    found.sort_unstable();
    for object in found {
        events.push(MoverEvent::PassedThrough {
            object,
            up: motion.y > 0.0,
        });
    }
}
