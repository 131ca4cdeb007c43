//! The placing tools (Ball, Plane, Cylinder, Box, Walker): a click or a drag makes the object.

use egui::{Pos2, Ui};
use glam::{Vec2, Vec3};

use super::{Gesture, Pointer, Tool, ToolCtx, Tools};
use crate::editor::document::{Edit, Header, LabelledEdit, Object};
use crate::level::{AabbObject, BallObject, CylinderObject, ObbObject, ObjectId, PlaneObject};

impl Tools {
    /// Create the placing tool's object from a click at `start` or a drag from `start` to `end`.
    pub(crate) fn place(&mut self, cx: &mut ToolCtx<'_>, start: Vec2, end: Option<Vec2>) {
        let drag = end.filter(|e| e.distance(start) > 1e-4);
        let h = cx.doc.level().default_wall_height;
        match self.tool {
            Tool::Ball => cx.add_object("Add ball", ball_at(start, drag)),
            Tool::Plane => cx.add_object("Add plane", plane_at(start, drag)),
            Tool::Cylinder => cx.add_object("Add cylinder", cylinder_at(start, drag, h)),
            Tool::Box => cx.add_object("Add box", box_at(start, drag, self.box_obb)),
            Tool::Walker => place_walker(cx, start, drag),
            Tool::Entity => self.place_entity(cx, start, drag),
            Tool::Select
            | Tool::Wall
            | Tool::Triangle
            | Tool::Probe
            | Tool::Trigger
            | Tool::Reach
            | Tool::Sector
            | Tool::Build
            | Tool::Mover => {}
        }
    }

    /// Placing tools: a click places the object, a drag sizes or aims it.
    pub(crate) fn place_pointer(
        &mut self,
        cx: &mut ToolCtx<'_>,
        ui: &Ui,
        resp: &egui::Response,
        pt: Pointer,
    ) {
        let Pointer { press, shift, .. } = pt;
        let world = |p: Pos2| pt.world(p);
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
            self.place(cx, start, Some(end));
        } else if resp.clicked()
            && let Some(p) = press
        {
            let at = self.snapped(world(p), shift);
            self.place(cx, at, None);
        }
    }
}

/// Put the walker's start at `start`, facing along the drag.
fn place_walker(cx: &mut ToolCtx<'_>, start: Vec2, drag: Option<Vec2>) {
    let mut h = Header::of(cx.doc.level());
    let mut w = h.walker.clone().unwrap_or_default();
    w.position = start;
    if let Some(e) = drag {
        let d = e - start;
        // Facing 0 looks down -z, 90 down -x.
        w.facing_deg = (-d.x).atan2(-d.y).to_degrees();
    }
    h.walker = Some(w);
    cx.apply_edit(LabelledEdit::new(
        "Place walker",
        Edit {
            header: Some(h),
            ..Edit::default()
        },
        None,
    ));
    cx.doc.select_walker_only();
    *cx.status = "placed the walker".into();
}

/// A ball resting on the floor at `start`; a drag sets its velocity (one second of motion).
fn ball_at(start: Vec2, drag: Option<Vec2>) -> Object {
    let v = drag.map_or(Vec2::ZERO, |e| e - start);
    let radius = 0.5;
    Object::Ball(BallObject {
        id: ObjectId(0),
        name: None,
        center: Vec3::new(start.x, radius, start.y),
        velocity: Vec3::new(v.x, 0.0, v.y),
        radius,
        mass: 1.0,
        restitution: 0.9,
        properties: Default::default(),
    })
}

/// A click: the floor plane; a drag: the vertical plane through the dragged line.
fn plane_at(start: Vec2, drag: Option<Vec2>) -> Object {
    let (normal, d) = match drag {
        Some(e) => {
            let dir = (e - start).normalize();
            let n = Vec3::new(-dir.y, 0.0, dir.x);
            (n, n.x * start.x + n.z * start.y)
        }
        None => (Vec3::Y, 0.0),
    };
    Object::Plane(PlaneObject {
        id: ObjectId(0),
        name: None,
        normal,
        d,
        properties: Default::default(),
    })
}

/// An upright cylinder `height` tall centred at `start`; the drag sets its radius.
fn cylinder_at(start: Vec2, drag: Option<Vec2>, height: f32) -> Object {
    Object::Cylinder(CylinderObject {
        id: ObjectId(0),
        name: None,
        a: Vec3::new(start.x, 0.0, start.y),
        b: Vec3::new(start.x, height, start.y),
        radius: drag.map_or(0.5, |e| e.distance(start)),
        properties: Default::default(),
    })
}

/// A 1 m tall box over the dragged rectangle (1 m square for a click), axis-aligned or oriented.
fn box_at(start: Vec2, drag: Option<Vec2>, obb: bool) -> Object {
    let e = drag.unwrap_or(start + Vec2::ONE);
    let lo = start.min(e);
    let hi = start.max(e).max(lo + Vec2::splat(0.01));
    if obb {
        let c = (lo + hi) * 0.5;
        let half = (hi - lo) * 0.5;
        Object::Obb(ObbObject {
            id: ObjectId(0),
            name: None,
            center: Vec3::new(c.x, 0.5, c.y),
            half_extents: Vec3::new(half.x, 0.5, half.y),
            rotation_deg: Vec3::ZERO,
            properties: Default::default(),
            one_way: false,
        })
    } else {
        Object::Aabb(AabbObject {
            id: ObjectId(0),
            name: None,
            min: Vec3::new(lo.x, 0.0, lo.y),
            max: Vec3::new(hi.x, 1.0, hi.y),
            properties: Default::default(),
            one_way: false,
        })
    }
}
