//! What the debugger's analysis tabs compute and show: the probe ray against every object ([`probe`]), the
//! separating-axis report of two boxes ([`sat`]) and the seed texts' method variants side by side
//! ([`compare`]; [`walk_report`]: the 3D preview's walker steps compared the same way). Each computes through the runtime's public queries and trace values.

pub mod compare;
pub mod probe;
pub mod sat;
pub mod walk_report;

use glam::Vec3;

use crate::editor::document::DocKey;
use crate::level::ObjectId;
use crate::shape::Ray;

/// The probe and what is derived from it, each cached by what it depends on.
#[derive(Debug)]
pub struct ProbeState {
    /// The probe: a ray (unit direction) and its length, dragged in the top-down view at [`Self::height`]
    /// or clicked in the 3D preview.
    pub ray: Option<(Ray, f32)>,
    /// The height of rays dragged in the top-down view, metres (changing it moves such a ray).
    pub height: f32,
    /// The ray was dragged in the top-down view: it follows [`Self::height`].
    pub(crate) flat: bool,
    /// The ray's hits, with the ray and document they were cast for.
    pub(crate) result: Option<((Vec3, Vec3, f32, DocKey), probe::ProbeResult)>,
    /// The box whose slabs the probe panel plots.
    pub box_id: Option<ObjectId>,
    /// The Compare tab's rows, with what they were computed for.
    pub(crate) compare: Option<compare::CompareCache>,
}

impl Default for ProbeState {
    fn default() -> Self {
        Self {
            ray: None,
            height: 1.0,
            flat: false,
            result: None,
            box_id: None,
            compare: None,
        }
    }
}
