//! Moving parts in a level: [`MoverObject`], one per moved object (a box, triangle, cylinder, mesh, or a
//! sector's whole, floor or ceiling), and the kinds it is made of, re-exported from [`crate::mover`].
//! Additive to format version 3: a file without `movers` (or without `one_way` on its objects) loads as
//! before, and a level without movers writes no `movers` list.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::ObjectId;
pub use crate::mover::{MoverPart, MoverStart, Repeat};

/// A mover: an object of the level moved along a path of offsets (translation only).
///
/// In a file: `movers: [(id: 30, object: 7, path: [(0.0, 0.0, 0.0), (0.0, 3.0, 0.0)], speed: 2.0)]`; `name`,
/// `part` ([`MoverPart::Whole`]), `wait` (0 s), `repeat` ([`Repeat::PingPong`]: a lift or platform goes back
/// and forth unless told otherwise) and `start` ([`MoverStart::Always`]) may be left out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoverObject {
    /// The mover's own id (unique in the level, like every object's).
    pub id: ObjectId,
    /// Optional name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The object it moves: a box (AABB or OBB), triangle, cylinder, mesh or sector.
    pub object: ObjectId,
    /// What it moves of the object: the whole, or a sector's floor or ceiling (vertical paths only).
    #[serde(default, skip_serializing_if = "is_whole")]
    pub part: MoverPart,
    /// Offsets from the object's place, the first `(0, 0, 0)`; at least two points.
    pub path: Vec<Vec3>,
    /// Metres per second along the path (above 0).
    pub speed: f32,
    /// Seconds waited at each end of the path (0 or more).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub wait: f32,
    /// What happens at the path's ends.
    #[serde(default, skip_serializing_if = "is_ping_pong")]
    pub repeat: Repeat,
    /// When it starts.
    #[serde(default, skip_serializing_if = "is_always")]
    pub start: MoverStart,
}

fn is_whole(p: &MoverPart) -> bool {
    *p == MoverPart::Whole
}

fn is_zero(x: &f32) -> bool {
    // Bits, so -0.0 is written back as it was read.
    x.to_bits() == 0
}

fn is_ping_pong(r: &Repeat) -> bool {
    *r == Repeat::PingPong
}

fn is_always(s: &MoverStart) -> bool {
    *s == MoverStart::Always
}

/// `skip_serializing_if` for the objects' `one_way` flag: only `true` is written.
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference.
pub(super) fn is_false(b: &bool) -> bool {
    !*b
}
