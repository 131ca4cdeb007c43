//! Level files: a versioned, human-editable RON format, its validation, and atomic load/save.
//!
//! A level is one top-level struct with a `version` field. The reader peeks at `version` first, then parses
//! that version's layout and migrates it to the current one ([`LEVEL_VERSION`]), so older files keep loading.
//! Unknown fields are errors. Parse errors read `file:line:col: field.path: message`; problems found by
//! [`Level::validate`] (non-finite numbers, zero-length walls, degenerate triangles, duplicate ids, …) are a
//! separate list of errors and warnings, so an editor can load a level with problems and show them.
//!
//! The floor is the XZ plane, `y` is up, lengths are metres. Walls are top-down segments `Vec2(x, z)` with a
//! collision radius, extruded to a height.
//!
//! # Versions
//! - **0** (an early draft, read only): `walls: [((x1, z1), (x2, z2)), …]` with one global
//!   `collision_distance`, balls without mass or restitution, no ids. Migrated by numbering the objects,
//!   giving every wall the global distance, and balls mass 1 and restitution 1.
//! - **1**: walls, triangles, balls, planes, cylinders, boxes, meshes, the walker start, probes.
//! - **2**: version 1 and the game data (entity types, entities, triggers) and the character. Migrated with no
//!   sectors.
//! - **3** (current): version 2 and greybox sectors ([`SectorObject`]); the walker start may give its
//!   storey ([`WalkerStart::height`]).

use crate::character::CharacterController;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::shape::Aabb;

/// The version [`Level::to_ron_string`] writes.
pub const LEVEL_VERSION: u32 = 3;

/// Largest level file [`Level::load`] reads, in bytes: a bigger one is refused before it is read.
pub const MAX_FILE_BYTES: u64 = 512 * 1024 * 1024;

/// Most objects of all kinds together that a level may hold (a mesh counts its triangles).
pub const MAX_OBJECTS: usize = 4_000_000;

/// Deepest nesting the parser follows before it gives up (RON's recursion limit).
pub const MAX_NESTING: usize = 64;

/// A level: everything a game or the editor loads.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// Display name.
    pub name: String,
    /// Free text about the level (RON has comments, but a saved file keeps only what the level holds).
    pub description: String,
    /// Units and axes.
    pub units: Units,
    /// Height of walls that do not give their own.
    pub default_wall_height: f32,
    /// Top-down walls.
    pub walls: Vec<WallObject>,
    /// Triangles.
    pub triangles: Vec<TriangleObject>,
    /// Balls.
    pub balls: Vec<BallObject>,
    /// Infinite planes.
    pub planes: Vec<PlaneObject>,
    /// Capped cylinders.
    pub cylinders: Vec<CylinderObject>,
    /// Axis-aligned boxes.
    pub aabbs: Vec<AabbObject>,
    /// Oriented boxes.
    pub obbs: Vec<ObbObject>,
    /// Triangle meshes.
    pub meshes: Vec<MeshObject>,
    /// Greybox sectors (format version 3): cooked into triangles, one object each ([`crate::sector`]).
    pub sectors: Vec<SectorObject>,
    /// The walker's start, if the level has one.
    pub walker: Option<WalkerStart>,
    /// The level's player size and movement limits (absent: [`CharacterController::default`]).
    pub character: Option<CharacterController>,
    /// Simulation settings.
    pub simulation: SimulationConfig,
    /// Saved probe rays.
    pub probes: Vec<Probe>,
    /// Entity types: typed field definitions (format version 2).
    pub entity_types: Vec<EntityType>,
    /// Entities: typed, placed game objects.
    pub entities: Vec<EntityObject>,
    /// Trigger volumes.
    pub triggers: Vec<TriggerObject>,
    /// Moving parts (format version 3, optional): objects moved along paths ([`MoverObject`]).
    pub movers: Vec<MoverObject>,
    /// The text the level was read from, so [`Level::validate`] can give each problem its line and column
    /// (metadata: levels compare equal whatever their sources). [`Source::none`] for a level built in code.
    pub source: Source,
}

impl Default for Level {
    fn default() -> Self {
        Self {
            name: String::new(),
            description: String::new(),
            units: Units::MetresYUp,
            default_wall_height: 2.5,
            walls: Vec::new(),
            triangles: Vec::new(),
            balls: Vec::new(),
            planes: Vec::new(),
            cylinders: Vec::new(),
            aabbs: Vec::new(),
            obbs: Vec::new(),
            meshes: Vec::new(),
            sectors: Vec::new(),
            walker: None,
            character: None,
            simulation: SimulationConfig::default(),
            probes: Vec::new(),
            entity_types: Vec::new(),
            entities: Vec::new(),
            triggers: Vec::new(),
            movers: Vec::new(),
            source: Source::none(),
        }
    }
}

/// Why a level could not be read or written. `Display` reads `file:line:col: field: message` (no file part
/// for strings).
#[derive(Debug, thiserror::Error)]
pub enum LevelError {
    /// The file could not be read or written.
    #[error("{}: {action}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done.
        action: &'static str,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The text is not a valid level: syntax, a wrong type, an unknown or missing field.
    #[error("{}", format_parse(file.as_deref(), *line, *col, field, message))]
    Parse {
        /// The file, when loading from one.
        file: Option<PathBuf>,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// Path of the field at fault, such as `walls[3].radius` (empty at top level).
        field: String,
        /// What is wrong.
        message: String,
    },
    /// The file is bigger than [`MAX_FILE_BYTES`] or holds more than [`MAX_OBJECTS`] objects.
    #[error("{}{message}", file.as_ref().map(|f| format!("{}: ", f.display())).unwrap_or_default())]
    TooLarge {
        /// The file, when loading from one.
        file: Option<PathBuf>,
        /// What is too large.
        message: String,
    },
    /// The level has validation errors (for operations that need a clean level, such as building a world or
    /// exporting).
    #[error("{} error(s); first: {}", problems.iter().filter(|p| p.severity == Severity::Error).count(),
        problems.iter().find(|p| p.severity == Severity::Error).map(ToString::to_string).unwrap_or_default())]
    Invalid {
        /// Every problem found.
        problems: Vec<Problem>,
    },
}

fn format_parse(
    file: Option<&Path>,
    line: usize,
    col: usize,
    field: &str,
    message: &str,
) -> String {
    let mut s = String::new();
    if let Some(f) = file {
        s.push_str(&format!("{}:", f.display()));
    }
    s.push_str(&format!("{line}:{col}: "));
    if !field.is_empty() {
        s.push_str(field);
        s.push_str(": ");
    }
    s.push_str(message);
    s
}

impl LevelError {
    /// The same error attributed to `file`.
    #[must_use]
    pub fn in_file(self, path: &Path) -> Self {
        match self {
            Self::Parse {
                line,
                col,
                field,
                message,
                ..
            } => Self::Parse {
                file: Some(path.to_path_buf()),
                line,
                col,
                field,
                message,
            },
            Self::TooLarge { message, .. } => Self::TooLarge {
                file: Some(path.to_path_buf()),
                message,
            },
            other => other,
        }
    }
}

/// How serious a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Severity {
    /// The level cannot be simulated or exported as it is.
    Error,
    /// Suspicious but usable.
    Warning,
}

/// One validation problem.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// The object at fault, if one.
    pub object: Option<ObjectId>,
    /// Path of the field at fault, such as `walls[3].radius`.
    pub field: String,
    /// What is wrong.
    pub message: String,
    /// 1-based line of the object or field at fault, for a level read from text (when known).
    #[serde(default)]
    pub line: Option<u32>,
    /// 1-based column of the object or field at fault, for a level read from text (when known).
    #[serde(default)]
    pub col: Option<u32>,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{sev}: {}", self.field)?;
        if let Some(id) = self.object {
            write!(f, " ({id})")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Just the version, read first (other fields ignored).
#[derive(Deserialize)]
struct Header {
    version: u32,
}

/// How levels are written: objects one per line, compact inside (the canonical layout).
fn pretty_config() -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new()
        .depth_limit(2)
        .indentor("    ")
        .struct_names(false)
        .extensions(ron::extensions::Extensions::IMPLICIT_SOME)
}

fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .with_recursion_limit(MAX_NESTING)
}

/// Parse `text` as `T`, turning failures into [`LevelError::Parse`] with the field path.
fn parse_with_path<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, LevelError> {
    let options = ron_options();
    // Fast path: a level that parses needs no field-path tracking (about a fifth of the parse time on a
    // large level); only a failing parse is redone with it, for the precise error.
    if let Ok(value) = options.from_str::<T>(text) {
        return Ok(value);
    }
    let mut de = ron::Deserializer::from_str_with_options(text, &options)
        .map_err(|e| spanned_to_error(&e, String::new()))?;
    let value = match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Ok(v) => v,
        Err(e) => {
            let field = clean_path(&e.path().to_string());
            let spanned = de.span_error(e.into_inner());
            return Err(spanned_to_error(&spanned, field));
        }
    };
    de.end()
        .map_err(|e| spanned_to_error(&de.span_error(e), String::new()))?;
    Ok(value)
}

/// Parse a level of a current layout: a large text with its big lists on every core ([`chunked`]), else
/// (or when that reader is unsure) in one piece with field paths for the errors.
fn parse_level<T>(text: &str) -> Result<Level, LevelError>
where
    T: serde::de::DeserializeOwned + Send + Into<Level>,
{
    if text.len() >= chunked::MIN_BYTES
        && let Some(level) = chunked::parse::<T>(text)
    {
        return Ok(level);
    }
    Ok(parse_with_path::<T>(text)?.into())
}

/// serde_path_to_error writes `?` for an unknown position and `.` at top level.
fn clean_path(path: &str) -> String {
    if path == "." || path == "?" {
        String::new()
    } else {
        path.to_owned()
    }
}

fn spanned_to_error(e: &ron::error::SpannedError, field: String) -> LevelError {
    LevelError::Parse {
        file: None,
        line: e.span.start.line,
        col: e.span.start.col,
        field,
        message: e.code.to_string(),
    }
}

/// Count of objects, for the size limit.
fn object_count(level: &Level) -> usize {
    level.walls.len()
        + level.triangles.len()
        + level.balls.len()
        + level.planes.len()
        + level.cylinders.len()
        + level.aabbs.len()
        + level.obbs.len()
        + level.probes.len()
        + level.entity_types.len()
        + level.entities.len()
        + level.triggers.len()
        + level.movers.iter().map(|m| 1 + m.path.len()).sum::<usize>()
        + level
            .sectors
            .iter()
            .map(|s| s.outline.len() + s.holes.iter().map(Vec::len).sum::<usize>())
            .sum::<usize>()
        + level
            .meshes
            .iter()
            .map(|m| m.indices.len().max(m.vertices.len()))
            .sum::<usize>()
}

impl Level {
    /// Parse a level from RON text, migrating older versions.
    ///
    /// # Errors
    /// [`LevelError::Parse`] (with line, column and field path) for syntax errors, wrong types, unknown or
    /// missing fields and unsupported versions; [`LevelError::TooLarge`] past [`MAX_OBJECTS`].
    ///
    /// ```
    /// use collidoscope::level::Level;
    /// let level = Level::from_ron_str("(version: 1, name: \"tiny\", walls: [
    ///     (id: 1, a: (0.0, 0.0), b: (4.0, 0.0), radius: 0.5),
    /// ])").unwrap();
    /// assert_eq!(level.walls[0].b.x, 4.0);
    ///
    /// let err = Level::from_ron_str("(version: 1, walls: [(id: 1, a: (0.0, 0.0), b: (4.0, 0.0), radius: \"wide\")])");
    /// assert_eq!(err.unwrap_err().to_string(), "1:67: walls[0].radius: Expected float");
    /// ```
    pub fn from_ron_str(text: &str) -> Result<Self, LevelError> {
        // A light scan finds `version` without parsing the document twice; only when it cannot (no version,
        // or an unusual spelling) does the header parse run, for its precise error.
        let (version, line, col) = match peek_version(text) {
            Some(found) => found,
            None => {
                let header = parse_header(text)?;
                let (line, col) = (1, 1);
                (u64::from(header.version), line, col)
            }
        };
        let mut level: Level = match version {
            0 => parse_with_path::<LevelV0>(text)?.into(),
            1 => parse_level::<LevelV1>(text)?,
            2 => parse_level::<LevelV2>(text)?,
            3 => parse_level::<LevelV3>(text)?,
            v => {
                return Err(LevelError::Parse {
                    file: None,
                    line,
                    col,
                    field: "version".into(),
                    message: format!(
                        "unsupported level version {v}: this build reads versions 0 to {LEVEL_VERSION}"
                    ),
                });
            }
        };
        let count = object_count(&level);
        if count > MAX_OBJECTS {
            return Err(LevelError::TooLarge {
                file: None,
                message: format!("{count} objects is more than the limit of {MAX_OBJECTS}"),
            });
        }
        // Field paths name the current layout, which version 0 files do not have: no positions for them.
        if version >= 1 {
            level.source = Source(Some(std::sync::Arc::from(text)));
        }
        Ok(level)
    }

    /// Read and parse a level file.
    ///
    /// # Errors
    /// [`LevelError::Io`] when the file cannot be read, [`LevelError::TooLarge`] past [`MAX_FILE_BYTES`],
    /// and the errors of [`Level::from_ron_str`] with the file name attached.
    pub fn load(path: &Path) -> Result<Self, LevelError> {
        let io = |action, source| LevelError::Io {
            path: path.to_path_buf(),
            action,
            source,
        };
        let meta = std::fs::metadata(path).map_err(|e| io("cannot open", e))?;
        if meta.len() > MAX_FILE_BYTES {
            return Err(LevelError::TooLarge {
                file: Some(path.to_path_buf()),
                message: format!(
                    "file is {} bytes, more than the limit of {MAX_FILE_BYTES}",
                    meta.len()
                ),
            });
        }
        // Read at most one byte past the limit: pipes and devices have no size to check up front.
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| {
                std::io::Read::read_to_end(
                    &mut std::io::Read::take(f, MAX_FILE_BYTES + 1),
                    &mut bytes,
                )
            })
            .map_err(|e| io("cannot read", e))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(LevelError::TooLarge {
                file: Some(path.to_path_buf()),
                message: format!("more than the limit of {MAX_FILE_BYTES} bytes"),
            });
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let text = String::from_utf8_lossy(valid);
            let line = text.matches('\n').count() + 1;
            let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            LevelError::Parse {
                file: Some(path.to_path_buf()),
                line,
                col,
                field: String::new(),
                message: "the file is not UTF-8 text (is it a level file?)".into(),
            }
        })?;
        remove_stale_temp_files(path);
        let mut level = Self::from_ron_str(&text).map_err(|e| e.in_file(path))?;
        let folder = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        level.resolve_meshes(&folder)?;
        Ok(level)
    }

    /// Read every mesh's file (relative to `folder`) into its `vertices` and `indices`: a Wavefront OBJ file,
    /// or a glTF 2.0 file when the path ends in `.gltf` or `.glb` (every triangle primitive the file's scene
    /// places, node transforms applied, merged: [`crate::mesh::read_gltf`]). [`Level::load`] does this; call
    /// it after [`Level::from_ron_str`] when the level references mesh files.
    ///
    /// # Errors
    /// [`LevelError::Invalid`] naming the mesh when a path is absolute or leaves the folder (also through a
    /// symbolic link), or the file cannot be read or parsed as OBJ or glTF.
    pub fn resolve_meshes(&mut self, folder: &Path) -> Result<(), LevelError> {
        for (i, m) in self.meshes.iter_mut().enumerate() {
            let Some(rel) = &m.obj else { continue };
            let problem = |message: String| LevelError::Invalid {
                problems: vec![Problem {
                    severity: Severity::Error,
                    object: Some(m.id),
                    field: format!("meshes[{i}].obj"),
                    message,
                    line: None,
                    col: None,
                }],
            };
            if let Some(why) = obj_path_problem(rel) {
                return Err(problem(why.to_owned()));
            }
            let file = folder.join(rel);
            let (Ok(real_folder), Ok(real_file)) = (folder.canonicalize(), file.canonicalize())
            else {
                return Err(problem(format!("cannot open {}", file.display())));
            };
            if !real_file.starts_with(&real_folder) {
                return Err(problem(format!(
                    "{} leads outside the level's folder (through a link)",
                    file.display()
                )));
            }
            // The extension picks the loader: `.gltf` / `.glb` (every placed primitive merged), else OBJ.
            let mesh = crate::mesh::TriMesh::from_mesh_file(&real_file)
                .map_err(|e| problem(e.to_string()))?;
            m.vertices = mesh.vertices().to_vec();
            m.indices = mesh.indices().to_vec();
        }
        Ok(())
    }

    /// The level as pretty RON text in the current version: one object per line, `None` fields and empty
    /// lists left out. The same level always gives the same bytes.
    #[must_use]
    pub fn to_ron_string(&self) -> String {
        let out = LevelRef::from(self);
        let config = pretty_config();
        if let Some(s) = chunked::write(self, &config) {
            return s;
        }
        let mut s = ron::ser::to_string_pretty(&out, config)
            .unwrap_or_else(|e| unreachable!("levels always serialise: {e}"));
        s.push('\n');
        s
    }

    /// Write the level atomically: a temporary file in the same folder, flushed to disk, then renamed over
    /// `path`. A failure leaves any existing file untouched.
    ///
    /// # Errors
    /// [`LevelError::Io`] when the folder is not writable or the disk is full.
    pub fn save(&self, path: &Path) -> Result<(), LevelError> {
        atomic_write(path, self.to_ron_string().as_bytes())
    }

    /// Every validation problem: errors (which stop simulation and export) and warnings.
    #[must_use]
    pub fn validate(&self) -> Vec<Problem> {
        let mut problems = validate::validate(self);
        if !problems.is_empty() {
            self.locate_problems(&mut problems);
        }
        problems
    }

    /// Fill in the line and column of each problem from the text the level was read from (what
    /// [`Level::validate`] does for its own problems), for problems found elsewhere ([`Level::reach_problems`]).
    /// A problem keeps no position when its field path is not in the text, or when the object written at that
    /// place has another id than the problem's (a level edited since it was read); a level not read from text
    /// leaves every problem as it is.
    pub fn locate_problems(&self, problems: &mut [Problem]) {
        let Some(text) = &self.source.0 else { return };
        for p in problems {
            if p.field.is_empty() {
                continue;
            }
            let Some(((line, col), element)) = spans::locate(text, &p.field) else {
                continue;
            };
            // A level edited since it was read: the text's object at that index must still be this one.
            let same = match (element, p.object) {
                (Some(range), Some(id)) => spans::element_has_id(text, range, id.0),
                _ => true,
            };
            if same {
                (p.line, p.col) = (Some(line), Some(col));
            }
        }
    }

    /// Whether [`Level::validate`] finds no errors (warnings allowed).
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.validate()
            .iter()
            .all(|p| p.severity != Severity::Error)
    }

    /// The next id not used by any object.
    #[must_use]
    pub fn next_id(&self) -> ObjectId {
        let max = self.object_ids().map(|id| id.0).max().unwrap_or(0);
        ObjectId(max.saturating_add(1))
    }

    /// Every object's id, in file order (as [`Level::ids`], without formatting the paths).
    pub fn object_ids(&self) -> impl Iterator<Item = ObjectId> + '_ {
        self.walls
            .iter()
            .map(|o| o.id)
            .chain(self.triangles.iter().map(|o| o.id))
            .chain(self.balls.iter().map(|o| o.id))
            .chain(self.planes.iter().map(|o| o.id))
            .chain(self.cylinders.iter().map(|o| o.id))
            .chain(self.aabbs.iter().map(|o| o.id))
            .chain(self.obbs.iter().map(|o| o.id))
            .chain(self.meshes.iter().map(|o| o.id))
            .chain(self.sectors.iter().map(|o| o.id))
            .chain(self.probes.iter().map(|o| o.id))
            .chain(self.entities.iter().map(|o| o.id))
            .chain(self.triggers.iter().map(|o| o.id))
            .chain(self.movers.iter().map(|o| o.id))
    }

    /// Every object's field path and id, in file order.
    pub fn ids(&self) -> impl Iterator<Item = (String, ObjectId)> + '_ {
        fn each<'a, T>(
            kind: &'static str,
            items: &'a [T],
            id: impl Fn(&T) -> ObjectId + 'a,
        ) -> impl Iterator<Item = (String, ObjectId)> + 'a {
            items
                .iter()
                .enumerate()
                .map(move |(i, o)| (format!("{kind}[{i}]"), id(o)))
        }
        each("walls", &self.walls, |o| o.id)
            .chain(each("triangles", &self.triangles, |o| o.id))
            .chain(each("balls", &self.balls, |o| o.id))
            .chain(each("planes", &self.planes, |o| o.id))
            .chain(each("cylinders", &self.cylinders, |o| o.id))
            .chain(each("aabbs", &self.aabbs, |o| o.id))
            .chain(each("obbs", &self.obbs, |o| o.id))
            .chain(each("meshes", &self.meshes, |o| o.id))
            .chain(each("sectors", &self.sectors, |o| o.id))
            .chain(each("probes", &self.probes, |o| o.id))
            .chain(each("entities", &self.entities, |o| o.id))
            .chain(each("triggers", &self.triggers, |o| o.id))
            .chain(each("movers", &self.movers, |o| o.id))
    }

    /// Bounds of everything with a finite extent (walls from the floor to their height), or `None` for an
    /// empty level. Planes are unbounded and left out.
    #[must_use]
    pub fn bounds(&self) -> Option<Aabb> {
        let mut min = Vec3::splat(f32::INFINITY);
        let mut max = Vec3::splat(f32::NEG_INFINITY);
        let mut add = |p: Vec3| {
            if p.is_finite() {
                min = min.min(p);
                max = max.max(p);
            }
        };
        for w in &self.walls {
            let h = w.height.unwrap_or(self.default_wall_height);
            for e in [w.a, w.b] {
                add(Vec3::new(e.x - w.radius, 0.0, e.y - w.radius));
                add(Vec3::new(e.x + w.radius, h, e.y + w.radius));
            }
        }
        for t in &self.triangles {
            add(t.a);
            add(t.b);
            add(t.c);
        }
        for b in &self.balls {
            add(b.center - Vec3::splat(b.radius));
            add(b.center + Vec3::splat(b.radius));
        }
        for c in &self.cylinders {
            add(c.a - Vec3::splat(c.radius));
            add(c.b + Vec3::splat(c.radius));
            add(c.a + Vec3::splat(c.radius));
            add(c.b - Vec3::splat(c.radius));
        }
        for a in &self.aabbs {
            add(a.min);
            add(a.max);
        }
        for o in &self.obbs {
            for c in o.obb().corners() {
                add(c);
            }
        }
        for m in &self.meshes {
            for &v in &m.vertices {
                add(v);
            }
        }
        for s in &self.sectors {
            let (lo, hi) = crate::sector::height_range(&s.geom());
            for p in &s.outline {
                add(Vec3::new(p.x, lo, p.y));
                add(Vec3::new(p.x, hi, p.y));
            }
        }
        if let Some(w) = &self.walker {
            let y = w.height.unwrap_or(0.0);
            add(Vec3::new(w.position.x, y, w.position.y));
            add(Vec3::new(w.position.x, y + w.eye_height, w.position.y));
        }
        (min.cmple(max).all()).then_some(Aabb::new(min, max))
    }
}

/// Read only the header; a file without a readable `version` gets the parse error of the full layout when
/// that is more telling (a syntax error), or a clear "missing version" message.
fn parse_header(text: &str) -> Result<Header, LevelError> {
    let options = ron_options();
    match options.from_str::<Header>(text) {
        Ok(h) => Ok(h),
        Err(e) => {
            if matches!(e.code, ron::Error::MissingStructField { .. }) {
                Err(LevelError::Parse {
                    file: None,
                    line: e.span.start.line,
                    col: e.span.start.col,
                    field: "version".into(),
                    message: "missing field `version`: every level starts with `version: N`".into(),
                })
            } else {
                // Syntax errors are better reported by the full parse, which knows the field path; if the
                // full parse somehow succeeds (it cannot without a version), fall back to this error.
                match parse_with_path::<LevelV3>(text) {
                    Err(full) => Err(full),
                    Ok(_) => Err(spanned_to_error(&e, "version".into())),
                }
            }
        }
    }
}

mod atomic;
mod chunked;
mod game;
mod layout;
mod mover;
mod reach;
mod scene;
mod scene_movers;
mod schema;
mod sector;
mod spans;
mod validate;
mod validate_game;
mod validate_mover;
mod validate_sector;
#[cfg(feature = "cli")]
pub mod vcs;
mod version_scan;
mod watch;
mod world;

pub use atomic::{atomic_write, remove_stale_temp_files};
pub use game::{EntityObject, EntityType, FieldDef, FieldKind, TriggerObject, TriggerShape, Value};
use layout::{LevelRef, LevelV0, LevelV1, LevelV2, LevelV3};
pub use mover::{MoverObject, MoverPart, MoverStart, Repeat};
pub use reach::ReachProblem;
pub use scene::sector_static;
pub use scene_movers::{mover_piston, sector_geom_with_mover};
pub use schema::{
    AabbObject, BallObject, CylinderObject, MeshObject, ObbObject, ObjectId, PlaneObject, Probe,
    SimulationConfig, TriangleObject, Units, WalkerStart, WallObject, obj_path_problem,
};
pub use sector::{SectorObject, Slope, Surface};
pub use spans::Source;
use version_scan::peek_version;
pub use watch::LevelWatcher;
