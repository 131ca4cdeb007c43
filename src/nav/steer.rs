//! Following a path: the input for the body where it is, a pure function of the path, the body and the
//! controller (a game calls it every step; nothing is remembered between calls).
//!
//! The segment followed is the nearest to the feet (horizontally, with heights beyond a step counted half, and
//! beyond a drop's arc, or a jump's flight in the air, for those links: on the ground a body is at a jump's
//! ends, not under its flight; `off_height`), or a later one within half a radius of it, so a body where
//! the path passes close to itself goes on rather than back; but on the ground the segment right after the
//! nearest only once its corner is reached (within a millimetre), while the body closes on it (at more than
//! 0.1 m/s, and faster than its last frame's wish from where it stands: `held_short`; held short of it, or
//! sliding past it, it goes on as before), so the body turns where the bake's walk along that segment began.
//! Within
//! a radius of it the body heads for the segment's end (on the ground reaching it exactly, at 60 Hz, rather than
//! a frame's walk past it: the next segment was checked walking from that point); pushed farther off, back to the nearest point on it
//! first. A jump link's take-off jumps when the body is grounded within a millimetre of it (`AT`: walking to
//! it, the body reaches it exactly at 60 Hz) on its surface (not on a rim above it, `at_take_off`), with the
//! wish along the link (the bake simulated such walks and flights); a body coming down onto the take-off
//! (falling, above it, not past it: `coming_down`) follows the segment before, not the jump; on the ground short of the link's middle the
//! body heads for the take-off (never walks off toward the landing; reaching it exactly at 60 Hz, as a
//! segment's end); in the air the wish stays along the link. On the last segment
//! the speed falls off within a quarter metre of the end, so the body stops there (within a millimetre). Off a ledge deeper than the
//! snap catches, the body walks slowly (the fall carries it about a quarter metre past the rim) and arrives at
//! the segment's end in the air.
//!
//! A ride step (a waiting place, then two `Ride` links: to the boarding point on the mover's top at the near
//! end and on to the same point at the far end, then the landing) is followed while the nearest segment is
//! one of its two, or while the body stands on its mover. Off the mover: wait at the waiting place until the
//! mover is within half a step (and 0.1 m across) of the near end now, half the walk on from now and when
//! the walk on ends, then walk to the boarding point where it is now; on the mover: keep to the boarding
//! point (it moves with the mover) until the mover is within half a step of the far end, then walk to the
//! landing (and keep walking once off toward it, should the mover turn back under the body). Where the mover
//! is comes from the ride's timetable, which the bake that made the path registered, at the body's
//! `scene_time` plus a 60 Hz frame; without one (the map is gone), the body walks to the boarding point,
//! stands once on the mover and steps off when at the far end's height and place. The bake made the link
//! only where a body stepped this way arrives.

use glam::{Vec2, Vec3};

use super::consts::{AT, HZ, at_take_off, coming_down, drop_speed, rise_off, toward};
use super::ride::{self, Block};
use super::{NavLink, NavPath, STEER_SPEED};
use crate::character::{Body, BodyInput, CharacterController};
use crate::id::ObjectId;

/// The horizontal offset from `a` to `b`.
fn flat(a: Vec3, b: Vec3) -> Vec2 {
    Vec2::new(b.x - a.x, b.z - a.z)
}

/// The input that follows `path` from `body` (see the module).
pub(super) fn steer(path: &NavPath, body: &Body, ctl: &CharacterController) -> BodyInput {
    let pts = &path.points;
    let feet = body.feet;
    let mut input = BodyInput::default();
    if !feet.is_finite() || pts.is_empty() || pts.iter().any(|p| !p.is_finite()) {
        return input;
    }
    if pts.len() == 1 {
        input.wish = arrive(feet, pts[0]);
        return input;
    }
    let (i, q, t) = nearest_segment(path, body, ctl);
    if let Some(block) = ride_block(path, body, i) {
        let found = ride::timetable(block.object, block.board, block.land);
        let offset = |s: f32| {
            found.as_ref().map_or(Vec3::ZERO, |(scene, _, _)| {
                scene.mover_offset_at(block.object, s)
            })
        };
        let timing = found
            .as_ref()
            .map(|(_, near, rest)| (&offset as &dyn Fn(f32) -> Vec3, *near, *rest));
        return ride::ride_input(&block, body, ctl, timing);
    }
    let (a, b) = (pts[i], pts[i + 1]);
    let link = path.links.get(i).copied().unwrap_or(NavLink::Walk);
    let along = flat(a, b).normalize_or_zero() * STEER_SPEED;
    let last = i + 2 == pts.len();
    // The next link a jump, its take-off reached (within `AT`): jump now, along it.
    if let Some(NavLink::Jump { .. }) = path.links.get(i + 1)
        && at_take_off(body, b, ctl)
        && let Some(&c) = pts.get(i + 2)
    {
        input.wish = flat(b, c).normalize_or_zero() * STEER_SPEED;
        input.jump = true;
        return input;
    }
    if let NavLink::Jump { .. } = link {
        if !body.grounded {
            input.wish = along;
            return input;
        }
        // On the ground on the take-off's side: to the take-off, and jump there (on a rim above it, walking
        // off slowly toward it, as off a ledge).
        if t < 0.5 {
            if at_take_off(body, a, ctl) {
                input.jump = true;
                input.wish = along;
            } else {
                input.wish = toward(feet, a);
                let fall = feet.y - a.y;
                if fall > ctl.snap_distance {
                    input.wish = input.wish.clamp_length_max(drop_speed(ctl, fall));
                }
            }
            return input;
        }
    }
    let off = flat(feet, q).length();
    input.wish = if off > ctl.radius && t < 1.0 {
        // Pushed off: back to the path first.
        flat(feet, q).normalize_or_zero() * STEER_SPEED
    } else if i == 0 && t <= 0.0 && off > AT {
        // Short of the path's start (a body set off from a place near it, where a body does not stay): to the
        // start first, reaching it exactly, where the bake's moves began. Heading for the first segment's end
        // from there, a slim body under a sloped ceiling was turned off the segment by the ceiling, past a
        // radius, sent back, and did so for good (the sample soak's seed 154, in the magic room).
        toward(feet, q)
    } else if last {
        arrive(feet, b)
    } else {
        // At most the rest of the way in one frame: the body turns the corner from the point itself, where the
        // bake's walk along the next segment began.
        toward(feet, b)
    };
    // Off a ledge more than the snap catches: slowly, so the fall lands about a cell past the rim (where the
    // drop's move lands) rather than flying on over whatever lies beyond; in the air, arriving at its end.
    let fall = a.y - b.y;
    if off_a_ledge(link, (a, b), ctl) && body.grounded {
        input.wish = input.wish.clamp_length_max(drop_speed(ctl, fall));
    } else if off_a_ledge(link, (a, b), ctl) {
        input.wish = arrive(feet, b);
    }
    input
}

/// Whether segment `a`→`b` (`link`) goes off a ledge more than the snap catches: it falls more than the snap,
/// and is a drop, or a walk steeper than a walkable slope (a walk down a slope falls as far over a long
/// segment, and walked slowly a body took 7 s over a 2 m one: the sector soak's seed 65).
fn off_a_ledge(link: NavLink, (a, b): (Vec3, Vec3), ctl: &CharacterController) -> bool {
    let fall = a.y - b.y;
    let slope = flat(a, b).length() * ctl.max_slope_deg.to_radians().tan().max(0.0);
    fall > ctl.snap_distance && (link != NavLink::Walk || !(fall <= slope))
}

/// The ride step the body is on: the one whose mover the body stands on (nearest segment `i`'s, or the
/// nearest such), else the one whose two `Ride` segments include segment `i`.
fn ride_block(path: &NavPath, body: &Body, i: usize) -> Option<Block> {
    let (pts, links) = (&path.points, &path.links);
    let on = body.ground.filter(|_| body.grounded).map(|g| g.object);
    let mut best: Option<(usize, usize, ObjectId)> = None;
    for (w, mover) in ride::ride_steps(links) {
        let rank = if on == Some(mover) {
            (w + 1).abs_diff(i)
        } else if i == w || i == w + 1 {
            usize::MAX - 1
        } else {
            continue;
        };
        if best.is_none_or(|(r, _, _)| rank < r) {
            best = Some((rank, w, mover));
        }
    }
    let (_, w, mover) = best?;
    let land = *pts.get(w + 2)?;
    Some(Block {
        object: mover,
        wait: pts[w],
        board: pts[w + 1],
        land,
        off: pts.get(w + 3).copied().unwrap_or(land),
    })
}

/// The wish that brings the feet to `end` and stops there (within a millimetre, `AT`: a body a centimetre short
/// of a drop's landing hung on the rim above it, the sector soak's seed 48): full speed, falling off within a
/// quarter metre.
fn arrive(feet: Vec3, end: Vec3) -> Vec2 {
    let to = flat(feet, end);
    let d = to.length();
    if d < AT {
        return Vec2::ZERO;
    }
    to / d * (d * 8.0).min(STEER_SPEED)
}

/// How far the feet are above or below where a body following segment `a`→`b` (`link`) can be near its point
/// `q`: a step around the line for a walk, down a drop's height, around a ride's rise; on the ground at a
/// jump's ends (a step around the line), and in the air within its flight: from a step and two skins under the
/// lower of its ends to the jump's height and a step over the higher (a body below both ends, early in a later
/// jump over the same place, is not flying that one), its height and vertical speed those of a flight from the
/// take-off (the height it would rise to within a step of the take-off's and the jump's, under
/// [`GRAVITY`](super::consts::GRAVITY): a body jumping up along a wall under a later jump that passes over its take-off is flying its
/// own).
fn off_height(
    link: Option<&NavLink>,
    (a, b, q): (Vec3, Vec3, Vec3),
    body: &Body,
    ctl: &CharacterController,
) -> f32 {
    let y = body.feet.y;
    let step = ctl.max_step + 2.0 * ctl.skin;
    let band = match link {
        Some(NavLink::Jump { .. }) if body.grounded => step,
        Some(NavLink::Jump { .. }) => {
            let lo = a.y.min(b.y) - step;
            let hi = a.y.max(b.y) + ctl.jump_height + ctl.max_step;
            // In free flight the height the body would rise to (its feet and what its upward or downward speed
            // is worth) stays where the jump's take-off and height put it: a flight from elsewhere is not this.
            let energy = (rise_off(body, a, ctl) - step).max(0.0);
            return (lo - y).max(0.0) + (y - hi).max(0.0) + energy;
        }
        Some(NavLink::Drop { height }) => ctl.max_step + height,
        Some(NavLink::Ride { .. }) => ctl.max_step + (a.y - b.y).abs(),
        _ => ctl.max_step,
    };
    ((y - q.y).abs() - band).max(0.0)
}

/// How much farther a flight's top may be from another jump's than from the one found before that other is
/// taken instead, metres: the 60 Hz steps' rounding of a flight's top and two skins.
const RISE_SLACK: f32 = 0.07;

/// The segment followed from the body's feet: the latest whose distance is within half a radius of the nearest
/// one's (a point where the path passes close to itself, at a jump's landing say, goes on rather than back;
/// in the air, segments against the flight count a metre farther), with the nearest point on it and where that
/// lies along it (0 to 1).
fn nearest_segment(path: &NavPath, body: &Body, ctl: &CharacterController) -> (usize, Vec3, f32) {
    let pts = &path.points;
    let feet = body.feet;
    // In the air, a segment against the flight (a path back over a jump's landing) is not the one flown.
    let flight = Vec2::new(body.velocity.x, body.velocity.z);
    let in_air = !body.grounded;
    let flying = in_air && flight.length() > 0.5;
    // One pass, nothing allocated: the latest segment within the tolerance of the least distance so far is the
    // answer so far (where the least falls, the segment that lowers it is the latest within it), and a later
    // segment within the tolerance of the final least comes after the one that set it.
    let tolerance = 0.5 * ctl.radius;
    let mut least = f32::INFINITY;
    let mut found = (0, pts[0], 0.0);
    let mut nearest = found;
    // In the air, how far the body's flight rises from the segment found so far's (a jump's; `rise_off`).
    let mut found_rise = None;
    // Whether a jump or a drop lies between the nearest segment so far and segment `i` (kept as the loop goes).
    let mut past_floor = false;
    for i in 0..pts.len() - 1 {
        if i > nearest.0 + 1 && path.links.get(i - 1).is_some_and(leaves_the_floor) {
            past_floor = true;
        }
        let (a, b) = (pts[i], pts[i + 1]);
        let ab = flat(a, b);
        let jump = matches!(path.links.get(i), Some(NavLink::Jump { .. }));
        let rise = (in_air && jump).then(|| rise_off(body, a, ctl));
        let (_, mut q, mut t) = on_segment(pts, i, feet);
        // On the ground a body is at a jump's ends, never under its flight: the nearer end is the point on it
        // (measured at a point under the flight, a 1 m body with a 0.59 m step walking up a slope beneath a
        // later jump down over it was a step and half a radius from the jump's line and was steered along it:
        // the soak's seed 22).
        if body.grounded && jump {
            (q, t) = if flat(feet, a).length() <= flat(feet, b).length() {
                (a, 0.0)
            } else {
                (b, 1.0)
            };
        }
        let off = off_height(path.links.get(i), (a, b, q), body, ctl);
        let mut d = flat(feet, q).length() + 0.5 * off;
        if flying && ab.dot(flight) < 0.0 {
            d += 1.0;
        } else if flying && jump {
            // A jump flown across another's line (turned along a riser it rises against, say) is told from
            // that one by the way it flies: the farther its flight turns from a jump's line, the less it is
            // that jump.
            let cos = ab.normalize_or_zero().dot(flight.normalize_or_zero());
            d += 0.5 * (1.0 - cos);
        }
        // Rising in the air, the body is flying a jump (a walk, a drop or a ride does not carry it up): no other
        // segment is followed then. A jump stopped across by a wall (its speed along the jump's line turned
        // into one along the wall) was nearer a drop's segment beside its take-off than its own line, and
        // steering turned the wish off the jump the bake flew with it held (the soak's seed 24).
        if in_air && body.velocity.y > 0.0 && !jump {
            d += 1.0;
        }
        // Falling onto a jump's take-off (off the drop before it) is not flying the jump.
        if jump && coming_down(body, a, ab.normalize_or_zero(), ctl) {
            d += 1.0;
        }
        // In the air, a later jump whose flight rises higher or lower than the body's by more than the one
        // found (and the 60 Hz steps' rounding of a flight's top) is not the one flown: a body rising along a
        // riser after jumping up onto a ledge, its speed across stopped, was as near a later jump down past
        // the same spot, whose take-off stands on the ledge (0.58 m more rise; the step the energy rule in
        // `off_height` allows is 0.59 m for that agent: the soak's seed 22).
        let worse = matches!((rise, found_rise), (Some(r), Some(f)) if r > f + RISE_SLACK);
        // On the ground exactly on the nearest segment (steering brings a walking body to its points
        // exactly), a later segment past a jump or a drop after it is not taken for being about as near: the
        // body is where the path put it, short of that jump or drop. A body that made it is on that jump's or
        // drop's own segment or past it, or lands off the path's lines.
        // A 1.22 m body at a corner 0.29 m from a later jump's landing (0.1 m higher, on a slope) skipped the
        // drop and the jump between and stood against the slope (the soak's seed 27).
        let short_of_it = body.grounded && least <= AT && past_floor;
        if d < least {
            least = d;
            found = (i, q, t);
            nearest = found;
            found_rise = rise;
            past_floor = false;
        } else if d <= least + tolerance && !(off > 0.0 || worse || short_of_it) {
            // A later segment the body's height or flight rules out is not taken for being about as near: in
            // the air (stopped against a wall over a jump's landing and still rising, a body was steered onto
            // the next jump's line, off the landing's ledge, before it came down), and on the ground more than
            // a step below or above it (a 0.68 m body with a 0.12 m step, pushed 0.26 m off its segment by a
            // tilted slab's corner, took the landing of a jump still ahead onto that slab, 0.25 m up and 0.44 m
            // away, and stood against the slab for good: the shapes soak's seed 11).
            found = (i, q, t);
            found_rise = rise;
        }
    }
    let found = at_corners(path, body, ctl, nearest, found);
    // On the ground at a later point of the path (within `AT` across and the skin band in height), the body is
    // where the path's walk from that point began: it goes on from there. A path that came back over itself
    // (up a slope, a drop back down it, and up again along the same line) held a body at the point after the
    // drop, counted on the first pass (the sector soak's seed 161; seed 133's body stands between the passes,
    // at no point, and is not helped).
    if body.grounded {
        for k in (found.0 + 1..pts.len() - 1).rev() {
            let p = pts[k];
            if flat(feet, p).length() <= AT && (feet.y - p.y).abs() <= 3.0 * ctl.skin {
                return on_segment(pts, k, feet);
            }
        }
    }
    found
}

/// Whether a link takes the body off the floor it walks: a jump or a drop.
fn leaves_the_floor(link: &NavLink) -> bool {
    matches!(link, NavLink::Jump { .. } | NavLink::Drop { .. })
}

/// The segment steering follows on the ground near the end of the nearest one (`nearest`; `found` the latest
/// within half a radius of it): see the comments.
fn at_corners(
    path: &NavPath,
    body: &Body,
    ctl: &CharacterController,
    nearest: (usize, Vec3, f32),
    mut found: (usize, Vec3, f32),
) -> (usize, Vec3, f32) {
    let pts = &path.points;
    let feet = body.feet;
    // On the ground the segment after the nearest is taken at its start: a body walking to a corner reaches
    // it (the bake checked the next segment walking from there; a 0.2 m body that turned 6 mm short of a
    // corner crossed a gap between two wall tops a frame out of step and hung on the far rim), while it
    // closes on the corner (held short of it, or carried past it on a slope, it turns as before: three of
    // the rolling terrain's paths stood at a corner they did not close on).
    // So too past a run of short segments after the nearest (within a radius along the path: a wide body
    // threading between crates, whose points lie within half its radius of each other): taken at once, they
    // aim it past the corner the path's moves go round (a 1.2 m body on the gallery stopped against it). A
    // later segment farther along the path (where it passes close to itself) is taken as before.
    let short = |from: usize, to: usize| {
        let mut along = 0.0;
        for k in from..to {
            along += flat(pts[k], pts[k + 1]).length();
        }
        along <= ctl.radius
    };
    // At the path's first point exactly, the body sets off along the first segment: at rest there (closing
    // on nothing) it read as held short of the segment's end, and a short first segment (the way in from where
    // the body stands to where the search began, `lead_in.rs`) was skipped.
    if body.grounded && nearest.0 == 0 && flat(feet, pts[0]).length() <= AT {
        return nearest;
    }
    // Held short of the corner, at it or past it, the body goes on along the segment after it (and no
    // farther: the run's points are where its moves went).
    // Off a jump's landing the run is not taken that way (the nearest is the jump, which the body lands
    // past or short of): only the segment right after it, as before (the rolling terrain's bodies, walking
    // back from a landing a few centimetres to its node, stood short of it).
    let jumped = matches!(path.links.get(nearest.0), Some(NavLink::Jump { .. }));
    let run = if jumped { nearest.0 + 1 } else { found.0 };
    if body.grounded && found.0 > nearest.0 && found.0 <= run && short(nearest.0 + 1, found.0) {
        let corner = nearest.0 + 1;
        let to = flat(feet, pts[corner]);
        let closing = Vec2::new(body.velocity.x, body.velocity.z).dot(to.normalize_or_zero());
        // Slowed for a ledge only when walked off one: a jump's landing lower than its take-off by more than the
        // snap is reached at the wish that reaches it exactly (a body landed 4 mm short of a landing on a
        // riser's rim, closing at that wish, was aimed at it for good: the sector soak's seed 140).
        let falls = !jumped && pts[nearest.0].y - pts[corner].y > ctl.snap_distance;
        found = if to.length() > 1e-3 && !held_short(to.length(), closing, falls) {
            nearest
        } else {
            // The first segment of the run the body is not at the end of.
            let mut k = corner;
            while k < found.0 && flat(feet, pts[k + 1]).length() <= 1e-3 {
                k += 1;
            }
            on_segment(pts, k, feet)
        };
    }
    found
}

/// Whether a grounded body `distance` short of a corner, closing on it at `closing` m/s, is held short of
/// it: hardly closing (at 0.1 m/s or less), or, where the wish toward the corner is its last frame's (the
/// rest of the way at 60 Hz, under [`STEER_SPEED`]; not slowed for a ledge, `falls`), closing no faster
/// than that wish. On the ground the velocity is the last step's wish (a wall does not take it), less what
/// a ceiling took: a body that had moved freely on that wish would be at the corner, so one that is not
/// was held there. Found by the sector soak (seed 42, case 100): a body on a slope under a lintel's edge,
/// held 1 cm short of a corner by the skin kept off the edge, was aimed at that centimetre for good.
fn held_short(distance: f32, closing: f32, falls: bool) -> bool {
    let wish = distance * HZ;
    closing <= 0.1 || (!falls && wish < 0.95 * STEER_SPEED && closing <= 1.05 * wish)
}

/// The point of segment `i` of `pts` nearest `feet` across, and where it lies along it (0 to 1).
fn on_segment(pts: &[Vec3], i: usize, feet: Vec3) -> (usize, Vec3, f32) {
    let (a, b) = (pts[i], pts[i + 1]);
    let ab = flat(a, b);
    let len2 = ab.length_squared();
    let t = if len2 > 1e-12 {
        (flat(a, feet).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (i, a + (b - a) * t, t)
}
