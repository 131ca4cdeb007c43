//! Drawing the relief (every mesh's and level triangle's edges, shaded by height) and its legend in the
//! top-down view. Edges go low to high, so an upper floor draws over the one below it; an edge shorter than
//! [`MERGE_PX`] becomes one dot per [`MERGE_PX`] cell (the highest edge in the cell gives its colour), so a
//! 100,000-triangle mesh seen whole costs at most one dot per cell of the view, not a quad per edge.

use egui::{Align2, Color32, FontId, Painter, Pos2, Rect};
use glam::Vec2;

use super::relief::{BANDS, HeightRange, Relief, ramp};
use super::{Batch, Camera, trim_number};

/// Below this length on screen (points) an edge is merged into its cell's dot.
pub const MERGE_PX: f32 = 3.0;
/// Width of a relief edge, points.
const EDGE_WIDTH: f32 = 1.0;

fn color(rgb: [u8; 3]) -> Color32 {
    Color32::from_rgb(rgb[0], rgb[1], rgb[2])
}

/// What one edge becomes on screen.
enum Drawn {
    /// A line between these points.
    Line(Pos2, Pos2),
    /// The dot of this cell.
    Dot(usize),
}

/// Draw `relief`'s edges in the view `rect` into `lines`: culled to the view, shaded by height, short ones
/// merged into dots.
pub fn draw(lines: &mut Batch, rect: Rect, cam: &Camera, relief: &Relief) {
    let Some(range) = relief.range else {
        return;
    };
    let cols = (rect.width() / MERGE_PX).ceil().max(1.0) as usize;
    let rows = (rect.height() / MERGE_PX).ceil().max(1.0) as usize;
    let mut taken = vec![false; cols * rows];
    let view = rect.expand(EDGE_WIDTH);
    // High to low, so a cell's dot takes the highest edge's colour; drawn low to high afterwards.
    let mut kept: Vec<Vec<(u32, Drawn)>> = (0..BANDS).map(|_| Vec::new()).collect();
    for k in (0..BANDS).rev() {
        for (i, e) in relief.band(k).iter().enumerate() {
            let sa = cam.screen_from_world(rect, Vec2::new(e.a.x, e.a.z));
            let sb = cam.screen_from_world(rect, Vec2::new(e.b.x, e.b.z));
            if !Rect::from_two_pos(sa, sb).intersects(view) {
                continue;
            }
            let index = relief.starts[k] + i as u32;
            if (sb - sa).length_sq() >= MERGE_PX * MERGE_PX {
                kept[k].push((index, Drawn::Line(sa, sb)));
                continue;
            }
            let m = sa.lerp(sb, 0.5) - rect.min;
            if !(m.x >= 0.0 && m.y >= 0.0) {
                continue;
            }
            let (cx, cy) = ((m.x / MERGE_PX) as usize, (m.y / MERGE_PX) as usize);
            if cx < cols && cy < rows && !taken[cy * cols + cx] {
                taken[cy * cols + cx] = true;
                kept[k].push((index, Drawn::Dot(cy * cols + cx)));
            }
        }
    }
    for band in kept {
        for (index, drawn) in band {
            let e = relief.edges[index as usize];
            match drawn {
                Drawn::Line(sa, sb) => {
                    // A sloping edge in pieces, so its colours follow the ramp's stops (blue to red straight
                    // would pass through grey).
                    let (fa, fb) = (range.fraction(e.a.y), range.fraction(e.b.y));
                    let n = ((fa - fb).abs() * 8.0).ceil().clamp(1.0, 8.0) as usize;
                    for k in 0..n {
                        let (t0, t1) = (k as f32 / n as f32, (k + 1) as f32 / n as f32);
                        lines.line2(
                            sa.lerp(sb, t0),
                            sa.lerp(sb, t1),
                            EDGE_WIDTH,
                            color(ramp(fa + (fb - fa) * t0)),
                            color(ramp(fa + (fb - fa) * t1)),
                        );
                    }
                }
                Drawn::Dot(cell) => {
                    let at = rect.min
                        + egui::vec2((cell % cols) as f32, (cell / cols) as f32) * MERGE_PX;
                    let c = color(range.color(e.top()));
                    let y = at.y + MERGE_PX * 0.5;
                    lines.line(
                        Pos2::new(at.x, y),
                        Pos2::new(at.x + MERGE_PX, y),
                        MERGE_PX,
                        c,
                    );
                }
            }
        }
    }
}

/// The legend of the heights in the view's lower right corner: the ramp from the lowest height to the
/// highest, and the height of the surface under the pointer when there is one.
pub fn legend(painter: &Painter, rect: Rect, range: HeightRange, under: Option<f32>, dark: bool) {
    let text_c = if dark {
        Color32::from_gray(190)
    } else {
        Color32::from_gray(60)
    };
    let font = FontId::monospace(10.0);
    let (w, h) = (120.0, 8.0);
    let right = rect.right() - 12.0;
    let y = rect.bottom() - 30.0;
    let left = right - w;
    let mut bar = Batch::default();
    let steps = 12;
    for i in 0..steps {
        let (t0, t1) = (i as f32 / steps as f32, (i + 1) as f32 / steps as f32);
        bar.line2(
            Pos2::new(left + w * t0, y),
            Pos2::new(left + w * t1, y),
            h,
            color(ramp(t0)),
            color(ramp(t1)),
        );
    }
    painter.add(bar.finish());
    let metres = |v: f32| format!("{} m", trim_number((v * 100.0).round() / 100.0));
    painter.text(
        Pos2::new(left - 4.0, y),
        Align2::RIGHT_CENTER,
        metres(range.low),
        font.clone(),
        text_c,
    );
    painter.text(
        Pos2::new(right, y - h),
        Align2::RIGHT_BOTTOM,
        metres(range.high),
        font.clone(),
        text_c,
    );
    let caption = match under {
        Some(v) => {
            // A tick on the ramp where the surface under the pointer is.
            let x = left + w * range.fraction(v);
            painter.line_segment(
                [Pos2::new(x, y - h), Pos2::new(x, y + h)],
                egui::Stroke::new(2.0, text_c),
            );
            format!("height {} (under the pointer)", metres(v))
        }
        None => "height".to_owned(),
    };
    painter.text(
        Pos2::new(left - 4.0, y - h),
        Align2::RIGHT_BOTTOM,
        caption,
        font,
        text_c,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::view2d::relief::Edge;
    use glam::Vec3;

    fn edge(a: (f32, f32), b: (f32, f32), y: f32) -> Edge {
        Edge {
            a: Vec3::new(a.0, y, a.1),
            b: Vec3::new(b.0, y, b.1),
        }
    }

    #[test]
    fn short_edges_merge_into_one_dot_per_cell_and_long_ones_stay_lines() {
        let rect = Rect::from_min_size(Pos2::ZERO, egui::vec2(300.0, 300.0));
        let cam = Camera {
            center: Vec2::ZERO,
            scale: 10.0,
        };
        // Ten long edges (2 m = 20 points), and a thousand 0.01 m edges inside one 0.3 m cell; one edge off
        // screen.
        let mut edges: Vec<Edge> = (0..10)
            .map(|i| edge((i as f32, 0.0), (i as f32, 2.0), i as f32))
            .collect();
        edges.extend((0..1000).map(|i| edge((5.01, 5.01), (5.02, 5.02), i as f32 * 1e-3)));
        edges.push(edge((100.0, 100.0), (101.0, 101.0), 1.0));
        let relief = Relief::new(&[&edges]);
        let mut b = Batch::default();
        draw(&mut b, rect, &cam, &relief);
        assert_eq!(b.vertices(), 4 * (10 + 1));
        // Zoomed out a thousand times, the long ones merge too.
        let far = Camera { scale: 0.01, ..cam };
        let mut b = Batch::default();
        draw(&mut b, rect, &far, &relief);
        assert_eq!(b.vertices(), 4);
        // A ramp's edge from the lowest height to the highest: in eight pieces along the ramp's colours.
        let slope = [
            edge((0.0, 0.0), (0.0, 0.0), 0.0),
            Edge {
                a: Vec3::new(-5.0, 0.0, 0.0),
                b: Vec3::new(5.0, 2.0, 0.0),
            },
        ];
        let mut b = Batch::default();
        draw(&mut b, rect, &cam, &Relief::new(&[&slope]));
        assert_eq!(b.vertices(), 4 * 8 + 4);
    }
}
