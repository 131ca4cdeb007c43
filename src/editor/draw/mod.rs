//! The drawing layer under both the features and the views: the top-down camera, batched 2D shapes and
//! plane geometry, the 3D preview's lines and translucent triangles, and what the tools ask of the drawn
//! scene ([`Picking`]): plain data and helpers with no view state, so a feature can draw its marks (and a
//! tool pick) without importing a view.

pub mod batch;
pub mod lines;
pub mod pick;
pub mod plane;
pub mod translucent;

use egui::{Pos2, Rect};
use glam::Vec2;

pub use batch::Batch;
pub use lines::Lines;
pub use pick::Picking;
pub use translucent::Translucent;

/// Pan and zoom of the top-down view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// World point `(x, z)` at the centre of the view.
    pub center: Vec2,
    /// Screen points per metre.
    pub scale: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            center: Vec2::ZERO,
            scale: 20.0,
        }
    }
}

/// Smallest and largest zoom, screen points per metre.
pub const SCALE_RANGE: (f32, f32) = (1e-3, 1e5);

impl Camera {
    /// Screen position of world point `p` in a view occupying `rect`.
    #[must_use]
    pub fn screen_from_world(&self, rect: Rect, p: Vec2) -> Pos2 {
        let c = rect.center();
        Pos2::new(
            c.x + (p.x - self.center.x) * self.scale,
            c.y + (p.y - self.center.y) * self.scale,
        )
    }

    /// World point under screen position `s`.
    #[must_use]
    pub fn world_from_screen(&self, rect: Rect, s: Pos2) -> Vec2 {
        let c = rect.center();
        Vec2::new(
            self.center.x + (s.x - c.x) / self.scale,
            self.center.y + (s.y - c.y) / self.scale,
        )
    }

    /// The world rectangle `(min, max)` visible in `rect`.
    #[must_use]
    pub fn visible(&self, rect: Rect) -> (Vec2, Vec2) {
        (
            self.world_from_screen(rect, rect.min),
            self.world_from_screen(rect, rect.max),
        )
    }

    /// Zoom by `factor` keeping the world point under `anchor` (a screen position) where it is.
    pub fn zoom_about(&mut self, rect: Rect, anchor: Pos2, factor: f32) {
        if !(factor > 0.0) || !factor.is_finite() {
            return;
        }
        let before = self.world_from_screen(rect, anchor);
        self.scale = (self.scale * factor).clamp(SCALE_RANGE.0, SCALE_RANGE.1);
        let after = self.world_from_screen(rect, anchor);
        self.center += before - after;
    }

    /// Pan by a screen-space drag `delta`.
    pub fn pan_by(&mut self, delta: egui::Vec2) {
        self.center -= Vec2::new(delta.x, delta.y) / self.scale;
    }

    /// Show world bounds `(min, max)` with a margin; a point or empty bounds keep the zoom.
    pub fn frame(&mut self, rect: Rect, bounds: Option<(Vec2, Vec2)>) {
        let Some((min, max)) = bounds.filter(|(a, b)| a.is_finite() && b.is_finite()) else {
            return;
        };
        self.center = (min + max) * 0.5;
        let size = (max - min).max(Vec2::splat(1e-3));
        let fit = (rect.width() / size.x).min(rect.height() / size.y) * 0.9;
        if fit.is_finite() && fit > 0.0 {
            self.scale = fit.clamp(SCALE_RANGE.0, SCALE_RANGE.1);
        }
    }
}
