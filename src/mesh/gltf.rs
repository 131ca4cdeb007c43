//! glTF 2.0 import: `.gltf` (JSON with external or `data:` buffers) and `.glb` (binary container).
//!
//! Every mesh primitive in triangles mode is placed by its node's transform composed down the scene graph
//! (each node's `matrix`, or its translation × rotation × scale), so a mesh used by two nodes gives two
//! placed copies. Other modes (points, lines, strips, fans) are skipped with a note. Only geometry is read:
//! positions and indices; materials, textures, skins, morph targets and animations are ignored.
//!
//! The bytes come from outside and are not trusted: the GLB container and every accessor are bounds-checked
//! against the bytes actually present, so no allocation is sized by a length field alone; the node graph's
//! depth and size are capped (a cycle or a huge instancing fan-out is an error, not a hang), and so is the
//! triangle total ([`MAX_TRIANGLES`]). No input panics.

use std::path::Path;

use ::gltf::json;
use glam::{Mat4, Quat, Vec3};
use json::validation::Checked;

use super::{MAX_TRIANGLES, MeshError, TriMesh};

mod data;
use data::{decode_data_uri, percent_decode, read_indices, read_positions};

/// Largest `.gltf`, `.glb` or external buffer file read, in bytes.
pub const MAX_GLTF_BYTES: u64 = 512 * 1024 * 1024;

/// Deepest node nesting followed (deeper means a cycle or a broken file).
const MAX_DEPTH: usize = 256;

/// Most node visits while walking the scene graph (nodes shared by many parents multiply).
const MAX_NODE_VISITS: usize = 1 << 20;

/// Most vertices, and most indices, decoded or placed in all: three per triangle of the cap, so a file
/// whose primitives share one big accessor, or place a vertex-heavy primitive many times, stops at the cap
/// instead of exhausting memory.
const MAX_ELEMENTS: usize = 3 * MAX_TRIANGLES;

/// Why a glTF file cannot be imported.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GltfError {
    /// The file (or an external buffer) cannot be read.
    #[error("cannot read {0}")]
    Io(String),
    /// The binary container (`.glb`) is damaged or cut short.
    #[error("the .glb container is damaged: {0}")]
    Glb(String),
    /// The JSON is not a glTF document.
    #[error("the glTF JSON cannot be read: {0}")]
    Json(String),
    /// A buffer is missing, too short, or its URI is not acceptable.
    #[error("buffer {buffer}: {message}")]
    Buffer {
        /// The buffer's index.
        buffer: usize,
        /// What is wrong.
        message: String,
    },
    /// An accessor (or its buffer view) does not exist, has the wrong type, or reaches past its data.
    #[error("accessor {accessor}: {message}")]
    Accessor {
        /// The accessor's index.
        accessor: usize,
        /// What is wrong.
        message: String,
    },
    /// A triangle refers to a vertex the primitive does not have.
    #[error(
        "mesh {mesh} primitive {primitive}: index {index} is out of range ({vertex_count} vertices)"
    )]
    IndexOutOfRange {
        /// The mesh's index.
        mesh: usize,
        /// The primitive's index in the mesh.
        primitive: usize,
        /// The bad index.
        index: u32,
        /// Number of vertices of the primitive.
        vertex_count: usize,
    },
    /// The scene graph is broken: a missing node or mesh, a cycle, too deep or too big, a non-finite transform.
    #[error("node {node}: {message}")]
    Node {
        /// The node's index.
        node: usize,
        /// What is wrong.
        message: String,
    },
    /// The file needs an extension the loader does not read (compressed geometry).
    #[error("the file needs the extension {0}, which is not supported")]
    Unsupported(String),
    /// The placed triangles would be more than [`MAX_TRIANGLES`].
    #[error("more than the limit of {MAX_TRIANGLES} triangles")]
    TooManyTriangles,
    /// No triangle primitive is placed by the scene (the reasons are the notes).
    #[error("no triangles to import{}", notes_suffix(.0))]
    NoTriangles(Vec<String>),
    /// The merged triangles do not make a mesh.
    #[error(transparent)]
    Mesh(#[from] MeshError),
}

fn notes_suffix(notes: &[String]) -> String {
    if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join("; "))
    }
}

/// One mesh primitive placed in the scene: its triangles with every transform from the root down applied.
#[derive(Clone, Debug, PartialEq)]
pub struct GltfPrimitive {
    /// The node that places it.
    pub node: usize,
    /// The mesh's index.
    pub mesh: usize,
    /// The primitive's index in the mesh.
    pub primitive: usize,
    /// A readable name: the node's name (else the mesh's, else `node N`), with `/k` for a mesh's `k`-th
    /// primitive when it has several.
    pub name: String,
    /// Vertex positions in the level's frame (y up, metres, as glTF's).
    pub vertices: Vec<Vec3>,
    /// Triangles as indices into `vertices`.
    pub indices: Vec<[u32; 3]>,
}

/// What a glTF file holds: its placed triangle primitives in scene order, and notes on what was skipped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GltfScene {
    /// Each triangle primitive placed by each node that uses its mesh (depth first, in the scene's order).
    pub primitives: Vec<GltfPrimitive>,
    /// What was skipped and why (a primitive in lines mode, a file with no scene, ...).
    pub notes: Vec<String>,
}

impl GltfScene {
    /// Every primitive's triangles in one vertex and index list.
    #[must_use]
    pub fn merged(&self) -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let mut vertices =
            Vec::with_capacity(self.primitives.iter().map(|p| p.vertices.len()).sum());
        let mut indices = Vec::with_capacity(self.triangle_count());
        for p in &self.primitives {
            // Fits: the loader caps the total at MAX_TRIANGLES and each primitive's vertices at its bytes.
            let base = vertices.len() as u32;
            vertices.extend_from_slice(&p.vertices);
            indices.extend(p.indices.iter().map(|t| t.map(|i| i + base)));
        }
        (vertices, indices)
    }

    /// Number of triangles over all primitives.
    #[must_use]
    pub fn triangle_count(&self) -> usize {
        self.primitives.iter().map(|p| p.indices.len()).sum()
    }
}

/// Whether a mesh file path names a glTF file (`.gltf` or `.glb`, any case) rather than an OBJ file.
#[must_use]
pub fn is_gltf_path(path: &str) -> bool {
    Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("gltf") || e.eq_ignore_ascii_case("glb"))
}

/// Read a `.gltf` or `.glb` file; external buffers are read relative to its folder and must stay inside it
/// (relative URIs, no `..`, no link leading out).
///
/// # Errors
/// [`GltfError`] for an unreadable file or buffer, a damaged container, bad JSON, an accessor out of its
/// data, an index out of range, a broken node graph, more than [`MAX_TRIANGLES`] triangles, or nothing to
/// import.
pub fn read_gltf(path: &Path) -> Result<GltfScene, GltfError> {
    let bytes = read_capped(path)?;
    let folder = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    parse_gltf(&bytes, |uri| {
        if let Some(why) = uri_problem(uri) {
            return Err(why.to_owned());
        }
        let file = folder.join(uri);
        let (Ok(real_folder), Ok(real_file)) = (folder.canonicalize(), file.canonicalize()) else {
            return Err(format!("cannot open {}", file.display()));
        };
        if !real_file.starts_with(&real_folder) {
            return Err(format!(
                "{} leads outside the file's folder",
                file.display()
            ));
        }
        read_capped(&real_file).map_err(|e| e.to_string())
    })
}

/// Read a glTF document from bytes (`.glb` when they start with `glTF`, else JSON). `external` is asked for
/// each buffer stored in another file, by its URI with `%` escapes decoded; it answers the bytes or why not.
///
/// # Errors
/// As [`read_gltf`].
pub fn parse_gltf(
    bytes: &[u8],
    mut external: impl FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<GltfScene, GltfError> {
    let (json_bytes, bin) = split_container(bytes)?;
    let root = json::Root::from_slice(json_bytes).map_err(|e| GltfError::Json(e.to_string()))?;
    for ext in &root.extensions_required {
        if ext.contains("draco") || ext.contains("meshopt") {
            return Err(GltfError::Unsupported(ext.clone()));
        }
    }
    let mut notes = Vec::new();
    let placed = walk_scene(&root, &mut notes)?;
    let mut used: Vec<usize> = placed.iter().map(|p| p.mesh).collect();
    used.sort_unstable();
    used.dedup();
    let buffers = load_buffers(&root, &used, bin, &mut external)?;
    let mut local = Vec::with_capacity(used.len());
    let mut budget = Budget {
        vertices: MAX_ELEMENTS,
        indices: MAX_ELEMENTS,
    };
    for &m in &used {
        local.push(decode_mesh(&root, &buffers, m, &mut notes, &mut budget)?);
    }
    let mut primitives = Vec::new();
    let mut total = 0usize;
    let mut placed_vertices = 0usize;
    for p in &placed {
        let Ok(k) = used.binary_search(&p.mesh) else {
            continue;
        };
        for (index, (vertices, indices)) in &local[k] {
            total = total.saturating_add(indices.len());
            placed_vertices = placed_vertices.saturating_add(vertices.len());
            if total > MAX_TRIANGLES || placed_vertices > MAX_ELEMENTS {
                return Err(GltfError::TooManyTriangles);
            }
            let vertices: Vec<Vec3> = vertices
                .iter()
                .map(|&v| p.matrix.transform_point3(v))
                .collect();
            if vertices.iter().any(|v| !v.is_finite()) {
                return Err(GltfError::Node {
                    node: p.node,
                    message: "its transform puts a vertex at infinity or NaN".into(),
                });
            }
            let name = if local[k].len() > 1 {
                format!("{}/{index}", p.name)
            } else {
                p.name.clone()
            };
            primitives.push(GltfPrimitive {
                node: p.node,
                mesh: p.mesh,
                primitive: *index,
                name,
                vertices,
                indices: indices.clone(),
            });
        }
    }
    if primitives.is_empty() {
        return Err(GltfError::NoTriangles(notes));
    }
    Ok(GltfScene { primitives, notes })
}

/// The URIs of the buffers a glTF document keeps in other files (`%` escapes decoded), in buffer order: what
/// a caller reading files asynchronously fetches before [`parse_gltf`].
///
/// # Errors
/// [`GltfError::Glb`] or [`GltfError::Json`] when the document cannot be read.
pub fn gltf_external_uris(bytes: &[u8]) -> Result<Vec<String>, GltfError> {
    let (json_bytes, _) = split_container(bytes)?;
    let root = json::Root::from_slice(json_bytes).map_err(|e| GltfError::Json(e.to_string()))?;
    Ok(root
        .buffers
        .iter()
        .filter_map(|b| b.uri.as_deref())
        .filter(|u| !u.starts_with("data:"))
        .map(percent_decode)
        .collect())
}

impl TriMesh {
    /// A mesh from a glTF file: every placed triangle primitive merged (see [`read_gltf`]).
    ///
    /// # Errors
    /// The errors of [`read_gltf`], and those of [`TriMesh::new`] as [`GltfError::Mesh`].
    pub fn from_gltf(path: &Path) -> Result<Self, GltfError> {
        let (vertices, indices) = read_gltf(path)?.merged();
        Ok(Self::new(vertices, indices)?)
    }

    /// A mesh from a file, the loader chosen by the extension: `.gltf` and `.glb` through [`read_gltf`], any
    /// other through [`TriMesh::from_obj`].
    ///
    /// # Errors
    /// The loader's errors (an OBJ file's as [`GltfError::Mesh`]).
    pub fn from_mesh_file(path: &Path) -> Result<Self, GltfError> {
        if is_gltf_path(&path.to_string_lossy()) {
            Self::from_gltf(path)
        } else {
            Ok(Self::from_obj(path)?)
        }
    }
}

/// The file's bytes, at most [`MAX_GLTF_BYTES`] (checked while reading: pipes and devices have no size).
fn read_capped(path: &Path) -> Result<Vec<u8>, GltfError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| {
            std::io::Read::read_to_end(&mut std::io::Read::take(f, MAX_GLTF_BYTES + 1), &mut bytes)
        })
        .map_err(|e| GltfError::Io(format!("{}: {e}", path.display())))?;
    if bytes.len() as u64 > MAX_GLTF_BYTES {
        return Err(GltfError::Io(format!(
            "{}: more than the limit of {MAX_GLTF_BYTES} bytes",
            path.display()
        )));
    }
    Ok(bytes)
}

/// Why an external buffer URI is refused: absolute, with a scheme, or leaving the folder.
fn uri_problem(uri: &str) -> Option<&'static str> {
    let p = Path::new(uri);
    if uri.is_empty() {
        return Some("the buffer URI is empty");
    }
    if uri.contains("://") || p.is_absolute() || p.has_root() {
        return Some("the buffer URI must be a path relative to the glTF file");
    }
    if p.components().any(|c| {
        !matches!(
            c,
            std::path::Component::Normal(_) | std::path::Component::CurDir
        )
    }) {
        return Some("the buffer URI must stay inside the glTF file's folder (no `..`)");
    }
    None
}

/// The JSON chunk and the optional binary chunk of a `.glb`, or the whole input as JSON.
fn split_container(bytes: &[u8]) -> Result<(&[u8], Option<&[u8]>), GltfError> {
    if !bytes.starts_with(b"glTF") {
        return Ok((bytes, None));
    }
    let word = |at: usize| -> Result<u32, GltfError> {
        bytes
            .get(at..at + 4)
            .and_then(|w| w.try_into().ok())
            .map(u32::from_le_bytes)
            .ok_or_else(|| GltfError::Glb(format!("cut short at byte {at}")))
    };
    let version = word(4)?;
    if version != 2 {
        return Err(GltfError::Glb(format!("version {version}, not 2")));
    }
    let length = word(8)? as usize;
    if length > bytes.len() {
        return Err(GltfError::Glb(format!(
            "the header says {length} bytes, the file has {}",
            bytes.len()
        )));
    }
    let mut chunks = Vec::new();
    let mut at = 12usize;
    while at < length {
        let size = word(at)? as usize;
        let kind = word(at + 4)?;
        let data = at
            .checked_add(8)
            .and_then(|s| Some(s..s.checked_add(size)?))
            .filter(|r| r.end <= length)
            .and_then(|r| bytes.get(r))
            .ok_or_else(|| GltfError::Glb(format!("the chunk at byte {at} is cut short")))?;
        chunks.push((kind, data));
        // Chunks are 4-byte aligned; `size + 8 <= length` so this cannot overflow.
        at += 8 + size.next_multiple_of(4);
    }
    const JSON: u32 = 0x4E4F_534A;
    const BIN: u32 = 0x004E_4942;
    match chunks.first() {
        Some(&(JSON, json_bytes)) => {
            let bin = chunks.get(1).filter(|c| c.0 == BIN).map(|c| c.1);
            Ok((json_bytes, bin))
        }
        _ => Err(GltfError::Glb("the first chunk is not JSON".into())),
    }
}

/// A mesh placed by a node.
struct Placed {
    node: usize,
    mesh: usize,
    name: String,
    matrix: Mat4,
}

/// The node's own transform: its matrix, or translation × rotation × scale.
fn local_matrix(node: &json::scene::Node) -> Mat4 {
    if let Some(m) = node.matrix {
        return Mat4::from_cols_array(&m);
    }
    let t = Vec3::from(node.translation.unwrap_or([0.0; 3]));
    let s = Vec3::from(node.scale.unwrap_or([1.0; 3]));
    let r = node.rotation.map_or(Quat::IDENTITY, |q| {
        let q = Quat::from_array(q.0);
        // A rotation slightly off unit length (rounded in export) would also scale.
        let len = q.length();
        if len.is_finite() && len > 0.0 {
            q / len
        } else {
            q
        }
    });
    Mat4::from_scale_rotation_translation(s, r, t)
}

/// The scene's roots: the default scene's, else the first scene's, else every node no other node lists as a
/// child.
fn roots(root: &json::Root, notes: &mut Vec<String>) -> Result<Vec<usize>, GltfError> {
    let scene = match root.scene {
        Some(i) => Some(
            root.get(i)
                .ok_or_else(|| GltfError::Json(format!("no scene {}", i.value())))?,
        ),
        None => root.scenes.first(),
    };
    if let Some(scene) = scene {
        return Ok(scene.nodes.iter().map(|n| n.value()).collect());
    }
    notes.push("no scene: every node that is no other node's child is a root".into());
    let mut child = vec![false; root.nodes.len()];
    for n in &root.nodes {
        for c in n.children.iter().flatten() {
            if let Some(flag) = child.get_mut(c.value()) {
                *flag = true;
            }
        }
    }
    Ok((0..root.nodes.len()).filter(|&i| !child[i]).collect())
}

/// Every mesh the scene places, with its node's world matrix, depth first.
fn walk_scene(root: &json::Root, notes: &mut Vec<String>) -> Result<Vec<Placed>, GltfError> {
    let mut stack: Vec<(usize, Mat4, usize)> = roots(root, notes)?
        .into_iter()
        .rev()
        .map(|n| (n, Mat4::IDENTITY, 0))
        .collect();
    let mut placed = Vec::new();
    let mut visits = 0usize;
    while let Some((n, parent, depth)) = stack.pop() {
        let broken = |message: &str| GltfError::Node {
            node: n,
            message: message.to_owned(),
        };
        visits += 1;
        // Every node on the stack will be visited: a stack past the cap is a graph past it (and a node
        // listing a shared child many times must not fill memory before the visits count up).
        if visits + stack.len() > MAX_NODE_VISITS {
            return Err(broken(
                "the node graph is too big (nodes shared by many parents?)",
            ));
        }
        if depth > MAX_DEPTH {
            return Err(broken("nested too deep (a cycle in the node graph?)"));
        }
        let node = root.nodes.get(n).ok_or_else(|| broken("no such node"))?;
        let matrix = parent * local_matrix(node);
        if !matrix.is_finite() {
            return Err(broken("its transform is not finite"));
        }
        if let Some(m) = node.mesh {
            let mesh = root
                .meshes
                .get(m.value())
                .ok_or_else(|| broken("its mesh does not exist"))?;
            let name = node
                .name
                .clone()
                .or_else(|| mesh.name.clone())
                .unwrap_or_else(|| format!("node {n}"));
            placed.push(Placed {
                node: n,
                mesh: m.value(),
                name,
                matrix,
            });
        }
        let children = node.children.as_deref().unwrap_or_default();
        if visits + stack.len() + children.len() > MAX_NODE_VISITS {
            return Err(broken(
                "the node graph is too big (nodes shared by many parents?)",
            ));
        }
        for c in children.iter().rev() {
            stack.push((c.value(), matrix, depth + 1));
        }
    }
    Ok(placed)
}

/// Each buffer's bytes (exactly its declared length), loaded only when a used mesh's accessors need it.
fn load_buffers<'a>(
    root: &json::Root,
    used: &[usize],
    bin: Option<&'a [u8]>,
    external: &mut impl FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<Vec<std::borrow::Cow<'a, [u8]>>, GltfError> {
    let mut needed = vec![false; root.buffers.len()];
    let views = used
        .iter()
        .filter_map(|&m| root.meshes.get(m))
        .flat_map(|m| &m.primitives)
        .flat_map(|p| p.attributes.values().chain(&p.indices))
        .filter_map(|a| root.accessors.get(a.value())?.buffer_view);
    for v in views {
        if let Some(flag) = root.get(v).and_then(|v| needed.get_mut(v.buffer.value())) {
            *flag = true;
        }
    }
    let mut out = Vec::with_capacity(root.buffers.len());
    for (i, (b, needed)) in root.buffers.iter().zip(needed).enumerate() {
        if !needed {
            out.push(std::borrow::Cow::Borrowed(&[][..]));
            continue;
        }
        let fail = |message: String| GltfError::Buffer { buffer: i, message };
        let data: std::borrow::Cow<'a, [u8]> = match b.uri.as_deref() {
            None => std::borrow::Cow::Borrowed(
                bin.ok_or_else(|| fail("no URI and no binary chunk".into()))?,
            ),
            Some(uri) if uri.starts_with("data:") => {
                std::borrow::Cow::Owned(decode_data_uri(uri).map_err(fail)?)
            }
            Some(uri) => std::borrow::Cow::Owned(external(&percent_decode(uri)).map_err(fail)?),
        };
        let declared = b.byte_length.0;
        if (data.len() as u64) < declared {
            return Err(fail(format!(
                "holds {} bytes, declares {declared}",
                data.len()
            )));
        }
        out.push(match data {
            std::borrow::Cow::Borrowed(d) => std::borrow::Cow::Borrowed(&d[..declared as usize]),
            std::borrow::Cow::Owned(mut d) => {
                d.truncate(declared as usize);
                std::borrow::Cow::Owned(d)
            }
        });
    }
    Ok(out)
}

/// The local-space triangles of each triangle-mode primitive of mesh `m`, by primitive index.
type LocalPrimitives = Vec<(usize, (Vec<Vec3>, Vec<[u32; 3]>))>;

/// How many more vertices and indices may be decoded ([`MAX_ELEMENTS`] each in all).
struct Budget {
    vertices: usize,
    indices: usize,
}

fn decode_mesh(
    root: &json::Root,
    buffers: &[std::borrow::Cow<'_, [u8]>],
    m: usize,
    notes: &mut Vec<String>,
    budget: &mut Budget,
) -> Result<LocalPrimitives, GltfError> {
    let mut out = Vec::new();
    let Some(mesh) = root.meshes.get(m) else {
        return Ok(out);
    };
    for (k, p) in mesh.primitives.iter().enumerate() {
        match p.mode {
            Checked::Valid(json::mesh::Mode::Triangles) => {}
            Checked::Valid(mode) => {
                notes.push(format!(
                    "mesh {m} primitive {k} skipped: mode {mode:?}, not triangles"
                ));
                continue;
            }
            Checked::Invalid => {
                notes.push(format!("mesh {m} primitive {k} skipped: unknown mode"));
                continue;
            }
        }
        let Some(pos) = p
            .attributes
            .get(&Checked::Valid(json::mesh::Semantic::Positions))
        else {
            notes.push(format!("mesh {m} primitive {k} skipped: no POSITION"));
            continue;
        };
        let vertices = read_positions(root, buffers, pos.value(), budget.vertices)?;
        budget.vertices -= vertices.len();
        let flat = match p.indices {
            Some(a) => read_indices(root, buffers, a.value(), budget.indices)?,
            None if vertices.len() <= budget.indices => (0..vertices.len() as u32).collect(),
            None => return Err(GltfError::TooManyTriangles),
        };
        budget.indices -= flat.len();
        if let Some(&index) = flat.iter().find(|&&i| i as usize >= vertices.len()) {
            return Err(GltfError::IndexOutOfRange {
                mesh: m,
                primitive: k,
                index,
                vertex_count: vertices.len(),
            });
        }
        if flat.len() % 3 != 0 {
            notes.push(format!(
                "mesh {m} primitive {k}: {} indices is not a multiple of 3, the last {} ignored",
                flat.len(),
                flat.len() % 3
            ));
        }
        let indices = flat.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect();
        out.push((k, (vertices, indices)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_must_stay_inside() {
        assert!(uri_problem("a/b.bin").is_none());
        assert!(uri_problem("../b.bin").is_some());
        assert!(uri_problem("/etc/passwd").is_some());
        assert!(uri_problem("http://x/y.bin").is_some());
        assert!(uri_problem("").is_some());
    }

    #[test]
    fn extensions_pick_the_loader() {
        assert!(is_gltf_path("a/b.GLB") && is_gltf_path("x.gltf"));
        assert!(!is_gltf_path("x.obj") && !is_gltf_path("gltf"));
    }
}
