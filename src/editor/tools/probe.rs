//! The Probe tool: a ray dragged in the top-down view at the probe height.

use egui::{Pos2, Ui};

use super::{Gesture, Pointer, ToolCtx, Tools};
use crate::editor::debugger::panel::Tab;

impl Tools {
    /// Probe tool: drag a ray at the probe height; the Probe tab shows once it is down.
    pub(crate) fn probe_pointer(
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
        if let (Some(Gesture::Place { start }), Some(now)) =
            (&self.gesture, resp.interact_pointer_pos())
        {
            let end = self.snapped(world(now), shift);
            if end != *start {
                cx.out.probe = Some(crate::editor::analysis::probe::probe_ray(
                    *start,
                    end,
                    cx.probe_height,
                ));
            }
        }
        if resp.drag_stopped() {
            self.gesture = None;
            // Show the results once the ray is down (not mid-drag: the panels must not move).
            cx.out.show_tab = Some((Tab::Probe, true));
        }
    }
}
