//! A navigation map's drawing (no egui), made once per map on the builder's thread: for each agent its
//! places, the walkable grid joining neighbouring places (the 3D preview's lines), its jump links as arcs;
//! and a path's pieces, each link drawn as it is made (a walk straight, a drop falling off the rim, a jump
//! as the ballistic arc of [`Body::step`](crate::character::Body::step)'s jump, a ride along its mover).

use std::collections::HashMap;

use glam::{Vec2, Vec3};

use crate::character::CharacterController;
use crate::nav::{NavLink, NavMap, NavPath, STEER_SPEED};

/// Points along an arc.
const ARC_POINTS: usize = 16;
/// Jump links are drawn one per this many metres of take-off and landing (a rim has one a cell).
const JUMP_SPACING: f32 = 3.0;
/// Most grid segments kept per agent (beyond, every place still shows from above; the 3D grid thins).
const MAX_SEGMENTS: usize = 300_000;

/// The kind of a drawn link (its colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// Walking.
    Walk,
    /// Falling off a ledge.
    Drop,
    /// A jump.
    Jump,
    /// Riding a mover.
    Ride,
}

impl LinkKind {
    /// The link's colour, RGBA.
    #[must_use]
    pub fn rgba(self) -> [u8; 4] {
        match self {
            LinkKind::Walk => [80, 210, 255, 255],
            LinkKind::Drop => [255, 170, 60, 255],
            LinkKind::Jump => [255, 90, 200, 255],
            LinkKind::Ride => [120, 255, 120, 255],
        }
    }

    /// Of a runtime link.
    #[must_use]
    pub fn of(link: &NavLink) -> Self {
        match link {
            NavLink::Walk => LinkKind::Walk,
            NavLink::Drop { .. } => LinkKind::Drop,
            NavLink::Jump { .. } => LinkKind::Jump,
            NavLink::Ride { .. } => LinkKind::Ride,
        }
    }
}

/// One agent's drawing.
#[derive(Clone, Debug, Default)]
pub struct AgentGeometry {
    /// The agent's radius and height, metres.
    pub size: (f32, f32),
    /// Every place to stand (feet).
    pub places: Vec<Vec3>,
    /// Segments between neighbouring places within a step of each other (the walkable grid).
    pub grid: Vec<(Vec3, Vec3)>,
    /// Jump links as arcs from take-off to landing, one per `JUMP_SPACING` of take-off and landing (a
    /// rim has a link every cell: drawn all, they hide the level).
    pub jumps: Vec<Vec<Vec3>>,
    /// Jump links in all.
    pub jump_count: usize,
    /// Ride links, each from its waiting place along its mover (boarding point, the same point at the far
    /// end) to its landing.
    pub rides: Vec<Vec<Vec3>>,
    /// The lowest and highest place, metres.
    pub heights: (f32, f32),
}

/// A map's drawing: the grid's cell and each agent's.
#[derive(Clone, Debug, Default)]
pub struct NavGeometry {
    /// The grid's cell, metres.
    pub cell: f32,
    /// Per agent of the settings.
    pub agents: Vec<AgentGeometry>,
    /// Places over every agent, for the status line.
    pub places: usize,
    /// Jump links over every agent.
    pub jumps: usize,
}

impl NavGeometry {
    /// The drawing of `map`.
    #[must_use]
    pub fn of(map: &NavMap) -> Self {
        let s = map.settings();
        let g = s.gravity.y.abs().max(1e-3);
        let agents: Vec<AgentGeometry> = s
            .agents
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let places = map.places(i);
                let all = map.jumps(i);
                let jump_count = all.len();
                let jumps = thin(all)
                    .into_iter()
                    .map(|(a, b)| jump_arc(a, b, c.jump_height, g))
                    .collect();
                let heights = places
                    .iter()
                    .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
                        (lo.min(p.y), hi.max(p.y))
                    });
                let rides = map
                    .rides(i)
                    .into_iter()
                    .map(|r| vec![r.wait, r.board, r.land, r.landing])
                    .collect();
                AgentGeometry {
                    rides,
                    size: (c.radius, c.height),
                    grid: grid(&places, s.cell, c.max_step),
                    places,
                    jumps,
                    jump_count,
                    heights,
                }
            })
            .collect();
        Self {
            cell: s.cell,
            places: agents.iter().map(|a| a.places.len()).sum(),
            jumps: agents.iter().map(|a| a.jump_count).sum(),
            agents,
        }
    }
}

/// One link per bucket of [`JUMP_SPACING`] for its take-off and its landing (heights by half metres).
fn thin(links: Vec<(Vec3, Vec3)>) -> Vec<(Vec3, Vec3)> {
    let bucket = |p: Vec3| {
        (
            (p.x / JUMP_SPACING).floor() as i64,
            (p.y / 0.5).floor() as i64,
            (p.z / JUMP_SPACING).floor() as i64,
        )
    };
    let mut seen = std::collections::HashSet::new();
    links
        .into_iter()
        .filter(|(a, b)| seen.insert((bucket(*a), bucket(*b))))
        .collect()
}

/// Segments joining each place to its neighbours in +x and +z within `max_step` of its height.
fn grid(places: &[Vec3], cell: f32, max_step: f32) -> Vec<(Vec3, Vec3)> {
    let Some(first) = places.first() else {
        return Vec::new();
    };
    let origin = Vec2::new(first.x, first.z);
    let index = |p: &Vec3| {
        let d = (Vec2::new(p.x, p.z) - origin) / cell;
        (d.x.round() as i64, d.y.round() as i64)
    };
    let mut columns: HashMap<(i64, i64), Vec<Vec3>> = HashMap::with_capacity(places.len());
    for p in places {
        columns.entry(index(p)).or_default().push(*p);
    }
    let mut out = Vec::new();
    for p in places {
        let (ix, iz) = index(p);
        for n in [(ix + 1, iz), (ix, iz + 1)] {
            for q in columns.get(&n).into_iter().flatten() {
                if (q.y - p.y).abs() <= max_step + 0.01 && out.len() < MAX_SEGMENTS {
                    out.push((*p, *q));
                }
            }
        }
    }
    out
}

/// A jump from `a` to `b` as `Body::step` makes it: the take-off speed of `jump_height` under gravity `g`,
/// across at the steering speed, the end pulled onto the landing.
#[must_use]
pub fn jump_arc(a: Vec3, b: Vec3, jump_height: f32, g: f32) -> Vec<Vec3> {
    let v0 = (2.0 * g * jump_height.max(0.0)).sqrt();
    let length = Vec2::new(b.x - a.x, b.z - a.z).length();
    let t = (length / STEER_SPEED).max(1e-3);
    let fall = v0 * t - 0.5 * g * t * t;
    (0..=ARC_POINTS)
        .map(|k| {
            let s = k as f32 / ARC_POINTS as f32;
            let ts = s * t;
            let y = a.y + v0 * ts - 0.5 * g * ts * ts + (b.y - a.y - fall) * s;
            let flat = a.lerp(b, s);
            Vec3::new(flat.x, y, flat.z)
        })
        .collect()
}

/// A drop from `a` to `b`: off the rim, then falling (the height falls with the square of the way).
#[must_use]
pub fn drop_arc(a: Vec3, b: Vec3) -> Vec<Vec3> {
    (0..=ARC_POINTS)
        .map(|k| {
            let s = k as f32 / ARC_POINTS as f32;
            let flat = a.lerp(b, s);
            Vec3::new(flat.x, a.y + (b.y - a.y) * s * s, flat.z)
        })
        .collect()
}

/// A path's pieces, each link a polyline of its kind: from the start clicked to the first point, the
/// links, then on to the goal.
#[must_use]
pub fn path_pieces(
    path: &NavPath,
    from: Vec3,
    to: Vec3,
    c: &CharacterController,
    g: f32,
) -> Vec<(Vec<Vec3>, LinkKind)> {
    let mut out = Vec::with_capacity(path.links.len() + 2);
    if let Some(&first) = path.points.first() {
        out.push((vec![from, first], LinkKind::Walk));
    }
    for (w, link) in path.points.windows(2).zip(&path.links) {
        let (a, b) = (w[0], w[1]);
        let pts = match link {
            NavLink::Jump { .. } => jump_arc(a, b, c.jump_height, g.abs().max(1e-3)),
            NavLink::Drop { .. } => drop_arc(a, b),
            NavLink::Walk | NavLink::Ride { .. } => vec![a, b],
        };
        out.push((pts, LinkKind::of(link)));
    }
    if let Some(&last) = path.points.last() {
        out.push((vec![last, to], LinkKind::Walk));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arcs_join_their_ends_and_a_jump_rises_first() {
        let (a, b) = (Vec3::new(0.0, 1.0, 0.0), Vec3::new(2.0, 1.5, 0.0));
        let arc = jump_arc(a, b, 1.0, 9.81);
        assert!(arc[0].distance(a) < 1e-5 && arc[ARC_POINTS].distance(b) < 1e-4);
        assert!(arc[ARC_POINTS / 2].y > b.y, "{arc:?}");
        let d = drop_arc(b, a);
        assert!(d[0].distance(b) < 1e-5 && d[ARC_POINTS].distance(a) < 1e-5);
        assert!(d[ARC_POINTS / 2].y > (a.y + b.y) / 2.0, "off the rim first");
    }

    #[test]
    fn the_grid_joins_neighbours_within_a_step() {
        let places = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(0.25, 0.1, 0.0),
            Vec3::new(0.5, 1.0, 0.0),
            Vec3::new(0.0, 0.0, 0.25),
        ];
        let g = grid(&places, 0.25, 0.35);
        assert_eq!(g.len(), 2, "{g:?}");
    }
}
