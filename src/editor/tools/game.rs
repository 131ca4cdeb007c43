//! The game-data tools: Entity (click to place an entity of the palette's type, drag to face it) and
//! Trigger (a box from two corners, a sphere from its centre and a point on it, a prism from its outline's
//! corners: click the first corner again, press Enter or double-click to close it).

use egui::{Pos2, Ui};
use glam::{Vec2, Vec3};

use super::{Pointer, Tool, ToolCtx, Tools};
use crate::editor::document::Object;
use crate::level::{EntityObject, ObjectId, TriggerObject, TriggerShape};
use crate::shape::{Aabb, Sphere};

/// The Trigger tool's shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TriggerKind {
    /// Two clicks: opposite corners; as tall as the default wall height.
    #[default]
    Box,
    /// Two clicks: the centre, then a point on the sphere; it rests on the floor.
    Sphere,
    /// Clicks around the outline; closes on the first corner, Enter or a double-click.
    Prism,
}

impl TriggerKind {
    /// Every shape, in the palette's order.
    pub const ALL: [TriggerKind; 3] = [TriggerKind::Box, TriggerKind::Sphere, TriggerKind::Prism];

    /// The palette's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            TriggerKind::Box => "Box",
            TriggerKind::Sphere => "Sphere",
            TriggerKind::Prism => "Prism",
        }
    }
}

/// Screen distance within which a click on the first corner closes a prism.
const CLOSE_PX: f32 = 8.0;

/// An entity of type `entity_type` at floor point `at`, facing along the drag (if any).
#[must_use]
pub fn entity_at(entity_type: &str, at: Vec2, drag: Option<Vec2>) -> Object {
    let yaw_deg = drag
        .map(|e| e - at)
        .filter(|d| d.length_squared() > 0.0)
        // Facing 0 looks down -z, 90 down -x (as the walker).
        .map_or(0.0, |d| (-d.x).atan2(-d.y).to_degrees());
    Object::Entity(EntityObject {
        id: ObjectId(0),
        name: None,
        entity_type: entity_type.to_owned(),
        position: Vec3::new(at.x, 0.0, at.y),
        yaw_deg,
        fields: Default::default(),
        properties: Default::default(),
    })
}

/// The trigger that clicked `points` make for `kind` (box and sphere from two points, prism from three or
/// more), `height` tall; `None` when the points make no volume (a zero-size box, a degenerate outline).
#[must_use]
pub fn trigger_from(kind: TriggerKind, points: &[Vec2], height: f32) -> Option<Object> {
    let shape = match (kind, points) {
        (TriggerKind::Box, [a, b, ..]) => {
            let (lo, hi) = (a.min(*b), a.max(*b));
            if (hi - lo).min_element() <= 0.0 {
                return None;
            }
            TriggerShape::Aabb(Aabb {
                min: Vec3::new(lo.x, 0.0, lo.y),
                max: Vec3::new(hi.x, height, hi.y),
            })
        }
        (TriggerKind::Sphere, [c, e, ..]) => {
            let r = c.distance(*e);
            if !(r > 0.0) {
                return None;
            }
            TriggerShape::Sphere(Sphere {
                center: Vec3::new(c.x, r, c.y),
                radius: r,
            })
        }
        (TriggerKind::Prism, pts) if pts.len() >= 3 => {
            crate::trigger::triangulate(pts)?;
            TriggerShape::Prism {
                points: pts.to_vec(),
                bottom: 0.0,
                top: height,
            }
        }
        _ => return None,
    };
    Some(Object::Trigger(TriggerObject {
        id: ObjectId(0),
        name: None,
        shape,
        properties: Default::default(),
    }))
}

impl Tools {
    /// Place an entity of the palette's type at `start`, facing along the drag; without a type, say how
    /// to make one.
    pub(crate) fn place_entity(&mut self, cx: &mut ToolCtx<'_>, start: Vec2, drag: Option<Vec2>) {
        let level = cx.doc.level();
        let ty = self
            .entity_type
            .clone()
            .filter(|t| level.entity_type(t).is_some())
            .or_else(|| level.entity_types.first().map(|t| t.name.clone()));
        match ty {
            Some(t) => {
                self.entity_type = Some(t.clone());
                cx.add_object(&format!("Add \"{t}\" entity"), entity_at(&t, start, drag));
            }
            None => {
                *cx.status =
                    "no entity types yet: add one in the Entity types tab, then place entities"
                        .into();
                cx.out.show_tab = Some((crate::editor::debugger::panel::Tab::EntityTypes, false));
            }
        }
    }

    /// The Trigger tool: clicks collect the shape's points; the shape is made when it has enough.
    pub(crate) fn trigger_pointer(
        &mut self,
        cx: &mut ToolCtx<'_>,
        ui: &Ui,
        resp: &egui::Response,
        pt: Pointer,
    ) {
        let Pointer { press, shift, .. } = pt;
        let world = |p: Pos2| pt.world(p);
        if resp.double_clicked() && self.trigger_kind == TriggerKind::Prism {
            self.finish_trigger(cx);
            return;
        }
        // A drag is its two ends as two clicks (box corners, sphere centre and rim).
        if resp.drag_stopped_by(egui::PointerButton::Primary)
            && self.trigger_kind != TriggerKind::Prism
            && let (Some(a), Some(b)) = (
                ui.input(|i| i.pointer.press_origin()),
                resp.interact_pointer_pos()
                    .or(ui.input(|i| i.pointer.latest_pos())),
            )
        {
            self.chain = vec![self.snapped(world(a), shift), self.snapped(world(b), shift)];
            self.finish_trigger(cx);
            return;
        }
        if !resp.clicked() {
            return;
        }
        let Some(p) = press else { return };
        let v = self.snapped(world(p), shift);
        if self.trigger_kind == TriggerKind::Prism
            && self.chain.len() >= 3
            && pt.cam.screen_from_world(pt.rect, self.chain[0]).distance(p) <= CLOSE_PX
        {
            self.finish_trigger(cx);
            return;
        }
        if self.chain.last() != Some(&v) {
            self.chain.push(v);
        }
        if self.trigger_kind != TriggerKind::Prism && self.chain.len() >= 2 {
            self.finish_trigger(cx);
        }
    }

    /// Make the trigger from the clicked points (Enter for a prism), or say why not.
    pub(crate) fn finish_trigger(&mut self, cx: &mut ToolCtx<'_>) {
        let pts = std::mem::take(&mut self.chain);
        let h = cx.doc.level().default_wall_height;
        match trigger_from(self.trigger_kind, &pts, h) {
            Some(t) => {
                let label = format!("Add {} trigger", self.trigger_kind.name().to_lowercase());
                cx.add_object(&label, t);
            }
            None if pts.is_empty() => {}
            None => {
                *cx.status = match self.trigger_kind {
                    TriggerKind::Prism => {
                        "a prism needs at least 3 corners around some area (not crossing itself)"
                    }
                    TriggerKind::Box => "a box trigger needs two corners apart in x and z",
                    TriggerKind::Sphere => "a sphere trigger needs a radius above zero",
                }
                .into();
            }
        }
    }

    /// Whether the active tool is the Trigger tool with a prism outline in progress.
    pub(crate) fn drawing_prism(&self) -> bool {
        self.tool == Tool::Trigger
            && self.trigger_kind == TriggerKind::Prism
            && !self.chain.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_from_clicks() {
        let Some(Object::Trigger(t)) =
            trigger_from(TriggerKind::Box, &[Vec2::new(2.0, 1.0), Vec2::ZERO], 3.0)
        else {
            panic!("a box");
        };
        assert_eq!(
            t.shape,
            TriggerShape::Aabb(Aabb {
                min: Vec3::ZERO,
                max: Vec3::new(2.0, 3.0, 1.0)
            })
        );
        assert!(trigger_from(TriggerKind::Box, &[Vec2::ZERO, Vec2::new(2.0, 0.0)], 3.0).is_none());
        let Some(Object::Trigger(t)) =
            trigger_from(TriggerKind::Sphere, &[Vec2::ZERO, Vec2::new(3.0, 4.0)], 3.0)
        else {
            panic!("a sphere");
        };
        assert_eq!(
            t.shape,
            TriggerShape::Sphere(Sphere {
                center: Vec3::new(0.0, 5.0, 0.0),
                radius: 5.0
            })
        );
        let l = [
            Vec2::ZERO,
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        assert!(trigger_from(TriggerKind::Prism, &l, 2.5).is_some());
        assert!(trigger_from(TriggerKind::Prism, &l[..2], 2.5).is_none());
        let line = [Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)];
        assert!(trigger_from(TriggerKind::Prism, &line, 2.5).is_none());
    }

    #[test]
    fn entities_face_along_the_drag() {
        let Object::Entity(e) = entity_at("spawn", Vec2::ZERO, Some(Vec2::new(-1.0, 0.0))) else {
            panic!()
        };
        assert!((e.yaw_deg - 90.0).abs() < 1e-4, "{}", e.yaw_deg);
        let Object::Entity(e) = entity_at("spawn", Vec2::ZERO, None) else {
            panic!()
        };
        assert_eq!((e.yaw_deg, e.entity_type.as_str()), (0.0, "spawn"));
    }
}
