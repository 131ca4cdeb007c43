//! Edits of the level's character (its player's size and movement limits, `Level::character`), as the
//! inspector asks for them: one field at a time, checked first by the runtime's own rule
//! ([`CharacterController::problems`]) and refused with its reason, never clamped; adding the defaults to
//! the level, and removing them (the level then uses the default character). No egui here.

use super::{Edit, Header, LabelledEdit};
use crate::character::{CharacterController, MAX_ITERATIONS_LIMIT};
use crate::level::Level;

/// One field of [`CharacterController`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharacterField {
    /// `radius`.
    Radius,
    /// `height`.
    Height,
    /// `skin`.
    Skin,
    /// `max_step`.
    MaxStep,
    /// `max_slope_deg`.
    MaxSlopeDeg,
    /// `snap_distance`.
    SnapDistance,
    /// `max_iterations`.
    MaxIterations,
    /// `jump_height` (the body's).
    JumpHeight,
    /// `air_accel` (the body's).
    AirAccel,
    /// `crouch_height` (the body's).
    CrouchHeight,
}

impl CharacterField {
    /// Every field, in the struct's order.
    pub const ALL: [CharacterField; 10] = [
        Self::Radius,
        Self::Height,
        Self::Skin,
        Self::MaxStep,
        Self::MaxSlopeDeg,
        Self::SnapDistance,
        Self::MaxIterations,
        Self::JumpHeight,
        Self::AirAccel,
        Self::CrouchHeight,
    ];

    /// Its name in the level file and in [`CharacterController::problems`].
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Radius => "radius",
            Self::Height => "height",
            Self::Skin => "skin",
            Self::MaxStep => "max_step",
            Self::MaxSlopeDeg => "max_slope_deg",
            Self::SnapDistance => "snap_distance",
            Self::MaxIterations => "max_iterations",
            Self::JumpHeight => "jump_height",
            Self::AirAccel => "air_accel",
            Self::CrouchHeight => "crouch_height",
        }
    }

    /// Its unit, as shown beside the field.
    #[must_use]
    pub fn unit(self) -> &'static str {
        match self {
            Self::MaxSlopeDeg => "°",
            Self::MaxIterations => "",
            Self::AirAccel => "m/s²",
            _ => "m",
        }
    }

    /// The rule it must keep, in words (what [`CharacterController::problems`] checks).
    #[must_use]
    pub fn limits(self) -> String {
        match self {
            Self::Radius => "> 0".into(),
            Self::Height => ">= 2 x radius".into(),
            Self::Skin => "> 0, < radius".into(),
            Self::MaxStep => ">= 0, < height".into(),
            Self::MaxSlopeDeg => "0 to < 90".into(),
            Self::SnapDistance => ">= 0".into(),
            Self::MaxIterations => format!("1 to {MAX_ITERATIONS_LIMIT}"),
            Self::JumpHeight | Self::AirAccel => ">= 0".into(),
            Self::CrouchHeight => "> 0 (kept within 2 x radius .. height)".into(),
        }
    }

    /// What it means, for the field's tooltip.
    #[must_use]
    pub fn help(self) -> &'static str {
        match self {
            Self::Radius => "radius of the capsule",
            Self::Height => "from the feet to the top of the head",
            Self::Skin => "the clearance kept between the body and everything it touches",
            Self::MaxStep => "the highest riser climbed without jumping",
            Self::MaxSlopeDeg => {
                "the steepest surface that supports the character, degrees from level"
            }
            Self::SnapDistance => {
                "how far below the end of a move the feet are pulled down onto a floor"
            }
            Self::MaxIterations => "the most slide iterations (sweeps) one move may take",
            Self::JumpHeight => "how high a jump lifts the feet under the level's gravity",
            Self::AirAccel => "how fast the keys turn the horizontal velocity in the air",
            Self::CrouchHeight => "the body's height while crouching (Walk mode: hold C)",
        }
    }

    /// Its value in `c`.
    #[must_use]
    pub fn get(self, c: &CharacterController) -> f64 {
        match self {
            Self::Radius => f64::from(c.radius),
            Self::Height => f64::from(c.height),
            Self::Skin => f64::from(c.skin),
            Self::MaxStep => f64::from(c.max_step),
            Self::MaxSlopeDeg => f64::from(c.max_slope_deg),
            Self::SnapDistance => f64::from(c.snap_distance),
            Self::MaxIterations => f64::from(c.max_iterations),
            Self::JumpHeight => f64::from(c.jump_height),
            Self::AirAccel => f64::from(c.air_accel),
            Self::CrouchHeight => f64::from(c.crouch_height),
        }
    }

    /// `c` with this field set to `v`, or why `v` is not a value of its type (a count must be a whole
    /// number); the field's limits are [`CharacterController::problems`]' to judge.
    pub fn with(self, c: &CharacterController, v: f64) -> Result<CharacterController, String> {
        let mut c = *c;
        let f = v as f32;
        match self {
            Self::Radius => c.radius = f,
            Self::Height => c.height = f,
            Self::Skin => c.skin = f,
            Self::MaxStep => c.max_step = f,
            Self::MaxSlopeDeg => c.max_slope_deg = f,
            Self::SnapDistance => c.snap_distance = f,
            Self::JumpHeight => c.jump_height = f,
            Self::AirAccel => c.air_accel = f,
            Self::CrouchHeight => c.crouch_height = f,
            Self::MaxIterations => {
                if v.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&v) {
                    return Err(format!("must be a whole number (is {v})"));
                }
                c.max_iterations = v as u32;
            }
        }
        Ok(c)
    }
}

/// The character the level uses: its own, or the default when it has none.
#[must_use]
pub fn effective(level: &Level) -> CharacterController {
    level.character.unwrap_or_default()
}

/// The edit setting `field` of the level's character to `value` (a level without a character gets the
/// defaults with this one value), or why not: the runtime's own reasons, the field's first (a change
/// that breaks another field's rule, such as a radius above half the height, names that field). A
/// setting that was already broken does not block edits of other fields.
pub fn set_field(
    level: &Level,
    field: CharacterField,
    value: f64,
    merge: Option<String>,
) -> Result<LabelledEdit, String> {
    let before = effective(level);
    let after = field.with(&before, value)?;
    let old: Vec<(&str, String)> = before.problems();
    let mut new: Vec<(&str, String)> = after
        .problems()
        .into_iter()
        .filter(|(f, _)| *f == field.name() || !old.iter().any(|(o, _)| o == f))
        .collect();
    // The edited field's own problem first.
    new.sort_by_key(|(f, _)| *f != field.name());
    if let Some((f, why)) = new.first() {
        return Err(if *f == field.name() {
            why.clone()
        } else {
            format!("{f} {why}")
        });
    }
    let mut h = Header::of(level);
    h.character = Some(after);
    Ok(LabelledEdit::new(
        format!("Set character {}", field.name()),
        Edit {
            header: Some(h),
            ..Edit::default()
        },
        merge,
    ))
}

/// Write the default character into the level (it used the default already; now the file says so and the
/// values can be read there), or why not.
pub fn add(level: &Level) -> Result<LabelledEdit, String> {
    if level.character.is_some() {
        return Err("the level has a character already".into());
    }
    let mut h = Header::of(level);
    h.character = Some(CharacterController::default());
    Ok(LabelledEdit::new(
        "Add the default character",
        Edit {
            header: Some(h),
            ..Edit::default()
        },
        None,
    ))
}

/// Remove the level's character: it uses the default again.
pub fn remove(level: &Level) -> Result<LabelledEdit, String> {
    if level.character.is_none() {
        return Err("the level has no character of its own".into());
    }
    let mut h = Header::of(level);
    h.character = None;
    Ok(LabelledEdit::new(
        "Remove the character (use the default)",
        Edit {
            header: Some(h),
            ..Edit::default()
        },
        None,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::document::Document;

    fn apply(doc: &mut Document, e: LabelledEdit) {
        doc.apply_merging(e.label, e.edit, e.merge_key);
    }

    #[test]
    fn a_valid_value_applies_and_a_level_without_a_character_gets_the_defaults() {
        let mut doc = Document::new(Level::default(), None);
        let e = set_field(doc.level(), CharacterField::Radius, 0.4, None).unwrap();
        apply(&mut doc, e);
        let c = doc.level().character.unwrap();
        assert_eq!(
            c,
            CharacterController {
                radius: 0.4,
                ..CharacterController::default()
            }
        );
        let e = set_field(doc.level(), CharacterField::MaxIterations, 12.0, None).unwrap();
        apply(&mut doc, e);
        assert_eq!(doc.level().character.unwrap().max_iterations, 12);
        doc.undo();
        doc.undo();
        assert_eq!(doc.level().character, None);
    }

    #[test]
    fn values_that_break_the_runtimes_rule_are_refused_with_its_reason() {
        let level = Level::default();
        let refuse = |f: CharacterField, v: f64| set_field(&level, f, v, None).unwrap_err();
        assert_eq!(
            refuse(CharacterField::Radius, 0.0),
            "must be greater than 0 (is 0)"
        );
        assert_eq!(
            refuse(CharacterField::Height, 0.5),
            "must be at least twice the radius, 0.6 (is 0.5)"
        );
        // A radius above half the height breaks the height's rule (and the skin's, for a tiny radius).
        assert!(refuse(CharacterField::Radius, 1.0).starts_with("height must be at least twice"));
        assert!(refuse(CharacterField::Radius, 0.005).starts_with("skin must be"));
        assert!(refuse(CharacterField::MaxSlopeDeg, 90.0).contains("less than 90"));
        assert!(refuse(CharacterField::MaxStep, 2.0).contains("less than the height"));
        assert!(refuse(CharacterField::SnapDistance, -1.0).contains("0 or more"));
        assert!(refuse(CharacterField::MaxIterations, 0.0).contains("between 1 and 1024"));
        assert!(refuse(CharacterField::MaxIterations, 2.5).contains("whole number"));
        assert!(refuse(CharacterField::Skin, f64::NAN).contains("is NaN"));
        let why = refuse(CharacterField::JumpHeight, -1.0);
        assert_eq!(why, "must be 0 or more (is -1)");
        assert!(refuse(CharacterField::AirAccel, f64::INFINITY).contains("0 or more"));
        assert!(refuse(CharacterField::CrouchHeight, 0.0).contains("greater than 0"));
        // Every refusal's reason is the runtime's own, word for word.
        let bad = CharacterController {
            max_slope_deg: 95.0,
            ..CharacterController::default()
        };
        assert_eq!(
            refuse(CharacterField::MaxSlopeDeg, 95.0),
            bad.problems()[0].1
        );
    }

    #[test]
    fn a_setting_broken_in_the_file_does_not_block_other_fields() {
        let level = Level {
            character: Some(CharacterController {
                max_slope_deg: 120.0,
                ..CharacterController::default()
            }),
            ..Level::default()
        };
        assert!(set_field(&level, CharacterField::Radius, 0.25, None).is_ok());
        assert!(set_field(&level, CharacterField::MaxSlopeDeg, 100.0, None).is_err());
        assert!(set_field(&level, CharacterField::MaxSlopeDeg, 40.0, None).is_ok());
    }

    #[test]
    fn add_and_remove_are_one_step_each() {
        let mut doc = Document::new(Level::default(), None);
        assert!(remove(doc.level()).is_err());
        let e = add(doc.level()).unwrap();
        apply(&mut doc, e);
        assert_eq!(doc.level().character, Some(CharacterController::default()));
        assert!(add(doc.level()).is_err());
        let e = set_field(doc.level(), CharacterField::Height, 2.0, None).unwrap();
        apply(&mut doc, e);
        let e = remove(doc.level()).unwrap();
        apply(&mut doc, e);
        assert_eq!(doc.level().character, None);
        assert_eq!(effective(doc.level()), CharacterController::default());
        doc.undo();
        assert_eq!(doc.level().character.unwrap().height, 2.0);
    }
}
