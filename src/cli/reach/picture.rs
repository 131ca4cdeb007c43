//! The top-down picture of a reachability map (`collidoscope reach --png`): one image of the map's extent,
//! x to the right and z down (as the editor's top-down view), each grid column one square of pixels (or, for
//! a map wider than [`MAX_SIDE`] columns, each pixel a square of columns).
//!
//! A column shows its highest reached place when it has one (green), else its highest place that can be
//! stood on (orange), else nothing (dark): so on a level of several floors, whatever is reached in a column is
//! on top, and an unreachable deck over reached ground shows by its blocker's mark. Both colours are lighter
//! the higher the ground (over the map's range of heights). Over them: the level's objects outlined faintly
//! (walls, boxes, cylinders, triangles, the upward faces of meshes), each unreachable place's blocker as a
//! red mark with a white rim (▲ a step too high, ◢ a slope too steep, ‖ an opening too narrow, = a ceiling too
//! low, ○ a gap), and the walker start as a blue disc.

use std::collections::HashMap;
use std::path::Path;

use collidoscope::character::{Blocker3, ReachMap};
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::Level;

/// The longest side, in pixels, a picture aims for at several pixels a cell.
const TARGET_SIDE: usize = 1200;
/// The most pixels a cell gets.
const MAX_PIXELS_PER_CELL: usize = 12;
/// The longest side, in columns, drawn at one pixel a column or more; wider maps put several columns in a
/// pixel.
const MAX_SIDE: usize = 4096;
/// Meshes with more triangles are outlined by their bounds only.
const MAX_OUTLINED_TRIANGLES: usize = 200_000;

/// Nothing to stand on.
pub(super) const EMPTY: [u8; 3] = [28, 30, 34];
/// Reached ground, lowest and highest.
pub(super) const REACHED: ([u8; 3], [u8; 3]) = ([30, 130, 50], [130, 230, 120]);
/// Ground that can be stood on but is not reached, lowest and highest.
pub(super) const UNREACHED: ([u8; 3], [u8; 3]) = ([205, 95, 20], [255, 190, 90]);
/// Blocker marks.
const MARK: [u8; 3] = [225, 25, 25];
/// The rim around marks.
const RIM: [u8; 3] = [255, 255, 255];
/// The walker start.
const START: [u8; 3] = [40, 110, 255];
/// Object outlines, blended over what is beneath.
const OUTLINE: [u8; 3] = [235, 235, 235];
const OUTLINE_ALPHA: f32 = 0.3;

/// Where the picture lies in the level: pixel `(px, py)` covers `x` from `origin.x + px · metres_per_pixel`
/// and `z` from `origin.y + py · metres_per_pixel`.
#[derive(Clone, Copy, Debug)]
pub(in crate::cli) struct Placement {
    pub(in crate::cli) width: usize,
    pub(in crate::cli) height: usize,
    /// The `(x, z)` of the picture's top-left corner.
    pub(in crate::cli) origin: Vec2,
    pub(in crate::cli) metres_per_pixel: f32,
}

/// An RGB image being drawn.
struct Canvas {
    place: Placement,
    rgb: Vec<u8>,
}

impl Canvas {
    fn set(&mut self, x: i64, y: i64, c: [u8; 3]) {
        if x >= 0 && y >= 0 && (x as usize) < self.place.width && (y as usize) < self.place.height {
            let i = (y as usize * self.place.width + x as usize) * 3;
            self.rgb[i..i + 3].copy_from_slice(&c);
        }
    }

    fn blend(&mut self, x: i64, y: i64, c: [u8; 3], alpha: f32) {
        if x >= 0 && y >= 0 && (x as usize) < self.place.width && (y as usize) < self.place.height {
            let i = (y as usize * self.place.width + x as usize) * 3;
            for (under, over) in self.rgb[i..i + 3].iter_mut().zip(c) {
                let u = f32::from(*under);
                *under = (u + (f32::from(over) - u) * alpha).round() as u8;
            }
        }
    }

    /// The pixel (fractional) of a floor point.
    fn pixel(&self, x: f32, z: f32) -> Vec2 {
        (Vec2::new(x, z) - self.place.origin) / self.place.metres_per_pixel
    }

    /// A faint line between two floor points.
    fn outline(&mut self, a: Vec2, b: Vec2) {
        let (pa, pb) = (self.pixel(a.x, a.y), self.pixel(b.x, b.y));
        let steps = (pb - pa).abs().max_element().ceil().clamp(1.0, 1e5) as usize;
        let mut last = (i64::MIN, i64::MIN);
        for s in 0..=steps {
            let p = pa + (pb - pa) * (s as f32 / steps as f32);
            let q = (p.x.floor() as i64, p.y.floor() as i64);
            if q != last {
                self.blend(q.0, q.1, OUTLINE, OUTLINE_ALPHA);
                last = q;
            }
        }
    }

    /// A filled disc of `r` pixels about `c`.
    fn disc(&mut self, c: Vec2, r: f32, colour: [u8; 3]) {
        let n = r.ceil() as i64 + 1;
        let (cx, cy) = (c.x.floor() as i64, c.y.floor() as i64);
        for dy in -n..=n {
            for dx in -n..=n {
                let d = Vec2::new((cx + dx) as f32 + 0.5, (cy + dy) as f32 + 0.5) - c;
                if d.length() <= r {
                    self.set(cx + dx, cy + dy, colour);
                }
            }
        }
    }

    /// The pixels within `r` of the segment `a`–`b`.
    fn thick(&mut self, a: Vec2, b: Vec2, r: f32, colour: [u8; 3]) {
        let lo = a.min(b) - Vec2::splat(r + 1.0);
        let hi = a.max(b) + Vec2::splat(r + 1.0);
        for y in lo.y.floor() as i64..=hi.y.ceil() as i64 {
            for x in lo.x.floor() as i64..=hi.x.ceil() as i64 {
                let p = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
                let ab = b - a;
                let t = if ab.length_squared() > 0.0 {
                    ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                if (a + ab * t).distance(p) <= r {
                    self.set(x, y, colour);
                }
            }
        }
    }

    /// A filled triangle.
    fn triangle(&mut self, t: [Vec2; 3], colour: [u8; 3]) {
        let lo = t[0].min(t[1]).min(t[2]);
        let hi = t[0].max(t[1]).max(t[2]);
        let edge = |a: Vec2, b: Vec2, p: Vec2| (b - a).perp_dot(p - a);
        let area = edge(t[0], t[1], t[2]);
        if area == 0.0 {
            return;
        }
        for y in lo.y.floor() as i64..=hi.y.ceil() as i64 {
            for x in lo.x.floor() as i64..=hi.x.ceil() as i64 {
                let p = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
                let w = [
                    edge(t[1], t[2], p) / area,
                    edge(t[2], t[0], p) / area,
                    edge(t[0], t[1], p) / area,
                ];
                if w.iter().all(|&w| w >= 0.0) {
                    self.set(x, y, colour);
                }
            }
        }
    }
}

/// The placement of the picture of a map with this extent.
fn placement(min: Vec2, cell: f32, nx: usize, nz: usize) -> Placement {
    let side = nx.max(nz).max(1);
    let (width, height, metres_per_pixel) = if side <= MAX_SIDE {
        let s = (TARGET_SIDE / side).clamp(1, MAX_PIXELS_PER_CELL);
        (nx * s, nz * s, cell / s as f32)
    } else {
        let k = side.div_ceil(MAX_SIDE);
        (nx.div_ceil(k), nz.div_ceil(k), cell * k as f32)
    };
    Placement {
        width: width.max(1),
        height: height.max(1),
        origin: min,
        metres_per_pixel,
    }
}

fn mix(c: ([u8; 3], [u8; 3]), t: f32) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0);
    let mut out = [0u8; 3];
    for ((o, lo), hi) in out.iter_mut().zip(c.0).zip(c.1) {
        *o = (f32::from(lo) + (f32::from(hi) - f32::from(lo)) * t).round() as u8;
    }
    out
}

/// Draw the map (see the module) and write it to `path` as a PNG (atomically).
pub(super) fn write(map: &ReachMap, level: &Level, path: &Path) -> Result<Placement, String> {
    let canvas = draw(map, level).ok_or("the map is empty")?;
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(
            &mut bytes,
            canvas.place.width as u32,
            canvas.place.height as u32,
        );
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(|e| e.to_string())?;
        w.write_image_data(&canvas.rgb).map_err(|e| e.to_string())?;
        w.finish().map_err(|e| e.to_string())?;
    }
    collidoscope::level::atomic_write(path, &bytes).map_err(|e| e.to_string())?;
    Ok(canvas.place)
}

fn draw(map: &ReachMap, level: &Level) -> Option<Canvas> {
    let grid = map.grid()?;
    let (min, cell, nx, nz) = (grid.origin, grid.cell, grid.nx, grid.nz);
    let place = placement(min, cell, nx, nz);
    // Per column (the map's own): the highest reached ground and the highest ground that can be stood on.
    let mut reached = vec![f32::NEG_INFINITY; nx * nz];
    let mut standable = vec![f32::NEG_INFINITY; nx * nz];
    let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
    for ((i, k), places) in map.columns() {
        let c = k * nx + i;
        for p in places {
            let y = p.feet.y;
            standable[c] = standable[c].max(y);
            if p.reached {
                reached[c] = reached[c].max(y);
            }
            lo = lo.min(y);
            hi = hi.max(y);
        }
    }
    let shade = |y: f32| if hi > lo { (y - lo) / (hi - lo) } else { 0.0 };
    let mut canvas = Canvas {
        place,
        rgb: vec![0; place.width * place.height * 3],
    };
    // Each pixel: its column, or the best of the columns it covers (reached over standable over nothing).
    let per_pixel = (place.metres_per_pixel / cell).round().max(1.0) as usize;
    let per_cell = (cell / place.metres_per_pixel).round().max(1.0) as usize;
    for py in 0..place.height {
        for px in 0..place.width {
            let (i0, k0) = if per_pixel > 1 {
                (px * per_pixel, py * per_pixel)
            } else {
                (px / per_cell, py / per_cell)
            };
            let (mut r, mut s) = (f32::NEG_INFINITY, f32::NEG_INFINITY);
            for k in k0..(k0 + per_pixel).min(nz) {
                for i in i0..(i0 + per_pixel).min(nx) {
                    r = r.max(reached[k * nx + i]);
                    s = s.max(standable[k * nx + i]);
                }
            }
            let colour = if r > f32::NEG_INFINITY {
                mix(REACHED, shade(r))
            } else if s > f32::NEG_INFINITY {
                mix(UNREACHED, shade(s))
            } else {
                EMPTY
            };
            canvas.set(px as i64, py as i64, colour);
        }
    }
    outlines(&mut canvas, level);
    // Marks: two and a half cells across, seen whatever the scale (9 to 20 pixels).
    let size = (2.5 * cell / place.metres_per_pixel).clamp(9.0, 20.0);
    for p in map.unreachable_places() {
        mark(&mut canvas, &p.blocker, size);
    }
    if let Some(s) = map.start() {
        let c = canvas.pixel(s.x, s.z);
        canvas.disc(c, size * 0.5 + 1.5, RIM);
        canvas.disc(c, size * 0.5, START);
    }
    Some(canvas)
}

/// The blocker's symbol at its place, red with a white rim.
fn mark(canvas: &mut Canvas, b: &Blocker3, size: f32) {
    let at = b.at();
    let c = canvas.pixel(at.x, at.z);
    let h = size * 0.5;
    // Each symbol drawn twice: grown in white, then in red.
    for (grow, colour) in [(1.5f32, RIM), (0.0, MARK)] {
        match b {
            Blocker3::StepTooHigh { .. } => {
                let g = grow * 1.8;
                canvas.triangle(
                    [
                        c + Vec2::new(0.0, -h - g),
                        c + Vec2::new(h + g, h + g * 0.6),
                        c + Vec2::new(-h - g, h + g * 0.6),
                    ],
                    colour,
                );
            }
            Blocker3::SlopeTooSteep { .. } => {
                let g = grow * 1.8;
                canvas.triangle(
                    [
                        c + Vec2::new(h + g, -h - g),
                        c + Vec2::new(h + g, h + g * 0.6),
                        c + Vec2::new(-h - g, h + g * 0.6),
                    ],
                    colour,
                );
            }
            Blocker3::TooNarrow { .. } => {
                for x in [-h * 0.5, h * 0.5] {
                    canvas.thick(
                        c + Vec2::new(x, -h),
                        c + Vec2::new(x, h),
                        size * 0.12 + grow,
                        colour,
                    );
                }
            }
            Blocker3::TooLow { .. } => {
                for y in [-h * 0.45, h * 0.45] {
                    canvas.thick(
                        c + Vec2::new(-h, y),
                        c + Vec2::new(h, y),
                        size * 0.12 + grow,
                        colour,
                    );
                }
            }
            Blocker3::Gap { .. } => {
                // A ring: a disc, then its middle in what was there (white inside the red ring).
                canvas.disc(c, h + grow, colour);
                if grow == 0.0 {
                    canvas.disc(c, h * 0.5, RIM);
                }
            }
        }
    }
}

/// The level's static objects, outlined faintly from above.
fn outlines(canvas: &mut Canvas, level: &Level) {
    let flat = |v: Vec3| Vec2::new(v.x, v.z);
    let poly = |canvas: &mut Canvas, pts: &[Vec2]| {
        for (k, a) in pts.iter().enumerate() {
            canvas.outline(*a, pts[(k + 1) % pts.len()]);
        }
    };
    for w in &level.walls {
        canvas.outline(w.a, w.b);
    }
    for b in &level.aabbs {
        let (a, c) = (flat(b.min), flat(b.max));
        poly(canvas, &[a, Vec2::new(c.x, a.y), c, Vec2::new(a.x, c.y)]);
    }
    for o in &level.obbs {
        let r = o.rotation();
        let h = o.half_extents;
        let mut corners = Vec::with_capacity(8);
        for sx in [-1.0, 1.0] {
            for sy in [-1.0, 1.0] {
                for sz in [-1.0, 1.0] {
                    corners.push(flat(o.center + r * Vec3::new(sx * h.x, sy * h.y, sz * h.z)));
                }
            }
        }
        poly(canvas, &hull(corners));
    }
    for c in &level.cylinders {
        // The two caps' rims, and their hull.
        let axis = (c.b - c.a).normalize_or_zero();
        let u = axis.any_orthonormal_vector();
        let v = axis.cross(u);
        let mut pts = Vec::with_capacity(48);
        for end in [c.a, c.b] {
            for k in 0..24 {
                let t = k as f32 / 24.0 * std::f32::consts::TAU;
                pts.push(flat(end + (u * t.cos() + v * t.sin()) * c.radius));
            }
        }
        poly(canvas, &hull(pts));
    }
    for t in &level.triangles {
        poly(canvas, &[flat(t.a), flat(t.b), flat(t.c)]);
    }
    for m in &level.meshes {
        mesh_outline(canvas, &m.vertices, &m.indices);
    }
}

/// A mesh's upward faces' border (edges of one upward triangle only), or its bounds for a very large mesh.
fn mesh_outline(canvas: &mut Canvas, vertices: &[Vec3], indices: &[[u32; 3]]) {
    let at = |i: u32| vertices.get(i as usize).copied();
    if indices.len() > MAX_OUTLINED_TRIANGLES {
        let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        for v in vertices {
            lo = lo.min(Vec2::new(v.x, v.z));
            hi = hi.max(Vec2::new(v.x, v.z));
        }
        if lo.x <= hi.x {
            for (a, b) in [
                (lo, Vec2::new(hi.x, lo.y)),
                (Vec2::new(hi.x, lo.y), hi),
                (hi, Vec2::new(lo.x, hi.y)),
                (Vec2::new(lo.x, hi.y), lo),
            ] {
                canvas.outline(a, b);
            }
        }
        return;
    }
    let mut edges: HashMap<(u32, u32), u32> = HashMap::new();
    for t in indices {
        let (Some(a), Some(b), Some(c)) = (at(t[0]), at(t[1]), at(t[2])) else {
            continue;
        };
        if (b - a).cross(c - a).normalize_or_zero().y <= 0.1 {
            continue;
        }
        for (p, q) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            *edges.entry((p.min(q), p.max(q))).or_default() += 1;
        }
    }
    let mut border: Vec<&(u32, u32)> = edges
        .iter()
        .filter(|(_, n)| **n == 1)
        .map(|(e, _)| e)
        .collect();
    border.sort_unstable();
    for &(p, q) in border {
        if let (Some(a), Some(b)) = (at(p), at(q)) {
            canvas.outline(Vec2::new(a.x, a.z), Vec2::new(b.x, b.z));
        }
    }
}

/// The convex hull of points (Andrew's monotone chain), counter-clockwise.
fn hull(mut pts: Vec<Vec2>) -> Vec<Vec2> {
    pts.retain(|p| p.is_finite());
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut out: Vec<Vec2> = Vec::with_capacity(pts.len() * 2);
    for pass in 0..2 {
        let start = out.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in iter {
            while out.len() >= start + 2 && cross(out[out.len() - 2], out[out.len() - 1], p) <= 0.0
            {
                out.pop();
            }
            out.push(p);
        }
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hull_of_a_square_and_its_middle_is_the_square() {
        let h = hull(vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.5, 0.5),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 1.0),
        ]);
        assert_eq!(h.len(), 4, "{h:?}");
    }

    #[test]
    fn pictures_stay_a_sensible_size() {
        // 40 m by 24 m at 0.25 m: 7 pixels a cell.
        let p = placement(Vec2::ZERO, 0.25, 160, 96);
        assert_eq!((p.width, p.height), (1120, 672));
        // A tiny map is not blown up past 12 pixels a cell.
        let p = placement(Vec2::ZERO, 0.25, 4, 4);
        assert_eq!((p.width, p.height), (48, 48));
        // 2,000 columns: one pixel each.
        let p = placement(Vec2::ZERO, 0.25, 2000, 10);
        assert_eq!((p.width, p.height, p.metres_per_pixel), (2000, 10, 0.25));
        // 10,000 columns: three to a pixel, never more than 4,096 pixels.
        let p = placement(Vec2::ZERO, 0.25, 10_000, 400);
        assert_eq!((p.width, p.height, p.metres_per_pixel), (3334, 134, 0.75));
    }
}
