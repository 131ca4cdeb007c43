//! Recordings coming in: a file opened, the live link listened on and polled once a frame, and every
//! recorded query asked again of the edited level a slice per frame. Each returns the status line's words;
//! the app shows them and opens the Recording tab.

use std::net::SocketAddr;
use std::path::Path;

use super::model::{Origin, RecordingSession};
use crate::editor::document::DocKey;
use crate::record::{DEFAULT_PORT, Listener, LiveEvent, Recording};
use crate::scene::Scene;

/// The live link: the listener while listening for a game, and the port to listen on.
#[derive(Default)]
pub struct LiveLink {
    /// The listener, while listening.
    pub(crate) listener: Option<Listener>,
    /// The port to listen on (tests use a free one); `None` is the default, 47474.
    pub port: Option<u16>,
}

/// Queries asked again per UI frame (a long recording takes several frames; the tab shows the progress).
pub const REASK_PER_FRAME: usize = 20_000;

/// Open a recording file: the session and the status line, or why it cannot be opened.
///
/// # Errors
/// The status line naming the file and the reason.
pub fn open_file(path: &Path) -> Result<(RecordingSession, String), String> {
    match Recording::load(path) {
        Ok(r) => {
            let frames = r.frames.len();
            let cut = if r.truncated {
                " (cut off: its last frame was incomplete)"
            } else {
                ""
            };
            let status = format!("opened recording {} ({frames} frames){cut}", path.display());
            Ok((
                RecordingSession::new(r, Origin::File(path.to_path_buf())),
                status,
            ))
        }
        Err(e) => Err(format!("cannot open the recording {}: {e}", path.display())),
    }
}

/// Start listening for a game on loopback (`port`, else 47474), or stop. Returns the status line.
pub fn toggle_listen(live: &mut Option<Listener>, port: Option<u16>) -> String {
    if let Some(l) = live.take() {
        return format!("stopped listening on {}", l.local_addr());
    }
    let addr = SocketAddr::from(([127, 0, 0, 1], port.unwrap_or(DEFAULT_PORT)));
    match Listener::bind(addr) {
        Ok(l) => {
            let status = format!(
                "listening for a game on {} (Recorder::connect in the game)",
                l.local_addr()
            );
            *live = Some(l);
            status
        }
        Err(e) => e.to_string(),
    }
}

/// Take what the live link received: a connection opens a live session in `recording`, frames join it.
/// Returns the last status line and whether a game connected (the Recording tab should show).
pub fn poll_live(
    l: &mut Listener,
    recording: &mut Option<RecordingSession>,
) -> (Option<String>, bool) {
    let addr = l.local_addr();
    let mut status = None;
    let mut connected = false;
    for ev in l.poll() {
        match ev {
            LiveEvent::Connected { level } => {
                *recording = Some(RecordingSession::live(level, addr));
                connected = true;
                status = Some("a game connected: its frames arrive in the Recording tab".into());
            }
            LiveEvent::Frame(f) => {
                if let Some(s) = recording {
                    s.push_live(f);
                }
            }
            LiveEvent::Disconnected => status = Some("the game disconnected".into()),
        }
    }
    for m in l.messages() {
        status = Some(m);
    }
    (status, connected)
}

/// The live link in the status bar.
#[must_use]
pub fn live_status(l: &Listener) -> String {
    let s = l.stats();
    if s.connected {
        format!("game connected: {} frames, {} dropped", s.frames, s.dropped)
    } else {
        format!("listening on {}", l.local_addr())
    }
}

impl RecordingSession {
    /// Ask the next slice of recorded queries of the edited level (`scene`, at document `key`). Returns
    /// whether every query has been asked.
    pub fn reask_frame(&mut self, scene: std::sync::Arc<Scene>, key: DocKey) -> bool {
        let id = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            key.hash(&mut h);
            h.finish()
        };
        self.reask_against(scene, (id, key.revision));
        self.reask_step(REASK_PER_FRAME)
    }
}
