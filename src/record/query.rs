//! One recorded query ([`QueryRecord`]): its inputs and answer, how it reads, how it reruns and compares.

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use crate::character::{CharacterController, CharacterMove};
use crate::level::ObjectId;
use crate::scene::{Scene, SceneHit, SceneToi};
use crate::shape::{Ray, Sphere};

/// One recorded query: its inputs and the answer the game got.
///
/// A character move's answer is kept whole, inline, as the public contract has it (`result: CharacterMove`):
/// that makes every record as large as a move in memory (336 bytes; 72 before the move was a kind), which a
/// decoded recording pays per query; encoded, each kind takes its own size (a ray that hits 59 bytes, a move
/// with its workings a few hundred).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
// The shape is the public contract (API.md, a struct-literal variant with `result: CharacterMove`).
#[allow(clippy::large_enum_variant)]
pub enum QueryRecord {
    /// [`Scene::cast_ray`].
    Ray {
        /// The ray.
        ray: Ray,
        /// The longest `t`.
        max_t: f32,
        /// The answer.
        hit: Option<SceneHit>,
    },
    /// [`Scene::sweep_sphere`].
    Sweep {
        /// The sphere at the start.
        sphere: Sphere,
        /// Its motion.
        motion: Vec3,
        /// The answer.
        toi: Option<SceneToi>,
    },
    /// [`Scene::overlap_sphere`].
    Overlap {
        /// The sphere.
        sphere: Sphere,
        /// The answer: objects touched, ids ascending.
        objects: Vec<ObjectId>,
    },
    /// [`Scene::move_and_slide`].
    Slide {
        /// Start, top-down `(x, z)`.
        from: Vec2,
        /// The mover's radius.
        radius: f32,
        /// The motion asked for.
        motion: Vec2,
        /// The answer: where it ended.
        end: Vec2,
    },
    /// [`CharacterController::move_character`]: one move of a character. The last kind, so recordings
    /// written before it existed still load (postcard numbers the kinds in this order).
    Character {
        /// The character's size and limits (those a move uses are recorded: a record read back has the
        /// defaults of the body's own fields, `jump_height`, `air_accel` and `crouch_height`).
        #[serde(with = "controller_wire")]
        controller: CharacterController,
        /// The feet at the start.
        feet: Vec3,
        /// The motion asked for (gravity included).
        motion: Vec3,
        /// The answer, whole: the move's workings ([`CharacterMove::trace`]) included; the fields a body's
        /// step adds among movers (`crushed`, `movers`) are not kept (see `move_wire`).
        #[serde(with = "move_wire")]
        result: CharacterMove,
    },
}

/// The same layout as [`QueryRecord`], borrowing, so a query is encoded without a copy.
#[derive(Serialize)]
pub(super) enum QueryRef<'a> {
    Ray {
        ray: &'a Ray,
        max_t: f32,
        hit: &'a Option<SceneHit>,
    },
    Sweep {
        sphere: &'a Sphere,
        motion: Vec3,
        toi: &'a Option<SceneToi>,
    },
    Overlap {
        sphere: &'a Sphere,
        objects: &'a [ObjectId],
    },
    Slide {
        from: Vec2,
        radius: f32,
        motion: Vec2,
        end: Vec2,
    },
    Character {
        #[serde(serialize_with = "controller_wire::serialize")]
        controller: &'a CharacterController,
        feet: Vec3,
        motion: Vec3,
        #[serde(serialize_with = "move_wire::serialize")]
        result: &'a CharacterMove,
    },
}

/// A recorded move's controller: the fields `move_character` reads, in the order recordings have always
/// kept them, so recordings made before the body's fields (`jump_height`, `air_accel`, `crouch_height`) were
/// added still load and new ones read the same way. Those fields take their defaults when read back.
mod controller_wire {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::character::CharacterController;

    #[derive(Serialize, Deserialize)]
    struct Wire {
        radius: f32,
        height: f32,
        skin: f32,
        max_step: f32,
        max_slope_deg: f32,
        snap_distance: f32,
        max_iterations: u32,
    }

    pub(super) fn serialize<S: Serializer>(
        c: &CharacterController,
        out: S,
    ) -> Result<S::Ok, S::Error> {
        Wire {
            radius: c.radius,
            height: c.height,
            skin: c.skin,
            max_step: c.max_step,
            max_slope_deg: c.max_slope_deg,
            snap_distance: c.snap_distance,
            max_iterations: c.max_iterations,
        }
        .serialize(out)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        input: D,
    ) -> Result<CharacterController, D::Error> {
        let w = Wire::deserialize(input)?;
        Ok(CharacterController {
            radius: w.radius,
            height: w.height,
            skin: w.skin,
            max_step: w.max_step,
            max_slope_deg: w.max_slope_deg,
            snap_distance: w.snap_distance,
            max_iterations: w.max_iterations,
            ..CharacterController::default()
        })
    }
}

/// A recorded move's answer: the fields `move_character` answers, in the order recordings have always kept
/// them, so recordings made before `Body::step` learnt movers still load (postcard is not self-describing:
/// a field added at the end would be read from the next frame's bytes). `crushed` and `movers` are what a
/// body's step adds around the move; `move_character`, which is what is recorded, never sets them, so they
/// read back as their defaults with nothing lost.
mod move_wire {
    use glam::Vec3;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::character::{CharacterHit, CharacterMove, Ground, Limit, MoveTrace};

    #[derive(Serialize)]
    struct WireRef<'a> {
        feet: Vec3,
        grounded: bool,
        ground: &'a Option<Ground>,
        hits: &'a [CharacterHit],
        stepped_up: f32,
        snapped_down: f32,
        start: Vec3,
        motion: Vec3,
        limit: &'a Option<Limit>,
        trace: &'a MoveTrace,
    }

    #[derive(Deserialize)]
    struct Wire {
        feet: Vec3,
        grounded: bool,
        ground: Option<Ground>,
        hits: Vec<CharacterHit>,
        stepped_up: f32,
        snapped_down: f32,
        start: Vec3,
        motion: Vec3,
        limit: Option<Limit>,
        trace: MoveTrace,
    }

    pub(super) fn serialize<S: Serializer>(m: &CharacterMove, out: S) -> Result<S::Ok, S::Error> {
        WireRef {
            feet: m.feet,
            grounded: m.grounded,
            ground: &m.ground,
            hits: &m.hits,
            stepped_up: m.stepped_up,
            snapped_down: m.snapped_down,
            start: m.start,
            motion: m.motion,
            limit: &m.limit,
            trace: &m.trace,
        }
        .serialize(out)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        input: D,
    ) -> Result<CharacterMove, D::Error> {
        let w = Wire::deserialize(input)?;
        Ok(CharacterMove {
            feet: w.feet,
            grounded: w.grounded,
            ground: w.ground,
            hits: w.hits,
            stepped_up: w.stepped_up,
            snapped_down: w.snapped_down,
            start: w.start,
            motion: w.motion,
            limit: w.limit,
            trace: w.trace,
            crushed: false,
            movers: Vec::new(),
        })
    }
}

/// Postcard bytes of a value: for these types they are the value's bits (floats as their IEEE bits), so equal
/// bytes are equal answers bit for bit, a NaN equal to itself and `-0.0` apart from `0.0`, as for the other
/// kinds. Encoding into a `Vec` cannot fail for them.
fn bytes_of(v: &impl Serialize) -> Vec<u8> {
    postcard::to_allocvec(v).unwrap_or_default()
}

/// The parts of a move's answer that differ between two moves, by name: `feet`, `grounded`, `ground`, `hits`,
/// `steps` (`stepped_up`), `snap` (`snapped_down`), `limit`.
fn move_differences(a: &CharacterMove, b: &CharacterMove) -> Vec<&'static str> {
    [
        ("feet", same_bits(&a.feet.to_array(), &b.feet.to_array())),
        ("grounded", a.grounded == b.grounded),
        ("ground", bytes_of(&a.ground) == bytes_of(&b.ground)),
        ("hits", bytes_of(&a.hits) == bytes_of(&b.hits)),
        ("steps", a.stepped_up.to_bits() == b.stepped_up.to_bits()),
        ("snap", a.snapped_down.to_bits() == b.snapped_down.to_bits()),
        ("limit", bytes_of(&a.limit) == bytes_of(&b.limit)),
    ]
    .into_iter()
    .filter(|(_, same)| !same)
    .map(|(name, _)| name)
    .collect()
}

/// Float fields compared by their bits, so NaN inputs compare equal to themselves.
fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

fn hit_bits(h: &Option<SceneHit>) -> Option<(ObjectId, Vec<f32>)> {
    h.map(|h| {
        (
            h.object,
            vec![
                h.t, h.point.x, h.point.y, h.point.z, h.normal.x, h.normal.y, h.normal.z,
            ],
        )
    })
}

fn toi_bits(h: &Option<SceneToi>) -> Option<(ObjectId, Vec<f32>)> {
    h.map(|h| {
        (
            h.object,
            vec![
                h.t, h.point.x, h.point.y, h.point.z, h.normal.x, h.normal.y, h.normal.z,
            ],
        )
    })
}

impl QueryRecord {
    /// The answer in one line for people (the CLI's `replay`, the editor's query list): the object hit and
    /// where (`#12 at t 1.2500 (3.00, 0.50, -1.00)`), the objects touched, the slide's end, or `nothing`; for
    /// a character move where the feet ended, the ground, the step and snap, and the limit met in words
    /// ([`Limit::describe`](crate::character::Limit::describe)): `feet (1.00, 0.21, 0.00), grounded on #7,
    /// stepped 0.20 m` or `feet (2.69, 0.01, 0.00), grounded on #1; blocked by a wall: #3`.
    /// Points have `digits` decimals, `t` two more, a slide's end one more.
    ///
    /// ```
    /// use collidoscope::record::QueryRecord;
    /// use collidoscope::glam::{Vec2, Vec3};
    /// use collidoscope::shape::Sphere;
    /// let q = QueryRecord::Overlap { sphere: Sphere::new(Vec3::ZERO, 1.0), objects: vec![] };
    /// assert_eq!(q.answer_text(2), "nothing");
    /// let q = QueryRecord::Slide { from: Vec2::ZERO, radius: 0.3, motion: Vec2::X, end: Vec2::new(0.25, 0.0) };
    /// assert_eq!(q.answer_text(2), "ends at (0.250, 0.000)");
    /// ```
    #[must_use]
    pub fn answer_text(&self, digits: usize) -> String {
        let (t, slide) = (digits + 2, digits + 1);
        let hit = |object: ObjectId, at: f32, p: Vec3| {
            format!(
                "{object} at t {at:.t$} ({:.digits$}, {:.digits$}, {:.digits$})",
                p.x, p.y, p.z
            )
        };
        match self {
            QueryRecord::Ray { hit: Some(h), .. } => hit(h.object, h.t, h.point),
            QueryRecord::Sweep { toi: Some(h), .. } => hit(h.object, h.t, h.point),
            QueryRecord::Ray { hit: None, .. } | QueryRecord::Sweep { toi: None, .. } => {
                "nothing".into()
            }
            QueryRecord::Overlap { objects, .. } if objects.is_empty() => "nothing".into(),
            QueryRecord::Overlap { objects, .. } => objects
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            QueryRecord::Slide { end, .. } => {
                format!("ends at ({:.slide$}, {:.slide$})", end.x, end.y)
            }
            QueryRecord::Character {
                controller, result, ..
            } => {
                let f = result.feet;
                let mut out = format!(
                    "feet ({:.digits$}, {:.digits$}, {:.digits$})",
                    f.x, f.y, f.z
                );
                match (&result.ground, result.grounded) {
                    (Some(g), true) => out += &format!(", grounded on {}", g.object),
                    (_, true) => out += ", grounded",
                    (_, false) => out += ", in the air",
                }
                if result.stepped_up != 0.0 {
                    out += &format!(", stepped {:.digits$} m", result.stepped_up);
                }
                if result.snapped_down != 0.0 {
                    out += &format!(", snapped {:.digits$} m", result.snapped_down);
                }
                if let Some(limit) = &result.limit {
                    out += "; ";
                    out += &limit.describe(controller.max_step, controller.max_slope_deg, |id| {
                        id.to_string()
                    });
                }
                out
            }
        }
    }

    /// The same inputs asked again of `scene`.
    #[must_use]
    pub fn rerun(&self, scene: &Scene) -> QueryRecord {
        match self {
            QueryRecord::Ray { ray, max_t, .. } => QueryRecord::Ray {
                ray: *ray,
                max_t: *max_t,
                hit: scene.cast_ray(ray, *max_t),
            },
            QueryRecord::Sweep { sphere, motion, .. } => QueryRecord::Sweep {
                sphere: *sphere,
                motion: *motion,
                toi: scene.sweep_sphere(sphere, *motion),
            },
            QueryRecord::Overlap { sphere, .. } => QueryRecord::Overlap {
                sphere: *sphere,
                objects: scene.overlap_sphere(sphere),
            },
            QueryRecord::Slide {
                from,
                radius,
                motion,
                ..
            } => QueryRecord::Slide {
                from: *from,
                radius: *radius,
                motion: *motion,
                end: scene.move_and_slide(*from, *radius, *motion),
            },
            QueryRecord::Character {
                controller,
                feet,
                motion,
                ..
            } => QueryRecord::Character {
                controller: *controller,
                feet: *feet,
                motion: *motion,
                result: controller.move_character(scene, *feet, *motion),
            },
        }
    }

    /// Whether two records of the same query got the same answer, bit for bit (inputs are not compared, and a
    /// NaN answer equals itself). A character move's answer is what the game sees of it: the feet, `grounded`,
    /// the ground, the hits, `stepped_up`, `snapped_down` and the limit ([`QueryRecord::differences`] names
    /// them); its workings ([`CharacterMove::trace`]) are not part of it (a probe that finds something new
    /// without changing where the character went changed nothing for the game).
    #[must_use]
    pub fn same_answer(&self, other: &QueryRecord) -> bool {
        match (self, other) {
            (
                QueryRecord::Character { result: a, .. },
                QueryRecord::Character { result: b, .. },
            ) => move_differences(a, b).is_empty(),
            (QueryRecord::Ray { hit: a, .. }, QueryRecord::Ray { hit: b, .. }) => {
                match (hit_bits(a), hit_bits(b)) {
                    (Some((ia, fa)), Some((ib, fb))) => ia == ib && same_bits(&fa, &fb),
                    (None, None) => true,
                    _ => false,
                }
            }
            (QueryRecord::Sweep { toi: a, .. }, QueryRecord::Sweep { toi: b, .. }) => {
                match (toi_bits(a), toi_bits(b)) {
                    (Some((ia, fa)), Some((ib, fb))) => ia == ib && same_bits(&fa, &fb),
                    (None, None) => true,
                    _ => false,
                }
            }
            (QueryRecord::Overlap { objects: a, .. }, QueryRecord::Overlap { objects: b, .. }) => {
                a == b
            }
            (QueryRecord::Slide { end: a, .. }, QueryRecord::Slide { end: b, .. }) => {
                same_bits(&[a.x, a.y], &[b.x, b.y])
            }
            _ => false,
        }
    }

    /// Which parts of the answer differ between two records of the same query, by name; empty exactly when
    /// [`QueryRecord::same_answer`]. A character move names each part that changed: `feet`, `grounded`,
    /// `ground`, `hits`, `steps` (`stepped_up`), `snap` (`snapped_down`), `limit`; the other kinds name their
    /// one answer: `hit`, `toi`, `objects`, `end`. Records of different kinds differ in `kind`.
    #[must_use]
    pub fn differences(&self, other: &QueryRecord) -> Vec<&'static str> {
        match (self, other) {
            (
                QueryRecord::Character { result: a, .. },
                QueryRecord::Character { result: b, .. },
            ) => move_differences(a, b),
            _ if self.kind() != other.kind() => vec!["kind"],
            _ if self.same_answer(other) => Vec::new(),
            (QueryRecord::Ray { .. }, _) => vec!["hit"],
            (QueryRecord::Sweep { .. }, _) => vec!["toi"],
            (QueryRecord::Overlap { .. }, _) => vec!["objects"],
            _ => vec!["end"],
        }
    }

    /// The kind's short name: `ray`, `sweep`, `overlap`, `slide` or `character`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            QueryRecord::Ray { .. } => "ray",
            QueryRecord::Sweep { .. } => "sweep",
            QueryRecord::Overlap { .. } => "overlap",
            QueryRecord::Slide { .. } => "slide",
            QueryRecord::Character { .. } => "character",
        }
    }

    /// Every kind's short name, in the order of the variants.
    pub const KINDS: [&'static str; 5] = ["ray", "sweep", "overlap", "slide", "character"];

    /// The objects the answer names (the hit, the first contact, every overlap; none for a slide; for a
    /// character move the ground, every hit and the objects of its limit, ids ascending).
    #[must_use]
    pub fn objects(&self) -> Vec<ObjectId> {
        match self {
            QueryRecord::Ray { hit, .. } => hit.iter().map(|h| h.object).collect(),
            QueryRecord::Sweep { toi, .. } => toi.iter().map(|h| h.object).collect(),
            QueryRecord::Overlap { objects, .. } => objects.clone(),
            QueryRecord::Slide { .. } => Vec::new(),
            QueryRecord::Character { result, .. } => {
                use crate::character::Limit;
                let mut out: Vec<ObjectId> = result.ground.iter().map(|g| g.object).collect();
                out.extend(result.hits.iter().map(|h| h.object));
                match &result.limit {
                    Some(
                        Limit::StepTooHigh { object, .. }
                        | Limit::SlopeTooSteep { object, .. }
                        | Limit::Wall { object, .. }
                        | Limit::Ceiling { object, .. },
                    ) => out.push(*object),
                    Some(Limit::Corner { objects, .. } | Limit::Inside { objects }) => {
                        out.extend_from_slice(objects);
                    }
                    Some(Limit::Iterations | Limit::Invalid { .. }) | None => {}
                }
                out.sort_unstable();
                out.dedup();
                out
            }
        }
    }

    /// Whether the answer found nothing (no hit, no contact, no overlap, a slide that went the whole way, a
    /// character move that met nothing, stood on nothing and ended without a limit: a fall through the void).
    #[must_use]
    pub fn hit_nothing(&self) -> bool {
        match self {
            QueryRecord::Character { result, .. } => {
                result.hits.is_empty() && result.ground.is_none() && result.limit.is_none()
            }
            QueryRecord::Ray { hit, .. } => hit.is_none(),
            QueryRecord::Sweep { toi, .. } => toi.is_none(),
            QueryRecord::Overlap { objects, .. } => objects.is_empty(),
            QueryRecord::Slide {
                from, motion, end, ..
            } => (*from + *motion - *end).length() <= 1e-6 * (1.0 + motion.length()),
        }
    }
}
