//! What the 3D preview draws of the navigation overlay: the chosen agent's grid and jump arcs, the ends, the
//! path with each link in its colour, and the walking agent.

use glam::Vec3;

use crate::editor::draw::Lines;

/// What the 3D preview draws of the navigation overlay.
pub struct Nav3<'a> {
    /// The chosen agent's drawing.
    pub agent: Option<&'a crate::editor::nav::geometry::AgentGeometry>,
    /// The start waiting for its goal.
    pub start: Option<Vec3>,
    /// The path asked for.
    pub route: Option<&'a crate::editor::nav::Route>,
    /// The agents' controllers and the gravity the map was baked with (a path's arcs are drawn with them).
    pub settings: Option<&'a crate::nav::NavSettings>,
    /// The walking agent.
    pub walker: Option<&'a crate::editor::nav::NavWalker>,
    /// A newer map is being made: drawn faint.
    pub faint: bool,
}

impl<'a> Nav3<'a> {
    /// What the preview draws of `o` for the document at `key` (nothing while it is off).
    #[must_use]
    pub fn of(
        o: &'a crate::editor::nav::NavOverlay,
        key: crate::editor::document::DocKey,
    ) -> Option<Self> {
        if !o.on {
            return None;
        }
        let data = o.data();
        Some(Self {
            agent: data.and_then(|d| d.geometry.agents.get(o.agent)),
            start: o.start,
            route: o.route.as_ref(),
            settings: data.map(|d| d.map.settings()),
            walker: o.walker.as_ref(),
            faint: !o.is_current(key),
        })
    }
}

/// The navigation overlay's lines: the walkable grid (depth-tested), the jump arcs, the ends, the path with
/// each link in its colour, and the walking agent's capsule.
pub(super) fn nav_lines(n: &Nav3<'_>, lines: &mut Lines, overlay: &mut Lines) {
    use crate::editor::nav::geometry::{LinkKind, path_pieces};
    let alpha = if n.faint { 70 } else { 255 };
    let lift = Vec3::Y * 0.03;
    if let Some(a) = n.agent {
        let grid = [60, 190, 210, if n.faint { 40 } else { 150 }];
        lines.reserve_segments(a.grid.len());
        for (p, q) in &a.grid {
            lines.line(*p + lift, *q + lift, grid);
        }
        let mut jump = LinkKind::Jump.rgba();
        jump[3] = alpha / 2;
        for arc in &a.jumps {
            let lifted: Vec<Vec3> = arc.iter().map(|p| *p + lift).collect();
            lines.strip(&lifted, jump);
        }
    }
    let white = [255, 255, 255, alpha];
    if let Some(s) = n.start {
        overlay.circle(s + lift, Vec3::Y, 0.3, white);
    }
    if let Some(r) = n.route {
        overlay.circle(r.from + lift, Vec3::Y, 0.3, white);
        overlay.circle(r.to + lift, Vec3::Y, 0.3, white);
        overlay.cross(r.to + lift, 0.2, white);
        match (&r.path, n.settings) {
            (Some(path), Some(s)) => {
                let c = s.agents.get(r.agent).copied().unwrap_or_default();
                for (pts, kind) in path_pieces(path, r.from, r.to, &c, s.gravity.y) {
                    let lifted: Vec<Vec3> = pts.iter().map(|p| *p + Vec3::Y * 0.08).collect();
                    let mut rgba = kind.rgba();
                    rgba[3] = alpha;
                    overlay.strip(&lifted, rgba);
                }
            }
            _ => overlay.line(r.from + lift, r.to + lift, [235, 60, 60, alpha]),
        }
    }
    if let Some(w) = n.walker {
        let body = w.controller.capsule(w.body.feet);
        lines.capsule(body.a, body.b, body.radius, crate::editor::nav::AGENT_RGBA);
    }
}
