//! Greybox sectors in the inspector: floor and ceiling heights, each surface's slope (an outline edge and
//! degrees; empty: flat), the holes count. Several selected sectors edit together (a field shows a value
//! when they agree). Every value goes through `document::sector`'s checked edits: a value the runtime
//! refuses (a ceiling under the floor, a slope edge out of range, 89° or more) stays beside its field with
//! the runtime's reason and is never clamped. Under the fields, the limits the heights meet that the
//! character cannot take (`heights::warn`).

use egui::Ui;

use super::game::{report, show_error};
use super::{FieldEdit, FieldSpec, InspectorState, Rule, number_field};
use crate::editor::document::sector::{self as edits, Which};
use crate::editor::document::{Document, LabelledEdit, Object};
use crate::level::{ObjectId, SectorObject, Slope};

/// One number of a sector's surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Height,
    SlopeEdge,
    SlopeDegrees,
}

impl Part {
    fn get(self, s: &SectorObject, w: Which) -> Option<f32> {
        let surf = w.of(s);
        match self {
            Part::Height => Some(surf.height),
            Part::SlopeEdge => surf.slope.map(|sl| sl.edge as f32),
            Part::SlopeDegrees => surf.slope.map(|sl| sl.degrees),
        }
    }

    fn label(self, w: Which) -> &'static str {
        match (w, self) {
            (Which::Floor, Part::Height) => "floor",
            (Which::Floor, Part::SlopeEdge) => "floor slope edge",
            (Which::Floor, Part::SlopeDegrees) => "floor slope (°)",
            (Which::Ceiling, Part::Height) => "ceiling",
            (Which::Ceiling, Part::SlopeEdge) => "ceiling slope edge",
            (Which::Ceiling, Part::SlopeDegrees) => "ceiling slope (°)",
        }
    }
}

/// Set one part of surface `w` of `s` to `v` (`None`: flat, for the slope's parts).
fn set(s: &mut SectorObject, w: Which, part: Part, v: Option<f32>) {
    let surf = w.of_mut(s);
    match (part, v) {
        (Part::Height, Some(v)) => surf.height = v,
        (Part::Height, None) => {}
        (_, None) => surf.slope = None,
        (Part::SlopeEdge, Some(v)) => {
            let degrees = surf.slope.map_or(0.0, |sl| sl.degrees);
            // A fraction or a negative edge is left for the check below to refuse, not rounded.
            surf.slope = Some(Slope {
                edge: v as u32,
                degrees,
            });
        }
        (Part::SlopeDegrees, Some(v)) => {
            let edge = surf.slope.map_or(0, |sl| sl.edge);
            surf.slope = Some(Slope { edge, degrees: v });
        }
    }
}

/// The sectors' section, pushing the edits it asks for to `out`.
pub(super) fn section(
    ui: &mut Ui,
    doc: &Document,
    state: &mut InspectorState,
    of_kind: &[&Object],
    out: &mut Vec<LabelledEdit>,
) {
    let sectors: Vec<&SectorObject> = of_kind
        .iter()
        .filter_map(|o| match o {
            Object::Sector(s) => Some(s),
            _ => None,
        })
        .collect();
    if sectors.is_empty() {
        return;
    }
    let holes: usize = sectors.iter().map(|s| s.holes.len()).sum();
    let points: usize = sectors.iter().map(|s| s.outline.len()).sum();
    ui.weak(format!(
        "{points} outline points, {holes} hole(s); slope edge k runs from point k to the next"
    ));
    let ids: Vec<ObjectId> = sectors.iter().map(|s| s.id).collect();
    for w in [Which::Floor, Which::Ceiling] {
        for part in [Part::Height, Part::SlopeEdge, Part::SlopeDegrees] {
            row(ui, doc, state, (&sectors, &ids), (w, part), out);
        }
    }
    limits(ui, doc, &ids);
}

/// The limits the selected sectors' heights meet that the character cannot take as it stands (a riser over
/// `max_step`, a headroom or opening under the body's height, a slope over `max_slope_deg`), one line
/// each, red beyond the limit and orange where it must crouch; they follow each edit of a height.
fn limits(ui: &mut Ui, doc: &Document, ids: &[ObjectId]) {
    use crate::editor::heights::warn::{Verdict, warnings};
    let all = warnings(doc.level(), ids);
    for w in all.iter().filter(|w| w.verdict != Verdict::Fits).take(6) {
        let c = if w.over() {
            crate::editor::theme::ERROR_TEXT
        } else {
            crate::editor::theme::WARNING_TEXT
        };
        ui.colored_label(c, w.text());
    }
}

/// One number of one surface of every selected sector.
fn row(
    ui: &mut Ui,
    doc: &Document,
    state: &mut InspectorState,
    (sectors, ids): (&[&SectorObject], &[ObjectId]),
    (w, part): (Which, Part),
    out: &mut Vec<LabelledEdit>,
) {
    let values: Vec<Option<f32>> = sectors.iter().map(|s| part.get(s, w)).collect();
    let same = values.windows(2).all(|p| p[0] == p[1]);
    let current = if same { values[0] } else { None };
    let label = part.label(w);
    let key = format!("sector:{label}");
    let path = match part {
        Part::Height => format!("{}.height", w.noun()),
        Part::SlopeEdge => format!("{}.slope.edge", w.noun()),
        Part::SlopeDegrees => format!("{}.slope.degrees", w.noun()),
    };
    let spec = FieldSpec {
        key: &key,
        label,
        current,
        hint: if same { "flat" } else { "mixed" },
        rule: Rule::Finite,
        optional: part != Part::Height,
        note: if part == Part::Height { "m" } else { "" },
        path: Some(&path),
    };
    if let Some(FieldEdit::Set(v)) = number_field(ui, state, &spec) {
        let edit = match v {
            Some(e) if part == Part::SlopeEdge && (e.fract() != 0.0 || e < 0.0) => {
                Err("a slope edge is the index of an outline edge: 0, 1, 2, …".to_owned())
            }
            _ => {
                let merge = Some(format!("{key}#{}", state.session));
                let what = format!(
                    "Set {label} of {}",
                    crate::editor::document::count_noun(ids.len(), "sector")
                );
                edits::edit_sectors(doc.level(), ids, what, merge, |s| set(s, w, part, v))
            }
        };
        report(state, &key, edit, out);
    }
    show_error(ui, state, &key);
}
