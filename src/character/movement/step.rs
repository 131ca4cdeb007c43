//! Stepping up a riser: lift, move on at the lifted height, settle onto the tread (moving fully onto it from
//! the nosing), and the checks that the step went up and on along the motion.

use glam::Vec3;

use super::Mover;
use crate::character::result::{
    CharacterHit, Limit, StepAttempt, StepRefusal, SweepPhase, degrees_from_up,
};
use crate::scene::SceneToi;

impl Mover<'_> {
    /// Try to step up a riser met at `hit`, carrying the horizontal motion `horizontal` forward: lift by up to
    /// `max_step` (plus the skin), move forward at that height, settle onto the tread (moving the body fully
    /// onto it when it only rests on the nosing). The landing and the motion left, or the limit met.
    pub(super) fn try_step(
        &mut self,
        it: u32,
        pos: Vec3,
        horizontal: Vec3,
        hit: &SceneToi,
    ) -> Result<(Vec3, Vec3), Limit> {
        let mut attempt = StepAttempt {
            iteration: it,
            obstacle: hit.object,
            lift: 0.0,
            forward: 0.0,
            riser: None,
            taken: false,
            refused: None,
        };
        let outcome = self.step_probes(it, pos, horizontal, hit.point, &mut attempt);
        let result = match outcome {
            Ok(found) => {
                attempt.taken = true;
                Ok(found)
            }
            Err(why) => {
                attempt.refused = Some(why);
                Err(match why {
                    StepRefusal::NoHeadroom => Limit::Ceiling {
                        object: hit.object,
                        at: hit.point,
                    },
                    StepRefusal::TreadTooSteep | StepRefusal::NoTread => {
                        let (support, _) = self.support(hit, pos);
                        if support.y > 1e-3 && support.y < self.walkable_y {
                            Limit::SlopeTooSteep {
                                object: hit.object,
                                degrees: degrees_from_up(support),
                                at: hit.point,
                            }
                        } else {
                            Limit::Wall {
                                object: hit.object,
                                at: hit.point,
                            }
                        }
                    }
                    StepRefusal::TooHigh | StepRefusal::NoProgress => {
                        attempt.riser = attempt.riser.or(self.obstacle_height(hit, pos));
                        self.wall_or_riser(hit, pos)
                    }
                })
            }
        };
        if self.record {
            self.trace.steps.push(attempt);
        }
        result
    }

    /// The probes of a step-up; fills in `attempt` as it goes. Answers the landing and the horizontal motion
    /// left.
    fn step_probes(
        &mut self,
        it: u32,
        pos: Vec3,
        horizontal: Vec3,
        riser_at: Vec3,
        attempt: &mut StepAttempt,
    ) -> Result<(Vec3, Vec3), StepRefusal> {
        let ctl = *self.ctl;
        let up = self.sweep(
            SweepPhase::StepUp,
            it,
            pos,
            Vec3::Y * (ctl.max_step + ctl.skin),
        );
        let lift = up.to.y - pos.y;
        attempt.lift = lift;
        if lift < ctl.skin {
            return Err(StepRefusal::NoHeadroom);
        }
        let riser_top = self.riser_top(pos, horizontal, riser_at);
        self.backed_off_within_step = false;
        let full = self.step_from(
            it,
            pos,
            horizontal,
            (up.to, up.hit.is_some()),
            riser_top,
            attempt,
        );
        // Refused where settling moved back off an edge higher than the riser: tried again moving on over such
        // an edge while it is within a step of the feet (a faceted log's next facet; see `settle_on_tread`).
        // Where settling moved back off no such edge, the second try would settle the same way: not made (a
        // body pushing into a ramp too steep would otherwise step twice a frame).
        let full = match full {
            Err(StepRefusal::NoProgress | StepRefusal::TreadTooSteep)
                if self.backed_off_within_step =>
            {
                let mut bold = *attempt;
                self.over_higher_edges = true;
                let lifted = (up.to, up.hit.is_some());
                let again = self.step_from(it, pos, horizontal, lifted, riser_top, &mut bold);
                self.over_higher_edges = false;
                match again {
                    Ok(found) => {
                        *attempt = bold;
                        Ok(found)
                    }
                    Err(_) => full,
                }
            }
            other => other,
        };
        // A riser well under the step below a ceiling that comes down ahead (a sloped ceiling over a stair's
        // foot): lifted the whole step, the body's head meets the ceiling before its middle is over the tread,
        // where lifted just over the riser's top it passes (sector seed 128). Tried only when the whole lift
        // stepped onto nothing (or met the ceiling going on); a lift under the whole one is clear, as the whole
        // one was.
        let low = riser_top + 2.0 * ctl.skin - pos.y;
        match full {
            Err(StepRefusal::NoProgress | StepRefusal::TooHigh | StepRefusal::NoHeadroom)
                if low >= ctl.skin && low < lift - ctl.skin =>
            {
                let mut lower = *attempt;
                lower.lift = low;
                let lifted = (pos + Vec3::Y * low, false);
                match self.step_from(it, pos, horizontal, lifted, riser_top, &mut lower) {
                    Ok(found) => {
                        *attempt = lower;
                        Ok(found)
                    }
                    Err(_) => full,
                }
            }
            other => other,
        }
    }

    /// The top of the riser being climbed: straight down onto it just past `riser_at`, the contact that blocked
    /// the walk from `pos` along `horizontal` (`max_step` over the feet when nothing is under the ray).
    fn riser_top(&self, pos: Vec3, horizontal: Vec3, riser_at: Vec3) -> f32 {
        let ctl = self.ctl;
        let into = Vec3::new(horizontal.x, 0.0, horizontal.z).normalize_or_zero() * ctl.skin;
        let top = pos.y + ctl.height;
        let ray = crate::shape::Ray::new(
            Vec3::new(riser_at.x + into.x, top, riser_at.z + into.z),
            Vec3::NEG_Y,
        );
        self.scene
            .cast_ray(&ray, ctl.height)
            .map_or(pos.y + ctl.max_step, |h| h.point.y)
    }

    /// A step from `pos` lifted to `lifted.0` (`lifted.1`: the lift stopped by a ceiling): move on at that
    /// height, settle onto the tread, and check the climb (see [`Self::step_probes`]).
    fn step_from(
        &mut self,
        it: u32,
        pos: Vec3,
        horizontal: Vec3,
        lifted: (Vec3, bool),
        riser_top: f32,
        attempt: &mut StepAttempt,
    ) -> Result<(Vec3, Vec3), StepRefusal> {
        let ctl = *self.ctl;
        let (up_to, ceiling) = lifted;
        let lift = up_to.y - pos.y;
        let fwd = self.sweep(SweepPhase::StepForward, it, up_to, horizontal);
        let forward = Vec3::new(fwd.to.x - up_to.x, 0.0, fwd.to.z - up_to.z).length();
        attempt.forward = forward;
        // Progress is measured along the motion and against the rounding of the coordinates: a body pressed
        // against a face that the lifted body meets again moves by an ulp or two (a few microns 30 m from the
        // origin), which is no way past the riser.
        let dir = horizontal.normalize_or_zero();
        if (fwd.to - up_to).dot(dir) <= rounding(up_to) {
            return Err(if ceiling {
                StepRefusal::NoHeadroom
            } else {
                StepRefusal::TooHigh
            });
        }
        let (over, landed, h) = self.settle_on_tread(it, fwd.to, dir, lift, riser_top)?;
        // The riser: the ground straight under the feet after, less the ground straight under them before.
        let below = self.ground_below(pos);
        let base = below.or(self.ground_y).unwrap_or(pos.y - ctl.skin);
        // Standing (in the skin band) on ground higher than the ground under the axis (its rounded bottom on the
        // nosing of stairs whose treads are no deeper than the body, the axis just short of it): the body stands
        // at that height, and the next riser rises from there. Measured from the tread below, the last riser of
        // 25 cm stairs with 30 cm treads read as 50 cm, and the body stood on that nosing for good.
        let stood = self.start_ground.map(|g| g.point.y);
        let base = match stood {
            Some(g) if g > base && (0.0..=2.0 * ctl.skin + 1e-4).contains(&(pos.y - g)) => g,
            _ => base,
        };
        let tread = self.ground_below(landed).unwrap_or(h.point.y);
        let rise = match self.held_edge {
            // Standing on the very edge of the tread it climbs onto (its riser's top and the tread at the
            // edge's height): the ground under the feet is the slot or the floor below, or the rim itself,
            // and the riser reads as too high or as nothing; what the body climbs is its feet's rise.
            Some(edge)
                if (riser_top - edge).abs() <= ctl.skin && (tread - edge).abs() <= ctl.skin =>
            {
                landed.y - pos.y
            }
            _ => tread - base,
        };
        // Landed with its rounded bottom on a walkable face ahead of its axis (a slope rising from a lip), the
        // axis still over the floor it stood on (the same height straight under the feet before and after):
        // what the body climbed is its feet's rise (sector seed 125). A body held over a slot, nothing straight
        // under it, is not on a floor and climbs nothing this way.
        let on_its_floor = below.is_some() && rise.abs() < ctl.skin;
        let rise = if on_its_floor
            && landed.y - pos.y >= ctl.skin
            && self
                .walkable_support(&h, landed)
                .is_some_and(|(_, on_face)| on_face)
        {
            landed.y - pos.y
        } else {
            rise
        };
        attempt.riser = Some(rise);
        if landed.y - pos.y > ctl.max_step + ctl.skin + 1e-3 || rise > ctl.max_step + 1e-3 {
            return Err(StepRefusal::TooHigh);
        }
        // A step goes on along the motion: one that would land no farther on than it started (settled back
        // onto the ground it came from, or higher up that ground behind it) climbed nothing, and one that
        // would land back against the move's own motion (walked sideways onto a nosing behind) is not taken.
        let moved = landed - pos;
        if rise < ctl.skin
            || moved.dot(dir) <= rounding(pos)
            || moved.dot(self.heading) < -rounding(pos)
        {
            // Back down where it started from: nothing was stepped onto this time. The riser's own height
            // (measured where the walk met it) says whether it ever could be.
            let riser = riser_top - base;
            attempt.riser = Some(riser);
            return Err(if riser > ctl.max_step + 1e-3 {
                StepRefusal::TooHigh
            } else {
                StepRefusal::NoProgress
            });
        }
        // Landed hung on an edge over the tread, not on it (`hung.rs`).
        if self.hangs_over_tread(landed, &h, tread) {
            return Err(StepRefusal::NoTread);
        }
        self.stepped_up += rise;
        self.ground_y = Some(tread);
        self.hits.push(CharacterHit {
            object: h.object,
            point: h.point,
            normal: h.normal,
            iteration: it,
        });
        let done = Vec3::new(over.x - up_to.x, 0.0, over.z - up_to.z);
        let rest = if done.length() >= horizontal.length() {
            Vec3::ZERO
        } else {
            horizontal - horizontal.normalize_or_zero() * done.length()
        };
        Ok((landed, rest))
    }

    /// From `over` (lifted by `lift` and moved on past the riser along the unit horizontal `dir`), settle down onto
    /// the tread; when the body would rest on the nosing (the contact off to the side of the axis, on an edge,
    /// ahead along `dir`, within 60° of it) or on a rounded top's flank too steep to stand on (a face there),
    /// move on at the lifted height until the axis is over the contact, and settle again.
    /// Answers where it was over the tread, where it landed and the tread's contact.
    fn settle_on_tread(
        &mut self,
        it: u32,
        mut over: Vec3,
        dir: Vec3,
        lift: f32,
        riser_top: f32,
    ) -> Result<(Vec3, Vec3, SceneToi), StepRefusal> {
        let ctl = *self.ctl;
        let down_by = Vec3::NEG_Y * (lift + 2.0 * ctl.skin);
        let mut down = self.sweep(SweepPhase::StepDown, it, over, down_by);
        for _ in 0..3 {
            let Some(h) = down.hit else {
                return Err(StepRefusal::NoTread);
            };
            let (support, on_face) = self.support(&h, down.to);
            let axis = Vec3::new(down.to.x, 0.0, down.to.z);
            let to_contact = Vec3::new(h.point.x, 0.0, h.point.z) - axis;
            // The nosing being climbed lies ahead along the motion; an edge at or behind the axis is a crease
            // of the ground the body came from (a terrain mesh's ridge at a crate's foot), which it rests on
            // as it is. Walking the body onto such an edge carried it back against its own motion. So is an edge
            // more than 60° aside of the motion: a wide body hanging on a rim beside it, moving along the rim,
            // was walked 0.53 m across its 7 cm motion up onto the floor beyond (the turned nav soak's seed 3).
            let ahead =
                to_contact.length() > 1e-4 && to_contact.dot(dir) > 0.5 * to_contact.length();
            if !ahead || (on_face && support.y >= self.walkable_y) {
                if support.y < self.walkable_y {
                    return Err(StepRefusal::TreadTooSteep);
                }
                break;
            }
            // Ahead: what the body is climbing onto. The nosing being climbed (an edge no higher than the riser's
            // top), a rounded flank too steep to stand on (a log, a pipe), and on the second try (when moving
            // back was refused: `over_higher_edges`) an edge past it still within a step of the feet (the next
            // facet's edge of a faceted log, as real maps draw pipes): move on until the axis is over the
            // contact, and settle again. Short moves (a walk at 60 Hz moves a few centimetres a frame) each came down on
            // a log's flank or its lower facets' edges, too steep to stand on, and were refused (or moved back
            // off an edge higher than the riser), so the default body never got over a 0.2 m log that one 20 cm
            // move crossed (the shapes nav soak's seed 5, a wide body and a log). A tread still too steep where
            // the body comes to rest (a plane: a ramp too steep) is refused after the loop. Any other edge
            // higher than the riser's top (the next riser's nosing, on a tread narrower than the body): move
            // back until the body clears it; moving on over it first made stairs of 17.5 cm risers and 25 cm
            // treads unclimbable at walking speed.
            // The riser's top was measured a skin past the riser: a tread falling away from its top (a ridge)
            // is lower there by up to a skin's run down the steepest walkable slope.
            let fall = ctl.skin * (1.0 - self.walkable_y * self.walkable_y).max(0.0).sqrt()
                / self.walkable_y.max(1e-3);
            let within_step = h.point.y - (over.y - lift) <= ctl.max_step;
            let climb = on_face
                || h.point.y <= riser_top + fall + 1e-3
                || (self.over_higher_edges && within_step);
            let nudge = if climb {
                to_contact + to_contact.normalize_or_zero() * ctl.skin
            } else {
                self.backed_off_within_step |= within_step;
                let clear = self.body(down.to).radius + ctl.skin;
                -to_contact.normalize_or_zero() * (clear - to_contact.length()).max(ctl.skin)
            };
            over = self.sweep(SweepPhase::StepForward, it, over, nudge).to;
            down = self.sweep(SweepPhase::StepDown, it, over, down_by);
        }
        let h = down.hit.ok_or(StepRefusal::NoTread)?;
        let (support, _) = self.support(&h, down.to);
        if support.y < self.walkable_y {
            return Err(StepRefusal::TreadTooSteep);
        }
        Ok((over, down.to, h))
    }
}

/// A few ulps of the largest coordinate of `p` (and of 1): distances below it are rounding, not motion.
fn rounding(p: Vec3) -> f32 {
    8.0 * f32::EPSILON * (1.0 + p.abs().max_element())
}
