//! The reachability overlay in the 3D preview: the map's cells as translucent quads on the surfaces (uploaded
//! once per map), each blocker as a red pin with its label over the view, and the clicked spot's path or
//! blocker, drawn over everything.

use std::sync::Arc;

use egui::{Color32, Pos2, Rect, Ui};
use glam::{Vec3, Vec4};

use super::scene::Lines;
use super::translucent::Translucent;
use super::{Input3, View3d};
use crate::editor::document::DocKey;
use crate::editor::reach::ReachOverlay;
use crate::editor::reach::geometry::Label;
use crate::editor::reach::model::{Target, TargetView};
use crate::editor::reach::paint::place_label;

/// How high a blocker's pin stands over it, metres.
const PIN: f32 = 0.6;
const RED: [u8; 4] = [235, 40, 40, 255];
const PATH: [u8; 4] = [80, 210, 255, 255];

/// What the preview draws of the reachability overlay.
pub struct Reach3<'a> {
    /// The cells on the surfaces, with the generation the renderer keeps them by.
    pub surface: (u64, Arc<Translucent>),
    /// The blockers' labels, largest area first.
    pub labels: &'a [Label],
    /// The clicked spot.
    pub target: Option<&'a Target>,
    /// A newer map is being made: drawn faint.
    pub faint: bool,
}

impl<'a> Reach3<'a> {
    /// What the preview draws of `overlay` for the document at `key` (nothing while it is off or there is no
    /// map; faint while the map is not of `key`).
    #[must_use]
    pub fn of(overlay: &'a ReachOverlay, key: DocKey) -> Option<Self> {
        if !overlay.on {
            return None;
        }
        let built = overlay.shown()?;
        let data = built.outcome.as_ref().ok()?;
        let faint = !overlay.is_current(key);
        let surface = if faint {
            data.geometry.surface_dimmed.clone()
        } else {
            data.geometry.surface.clone()
        };
        Some(Self {
            surface: (built.generation * 2 + u64::from(faint), surface),
            labels: &data.geometry.labels,
            target: overlay.target(),
            faint,
        })
    }
}

/// A polyline through feet, a little over the floor.
fn feet_line(out: &mut Lines, path: &[Vec3], rgba: [u8; 4]) {
    let lifted: Vec<Vec3> = path.iter().map(|p| *p + Vec3::Y * 0.06).collect();
    out.strip(&lifted, rgba);
}

/// The overlay's lines: a pin at each blocker, the clicked spot's path (its start and end ringed) or, out of
/// reach, how far the character gets and a line on to the spot; a cross where there is nowhere to stand.
pub(super) fn reach_lines(reach: &Reach3<'_>, overlay: &mut Lines) {
    let alpha = if reach.faint { 90 } else { 255 };
    for l in reach.labels {
        let red = [RED[0], RED[1], RED[2], alpha];
        overlay.line(l.at, l.at + Vec3::Y * PIN, red);
        overlay.cross(l.at, 0.12, red);
    }
    let Some(t) = reach.target else {
        return;
    };
    match &t.view {
        TargetView::Path { path, .. } => {
            feet_line(overlay, path, PATH);
            if let Some(first) = path.first() {
                overlay.circle(*first + Vec3::Y * 0.06, Vec3::Y, 0.3, PATH);
            }
            overlay.circle(t.to + Vec3::Y * 0.06, Vec3::Y, 0.3, [255, 255, 255, 255]);
        }
        TargetView::Blocked {
            blocker, partial, ..
        } => {
            if let Some(p) = partial {
                feet_line(overlay, p, PATH);
            }
            overlay.line(blocker.at(), t.to, [255, 120, 90, 255]);
            overlay.circle(t.to + Vec3::Y * 0.06, Vec3::Y, 0.3, [255, 160, 60, 255]);
            overlay.cross(blocker.at(), 0.3, RED);
        }
        TargetView::Nowhere | TargetView::NoMap => overlay.cross(t.to, 0.25, [200, 200, 200, 255]),
    }
}

impl View3d {
    /// Screen point of world point `p` in the view `rect` seen by `view_proj`, when it is in front of the eye
    /// and inside the view.
    fn project(view_proj: glam::Mat4, rect: Rect, p: Vec3) -> Option<Pos2> {
        let clip = view_proj * Vec4::new(p.x, p.y, p.z, 1.0);
        if !(clip.w > 1e-4) {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        (ndc.x.abs() <= 1.0 && ndc.y.abs() <= 1.0 && ndc.z <= 1.0).then(|| {
            Pos2::new(
                rect.left() + (ndc.x + 1.0) * 0.5 * rect.width(),
                rect.top() + (1.0 - ndc.y) * 0.5 * rect.height(),
            )
        })
    }

    /// The blockers' labels over the view, at the top of their pins: those in front of the eye, nearer than
    /// the fog's end, largest area first, none covering another; the clicked spot's blocker always.
    pub(super) fn reach_labels(
        &self,
        ui: &Ui,
        rect: Rect,
        input: &Input3<'_>,
        view_proj: glam::Mat4,
    ) {
        let Some(reach) = &input.reach else {
            return;
        };
        let painter = ui.painter_at(rect);
        let (eye, _) = self.cam.eye_forward(None);
        let far = self.cam.clip.1;
        let mut placed = Vec::new();
        if let Some(Target {
            view: TargetView::Blocked { blocker, short, .. },
            ..
        }) = reach.target
            && let Some(at) = Self::project(view_proj, rect, blocker.at() + Vec3::Y * PIN)
        {
            let c = Color32::from_rgb(255, 200, 120);
            place_label(&painter, at, short, c, &mut placed, true);
        }
        let text = Color32::from_gray(if reach.faint { 150 } else { 240 });
        for l in reach.labels.iter().take(40) {
            let top = l.at + Vec3::Y * PIN;
            if top.distance(eye) > far {
                continue;
            }
            if let Some(at) = Self::project(view_proj, rect, top) {
                place_label(&painter, at, &l.text, text, &mut placed, false);
            }
        }
    }
}
