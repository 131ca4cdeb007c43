//! The debugger's overlays, decided once for both views: [`Marks`] lists, in world space, what the current
//! recorded frame shows (simulated balls with their velocities, broadphase bounds, trails and time-of-impact
//! markers, contacts with their normals, flashes, the what-if ghost). It is built once per recorded frame and
//! overlay setting ([`MarksKey`]) and kept; the top-down view ([`Marks::paint_2d`]) and the 3D preview
//! ([`Marks::lines_3d`]) only draw it, each in its own idiom (screen-sized marks from above, world-sized
//! marks in 3D).

use egui::{Color32, Pos2, Rect};
use glam::{Vec2, Vec3};

use super::model::{Debugger, Ghost};
use crate::editor::draw::{Batch, Camera, Lines};
use crate::editor::theme::{self, palette};
use crate::level::ObjectId;
use crate::shape::Aabb;

/// Frames a flash lasts.
pub const FLASH_FRAMES: usize = 12;
/// Frames of trail drawn behind each ball, at most.
const TRAIL_FRAMES: usize = 240;
/// Screen radius (points) up to which a ball is drawn as one filled disc instead of a translucent disc and
/// its outline: balls are never drawn smaller than 2 points, and at that size the outline covers nearly all
/// of the fill.
const TINY_BALL_PX: f32 = 2.0;
/// Trail points drawn in all (shared out among the balls).
const TRAIL_POINTS: usize = 20_000;

/// Which overlays the views draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlays {
    /// Contact points of the current step.
    pub contacts: bool,
    /// Contact normals as arrows.
    pub normals: bool,
    /// Ball velocities.
    pub velocities: bool,
    /// The path each ball took over the last recorded frames, with time-of-impact markers.
    pub trails: bool,
    /// Bounds of the static shapes (what the broadphase sees).
    pub bounds: bool,
    /// A short flash at each contact (seed 004's explosions).
    pub flashes: bool,
    /// Each wall's collision radius as an outline.
    pub wall_radii: bool,
}

pub use crate::editor::command::Overlay;

impl Overlays {
    /// One overlay's switch.
    #[must_use]
    pub fn flag(&self, o: Overlay) -> &bool {
        match o {
            Overlay::Contacts => &self.contacts,
            Overlay::Normals => &self.normals,
            Overlay::Velocities => &self.velocities,
            Overlay::Trails => &self.trails,
            Overlay::Flashes => &self.flashes,
            Overlay::Bounds => &self.bounds,
            Overlay::WallRadii => &self.wall_radii,
        }
    }

    /// One overlay's switch, to flip.
    pub fn flag_mut(&mut self, o: Overlay) -> &mut bool {
        match o {
            Overlay::Contacts => &mut self.contacts,
            Overlay::Normals => &mut self.normals,
            Overlay::Velocities => &mut self.velocities,
            Overlay::Trails => &mut self.trails,
            Overlay::Flashes => &mut self.flashes,
            Overlay::Bounds => &mut self.bounds,
            Overlay::WallRadii => &mut self.wall_radii,
        }
    }
}

impl Default for Overlays {
    fn default() -> Self {
        Self {
            contacts: true,
            normals: true,
            velocities: true,
            trails: true,
            bounds: false,
            flashes: true,
            wall_radii: true,
        }
    }
}

/// A simulated ball at the current frame.
#[derive(Clone, Debug, PartialEq)]
pub struct BallMark {
    /// Centre.
    pub center: Vec3,
    /// Radius.
    pub radius: f32,
    /// Velocity, when the velocity overlay is on and the ball moves.
    pub velocity: Option<Vec3>,
    /// The level object it came from.
    pub id: Option<ObjectId>,
}

/// A contact of the current step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactMark {
    /// Where.
    pub point: Vec3,
    /// The contact normal.
    pub normal: Vec3,
    /// The event chosen in the Events tab.
    pub highlighted: bool,
}

/// A contact of a recent step, fading.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlashMark {
    /// Where.
    pub point: Vec3,
    /// The contact normal.
    pub normal: Vec3,
    /// 1 at the contact's frame, down to 0 after [`FLASH_FRAMES`].
    pub fade: f32,
}

/// What the overlays show at one recorded frame, in world space.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    /// Simulated balls (empty at frame 0: the views show the level's own balls then).
    pub balls: Vec<BallMark>,
    /// Broadphase bounds of the statics.
    pub bounds: Vec<Aabb>,
    /// Each ball's recent path, newest point first.
    pub trails: Paths,
    /// Ball centres at each time of impact along the trails.
    pub toi_markers: Vec<Vec3>,
    /// Contact points (when shown).
    pub contacts: Vec<ContactMark>,
    /// Contact normals (when shown).
    pub normals: Vec<ContactMark>,
    /// Fading flashes.
    pub flashes: Vec<FlashMark>,
    /// The previous run's ball paths after a what-if edit.
    pub ghost_paths: Vec<Vec<Vec3>>,
    /// Balls at the first frame the new run leaves the ghost.
    pub divergences: Vec<Vec3>,
    /// A typical ball radius, for marker sizes in 3D.
    pub ball_radius: f32,
}

/// What [`Marks`] are built from: the recording's frame and length, the toggles, the chosen event and the
/// ghost's state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MarksKey {
    cursor: usize,
    recorded: usize,
    overlays: Overlays,
    highlighted: Option<(usize, usize)>,
    ghost: Option<(usize, Option<usize>)>,
}

impl MarksKey {
    /// The key of the marks for this state of the debugger.
    #[must_use]
    pub fn of(
        d: Option<&Debugger>,
        overlays: Overlays,
        highlighted: Option<(usize, usize)>,
        ghost: Option<&Ghost>,
    ) -> Self {
        Self {
            cursor: d.map_or(0, Debugger::cursor),
            recorded: d.map_or(0, Debugger::recorded),
            overlays,
            highlighted,
            ghost: ghost.map(|g| (g.from, g.diverges_at)),
        }
    }
}

impl Marks {
    /// The marks of the recording's current frame.
    #[must_use]
    pub fn build(
        d: Option<&Debugger>,
        o: Overlays,
        highlighted: Option<(usize, usize)>,
        ghost: Option<&Ghost>,
    ) -> Self {
        let mut m = Marks::default();
        if let Some(g) = ghost {
            m.ghost_paths = g.paths();
            m.divergences = g.divergence_points();
        }
        let Some(d) = d else {
            return m;
        };
        let world = d.world();
        m.ball_radius = world.balls().first().map_or(0.17, |b| b.radius);
        if o.bounds {
            m.bounds = world.statics().iter().filter_map(|s| s.bounds()).collect();
        }
        if d.cursor() == 0 {
            return m;
        }
        let ids = world.ball_object_ids();
        m.balls = world
            .balls()
            .iter()
            .enumerate()
            .map(|(i, b)| BallMark {
                center: b.center,
                radius: b.radius,
                velocity: (o.velocities && b.velocity.length_squared() > 0.0).then_some(b.velocity),
                id: ids.get(i).copied().flatten(),
            })
            .collect();
        if o.trails {
            (m.trails, m.toi_markers) = trails(d);
        }
        m.contacts_of(d, o, highlighted);
        m
    }

    fn contacts_of(&mut self, d: &Debugger, o: Overlays, highlighted: Option<(usize, usize)>) {
        if let Some(f) = d.frames().get(d.cursor() - 1) {
            for (k, e) in f.events.iter().enumerate() {
                let c = ContactMark {
                    point: e.point,
                    normal: e.normal,
                    highlighted: highlighted == Some((d.cursor(), k)),
                };
                if o.contacts {
                    self.contacts.push(c);
                }
                if o.normals {
                    self.normals.push(c);
                }
            }
        }
        if o.flashes {
            let first = d.cursor().saturating_sub(FLASH_FRAMES);
            for (age, f) in d.frames()[first..d.cursor()].iter().rev().enumerate() {
                let fade = 1.0 - age as f32 / FLASH_FRAMES as f32;
                self.flashes.extend(f.events.iter().map(|e| FlashMark {
                    point: e.point,
                    normal: e.normal,
                    fade,
                }));
            }
        }
    }

    /// Segments in all the trails (to reserve room for them before drawing).
    fn trail_segments(&self) -> usize {
        self.trails.iter().map(|p| p.len().saturating_sub(1)).sum()
    }

    /// Draw the marks into the top-down view, culling what lies outside `rect`.
    pub fn paint_2d(
        &self,
        batch: &mut Batch,
        rect: Rect,
        cam: &Camera,
        selected: &dyn Fn(ObjectId) -> bool,
    ) {
        let s = |p: Vec3| cam.screen_from_world(rect, Vec2::new(p.x, p.z));
        let seen = rect.expand(40.0);
        // Room for the trails (two vertices a point), the balls (a disc and a ring each) and the flashes, so
        // a thousand of them do not grow the batch by doubling.
        let trail_points = self.trail_segments() + self.trails.len();
        let ball_points = Batch::segments(self.ball_radius * cam.scale) * self.balls.len();
        // A flash's ring is at most 24 points across: its segments at that size.
        let flash_points = Batch::segments(24.0) * self.flashes.len();
        batch.reserve(
            2 * trail_points + 3 * ball_points + 2 * flash_points,
            2 * trail_points + 3 * ball_points + 2 * flash_points,
        );
        for b in &self.bounds {
            let r = Rect::from_two_pos(s(b.min), s(b.max));
            if seen.intersects(r) {
                let corners = [
                    r.left_top(),
                    r.right_top(),
                    r.right_bottom(),
                    r.left_bottom(),
                ];
                let color = Color32::from_rgba_unmultiplied(120, 200, 255, 90);
                batch.polyline(&corners, true, 1.0, color);
            }
        }
        let ghost_color = Color32::from_rgba_unmultiplied(220, 220, 255, 110);
        // One buffer for every path's screen points (a thousand trails a frame allocate once).
        let mut scratch = Vec::new();
        for path in &self.ghost_paths {
            polyline_2d(batch, &mut scratch, path, &s, seen, ghost_color);
        }
        for p in &self.divergences {
            batch.circle(s(*p), 9.0, 2.0, Color32::from_rgb(255, 60, 60));
        }
        for path in self.trails.iter() {
            let color = palette::BALL.gamma_multiply(0.35);
            polyline_2d(batch, &mut scratch, path, &s, seen, color);
        }
        for m in self
            .toi_markers
            .iter()
            .map(|m| s(*m))
            .filter(|m| seen.contains(*m))
        {
            batch.ring(m, 2.5, 1.0, Color32::from_rgb(255, 120, 200));
        }
        self.balls_2d(batch, cam, &s, seen, selected);
        self.contacts_2d(batch, &s, seen);
    }

    fn balls_2d(
        &self,
        batch: &mut Batch,
        cam: &Camera,
        s: &dyn Fn(Vec3) -> Pos2,
        seen: Rect,
        selected: &dyn Fn(ObjectId) -> bool,
    ) {
        for b in &self.balls {
            let c = s(b.center);
            let r = (b.radius * cam.scale).max(2.0);
            if !seen.expand(r).contains(c) {
                continue;
            }
            let sel = b.id.is_some_and(selected);
            let line = if sel { theme::SELECTED } else { palette::BALL };
            let width = if sel { 2.5 } else { 1.5 };
            if r <= TINY_BALL_PX {
                // The outline would cover all of the fill but its middle pixel or two: one solid disc to the
                // outline's outer edge reads the same at this size with a third of the vertices (a whole maze
                // in view is a thousand of these).
                batch.disc(c, r + width * 0.5, line);
            } else {
                batch.disc(c, r, line.gamma_multiply(0.3));
                batch.ring(c, r, width, line);
            }
            if let Some(v) = b.velocity {
                let tip = s(b.center + v * 0.25);
                batch.arrow(c, tip, 1.5, 7.0, Color32::from_rgb(120, 220, 255));
            }
        }
    }

    fn contacts_2d(&self, batch: &mut Batch, s: &dyn Fn(Vec3) -> Pos2, seen: Rect) {
        for c in &self.contacts {
            let p = s(c.point);
            if seen.contains(p) {
                let r = if c.highlighted { 6.0 } else { 3.5 };
                batch.disc(p, r, Color32::from_rgb(255, 80, 80));
            }
        }
        for c in &self.normals {
            let p = s(c.point);
            if seen.contains(p) {
                let tip = p + egui::vec2(c.normal.x, c.normal.z) * 28.0;
                batch.arrow(p, tip, 1.5, 7.0, Color32::from_rgb(255, 230, 80));
            }
        }
        for f in &self.flashes {
            let p = s(f.point);
            if seen.contains(p) {
                let r = 6.0 + 18.0 * (1.0 - f.fade);
                let color = Color32::from_rgb(255, 200, 80).gamma_multiply(f.fade);
                batch.ring(p, r, 2.0, color);
            }
        }
    }

    /// The marks as 3D lines: `lines` are depth-tested (bounds, trails, ghost), `over` are drawn over
    /// everything (velocities, contacts, normals, flashes). The simulated balls are spheres, added by the
    /// preview.
    pub fn lines_3d(&self, lines: &mut Lines, over: &mut Lines) {
        // Room for everything below at once (a thousand flashes and markers a frame while playing grew both
        // buffers by doubling, each time a reallocation and copy): an arrow is five segments, a cross three,
        // a circle 24, a box 12.
        let velocities = self.balls.iter().filter(|b| b.velocity.is_some()).count();
        over.reserve_segments(
            5 * (velocities + self.normals.len())
                + 3 * self.contacts.len()
                + 24 * self.flashes.len(),
        );
        lines.reserve_segments(
            12 * self.bounds.len()
                + self.trail_segments()
                + 3 * self.toi_markers.len()
                + self.ghost_paths.iter().map(Vec::len).sum::<usize>()
                + 24 * self.divergences.len(),
        );
        for b in &self.balls {
            if let Some(v) = b.velocity {
                over.arrow(b.center, b.center + v * 0.25, [120, 220, 255, 255]);
            }
        }
        for b in &self.bounds {
            lines.aabb(b, [120, 200, 255, 255]);
        }
        for path in self.trails.iter() {
            lines.strip(path, [150, 130, 70, 255]);
        }
        for m in &self.toi_markers {
            lines.cross(*m, self.ball_radius * 0.3, [255, 120, 200, 255]);
        }
        for c in &self.contacts {
            let size = if c.highlighted { 0.25 } else { 0.12 };
            over.cross(c.point, size, [255, 80, 80, 255]);
        }
        for c in &self.normals {
            over.arrow(c.point, c.point + c.normal, [255, 230, 80, 255]);
        }
        for f in &self.flashes {
            let a = (f.fade * 255.0) as u8;
            over.circle(
                f.point,
                f.normal,
                0.15 + 0.6 * (1.0 - f.fade),
                [255, 200, 80, a],
            );
        }
        for path in &self.ghost_paths {
            lines.strip(path, [200, 200, 240, 255]);
        }
        for p in &self.divergences {
            lines.circle(*p, Vec3::Y, 0.5, [255, 60, 60, 255]);
        }
    }
}

/// A world path as a screen polyline, skipped when none of it is near the view, without the points that
/// fall within a pixel of the last one kept (a trail seen from afar is mostly sub-pixel steps). `scratch`
/// holds the screen points (its contents are replaced).
fn polyline_2d(
    batch: &mut Batch,
    scratch: &mut Vec<Pos2>,
    path: &[Vec3],
    s: &impl Fn(Vec3) -> Pos2,
    seen: Rect,
    c: Color32,
) {
    decimate_into(scratch, path.iter().map(|p| s(*p)), 1.0);
    if scratch.iter().any(|p| seen.contains(*p)) {
        batch.strip(scratch, false, 1.0, c);
    }
}

/// The points at least `min_px` from the previous one kept; the first and the last are always kept.
#[cfg(test)]
fn decimate(pts: impl Iterator<Item = Pos2>, min_px: f32) -> Vec<Pos2> {
    let mut out = Vec::new();
    decimate_into(&mut out, pts, min_px);
    out
}

/// [`decimate`] into `out` (cleared first).
fn decimate_into(out: &mut Vec<Pos2>, pts: impl Iterator<Item = Pos2>, min_px: f32) {
    out.clear();
    let mut last_skipped = None;
    for p in pts {
        match out.last() {
            Some(q) if (*q - p).length_sq() < min_px * min_px => last_skipped = Some(p),
            _ => {
                out.push(p);
                last_skipped = None;
            }
        }
    }
    out.extend(last_skipped);
}

/// Many short paths in one buffer (a thousand trails a frame are one allocation, not a thousand): path `i`
/// is `points[i * stride..][..lens[i]]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Paths {
    points: Vec<Vec3>,
    stride: usize,
    lens: Vec<usize>,
}

impl Paths {
    /// The number of paths.
    #[must_use]
    pub fn len(&self) -> usize {
        self.lens.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lens.is_empty()
    }

    /// Path `i`.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<&[Vec3]> {
        let len = *self.lens.get(i)?;
        self.points.get(i * self.stride..i * self.stride + len)
    }

    /// The paths in order.
    pub fn iter(&self) -> impl Iterator<Item = &[Vec3]> {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

/// The balls' recent paths for the trails (each from its current centre back one point per recorded frame)
/// and the time-of-impact markers (each contact's ball centre in those frames). At most `TRAIL_POINTS`
/// points in all: many balls get shorter trails.
#[must_use]
pub fn trails(d: &Debugger) -> (Paths, Vec<Vec3>) {
    let world = d.world();
    let n = world.balls().len().max(1);
    let trail_frames = (TRAIL_POINTS / n).clamp(2, TRAIL_FRAMES);
    let states: Vec<_> = d
        .states_before(d.cursor())
        .rev()
        .take_while(|(k, _)| d.cursor() - **k <= trail_frames)
        .map(|(_, st)| st)
        .collect();
    // One buffer, sized once, filled state by state: each snapshot's balls are read in order, not one ball's
    // centre from every snapshot in turn. A snapshot with fewer balls than the world adds to fewer paths.
    let stride = states.len() + 1;
    let balls = world.balls();
    let mut paths = Paths {
        points: vec![Vec3::ZERO; balls.len() * stride],
        stride,
        lens: vec![1; balls.len()],
    };
    for (i, b) in balls.iter().enumerate() {
        paths.points[i * stride] = b.center;
    }
    for st in &states {
        for ((i, len), b) in paths.lens.iter_mut().enumerate().zip(st.balls()) {
            paths.points[i * stride + *len] = b.center;
            *len += 1;
        }
    }
    let first = d.cursor().saturating_sub(trail_frames);
    let markers = d.frames()[first..d.cursor()]
        .iter()
        .flat_map(|f| &f.events)
        .filter_map(|e| {
            world
                .balls()
                .get(e.ball.0)
                .map(|b| e.point + e.normal * b.radius)
        })
        .collect();
    (paths, markers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    #[test]
    fn decimating_keeps_the_ends_and_drops_sub_pixel_steps() {
        let pts = [0.0, 0.3, 0.6, 1.2, 1.4, 5.0, 5.2].map(|x| Pos2::new(x, 0.0));
        let kept: Vec<f32> = decimate(pts.into_iter(), 1.0).iter().map(|p| p.x).collect();
        assert_eq!(kept, [0.0, 1.2, 5.0, 5.2]);
        assert!(decimate(std::iter::empty(), 1.0).is_empty());
    }

    #[test]
    fn a_ball_far_away_is_one_solid_disc_and_a_near_one_a_fill_and_its_outline() {
        use crate::editor::draw::{Batch, Camera};
        let rect = Rect::from_min_size(Pos2::ZERO, egui::vec2(400.0, 300.0));
        let marks = Marks {
            balls: vec![BallMark {
                center: Vec3::ZERO,
                radius: 0.25,
                velocity: None,
                id: None,
            }],
            ..Marks::default()
        };
        let outer = |scale: f32| {
            let cam = Camera {
                center: glam::Vec2::ZERO,
                scale,
            };
            let mut batch = Batch::default();
            marks.paint_2d(&mut batch, rect, &cam, &|_| false);
            let mesh = batch.into_mesh();
            assert!(mesh.is_valid());
            let centre = rect.center();
            let far = mesh
                .vertices
                .iter()
                .map(|v| (v.pos - centre).length())
                .fold(0.0f32, f32::max);
            let colours: std::collections::BTreeSet<_> =
                mesh.vertices.iter().map(|v| v.color.to_array()).collect();
            (mesh.vertices.len(), far, colours.len())
        };
        // A 0.25 m radius at 4 points a metre is one point: drawn at the 2-point floor, one disc of the
        // outline's colour out to the outline's outer edge (2 + 1.5 / 2).
        let (vertices, far, colours) = outer(4.0);
        assert_eq!((vertices, colours), (Batch::segments(2.75), 1));
        assert!((far - 2.75).abs() < 1e-4, "{far}");
        // At 40 points a metre (a 10-point radius): the translucent fill and the outline, two colours.
        let (vertices, far, colours) = outer(40.0);
        let n = Batch::segments(10.0);
        assert_eq!((vertices, colours), (n + 2 * n, 2));
        assert!(far > 10.0 && far < 11.0, "{far}");
    }

    #[test]
    fn marks_follow_the_frame_and_the_toggles() {
        let level = Level::from_ron_str(include_str!("../../../levels/magic_room.ron")).unwrap();
        let mut d = Debugger::new(&level, 1 << 26).unwrap();
        let o = Overlays::default();
        let at0 = Marks::build(Some(&d), o, None, None);
        assert!(at0.balls.is_empty(), "frame 0 shows the level's own balls");
        for _ in 0..120 {
            d.step();
        }
        let m = Marks::build(Some(&d), o, None, None);
        assert_eq!(m.balls.len(), d.world().balls().len());
        assert_eq!(m.trails.len(), m.balls.len());
        // Each trail is the ball's centre now, then its centre in each kept snapshot of the last frames,
        // newest first.
        let snapshots: Vec<_> = d
            .states_before(d.cursor())
            .rev()
            .take_while(|(k, _)| d.cursor() - **k <= TRAIL_FRAMES)
            .map(|(_, st)| st)
            .collect();
        for (i, b) in d.world().balls().iter().enumerate() {
            let path = m.trails.get(i).unwrap();
            assert_eq!(path.len(), snapshots.len() + 1, "ball {i}");
            assert_eq!(path[0], b.center);
            for (k, st) in snapshots.iter().enumerate() {
                assert_eq!(path[k + 1], st.balls()[i].center, "ball {i}, snapshot {k}");
            }
        }
        assert!(m.trails.get(m.balls.len()).is_none());
        assert!(
            !m.toi_markers.is_empty(),
            "the magic room's balls hit the walls in two seconds"
        );
        let off = Overlays {
            trails: false,
            velocities: false,
            ..o
        };
        let m = Marks::build(Some(&d), off, None, None);
        assert!(m.trails.is_empty() && m.balls.iter().all(|b| b.velocity.is_none()));
        assert_ne!(
            MarksKey::of(Some(&d), o, None, None),
            MarksKey::of(Some(&d), off, None, None)
        );
    }
}
