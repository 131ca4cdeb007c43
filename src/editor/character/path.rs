//! A reachability path being walked (no egui): its points, the next one, and how the walk ended. Its own
//! room so the walk model ([`super::model`]) can hold one and the walking ([`super::follow`]) can step it
//! without the two importing each other.

use glam::Vec3;

/// A path being walked.
#[derive(Clone, Debug, PartialEq)]
pub struct PathWalk {
    /// Feet positions from the start ([`crate::character::ReachMap::path`]).
    pub points: Vec<Vec3>,
    /// The point walked to next.
    pub next: usize,
    /// A move that landed off its point: the point's index and how far off, metres.
    pub strayed: Option<(usize, f32)>,
    /// Metres of walking at [`super::model::WALK_SPEED`] not spent yet.
    pub(super) budget: f32,
}

impl PathWalk {
    /// Whether the walk has ended: at the last point, or stopped by a move off its point.
    #[must_use]
    pub fn done(&self) -> bool {
        self.next >= self.points.len() || self.strayed.is_some()
    }

    /// The HUD's line: where along the path the character is, or how the walk ended.
    #[must_use]
    pub fn describe(&self) -> String {
        let n = self.points.len().saturating_sub(1);
        match self.strayed {
            Some((k, off)) => format!(
                "the path no longer replays: the move to point {k} of {n} landed {off:.2} m from it (the level \
                 changed under it?)"
            ),
            None if self.done() => {
                format!("walked the reach path: {n} moves, each landing on its point")
            }
            None => format!(
                "walking the reach path: move {} of {n} (a key takes over)",
                self.next
            ),
        }
    }
}
