//! Identifiers shared across layers. A level assigns every object an [`ObjectId`]; the simulation and the
//! scene only carry it through to what they report, so it lives here, below all of them, and `level`
//! re-exports it as `collidoscope::level::ObjectId`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A level object's stable identifier, unique within the level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ObjectId(pub u32);

impl fmt::Display for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}
