//! What the tools ask of the top-down view's drawn scene: the object under a point, the objects inside a
//! box, the storey filter. The view's scene answers it; the tools see only this, so no tool imports a view.

use glam::Vec2;

use crate::level::{ObjectId, WalkerStart};

/// Picking in the top-down view, as the tools use it.
pub trait Picking {
    /// The object (or the walker, as `None` inside `Some`) under world point `p`, seen at `scale` screen
    /// points per metre.
    fn pick(&self, p: Vec2, scale: f32, walker: Option<&WalkerStart>) -> Option<Option<ObjectId>>;

    /// The objects drawn and wholly inside the world box `lo`–`hi` (sectors the storey filter hides left
    /// out), in drawing order.
    fn inside(&self, lo: Vec2, hi: Vec2) -> Vec<ObjectId>;

    /// The greybox storey filter `(low, high)`, if one is on.
    fn storey(&self) -> Option<(f32, f32)>;
}
