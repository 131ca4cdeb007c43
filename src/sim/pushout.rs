//! The start of a step, before the event loop: balls overlapping a static or each other by more than the slop
//! are pushed out (reported in [`StepReport::pushed_out`]); then every contact touching within the slop is
//! settled by a few Gauss–Seidel sweeps of the contact policy's inelastic response, so stacks, floors and
//! grooves come to rest here instead of ping-ponging in the event loop; a ball still pressing into two surfaces
//! keeps only its motion along their crease, as the event loop does for wedged balls.

use glam::Vec3;

use super::events::Run;
use super::near::{NearStatics, margin};
use super::one_way;
use super::policy::{ContactPolicy, along_crease, apply_ball_impulse, static_response};
use super::{BallId, Contact, PushOut, StepReport, World};
use crate::shape::Sphere;

/// Gauss-Seidel sweeps of the resting-contact settle before the event loop.
const SETTLE_ITERATIONS: usize = 16;

/// A contact within the slop: (ball, static index, normal toward the ball) or (ball, other ball, normal from
/// the other toward the ball).
type Touch = (usize, usize, Vec3);

/// The push-out's buffers, kept by the world between steps so a step allocates nothing once they have grown.
#[derive(Clone, Default)]
pub(super) struct PushBuffers {
    static_contacts: Vec<Touch>,
    /// The velocity of each static contact's mover (`None`: it does not move), as `static_contacts`.
    static_velocity: Vec<Option<Vec3>>,
    ball_contacts: Vec<Touch>,
    candidates: Vec<usize>,
    order: Vec<u64>,
    settled: Vec<bool>,
    by_ball: Vec<(usize, Vec3)>,
    /// Touching ball pairs as ((lowest x, index) key of the first, of the second, normal).
    pairs: Vec<(u64, u64, Vec3)>,
    /// Balls the push-out moved or slowed.
    touched: Vec<usize>,
}

impl std::fmt::Debug for PushBuffers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PushBuffers").finish_non_exhaustive()
    }
}

/// A `u32` whose unsigned order is the order of `f32::total_cmp` on `x`.
fn total_order_key(x: f32) -> u32 {
    let bits = x.to_bits();
    if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    }
}

impl World {
    /// Push overlapping balls out of statics and each other, then settle the slow approaches of all contacts.
    ///
    /// `run` has filed every ball in its grid (the swept boxes contain the balls as they are now): the touching
    /// pairs are asked of it. Afterwards `run` is told which balls were moved or slowed.
    pub(super) fn push_out(&mut self, dt: f32, run: &mut Run, report: &mut StepReport) {
        let slop = self.settings.penetration_slop.max(0.0);
        let policy = ContactPolicy::new(&self.settings, dt);
        let mut buf = std::mem::take(&mut self.push);
        self.push_out_of_statics(slop, dt, &mut run.near, &mut buf, report);
        // The grid knows where the balls were before any was pushed; after a push (rare: a ball spawned in a
        // wall, or sunk by rounding) the sweep over all balls finds the pairs.
        if !(report.pushed_out.is_empty()
            && self.touching_pairs(slop, &run.pairs, &run.valid, &mut buf))
        {
            self.push_balls_apart(slop, &mut buf, report);
        }
        self.settle(&policy, &mut buf, report);
        self.slide_along_creases(&policy, &mut buf);
        let touched = &mut buf.touched;
        touched.clear();
        touched.extend(buf.static_contacts.iter().map(|c| c.0));
        touched.extend(buf.ball_contacts.iter().flat_map(|c| [c.0, c.1]));
        touched.extend(report.pushed_out.iter().map(|p| p.ball.0));
        touched.extend(report.pushed_out.iter().filter_map(|p| match p.other {
            Contact::Ball(BallId(j)) => Some(j),
            Contact::Static(_) => None,
        }));
        touched.sort_unstable();
        touched.dedup();
        run.after_push_out(self, touched);
        self.push = buf;
    }

    /// Move each ball out of the statics it overlaps by more than `slop`; gathers every static contact within
    /// the slop in `buf.static_contacts`.
    fn push_out_of_statics(
        &mut self,
        slop: f32,
        dt: f32,
        near: &mut NearStatics,
        buf: &mut PushBuffers,
        report: &mut StepReport,
    ) {
        buf.static_contacts.clear();
        buf.static_velocity.clear();
        for i in 0..self.balls.len() {
            let contacts = &mut buf.static_contacts;
            let candidates = &mut buf.candidates;
            let ball = self.balls[i];
            if !ball.is_valid() {
                continue;
            }
            let reach = Vec3::splat(ball.radius + slop);
            candidates.clear();
            let grow = margin(ball.radius, ball.velocity.length(), dt);
            near.candidates(
                &self.scene,
                i,
                ball.center - reach,
                ball.center + reach,
                grow,
                |k| candidates.push(k),
            );
            candidates.sort_unstable();
            for &s in candidates.iter() {
                let ball = self.balls[i];
                // A zero-motion sweep of the sphere grown by the slop reports every contact within the slop,
                // with its normal and surface point.
                let probe = Sphere::new(ball.center, ball.radius + slop);
                let shape = &self.scene.shapes()[s];
                let Some(toi) = shape.sweep_sphere(&probe, Vec3::ZERO) else {
                    continue;
                };
                if self.scene.is_one_way_entry(s)
                    && !(toi.normal.y > 0.0 && one_way::on_top(shape, &ball.sphere()))
                {
                    // Passing through a one-way surface (from below or the side): no contact.
                    continue;
                }
                let depth = ball.radius - (ball.center - toi.point).dot(toi.normal);
                if depth > slop {
                    self.balls[i].center = toi.point + toi.normal * ball.radius;
                    report.pushed_out.push(PushOut {
                        ball: BallId(i),
                        other: Contact::Static(s),
                        depth,
                        normal: toi.normal,
                    });
                }
                contacts.push((i, s, toi.normal));
                buf.static_velocity.push(None);
            }
            if self.movers.any() {
                self.push_out_of_movers(i, slop, buf, report);
            }
        }
    }

    /// Move ball `i` out of the moved statics it overlaps by more than `slop` (at their start-of-step
    /// places), along the contact normal, with at least the mover's velocity along it so it does not sink
    /// again; gathers its contacts within the slop with their movers' velocities.
    fn push_out_of_movers(
        &mut self,
        i: usize,
        slop: f32,
        buf: &mut PushBuffers,
        report: &mut StepReport,
    ) {
        let candidates = &mut buf.candidates;
        candidates.clear();
        let ball = self.balls[i];
        let reach = Vec3::splat(ball.radius + slop);
        let (lo, hi) = (ball.center - reach, ball.center + reach);
        // The moved objects' tree holds every moved entry at its padded box: the entries a scan of
        // `movers.step` would find, and in its (scene) order once sorted.
        self.scene.moving_near(lo, hi, candidates);
        for &s in candidates.iter() {
            let ball = self.balls[i];
            let probe = Sphere::new(ball.center, ball.radius + slop);
            let shape = &self.scene.shapes()[s];
            let Some(toi) = shape.sweep_sphere(&probe, Vec3::ZERO) else {
                continue;
            };
            if self.scene.is_one_way_entry(s)
                && !(toi.normal.y > 0.0 && one_way::on_top(shape, &ball.sphere()))
            {
                continue;
            }
            let u = self.movers.velocity(s);
            let depth = ball.radius - (ball.center - toi.point).dot(toi.normal);
            if depth > slop {
                let b = &mut self.balls[i];
                b.center = toi.point + toi.normal * ball.radius;
                let (vn, un) = (b.velocity.dot(toi.normal), u.dot(toi.normal));
                if vn < un {
                    b.velocity += toi.normal * (un - vn);
                }
                report.pushed_out.push(PushOut {
                    ball: BallId(i),
                    other: Contact::Static(s),
                    depth,
                    normal: toi.normal,
                });
            }
            buf.static_contacts.push((i, s, toi.normal));
            buf.static_velocity.push(Some(u));
        }
    }

    /// The ball pairs within `slop` of touching, found through the grid of swept boxes, in `buf.ball_contacts`
    /// exactly as [`World::push_balls_apart`] lists them when it pushes none apart; `false` (with nothing
    /// listed) when a pair overlaps by more than `slop`, so a push is due: the caller then runs that sweep.
    ///
    /// The sweep visits the valid balls by `(lowest x, index)` and pairs each with the later ones until their
    /// lowest x passes its highest x plus the slop; without pushes nothing moves meanwhile, so the pairs it
    /// lists are those within the slop whose second ball's lowest x is within that bound, ordered by the
    /// `(lowest x, index)` keys of their first and second balls. Those are what this lists, from the pairs
    /// of balls sharing a grid cell (every ball is filed under its swept box grown by the slop, so two balls
    /// within the slop of each other share a cell) instead of a sweep along `x`, which meets more and more
    /// balls as a crowd thickens.
    fn touching_pairs(
        &self,
        slop: f32,
        candidates: &[(u32, u32)],
        valid: &[bool],
        buf: &mut PushBuffers,
    ) -> bool {
        let balls = &self.balls;
        let key = |i: usize| {
            let b = &balls[i];
            (u64::from(total_order_key(b.center.x - b.radius)) << 32) | i as u64
        };
        let pairs = &mut buf.pairs;
        pairs.clear();
        for &(i, j) in candidates {
            let (i, j) = (i as usize, j as usize);
            if !(valid[i] && valid[j]) {
                continue;
            }
            let (ki, kj) = (key(i), key(j));
            let (ka, kb) = if ki < kj { (ki, kj) } else { (kj, ki) };
            let (a, b) = (balls[ka as u32 as usize], balls[kb as u32 as usize]);
            if b.center.x - b.radius > a.center.x + a.radius + slop {
                continue;
            }
            let d = a.center - b.center;
            let sum = a.radius + b.radius;
            let dist = d.length();
            if dist > sum + slop {
                continue;
            }
            if sum - dist > slop {
                pairs.clear();
                return false;
            }
            pairs.push((ka, kb, d.try_normalize().unwrap_or(Vec3::Y)));
        }
        pairs.sort_unstable_by_key(|&(ka, kb, _)| (ka, kb));
        pairs.dedup_by_key(|&mut (ka, kb, _)| (ka, kb));
        let contacts = &mut buf.ball_contacts;
        contacts.clear();
        contacts.extend(
            pairs
                .iter()
                .map(|&(ka, kb, n)| (ka as u32 as usize, kb as u32 as usize, n)),
        );
        true
    }

    /// Separate ball pairs overlapping by more than `slop` (each moved in inverse proportion to its mass);
    /// gathers every ball pair within the slop in `buf.ball_contacts`. Pairs are found by sorting on `x` and
    /// sweeping.
    fn push_balls_apart(&mut self, slop: f32, buf: &mut PushBuffers, report: &mut StepReport) {
        let contacts = &mut buf.ball_contacts;
        contacts.clear();
        // Valid balls by their lowest x, then index: one sort of (key, index) integers, the key ordered as
        // `f32::total_cmp` orders the floats.
        let order = &mut buf.order;
        order.clear();
        order.extend(
            self.balls
                .iter()
                .enumerate()
                .filter(|(_, b)| b.is_valid())
                .map(|(i, b)| (u64::from(total_order_key(b.center.x - b.radius)) << 32) | i as u64),
        );
        order.sort_unstable();
        for k in 0..order.len() {
            let i = order[k] as u32 as usize;
            for &j in &order[k + 1..] {
                let j = j as u32 as usize;
                let (a, b) = (self.balls[i], self.balls[j]);
                if b.center.x - b.radius > a.center.x + a.radius + slop {
                    break;
                }
                let d = a.center - b.center;
                let sum = a.radius + b.radius;
                let dist = d.length();
                if dist > sum + slop {
                    continue;
                }
                let n = d.try_normalize().unwrap_or(Vec3::Y);
                let depth = sum - dist;
                if depth > slop {
                    let (wa, wb) = (1.0 / a.mass, 1.0 / b.mass);
                    let share_a = wa / (wa + wb);
                    self.balls[i].center += n * (depth * share_a);
                    self.balls[j].center -= n * (depth * (1.0 - share_a));
                    report.pushed_out.push(PushOut {
                        ball: BallId(i),
                        other: Contact::Ball(BallId(j)),
                        depth,
                        normal: n,
                    });
                }
                contacts.push((i, j, n));
            }
        }
    }

    /// Settle slow approaches in all touching contacts together: a few Gauss-Seidel sweeps of inelastic
    /// responses, counted in [`super::StepCounters::resting_contacts`].
    fn settle(&mut self, policy: &ContactPolicy, buf: &mut PushBuffers, report: &mut StepReport) {
        let (static_contacts, ball_contacts) = (&buf.static_contacts, &buf.ball_contacts);
        let settled = &mut buf.settled;
        settled.clear();
        settled.resize(static_contacts.len() + ball_contacts.len(), false);
        for _ in 0..SETTLE_ITERATIONS {
            let mut changed = false;
            for (k, &(i, _, n)) in static_contacts.iter().enumerate() {
                let v = self.balls[i].velocity;
                // Relative to a mover (its velocity added back), exactly the static rule otherwise.
                let u = buf.static_velocity.get(k).copied().flatten();
                let rel = u.map_or(v, |u| v - u);
                let vn = rel.dot(n);
                if policy.settles(-vn, n) {
                    let r = static_response(rel, n, vn, 0.0);
                    self.balls[i].velocity = u.map_or(r, |u| u + r);
                    settled[k] = true;
                    changed = true;
                }
            }
            for (k, &(i, j, n)) in ball_contacts.iter().enumerate() {
                let vrel = (self.balls[i].velocity - self.balls[j].velocity).dot(n);
                if policy.settles(-vrel, n) {
                    // Perfectly inelastic along the normal: momentum kept, the approach removed.
                    apply_ball_impulse(&mut self.balls, i, j, n, vrel, 0.0);
                    settled[static_contacts.len() + k] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        report.counters.resting_contacts += settled.iter().filter(|&&s| s).count() as u64;
    }

    /// A ball still pressing into two surfaces after the settle (a narrow groove converges slowly) keeps only
    /// its motion along their crease (that of the surface it presses hardest and the first of its surfaces not
    /// parallel to it); when all its surfaces are parallel it only loses its motion into that one.
    fn slide_along_creases(&mut self, policy: &ContactPolicy, buf: &mut PushBuffers) {
        let by_ball = &mut buf.by_ball;
        by_ball.clear();
        // The crease rule is for still surfaces: contacts with movers are settled on their own.
        by_ball.extend(
            buf.static_contacts
                .iter()
                .zip(&buf.static_velocity)
                .filter(|(_, u)| u.is_none())
                .map(|(&(i, _, n), _)| (i, n)),
        );
        // Stable: each ball's normals stay in the order they were found.
        by_ball.sort_by_key(|&(i, _)| i);
        for group in by_ball.chunk_by(|a, b| a.0 == b.0) {
            if group.len() < 2 {
                continue;
            }
            let i = group[0].0;
            let v = self.balls[i].velocity;
            let Some((_, first)) = group
                .iter()
                .map(|&(_, n)| (v.dot(n), n))
                .filter(|&(vn, n)| policy.settles(-vn, n))
                .min_by(|a, b| a.0.total_cmp(&b.0))
            else {
                continue;
            };
            self.balls[i].velocity = group
                .iter()
                .find_map(|&(_, n)| along_crease(v, first, n))
                .unwrap_or_else(|| static_response(v, first, v.dot(first), 0.0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::total_order_key;

    #[test]
    fn keys_order_as_total_cmp() {
        let xs = [
            f32::NEG_INFINITY,
            -1e30,
            -2.5,
            -1.0,
            -f32::MIN_POSITIVE,
            -0.0,
            0.0,
            f32::MIN_POSITIVE,
            1.0,
            2.5,
            1e30,
            f32::INFINITY,
        ];
        for a in xs {
            for b in xs {
                assert_eq!(
                    total_order_key(a).cmp(&total_order_key(b)),
                    a.total_cmp(&b),
                    "{a} {b}"
                );
            }
        }
    }
}
