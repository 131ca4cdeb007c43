//! The live link: a game's [`super::Recorder`] streams its frames over TCP to the editor's [`Listener`].
//!
//! The bytes on the wire are those of a recording file (header with the level, then frame records), so one
//! decoder reads both. The game side never waits: frames go through a bounded queue to a sender thread, and a
//! frame that does not fit is dropped and counted. A link that cannot be made, at first or after it was lost,
//! is retried every second by that thread, so a game may start before the editor listens; what happened is
//! reported once per change (`Recorder::live_messages`), not at every retry. The listener is polled by the
//! editor once per UI frame, reads what has arrived without blocking, refuses bad peers (wrong magic or
//! version, damaged or oversized frames) with a message and keeps listening, so a restarted game simply
//! connects again.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::format::{Decoder, Item};
use super::{Frame, RecordError};
use crate::level::Level;

/// The port the editor listens on by default (loopback only unless the user binds another address).
pub const DEFAULT_PORT: u16 = 47_474;

/// The largest level a live peer may announce (a recording file allows more).
const LIVE_MAX_LEVEL: u32 = 128 * 1024 * 1024;
/// The largest frame a live peer may announce.
const LIVE_MAX_FRAME: u32 = 64 * 1024 * 1024;
/// Bytes read per poll, so one poll never stalls the editor's frame.
const READ_BUDGET: usize = 16 * 1024 * 1024;

/// Counters of a live link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveStats {
    /// Whether a peer is connected now.
    pub connected: bool,
    /// Frames sent (game side) or received (editor side).
    pub frames: u64,
    /// Frames dropped: by the game when its queue was full or the link was down, or, on the editor side,
    /// missing from the sequence of frame indices.
    pub dropped: u64,
    /// Bytes sent or received.
    pub bytes: u64,
}

#[derive(Debug, Default)]
struct Shared {
    queued_bytes: AtomicUsize,
    frames: AtomicU64,
    dropped: AtomicU64,
    bytes: AtomicU64,
    connected: AtomicBool,
    /// What happened to the link since the game last asked, one line per change.
    messages: Mutex<Vec<String>>,
}

impl Shared {
    fn say(&self, message: String) {
        if let Ok(mut m) = self.messages.lock() {
            // A game that never reads them keeps a bounded list (the link changes state at most once a second).
            if m.len() >= 64 {
                m.remove(0);
            }
            m.push(message);
        }
    }
}

/// The game's end: a queue to a thread that owns the socket.
#[derive(Debug)]
pub(super) struct Sender {
    tx: SyncSender<Vec<u8>>,
    shared: Arc<Shared>,
    max_queue: usize,
}

impl Sender {
    /// Try the viewer at `addr` once (at most a second), then hand the link to the sender thread: connected
    /// or not, it retries every second until the viewer is there, and again whenever the link is lost.
    pub(super) fn connect(
        addr: SocketAddr,
        header: Vec<u8>,
        max_queue: usize,
    ) -> Result<Sender, RecordError> {
        let shared = Arc::new(Shared::default());
        let stream = match TcpStream::connect_timeout(&addr, Duration::from_secs(1)) {
            Ok(s) => Some(s),
            Err(e) => {
                shared.say(format!(
                    "cannot connect to the viewer at {addr}: {e} (retrying every second)"
                ));
                None
            }
        };
        shared.connected.store(stream.is_some(), Ordering::Relaxed);
        // The queue's length in frames is a backstop; its size in bytes is the real bound.
        let (tx, rx) = sync_channel::<Vec<u8>>(4096);
        let thread_shared = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("collidoscope-live".into())
            .spawn(move || send_loop(addr, stream, &header, &rx, &thread_shared))
            .map_err(|e| RecordError::Net(format!("cannot start the sender thread: {e}")))?;
        Ok(Sender {
            tx,
            shared,
            max_queue,
        })
    }

    /// Queue one frame record; drop and count it when the queue is full or the link is down.
    pub(super) fn send(&mut self, record: &[u8]) {
        let queued = self.shared.queued_bytes.load(Ordering::Relaxed);
        if !self.shared.connected.load(Ordering::Relaxed) || queued + record.len() > self.max_queue
        {
            self.shared.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        self.shared
            .queued_bytes
            .fetch_add(record.len(), Ordering::Relaxed);
        match self.tx.try_send(record.to_vec()) {
            Ok(()) => {}
            Err(TrySendError::Full(v) | TrySendError::Disconnected(v)) => {
                self.shared
                    .queued_bytes
                    .fetch_sub(v.len(), Ordering::Relaxed);
                self.shared.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Wait until the queue is empty, at most `limit`.
    pub(super) fn drain(&self, limit: Duration) {
        let start = Instant::now();
        while self.shared.queued_bytes.load(Ordering::Relaxed) > 0
            && self.shared.connected.load(Ordering::Relaxed)
            && start.elapsed() < limit
        {
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// What happened to the link since the last call, one line per change.
    pub(super) fn messages(&self) -> Vec<String> {
        self.shared
            .messages
            .lock()
            .map(|mut m| std::mem::take(&mut *m))
            .unwrap_or_default()
    }

    pub(super) fn stats(&self) -> LiveStats {
        LiveStats {
            connected: self.shared.connected.load(Ordering::Relaxed),
            frames: self.shared.frames.load(Ordering::Relaxed),
            dropped: self.shared.dropped.load(Ordering::Relaxed),
            bytes: self.shared.bytes.load(Ordering::Relaxed),
        }
    }
}

/// The sender thread: write the header, then every queued frame; with no link (never made, or broken) count
/// what arrives as dropped and try to connect every second, saying so once per change of state (lost,
/// connected), never at each failed retry. Ends when the recorder is dropped.
fn send_loop(
    addr: SocketAddr,
    mut stream: Option<TcpStream>,
    header: &[u8],
    rx: &Receiver<Vec<u8>>,
    shared: &Shared,
) {
    let mut need_header = true;
    let mut last_try = Instant::now();
    // Whether the game was told the link is down (so a reconnection is worth saying).
    let mut said_down = stream.is_none();
    loop {
        if stream.is_none() && last_try.elapsed() >= Duration::from_secs(1) {
            last_try = Instant::now();
            stream = TcpStream::connect_timeout(&addr, Duration::from_millis(500)).ok();
            need_header = true;
        }
        if let Some(s) = &mut stream
            && need_header
        {
            let _ = s.set_nodelay(true);
            match s.write_all(header) {
                Ok(()) => {
                    shared
                        .bytes
                        .fetch_add(header.len() as u64, Ordering::Relaxed);
                    need_header = false;
                    shared.connected.store(true, Ordering::Relaxed);
                    if said_down {
                        shared.say(format!("connected to the viewer at {addr}"));
                        said_down = false;
                    }
                }
                Err(e) => {
                    stream = None;
                    shared.connected.store(false, Ordering::Relaxed);
                    if !said_down {
                        shared.say(format!(
                            "lost the viewer at {addr}: {e} (retrying every second)"
                        ));
                        said_down = true;
                    }
                    continue;
                }
            }
        }
        let wait = if stream.is_some() {
            Duration::from_secs(3600)
        } else {
            Duration::from_millis(250)
        };
        let frame = match rx.recv_timeout(wait) {
            Ok(f) => f,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
        };
        let written = stream.as_mut().map(|s| s.write_all(&frame));
        match written {
            Some(Ok(())) => {
                shared.frames.fetch_add(1, Ordering::Relaxed);
                shared
                    .bytes
                    .fetch_add(frame.len() as u64, Ordering::Relaxed);
            }
            Some(Err(e)) => {
                stream = None;
                shared.connected.store(false, Ordering::Relaxed);
                shared.dropped.fetch_add(1, Ordering::Relaxed);
                if !said_down {
                    shared.say(format!(
                        "lost the viewer at {addr}: {e} (retrying every second)"
                    ));
                    said_down = true;
                }
            }
            None => {
                shared.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
        // Counted out only once written, so `drain` waits for the frame in flight too.
        shared
            .queued_bytes
            .fetch_sub(frame.len(), Ordering::Relaxed);
    }
}

/// What a [`Listener`] saw since the last poll.
#[derive(Clone, Debug, PartialEq)]
// The shape is the public contract (API.md); a level arrives once per connection, so its size does not matter.
#[allow(clippy::large_enum_variant)]
pub enum LiveEvent {
    /// A game connected and sent its level.
    Connected {
        /// The level the game plays.
        level: Level,
    },
    /// A frame arrived (a frame with the index of the previous one replaces it: a game's
    /// [`super::Recorder::flush`] sends a frame before it ends).
    Frame(Frame),
    /// The game went away (or was refused after it had connected: see [`Listener::messages`]).
    Disconnected,
}

#[derive(Debug)]
struct Peer {
    stream: TcpStream,
    addr: SocketAddr,
    decoder: Decoder,
    announced: bool,
    last_index: Option<u64>,
}

/// The editor's end of the live link: accepts a game's connection and decodes its frames, never blocking.
#[derive(Debug)]
pub struct Listener {
    listener: TcpListener,
    peer: Option<Peer>,
    stats: LiveStats,
    messages: Vec<String>,
}

impl Listener {
    /// Listen on `addr` (use `127.0.0.1:`[`DEFAULT_PORT`], or port 0 for any free port; bind another address
    /// only to accept games from other machines).
    ///
    /// # Errors
    /// [`RecordError::Net`] when the address cannot be bound (in use, say).
    pub fn bind(addr: SocketAddr) -> Result<Listener, RecordError> {
        let listener = TcpListener::bind(addr)
            .map_err(|e| RecordError::Net(format!("cannot listen on {addr}: {e}")))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| RecordError::Net(format!("cannot listen on {addr}: {e}")))?;
        Ok(Listener {
            listener,
            peer: None,
            stats: LiveStats::default(),
            messages: Vec::new(),
        })
    }

    /// The address listened on (with the real port when bound to port 0).
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 0)))
    }

    /// Counters: connected now, frames received, frames missing from the index sequence, bytes.
    #[must_use]
    pub fn stats(&self) -> LiveStats {
        LiveStats {
            connected: self.peer.as_ref().is_some_and(|p| p.announced),
            ..self.stats
        }
    }

    /// Messages about refused peers and lost connections since the last call.
    pub fn messages(&mut self) -> Vec<String> {
        std::mem::take(&mut self.messages)
    }

    /// Accept a connecting game, read what has arrived and decode it. Never blocks. A new connection replaces
    /// the current one (a game that restarted).
    pub fn poll(&mut self) -> Vec<LiveEvent> {
        let mut events = Vec::new();
        loop {
            match self.listener.accept() {
                Ok((stream, addr)) => {
                    if stream.set_nonblocking(true).is_err() {
                        continue;
                    }
                    self.drop_peer(&mut events, None);
                    self.peer = Some(Peer {
                        stream,
                        addr,
                        decoder: Decoder::with_limits(LIVE_MAX_LEVEL, LIVE_MAX_FRAME),
                        announced: false,
                        last_index: None,
                    });
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(_) => break,
            }
        }
        let Some(peer) = &mut self.peer else {
            return events;
        };
        let mut buf = vec![0u8; 256 * 1024];
        let mut read = 0usize;
        let mut closed = false;
        while read < READ_BUDGET {
            match peer.stream.read(&mut buf) {
                Ok(0) => {
                    closed = true;
                    break;
                }
                Ok(n) => {
                    read += n;
                    peer.decoder.feed(&buf[..n]);
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => {
                    closed = true;
                    break;
                }
            }
        }
        self.stats.bytes += read as u64;
        let mut refused = None;
        loop {
            match peer.decoder.next_item() {
                Ok(Some(Item::Header(level))) => {
                    peer.announced = true;
                    events.push(LiveEvent::Connected { level: *level });
                }
                Ok(Some(Item::Frame(frame))) => {
                    if let Some(last) = peer.last_index
                        && frame.index > last + 1
                    {
                        self.stats.dropped += frame.index - last - 1;
                    }
                    peer.last_index =
                        Some(peer.last_index.map_or(frame.index, |l| l.max(frame.index)));
                    self.stats.frames += 1;
                    events.push(LiveEvent::Frame(*frame));
                }
                Ok(None) => break,
                Err(e) => {
                    refused = Some(e);
                    break;
                }
            }
        }
        if let Some(e) = refused {
            self.drop_peer(
                &mut events,
                Some(format!("refused the game at {{addr}}: {e}")),
            );
        } else if closed {
            self.drop_peer(&mut events, None);
        }
        events
    }

    fn drop_peer(&mut self, events: &mut Vec<LiveEvent>, why: Option<String>) {
        if let Some(p) = self.peer.take() {
            if let Some(why) = why {
                self.messages
                    .push(why.replace("{addr}", &p.addr.to_string()));
            } else if p.announced {
                self.messages
                    .push(format!("the game at {} disconnected", p.addr));
            }
            if p.announced {
                events.push(LiveEvent::Disconnected);
            }
            let _ = p.stream.shutdown(std::net::Shutdown::Both);
        }
    }
}
