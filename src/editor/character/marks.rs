//! What a character move looks like in both views (no egui): the body at each sweep's contact, the motion
//! each sweep asked for, the normals met, the step-up and snap probes, the ground and where a limit stopped
//! it. Built once from the move's workings; the top-down view draws footprints and arrows, the 3D preview
//! capsule wire frames.

use glam::Vec3;

use crate::character::{CharacterController, CharacterMove, Limit, SweepPhase};

/// Which part of a move a mark shows (its colour in both views).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// A slide sweep (the motion itself).
    Slide,
    /// A step-up probe (lift, forward, settle).
    Step,
    /// A ground probe or the ground found.
    Ground,
    /// The snap probe.
    Snap,
    /// Where the move started.
    Start,
    /// Where the move ended.
    End,
    /// Where a limit stopped it.
    Limit,
}

impl MarkKind {
    /// The mark's colour, sRGB with alpha.
    #[must_use]
    pub fn rgba(self) -> [u8; 4] {
        match self {
            MarkKind::Slide => [90, 220, 255, 255],
            MarkKind::Step => [255, 170, 60, 255],
            MarkKind::Ground => [110, 230, 120, 255],
            MarkKind::Snap => [200, 240, 90, 255],
            MarkKind::Start => [170, 170, 190, 255],
            MarkKind::End => [255, 110, 230, 255],
            MarkKind::Limit => [255, 80, 80, 255],
        }
    }

    fn of(phase: SweepPhase) -> Self {
        match phase {
            SweepPhase::Slide => MarkKind::Slide,
            SweepPhase::StepUp | SweepPhase::StepForward | SweepPhase::StepDown => MarkKind::Step,
            SweepPhase::Ground => MarkKind::Ground,
            SweepPhase::Snap => MarkKind::Snap,
        }
    }
}

/// A move's marks in world space.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveMarks {
    /// The body's radius and height (bodies are drawn to scale).
    pub radius: f32,
    /// Feet to the top of the head.
    pub height: f32,
    /// Bodies by their feet: the start, each contact of a slide or step sweep, the end.
    pub bodies: Vec<(Vec3, MarkKind)>,
    /// Each sweep's motion: from its start to where it asked to go.
    pub paths: Vec<(Vec3, Vec3, MarkKind)>,
    /// Contact normals: (point on the obstacle, unit normal, kind).
    pub normals: Vec<(Vec3, Vec3, MarkKind)>,
    /// Where a limit stopped the move.
    pub limit_at: Option<Vec3>,
}

impl MoveMarks {
    /// The marks of move `m` made by `controller`.
    #[must_use]
    pub fn of(controller: &CharacterController, m: &CharacterMove) -> Self {
        let mut out = Self {
            radius: controller.radius,
            height: controller.height,
            ..Self::default()
        };
        out.bodies.push((m.start, MarkKind::Start));
        for s in &m.trace.sweeps {
            let kind = MarkKind::of(s.phase);
            out.paths.push((s.from, s.from + s.motion, kind));
            if let Some(h) = &s.hit {
                if matches!(kind, MarkKind::Slide | MarkKind::Step) {
                    out.bodies.push((s.from + s.motion * h.t, kind));
                }
                out.normals.push((h.point, h.normal, kind));
            }
        }
        if let Some(g) = &m.ground {
            out.normals.push((g.point, g.normal, MarkKind::Ground));
        }
        out.bodies.push((m.feet, MarkKind::End));
        out.limit_at = m.limit.as_ref().and_then(limit_at);
        out.paths.retain(|(a, b, _)| a.is_finite() && b.is_finite());
        out.bodies.retain(|(p, _)| p.is_finite());
        out
    }
}

/// Where a limit was met, when it says.
#[must_use]
pub fn limit_at(limit: &Limit) -> Option<Vec3> {
    match limit {
        Limit::StepTooHigh { at, .. }
        | Limit::SlopeTooSteep { at, .. }
        | Limit::Wall { at, .. }
        | Limit::Ceiling { at, .. }
        | Limit::Corner { at, .. } => Some(*at),
        Limit::Inside { .. } | Limit::Iterations | Limit::Invalid { .. } => None,
    }
}

/// The object a limit names first (the one to highlight).
#[must_use]
pub fn limit_object(limit: &Limit) -> Option<crate::level::ObjectId> {
    match limit {
        Limit::StepTooHigh { object, .. }
        | Limit::SlopeTooSteep { object, .. }
        | Limit::Wall { object, .. }
        | Limit::Ceiling { object, .. } => Some(*object),
        Limit::Corner { objects, .. } | Limit::Inside { objects } => objects.first().copied(),
        Limit::Iterations | Limit::Invalid { .. } => None,
    }
}
