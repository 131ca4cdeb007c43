//! Levels as Bevy assets: [`LevelAsset`] (a [`Level`] with its [`Scene`] built) and its loader for `.ron`
//! files, whose errors name the file, the line and the column.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bevy::asset::io::Reader;
use bevy::asset::{Asset, AssetLoadError, AssetLoader, AssetPath, AsyncReadExt, LoadContext};
use bevy::reflect::TypePath;
use collidoscope::level::{
    Level, LevelError, MAX_FILE_BYTES, ObjectId, Problem, Severity, obj_path_problem,
};
use collidoscope::mesh::{TriMesh, gltf_external_uris, is_gltf_path, parse_gltf};
use collidoscope::scene::Scene;

/// Every level value ever built gets the next number, so "has this root spawned this very value?" is one
/// comparison, whatever the asset server did in between (a reload, a failed reload, a replaced handle).
static NEXT_REVISION: AtomicU64 = AtomicU64::new(1);

/// A level loaded by Bevy's asset server (or built in code with [`LevelAsset::new`]): the [`Level`] and the
/// [`Scene`] built from it, always in step (the fields are private, so nobody can change one without the
/// other).
///
/// Cloning is cheap (both sit behind one [`Arc`]): the plugin keeps the clone each
/// [`LevelRoot`](crate::LevelRoot) last spawned, which is how a broken save keeps the last good level even if
/// the asset itself changes or goes away.
#[derive(Asset, TypePath, Clone, Debug)]
pub struct LevelAsset {
    inner: Arc<Loaded>,
}

#[derive(Debug)]
struct Loaded {
    level: Level,
    scene: Scene,
    revision: u64,
}

impl LevelAsset {
    /// A level asset made in code: the level is validated and its scene built.
    ///
    /// # Errors
    /// [`LevelLoadError::Invalid`] with every validation error (the level's own line and column when it was
    /// read from text), as [`Scene::from_level`] finds them.
    pub fn new(level: Level) -> Result<LevelAsset, LevelLoadError> {
        Self::build(level, None)
    }

    fn build(level: Level, path: Option<&str>) -> Result<LevelAsset, LevelLoadError> {
        let scene =
            Scene::from_level(&level).map_err(|e| LevelLoadError::from_level_error(e, path))?;
        Ok(LevelAsset {
            inner: Arc::new(Loaded {
                level,
                scene,
                revision: NEXT_REVISION.fetch_add(1, Ordering::Relaxed),
            }),
        })
    }

    /// The level.
    #[must_use]
    pub fn level(&self) -> &Level {
        &self.inner.level
    }

    /// The level's static objects, ready for queries (triggers included, for `triggers_at`).
    #[must_use]
    pub fn scene(&self) -> &Scene {
        &self.inner.scene
    }

    /// A number unique to this value: a reload (or any new `LevelAsset`) has a new one.
    #[must_use]
    pub fn revision(&self) -> u64 {
        self.inner.revision
    }
}

/// Why a level file did not load. Reported through Bevy's asset events
/// ([`AssetLoadFailedEvent<LevelAsset>`](bevy::asset::AssetLoadFailedEvent)); get it back from the event's
/// error with [`LevelLoadError::from_asset_error`]. `Display` reads `file:line:col: field: message`.
#[derive(Debug, thiserror::Error)]
pub enum LevelLoadError {
    /// The file could not be read.
    #[error("{path}: cannot read the level: {source}")]
    Read {
        /// The asset path.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The text is not a level (syntax, a wrong type, an unknown or missing field, a version this build does
    /// not read, too large): `file:line:col: field: message`.
    #[error("{0}")]
    Parse(LevelError),
    /// The text is a level, but it has validation errors (an entity missing a required field, a degenerate
    /// triangle, a duplicate id…): the first one as `file:line:col: field (#id): message`, all in
    /// [`LevelLoadError::problems`].
    #[error("{}", describe_invalid(path.as_deref(), problems))]
    Invalid {
        /// The asset path (none for a level made in code).
        path: Option<String>,
        /// Every error found.
        problems: Vec<Problem>,
    },
    /// A mesh's OBJ file could not be read or is not a mesh.
    #[error("{path}: mesh {mesh} ({obj}): {message}")]
    Mesh {
        /// The level's asset path.
        path: String,
        /// The mesh object.
        mesh: ObjectId,
        /// The OBJ path as the level gives it.
        obj: String,
        /// What went wrong.
        message: String,
    },
}

fn describe_invalid(path: Option<&str>, problems: &[Problem]) -> String {
    let errors: Vec<&Problem> = problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .collect();
    let Some(first) = errors.first() else {
        return format!("{}: the level is invalid", path.unwrap_or("level"));
    };
    let mut s = String::new();
    if let Some(p) = path {
        s.push_str(p);
        s.push(':');
    }
    if let (Some(line), Some(col)) = (first.line, first.col) {
        s.push_str(&format!("{line}:{col}:"));
    }
    if !s.is_empty() {
        s.push(' ');
    }
    s.push_str(&first.field);
    if let Some(id) = first.object {
        s.push_str(&format!(" ({id})"));
    }
    s.push_str(": ");
    s.push_str(&first.message);
    if errors.len() > 1 {
        s.push_str(&format!(" (and {} more errors)", errors.len() - 1));
    }
    s
}

impl LevelLoadError {
    fn from_level_error(e: LevelError, path: Option<&str>) -> LevelLoadError {
        match e {
            LevelError::Invalid { problems } => LevelLoadError::Invalid {
                path: path.map(str::to_owned),
                problems,
            },
            other => LevelLoadError::Parse(match path {
                Some(p) => other.in_file(Path::new(p)),
                None => other,
            }),
        }
    }

    /// The level's error inside a failed load's [`AssetLoadError`] (the `error` of an
    /// [`AssetLoadFailedEvent<LevelAsset>`](bevy::asset::AssetLoadFailedEvent)); `None` when the load failed
    /// before the level loader ran (a missing file, say).
    #[must_use]
    pub fn from_asset_error(error: &AssetLoadError) -> Option<&LevelLoadError> {
        match error {
            AssetLoadError::AssetLoaderError(e) => e.error().downcast_ref::<LevelLoadError>(),
            _ => None,
        }
    }

    /// The 1-based line and column of the fault, when the level's text locates it.
    #[must_use]
    pub fn line_col(&self) -> Option<(usize, usize)> {
        match self {
            LevelLoadError::Parse(LevelError::Parse { line, col, .. }) => Some((*line, *col)),
            LevelLoadError::Invalid { problems, .. } => problems
                .iter()
                .find(|p| p.severity == Severity::Error)
                .and_then(|p| Some((p.line? as usize, p.col? as usize))),
            _ => None,
        }
    }

    /// The validation problems ([`LevelLoadError::Invalid`]); empty for the other kinds.
    #[must_use]
    pub fn problems(&self) -> &[Problem] {
        match self {
            LevelLoadError::Invalid { problems, .. } => problems,
            _ => &[],
        }
    }
}

/// Bevy's loader of level files: `.ron` text in any version the runtime reads, validated, its OBJ meshes read
/// through the asset server (relative to the level's folder, so editing one reloads the level too), its
/// scene built. Registered by [`CollidoscopePlugin`](crate::CollidoscopePlugin).
#[derive(Clone, Copy, Debug, Default, TypePath)]
pub struct LevelAssetLoader;

impl AssetLoader for LevelAssetLoader {
    type Asset = LevelAsset;
    type Settings = ();
    type Error = LevelLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<LevelAsset, LevelLoadError> {
        let asset_path = load_context.path().clone_owned();
        let path = asset_path.to_string();
        let mut bytes = Vec::new();
        // One byte past the limit is enough to refuse a file that is too large without reading all of it.
        AsyncReadExt::take(&mut *reader, MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .await
            .map_err(|source| LevelLoadError::Read {
                path: path.clone(),
                source,
            })?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(LevelLoadError::Parse(LevelError::TooLarge {
                file: Some(PathBuf::from(&path)),
                message: format!("more than the limit of {MAX_FILE_BYTES} bytes"),
            }));
        }
        let text = utf8(bytes, &path)?;
        let mut level = Level::from_ron_str(&text)
            .map_err(|e| LevelLoadError::from_level_error(e, Some(&path)))?;
        read_obj_meshes(&mut level, &asset_path, &path, load_context).await?;
        LevelAsset::build(level, Some(&path))
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// The text, or a parse error at the first byte that is not UTF-8 (as `Level::load` reports it).
fn utf8(bytes: Vec<u8>, path: &str) -> Result<String, LevelLoadError> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let text = String::from_utf8_lossy(valid);
        let line = text.matches('\n').count() + 1;
        let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        LevelLoadError::Parse(LevelError::Parse {
            file: Some(PathBuf::from(path)),
            line,
            col,
            field: String::new(),
            message: "the file is not UTF-8 text (is it a level file?)".into(),
        })
    })
}

/// Fill in the geometry of meshes that reference an OBJ or glTF (`.gltf`, `.glb`) file, read through the asset
/// server (which makes the file a dependency of the level: saving it reloads the level).
async fn read_obj_meshes(
    level: &mut Level,
    asset_path: &AssetPath<'static>,
    path: &str,
    load_context: &mut LoadContext<'_>,
) -> Result<(), LevelLoadError> {
    for m in &mut level.meshes {
        let Some(rel) = m.obj.clone() else { continue };
        if !m.indices.is_empty() {
            continue;
        }
        let fail = |message: String| LevelLoadError::Mesh {
            path: path.to_owned(),
            mesh: m.id,
            obj: rel.clone(),
            message,
        };
        // The runtime's own rule: relative, inside the level's folder.
        if let Some(why) = obj_path_problem(&rel) {
            return Err(fail(why.to_owned()));
        }
        let obj_path = asset_path.resolve_embed(&AssetPath::from(PathBuf::from(&rel)));
        let bytes = load_context
            .read_asset_bytes(obj_path.clone())
            .await
            .map_err(|e| fail(e.to_string()))?;
        let mesh = if is_gltf_path(&rel) {
            // The glTF's external buffers are read through the asset server too (dependencies of the level),
            // before the synchronous parse asks for them.
            let mut files = std::collections::HashMap::new();
            for uri in gltf_external_uris(&bytes).map_err(|e| fail(e.to_string()))? {
                if let Some(why) = obj_path_problem(&uri) {
                    return Err(fail(format!("buffer {uri}: {why}")));
                }
                let buffer = obj_path.resolve_embed(&AssetPath::from(PathBuf::from(&uri)));
                let data = load_context
                    .read_asset_bytes(buffer)
                    .await
                    .map_err(|e| fail(e.to_string()))?;
                files.insert(uri, data);
            }
            let scene = parse_gltf(&bytes, |uri| {
                files
                    .remove(uri)
                    .ok_or_else(|| format!("{uri} was not read"))
            })
            .map_err(|e| fail(e.to_string()))?;
            let (vertices, indices) = scene.merged();
            TriMesh::new(vertices, indices).map_err(|e| fail(e.to_string()))?
        } else {
            let text =
                String::from_utf8(bytes).map_err(|_| fail("the OBJ file is not text".into()))?;
            TriMesh::from_obj_str(&text).map_err(|e| fail(e.to_string()))?
        };
        m.vertices = mesh.vertices().to_vec();
        m.indices = mesh.indices().to_vec();
    }
    Ok(())
}
