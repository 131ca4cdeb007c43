//! The Reach tool in the top-down view: a click asks the reachability map for the spot under the pointer (the
//! place the overlay shows there): its path from the walker start, or what keeps it out.

use crate::editor::app::{Command, EditorApp};
use crate::editor::tools::Pointer;

impl EditorApp {
    pub(crate) fn reach_pointer(&mut self, resp: &egui::Response, pt: Pointer) {
        if resp.clicked()
            && let Some(p) = pt.press
        {
            let to = self.reach_spot(pt.world(p));
            self.run_command(&resp.ctx, Command::ReachTo(to));
        }
    }
}
