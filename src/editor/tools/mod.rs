//! The tools of the palette and what the pointer does in the top-down view with each.

mod build;
mod game;
mod place;
mod probe;
mod reach;
mod sector;
mod select;
mod wall;

pub use crate::editor::command::Tool;
pub use game::{TriggerKind, entity_at, trigger_from};
pub(crate) use wall::{Crossing, add_walls};

use egui::{Pos2, Rect};
use glam::Vec2;

use crate::editor::command::Command;
use crate::editor::debugger::panel::Tab;
use crate::editor::document::{Document, Edit, LabelledEdit, Object, Preview};
use crate::editor::draw::{Camera, Picking};
use crate::level::{MoverPart, ObjectId};

/// Distance in screen points within which a new wall vertex welds to an existing endpoint.
pub(crate) const WELD_PX: f32 = 10.0;

/// The tools' state: the palette's choices and what the pointer has started (a wall chain, a gesture).
#[derive(Debug)]
pub struct Tools {
    /// The active tool.
    pub tool: Tool,
    /// Grid snapping on (G); Shift suspends it while held.
    pub snap: bool,
    /// Snap step, metres.
    pub snap_step: f32,
    /// Whether the Box tool makes oriented boxes.
    pub box_obb: bool,
    /// The Entity tool's type (the palette's choice).
    pub entity_type: Option<String>,
    /// The Trigger tool's shape.
    pub trigger_kind: TriggerKind,
    /// The wall chain, triangle corners or trigger points clicked so far.
    pub(crate) chain: Vec<Vec2>,
    /// The pointer gesture in progress.
    pub(crate) gesture: Option<Gesture>,
    /// The Mover tool's picked object (its path's points are in `chain`).
    pub(crate) mover: Option<MoverPick>,
}

/// What the Mover tool has picked: the object, the part it moves and the point clicked on it (the path's
/// points are offsets from there). The tools hold it; `movers` builds on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoverPick {
    /// The moved object.
    pub object: ObjectId,
    /// Its part (a sector's floor or ceiling, or the whole).
    pub part: MoverPart,
    /// The click that picked it, `(x, z)`.
    pub at: Vec2,
}

impl Default for Tools {
    fn default() -> Self {
        Self {
            tool: Tool::Select,
            snap: true,
            snap_step: 0.5,
            box_obb: false,
            entity_type: None,
            trigger_kind: TriggerKind::default(),
            chain: Vec::new(),
            gesture: None,
            mover: None,
        }
    }
}

/// What a tool works on for one pointer event: the document, the drawn scene it picks from and the status
/// line; what it asks of the rest of the editor goes to [`ToolOut`].
pub(crate) struct ToolCtx<'a> {
    /// The edited level.
    pub doc: &'a mut Document,
    /// The top-down view's drawn scene (picking and box selection).
    pub scene: &'a dyn Picking,
    /// The status bar's message.
    pub status: &'a mut String,
    /// The probe's height, metres (the Probe tool drags its ray there).
    pub probe_height: f32,
    /// What the tool asks for.
    pub out: ToolOut,
}

/// What a tool asks the app for: commands to run, a tab to show, a probe ray, a question.
#[derive(Default)]
pub(crate) struct ToolOut {
    /// Commands to run, in order.
    pub commands: Vec<Command>,
    /// Show this tab of the lower panel (opened; `true`: the panel shown too).
    pub show_tab: Option<(Tab, bool)>,
    /// A new probe ray dragged at the probe height (`Some(None)`: no ray).
    pub probe: Option<Option<(crate::shape::Ray, f32)>>,
    /// The Reach tool's click: the floor point to ask the map about.
    pub reach_at: Option<Vec2>,
    /// A drawn chain crosses walls: ask whether to split them.
    pub split: Option<SplitQuestion>,
}

/// The wall-split question: the chain's segments and where they cross existing walls.
pub(crate) type SplitQuestion = (Vec<(Vec2, Vec2)>, Vec<Crossing>);

impl ToolCtx<'_> {
    /// The object (or the walker, as `None` inside `Some`) under world point `p`, at camera scale `scale`.
    pub fn pick(&self, p: Vec2, scale: f32) -> Option<Option<ObjectId>> {
        self.scene.pick(p, scale, self.doc.level().walker.as_ref())
    }

    /// Apply an edit as one undo step (the one way the tools change the level; a live drag's preview
    /// aside).
    pub fn apply_edit(&mut self, e: LabelledEdit) -> bool {
        self.doc.apply_merging(e.label, e.edit, e.merge_key)
    }

    /// Add one object as one undo step, saying so in the status bar.
    pub fn add_object(&mut self, label: &str, o: Object) {
        self.apply_edit(LabelledEdit::new(
            label,
            Edit {
                add: vec![o],
                ..Edit::default()
            },
            None,
        ));
        *self.status = label.to_lowercase();
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
#[derive(Debug)]
pub(crate) enum Gesture {
    Move {
        preview: Preview,
        grab: Vec2,
    },
    BoxSelect {
        start: Pos2,
    },
    Rotate {
        preview: Preview,
        center: Vec2,
    },
    /// Sector vertices (one, or an edge's two) dragged in every sector that has them.
    MovePoints {
        preview: Preview,
        points: Vec<Vec2>,
        grab: Vec2,
        delta: Vec2,
    },
    Place {
        start: Vec2,
    },
    Pan,
}

impl Tools {
    /// The points of the chain, outline or corners clicked so far.
    #[must_use]
    pub fn chain_points(&self) -> &[Vec2] {
        &self.chain
    }

    /// What the pointer does with the active tool this frame (the view's own zoom and pan aside).
    pub(crate) fn pointer(
        &mut self,
        cx: &mut ToolCtx<'_>,
        ui: &egui::Ui,
        resp: &egui::Response,
        pt: Pointer,
    ) {
        if resp.clicked_by(egui::PointerButton::Secondary) && self.tool == Tool::Wall {
            self.finish_chain(cx);
            return;
        }
        match self.tool {
            Tool::Select => {
                self.select_drag_start(cx, ui, resp, pt);
                self.select_drag(cx, resp, pt);
                self.select_drag_end(cx, ui, resp, pt);
                self.select_click(cx, resp, pt);
            }
            Tool::Wall => self.wall_pointer(cx, resp, pt),
            Tool::Triangle => self.triangle_pointer(cx, resp, pt),
            Tool::Probe => self.probe_pointer(cx, ui, resp, pt),
            Tool::Trigger => self.trigger_pointer(cx, ui, resp, pt),
            Tool::Reach => reach::reach_pointer(cx, resp, pt),
            Tool::Sector => self.sector_pointer(cx, ui, resp, pt),
            Tool::Build => self.build_pointer(cx, ui, resp, pt),
            Tool::Mover => self.mover_pointer(cx, ui, resp, pt),
            Tool::Entity | Tool::Ball | Tool::Plane | Tool::Cylinder | Tool::Box | Tool::Walker => {
                self.place_pointer(cx, ui, resp, pt);
            }
        }
    }

    /// Another tool: the chain and any gesture are dropped (a live drag's preview undone).
    pub(crate) fn set_tool(&mut self, doc: &mut Document, tool: Tool) {
        if self.tool != tool {
            self.chain.clear();
            self.mover = None;
            self.cancel_gesture(doc);
            self.tool = tool;
        }
    }

    /// Drop the gesture in progress; a live drag's preview is undone.
    pub(crate) fn cancel_gesture(&mut self, doc: &mut Document) {
        if let Some(
            Gesture::Move { preview, .. }
            | Gesture::Rotate { preview, .. }
            | Gesture::MovePoints { preview, .. },
        ) = self.gesture.take()
        {
            doc.cancel_preview(preview);
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
    pub(crate) fn snap_vertex(
        &self,
        doc: &Document,
        scale: f32,
        p: Vec2,
        suspend_grid: bool,
    ) -> (Vec2, bool) {
        let tol = WELD_PX / scale;
        let mut best: Option<(f32, Vec2)> = None;
        let level = doc.level();
        // The Sector and Build tools weld to the sectors' vertices, the Wall tool to the walls' ends.
        let on_sectors = matches!(self.tool, Tool::Sector | Tool::Build);
        let sector_points = level
            .sectors
            .iter()
            .filter(|_| on_sectors)
            .flat_map(|s| s.outline.iter().chain(s.holes.iter().flatten()).copied());
        let endpoints = level
            .walls
            .iter()
            .filter(|_| !on_sectors)
            .flat_map(|w| [w.a, w.b])
            .chain(sector_points)
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
}

/// The rotation handle of a single selected OBB: its screen position and the box's centre.
pub(crate) fn rotation_handle(
    doc: &Document,
    cam: &Camera,
    rect: Rect,
) -> Option<(Pos2, Vec2, Pos2)> {
    if doc.selection().len() != 1 {
        return None;
    }
    let id = *doc.selection().first()?;
    let Some(Object::Obb(b)) = doc.object(id) else {
        return None;
    };
    let c = Vec2::new(b.center.x, b.center.z);
    let yaw = b.rotation_deg.x.to_radians();
    let reach = Vec2::new(b.half_extents.x, b.half_extents.z).length() + 24.0 / cam.scale;
    // Yaw turns +x toward -z seen from above (right-handed about +y).
    let tip = c + Vec2::new(yaw.cos(), -yaw.sin()) * reach;
    Some((
        cam.screen_from_world(rect, tip),
        c,
        cam.screen_from_world(rect, c),
    ))
}

/// The centre of the single selected OBB when screen point `p` is on its rotation handle.
pub(crate) fn rotation_handle_hit(
    doc: &Document,
    cam: &Camera,
    rect: Rect,
    p: Pos2,
) -> Option<Vec2> {
    let (h, c, _) = rotation_handle(doc, cam, rect)?;
    (h.distance(p) <= 8.0).then_some(c)
}
