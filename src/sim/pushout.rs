//! The start of a step, before the event loop: balls overlapping a static or each other by more than the slop
//! are pushed out (reported in [`StepReport::pushed_out`]); then every contact touching within the slop is
//! settled by a few Gauss–Seidel sweeps of the contact policy's inelastic response, so stacks, floors and
//! grooves come to rest here instead of ping-ponging in the event loop; a ball still pressing into two surfaces
//! keeps only its motion along their crease, as the event loop does for wedged balls.

use glam::Vec3;

use super::policy::{ContactPolicy, along_crease, apply_ball_impulse, static_response};
use super::{BallId, Contact, PushOut, StepReport, World};
use crate::shape::Sphere;

/// Gauss-Seidel sweeps of the resting-contact settle before the event loop.
const SETTLE_ITERATIONS: usize = 16;

/// A contact within the slop: (ball, static index, normal toward the ball) or (ball, other ball, normal from
/// the other toward the ball).
type Touch = (usize, usize, Vec3);

impl World {
    /// Push overlapping balls out of statics and each other, then settle the slow approaches of all contacts.
    pub(super) fn push_out(&mut self, dt: f32, report: &mut StepReport) {
        let slop = self.settings.penetration_slop.max(0.0);
        let policy = ContactPolicy::new(&self.settings, dt);
        let static_contacts = self.push_out_of_statics(slop, report);
        let ball_contacts = self.push_balls_apart(slop, report);
        self.settle(&policy, &static_contacts, &ball_contacts, report);
        self.slide_along_creases(&policy, &static_contacts);
    }

    /// Move each ball out of the statics it overlaps by more than `slop`; returns every static contact within
    /// the slop.
    fn push_out_of_statics(&mut self, slop: f32, report: &mut StepReport) -> Vec<Touch> {
        let mut contacts = Vec::new();
        let mut candidates: Vec<usize> = Vec::new();
        for i in 0..self.balls.len() {
            let ball = self.balls[i];
            if !ball.is_valid() {
                continue;
            }
            let reach = Vec3::splat(ball.radius + slop);
            candidates.clear();
            self.scene
                .candidates(ball.center - reach, ball.center + reach, |k| {
                    candidates.push(k);
                });
            candidates.sort_unstable();
            for &s in &candidates {
                let ball = self.balls[i];
                // A zero-motion sweep of the sphere grown by the slop reports every contact within the slop,
                // with its normal and surface point.
                let probe = Sphere::new(ball.center, ball.radius + slop);
                let Some(toi) = self.scene.shapes()[s].sweep_sphere(&probe, Vec3::ZERO) else {
                    continue;
                };
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
            }
        }
        contacts
    }

    /// Separate ball pairs overlapping by more than `slop` (each moved in inverse proportion to its mass);
    /// returns every ball pair within the slop. Pairs are found by sorting on `x` and sweeping.
    fn push_balls_apart(&mut self, slop: f32, report: &mut StepReport) -> Vec<Touch> {
        let mut contacts = Vec::new();
        let mut order: Vec<usize> = (0..self.balls.len())
            .filter(|&i| self.balls[i].is_valid())
            .collect();
        order.sort_by(|&a, &b| {
            let (ba, bb) = (&self.balls[a], &self.balls[b]);
            (ba.center.x - ba.radius)
                .total_cmp(&(bb.center.x - bb.radius))
                .then(a.cmp(&b))
        });
        for k in 0..order.len() {
            let i = order[k];
            for &j in &order[k + 1..] {
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
        contacts
    }

    /// Settle slow approaches in all touching contacts together: a few Gauss-Seidel sweeps of inelastic
    /// responses, counted in [`super::StepCounters::resting_contacts`].
    fn settle(
        &mut self,
        policy: &ContactPolicy,
        static_contacts: &[Touch],
        ball_contacts: &[Touch],
        report: &mut StepReport,
    ) {
        let mut settled = vec![false; static_contacts.len() + ball_contacts.len()];
        for _ in 0..SETTLE_ITERATIONS {
            let mut changed = false;
            for (k, &(i, _, n)) in static_contacts.iter().enumerate() {
                let v = self.balls[i].velocity;
                let vn = v.dot(n);
                if policy.settles(-vn, n) {
                    self.balls[i].velocity = static_response(v, n, vn, 0.0);
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
    fn slide_along_creases(&mut self, policy: &ContactPolicy, static_contacts: &[Touch]) {
        let mut by_ball: Vec<(usize, Vec3)> =
            static_contacts.iter().map(|&(i, _, n)| (i, n)).collect();
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
