//! The Build tool's state (the chosen builder and its typed parameters) and what a build makes of a drag
//! or of the selected sectors: the heights found around it (the floor the run starts from, the floor
//! beyond its end), the builder's sectors (`builders`) and one checked undo step (`document::sector`). No
//! egui: the panel draws [`BuildParams`] and the top-down view draws a [`Plan`]'s outlines as the preview.

use glam::Vec2;

use super::builders::{self, Builder, DoorSize, Run};
use crate::editor::document::LabelledEdit;
use crate::editor::document::sector::{
    DEFAULT_ROOM_HEIGHT, add_sectors, heights_for, in_storey, same_point, sector, sector_edit,
};
use crate::level::{Level, ObjectId, SectorObject};
use crate::sector::{HeightFn, ring};

/// The Build tool's typed parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildParams {
    /// The builder a drag or Enter uses.
    pub builder: Builder,
    /// Stairs: how many steps.
    pub steps: u32,
    /// Stairs: the total rise, metres (when not `by_riser`).
    pub rise: f32,
    /// Stairs: each riser's height, metres (when `by_riser`).
    pub riser: f32,
    /// Stairs: the rise is `steps × riser` instead of `rise`.
    pub by_riser: bool,
    /// Stairs and ramps: climb to the floor of the sector beyond the run's end when there is one (a
    /// balcony), instead of the typed rise or slope.
    pub to_beyond: bool,
    /// Stairs and ramps: the ceiling's height above the floor, metres.
    pub headroom: f32,
    /// Ramp: the slope, degrees (when not `by_ends`).
    pub degrees: f32,
    /// Ramp: sloped from the start's floor to `end_height` instead of by `degrees`.
    pub by_ends: bool,
    /// Ramp: the floor's height at the run's end, metres (when `by_ends`).
    pub end_height: f32,
    /// Room: from floor to ceiling, metres.
    pub room_height: f32,
    /// Doorway: width, height and the wall's thickness.
    pub door: DoorSize,
}

impl Default for BuildParams {
    fn default() -> Self {
        Self {
            builder: Builder::Stairs,
            steps: 10,
            rise: 2.0,
            riser: 0.2,
            by_riser: false,
            to_beyond: true,
            headroom: DEFAULT_ROOM_HEIGHT,
            degrees: 30.0,
            by_ends: false,
            end_height: 1.0,
            room_height: DEFAULT_ROOM_HEIGHT,
            door: DoorSize::default(),
        }
    }
}

/// What a build would make: the new sectors' outlines (the preview), a one-line summary, and the undo step
/// or the reason it is refused.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The outlines of the sectors made or changed.
    pub outlines: Vec<Vec<Vec2>>,
    /// For the status line and beside the preview: "10 steps of 0.20 m, 0.00 m up to 2.00 m".
    pub summary: String,
    /// The checked step, or the runtime's (or the builder's) reason.
    pub edit: Result<LabelledEdit, String>,
}

impl Plan {
    fn refused(why: impl Into<String>) -> Self {
        Self {
            outlines: Vec::new(),
            summary: String::new(),
            edit: Err(why.into()),
        }
    }

    fn of(sectors: &[SectorObject], summary: String, edit: Result<LabelledEdit, String>) -> Self {
        Self {
            outlines: sectors.iter().map(|s| s.outline.clone()).collect(),
            summary,
            edit,
        }
    }
}

/// How far past an edge the floor beside it is looked for, metres.
const LOOK: f32 = 0.05;

/// The shown sector whose area holds `p`, the highest floor first (the storey drawn over the others).
fn shown_at(level: &Level, p: Vec2, storey: Option<(f32, f32)>) -> Option<&SectorObject> {
    level
        .sectors
        .iter()
        .filter(|s| in_storey(s.floor.height, storey) && ring::contains(&s.outline, p))
        .max_by(|a, b| a.floor.height.total_cmp(&b.floor.height))
}

/// The floor the run starts from: the shown sector just before its start edge, else the storey's lowest
/// floor, else 0.
fn base_of(level: &Level, run: &Run, storey: Option<(f32, f32)>) -> f32 {
    shown_at(level, run.start_mid() - run.forward() * LOOK, storey)
        .map(|s| s.floor.height)
        .unwrap_or(storey.map_or(0.0, |(lo, _)| lo))
}

/// The floor a room over `outline` starts at: as a drawn sector's ([`heights_for`]), except beside a sloped
/// floor it shares an edge with (a platform at a ramp's top), where it is that floor's height along the
/// edge, not its slope's base height.
fn room_floor(level: &Level, outline: &[Vec2], storey: Option<(f32, f32)>) -> f32 {
    let n = outline.len();
    let shared = |s: &SectorObject, a: Vec2, b: Vec2| {
        let m = s.outline.len();
        (0..m).any(|j| {
            let (p, q) = (s.outline[j], s.outline[(j + 1) % m]);
            (same_point(p, a) && same_point(q, b)) || (same_point(p, b) && same_point(q, a))
        })
    };
    // The first neighbour sharing an edge, as `heights_for` takes it.
    let beside = level
        .sectors
        .iter()
        .filter(|s| in_storey(s.floor.height, storey))
        .find_map(|s| {
            (0..n)
                .map(|i| (outline[i], outline[(i + 1) % n]))
                .find(|&(a, b)| shared(s, a, b))
                .map(|(a, b)| (s, (a + b) * 0.5))
        });
    match beside {
        Some((s, mid)) if s.floor.slope.is_some() => HeightFn::new(&s.floor, &s.outline).at(mid),
        _ => heights_for(level, outline, storey).0,
    }
}

/// The floor beyond the run's end above `base` (a balcony; any storey): the lowest such.
fn beyond_of(level: &Level, run: &Run, base: f32) -> Option<f32> {
    let p = run.end_mid() + run.forward() * LOOK;
    level
        .sectors
        .iter()
        .filter(|s| s.floor.height > base + 1e-3 && ring::contains(&s.outline, p))
        .map(|s| s.floor.height)
        .min_by(f32::total_cmp)
}

impl BuildParams {
    /// What the builder makes of a drag from `a` to `b` in `level` (storey filter `storey`).
    #[must_use]
    pub fn plan_drag(&self, level: &Level, a: Vec2, b: Vec2, storey: Option<(f32, f32)>) -> Plan {
        match self.builder {
            Builder::Room => self.plan_room(level, a, b, storey),
            Builder::Doorway => self.plan_doorway_drag(level, a, b, storey),
            Builder::Stairs | Builder::Ramp => match Run::of_drag(a, b) {
                Some(run) => {
                    let base = base_of(level, &run, storey);
                    self.plan_run(level, &run, base, None)
                }
                None => Plan::refused("drag a rectangle: the run's length and width"),
            },
        }
    }

    /// Whether the builder builds on a selection of `count` sectors: stairs and ramps on one, a doorway on
    /// two, a room on none (it is dragged). A refusal for another count is no news until Enter asks (just after
    /// a build its new sectors are selected, and a red refusal there would read as if the build had failed).
    #[must_use]
    pub fn takes(&self, count: usize) -> bool {
        match self.builder {
            Builder::Room => false,
            Builder::Doorway => count == 2,
            Builder::Stairs | Builder::Ramp => count == 1,
        }
    }

    /// What the builder makes of the selected sectors `ids`: stairs or a ramp in place of one rectangular
    /// sector (climbing its longer side from its lower neighbour), a doorway between two rooms.
    #[must_use]
    pub fn plan_selected(&self, level: &Level, ids: &[ObjectId]) -> Plan {
        let picked: Vec<&SectorObject> = ids.iter().filter_map(|id| sector(level, *id)).collect();
        match (self.builder, picked.as_slice()) {
            (Builder::Doorway, [a, b]) => {
                let d = builders::doorway(a, b, None, self.door);
                self.door_plan(level, d)
            }
            (Builder::Doorway, _) => Plan::refused("select the two rooms the doorway joins"),
            (Builder::Room, _) => Plan::refused("drag the room's rectangle"),
            (_, [s]) => match run_of_sector(level, s) {
                Some((run, base)) => self.plan_run(level, &run, base, Some(s.id)),
                None => Plan::refused(
                    "stairs and ramps go in a rectangular sector (4 corners, axis-aligned)",
                ),
            },
            _ => Plan::refused("select one sector for the stairs or the ramp, or drag the run"),
        }
    }

    /// Stairs or a ramp over `run` from `base`, in place of sector `replace` when given.
    fn plan_run(&self, level: &Level, run: &Run, base: f32, replace: Option<ObjectId>) -> Plan {
        let beyond = self
            .to_beyond
            .then(|| beyond_of(level, run, base))
            .flatten();
        let (made, summary) = if self.builder == Builder::Ramp {
            let degrees = match (beyond, self.by_ends) {
                (Some(top), _) => builders::ramp_degrees(run.length(), base, top),
                (None, true) => builders::ramp_degrees(run.length(), base, self.end_height),
                (None, false) => self.degrees,
            };
            let top = base + run.length() * degrees.to_radians().tan();
            let made = builders::ramp(run, base, degrees, self.headroom).map(|mut r| {
                if let Some(id) = replace {
                    r.id = id;
                }
                vec![r]
            });
            (
                made,
                format!("ramp {degrees:.1}°, {base:.2} m up to {top:.2} m"),
            )
        } else {
            let rise = match (beyond, self.by_riser) {
                (Some(top), _) => top - base,
                (None, true) => self.riser * self.steps as f32,
                (None, false) => self.rise,
            };
            let each = rise / self.steps.max(1) as f32;
            let made = builders::stairs(run, self.steps, base, rise, self.headroom);
            let summary = format!(
                "{} steps of {each:.2} m, {base:.2} m up to {:.2} m",
                self.steps,
                base + rise
            );
            (made, summary)
        };
        let made = match made {
            Ok(m) => m,
            Err(why) => return Plan::refused(why),
        };
        let label = format!("Build {}", self.builder.name().to_lowercase());
        let edit = match (self.builder, replace) {
            (Builder::Ramp, Some(_)) => sector_edit(level, label, made.clone(), vec![], vec![]),
            (_, Some(id)) => sector_edit(level, label, vec![], vec![id], made.clone()),
            (_, None) => add_sectors(level, made.clone(), label),
        };
        Plan::of(&made, summary, edit)
    }

    fn plan_room(&self, level: &Level, a: Vec2, b: Vec2, storey: Option<(f32, f32)>) -> Plan {
        let probe = builders::room(a, b, 0.0, 1.0);
        let floor = probe
            .as_ref()
            .map_or(0.0, |r| room_floor(level, &r.outline, storey));
        match builders::room(a, b, floor, self.room_height) {
            Ok(r) => {
                let summary = format!(
                    "room, floor {floor:.2} m, ceiling {:.2} m",
                    r.ceiling.height
                );
                let edit = add_sectors(level, vec![r.clone()], "Build room");
                Plan::of(&[r], summary, edit)
            }
            Err(why) => Plan::refused(why),
        }
    }

    fn plan_doorway_drag(
        &self,
        level: &Level,
        a: Vec2,
        b: Vec2,
        storey: Option<(f32, f32)>,
    ) -> Plan {
        let (Some(ra), Some(rb)) = (shown_at(level, a, storey), shown_at(level, b, storey)) else {
            return Plan::refused("drag from one room into the other, across the wall they share");
        };
        if ra.id == rb.id {
            return Plan::refused("drag from one room into another, across the wall they share");
        }
        let d = builders::doorway(ra, rb, Some((a + b) * 0.5), self.door);
        self.door_plan(level, d)
    }

    fn door_plan(&self, level: &Level, d: Result<builders::Doorway, String>) -> Plan {
        match d {
            Ok(d) => {
                let summary = format!(
                    "doorway {:.2} × {:.2} m in a {:.2} m wall",
                    self.door.width, self.door.height, self.door.wall
                );
                let mut all = d.rooms.to_vec();
                all.push(d.door.clone());
                let edit = sector_edit(
                    level,
                    "Build doorway",
                    d.rooms.to_vec(),
                    vec![],
                    vec![d.door],
                );
                Plan::of(&all, summary, edit)
            }
            Err(why) => Plan::refused(why),
        }
    }
}

/// The run of a rectangular sector: along its longer side, from the side whose neighbour has the lower
/// floor (the low x or z side when neither or both have one), and the floor it starts from.
fn run_of_sector(level: &Level, s: &SectorObject) -> Option<(Run, f32)> {
    if s.outline.len() != 4 || !s.holes.is_empty() {
        return None;
    }
    let lo = s.outline.iter().fold(Vec2::MAX, |m, p| m.min(*p));
    let hi = s.outline.iter().fold(Vec2::MIN, |m, p| m.max(*p));
    let corners = [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
    if !s.outline.iter().all(|p| corners.contains(p)) {
        return None;
    }
    let forward = Run::of_drag(lo, hi)?;
    let backward = Run::of_drag(hi, lo)?;
    let before = |r: &Run| {
        level
            .sectors
            .iter()
            .filter(|o| {
                o.id != s.id && ring::contains(&o.outline, r.start_mid() - r.forward() * LOOK)
            })
            .map(|o| o.floor.height)
            .min_by(f32::total_cmp)
    };
    let (f, b) = (before(&forward), before(&backward));
    let (run, floor) = match (f, b) {
        (Some(x), Some(y)) if y < x => (backward, y),
        (None, Some(y)) => (backward, y),
        (Some(x), _) => (forward, x),
        (None, None) => (forward, s.floor.height),
    };
    Some((run, floor))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::document::sector::new_sector;

    fn rect(lo: Vec2, hi: Vec2, floor: f32) -> SectorObject {
        builders::room(lo, hi, floor, 3.0).unwrap()
    }

    fn with_ids(mut sectors: Vec<SectorObject>) -> Level {
        for (i, s) in sectors.iter_mut().enumerate() {
            s.id = ObjectId(i as u32 + 1);
        }
        Level {
            sectors,
            ..Level::default()
        }
    }

    #[test]
    fn a_stair_drag_starts_on_the_floor_before_it_and_rises_to_the_balcony() {
        let level = with_ids(vec![
            rect(Vec2::new(-4.0, 0.0), Vec2::new(0.0, 2.0), 0.5),
            rect(Vec2::new(3.0, 0.0), Vec2::new(6.0, 2.0), 2.5),
        ]);
        let p = BuildParams::default();
        let plan = p.plan_drag(&level, Vec2::new(0.0, 0.0), Vec2::new(3.0, 2.0), None);
        let e = plan.edit.unwrap();
        assert_eq!(e.edit.add.len(), 10);
        assert_eq!(plan.summary, "10 steps of 0.20 m, 0.50 m up to 2.50 m");
        // Typed instead: 5 risers of 0.3 m.
        let p = BuildParams {
            steps: 5,
            by_riser: true,
            riser: 0.3,
            to_beyond: false,
            ..p
        };
        let plan = p.plan_drag(&level, Vec2::new(0.0, 0.0), Vec2::new(3.0, 2.0), None);
        assert_eq!(plan.summary, "5 steps of 0.30 m, 0.50 m up to 2.00 m");
    }

    #[test]
    fn a_stair_over_a_sector_of_its_storey_is_refused_with_the_reason() {
        let level = with_ids(vec![rect(Vec2::new(-4.0, 0.0), Vec2::new(4.0, 2.0), 0.0)]);
        let plan = BuildParams::default().plan_drag(
            &level,
            Vec2::new(0.0, 0.0),
            Vec2::new(3.0, 2.0),
            None,
        );
        assert!(plan.edit.is_err());
        assert_eq!(plan.outlines.len(), 10);
    }

    #[test]
    fn a_picked_rectangle_becomes_stairs_or_a_ramp_from_its_lower_neighbour() {
        let level = with_ids(vec![
            rect(Vec2::new(3.0, 0.0), Vec2::new(6.0, 2.0), 0.0),
            rect(Vec2::new(0.0, 0.0), Vec2::new(3.0, 2.0), 0.0),
            rect(Vec2::new(-3.0, 0.0), Vec2::new(0.0, 2.0), 1.0),
        ]);
        let p = BuildParams {
            steps: 4,
            rise: 1.0,
            to_beyond: false,
            ..BuildParams::default()
        };
        let plan = p.plan_selected(&level, &[ObjectId(2)]);
        let e = plan.edit.unwrap();
        assert_eq!((e.edit.remove.len(), e.edit.add.len()), (1, 4));
        // From x = 3 (the floor at 0) toward x = 0.
        assert_eq!(plan.summary, "4 steps of 0.25 m, 0.00 m up to 1.00 m");
        assert_eq!(plan.outlines[0][0].x, 3.0);
        let ramp = BuildParams {
            builder: Builder::Ramp,
            ..BuildParams::default()
        };
        let plan = ramp.plan_selected(&level, &[ObjectId(2)]);
        assert!(plan.edit.is_ok(), "{:?}", plan.edit);
        assert!(plan.summary.starts_with("ramp 18.4°"), "{}", plan.summary);
        let mut tri = new_sector(vec![Vec2::ZERO, Vec2::X, Vec2::Y], 0.0, 3.0);
        tri.id = ObjectId(9);
        let level = with_ids(vec![tri]);
        assert!(p.plan_selected(&level, &[ObjectId(1)]).edit.is_err());
    }

    #[test]
    fn a_room_takes_its_neighbours_floor_and_a_doorway_joins_two() {
        let level = with_ids(vec![rect(Vec2::new(-4.0, -2.0), Vec2::new(0.0, 2.0), 0.5)]);
        let p = BuildParams {
            builder: Builder::Room,
            ..BuildParams::default()
        };
        let plan = p.plan_drag(&level, Vec2::new(0.0, -2.0), Vec2::new(4.0, 2.0), None);
        assert_eq!(plan.summary, "room, floor 0.50 m, ceiling 3.50 m");
        let mut level = level;
        let mut doc_like = plan.edit.unwrap().edit.add;
        if let Some(crate::editor::document::Object::Sector(mut s)) = doc_like.pop() {
            s.id = ObjectId(2);
            level.sectors.push(s);
        }
        let door = BuildParams {
            builder: Builder::Doorway,
            ..BuildParams::default()
        };
        let plan = door.plan_drag(&level, Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.5), None);
        let e = plan.edit.unwrap();
        assert_eq!((e.edit.replace.len(), e.edit.add.len()), (2, 1));
        let plan = door.plan_selected(&level, &[ObjectId(1), ObjectId(2)]);
        assert!(plan.edit.is_ok());
        let plan = door.plan_drag(&level, Vec2::new(-1.0, 0.0), Vec2::new(-2.0, 0.5), None);
        assert!(plan.edit.is_err());
    }

    #[test]
    fn a_room_beside_a_ramps_top_starts_at_the_ramps_height_there() {
        let run = Run::of_drag(Vec2::new(0.0, 0.0), Vec2::new(4.0, 2.0)).unwrap();
        let mut ramp = builders::ramp(&run, 0.5, 30.0, 3.0).unwrap();
        ramp.id = ObjectId(1);
        let level = with_ids(vec![ramp]);
        let p = BuildParams {
            builder: Builder::Room,
            ..BuildParams::default()
        };
        let top = 0.5 + 4.0 * 30f32.to_radians().tan();
        let plan = p.plan_drag(&level, Vec2::new(4.0, 0.0), Vec2::new(6.0, 2.0), None);
        assert!(plan.edit.is_ok(), "{:?}", plan.edit);
        assert_eq!(
            plan.summary,
            format!("room, floor {top:.2} m, ceiling {:.2} m", top + 3.0)
        );
        // At its foot, the ramp's base height.
        let plan = p.plan_drag(&level, Vec2::new(-2.0, 0.0), Vec2::new(0.0, 2.0), None);
        assert_eq!(plan.summary, "room, floor 0.50 m, ceiling 3.50 m");
    }

    #[test]
    fn each_builder_takes_its_own_selection_and_a_room_none() {
        let with = |builder| BuildParams {
            builder,
            ..BuildParams::default()
        };
        let takes = |b: Builder| (0..4).filter(|&n| with(b).takes(n)).collect::<Vec<_>>();
        assert_eq!(takes(Builder::Room), Vec::<usize>::new());
        assert_eq!(takes(Builder::Doorway), vec![2]);
        assert_eq!(takes(Builder::Stairs), vec![1]);
        assert_eq!(takes(Builder::Ramp), vec![1]);
        // What a room builder says of a selection, asked (Enter), is still its reason.
        let level = with_ids(vec![rect(Vec2::ZERO, Vec2::new(2.0, 2.0), 0.0)]);
        let plan = with(Builder::Room).plan_selected(&level, &[ObjectId(1)]);
        assert_eq!(
            plan.edit.err().as_deref(),
            Some("drag the room's rectangle")
        );
    }
}
