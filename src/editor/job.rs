//! A map built on a thread of its own for one document revision (no egui): the reachability and navigation
//! overlays each keep one, poll it once a frame and show what it answers.

use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

use crate::editor::document::DocKey;

/// A build under way: the document it maps, when it began, and where its answer arrives.
pub struct Job<T> {
    key: DocKey,
    started: Instant,
    rx: Receiver<T>,
}

impl<T: Send + 'static> Job<T> {
    /// Run `build` (the map of `key`) on a thread named `name`. Refused with the status words when no
    /// thread can be started.
    ///
    /// # Errors
    /// "cannot start the map's thread: …" with the system's reason.
    pub fn spawn(
        name: &str,
        key: DocKey,
        build: impl FnOnce() -> T + Send + 'static,
    ) -> Result<Self, String> {
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                // The receiver is gone when the editor closed meanwhile: nothing to tell.
                let _ = tx.send(build());
            })
            .map_err(|e| format!("cannot start the map's thread: {e}"))?;
        Ok(Self {
            key,
            started: Instant::now(),
            rx,
        })
    }
}

impl<T> Job<T> {
    /// The document the build maps.
    #[must_use]
    pub fn key(&self) -> DocKey {
        self.key
    }

    /// How long it has run.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The answer once the build has ended: `None` while it runs; an error when its thread ended without an
    /// answer (it panicked: its message went to the log).
    pub fn try_take(&self) -> Option<Result<T, String>> {
        match self.rx.try_recv() {
            Ok(built) => Some(Ok(built)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                Some(Err("the map's build failed (see the log)".into()))
            }
        }
    }

    /// Whether the build has ended (answered, or its thread is gone).
    #[must_use]
    pub fn ended(&self) -> bool {
        !matches!(self.rx.try_recv(), Err(TryRecvError::Empty))
    }
}
