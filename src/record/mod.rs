//! A flight recorder for a game's collision queries: cheap enough to keep running in shipping builds, bounded
//! in memory, saved to a self-contained file (the level embedded) or streamed live to the editor.
//!
//! A game asks its [`Scene`] through a [`Recorder`]: each recorded query returns exactly what the `Scene` method
//! of the same name returns and stores its inputs and answer in the current [`Frame`]. [`Recorder::record_step`]
//! stores a simulation step (the balls and their contact events), [`Recorder::mark`] labels a moment. Memory is
//! bounded by [`RecorderConfig::max_bytes`]: when the next record would not fit, the oldest whole frames are
//! dropped (never part of one); a single frame that outgrows the whole budget keeps its first records and counts
//! the rest in [`Frame::dropped`].
//!
//! Frames are encoded as they are recorded (postcard), so [`Recorder::bytes`] is the exact encoded size held,
//! and saving writes them out as they are. The file format is described in [`format`](mod@format): a versioned header with
//! the level, then length-prefixed, checksummed frames, so a game that crashes mid-write leaves a file that loads
//! up to its last whole frame ([`Recording::truncated`]), and any other damage is a [`RecordError`] naming the
//! frame. The live link ([`Recorder::connect`], [`Listener`]) sends the same bytes over TCP.
//!
//! ```
//! use collidoscope::glam::{Vec2, Vec3};
//! use collidoscope::level::Level;
//! use collidoscope::record::{QueryRecord, Recorder, RecorderConfig, Recording};
//! use collidoscope::scene::Scene;
//! use collidoscope::shape::Ray;
//!
//! let level = Level::from_ron_str(r#"(version: 1, name: "corridor",
//!     walls: [(id: 1, a: (-5.0, 1.0), b: (5.0, 1.0), radius: 0.25)])"#).unwrap();
//! let scene = Scene::from_level(&level).unwrap();
//! let mut rec = Recorder::new(RecorderConfig::default(), &level);
//! rec.begin_frame(0.0);
//! let hit = rec.cast_ray(&scene, &Ray::new(Vec3::new(0.0, 1.0, -2.0), Vec3::Z), 10.0);
//! assert_eq!(hit, scene.cast_ray(&Ray::new(Vec3::new(0.0, 1.0, -2.0), Vec3::Z), 10.0));
//! let end = rec.move_and_slide(&scene, Vec2::ZERO, 0.3, Vec2::new(0.0, 2.0));
//! rec.mark("player stopped by the wall");
//!
//! let recording = Recording::from_bytes(&rec.to_bytes()).unwrap();
//! assert_eq!(recording.frames[0].queries.len(), 2);
//! assert_eq!(recording.frames[0].marks, ["player stopped by the wall"]);
//! assert!(matches!(recording.frames[0].queries[1], QueryRecord::Slide { end: e, .. } if e == end));
//! // Asked again of the same level, every answer is the same.
//! assert_eq!(recording.frames[0].queries[0].rerun(&scene), recording.frames[0].queries[0]);
//! ```

pub mod format;
mod live;
mod movers;
mod query;

#[cfg(test)]
mod tests;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

pub use live::{DEFAULT_PORT, Listener, LiveEvent, LiveStats};
pub use query::QueryRecord;
use query::QueryRef;

use crate::character::{Body, BodyInput, CharacterController, CharacterMove};
use crate::level::{Level, LevelError, ObjectId};
use crate::scene::{Scene, SceneHit, SceneToi};
use crate::shape::{Ray, Sphere};
use crate::sim::{Ball, ContactEvent, StepReport, World};

/// Errors of reading, writing and streaming recordings.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// A file could not be read or written.
    #[error("{}: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// A network operation failed.
    #[error("{0}")]
    Net(String),
    /// The bytes do not start with the recording magic.
    #[error("not a Collidoscope recording (the file does not start with \"COLLREC\")")]
    NotARecording,
    /// A version this build cannot read.
    #[error(
        "recording format version {found} is not supported (this build reads version {supported})"
    )]
    UnsupportedVersion {
        /// The version found.
        found: u32,
        /// The version read.
        supported: u32,
    },
    /// The header is damaged or cut off.
    #[error("damaged recording header: {message}")]
    Header {
        /// What is wrong.
        message: String,
    },
    /// The embedded level does not load.
    #[error("the recording's level does not load: {0}")]
    Level(Box<LevelError>),
    /// A frame is damaged.
    #[error("frame {frame} (at byte {offset}) is damaged: {message}")]
    Frame {
        /// The frame's position in the file (0 for the first).
        frame: u64,
        /// Its byte offset in the file.
        offset: u64,
        /// What is wrong.
        message: String,
    },
}

/// One simulation step: the balls after it and the contacts during it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    /// Every ball after the step, in the world's order.
    pub balls: Vec<Ball>,
    /// The step's contact events.
    pub events: Vec<ContactEvent>,
}

/// One frame of a game: its queries, steps and marks, in the order they were recorded (within each list).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// The frame's number, from 0.
    pub index: u64,
    /// The game's clock at the frame's start, seconds.
    pub time: f64,
    /// Recorded queries.
    pub queries: Vec<QueryRecord>,
    /// Recorded simulation steps.
    pub steps: Vec<StepRecord>,
    /// Labels the game put on this frame.
    pub marks: Vec<String>,
    /// Records left out because this one frame outgrew the whole memory budget.
    pub dropped: u64,
    /// The scene time the queries were asked at: (the index of the first query asked at that time, the
    /// time), ascending ([`Frame::scene_time_of`]); empty when the scene had no movers (and in recordings
    /// made before movers). Left out of the encoding when empty (with `mover_starts`, which is empty exactly
    /// when this is): a frame without movers encodes as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scene_times: Vec<(u32, f32)>,
    /// The movers' starts as of the frame's last query: (mover id, the scene time it started; `None`: not
    /// started), in level order; empty without movers. [`Frame::pose_scene`] puts a scene's movers back there.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mover_starts: Vec<(ObjectId, Option<f32>)>,
}

/// Recorder settings.
#[derive(Clone, Debug, PartialEq)]
pub struct RecorderConfig {
    /// The most encoded bytes held (frames only; the level is not counted). Oldest whole frames go first.
    /// Values below [`MIN_BUDGET`] (an empty frame's worst case) count as [`MIN_BUDGET`].
    pub max_bytes: usize,
    /// The most bytes of finished frames waiting to be sent over the live link; a frame that does not fit is
    /// dropped and counted, never waited for.
    pub live_queue_bytes: usize,
}

impl Default for RecorderConfig {
    fn default() -> Self {
        Self {
            max_bytes: 64 * 1024 * 1024,
            live_queue_bytes: 32 * 1024 * 1024,
        }
    }
}

/// The smallest memory budget: room for one empty frame.
pub const MIN_BUDGET: usize = 64;

/// Bytes of postcard's varint for `n`.
fn varint_len(n: u64) -> usize {
    ((64 - n.leading_zeros()).max(1) as usize).div_ceil(7)
}

/// The frame being recorded, its records already encoded.
#[derive(Debug, Default)]
struct Current {
    index: u64,
    time: f64,
    queries: Vec<u8>,
    query_count: u64,
    steps: Vec<u8>,
    step_count: u64,
    marks: Vec<String>,
    dropped: u64,
    /// The frame's scene times and movers' starts (`movers.rs`), and their encoding (empty without movers).
    scene_times: Vec<(u32, f32)>,
    mover_starts: Vec<(ObjectId, Option<f32>)>,
    ext: Vec<u8>,
}

impl Current {
    fn marks_len(&self) -> usize {
        varint_len(self.marks.len() as u64)
            + self
                .marks
                .iter()
                .map(|m| varint_len(m.len() as u64) + m.len())
                .sum::<usize>()
    }

    /// The payload's exact length, with the drop counter taken at its widest (10 bytes) so it can grow.
    fn budget_len(&self) -> usize {
        format::FRAME_HEADER_BYTES
            + varint_len(self.index)
            + 8
            + varint_len(self.query_count)
            + self.queries.len()
            + varint_len(self.step_count)
            + self.steps.len()
            + self.marks_len()
            + 10
            + self.ext.len()
    }

    /// The frame record's exact length (header and payload).
    fn exact_len(&self) -> usize {
        self.budget_len() - 10 + varint_len(self.dropped)
    }

    /// The payload in [`Frame`]'s postcard layout: the counts are the sequences' length prefixes, followed by
    /// the records already encoded.
    fn payload(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.budget_len());
        put(&mut out, &self.index);
        put(&mut out, &self.time);
        put(&mut out, &self.query_count);
        out.extend_from_slice(&self.queries);
        put(&mut out, &self.step_count);
        out.extend_from_slice(&self.steps);
        put(&mut out, &self.marks);
        put(&mut out, &self.dropped);
        out.extend_from_slice(&self.ext);
        out
    }
}

/// Append the postcard encoding of `v` (numbers and strings: encoding into a `Vec` cannot fail).
fn put<T: Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
    if let Ok(bytes) = postcard::to_allocvec(v) {
        out.extend_from_slice(&bytes);
    }
}

/// The flight recorder. See the [module docs](self).
#[derive(Debug)]
pub struct Recorder {
    config: RecorderConfig,
    level: Level,
    header: Vec<u8>,
    /// Finished frames, each a whole frame record, oldest first.
    frames: VecDeque<Vec<u8>>,
    finished_bytes: usize,
    current: Option<Current>,
    next_index: u64,
    frames_dropped: u64,
    scratch: Vec<u8>,
    live: Option<live::Sender>,
}

impl Recorder {
    /// A recorder for a game playing `level` (kept, so a recording is self-contained; meshes read from OBJ
    /// files are embedded as inline geometry).
    #[must_use]
    pub fn new(config: RecorderConfig, level: &Level) -> Recorder {
        let mut level = level.clone();
        for m in &mut level.meshes {
            if !m.indices.is_empty() {
                m.obj = None;
            }
        }
        let header = format::encode_header(&level.to_ron_string());
        Recorder {
            config,
            level,
            header,
            frames: VecDeque::new(),
            finished_bytes: 0,
            current: None,
            next_index: 0,
            frames_dropped: 0,
            scratch: Vec::new(),
            live: None,
        }
    }

    /// The level the recording embeds.
    #[must_use]
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &RecorderConfig {
        &self.config
    }

    /// Start the next frame (indices from 0) at the game's clock `time` (seconds). The frame before is
    /// finished: kept within the budget and, when connected, queued for the live link. Queries recorded before
    /// the first `begin_frame` go into a frame 0 at time 0.
    pub fn begin_frame(&mut self, time: f64) {
        self.finish_current();
        self.current = Some(Current {
            index: self.next_index,
            time,
            ..Current::default()
        });
        self.next_index += 1;
    }

    fn current(&mut self) -> &mut Current {
        if self.current.is_none() {
            self.begin_frame(0.0);
        }
        self.current.get_or_insert_with(Current::default)
    }

    fn finish_current(&mut self) {
        if let Some(cur) = self.current.take() {
            let record = format::frame_record(&cur.payload());
            if let Some(live) = &mut self.live {
                live.send(&record);
            }
            self.finished_bytes += record.len();
            self.frames.push_back(record);
            self.fit(0);
        }
    }

    /// Drop the oldest whole finished frames until `extra` more bytes fit beside what is held.
    fn fit(&mut self, extra: usize) -> bool {
        let current = self.current.as_ref().map_or(0, Current::budget_len);
        let budget = self.config.max_bytes.max(MIN_BUDGET);
        while self.finished_bytes + current + extra > budget {
            let Some(old) = self.frames.pop_front() else {
                return false;
            };
            self.finished_bytes -= old.len();
            self.frames_dropped += 1;
        }
        true
    }

    /// Encode one record into the current frame, within the budget.
    fn push(&mut self, record: &impl Serialize, step: bool) {
        self.current();
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        if let Ok(v) = postcard::to_extend(record, scratch) {
            scratch = v;
        } else {
            scratch = Vec::new();
        }
        let cur_len = self.current.as_ref().map_or(0, Current::budget_len);
        // The record, plus a count that may grow by a byte.
        let extra = scratch.len() + 1;
        let fits_frame = cur_len + extra <= format::MAX_FRAME_BYTES as usize;
        if fits_frame && self.fit(extra) {
            let cur = self.current();
            if step {
                cur.steps.extend_from_slice(&scratch);
                cur.step_count += 1;
            } else {
                cur.queries.extend_from_slice(&scratch);
                cur.query_count += 1;
            }
        } else {
            self.current().dropped += 1;
        }
        self.scratch = scratch;
    }

    /// [`Scene::cast_ray`], recorded.
    pub fn cast_ray(&mut self, scene: &Scene, ray: &Ray, max_t: f32) -> Option<SceneHit> {
        let hit = scene.cast_ray(ray, max_t);
        self.current().note_scene(scene);
        self.push(
            &QueryRef::Ray {
                ray,
                max_t,
                hit: &hit,
            },
            false,
        );
        hit
    }

    /// [`Scene::sweep_sphere`], recorded.
    pub fn sweep_sphere(
        &mut self,
        scene: &Scene,
        sphere: &Sphere,
        motion: Vec3,
    ) -> Option<SceneToi> {
        let toi = scene.sweep_sphere(sphere, motion);
        self.current().note_scene(scene);
        self.push(
            &QueryRef::Sweep {
                sphere,
                motion,
                toi: &toi,
            },
            false,
        );
        toi
    }

    /// [`Scene::overlap_sphere`], recorded.
    pub fn overlap_sphere(&mut self, scene: &Scene, sphere: &Sphere) -> Vec<ObjectId> {
        let objects = scene.overlap_sphere(sphere);
        self.current().note_scene(scene);
        self.push(
            &QueryRef::Overlap {
                sphere,
                objects: &objects,
            },
            false,
        );
        objects
    }

    /// [`Scene::move_and_slide`], recorded.
    pub fn move_and_slide(&mut self, scene: &Scene, from: Vec2, radius: f32, motion: Vec2) -> Vec2 {
        let end = scene.move_and_slide(from, radius, motion);
        self.current().note_scene(scene);
        self.push(
            &QueryRef::Slide {
                from,
                radius,
                motion,
                end,
            },
            false,
        );
        end
    }

    /// [`CharacterController::move_character`], recorded: the controller, the feet, the motion and the whole
    /// answer, its workings included (so the debugger shows every sweep of the move as the game made it, and
    /// `replay` can tell a changed answer from a changed build). A move costs a few hundred bytes (about 370
    /// walking on a floor, 580 against a wall, 780 up a step: six to thirteen times a ray that hits): its
    /// trace holds every sweep, about 80 bytes each, three to six of them in a move.
    pub fn move_character(
        &mut self,
        scene: &Scene,
        controller: &CharacterController,
        feet: Vec3,
        motion: Vec3,
    ) -> CharacterMove {
        let result = controller.move_character(scene, feet, motion);
        self.current().note_scene(scene);
        self.push(
            &QueryRef::Character {
                controller,
                feet,
                motion,
                result: &result,
            },
            false,
        );
        result
    }

    /// [`Body::step`], recording its move: the same answer, and the body left as [`Body::step`] leaves it. The
    /// move is kept as a [`QueryRecord::Character`] with the controller it was made with (while crouching, its
    /// height is the crouching height), so `replay` and the editor re-ask it as any other move.
    pub fn step_body(
        &mut self,
        scene: &Scene,
        body: &mut Body,
        controller: &CharacterController,
        input: &BodyInput,
        gravity: Vec3,
        dt: f32,
    ) -> CharacterMove {
        body.step_with(controller, scene, input, gravity, dt, |c, feet, motion| {
            self.move_character(scene, c, feet, motion)
        })
    }

    /// Store a simulation step: the world's balls after it and the report's contact events.
    pub fn record_step(&mut self, world: &World, report: &StepReport) {
        #[derive(Serialize)]
        struct StepRef<'a> {
            balls: &'a [Ball],
            events: &'a [ContactEvent],
        }
        self.push(
            &StepRef {
                balls: world.balls(),
                events: &report.events,
            },
            true,
        );
    }

    /// Label the current frame ("player fell through"). Labels longer than 1 KiB are cut at a character
    /// boundary.
    pub fn mark(&mut self, label: &str) {
        let mut end = label.len().min(1024);
        while !label.is_char_boundary(end) {
            end -= 1;
        }
        let label = label[..end].to_owned();
        self.current();
        let extra = varint_len(label.len() as u64) + label.len() + 1;
        if self.fit(extra) {
            self.current().marks.push(label);
        } else {
            self.current().dropped += 1;
        }
    }

    /// Encoded bytes held (frames only, the level not counted); never above
    /// [`RecorderConfig::max_bytes`] (nor [`MIN_BUDGET`]).
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.finished_bytes + self.current.as_ref().map_or(0, Current::exact_len)
    }

    /// Frames held, the current one included.
    #[must_use]
    pub fn frame_count(&self) -> usize {
        self.frames.len() + usize::from(self.current.is_some())
    }

    /// Whole frames dropped to stay within the budget.
    #[must_use]
    pub fn frames_dropped(&self) -> u64 {
        self.frames_dropped
    }

    /// The whole recording: header, every frame held, the current one as it stands.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let current = self
            .current
            .as_ref()
            .map(|c| format::frame_record(&c.payload()));
        let mut out = Vec::with_capacity(
            self.header.len() + self.finished_bytes + current.as_ref().map_or(0, Vec::len),
        );
        out.extend_from_slice(&self.header);
        for f in &self.frames {
            out.extend_from_slice(f);
        }
        if let Some(c) = current {
            out.extend_from_slice(&c);
        }
        out
    }

    /// Save [`Recorder::to_bytes`] to `path` atomically (a temporary file renamed into place).
    ///
    /// # Errors
    /// [`RecordError::Io`] naming the file and the step that failed; `path` is untouched then.
    pub fn save(&self, path: &Path) -> Result<(), RecordError> {
        crate::level::atomic_write(path, &self.to_bytes()).map_err(|e| RecordError::Io {
            path: path.to_owned(),
            message: e.to_string(),
        })
    }

    /// Stream frames to a [`Listener`] (the editor's File → Listen for a game) at `addr`: from now on each frame
    /// is also sent when the next one begins. Connecting waits at most a second; after that the game never
    /// waits on the link: frames go through a queue of [`RecorderConfig::live_queue_bytes`] to a background
    /// thread, a frame that does not fit is dropped and counted ([`Recorder::live_stats`]).
    ///
    /// A link that cannot be made is not an error: when nothing listens at `addr` yet (the game started
    /// before the editor), the background thread tries again every second, as it does when a link is lost,
    /// and frames finished meanwhile are dropped and counted; once the editor listens, it gets the header
    /// (the level) and every frame from then on. What happened is said once per change of the link, not at
    /// every retry, in [`Recorder::live_messages`] ("cannot connect to the viewer at 127.0.0.1:47474:
    /// Connection refused (retrying every second)", then "connected to the viewer at …"); whether it is up
    /// now is [`LiveStats::connected`]. Calling `connect` again replaces the link.
    ///
    /// # Errors
    /// [`RecordError::Net`] only when the background thread cannot be started.
    pub fn connect(&mut self, addr: std::net::SocketAddr) -> Result<(), RecordError> {
        self.live = None;
        let sender =
            live::Sender::connect(addr, self.header.clone(), self.config.live_queue_bytes)?;
        self.live = Some(sender);
        Ok(())
    }

    /// What happened to the live link since the last call, one line per change (the first connection failed
    /// and is being retried, connected, lost): for the game's log. Empty when not connected or nothing
    /// changed.
    pub fn live_messages(&mut self) -> Vec<String> {
        self.live
            .as_ref()
            .map(live::Sender::messages)
            .unwrap_or_default()
    }

    /// Send the current frame as it stands (a game calls it before exiting; the viewer replaces a frame it
    /// already has with a later copy of the same index) and wait at most a second for the queue to drain.
    pub fn flush(&mut self) {
        let record = self
            .current
            .as_ref()
            .map(|c| format::frame_record(&c.payload()));
        if let Some(live) = &mut self.live {
            if let Some(r) = record {
                live.send(&r);
            }
            live.drain(std::time::Duration::from_secs(1));
        }
    }

    /// The live link's counters, when connected.
    #[must_use]
    pub fn live_stats(&self) -> Option<LiveStats> {
        self.live.as_ref().map(live::Sender::stats)
    }
}

/// A recording read back: the level the game played and its frames.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    /// The level embedded at recording time.
    pub level: Level,
    /// Every whole frame, oldest first.
    pub frames: Vec<Frame>,
    /// Whether the data ended inside a frame (a game that stopped mid-write): the frames before it are all here.
    pub truncated: bool,
    /// The format version read.
    pub version: u32,
}

impl Recording {
    /// Read a recording file.
    ///
    /// # Errors
    /// [`RecordError::Io`] when the file cannot be read, otherwise as [`Recording::from_bytes`] with the file
    /// named.
    pub fn load(path: &Path) -> Result<Recording, RecordError> {
        let io = |message: String| RecordError::Io {
            path: path.to_owned(),
            message,
        };
        let len = std::fs::metadata(path)
            .map_err(|e| io(e.to_string()))?
            .len();
        let limit = u64::from(format::MAX_LEVEL_BYTES) * 8;
        if len > limit {
            return Err(io(format!("{len} bytes is over the {limit}-byte limit")));
        }
        let bytes = std::fs::read(path).map_err(|e| io(e.to_string()))?;
        Recording::from_bytes(&bytes)
    }

    /// Parse a recording. Data that ends inside a frame gives the frames before it with `truncated = true`.
    ///
    /// # Errors
    /// A [`RecordError`] for anything else: not a recording, an unsupported version, a damaged or cut-off
    /// header (without its level nothing can be shown), a damaged frame (named with its position and offset).
    /// Never panics, whatever the bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Recording, RecordError> {
        let mut dec = format::Decoder::new();
        dec.feed(bytes);
        let mut level = None;
        let mut frames = Vec::new();
        while let Some(item) = dec.next_item()? {
            match item {
                format::Item::Header(l) => level = Some(*l),
                format::Item::Frame(f) => frames.push(*f),
            }
        }
        let Some(level) = level else {
            return Err(RecordError::Header {
                message: format!(
                    "the data ends at byte {} inside the header, before the level is complete",
                    bytes.len()
                ),
            });
        };
        Ok(Recording {
            level,
            frames,
            truncated: dec.pending() > 0,
            version: format::FORMAT_VERSION,
        })
    }
}

impl Default for format::Decoder {
    fn default() -> Self {
        Self::new()
    }
}
