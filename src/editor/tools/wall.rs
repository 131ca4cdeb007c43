//! The Wall tool's chains: welding, crossings and splits.

use egui::Pos2;
use glam::{Vec2, Vec3};

use super::{Pointer, Tool, ToolCtx, Tools};
use crate::editor::document::{Edit, LabelledEdit, Object, count_noun};
use crate::editor::draw::plane::{closest_on_segment, segments_cross};
use crate::level::{ObjectId, TriangleObject, WallObject};

/// Where a newly drawn wall meets an existing one.
#[derive(Clone, Debug)]
pub(crate) struct Crossing {
    pub(crate) wall: ObjectId,
    pub(crate) point: Vec2,
}

impl Tools {
    /// Finish the wall chain: commit it, or ask first when it crosses existing walls.
    pub(crate) fn finish_chain(&mut self, cx: &mut ToolCtx<'_>) {
        if self.tool == Tool::Trigger {
            self.finish_trigger(cx);
            return;
        }
        if self.tool == Tool::Sector {
            self.finish_sector(cx);
            return;
        }
        if self.tool == Tool::Mover {
            self.finish_mover(cx);
            return;
        }
        if self.tool == Tool::Build {
            cx.out
                .commands
                .push(crate::editor::command::Command::BuildSelected);
            return;
        }
        let pts = std::mem::take(&mut self.chain);
        let walls: Vec<(Vec2, Vec2)> = pts
            .windows(2)
            .filter(|w| w[0] != w[1])
            .map(|w| (w[0], w[1]))
            .collect();
        if walls.is_empty() {
            return;
        }
        let crossings = crossings(cx.doc, &walls);
        if crossings.is_empty() {
            add_walls(cx, walls, &[]);
        } else {
            cx.out.split = Some((walls, crossings));
        }
    }

    /// Wall tool: clicks add chain vertices (welded or snapped); a double click ends the chain.
    pub(crate) fn wall_pointer(
        &mut self,
        cx: &mut ToolCtx<'_>,
        resp: &egui::Response,
        pt: Pointer,
    ) {
        let Pointer { press, shift, .. } = pt;
        let world = |p: Pos2| pt.world(p);
        if resp.double_clicked() {
            self.finish_chain(cx);
        } else if resp.clicked()
            && let Some(p) = press
        {
            let (v, _) = self.snap_vertex(cx.doc, pt.cam.scale, world(p), shift);
            if self.chain.last() != Some(&v) {
                self.chain.push(v);
            }
        }
    }

    /// Triangle tool: three clicks make a triangle on the floor.
    pub(crate) fn triangle_pointer(
        &mut self,
        cx: &mut ToolCtx<'_>,
        resp: &egui::Response,
        pt: Pointer,
    ) {
        let Pointer { press, shift, .. } = pt;
        let world = |p: Pos2| pt.world(p);
        if resp.clicked()
            && let Some(p) = press
        {
            let v = self.snapped(world(p), shift);
            if self.chain.last() != Some(&v) {
                self.chain.push(v);
            }
            if self.chain.len() == 3 {
                let pts = std::mem::take(&mut self.chain);
                let at = |v: Vec2| Vec3::new(v.x, 0.0, v.y);
                cx.add_object(
                    "Add triangle",
                    Object::Triangle(TriangleObject {
                        id: ObjectId(0),
                        name: None,
                        a: at(pts[0]),
                        b: at(pts[1]),
                        c: at(pts[2]),
                        properties: Default::default(),
                        one_way: false,
                    }),
                );
            }
        }
    }
}

/// Existing walls the new segments cross, or touch in their interior with a new vertex.
pub(crate) fn crossings(
    doc: &crate::editor::document::Document,
    walls: &[(Vec2, Vec2)],
) -> Vec<Crossing> {
    let mut out = Vec::new();
    let eps = 1e-4;
    for w in &doc.level().walls {
        for &(a, b) in walls {
            if let Some((_, point)) = segments_cross(a, b, w.a, w.b) {
                out.push(Crossing { wall: w.id, point });
            }
            for v in [a, b] {
                let q = closest_on_segment(v, w.a, w.b);
                if q.distance(v) < eps && v.distance(w.a) > eps && v.distance(w.b) > eps {
                    out.push(Crossing {
                        wall: w.id,
                        point: v,
                    });
                }
            }
        }
    }
    out.sort_by(|x, y| {
        (x.wall, x.point.x, x.point.y)
            .partial_cmp(&(y.wall, y.point.x, y.point.y))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    out.dedup_by(|x, y| x.wall == y.wall && x.point.distance(y.point) < eps);
    out
}

/// Add drawn walls; with `split`, existing walls are cut at the crossings and the new ones too.
pub(crate) fn add_walls(cx: &mut ToolCtx<'_>, walls: Vec<(Vec2, Vec2)>, split: &[Crossing]) {
    let radius = cx.doc.level().walls.last().map_or(0.5, |w| w.radius);
    let cut = |a: Vec2, b: Vec2, points: &mut Vec<Vec2>| -> Vec<(Vec2, Vec2)> {
        let d = b - a;
        points.retain(|p| p.distance(a) > 1e-4 && p.distance(b) > 1e-4);
        points.sort_by(|p, q| (*p - a).dot(d).total_cmp(&(*q - a).dot(d)));
        let mut all = vec![a];
        all.extend(points.iter().copied());
        all.push(b);
        all.windows(2).map(|w| (w[0], w[1])).collect()
    };
    let mut new_walls = Vec::new();
    for (a, b) in walls {
        let mut points: Vec<Vec2> = split
            .iter()
            .map(|c| c.point)
            .filter(|p| closest_on_segment(*p, a, b).distance(*p) < 1e-4)
            .collect();
        new_walls.extend(cut(a, b, &mut points));
    }
    let mut edit = Edit::default();
    let mut split_ids: Vec<ObjectId> = split.iter().map(|c| c.wall).collect();
    split_ids.dedup();
    for id in &split_ids {
        let Some(Object::Wall(w)) = cx.doc.object(*id) else {
            continue;
        };
        let mut points: Vec<Vec2> = split
            .iter()
            .filter(|c| c.wall == *id)
            .map(|c| c.point)
            .collect();
        let pieces = cut(w.a, w.b, &mut points);
        edit.remove.push(*id);
        for (k, (a, b)) in pieces.into_iter().enumerate() {
            edit.add.push(Object::Wall(WallObject {
                id: if k == 0 { w.id } else { ObjectId(0) },
                name: w.name.clone(),
                a,
                b,
                radius: w.radius,
                height: w.height,
                properties: Default::default(),
            }));
        }
    }
    let n = new_walls.len();
    for (a, b) in new_walls {
        edit.add.push(Object::Wall(WallObject {
            id: ObjectId(0),
            name: None,
            a,
            b,
            radius,
            height: None,
            properties: Default::default(),
        }));
    }
    let label = if split_ids.is_empty() {
        format!("Draw {}", count_noun(n, "wall"))
    } else {
        format!(
            "Draw {} (splitting {})",
            count_noun(n, "wall"),
            count_noun(split_ids.len(), "wall")
        )
    };
    cx.apply_edit(LabelledEdit::new(label.clone(), edit, None));
    *cx.status = label.to_lowercase();
}
