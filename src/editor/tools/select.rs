//! The Select tool: picking, box selection, moving and rotating.

use egui::{Pos2, Ui};
use glam::Vec2;

use super::{Gesture, Pointer, ToolCtx, Tools, rotation_handle_hit};
use crate::editor::document::{Object, count_noun};
use crate::level::ObjectId;

impl Tools {
    pub(crate) fn box_select(
        &mut self,
        cx: &mut ToolCtx<'_>,
        a: Vec2,
        b: Vec2,
        add: bool,
        remove: bool,
    ) {
        let (lo, hi) = (a.min(b), a.max(b));
        let inside: Vec<ObjectId> = cx.scene.inside(lo, hi);
        let walker_inside = cx
            .doc
            .level()
            .walker
            .as_ref()
            .is_some_and(|w| w.position.cmpge(lo).all() && w.position.cmple(hi).all());
        if remove {
            cx.doc.remove_from_selection(inside, walker_inside);
        } else {
            if !add {
                cx.doc.clear_selection();
            }
            cx.doc.add_to_selection(inside, walker_inside);
        }
        *cx.status = format!(
            "{} selected",
            count_noun(cx.doc.selection().len(), "object")
        );
    }

    /// A drag starts: rotate with the handle, move what is under the pointer, or box-select.
    pub(crate) fn select_drag_start(
        &mut self,
        cx: &mut ToolCtx<'_>,
        ui: &Ui,
        resp: &egui::Response,
        pt: Pointer,
    ) {
        let Pointer {
            rect,
            press,
            shift,
            ctrl,
            ..
        } = pt;
        let world = |p: Pos2| pt.world(p);
        if resp.drag_started_by(egui::PointerButton::Primary)
            && let Some(p) = ui.input(|i| i.pointer.press_origin()).or(press)
        {
            let w = world(p);
            if let Some(center) = rotation_handle_hit(cx.doc, &pt.cam, rect, p) {
                self.gesture = Some(Gesture::Rotate {
                    preview: cx.doc.begin_preview(),
                    center,
                });
            } else if !shift
                && !ctrl
                && let Some(points) = super::sector::points_at(cx, pt, p)
            {
                self.gesture = Some(super::sector::begin_points(cx, points, w));
            } else {
                match cx.pick(w, pt.cam.scale) {
                    Some(hit) if !shift && !ctrl => {
                        let selected = match hit {
                            Some(id) => cx.doc.selection().contains(&id),
                            None => cx.doc.walker_selected(),
                        };
                        if !selected {
                            match hit {
                                Some(id) => cx.doc.select_only([id]),
                                None => cx.doc.select_walker_only(),
                            }
                        }
                        self.gesture = Some(Gesture::Move {
                            preview: cx.doc.begin_preview(),
                            grab: w,
                        });
                    }
                    _ => self.gesture = Some(Gesture::BoxSelect { start: p }),
                }
            }
        }
    }

    /// While dragging: the live preview of a move or a rotation.
    pub(crate) fn select_drag(&mut self, cx: &mut ToolCtx<'_>, resp: &egui::Response, pt: Pointer) {
        let Pointer { shift, .. } = pt;
        let world = |p: Pos2| pt.world(p);
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
                    let header = cx.doc.walker_selected().then(|| {
                        let mut h = preview.header.clone();
                        if let Some(wk) = &mut h.walker {
                            wk.position += d;
                        }
                        h
                    });
                    cx.doc.preview(objects, header);
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
                    cx.doc.preview(objects, None);
                }
                Some(Gesture::MovePoints { .. }) => {
                    let d = self.snapped(w - self.grab_of_points(), shift);
                    self.drag_points(cx, d);
                }
                _ => {}
            }
        }
    }

    /// The drag ends: commit the move or rotation as one step, or select what the box holds.
    pub(crate) fn select_drag_end(
        &mut self,
        cx: &mut ToolCtx<'_>,
        ui: &Ui,
        resp: &egui::Response,
        pt: Pointer,
    ) {
        let Pointer { shift, ctrl, .. } = pt;
        let world = |p: Pos2| pt.world(p);
        if resp.drag_stopped() {
            match self.gesture.take() {
                Some(Gesture::Move { preview, .. }) => {
                    let n = preview.originals.len() + usize::from(cx.doc.walker_selected());
                    let label = format!("Move {}", count_noun(n, "object"));
                    if cx.doc.commit_preview(preview, label.clone()) {
                        *cx.status = label.to_lowercase();
                    }
                }
                Some(Gesture::Rotate { preview, .. }) => {
                    cx.doc.commit_preview(preview, "Rotate box");
                }
                Some(Gesture::MovePoints {
                    preview,
                    points,
                    delta,
                    ..
                }) => super::sector::end_points(cx, preview, &points, delta),
                Some(Gesture::BoxSelect { start }) => {
                    if let Some(end) = resp
                        .interact_pointer_pos()
                        .or(ui.input(|i| i.pointer.latest_pos()))
                    {
                        self.box_select(cx, world(start), world(end), shift, ctrl);
                    }
                }
                other => self.gesture = other,
            }
        }
    }

    /// A click selects (Shift toggles, Ctrl removes).
    pub(crate) fn select_click(
        &mut self,
        cx: &mut ToolCtx<'_>,
        resp: &egui::Response,
        pt: Pointer,
    ) {
        let Pointer {
            press, shift, ctrl, ..
        } = pt;
        let world = |p: Pos2| pt.world(p);
        if resp.clicked() {
            let hit = press.map(world).and_then(|w| cx.pick(w, pt.cam.scale));
            let walker = hit == Some(None);
            match (hit.flatten(), shift, ctrl) {
                (Some(id), true, _) => cx.doc.toggle_selected(id),
                (Some(id), false, true) => {
                    cx.doc.remove_from_selection([id], false);
                }
                (Some(id), false, false) => {
                    cx.doc.select_only([id]);
                }
                (None, _, _) if walker => {
                    if !shift {
                        cx.doc.clear_selection();
                    }
                    cx.doc.set_walker_selected(!ctrl);
                }
                (None, false, false) => {
                    cx.doc.clear_selection();
                }
                _ => {}
            }
        }
    }
}
