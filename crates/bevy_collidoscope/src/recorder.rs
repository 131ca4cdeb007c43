//! [`FlightRecorder`]: the runtime's [`Recorder`] kept as a Bevy resource, a frame per Bevy frame, fed by
//! every query asked through [`LevelScene`](crate::LevelScene) and every character move, streamed to the
//! editor on request and saved when the app exits or panics.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use collidoscope::level::Level;
use collidoscope::record::{LiveStats, RecordError, Recorder, RecorderConfig};
use tracing::{error, info, warn};

/// How the plugin's [`FlightRecorder`] records (`CollidoscopePlugin { recorder: Some(settings), .. }`, or
/// `app.insert_resource(FlightRecorder::new(settings))`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FlightRecorderSettings {
    /// The runtime recorder's memory budget and live-link queue.
    pub config: RecorderConfig,
    /// Where the recording is saved when the app exits (an [`AppExit`] message, or the resource dropped) and
    /// when it panics; `None`: only when the game calls [`FlightRecorder::save`].
    pub save_to: Option<PathBuf>,
    /// Stream frames to the editor's live link (File → Listen for a game) at this address, from the moment
    /// the first level is spawned.
    pub connect: Option<SocketAddr>,
}

impl FlightRecorderSettings {
    /// Settings that save to `path` on exit and on a panic.
    #[must_use]
    pub fn save_to(path: impl Into<PathBuf>) -> Self {
        Self {
            save_to: Some(path.into()),
            ..Self::default()
        }
    }
}

/// The flight recorder as a Bevy resource. A recording is self-contained: it embeds its level, so it starts
/// when the first level is spawned (by a [`LevelRoot`](crate::LevelRoot)); from then on each Bevy frame is a
/// recorded frame (`begin_frame` in [`First`] with the virtual clock), and every query asked through
/// [`LevelScene`](crate::LevelScene) and every [`CharacterBody`](crate::CharacterBody) move is recorded in it,
/// with the answer the game got.
///
/// The recording keeps the level it started with. Reloads and level changes are marked in the frame where
/// they happen (`level reloaded: NAME`, `level changed: NAME`); replay the frames after one against the new
/// level with `collidoscope replay FILE --level NEW.ron`.
///
/// Its methods take `&self` (the recorder sits behind a mutex), so queries recorded from systems that run in
/// parallel only ever wait on each other for the length of one record.
#[derive(Resource)]
pub struct FlightRecorder {
    shared: Arc<Mutex<State>>,
}

#[derive(Debug)]
struct State {
    settings: FlightRecorderSettings,
    recorder: Option<Recorder>,
    /// Something was recorded since the last save.
    dirty: bool,
}

impl State {
    fn save_to_settings(&mut self) -> Option<Result<PathBuf, RecordError>> {
        let path = self.settings.save_to.clone()?;
        let rec = self.recorder.as_mut()?;
        rec.flush();
        Some(rec.save(&path).map(|()| {
            self.dirty = false;
            path
        }))
    }
}

impl std::fmt::Debug for FlightRecorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.lock();
        f.debug_struct("FlightRecorder")
            .field("settings", &state.settings)
            .field("recording", &state.recorder.is_some())
            .finish()
    }
}

impl FlightRecorder {
    /// A recorder with these settings; with `save_to`, a panic hook saves the recording before the panic goes
    /// on (the hook holds no strong reference: a dropped recorder is not kept alive by it).
    #[must_use]
    pub fn new(settings: FlightRecorderSettings) -> FlightRecorder {
        let with_hook = settings.save_to.is_some();
        let shared = Arc::new(Mutex::new(State {
            settings,
            recorder: None,
            dirty: false,
        }));
        if with_hook {
            install_panic_hook(Arc::downgrade(&shared));
        }
        FlightRecorder { shared }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while recording leaves the recorder itself whole (each record is pushed at once), so a
        // poisoned lock is still worth saving from.
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> FlightRecorderSettings {
        self.lock().settings.clone()
    }

    /// Whether recording has started (a level has been spawned).
    #[must_use]
    pub fn is_recording(&self) -> bool {
        self.lock().recorder.is_some()
    }

    /// Run `f` on the runtime recorder, when recording (for what the plugin does not record itself, such as
    /// [`Recorder::record_step`] of a game's own ball simulation).
    pub fn with_recorder<R>(&self, f: impl FnOnce(&mut Recorder) -> R) -> Option<R> {
        let mut state = self.lock();
        let out = state.recorder.as_mut().map(f);
        state.dirty |= out.is_some();
        out
    }

    /// Label the current frame ("player fell through"); nothing before recording starts.
    pub fn mark(&self, label: &str) {
        self.with_recorder(|r| r.mark(label));
    }

    /// Stream to the editor's live link at `addr`: now when recording, else as soon as it starts.
    ///
    /// # Errors
    /// [`RecordError::Net`] when recording and nothing accepts the connection.
    pub fn connect(&self, addr: SocketAddr) -> Result<(), RecordError> {
        let mut state = self.lock();
        state.settings.connect = Some(addr);
        match state.recorder.as_mut() {
            Some(r) => r.connect(addr),
            None => Ok(()),
        }
    }

    /// The live link's counters, when connected.
    #[must_use]
    pub fn live_stats(&self) -> Option<LiveStats> {
        self.lock().recorder.as_ref().and_then(Recorder::live_stats)
    }

    /// Frames held (the current one included); 0 before recording starts.
    #[must_use]
    pub fn frame_count(&self) -> usize {
        self.lock()
            .recorder
            .as_ref()
            .map_or(0, Recorder::frame_count)
    }

    /// The whole recording as it stands (`None` before recording starts).
    #[must_use]
    pub fn to_bytes(&self) -> Option<Vec<u8>> {
        self.lock().recorder.as_ref().map(Recorder::to_bytes)
    }

    /// Save the recording as it stands to `path` (atomically), sending the current frame over the live link
    /// first. `Ok(false)`: nothing to save yet (no level spawned).
    ///
    /// # Errors
    /// [`RecordError::Io`] naming the file.
    pub fn save(&self, path: &Path) -> Result<bool, RecordError> {
        let mut state = self.lock();
        let Some(rec) = state.recorder.as_mut() else {
            return Ok(false);
        };
        rec.flush();
        rec.save(path)?;
        if state.settings.save_to.as_deref() == Some(path) {
            state.dirty = false;
        }
        Ok(true)
    }

    /// Start recording `level` at the game's clock `time` (the first spawned level), connecting to the live
    /// link when the settings ask; nothing when already recording.
    pub(crate) fn start(&self, level: &Level, time: f64) {
        let mut state = self.lock();
        if state.recorder.is_some() {
            return;
        }
        let mut rec = Recorder::new(state.settings.config.clone(), level);
        rec.begin_frame(time);
        if let Some(addr) = state.settings.connect
            && let Err(e) = rec.connect(addr)
        {
            warn!("flight recorder: no live link to {addr}: {e}");
        }
        rec.mark(&format!("level loaded: {}", level.name));
        state.recorder = Some(rec);
        state.dirty = true;
    }

    fn begin_frame(&self, time: f64) {
        self.with_recorder(|r| r.begin_frame(time));
    }

    /// Save to the settings' path when something was recorded since the last save.
    fn save_if_dirty(&self) {
        let mut state = self.lock();
        if !state.dirty {
            return;
        }
        match state.save_to_settings() {
            Some(Ok(path)) => info!("flight recorder: saved {}", path.display()),
            Some(Err(e)) => error!("flight recorder: {e}"),
            None => {}
        }
    }
}

impl Drop for FlightRecorder {
    fn drop(&mut self) {
        // An app that ends without an `AppExit` message (returning from `main`, a test dropping its app)
        // still leaves its recording behind.
        self.save_if_dirty();
    }
}

/// Chain a hook in front of the current panic hook that saves the recording (once: a second panic finds it
/// saved). It waits at most 100 ms for the recorder's lock: the panicking thread may hold it itself.
fn install_panic_hook(shared: Weak<Mutex<State>>) {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if let Some(shared) = shared.upgrade() {
            let deadline = Instant::now() + Duration::from_millis(100);
            loop {
                match shared.try_lock() {
                    Ok(mut state) => {
                        save_after_panic(&mut state);
                        break;
                    }
                    Err(std::sync::TryLockError::Poisoned(p)) => {
                        save_after_panic(&mut p.into_inner());
                        break;
                    }
                    Err(std::sync::TryLockError::WouldBlock) if Instant::now() < deadline => {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    Err(std::sync::TryLockError::WouldBlock) => break,
                }
            }
        }
        previous(info);
    }));
}

fn save_after_panic(state: &mut State) {
    if !state.dirty {
        return;
    }
    if let Some(rec) = state.recorder.as_mut() {
        rec.mark("panic");
    }
    match state.save_to_settings() {
        Some(Ok(path)) => eprintln!("flight recorder: saved {} after a panic", path.display()),
        Some(Err(e)) => eprintln!("flight recorder: not saved after a panic: {e}"),
        None => {}
    }
}

/// `First`: each Bevy frame is a recorded frame, stamped with the virtual clock.
pub(crate) fn begin_recorder_frame(time: Res<Time>, recorder: Option<Res<FlightRecorder>>) {
    if let Some(r) = recorder {
        r.begin_frame(time.elapsed_secs_f64());
    }
}

/// `Last`: an `AppExit` message saves the recording (the app stops after this frame).
pub(crate) fn save_recorder_on_exit(
    mut exits: MessageReader<AppExit>,
    recorder: Option<Res<FlightRecorder>>,
) {
    if exits.read().next().is_some()
        && let Some(r) = recorder
    {
        r.save_if_dirty();
    }
}
