//! The placing tools (Ball, Plane, Cylinder, Box, Walker): a click or a drag makes the object.

use egui::{Pos2, Ui};
use glam::{Vec2, Vec3};

use super::{Gesture, Pointer, Tool};
use crate::editor::app::EditorApp;
use crate::editor::document::{Edit, Header, Object};
use crate::level::{AabbObject, BallObject, CylinderObject, ObbObject, ObjectId, PlaneObject};

impl EditorApp {
    /// Create the placing tool's object from a click at `start` or a drag from `start` to `end`.
    pub(crate) fn place(&mut self, start: Vec2, end: Option<Vec2>) {
        let drag = end.filter(|e| e.distance(start) > 1e-4);
        let h = self.doc.level().default_wall_height;
        match self.tool {
            Tool::Ball => {
                let v = drag.map_or(Vec2::ZERO, |e| e - start);
                let radius = 0.5;
                self.add_object(
                    "Add ball",
                    Object::Ball(BallObject {
                        id: ObjectId(0),
                        name: None,
                        center: Vec3::new(start.x, radius, start.y),
                        velocity: Vec3::new(v.x, 0.0, v.y),
                        radius,
                        mass: 1.0,
                        restitution: 0.9,
                    }),
                );
            }
            Tool::Plane => {
                let (normal, d) = match drag {
                    Some(e) => {
                        let dir = (e - start).normalize();
                        let n = Vec3::new(-dir.y, 0.0, dir.x);
                        (n, n.x * start.x + n.z * start.y)
                    }
                    None => (Vec3::Y, 0.0),
                };
                self.add_object(
                    "Add plane",
                    Object::Plane(PlaneObject {
                        id: ObjectId(0),
                        name: None,
                        normal,
                        d,
                    }),
                );
            }
            Tool::Cylinder => {
                let r = drag.map_or(0.5, |e| e.distance(start));
                self.add_object(
                    "Add cylinder",
                    Object::Cylinder(CylinderObject {
                        id: ObjectId(0),
                        name: None,
                        a: Vec3::new(start.x, 0.0, start.y),
                        b: Vec3::new(start.x, h, start.y),
                        radius: r,
                    }),
                );
            }
            Tool::Box => {
                let e = drag.unwrap_or(start + Vec2::ONE);
                let (lo, hi) = (start.min(e), start.max(e));
                let (lo, hi) = (
                    Vec2::new(lo.x, lo.y),
                    Vec2::new(hi.x.max(lo.x + 0.01), hi.y.max(lo.y + 0.01)),
                );
                let o = if self.box_obb {
                    let c = (lo + hi) * 0.5;
                    let half = (hi - lo) * 0.5;
                    Object::Obb(ObbObject {
                        id: ObjectId(0),
                        name: None,
                        center: Vec3::new(c.x, 0.5, c.y),
                        half_extents: Vec3::new(half.x, 0.5, half.y),
                        rotation_deg: Vec3::ZERO,
                    })
                } else {
                    Object::Aabb(AabbObject {
                        id: ObjectId(0),
                        name: None,
                        min: Vec3::new(lo.x, 0.0, lo.y),
                        max: Vec3::new(hi.x, 1.0, hi.y),
                    })
                };
                self.add_object("Add box", o);
            }
            Tool::Walker => {
                let mut h = Header::of(self.doc.level());
                let mut w = h.walker.clone().unwrap_or_default();
                w.position = start;
                if let Some(e) = drag {
                    let d = e - start;
                    // Facing 0 looks down -z, 90 down -x.
                    w.facing_deg = (-d.x).atan2(-d.y).to_degrees();
                }
                h.walker = Some(w);
                self.doc.apply(
                    "Place walker",
                    Edit {
                        header: Some(h),
                        ..Edit::default()
                    },
                );
                self.doc.select_walker_only();
                self.status = "placed the walker".into();
            }
            Tool::Select | Tool::Wall | Tool::Triangle | Tool::Probe => {}
        }
    }

    /// Placing tools: a click places the object, a drag sizes or aims it.
    pub(crate) fn place_pointer(&mut self, ui: &Ui, resp: &egui::Response, pt: Pointer) {
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
            self.place(start, Some(end));
        } else if resp.clicked()
            && let Some(p) = press
        {
            let at = self.snapped(world(p), shift);
            self.place(at, None);
        }
    }
}
