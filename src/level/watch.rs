//! Hot reload: a level file watched for changes.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{Level, LevelError};

/// Quiet time after the last file-system event before the file is read: one save (a temporary file written,
/// synced and renamed into place) is one reload.
const DEBOUNCE: Duration = Duration::from_millis(100);
/// How often the file is checked without events (the fallback, or a safety net beside events).
const POLL_WITHOUT_EVENTS: Duration = Duration::from_millis(250);
const POLL_BESIDE_EVENTS: Duration = Duration::from_secs(2);

/// A level file watched for changes, for games that reload a level while it is edited.
///
/// File-system events come from the `notify` crate (inotify on Linux), on the level's folder, so an atomic
/// save (a temporary file renamed over the level) is seen; where events are unavailable the file is checked
/// every 250 ms instead. Either way [`LevelWatcher::poll`] never blocks: it reloads once the events have been
/// quiet for 100 ms and the file's content differs from the last one read, so one save is one reload and a
/// save that changes nothing is none.
///
/// ```no_run
/// use collidoscope::level::LevelWatcher;
/// let mut watcher = LevelWatcher::new("levels/house.ron".as_ref())?;
/// loop {
///     match watcher.poll() {
///         Some(Ok(level)) => println!("reloaded {}", level.name), // rebuild the Scene from it
///         Some(Err(e)) => eprintln!("{e}"),                      // the previous level stays
///         None => {}
///     }
///     # break;
/// }
/// # Ok::<(), collidoscope::level::LevelError>(())
/// ```
pub struct LevelWatcher {
    path: PathBuf,
    level: Level,
    /// Hash of the content last read (loaded or not), so the same bytes are not reported twice.
    last_hash: u64,
    /// The time of the last event about the file, set by the watcher's thread.
    last_event: Arc<Mutex<Option<Instant>>>,
    /// Kept alive to keep events coming; `None` when events are unavailable (polling only).
    watcher: Option<notify::RecommendedWatcher>,
    last_check: Instant,
}

impl std::fmt::Debug for LevelWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LevelWatcher")
            .field("path", &self.path)
            .field("events", &self.watcher.is_some())
            .finish_non_exhaustive()
    }
}

fn hash(bytes: &[u8]) -> u64 {
    let mut h = crate::sim::Fnv::new();
    h.bytes(bytes);
    h.finish()
}

impl LevelWatcher {
    /// Load the level at `path` and start watching it.
    ///
    /// # Errors
    /// As [`Level::load`], when the first load fails.
    pub fn new(path: &Path) -> Result<LevelWatcher, LevelError> {
        let level = Level::load(path)?;
        let last_hash = std::fs::read(path).map(|b| hash(&b)).unwrap_or(0);
        let last_event = Arc::new(Mutex::new(None));
        let watcher = Self::start_events(path, &last_event);
        Ok(LevelWatcher {
            path: path.to_owned(),
            level,
            last_hash,
            last_event,
            watcher,
            last_check: Instant::now(),
        })
    }

    fn start_events(
        path: &Path,
        last_event: &Arc<Mutex<Option<Instant>>>,
    ) -> Option<notify::RecommendedWatcher> {
        use notify::Watcher;
        let name = path.file_name()?.to_owned();
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        let sink = Arc::clone(last_event);
        let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
            if let Ok(event) = res
                && event.paths.iter().any(|p| p.file_name() == Some(&name))
                && let Ok(mut t) = sink.lock()
            {
                *t = Some(Instant::now());
            }
        })
        .ok()?;
        watcher
            .watch(&folder, notify::RecursiveMode::NonRecursive)
            .ok()?;
        Some(watcher)
    }

    /// The file watched.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The last level that loaded.
    #[must_use]
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// Whether file-system events are used (otherwise the file is polled).
    #[must_use]
    pub fn uses_events(&self) -> bool {
        self.watcher.is_some()
    }

    /// Check for a change, without blocking: `None` when nothing changed (or a change is still settling),
    /// `Some(Ok(level))` when the file changed and loaded (it becomes [`LevelWatcher::level`]), `Some(Err(e))`
    /// when it changed and failed to load (the previous level stays; the same broken content is reported once).
    pub fn poll(&mut self) -> Option<Result<Level, LevelError>> {
        let now = Instant::now();
        let due = match self.last_event.lock().map(|t| *t) {
            Ok(Some(t)) if now.duration_since(t) >= DEBOUNCE => {
                if let Ok(mut slot) = self.last_event.lock() {
                    *slot = None;
                }
                true
            }
            Ok(Some(_)) => return None,
            _ => {
                let every = if self.watcher.is_some() {
                    POLL_BESIDE_EVENTS
                } else {
                    POLL_WITHOUT_EVENTS
                };
                now.duration_since(self.last_check) >= every
            }
        };
        if !due {
            return None;
        }
        self.last_check = now;
        // A file that is missing for a moment (between an unlink and a rename) is no change.
        let bytes = std::fs::read(&self.path).ok()?;
        let h = hash(&bytes);
        if h == self.last_hash {
            return None;
        }
        self.last_hash = h;
        let loaded = Level::load(&self.path);
        if let Ok(level) = &loaded {
            self.level = level.clone();
        }
        Some(loaded)
    }
}
