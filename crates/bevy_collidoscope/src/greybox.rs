//! Greybox meshes: a level's static objects as flat-shaded triangles coloured by height, so a game shows its
//! blockout with no art.
//!
//! [`greybox_meshes`] turns a level into plain vectors (positions, normals, colours, indices) and needs no
//! renderer; with the `greybox` feature, `GreyboxPlugin` spawns them as Bevy meshes under each
//! [`crate::LevelRoot`] and replaces them whenever the level (re)loads.

use collidoscope::glam::{Mat3, Vec3};
use collidoscope::level::{Level, ObjectId};
use collidoscope::shape::{Cylinder, Obb};

/// What kind of level object a greybox mesh shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GreyboxKind {
    /// A sector's cooked floor, ceiling, risers, lintels and walls.
    Sector,
    /// An axis-aligned box.
    Aabb,
    /// An oriented box.
    Obb,
    /// A capped cylinder.
    Cylinder,
    /// A triangle.
    Triangle,
    /// A triangle mesh.
    Mesh,
    /// A wall extruded from the floor to its height.
    Wall,
}

/// One static object's greybox mesh: flat-shaded (three vertices of its own per triangle), each vertex
/// coloured by its height ([`height_color`]).
#[derive(Clone, Debug, PartialEq)]
pub struct GreyboxMeshData {
    /// The level object shown.
    pub object: ObjectId,
    /// Its kind.
    pub kind: GreyboxKind,
    /// Vertex positions (the level's frame: y up, metres).
    pub positions: Vec<[f32; 3]>,
    /// Unit face normals, one per vertex (by the triangle's winding; draw both faces).
    pub normals: Vec<[f32; 3]>,
    /// Linear RGBA colours by height.
    pub colors: Vec<[f32; 4]>,
    /// Triangles, three indices each (`0, 1, 2, 3, 4, 5, ...`).
    pub indices: Vec<u32>,
}

/// Segments around a cylinder.
const CYLINDER_SEGMENTS: usize = 16;

/// A colour for height `y` between the level's lowest (`low`) and highest (`high`) greybox vertex: dark slate
/// at the bottom, through sage green, to warm sand at the top, so storeys read apart at a glance.
#[must_use]
pub fn height_color(y: f32, low: f32, high: f32) -> [f32; 4] {
    const STOPS: [[f32; 3]; 3] = [[0.22, 0.26, 0.34], [0.45, 0.60, 0.42], [0.90, 0.78, 0.55]];
    let span = high - low;
    let t = if span > 1e-6 && y.is_finite() {
        ((y - low) / span).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (a, b, f) = if t < 0.5 {
        (STOPS[0], STOPS[1], t * 2.0)
    } else {
        (STOPS[1], STOPS[2], t * 2.0 - 1.0)
    };
    [
        a[0] + (b[0] - a[0]) * f,
        a[1] + (b[1] - a[1]) * f,
        a[2] + (b[2] - a[2]) * f,
        1.0,
    ]
}

/// The greybox meshes of every static object of `level` with a finite size: sectors (cooked), boxes, oriented
/// boxes, cylinders, triangles, meshes and walls. Planes (unbounded), balls (they move) and triggers (not
/// solid) have none, nor do objects with nothing to draw (a sector that cooks to nothing, an empty mesh).
/// Movers' objects are drawn where the level places them.
#[must_use]
pub fn greybox_meshes(level: &Level) -> Vec<GreyboxMeshData> {
    let mut out: Vec<(ObjectId, GreyboxKind, Vec<[Vec3; 3]>)> = Vec::new();
    let cooked = collidoscope::sector::cook(level.sectors.iter().map(|s| s.geom()));
    for c in cooked {
        let tris = c
            .indices
            .iter()
            .filter_map(|t| tri(&c.vertices, *t))
            .collect();
        out.push((c.id, GreyboxKind::Sector, tris));
    }
    for a in &level.aabbs {
        let b = a.aabb();
        let obb = Obb::new((b.min + b.max) * 0.5, (b.max - b.min) * 0.5, Mat3::IDENTITY);
        out.push((a.id, GreyboxKind::Aabb, box_triangles(&obb)));
    }
    for o in &level.obbs {
        out.push((o.id, GreyboxKind::Obb, box_triangles(&o.obb())));
    }
    for c in &level.cylinders {
        out.push((
            c.id,
            GreyboxKind::Cylinder,
            cylinder_triangles(&c.cylinder()),
        ));
    }
    for t in &level.triangles {
        let s = t.triangle();
        out.push((t.id, GreyboxKind::Triangle, vec![[s.a, s.b, s.c]]));
    }
    for m in &level.meshes {
        let tris = m
            .indices
            .iter()
            .filter_map(|t| tri(&m.vertices, *t))
            .collect();
        out.push((m.id, GreyboxKind::Mesh, tris));
    }
    for w in &level.walls {
        let height = w.height.unwrap_or(level.default_wall_height);
        out.push((w.id, GreyboxKind::Wall, wall_triangles(w.wall(), height)));
    }
    out.retain(|(_, _, tris)| !tris.is_empty() && tris.iter().flatten().all(|v| v.is_finite()));
    let ys = out
        .iter()
        .flat_map(|(_, _, t)| t.iter().flatten().map(|v| v.y));
    let (low, high) = ys.fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), y| {
        (l.min(y), h.max(y))
    });
    out.into_iter()
        .map(|(object, kind, tris)| flat_mesh(object, kind, &tris, low, high))
        .collect()
}

/// Triangle `t` of a vertex list, `None` when an index is out of range.
fn tri(vertices: &[Vec3], t: [u32; 3]) -> Option<[Vec3; 3]> {
    Some([
        *vertices.get(t[0] as usize)?,
        *vertices.get(t[1] as usize)?,
        *vertices.get(t[2] as usize)?,
    ])
}

/// Flat-shaded vertex data: three vertices per triangle, the face normal on each, colours by height.
fn flat_mesh(
    object: ObjectId,
    kind: GreyboxKind,
    tris: &[[Vec3; 3]],
    low: f32,
    high: f32,
) -> GreyboxMeshData {
    let n = tris.len() * 3;
    let mut m = GreyboxMeshData {
        object,
        kind,
        positions: Vec::with_capacity(n),
        normals: Vec::with_capacity(n),
        colors: Vec::with_capacity(n),
        indices: (0..n as u32).collect(),
    };
    for t in tris {
        // A zero-area triangle has no normal: up is as good as any (it covers no pixels).
        let normal = (t[1] - t[0])
            .cross(t[2] - t[0])
            .try_normalize()
            .unwrap_or(Vec3::Y);
        for v in t {
            m.positions.push(v.to_array());
            m.normals.push(normal.to_array());
            m.colors.push(height_color(v.y, low, high));
        }
    }
    m
}

/// The twelve triangles of a box, wound counter-clockwise seen from outside.
fn box_triangles(b: &Obb) -> Vec<[Vec3; 3]> {
    let corner =
        |x: f32, y: f32, z: f32| b.center + b.rotation * (Vec3::new(x, y, z) * b.half_extents);
    // Each face: its outward axis's sign and the four corners counter-clockwise seen from outside.
    let faces: [[(f32, f32, f32); 4]; 6] = [
        [(1., -1., -1.), (1., 1., -1.), (1., 1., 1.), (1., -1., 1.)],
        [
            (-1., -1., -1.),
            (-1., -1., 1.),
            (-1., 1., 1.),
            (-1., 1., -1.),
        ],
        [(-1., 1., -1.), (-1., 1., 1.), (1., 1., 1.), (1., 1., -1.)],
        [
            (-1., -1., -1.),
            (1., -1., -1.),
            (1., -1., 1.),
            (-1., -1., 1.),
        ],
        [(-1., -1., 1.), (1., -1., 1.), (1., 1., 1.), (-1., 1., 1.)],
        [
            (-1., -1., -1.),
            (-1., 1., -1.),
            (1., 1., -1.),
            (1., -1., -1.),
        ],
    ];
    let mut out = Vec::with_capacity(12);
    for f in faces {
        let [a, b, c, d] = f.map(|(x, y, z)| corner(x, y, z));
        out.push([a, b, c]);
        out.push([a, c, d]);
    }
    out
}

/// A capped cylinder as [`CYLINDER_SEGMENTS`] side quads and two fans.
fn cylinder_triangles(c: &Cylinder) -> Vec<[Vec3; 3]> {
    let axis = c.b - c.a;
    let Some(dir) = axis.try_normalize() else {
        return Vec::new();
    };
    let (u, v) = dir.any_orthonormal_pair();
    let ring = |k: usize| {
        let angle = k as f32 / CYLINDER_SEGMENTS as f32 * std::f32::consts::TAU;
        (u * angle.cos() + v * angle.sin()) * c.radius
    };
    let mut out = Vec::with_capacity(CYLINDER_SEGMENTS * 4);
    for k in 0..CYLINDER_SEGMENTS {
        let (p, q) = (ring(k), ring(k + 1));
        out.push([c.a + p, c.a + q, c.b + q]);
        out.push([c.a + p, c.b + q, c.b + p]);
        out.push([c.b, c.b + p, c.b + q]);
        out.push([c.a, c.a + q, c.a + p]);
    }
    out
}

/// A wall as a box along its segment, `2 · radius` thick and reaching `radius` past each end, from the floor
/// to `height`.
fn wall_triangles(w: collidoscope::shape::Wall, height: f32) -> Vec<[Vec3; 3]> {
    let d = w.b - w.a;
    let len = d.length();
    let along = if len > 1e-6 {
        Vec3::new(d.x, 0.0, d.y) / len
    } else {
        Vec3::X
    };
    let across = along.cross(Vec3::Y);
    let mid = (w.a + w.b) * 0.5;
    let b = Obb::new(
        Vec3::new(mid.x, height * 0.5, mid.y),
        Vec3::new(len * 0.5 + w.radius, height * 0.5, w.radius),
        Mat3::from_cols(along, Vec3::Y, across),
    );
    if height > 0.0 {
        box_triangles(&b)
    } else {
        Vec::new()
    }
}

#[cfg(feature = "greybox")]
pub use spawn::{Greybox, GreyboxPlugin};

/// Spawning the meshes (the `greybox` feature: Bevy's renderer and PBR materials).
#[cfg(feature = "greybox")]
mod spawn {
    use bevy::asset::RenderAssetUsages;
    use bevy::mesh::{Indices, PrimitiveTopology};
    use bevy::prelude::*;

    use super::greybox_meshes;
    use crate::{CollidoscopeSystems, LevelAsset, LevelRoot, LevelSpawned, ObjectId};

    /// A greybox mesh entity: a child of its [`LevelRoot`], replaced when the level reloads.
    #[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Greybox {
        /// The level object it shows.
        pub object: ObjectId,
    }

    /// Spawns greybox meshes for every level root's static objects (add it beside `CollidoscopePlugin` and
    /// Bevy's rendering plugins): one mesh per object, one double-sided material whose vertex colours
    /// shade by height.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct GreyboxPlugin;

    impl Plugin for GreyboxPlugin {
        fn build(&self, app: &mut App) {
            app.add_systems(
                PreUpdate,
                spawn_greybox.after(CollidoscopeSystems::SpawnLevels),
            );
        }
    }

    /// On each level (re)spawn: despawn the root's greybox children, spawn the new level's.
    // A Bevy system's parameters are its queries and resources: grouping them would only hide them.
    #[allow(clippy::too_many_arguments)]
    fn spawn_greybox(
        mut spawned: MessageReader<LevelSpawned>,
        roots: Query<(&LevelRoot, Option<&Children>)>,
        old: Query<(), With<Greybox>>,
        levels: Res<Assets<LevelAsset>>,
        mut meshes: ResMut<Assets<Mesh>>,
        mut materials: ResMut<Assets<StandardMaterial>>,
        mut material: Local<Option<Handle<StandardMaterial>>>,
        mut commands: Commands,
    ) {
        for message in spawned.read() {
            let Ok((root, children)) = roots.get(message.root) else {
                continue;
            };
            for &child in children.into_iter().flatten() {
                if old.contains(child) {
                    commands.entity(child).try_despawn();
                }
            }
            let Some(level) = levels.get(&root.0) else {
                continue;
            };
            let material = material
                .get_or_insert_with(|| {
                    materials.add(StandardMaterial {
                        base_color: Color::WHITE,
                        perceptual_roughness: 0.9,
                        double_sided: true,
                        cull_mode: None,
                        ..default()
                    })
                })
                .clone();
            for data in greybox_meshes(level.level()) {
                let mut mesh = Mesh::new(
                    PrimitiveTopology::TriangleList,
                    RenderAssetUsages::default(),
                );
                mesh.insert_attribute(Mesh::ATTRIBUTE_POSITION, data.positions);
                mesh.insert_attribute(Mesh::ATTRIBUTE_NORMAL, data.normals);
                mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, data.colors);
                mesh.insert_indices(Indices::U32(data.indices));
                commands.spawn((
                    Greybox {
                        object: data.object,
                    },
                    Mesh3d(meshes.add(mesh)),
                    MeshMaterial3d(material.clone()),
                    Transform::default(),
                    ChildOf(message.root),
                ));
            }
        }
    }
}
