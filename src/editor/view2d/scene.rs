//! The drawn scene of the top-down view: each object's floor footprint, label and bounds, rebuilt when the
//! document changes (keyed by [`DocKey`]); picking and framing read it.

use glam::{Vec2, Vec3};

use std::collections::BTreeSet;

use crate::editor::document::{DocKey, Document, Kind, Object};
use crate::editor::view2d::Extras;
use crate::editor::view2d::footprint::Footprint;
use crate::level::{Level, MeshObject, ObjectId, WalkerStart};

/// Pointer distance, in screen points, within which an object counts as under the pointer.
const PICK_PX: f32 = 6.0;

/// A drawn object, precomputed for drawing and picking; rebuilt when the document changes.
pub(crate) struct Entry {
    pub(crate) id: ObjectId,
    pub(crate) label: String,
    pub(crate) kind: Kind,
    pub(crate) fp: Footprint,
    pub(crate) bounds: Option<(Vec2, Vec2)>,
    pub(crate) extras: Extras,
}

#[derive(Default)]
pub(crate) struct Scene {
    pub(crate) key: Option<DocKey>,
    pub(crate) entries: Vec<Entry>,
    /// Mesh hulls by id with the key they were computed for (vertex count, first and last vertex).
    pub(crate) hulls: Vec<(ObjectId, (usize, Vec3, Vec3), Footprint)>,
}

impl Scene {
    /// Rebuild the entries when the document changed (meshes keep their hull while their vertices do).
    pub(crate) fn refresh(&mut self, doc: &Document) {
        if self.key == Some(doc.key()) {
            return;
        }
        let level = doc.level();
        let mut entries = Vec::with_capacity(level.walls.len() + level.balls.len() + 16);
        for &kind in Kind::ALL {
            if kind == Kind::Mesh {
                continue;
            }
            for i in 0..kind.count(level) {
                let Some(o) = Object::get(level, kind, i) else {
                    continue;
                };
                let extras = match &o {
                    Object::Ball(b) => Extras {
                        velocity: Some(Vec2::new(b.velocity.x, b.velocity.z)),
                        ..Extras::default()
                    },
                    Object::Triangle(t) => {
                        let n = (t.b - t.a).cross(t.c - t.a).normalize_or_zero();
                        Extras {
                            normal: Some((Vec2::new(n.x, n.z), n.y)),
                            ..Extras::default()
                        }
                    }
                    _ => Extras::default(),
                };
                let fp = Footprint::of(&o);
                entries.push(Entry {
                    id: o.id(),
                    label: o.label(),
                    kind,
                    bounds: fp.bounds(),
                    fp,
                    extras,
                });
            }
        }
        let mut hulls = Vec::new();
        for m in &level.meshes {
            let key = (
                m.vertices.len(),
                m.vertices.first().copied().unwrap_or_default(),
                m.vertices.last().copied().unwrap_or_default(),
            );
            let fp = self
                .hulls
                .iter()
                .find(|(id, k, _)| *id == m.id && *k == key)
                .map(|(_, _, fp)| fp.clone())
                .unwrap_or_else(|| Footprint::of(&Object::Mesh(mesh_outline(m))));
            entries.push(Entry {
                id: m.id,
                label: match &m.name {
                    Some(n) => format!("mesh {} \"{n}\"", m.id),
                    None => format!("mesh {}", m.id),
                },
                kind: Kind::Mesh,
                bounds: fp.bounds(),
                fp: fp.clone(),
                extras: Extras::default(),
            });
            hulls.push((m.id, key, fp));
        }
        *self = Scene {
            key: Some(doc.key()),
            entries,
            hulls,
        };
    }

    /// Bounds of every object and the walker.
    pub(crate) fn level_bounds(&self, level: &Level) -> Option<(Vec2, Vec2)> {
        let mut acc: Option<(Vec2, Vec2)> = None;
        let mut add = |b: (Vec2, Vec2)| {
            acc = Some(match acc {
                Some((lo, hi)) => (lo.min(b.0), hi.max(b.1)),
                None => b,
            });
        };
        for e in &self.entries {
            if let Some(b) = e.bounds {
                add(b);
            }
        }
        if let Some(w) = &level.walker {
            add((
                w.position - Vec2::splat(w.radius),
                w.position + Vec2::splat(w.radius),
            ));
        }
        acc
    }

    /// Bounds of the selected objects.
    pub(crate) fn selection_bounds(&self, selection: &BTreeSet<ObjectId>) -> Option<(Vec2, Vec2)> {
        let mut acc: Option<(Vec2, Vec2)> = None;
        for e in &self.entries {
            if selection.contains(&e.id)
                && let Some(b) = e.bounds
            {
                acc = Some(match acc {
                    Some((lo, hi)) => (lo.min(b.0), hi.max(b.1)),
                    None => b,
                });
            }
        }
        acc
    }

    /// The object (or walker, as `None` inside `Some`) under world point `p`.
    /// The object (or the walker, as `None` inside `Some`) under world point `p`, seen at `scale` pixels
    /// per metre.
    pub(crate) fn pick(
        &self,
        p: Vec2,
        scale: f32,
        walker: Option<&WalkerStart>,
    ) -> Option<Option<ObjectId>> {
        let tol = PICK_PX / scale;
        let mut best: Option<(f32, f32, Option<ObjectId>)> = None;
        let mut consider = |d: f32, area: f32, id: Option<ObjectId>| {
            if d <= tol && best.is_none_or(|(bd, ba, _)| (d, area) < (bd, ba)) {
                best = Some((d, area, id));
            }
        };
        for e in &self.entries {
            if let Some((lo, hi)) = e.bounds
                && (p.x < lo.x - tol || p.y < lo.y - tol || p.x > hi.x + tol || p.y > hi.y + tol)
            {
                continue;
            }
            if let Some(d) = e.fp.distance(p) {
                let area = e
                    .bounds
                    .map_or(f32::INFINITY, |(lo, hi)| (hi - lo).x * (hi - lo).y);
                consider(d, area, Some(e.id));
            }
        }
        if let Some(w) = walker {
            let r = w.radius.max(5.0 / scale);
            consider((p.distance(w.position) - r).max(0.0), r * r * 4.0, None);
        }
        best.map(|b| b.2)
    }
}

/// A mesh without its index list, for its outline (the hull needs the vertices only).
pub(crate) fn mesh_outline(m: &MeshObject) -> MeshObject {
    MeshObject {
        id: m.id,
        name: None,
        obj: None,
        vertices: m.vertices.clone(),
        indices: Vec::new(),
    }
}
