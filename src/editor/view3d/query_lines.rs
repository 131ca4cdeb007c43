//! The probe ray and a game's recorded query as lines over the 3D preview.

use glam::Vec3;

use super::scene::Lines;
use crate::editor::analysis::probe::ProbeResult;
use crate::shape::Ray;

/// A game's recorded query: its path, the points it found with their normals, and its spheres (three great
/// circles each).
pub(super) fn query_lines(out: &mut Lines, q: &crate::editor::recording::QueryShape) {
    let color = [90, 220, 255, 255];
    for (a, b) in &q.lines {
        out.line(*a, *b, color);
    }
    for p in &q.points {
        out.cross(*p, 0.12, [255, 255, 255, 255]);
    }
    for (a, b) in &q.arrows {
        out.arrow(*a, *b, [255, 230, 80, 255]);
    }
    for s in &q.spheres {
        for n in [Vec3::X, Vec3::Y, Vec3::Z] {
            out.circle(s.center, n, s.radius, color);
        }
    }
}

/// The probe ray, its hits with their normals, and the chosen box's entry and exit.
pub(super) fn probe_lines(out: &mut Lines, ray: &Ray, max_t: f32, result: Option<&ProbeResult>) {
    let accent = [230, 100, 200, 255];
    let shown = result
        .and_then(|r| r.hits.last())
        .map_or(max_t.min(1e3), |h| (h.t * 1.2).max(1.0).min(max_t));
    out.line(ray.origin, ray.at(shown), accent);
    if let Some(r) = result {
        for h in &r.hits {
            out.cross(h.point, 0.12, [255, 255, 255, 255]);
            out.arrow(h.point, h.point + h.normal * 0.6, [255, 230, 80, 255]);
        }
    }
}
