//! The Reach tool in the top-down view: a click asks the reachability map for the spot under the pointer (the
//! place the overlay shows there): its path from the walker start, or what keeps it out.

use super::{Pointer, ToolCtx};

/// A click hands the app the floor point (the app asks the map which place it shows there).
pub(crate) fn reach_pointer(cx: &mut ToolCtx<'_>, resp: &egui::Response, pt: Pointer) {
    if resp.clicked()
        && let Some(p) = pt.press
    {
        cx.out.reach_at = Some(pt.world(p));
    }
}
