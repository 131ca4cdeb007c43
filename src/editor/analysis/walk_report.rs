//! Walker mode's comparison: each step of the seeds' walker in the 3D preview, with the triangles the eye's
//! path touched answered by both the walk test and Möller–Trumbore (no egui). The preview hands each step
//! here; the HUD and the top-down view read the last one that said something.

use glam::{Vec2, Vec3};

use super::compare::{TriangleCompare, triangles};
use crate::level::Level;
use crate::shape::Ray;
use crate::walker::{Blocker, WalkOutcome};

/// The last walking step compared between the walk test and Möller–Trumbore.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WalkReport {
    /// What the walker did.
    pub outcome: Option<WalkOutcome>,
    /// Triangles the eye's path touched by either method, with both answers.
    pub compared: Vec<TriangleCompare>,
}

impl WalkReport {
    /// Take the step the walker made from eye `from` by `motion` (floor metres) and ended with `outcome`:
    /// kept when it was blocked or touched a triangle, or when nothing is kept yet, so a free step does not
    /// wipe the last collision off the HUD.
    pub fn record(&mut self, level: &Level, from: Vec3, motion: Vec2, outcome: WalkOutcome) {
        let len = motion.length();
        let compared = if len > 0.0 {
            let ray = Ray::new(from, Vec3::new(motion.x, 0.0, motion.y) / len);
            triangles(level, &ray, len)
                .into_iter()
                .filter(|c| c.moller_trumbore.is_some() || c.walk_test.is_some())
                .collect()
        } else {
            Vec::new()
        };
        if outcome.blocked_by.is_some() || !compared.is_empty() || self.outcome.is_none() {
            *self = Self {
                outcome: Some(outcome),
                compared,
            };
        }
    }

    /// The HUD's lines about the step: what blocked it and each triangle's two answers.
    #[must_use]
    pub fn describe(&self) -> String {
        let mut text = String::new();
        let Some(o) = &self.outcome else {
            return text;
        };
        match o.blocked_by {
            Some(Blocker::Wall(k)) => text.push_str(&format!("\nblocked by wall #{k}")),
            Some(Blocker::Triangle(k)) => text.push_str(&format!(
                "\nblocked by triangle #{k}: the walk test found the eye crossing it"
            )),
            None => {}
        }
        for c in &self.compared {
            let fmt = |p: Option<Vec3>| {
                p.map_or("miss".to_owned(), |p| {
                    format!("({:.2}, {:.2}, {:.2})", p.x, p.y, p.z)
                })
            };
            text.push_str(&format!(
                "\ntriangle {}: walk test {} · Möller–Trumbore {}{}",
                c.object.0,
                fmt(c.walk_test),
                fmt(c.moller_trumbore),
                if c.disagrees() {
                    "  DISAGREE"
                } else {
                    "  agree"
                }
            ));
            if let Some((_, robust, angle_sum)) = c.plane_point {
                let word = |b: bool| if b { "inside" } else { "outside" };
                text.push_str(&format!(
                    "; its plane point: robust test {}, angle sum {}",
                    word(robust),
                    word(angle_sum)
                ));
            }
        }
        text
    }
}
