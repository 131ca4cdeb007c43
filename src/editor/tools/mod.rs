//! The tools of the palette and what the pointer does in the top-down view with each.

mod game;
mod place;
mod probe;
mod reach;
mod select;
mod wall;

pub use game::{TriggerKind, entity_at, trigger_from};
pub(crate) use wall::Crossing;

use egui::{Key, Pos2, Rect, Sense, Ui};
use glam::Vec2;

use crate::editor::app::*;
use crate::editor::document::{Object, Preview};
use crate::editor::view2d::Camera;

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
    /// Click to place an entity of the palette's type, drag to face it.
    Entity,
    /// Click a box, sphere or prism trigger volume.
    Trigger,
    /// Click a spot: the character's path to it, or what keeps it out.
    Reach,
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
        Tool::Entity,
        Tool::Trigger,
        Tool::Reach,
    ];

    /// The palette's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.spec().name
    }
}

/// The pointer this frame, as every tool reads it.
#[derive(Clone, Copy)]
pub(crate) struct Pointer {
    /// The view's rectangle.
    pub rect: Rect,
    /// The top-down camera.
    pub cam: Camera,
    /// Where the pointer is while it interacts with the view.
    pub press: Option<Pos2>,
    /// Shift held (suspends snapping; adds to the selection).
    pub shift: bool,
    /// Ctrl / Cmd held (removes from the selection).
    pub ctrl: bool,
}

impl Pointer {
    /// The world point under screen point `p`.
    pub fn world(&self, p: Pos2) -> Vec2 {
        self.cam.world_from_screen(self.rect, p)
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
        if self.cursor_world.is_some() {
            self.last_cursor_world = self.cursor_world;
        }

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
        let pt = Pointer {
            rect,
            cam: self.cam,
            press: resp.interact_pointer_pos(),
            shift,
            ctrl: ui.input(|i| i.modifiers.command),
        };
        if self.inspector.pick.is_some() {
            self.pick_for_inspector(resp, pt);
            return;
        }
        if resp.clicked_by(egui::PointerButton::Secondary) && self.tool == Tool::Wall {
            self.finish_chain();
            return;
        }
        match self.tool {
            Tool::Select => {
                self.select_drag_start(ui, resp, pt);
                self.select_drag(ui, resp, pt);
                self.select_drag_end(ui, resp, pt);
                self.select_click(ui, resp, pt);
            }
            Tool::Wall => self.wall_pointer(ui, resp, pt),
            Tool::Triangle => self.triangle_pointer(ui, resp, pt),
            Tool::Probe => self.probe_pointer(ui, resp, pt),
            Tool::Trigger => self.trigger_pointer(ui, resp, pt),
            Tool::Reach => self.reach_pointer(resp, pt),
            Tool::Entity | Tool::Ball | Tool::Plane | Tool::Cylinder | Tool::Box | Tool::Walker => {
                self.place_pointer(ui, resp, pt);
            }
        }
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
        let at = self.snapped(w, pt.shift);
        let hit = self.pick(w).flatten();
        let result = req
            .value_at(at.x, at.y, hit)
            .and_then(|v| req.edit(self.doc.level(), v));
        match result {
            Ok(edit) => {
                self.status = format!("{} (picked)", edit.label);
                self.inspector.pick = None;
                self.run_command(
                    &resp.ctx,
                    crate::editor::app::Command::Apply(Box::new(edit)),
                );
            }
            Err(why) => self.status = format!("not picked: {why}"),
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
        if self.doc.selection().len() != 1 {
            return None;
        }
        let id = *self.doc.selection().first()?;
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
