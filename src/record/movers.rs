//! What a frame keeps of the level's movers: the scene time its queries were asked at and the movers' starts,
//! so `replay` and the editor put the movers where the game had them before asking again.
//!
//! On the wire the movers' part is an extension after the frame's first layout (index, time, queries, steps,
//! marks, dropped): `scene_times` then `mover_starts`, written only when the scene had movers. A frame
//! without it (every recording made before movers, and every frame of a level without them) reads with both
//! empty; a reader that predates it stops after `dropped` and never sees it. So old recordings load, and
//! recordings of levels without movers are byte for byte what they were.

use serde::{Deserialize, Serialize};

use super::query::QueryRecord;
use super::{Current, Frame, StepRecord};
use crate::level::ObjectId;
use crate::scene::Scene;

/// The frame's first layout (format version 1 before movers).
#[derive(Deserialize)]
struct FrameV1 {
    index: u64,
    time: f64,
    queries: Vec<QueryRecord>,
    steps: Vec<StepRecord>,
    marks: Vec<String>,
    dropped: u64,
}

/// The movers' extension, borrowing (what [`Current`] encodes).
#[derive(Serialize)]
struct ExtRef<'a> {
    scene_times: &'a [(u32, f32)],
    mover_starts: &'a [(ObjectId, Option<f32>)],
}

/// The movers' extension, read back.
#[derive(Deserialize)]
struct Ext {
    scene_times: Vec<(u32, f32)>,
    mover_starts: Vec<(ObjectId, Option<f32>)>,
}

impl Frame {
    /// A frame from its postcard payload: the first layout, then the movers' extension when there is one.
    ///
    /// # Errors
    /// The decoder's message when either part does not decode.
    pub(super) fn decode(payload: &[u8]) -> Result<Frame, postcard::Error> {
        let (v1, rest): (FrameV1, &[u8]) = postcard::take_from_bytes(payload)?;
        let ext = if rest.is_empty() {
            Ext {
                scene_times: Vec::new(),
                mover_starts: Vec::new(),
            }
        } else {
            postcard::from_bytes(rest)?
        };
        Ok(Frame {
            index: v1.index,
            time: v1.time,
            queries: v1.queries,
            steps: v1.steps,
            marks: v1.marks,
            dropped: v1.dropped,
            scene_times: ext.scene_times,
            mover_starts: ext.mover_starts,
        })
    }

    /// The scene time of the frame's first query (0 without movers, or in a recording made before them).
    #[must_use]
    pub fn scene_time(&self) -> f32 {
        self.scene_times.first().map_or(0.0, |&(_, t)| t)
    }

    /// The scene time query `query` (an index into [`Frame::queries`]) was asked at: the last entry of
    /// [`Frame::scene_times`] at or before it (0 without movers).
    #[must_use]
    pub fn scene_time_of(&self, query: usize) -> f32 {
        let k = self
            .scene_times
            .partition_point(|&(i, _)| i as usize <= query);
        match k {
            0 => self.scene_time(),
            k => self.scene_times[k - 1].1,
        }
    }

    /// Put `scene`'s movers where the game had them for query `query`: every mover the frame names and
    /// `scene` has starts as recorded ([`Scene::set_mover_start`]; the others keep theirs), then the scene is
    /// set to the query's time ([`Scene::set_time`]). A frame without movers leaves the scene as it is. Ask the
    /// query again afterwards ([`QueryRecord::rerun`]): against an edited level (a slower lift), the answer is
    /// what the game would have got.
    pub fn pose_scene(&self, scene: &mut Scene, query: usize) {
        if self.scene_times.is_empty() && self.mover_starts.is_empty() {
            return;
        }
        let known = scene.movers();
        for &(id, started) in &self.mover_starts {
            if known.iter().any(|m| m.mover == id && m.started != started) {
                scene.set_mover_start(id, started);
            }
        }
        let t = self.scene_time_of(query);
        if scene.time().to_bits() != t.to_bits() {
            scene.set_time(t);
        }
    }
}

impl Current {
    /// Note the scene a query is about to be asked of: its time (a new entry when it changed since the frame's
    /// last query) and its movers' starts. Nothing for a scene without movers.
    pub(super) fn note_scene(&mut self, scene: &Scene) {
        let movers = scene.movers();
        if movers.is_empty() {
            return;
        }
        let t = scene.time();
        let mut changed = false;
        if self
            .scene_times
            .last()
            .is_none_or(|&(_, last)| last.to_bits() != t.to_bits())
        {
            self.scene_times.push((self.query_count as u32, t));
            changed = true;
        }
        let same_starts = self.mover_starts.len() == movers.len()
            && self
                .mover_starts
                .iter()
                .zip(&movers)
                .all(|(&(id, s), m)| id == m.mover && s == m.started);
        if !same_starts {
            self.mover_starts.clear();
            self.mover_starts
                .extend(movers.iter().map(|m| (m.mover, m.started)));
            changed = true;
        }
        if changed {
            self.ext = postcard::to_allocvec(&ExtRef {
                scene_times: &self.scene_times,
                mover_starts: &self.mover_starts,
            })
            .unwrap_or_default();
        }
    }
}
