//! The seed texts' variants side by side: Maurice's walk test against Möller–Trumbore and the angle-sum
//! point-in-triangle test against the robust one (for the probe ray), and NeHe's 150 time slices against
//! the exact sweep (for every ball's next step). Disagreements are listed and flagged in the view.

use crate::editor::theme;
use egui::{RichText, Ui};
use glam::Vec3;

use crate::level::{Level, ObjectId};
use crate::query::Cull;
use crate::query::triangle::{
    moller_trumbore, point_in_triangle, point_in_triangle_angle_sum, walk_test,
};
use crate::shape::{Ray, Sphere};
use crate::sim::World;

/// Slices NeHe's lesson 30 samples each step at.
pub const NEHE_SLICES: usize = 150;

/// The probe ray against one triangle, by each method.
#[derive(Clone, Debug, PartialEq)]
pub struct TriangleCompare {
    /// The triangle.
    pub object: ObjectId,
    /// Möller–Trumbore's hit point within the probe's length.
    pub moller_trumbore: Option<Vec3>,
    /// The walk test's crossing point for the move from the ray's origin to its end.
    pub walk_test: Option<Vec3>,
    /// Where the ray meets the triangle's plane (if it does within its length), and whether the robust and
    /// the angle-sum tests call that point inside.
    pub plane_point: Option<(Vec3, bool, bool)>,
}

impl TriangleCompare {
    /// Whether the methods disagree (hit against miss, or points more than 1e-4 apart).
    #[must_use]
    pub fn disagrees(&self) -> bool {
        let points = match (self.moller_trumbore, self.walk_test) {
            (Some(a), Some(b)) => a.distance(b) > 1e-4,
            (None, None) => false,
            _ => true,
        };
        points
            || self
                .plane_point
                .is_some_and(|(_, robust, sum)| robust != sum)
    }
}

/// Compare the probe ray (`ray` with unit direction, length `max_t`) against every triangle of `level`.
#[must_use]
pub fn triangles(level: &Level, ray: &Ray, max_t: f32) -> Vec<TriangleCompare> {
    let end = ray.origin + ray.dir * max_t;
    level
        .triangles
        .iter()
        .map(|t| {
            let tri = t.triangle();
            let mt = moller_trumbore(ray, &tri, Cull::None)
                .filter(|h| h.t <= max_t)
                .map(|h| ray.origin + ray.dir * h.t);
            let n = tri.normal_unnormalized();
            let denom = n.dot(ray.dir);
            let plane_point = (denom != 0.0)
                .then(|| n.dot(tri.a - ray.origin) / denom)
                .filter(|s| (0.0..=max_t).contains(s))
                .map(|s| {
                    let p = ray.origin + ray.dir * s;
                    (
                        p,
                        point_in_triangle(p, &tri),
                        point_in_triangle_angle_sum(p, &tri),
                    )
                });
            TriangleCompare {
                object: t.id,
                moller_trumbore: mt,
                walk_test: walk_test(ray.origin, end, &tri),
                plane_point,
            }
        })
        .collect()
}

/// One ball's next step against one static shape, by each method.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepCompare {
    /// The ball (level object).
    pub ball: Option<ObjectId>,
    /// The static shape (level object).
    pub other: Option<ObjectId>,
    /// The exact sweep's time of impact, as a fraction of the step.
    pub exact: Option<f32>,
    /// The first of NeHe's slices where the ball overlaps the shape.
    pub slices: Option<f32>,
    /// The ball's centre at the start of the step.
    pub center: Vec3,
}

/// Every ball's next step of `dt` (straight-line motion at its velocity, as both methods assume) against
/// every static shape its swept bounds reach (the count returned): only the pairs where the exact sweep and the slices disagree — one finds a contact the
/// other misses (tunnelling), or their times differ by more than one slice.
#[must_use]
pub fn sweeps(world: &World, dt: f32) -> (usize, Vec<SweepCompare>) {
    let mut tested = 0;
    let mut out = Vec::new();
    for (i, b) in world.balls().iter().enumerate() {
        let sphere = Sphere::new(b.center, b.radius);
        let motion = b.velocity * dt;
        // Only shapes the swept ball's bounds reach (planes are unbounded: always tested).
        let r = Vec3::splat(b.radius);
        let (lo, hi) = (
            b.center.min(b.center + motion) - r,
            b.center.max(b.center + motion) + r,
        );
        for (k, st) in world.statics().iter().enumerate() {
            if let Some(bb) = st.bounds()
                && (bb.max.cmplt(lo).any() || bb.min.cmpgt(hi).any())
            {
                continue;
            }
            tested += 1;
            let exact = st.sweep_sphere(&sphere, motion).map(|t| t.t);
            let slices = (0..=NEHE_SLICES).find_map(|s| {
                let f = s as f32 / NEHE_SLICES as f32;
                st.sweep_sphere(&Sphere::new(b.center + motion * f, b.radius), Vec3::ZERO)
                    .map(|_| f)
            });
            let differ = match (exact, slices) {
                (Some(a), Some(b)) => (a - b).abs() > 1.0 / NEHE_SLICES as f32 + 1e-6,
                (None, None) => false,
                _ => true,
            };
            if differ {
                out.push(SweepCompare {
                    ball: world.ball_object_ids().get(i).copied().flatten(),
                    other: world.static_object_ids().get(k).copied().flatten(),
                    exact,
                    slices,
                    center: b.center,
                });
            }
        }
    }
    (tested, out)
}

fn point(p: Option<Vec3>) -> String {
    p.map_or_else(
        || "miss".into(),
        |p| format!("({:.3}, {:.3}, {:.3})", p.x, p.y, p.z),
    )
}

fn id(i: Option<ObjectId>) -> String {
    i.map_or_else(|| "?".into(), |i| i.to_string())
}

/// The Compare tab.
pub fn panel(
    ui: &mut Ui,
    tris: Option<&[TriangleCompare]>,
    sweeps: Option<&(usize, Vec<SweepCompare>)>,
) {
    let red = theme::ERROR_TEXT;
    ui.columns(2, |cols| {
        let ui = &mut cols[0];
        ui.strong("Probe ray vs triangles: walk test (seed 000) and Möller–Trumbore; angle-sum vs robust point-in-triangle");
        match tris {
            None => {
                ui.label("Drag a probe ray (R) across triangles to compare.");
            }
            Some([]) => {
                ui.label("The level has no triangles.");
            }
            Some(rows) => {
                egui::ScrollArea::vertical().id_salt("cmp tris").auto_shrink([false, false]).show(ui, |ui| {
                    for r in rows {
                        let inside = r.plane_point.map_or_else(String::new, |(_, robust, sum)| {
                            format!("  inside? robust {robust}, angle sum {sum}")
                        });
                        let text = format!(
                            "triangle {}: MT {}  walk {}{inside}",
                            r.object,
                            point(r.moller_trumbore),
                            point(r.walk_test)
                        );
                        let text = RichText::new(text).monospace();
                        ui.label(if r.disagrees() { text.color(red) } else { text });
                    }
                });
            }
        }
        let ui = &mut cols[1];
        ui.strong(format!(
            "Next step of every ball: NeHe's {NEHE_SLICES} slices vs the exact sweep"
        ));
        match sweeps {
            None => {
                ui.label("The level cannot be simulated (see Problems).");
            }
            Some((tested, rows)) => {
                ui.label(format!(
                    "{tested} ball–shape pairs tested, {} disagreement(s)",
                    rows.len()
                ));
                egui::ScrollArea::vertical().id_salt("cmp sweeps").auto_shrink([false, false]).show(ui, |ui| {
                    for r in rows {
                        let f = |t: Option<f32>| t.map_or_else(|| "miss".into(), |t| format!("{t:.4}"));
                        ui.label(
                            RichText::new(format!(
                                "ball {} vs {}: exact {}  slices {}",
                                id(r.ball),
                                id(r.other),
                                f(r.exact),
                                f(r.slices)
                            ))
                            .monospace()
                            .color(red),
                        );
                    }
                });
            }
        }
    });
}

/// What the Compare tab's results depend on: the level, the probe and the debugger's frame.
pub type CompareKey = (
    crate::editor::document::DocKey,
    Option<(Vec3, Vec3, f32)>,
    Option<usize>,
);

/// The Compare tab's results with their key: triangle rows for the probe, and the sweep disagreements
/// (with the number of pairs tested).
pub type CompareCache = (
    CompareKey,
    Option<Vec<TriangleCompare>>,
    Option<(usize, Vec<SweepCompare>)>,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fast_ball_tunnels_through_the_slices_but_not_the_sweep() {
        // A 1 cm ball at 600 m/s toward a 2 cm box: one step of 1/60 s moves it 10 m, a slice 6.7 cm, and no
        // slice (x = 4.0, 4.067) lands in the 4 cm window [4.02, 4.06] where they overlap.
        let level = Level::from_ron_str(
            "(version: 1, aabbs: [(id: 1, min: (4.03, 0.0, -1.0), max: (4.05, 2.0, 1.0))],
              balls: [(id: 2, center: (0.0, 1.0, 0.0), velocity: (600.0, 0.0, 0.0), radius: 0.01, mass: 1.0, restitution: 1.0)],
              simulation: (gravity: (0.0, 0.0, 0.0), dt: 0.016666668))",
        )
        .unwrap();
        let world = World::from_level(&level).unwrap();
        let (tested, rows) = sweeps(&world, level.simulation.dt);
        assert_eq!(tested, 1);
        assert_eq!(rows.len(), 1);
        assert!(rows[0].exact.is_some() && rows[0].slices.is_none());
        assert_eq!(
            (rows[0].ball, rows[0].other),
            (Some(ObjectId(2)), Some(ObjectId(1)))
        );
    }

    #[test]
    fn triangle_methods_agree_inside_and_flag_nothing() {
        let level = Level::from_ron_str(
            "(version: 1, triangles: [(id: 1, a: (2.0, 0.0, -1.0), b: (2.0, 0.0, 1.0), c: (2.0, 2.0, 0.0))])",
        )
        .unwrap();
        let ray = Ray::new(Vec3::new(0.0, 0.5, 0.0), Vec3::X);
        let rows = triangles(&level, &ray, 5.0);
        assert_eq!(rows[0].moller_trumbore, Some(Vec3::new(2.0, 0.5, 0.0)));
        assert_eq!(rows[0].walk_test, Some(Vec3::new(2.0, 0.5, 0.0)));
        assert!(!rows[0].disagrees());
        // Too short to reach it: both miss.
        assert!(!triangles(&level, &ray, 1.0)[0].disagrees());
    }
}
