//! Watertight seams between sectors: random closed layouts (rows of rooms whose edges between rows overlap
//! partly, floors sloped across the edges they share, so two floors' lines along a shared edge may cross
//! part-way; pillars as holes), and rays and capsule sweeps from inside the rooms aimed at points of the
//! shared edges (the lower floor's and the higher ceiling's lines along them, and the risers and lintels
//! between). Each must stop at or before the point aimed at: a crack at a seam would let it through to
//! beyond, or out of the level.

#![allow(clippy::unwrap_used)]

use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::{Level, ObjectId, SectorObject, Slope, Surface};
use collidoscope::scene::Scene;
use collidoscope::shape::{Capsule, Ray};
use proptest::prelude::*;

/// A room: `[x0, z0, x1, z1]`, its floor (height at `z0`, slope in degrees rising toward `+z`), its flat
/// ceiling, and whether it has a pillar (a hole) in its middle.
#[derive(Clone, Copy, Debug)]
struct Room {
    b: [f32; 4],
    floor: f32,
    degrees: f32,
    ceiling: f32,
    pillar: bool,
}

impl Room {
    fn floor_at(&self, z: f32) -> f32 {
        self.floor + self.degrees.to_radians().tan() * (z - self.b[1])
    }

    fn sector(&self, id: u32) -> SectorObject {
        let [x0, z0, x1, z1] = self.b;
        let rect = |x0: f32, z0: f32, x1: f32, z1: f32| {
            vec![
                Vec2::new(x0, z0),
                Vec2::new(x1, z0),
                Vec2::new(x1, z1),
                Vec2::new(x0, z1),
            ]
        };
        let (cx, cz) = ((x0 + x1) * 0.5, (z0 + z1) * 0.5);
        SectorObject {
            id: ObjectId(id),
            name: None,
            outline: rect(x0, z0, x1, z1),
            holes: if self.pillar {
                vec![rect(cx - 0.2, cz - 0.2, cx + 0.2, cz + 0.2)]
            } else {
                Vec::new()
            },
            floor: Surface {
                height: self.floor,
                // Edge 0 runs along z = z0: the floor rises from it into the room.
                slope: (self.degrees != 0.0).then_some(Slope {
                    edge: 0,
                    degrees: self.degrees,
                }),
            },
            ceiling: Surface {
                height: self.ceiling,
                slope: None,
            },
            properties: Default::default(),
            one_way: false,
        }
    }
}

/// Rows 3 m deep of rooms between random x splits (so the edges between rows overlap partly); each room's
/// floor, slope, ceiling and pillar from `looks`.
fn layout(splits: &[Vec<f32>], looks: &[(u32, i32, u32, bool)]) -> Vec<Room> {
    let mut rooms = Vec::new();
    for (row, xs) in splits.iter().enumerate() {
        let (z0, z1) = (row as f32 * 3.0, row as f32 * 3.0 + 3.0);
        for w in xs.windows(2) {
            let (f, deg, c, pillar) = looks[rooms.len() % looks.len()];
            let floor = f as f32 * 0.15;
            rooms.push(Room {
                b: [w[0], z0, w[1], z1],
                floor,
                degrees: deg as f32 * 2.5,
                ceiling: floor + 2.6 + c as f32 * 0.2,
                pillar: pillar && w[1] - w[0] >= 1.25,
            });
        }
    }
    rooms
}

fn splits() -> impl Strategy<Value = Vec<Vec<f32>>> {
    prop::collection::vec(prop::collection::btree_set(1u32..40, 1..5), 2..4).prop_map(|rows| {
        rows.into_iter()
            .map(|set| {
                let mut xs = vec![0.0];
                xs.extend(set.into_iter().map(|v| v as f32 * 0.25));
                xs.push(10.5);
                xs
            })
            .collect()
    })
}

fn looks() -> impl Strategy<Value = Vec<(u32, i32, u32, bool)>> {
    prop::collection::vec((0u32..5, -4i32..5, 0u32..4, any::<bool>()), 3..12)
}

/// A shared edge part: its two rooms and its ends (a segment along x or along z).
type Seam = (usize, usize, Vec2, Vec2);

/// Every edge part two rooms share: side by side in a row, or one row over the other where they overlap.
fn seams(rooms: &[Room]) -> Vec<Seam> {
    let mut out = Vec::new();
    for (i, a) in rooms.iter().enumerate() {
        for (j, b) in rooms.iter().enumerate().skip(i + 1) {
            let (ab, bb) = (a.b, b.b);
            if ab[1] == bb[1] && ab[2] == bb[0] {
                out.push((i, j, Vec2::new(ab[2], ab[1]), Vec2::new(ab[2], ab[3])));
            }
            if ab[3] == bb[1] {
                let (lo, hi) = (ab[0].max(bb[0]), ab[2].min(bb[2]));
                if hi - lo > 1e-3 {
                    out.push((i, j, Vec2::new(lo, ab[3]), Vec2::new(hi, ab[3])));
                }
            }
        }
    }
    out
}

/// A point inside `room`'s air, near one of its outer edges (never in its pillar): `u`, `v`, `w` in [0, 1).
fn inside(room: &Room, u: f32, v: f32, w: f32) -> Vec3 {
    let [x0, z0, x1, z1] = room.b;
    let room_min = (x1 - x0).min(z1 - z0);
    let inset = (0.01 + 0.2 * u).min(room_min * 0.5 - 0.005);
    let (x, z) = if v < 0.5 {
        (x0 + inset + (v * 2.0) * (x1 - x0 - 2.0 * inset), z0 + inset)
    } else {
        (
            x0 + inset,
            z0 + inset + (v * 2.0 - 1.0) * (z1 - z0 - 2.0 * inset),
        )
    };
    let f = room.floor_at(z);
    Vec3::new(x, f + 0.02 + w * (room.ceiling - f - 0.04), z)
}

/// Rays and capsules from inside either room of each seam of the layout aimed at points of the seam: each
/// stops at or before the point aimed at.
fn check_seams(
    splits: &[Vec<f32>],
    looks: &[(u32, i32, u32, bool)],
    seed: u64,
) -> Result<(), TestCaseError> {
    let rooms = layout(splits, looks);
    let level = Level {
        sectors: rooms
            .iter()
            .enumerate()
            .map(|(i, r)| r.sector(i as u32 + 1))
            .collect(),
        ..Level::default()
    };
    prop_assert!(level.validate().is_empty(), "{:?}", level.validate());
    let scene = Scene::from_level(&level).unwrap();
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng >> 11) as f32 / (1u64 << 53) as f32
    };
    for (i, j, p, q) in seams(&rooms) {
        let (a, b) = (rooms[i], rooms[j]);
        // Where the two floors' lines cross part-way along the seam (rooms side by side with different
        // slopes), the crossing is a vertex of both floors and of the risers either side: aimed at too.
        let gap = |z: f32| f64::from(a.floor_at(z)) - f64::from(b.floor_at(z));
        let crossing = (gap(p.y) * gap(q.y) < 0.0).then(|| {
            let u = gap(p.y) / (gap(p.y) - gap(q.y));
            p + (q - p) * u as f32
        });
        for k in 0..24 {
            // Not at the seam's ends, where the rooms' corners are.
            let s = match crossing {
                Some(c) if k % 3 == 0 => c,
                _ => p + (q - p) * (0.01 + 0.98 * next()),
            };
            let (fa, fb) = (a.floor_at(s.y), b.floor_at(s.y));
            // The concave corners (the foot of a riser, the top of a lintel) and points on the riser
            // and the lintel: the air's boundary, never passed. (A riser's top and a lintel's foot are
            // convex edges a ray may graze past into the room beyond.)
            let (ca, cb) = (a.ceiling, b.ceiling);
            let heights = [
                fa.min(fb),
                ca.max(cb),
                fa.min(fb) + (fa - fb).abs() * (0.1 + 0.8 * next()),
                ca.min(cb) + (ca - cb).abs() * (0.1 + 0.8 * next()),
            ];
            let room = if next() < 0.5 { a } else { b };
            let target = Vec3::new(s.x, heights[k % heights.len()], s.y);
            // The lower floor and the higher ceiling are aimed at steeply (more than 30° to the
            // horizontal, floors slope at most 10°) from near the seam: a crease where a floor falls away
            // across the seam is convex, and a grazing ray may pass over it into the next room.
            let kind = k % 4;
            // Where the floors (or ceilings) meet at one height the face between is no face: the
            // point is on the crease, aimed at steeply too.
            let steep = kind < 2
                || (kind == 2 && (fa - fb).abs() < 0.01)
                || (kind == 3 && (ca - cb).abs() < 0.01);
            let from = if steep {
                let along = (q - p).normalize();
                let into = Vec2::new(room.b[0] + room.b[2], room.b[1] + room.b[3]) * 0.5 - s;
                let into = (into - along * into.dot(along)).normalize();
                let o = s + into * (0.02 + 0.38 * next()) + along * ((next() - 0.5) * 0.6);
                let o = o.clamp(
                    Vec2::new(room.b[0], room.b[1]) + 0.005,
                    Vec2::new(room.b[2], room.b[3]) - 0.005,
                );
                let rise = (o - s).length() * (0.6 + 2.0 * next());
                let y = if kind % 2 == 0 {
                    target.y + rise
                } else {
                    target.y - rise
                };
                if y <= room.floor_at(o.y) + 0.005 || y >= room.ceiling - 0.005 {
                    continue;
                }
                Vec3::new(o.x, y, o.y)
            } else {
                inside(&room, next(), next(), next())
            };
            let d = target - from;
            let dist = d.length();
            let hit = scene.cast_ray(&Ray::new(from, d / dist), 1e3);
            prop_assert!(
                hit.is_some_and(|h| h.t <= dist + 2e-3),
                "from {from} at {target} (seam of #{} and #{}): {hit:?}",
                i + 1,
                j + 1
            );
            if k % 4 == 0 {
                // A capsule 0.05 m wide, upright, from a point well inside: it touches something
                // before its centre passes the point aimed at.
                let half = (room.b[2] - room.b[0]) * 0.5;
                let c = Vec3::new(
                    (room.b[0] + room.b[2]) * 0.5 + (next() - 0.5) * 2.0 * (half - 0.07).min(0.1),
                    0.0,
                    room.b[1] + 0.3 + next() * 0.5,
                );
                let f = room.floor_at(c.z);
                let c = Vec3::new(c.x, (f + room.ceiling) * 0.5, c.z);
                let capsule = Capsule::new(c - Vec3::Y * 0.1, c + Vec3::Y * 0.1, 0.05);
                let d = target - c;
                let motion = d * (1.0 + 0.5 / d.length());
                let toi = scene.sweep_capsule(&capsule, motion);
                prop_assert!(
                    toi.is_some_and(|t| t.t * motion.length() <= d.length() + 2e-3),
                    "capsule from {c} at {target}: {toi:?}"
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Rays from inside either room of a seam, aimed at points of the seam (the lower floor's and the higher
    /// ceiling's lines along it, and heights between), stop at or before the point; so do small capsules
    /// swept there.
    #[test]
    fn nothing_leaks_through_seams(splits in splits(), looks in looks(), seed in 0u64..1000) {
        check_seams(&splits, &looks, seed)?;
    }
}

/// A narrow room beside a wide one in each of two rows, their floors sloped so the two floors' lines cross
/// part-way along the seam at x = 0.25: where the crossing was not yet a vertex of the floors, rays aimed
/// exactly at the seam there slipped through.
#[test]
fn sloped_floors_crossing_at_a_seam_leave_no_gap() {
    let splits = vec![vec![0.0, 0.25, 10.5], vec![0.0, 0.25, 10.5]];
    let looks = [
        [(0, 4, 0, false), (2, 0, 1, true)],
        [(3, -4, 2, false), (0, 2, 0, false)],
        [(1, 3, 0, false), (4, -3, 3, true)],
        [(0, 1, 0, false), (1, -1, 0, true)],
    ];
    for looks in &looks {
        for seed in 0..4 {
            check_seams(&splits, looks, seed).unwrap();
        }
    }
}
