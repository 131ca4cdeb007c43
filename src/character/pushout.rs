//! Pushing a body that starts inside something out of it, by the shortest way found, before it moves.

use glam::Vec3;

use super::support::{shortest_push, triangle_shape};
use crate::id::ObjectId;
use crate::scene::{Scene, Static};
use crate::shape::Capsule;

/// Rounds of pushing: each pushes out of every object still overlapped, deepest first.
const ROUNDS: usize = 8;

/// The push-out: where the feet went, whether the body is clear, and what it overlapped at first.
pub(super) struct PushOutcome {
    pub(super) feet: Vec3,
    pub(super) resolved: bool,
    pub(super) objects: Vec<ObjectId>,
}

/// Push the body (`body_at(feet)`, radius grown by half the skin) out of everything it overlaps, each time by
/// the shortest push that leaves it `clear_r` (its radius grown by the whole skin) from that object.
pub(super) fn push_out(
    scene: &Scene,
    feet: Vec3,
    clear_r: f32,
    body_at: impl Fn(Vec3) -> Capsule,
) -> PushOutcome {
    let objects = scene.overlap_capsule(&body_at(feet));
    let mut at = feet;
    let mut overlapping = objects.clone();
    for _ in 0..ROUNDS {
        if overlapping.is_empty() {
            break;
        }
        // Deepest first (Gauss-Seidel): each object's push is computed where the body is by then, and skipped
        // when an earlier push already took the body out of it.
        let body = body_at(at);
        let mut order: Vec<(f32, ObjectId)> = overlapping
            .iter()
            .filter_map(|id| {
                let shape = scene.object(*id)?;
                let depth = pushes_for(shape, &body, clear_r)
                    .iter()
                    .map(|p| p.length())
                    .fold(0.0f32, f32::max);
                Some((depth, *id))
            })
            .collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for (_, id) in order {
            let Some(shape) = scene.object(id) else {
                continue;
            };
            let body = body_at(at);
            if !shape.overlaps_capsule(&body) {
                continue;
            }
            for p in pushes_for(shape, &body, clear_r) {
                at += p;
            }
        }
        overlapping = scene.overlap_capsule(&body_at(at));
    }
    PushOutcome {
        feet: at,
        resolved: overlapping.is_empty(),
        objects,
    }
}

/// The pushes out of one object (one per overlapping triangle for a mesh, which is not convex).
fn pushes_for(shape: &Static, body: &Capsule, clear_r: f32) -> Vec<Vec3> {
    match shape {
        Static::Mesh(m) => {
            let b = body.bounds();
            let mut out = Vec::new();
            m.triangles_in_box(b.min, b.max, |_, t| {
                let s = triangle_shape(t);
                if s.overlaps_capsule(body)
                    && let Some(p) = shortest_push(&s, body, clear_r)
                {
                    out.push(p);
                }
            });
            // The triangles of one surface push the same way; keep the largest push along each direction.
            dedupe(out)
        }
        _ => shortest_push(shape, body, clear_r).into_iter().collect(),
    }
}

/// Pushes along about the same direction collapse to the longest of them.
fn dedupe(mut pushes: Vec<Vec3>) -> Vec<Vec3> {
    pushes.sort_by(|a, b| b.length_squared().total_cmp(&a.length_squared()));
    let mut kept: Vec<Vec3> = Vec::new();
    for p in pushes {
        let dir = p.normalize_or_zero();
        if !kept.iter().any(|k| k.normalize_or_zero().dot(dir) > 0.999) {
            kept.push(p);
        }
    }
    kept
}
