//! The navigation feature's glue: its commands, the map kept in step with the document once a frame, the
//! agent stepped, the status bar's word and the section beside the inspector.

use glam::{Vec2, Vec3};

use super::EditorApp;
use crate::editor::command::Command;
use crate::editor::view3d::scene::Lines;
use crate::shape::Ray;

impl EditorApp {
    /// Run a navigation command.
    pub(super) fn run_nav_command(&mut self, command: Command) {
        let o = &mut self.nav.overlay;
        match command {
            Command::ToggleNav => {
                o.on = !o.on;
                self.status = if o.on {
                    "navigation overlay on: Shift+click a start, then a goal, in either view".into()
                } else {
                    "navigation overlay off".into()
                };
            }
            Command::NavPoint(at) => {
                o.on = true;
                self.status = o.click(at);
            }
            Command::NavAgent(i) => {
                let agents = crate::editor::nav::model::agents(self.doc.level(), &o.added);
                if i < agents.len() {
                    self.status = o.set_agent(i);
                }
            }
            Command::NavAddAgent(radius, height) => {
                let c = crate::character::CharacterController {
                    radius,
                    height,
                    ..crate::editor::document::character::effective(self.doc.level())
                };
                let full = o.added.len() + 1 >= crate::nav::MAX_AGENT_SIZES;
                match c.problems().first() {
                    _ if full => {
                        self.status = format!(
                            "not added: a map holds at most {} agent sizes",
                            crate::nav::MAX_AGENT_SIZES
                        );
                    }
                    None => {
                        o.added
                            .push(crate::editor::nav::AgentSize { radius, height });
                        o.agent = o.added.len();
                        o.route = None;
                        o.walker = None;
                        self.status = format!(
                            "navigation agent {}: radius {radius:.2} m, height {height:.2} m (the map is baked again)",
                            o.agent + 1
                        );
                    }
                    Some((field, why)) => self.status = format!("not added: {field} {why}"),
                }
            }
            Command::WalkNavPath => {
                o.walk_route();
                if o.walker.is_some() {
                    self.view3d.open = true;
                    self.status = "navigation: the agent walks the path".into();
                } else {
                    self.status = "navigation: no path to walk".into();
                }
            }
            Command::ClearNavPath if o.clear() => {
                self.status = "navigation path cleared".into();
            }
            _ => {}
        }
    }

    /// Keep the navigation map in step with the document while the overlay is on (off, the last map is
    /// kept), and step the walking agent.
    pub(super) fn refresh_nav(&mut self, ctx: &egui::Context) {
        let build = self.nav.overlay.on && self.tools.gesture.is_none();
        if let Some(s) = self
            .nav
            .overlay
            .refresh(ctx, &self.doc, self.level_scene.as_ref(), build)
        {
            self.status = s;
        }
        if self.nav.overlay.walker.is_some() {
            let scene = self.level_scene();
            let gravity = self.doc.level().simulation.gravity;
            if let Some(s) = self.nav.overlay.walk_frame(ctx, &scene, gravity) {
                self.status = s;
            }
        }
    }

    /// The status bar's navigation part, while the overlay is on.
    pub(super) fn nav_status(&self, ui: &mut egui::Ui) {
        if self.nav.overlay.on {
            self.nav.overlay.status_ui(ui);
        }
    }

    /// The feet over floor point `w`: on the highest surface under it (`skin` over it; the floor at 0 when
    /// there is none).
    pub(super) fn nav_spot(&mut self, w: Vec2) -> Vec3 {
        let scene = self.level_scene();
        let skin = crate::editor::document::character::effective(self.doc.level()).skin;
        let top = scene.bounds().map_or(10.0, |b| b.max.y + 1.0);
        scene
            .cast_ray(&Ray::new(Vec3::new(w.x, top, w.y), Vec3::NEG_Y), 1e5)
            .map_or(Vec3::new(w.x, 0.0, w.y), |h| h.point + Vec3::Y * skin)
    }

    /// The navigation section above the inspector, while the overlay is on.
    pub(super) fn nav_panel(&mut self, ui: &mut egui::Ui) {
        if !self.nav.overlay.on {
            return;
        }
        let mut size = self.nav.new_size;
        let run = crate::editor::nav::panel::show(ui, &self.nav.overlay, &mut size);
        self.nav.new_size = size;
        ui.separator();
        if let Some(c) = run {
            self.run_command(&ui.ctx().clone(), c);
        }
    }
}

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
