//! The tools of the palette and what the pointer does in the top-down view with each.

mod place;
mod select;
mod wall;

pub(crate) use wall::Crossing;

use egui::{Key, Pos2, Rect, Sense, Ui};
use glam::{Vec2, Vec3};

use crate::editor::app::*;
use crate::editor::debugger::panel::Tab;
use crate::editor::document::{Object, Preview, count_noun};
use crate::editor::view2d::Camera;
use crate::level::{ObjectId, TriangleObject};

/// The tools of the palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Pick, box-select, move, rotate.
    Select,
    /// Click-click wall chains.
    Wall,
    /// Click to place, drag to set the velocity.
    Ball,
    /// Three clicks.
    Triangle,
    /// Click: the floor plane; drag: a vertical plane through the line.
    Plane,
    /// Click the centre, drag the radius.
    Cylinder,
    /// Drag a rectangle.
    Box,
    /// Click to place the walker's start, drag to face.
    Walker,
    /// Drag a ray: every hit, and the slab intervals of each box.
    Probe,
}

impl Tool {
    /// Every tool, in the palette's order.
    pub const ALL: &[Tool] = &[
        Tool::Select,
        Tool::Wall,
        Tool::Ball,
        Tool::Triangle,
        Tool::Plane,
        Tool::Cylinder,
        Tool::Box,
        Tool::Walker,
        Tool::Probe,
    ];

    /// The palette's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.spec().name
    }
}

/// A pointer gesture in progress in the view.
pub(crate) enum Gesture {
    Move { preview: Preview, grab: Vec2 },
    BoxSelect { start: Pos2 },
    Rotate { preview: Preview, center: Vec2 },
    Place { start: Vec2 },
    Pan,
}

impl EditorApp {
    pub(crate) fn view(&mut self, ui: &mut Ui) {
        let (rect, resp) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        self.view_rect = rect;
        if !self.framed && rect.width() > 10.0 {
            let b = self.level_bounds();
            if b.is_some() {
                self.cam.frame(rect, b);
            } else {
                self.cam = Camera::default();
            }
            self.framed = true;
        }
        if self.frame_selection {
            self.frame_selection = false;
            let b = self.selection_bounds();
            self.cam.frame(rect, b);
        }
        let (shift, space, hover) = ui.input(|i| {
            (
                i.modifiers.shift,
                i.key_down(Key::Space),
                i.pointer.hover_pos(),
            )
        });
        let hover = hover.filter(|p| rect.contains(*p));
        self.cursor_world = hover.map(|p| self.cam.world_from_screen(rect, p));

        // Zoom about the pointer; pan with the middle or right button, or Space + drag.
        if let Some(p) = hover {
            let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
            let factor = zoom * (scroll * 0.002).exp();
            if factor != 1.0 {
                self.cam.zoom_about(rect, p, factor);
            }
        }
        let panning = resp.dragged_by(egui::PointerButton::Middle)
            || resp.dragged_by(egui::PointerButton::Secondary)
            || (space && resp.dragged_by(egui::PointerButton::Primary));
        if panning {
            self.space_panned |= space;
            self.cam.pan_by(resp.drag_delta());
            if resp.drag_started() && self.gesture.is_none() {
                self.gesture = Some(Gesture::Pan);
            }
        } else {
            self.pointer(ui, &resp, rect, shift);
        }
        if resp.drag_stopped() && matches!(self.gesture, Some(Gesture::Pan)) {
            self.gesture = None;
        }
        self.paint(ui, rect, hover, shift);
    }

    pub(crate) fn pointer(&mut self, ui: &Ui, resp: &egui::Response, rect: Rect, shift: bool) {
        let ctrl = ui.input(|i| i.modifiers.command);
        let press = resp.interact_pointer_pos();
        let cam = self.cam;
        let world = move |p: Pos2| cam.world_from_screen(rect, p);
        if resp.clicked_by(egui::PointerButton::Secondary) && self.tool == Tool::Wall {
            self.finish_chain();
            return;
        }
        match self.tool {
            Tool::Select => {
                if resp.drag_started_by(egui::PointerButton::Primary)
                    && let Some(p) = ui.input(|i| i.pointer.press_origin()).or(press)
                {
                    let w = world(p);
                    if let Some(center) = self.rotation_handle_hit(rect, p) {
                        self.gesture = Some(Gesture::Rotate {
                            preview: self.doc.begin_preview(),
                            center,
                        });
                    } else {
                        match self.pick(w) {
                            Some(hit) if !shift && !ctrl => {
                                let selected = match hit {
                                    Some(id) => self.doc.selection.contains(&id),
                                    None => self.doc.walker_selected,
                                };
                                if !selected {
                                    self.doc.selection = hit.into_iter().collect();
                                    self.doc.walker_selected = hit.is_none();
                                }
                                self.gesture = Some(Gesture::Move {
                                    preview: self.doc.begin_preview(),
                                    grab: w,
                                });
                            }
                            _ => self.gesture = Some(Gesture::BoxSelect { start: p }),
                        }
                    }
                }
                if let Some(now) = resp.interact_pointer_pos() {
                    let w = world(now);
                    match &self.gesture {
                        Some(Gesture::Move { preview, grab }) => {
                            let d = self.snapped(w - *grab, shift);
                            let objects = preview
                                .originals
                                .iter()
                                .cloned()
                                .map(|mut o| {
                                    o.translate(d);
                                    o
                                })
                                .collect();
                            let header = self.doc.walker_selected.then(|| {
                                let mut h = preview.header.clone();
                                if let Some(wk) = &mut h.walker {
                                    wk.position += d;
                                }
                                h
                            });
                            self.doc.preview(objects, header);
                        }
                        Some(Gesture::Rotate { preview, center }) => {
                            let v = w - *center;
                            let mut yaw = (-v.y).atan2(v.x).to_degrees();
                            if !shift {
                                yaw = (yaw / 15.0).round() * 15.0;
                            }
                            let objects = preview
                                .originals
                                .iter()
                                .cloned()
                                .map(|mut o| {
                                    if let Object::Obb(b) = &mut o {
                                        b.rotation_deg.x = yaw;
                                    }
                                    o
                                })
                                .collect();
                            self.doc.preview(objects, None);
                        }
                        _ => {}
                    }
                }
                if resp.drag_stopped() {
                    match self.gesture.take() {
                        Some(Gesture::Move { preview, .. }) => {
                            let n = preview.originals.len() + usize::from(self.doc.walker_selected);
                            let label = format!("Move {}", count_noun(n, "object"));
                            if self.doc.commit_preview(preview, label.clone()) {
                                self.status = label.to_lowercase();
                            }
                        }
                        Some(Gesture::Rotate { preview, .. }) => {
                            self.doc.commit_preview(preview, "Rotate box");
                        }
                        Some(Gesture::BoxSelect { start }) => {
                            if let Some(end) = resp
                                .interact_pointer_pos()
                                .or(ui.input(|i| i.pointer.latest_pos()))
                            {
                                self.box_select(world(start), world(end), shift, ctrl);
                            }
                        }
                        other => self.gesture = other,
                    }
                }
                if resp.clicked() {
                    let hit = press.map(world).and_then(|w| self.pick(w));
                    let walker = hit == Some(None);
                    match (hit.flatten(), shift, ctrl) {
                        (Some(id), true, _) => toggle(&mut self.doc.selection, id),
                        (Some(id), false, true) => {
                            self.doc.selection.remove(&id);
                        }
                        (Some(id), false, false) => {
                            self.doc.selection = [id].into();
                            self.doc.walker_selected = false;
                        }
                        (None, _, _) if walker => {
                            if !shift {
                                self.doc.selection.clear();
                            }
                            self.doc.walker_selected = !ctrl;
                        }
                        (None, false, false) => {
                            self.doc.selection.clear();
                            self.doc.walker_selected = false;
                        }
                        _ => {}
                    }
                }
            }
            Tool::Wall => {
                if resp.double_clicked() {
                    self.finish_chain();
                } else if resp.clicked()
                    && let Some(p) = press
                {
                    let (v, _) = self.snap_vertex(world(p), shift);
                    if self.chain.last() != Some(&v) {
                        self.chain.push(v);
                    }
                }
            }
            Tool::Triangle => {
                if resp.clicked()
                    && let Some(p) = press
                {
                    let v = self.snapped(world(p), shift);
                    if self.chain.last() != Some(&v) {
                        self.chain.push(v);
                    }
                    if self.chain.len() == 3 {
                        let pts = std::mem::take(&mut self.chain);
                        let at = |v: Vec2| Vec3::new(v.x, 0.0, v.y);
                        self.add_object(
                            "Add triangle",
                            Object::Triangle(TriangleObject {
                                id: ObjectId(0),
                                name: None,
                                a: at(pts[0]),
                                b: at(pts[1]),
                                c: at(pts[2]),
                            }),
                        );
                    }
                }
            }
            Tool::Probe => {
                if resp.drag_started_by(egui::PointerButton::Primary)
                    && let Some(p) = ui.input(|i| i.pointer.press_origin()).or(press)
                {
                    self.gesture = Some(Gesture::Place {
                        start: self.snapped(world(p), shift),
                    });
                }
                if let (Some(Gesture::Place { start }), Some(now)) =
                    (&self.gesture, resp.interact_pointer_pos())
                {
                    let end = self.snapped(world(now), shift);
                    if end != *start {
                        self.probe = crate::editor::analysis::probe::probe_ray(
                            *start,
                            end,
                            self.probe_height,
                        );
                        self.probe_flat = true;
                    }
                }
                if resp.drag_stopped() {
                    self.gesture = None;
                    // Show the results once the ray is down (not mid-drag: the panels must not move).
                    self.tab = Tab::Probe;
                    self.show_problems = true;
                }
            }
            Tool::Ball | Tool::Plane | Tool::Cylinder | Tool::Box | Tool::Walker => {
                if resp.drag_started_by(egui::PointerButton::Primary)
                    && let Some(p) = ui.input(|i| i.pointer.press_origin()).or(press)
                {
                    self.gesture = Some(Gesture::Place {
                        start: self.snapped(world(p), shift),
                    });
                }
                if resp.drag_stopped()
                    && let Some(Gesture::Place { start }) = self.gesture.take()
                {
                    let end = resp
                        .interact_pointer_pos()
                        .or(ui.input(|i| i.pointer.latest_pos()))
                        .map_or(start, |p| self.snapped(world(p), shift));
                    self.place(start, Some(end));
                } else if resp.clicked()
                    && let Some(p) = press
                {
                    let at = self.snapped(world(p), shift);
                    self.place(at, None);
                }
            }
        }
    }

    pub(crate) fn snapped(&self, p: Vec2, suspend: bool) -> Vec2 {
        if self.snap && !suspend && self.snap_step > 0.0 {
            (p / self.snap_step).round() * self.snap_step
        } else {
            p
        }
    }

    /// Snap a wall vertex: weld to a nearby wall endpoint (or chain vertex) first, then the grid.
    pub(crate) fn snap_vertex(&self, p: Vec2, suspend_grid: bool) -> (Vec2, bool) {
        let tol = WELD_PX / self.cam.scale;
        let mut best: Option<(f32, Vec2)> = None;
        let endpoints = self
            .doc
            .level()
            .walls
            .iter()
            .flat_map(|w| [w.a, w.b])
            .chain(self.chain.iter().copied());
        for e in endpoints {
            let d = e.distance(p);
            if d <= tol && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, e));
            }
        }
        match best {
            Some((_, e)) => (e, true),
            None => (self.snapped(p, suspend_grid), false),
        }
    }

    /// The rotation handle of a single selected OBB: its screen position and the box's centre.
    pub(crate) fn rotation_handle(&self, rect: Rect) -> Option<(Pos2, Vec2, Pos2)> {
        if self.doc.selection.len() != 1 {
            return None;
        }
        let id = *self.doc.selection.first()?;
        let Some(Object::Obb(b)) = self.doc.object(id) else {
            return None;
        };
        let c = Vec2::new(b.center.x, b.center.z);
        let yaw = b.rotation_deg.x.to_radians();
        let reach = Vec2::new(b.half_extents.x, b.half_extents.z).length() + 24.0 / self.cam.scale;
        // Yaw turns +x toward -z seen from above (right-handed about +y).
        let tip = c + Vec2::new(yaw.cos(), -yaw.sin()) * reach;
        Some((
            self.cam.screen_from_world(rect, tip),
            c,
            self.cam.screen_from_world(rect, c),
        ))
    }

    pub(crate) fn rotation_handle_hit(&self, rect: Rect, p: Pos2) -> Option<Vec2> {
        let (h, c, _) = self.rotation_handle(rect)?;
        (h.distance(p) <= 8.0).then_some(c)
    }
}

/// Add `id` to the set, or remove it when it is there (Shift+click).
pub(crate) fn toggle(set: &mut std::collections::BTreeSet<ObjectId>, id: ObjectId) {
    if !set.remove(&id) {
        set.insert(id);
    }
}
