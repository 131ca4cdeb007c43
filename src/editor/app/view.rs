//! The top-down view in the editor's frame: framing, zoom and pan, the pointer handed to the active tool
//! (or to the inspector's pick), and the view's layers painted from every feature's data: the level in
//! two batched meshes, the reachability overlay, the debugger's overlays, the probe and the tool's marks.

use crate::editor::theme;

use egui::{Color32, Pos2, Rect, Ui};
use glam::{Vec2, Vec3};

use crate::editor::app::*;
use crate::editor::command::Command;
use crate::editor::debugger::panel::Tab;
use egui::{Key, Sense};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::editor::document::{Kind, Object};
use crate::editor::tools::{Gesture, Pointer, Tool, ToolCtx, ToolOut, Tools, rotation_handle};
use crate::editor::view2d::{self, Batch, Drawer, Look, gpu};
use crate::editor::view2d::{Camera, LevelPaintKey};
use crate::level::ObjectId;

/// Whether bounds (none: unbounded) reach into the visible world rectangle.
fn in_view(bounds: Option<(Vec2, Vec2)>, vis_lo: Vec2, vis_hi: Vec2) -> bool {
    bounds.is_none_or(|(lo, hi)| {
        hi.x >= vis_lo.x && hi.y >= vis_lo.y && lo.x <= vis_hi.x && lo.y <= vis_hi.y
    })
}

impl EditorApp {
    pub(crate) fn view(&mut self, ui: &mut Ui) {
        let (rect, resp) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        self.view2d.rect = rect;
        self.view2d.scene.storey = self.greybox.storey.range();
        if !self.view2d.framed && rect.width() > 10.0 {
            let b = self.view2d.scene.level_bounds(self.doc.level());
            if b.is_some() {
                self.view2d.cam.frame(rect, b);
            } else {
                self.view2d.cam = Camera::default();
            }
            self.view2d.framed = true;
        }
        if self.view2d.frame_selection {
            self.view2d.frame_selection = false;
            let b = self.view2d.scene.selection_bounds(self.doc.selection());
            self.view2d.cam.frame(rect, b);
        }
        let (shift, space, hover) = ui.input(|i| {
            (
                i.modifiers.shift,
                i.key_down(Key::Space),
                i.pointer.hover_pos(),
            )
        });
        let hover = hover.filter(|p| rect.contains(*p));
        self.view2d.cursor_world = hover.map(|p| self.view2d.cam.world_from_screen(rect, p));
        if self.view2d.cursor_world.is_some() {
            self.view2d.last_cursor_world = self.view2d.cursor_world;
        }

        // Zoom about the pointer; pan with the middle or right button, or Space + drag.
        if let Some(p) = hover {
            let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
            let factor = zoom * (scroll * 0.002).exp();
            if factor != 1.0 {
                self.view2d.cam.zoom_about(rect, p, factor);
            }
        }
        let panning = resp.dragged_by(egui::PointerButton::Middle)
            || resp.dragged_by(egui::PointerButton::Secondary)
            || (space && resp.dragged_by(egui::PointerButton::Primary));
        if panning {
            self.view2d.space_panned |= space;
            self.view2d.cam.pan_by(resp.drag_delta());
            if resp.drag_started() && self.tools.gesture.is_none() {
                self.tools.gesture = Some(Gesture::Pan);
            }
        } else {
            self.pointer(ui, &resp, rect, shift);
        }
        if resp.drag_stopped() && matches!(self.tools.gesture, Some(Gesture::Pan)) {
            self.tools.gesture = None;
        }
        self.paint(ui, rect, hover, shift);
    }

    fn pointer(&mut self, ui: &Ui, resp: &egui::Response, rect: Rect, shift: bool) {
        let pt = Pointer {
            rect,
            cam: self.view2d.cam,
            press: resp.interact_pointer_pos(),
            shift,
            ctrl: ui.input(|i| i.modifiers.command),
        };
        if self.nav.overlay.on && shift {
            // Shift+click with the navigation overlay on: the path's start, then its goal (the tools see
            // none of it, so a Shift+click there never also selects or places).
            if resp.clicked()
                && let Some(p) = pt.press
            {
                let at = self.nav_spot(pt.world(p));
                self.run_command(&resp.ctx, Command::NavPoint(at));
            }
            return;
        }
        if self.inspector.pick.is_some() {
            self.pick_for_inspector(resp, pt);
            return;
        }
        self.with_tools(&resp.ctx, |tools, cx| tools.pointer(cx, ui, resp, pt));
    }

    /// A click while the inspector waits for a point or a reference: store what was clicked (snapped
    /// points; the object under the pointer), or say why nothing was stored.
    fn pick_for_inspector(&mut self, resp: &egui::Response, pt: Pointer) {
        let (Some(req), Some(p)) = (self.inspector.pick.clone(), pt.press) else {
            return;
        };
        if !resp.clicked() {
            return;
        }
        let w = pt.world(p);
        let at = self.tools.snapped(w, pt.shift);
        let hit = self.pick(w).flatten();
        let result = req
            .value_at(at.x, at.y, hit)
            .and_then(|v| req.edit(self.doc.level(), v));
        match result {
            Ok(edit) => {
                self.status = format!("{} (picked)", edit.label);
                self.inspector.pick = None;
                self.run_command(&resp.ctx, Command::Apply(Box::new(edit)));
            }
            Err(why) => self.status = format!("not picked: {why}"),
        }
    }

    /// Run `f` on the tools with this frame's document, drawn scene and status line, then do what they
    /// asked: a probe ray, a tab, the split question, the Reach tool's spot, commands.
    pub(crate) fn with_tools(
        &mut self,
        ctx: &egui::Context,
        f: impl FnOnce(&mut Tools, &mut ToolCtx<'_>),
    ) {
        let mut cx = ToolCtx {
            doc: &mut self.doc,
            scene: &self.view2d.scene,
            status: &mut self.status,
            probe_height: self.probe.height,
            out: ToolOut::default(),
        };
        f(&mut self.tools, &mut cx);
        let out = cx.out;
        if let Some(p) = out.probe {
            self.probe.ray = p;
            self.probe.flat = true;
        }
        if let Some((tab, show_panel)) = out.show_tab {
            self.panels.tab = tab;
            self.panels.lower_collapsed = false;
            self.panels.show_problems |= show_panel;
        }
        if let Some((walls, crossings)) = out.split {
            self.session.dialog = Some(Dialog::Split { walls, crossings });
        }
        if let Some(w) = out.reach_at {
            let to = self.reach_spot(w);
            self.run_command(ctx, Command::ReachTo(to));
        }
        for c in out.commands {
            self.run_command(ctx, c);
        }
    }

    /// Paint the top-down view: grid, level, walker, probe, compare marks, debugger overlays, tool marks.
    pub(crate) fn paint(&mut self, ui: &Ui, rect: Rect, hover: Option<Pos2>, shift: bool) {
        let painter = ui.painter_at(rect);
        let dark = ui.visuals().dark_mode;
        let background = if dark {
            Color32::from_gray(24)
        } else {
            Color32::from_gray(245)
        };
        painter.rect_filled(rect, 0.0, background);
        view2d::draw_grid(&painter, rect, &self.view2d.cam, dark);
        let hovered = match (&self.tools.gesture, self.tools.tool, hover) {
            (None, Tool::Select, Some(p)) => self.pick(self.view2d.cam.world_from_screen(rect, p)),
            _ => None,
        };
        let level = self.paint_level(rect);
        // The wgpu renderer installed (`EditorApp::enable_3d`) draws the 3D preview and these layers alike.
        if self.view3d.gpu {
            // From GPU buffers, uploaded once per build (see `view2d::gpu`).
            painter.add(gpu::layer_callback(rect, gpu::Slot::Level, level));
        } else {
            // Each cached level mesh under a clip rectangle of its own (a hundredth of a pixel smaller, no
            // visible difference), so egui's tessellator starts a fresh mesh for it and copies it once: under
            // the view's own clip rectangle it would be appended to the background's mesh, growing it by
            // doubling (a reallocation and copy of everything so far, each time), and the overlays after it
            // would grow it again. At 100,000 walls that growth was a third of a still frame.
            painter
                .with_clip_rect(rect.shrink(0.01))
                .add(egui::Shape::Mesh(level.fills));
            painter
                .with_clip_rect(rect.shrink(0.02))
                .add(egui::Shape::Mesh(level.lines));
        }
        if let Some(cells) =
            self.reach_paint
                .cells(&self.reach, self.doc.key(), &self.view2d.cam, rect)
        {
            // The reachability overlay's cells over the level, translucent: the outlines show through, muted.
            painter.with_clip_rect(rect.shrink(0.025)).add(cells);
        }
        if let Some(places) =
            self.nav
                .paint
                .places(&self.nav.overlay, self.doc.key(), &self.view2d.cam, rect)
        {
            // The navigation overlay's places, translucent, in a mesh of their own (see above).
            painter.with_clip_rect(rect.shrink(0.027)).add(places);
        }
        let (fills, mut lines) = self.paint_hovered(rect, hovered);
        self.paint_walker(&mut lines, rect, hovered);
        let character_label = self.paint_character(&mut lines, rect);
        self.paint_probe(&mut lines, rect);
        self.paint_movers(&mut lines, rect);
        super::recording::paint_recording_query(
            &self.view2d.cam,
            rect,
            &mut lines,
            self.recording.as_ref(),
        );
        super::character::paint_character_moves(
            &self.view2d.cam,
            rect,
            &mut lines,
            self.recording_move_marks().as_ref(),
            &self.view3d,
        );
        self.paint_compare(&mut lines, rect);
        crate::editor::nav::paint::paint_marks(
            &self.nav.overlay,
            self.doc.key(),
            &self.view2d.cam,
            rect,
            &mut lines,
        );
        let marks = self.debug.marks();
        let selection = self.doc.selection();
        marks.paint_2d(&mut lines, rect, &self.view2d.cam, &|id| {
            selection.contains(&id)
        });
        if self.view3d.gpu {
            // The overlays (a thousand balls and their trails while playing) go to the GPU too: a new build
            // every frame, but egui's tessellator no longer checks, measures and copies it.
            let overlays = gpu::Layer {
                generation: gpu::next_generation(),
                fills: Arc::new(fills.into_mesh()),
                lines: Arc::new(lines.into_mesh()),
            };
            painter.add(gpu::layer_callback(rect, gpu::Slot::Overlays, overlays));
        } else {
            // The overlays too, each under a clip rectangle of its own, for the same reason.
            painter
                .with_clip_rect(rect.shrink(0.03))
                .add(fills.finish());
            painter
                .with_clip_rect(rect.shrink(0.04))
                .add(lines.finish());
        }
        crate::editor::reach::paint::paint_marks(
            &self.reach,
            self.doc.key(),
            &self.view2d.cam,
            &painter,
            rect,
        );
        if let Some((at, text)) = character_label {
            painter.text(
                at,
                egui::Align2::LEFT_BOTTOM,
                text,
                egui::FontId::proportional(11.0),
                theme::palette::CHARACTER,
            );
        }
        if let Some(range) = self.view2d.scene.relief.range {
            let under = hover.and_then(|p| {
                self.view2d
                    .scene
                    .surface_height(self.view2d.cam.world_from_screen(rect, p))
            });
            view2d::relief_paint::legend(&painter, rect, range, under, dark);
        }
        self.paint_tool(&painter, rect, hover, shift);
        self.paint_gesture(&painter, rect, hover, shift);
        if self.view2d.scene.entries.is_empty() && self.doc.level().walker.is_none() {
            painter.text(
                rect.center() - egui::vec2(0.0, 40.0),
                egui::Align2::CENTER_CENTER,
                "An empty level. Draw walls with W, place balls with B — F1 lists every shortcut.",
                egui::FontId::proportional(15.0),
                ui.visuals().weak_text_color(),
            );
        }
    }

    /// The level's objects (selected ones last, on top), culled to the view, as a fills mesh and a lines
    /// mesh. They are built once and kept while the document, problems, selection, camera, view and
    /// settings stay the same (a still view of 100,000 walls costs two reference counts a frame, and, without
    /// wgpu, egui's copy of each mesh into its output); the hovered object is drawn over them by
    /// [`EditorApp::paint_hovered`].
    fn paint_level(&mut self, rect: Rect) -> gpu::Layer {
        let key = self.level_paint_key(rect);
        if let Some((k, level)) = &self.view2d.level_paint
            && *k == key
        {
            return level.clone();
        }
        let (vis_lo, vis_hi) = self.view2d.cam.visible(rect);
        let mut drawer = Drawer {
            rect,
            cam: &self.view2d.cam,
            fills: Batch::default(),
            lines: Batch::default(),
            wall_radii: self.debug.overlays.wall_radii,
            run: None,
            heights: self.view2d.scene.relief.range,
        };
        // Meshes and triangles by their edges, shaded by height, under everything else.
        view2d::relief_paint::draw(
            &mut drawer.lines,
            rect,
            &self.view2d.cam,
            &self.view2d.scene.relief,
        );
        // Selected objects last, so they draw on top.
        let mut later = Vec::new();
        let simulated = self.debug.active();
        for (i, e) in self.view2d.scene.entries.iter().enumerate() {
            if (simulated && e.kind == Kind::Ball)
                || !in_view(e.bounds, vis_lo, vis_hi)
                || !self.view2d.scene.shows(e)
            {
                continue;
            }
            let look = if self.doc.selection().contains(&e.id) {
                later.push(i);
                continue;
            } else if self.problems.faulty.contains(&e.id) {
                Look::Faulty
            } else {
                Look::Normal
            };
            drawer.draw(&e.fp, theme::base_color(e.kind), look, e.extras);
        }
        drawer.flush();
        let sector_edges = self.greybox.edges(&self.doc);
        super::greybox::paint_sector_edges(&mut drawer, &sector_edges);
        for i in later {
            let e = &self.view2d.scene.entries[i];
            drawer.draw(&e.fp, theme::base_color(e.kind), Look::Selected, e.extras);
        }
        drawer.flush();
        let level = gpu::Layer {
            generation: gpu::next_generation(),
            fills: Arc::new(drawer.fills.into_mesh()),
            lines: Arc::new(drawer.lines.into_mesh()),
        };
        self.view2d.level_paint = Some((key, level.clone()));
        level
    }

    /// What the level's meshes depend on.
    fn level_paint_key(&self, rect: Rect) -> LevelPaintKey {
        let mut h = DefaultHasher::new();
        self.doc.selection().hash(&mut h);
        LevelPaintKey {
            doc: self.doc.key(),
            problems: self.problems.key,
            view: [
                self.view2d.cam.center.x,
                self.view2d.cam.center.y,
                self.view2d.cam.scale,
                rect.min.x,
                rect.min.y,
                rect.max.x,
                rect.max.y,
            ]
            .map(f32::to_bits),
            selection: h.finish(),
            wall_radii: self.debug.overlays.wall_radii,
            simulated: self.debug.active(),
            storey: self.greybox.storey.key(),
        }
    }

    /// The object under the pointer, over the kept level meshes (unless it is selected: that look wins).
    fn paint_hovered(&self, rect: Rect, hovered: Option<Option<ObjectId>>) -> (Batch, Batch) {
        let mut drawer = Drawer {
            rect,
            cam: &self.view2d.cam,
            fills: Batch::default(),
            lines: Batch::default(),
            wall_radii: self.debug.overlays.wall_radii,
            run: None,
            heights: self.view2d.scene.relief.range,
        };
        let (vis_lo, vis_hi) = self.view2d.cam.visible(rect);
        let simulated = self.debug.active();
        if let Some(Some(id)) = hovered
            && !self.doc.selection().contains(&id)
            && let Some(e) = self.view2d.scene.entry(id)
            && !(simulated && e.kind == Kind::Ball)
            && in_view(e.bounds, vis_lo, vis_hi)
        {
            drawer.draw(&e.fp, theme::base_color(e.kind), Look::Hovered, e.extras);
        }
        drawer.flush();
        (drawer.fills, drawer.lines)
    }

    /// The walker's start.
    fn paint_walker(&self, lines: &mut Batch, rect: Rect, hovered: Option<Option<ObjectId>>) {
        if let Some(w) = &self.doc.level().walker {
            let look = if self.doc.walker_selected() {
                Look::Selected
            } else if hovered == Some(None) {
                Look::Hovered
            } else if self.problems.walker_faulty {
                Look::Faulty
            } else {
                Look::Normal
            };
            view2d::draw_walker(
                lines,
                rect,
                &self.view2d.cam,
                w.position,
                w.facing_deg,
                w.radius,
                look,
            );
        }
        self.paint_live_walker(lines, rect);
    }

    /// The level's character (or the default) standing at the walker's start: its capsule's footprint to
    /// scale, dashed (the walker's own collision radius is the solid circle), and where to write its size
    /// once the circle is big enough to label.
    fn paint_character(&self, lines: &mut Batch, rect: Rect) -> Option<(Pos2, String)> {
        let level = self.doc.level();
        let w = level.walker.as_ref()?;
        let c = crate::editor::document::character::effective(level);
        let rs = c.radius * self.view2d.cam.scale;
        if !(rs.is_finite() && rs > 0.0) {
            return None;
        }
        let centre = self.view2d.cam.screen_from_world(rect, w.position);
        lines.dashed_circle(centre, rs.max(3.0), 1.5, theme::palette::CHARACTER);
        (rs >= 8.0).then(|| {
            let d = view2d::trim_number(c.radius * 2.0);
            let at = centre + egui::vec2(rs * 0.75 + 4.0, -rs * 0.75);
            (
                at,
                format!(
                    "character {d} m wide, {} m tall",
                    view2d::trim_number(c.height)
                ),
            )
        })
    }

    /// While walking in the 3D preview: the walker where it is now, with its facing and collision radius to
    /// scale, and the wall that blocks it.
    /// The object (or the walker, as `None` inside `Some`) under world point `p`.
    fn pick(&self, p: Vec2) -> Option<Option<ObjectId>> {
        self.view2d
            .scene
            .pick(p, self.view2d.cam.scale, self.doc.level().walker.as_ref())
    }

    fn paint_live_walker(&self, lines: &mut Batch, rect: Rect) {
        let Some(live) = self.live_walker() else {
            return;
        };
        let s = |p: Vec2| self.view2d.cam.screen_from_world(rect, p);
        if let Some(id) = live.blocked_by
            && let Some(Object::Wall(w)) = self.doc.object(id)
        {
            lines.line(s(w.a), s(w.b), 4.0, Color32::from_rgb(255, 80, 80));
        }
        let c = s(live.position);
        let r = (live.radius * self.view2d.cam.scale).max(3.0);
        lines.disc(c, r, theme::palette::WALKER.gamma_multiply(0.35));
        view2d::draw_walker(
            lines,
            rect,
            &self.view2d.cam,
            live.position,
            live.facing_deg,
            live.radius,
            Look::Hovered,
        );
    }

    /// The scene time the views show the movers at: Walk mode's shown move, else the debugger's frame,
    /// else an open recording's frame, else the level's time 0 (see `movers::shown`).
    #[must_use]
    pub fn movers_clock(&self) -> crate::editor::movers::shown::Clock<'_> {
        let walking = self.view3d.walk_clock();
        let debugger = self
            .debug
            .debugger
            .as_ref()
            .filter(|_| self.debug.active())
            .map(|d| d.world().scene());
        let recorded = self
            .recording
            .as_ref()
            .and_then(|r| r.frame())
            .filter(|f| !(f.scene_times.is_empty() && f.mover_starts.is_empty()))
            .map(|f| (f.scene_time(), f.mover_starts.as_slice()));
        crate::editor::movers::shown::clock(walking, debugger, recorded)
    }

    /// The movers' paths and places at [`EditorApp::movers_clock`]'s time, the one-way objects' marks, and
    /// the Mover tool's path in progress.
    fn paint_movers(&self, lines: &mut Batch, rect: Rect) {
        use crate::editor::movers::{marks, marks3d, paint};
        let level = self.doc.level();
        let clock = self.movers_clock();
        let cam = &self.view2d.cam;
        paint::paint(
            lines,
            rect,
            cam,
            &marks::marks(level, |m| clock.offset(level, m)),
        );
        let spots = marks3d::one_way_spots(level, &|o| clock.object_offset(level, o));
        paint::paint_one_way(lines, rect, cam, &spots);
        if let Some(pick) = self.tools.mover.filter(|_| self.tools.tool == Tool::Mover) {
            paint::paint_chain(lines, rect, cam, pick.at, &self.tools.chain);
        }
    }

    /// The probe ray and its hits.
    fn paint_probe(&self, lines: &mut Batch, rect: Rect) {
        if let Some((ray, max_t)) = self.probe.ray {
            let result = self.probe.result.as_ref().map(|(_, r)| r);
            let end = ray.at(max_t);
            let flat = (
                Vec2::new(ray.origin.x, ray.origin.z),
                Vec2::new(end.x, end.z),
            );
            crate::editor::analysis::probe::paint(
                lines,
                rect,
                &self.view2d.cam,
                flat,
                result,
                self.probe.box_id,
            );
        }
    }

    /// Crosses where the Compare tab's variants disagree.
    fn paint_compare(&self, lines: &mut Batch, rect: Rect) {
        if self.panels.tab == Tab::Compare
            && self.panels.show_problems
            && let Some((_, tris, sweeps)) = &self.probe.compare
        {
            let red = Color32::from_rgb(255, 60, 60);
            let cross = |lines: &mut Batch, p: Vec3| {
                let c = self.view2d.cam.screen_from_world(rect, Vec2::new(p.x, p.z));
                let d = egui::vec2(7.0, 7.0);
                lines.line(c - d, c + d, 2.5, red);
                lines.line(
                    c + egui::vec2(-7.0, 7.0),
                    c + egui::vec2(7.0, -7.0),
                    2.5,
                    red,
                );
            };
            for t in tris.iter().flatten().filter(|t| t.disagrees()) {
                for p in [t.moller_trumbore, t.walk_test, t.plane_point.map(|p| p.0)]
                    .into_iter()
                    .flatten()
                {
                    cross(lines, p);
                }
            }
            for sw in sweeps.iter().flat_map(|s| &s.1) {
                cross(lines, sw.center);
            }
        }
    }

    /// The active tool's marks: the rotation handle, the wall chain with its snap target, the triangle.
    fn paint_tool(&self, painter: &egui::Painter, rect: Rect, hover: Option<Pos2>, shift: bool) {
        let accent = theme::SELECTED;
        if let Some((h, _, c)) = rotation_handle(&self.doc, &self.view2d.cam, rect) {
            painter.line_segment([c, h], egui::Stroke::new(1.0, accent));
            painter.circle_filled(h, 6.0, accent);
        }
        let cursor = hover.map(|p| self.view2d.cam.world_from_screen(rect, p));
        match self.tools.tool {
            Tool::Wall | Tool::Sector => {
                let snap = cursor.map(|w| {
                    self.tools
                        .snap_vertex(&self.doc, self.view2d.cam.scale, w, shift)
                });
                let mut pts: Vec<Pos2> = self
                    .tools
                    .chain
                    .iter()
                    .map(|p| self.view2d.cam.screen_from_world(rect, *p))
                    .collect();
                if let Some((v, _)) = snap
                    && !self.tools.chain.is_empty()
                {
                    pts.push(self.view2d.cam.screen_from_world(rect, v));
                }
                let mut b = Batch::default();
                b.polyline(&pts, false, 2.0, accent);
                for p in &pts {
                    b.disc(*p, 3.5, accent);
                }
                if let Some((v, welded)) = snap {
                    let s = self.view2d.cam.screen_from_world(rect, v);
                    if welded {
                        b.circle(s, 8.0, 2.0, Color32::from_rgb(80, 220, 120));
                    } else {
                        b.circle(s, 4.0, 1.5, accent);
                    }
                }
                painter.add(b.finish());
            }
            Tool::Triangle => {
                let mut pts: Vec<Pos2> = self
                    .tools
                    .chain
                    .iter()
                    .map(|p| self.view2d.cam.screen_from_world(rect, *p))
                    .collect();
                if let Some(c) = cursor {
                    pts.push(
                        self.view2d
                            .cam
                            .screen_from_world(rect, self.tools.snapped(c, shift)),
                    );
                }
                let mut b = Batch::default();
                b.polyline(&pts, pts.len() == 3, 2.0, accent);
                painter.add(b.finish());
            }
            Tool::Trigger => self.paint_trigger_tool(painter, rect, cursor, shift),
            Tool::Entity => {
                if let Some(c) = cursor {
                    let level = self.doc.level();
                    let color = self
                        .tools
                        .entity_type
                        .as_deref()
                        .or(level.entity_types.first().map(|t| t.name.as_str()))
                        .map_or(theme::palette::ENTITY, |t| theme::entity_color(level, t));
                    let s = self
                        .view2d
                        .cam
                        .screen_from_world(rect, self.tools.snapped(c, shift));
                    let r = (crate::editor::view2d::footprint::ENTITY_MARKER_RADIUS
                        * self.view2d.cam.scale)
                        .max(4.0);
                    let mut b = Batch::default();
                    b.circle(s, r, 1.5, color.gamma_multiply(0.7));
                    painter.add(b.finish());
                }
            }
            _ => {}
        }
        if let Some(req) = &self.inspector.pick {
            painter.text(
                rect.center_top() + egui::vec2(0.0, 14.0),
                egui::Align2::CENTER_CENTER,
                req.prompt(),
                egui::FontId::proportional(14.0),
                accent,
            );
        }
    }

    /// The Trigger tool's shape so far, up to the pointer: a box's rectangle, a sphere's circle, a prism's
    /// outline (its first corner ringed once a click there closes it).
    fn paint_trigger_tool(
        &self,
        painter: &egui::Painter,
        rect: Rect,
        cursor: Option<Vec2>,
        shift: bool,
    ) {
        use crate::editor::tools::TriggerKind;
        let accent = theme::palette::TRIGGER;
        let s = |p: Vec2| self.view2d.cam.screen_from_world(rect, p);
        let Some(first) = self.tools.chain.first().copied() else {
            return;
        };
        let cur = cursor.map(|c| self.tools.snapped(c, shift));
        let mut b = Batch::default();
        match self.tools.trigger_kind {
            TriggerKind::Box => {
                if let Some(c) = cur {
                    let pts = [first, Vec2::new(c.x, first.y), c, Vec2::new(first.x, c.y)];
                    b.dashed(&pts.map(s), true, 2.0, accent);
                }
            }
            TriggerKind::Sphere => {
                if let Some(c) = cur {
                    let r = first.distance(c) * self.view2d.cam.scale;
                    b.circle(s(first), r, 2.0, accent);
                    b.line(s(first), s(c), 1.0, accent);
                }
            }
            TriggerKind::Prism => {
                let mut pts: Vec<Pos2> = self.tools.chain.iter().map(|p| s(*p)).collect();
                pts.extend(cur.map(s));
                b.dashed(&pts, false, 2.0, accent);
                if self.tools.drawing_prism() && self.tools.chain.len() >= 3 {
                    b.circle(s(first), 8.0, 1.5, accent);
                }
            }
        }
        for p in &self.tools.chain {
            b.disc(s(*p), 3.5, accent);
        }
        painter.add(b.finish());
    }

    /// The outline of the object being placed, and the selection rectangle.
    fn paint_gesture(&self, painter: &egui::Painter, rect: Rect, hover: Option<Pos2>, shift: bool) {
        let accent = theme::SELECTED;
        let cursor = hover.map(|p| self.view2d.cam.world_from_screen(rect, p));
        if let (Some(Gesture::Place { start }), Some(c), Tool::Build) =
            (&self.tools.gesture, cursor, self.tools.tool)
        {
            let scale = self.view2d.cam.scale;
            let end = self.tools.build_end(&self.doc, scale, c, shift);
            let storey = self.greybox.storey.range();
            let plan = self
                .greybox
                .build
                .plan_drag(self.doc.level(), *start, end, storey);
            super::greybox::paint_build_preview(painter, &self.view2d.cam, rect, &plan, end);
        } else if self.tools.tool == Tool::Build && self.tools.gesture.is_none() {
            // What Enter would build on the selection.
            super::greybox::paint_selected_preview(
                painter,
                &self.view2d.cam,
                rect,
                &self.doc,
                &self.greybox,
            );
        } else if let (Some(Gesture::Place { start }), Some(c)) = (&self.tools.gesture, cursor)
            && self.tools.tool != Tool::Probe
        {
            let a = self.view2d.cam.screen_from_world(rect, *start);
            let e = self
                .view2d
                .cam
                .screen_from_world(rect, self.tools.snapped(c, shift));
            let stroke = egui::Stroke::new(1.5, accent);
            match self.tools.tool {
                Tool::Box => {
                    painter.rect_stroke(
                        Rect::from_two_pos(a, e),
                        0.0,
                        stroke,
                        egui::StrokeKind::Inside,
                    );
                }
                Tool::Cylinder => {
                    painter.circle_stroke(a, a.distance(e), stroke);
                }
                _ => {
                    painter.arrow(a, e - a, stroke);
                }
            }
        }
        if let (Some(Gesture::BoxSelect { start }), Some(h)) = (&self.tools.gesture, hover) {
            view2d::selection_rect(painter, *start, h);
        }
    }
}
