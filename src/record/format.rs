//! The recording file format, read incrementally (the same bytes arrive from a file or over the live link).
//!
//! ```text
//! header   magic "COLLREC\0" (8 bytes) | version u32 | level length u32 | crc32 of the 16 bytes before it
//!          | crc32 of the level | the level as RON text (UTF-8)
//! frame*   payload length u32 | crc32 of those 4 bytes | crc32 of the payload | payload (postcard of Frame)
//! ```
//! Integers are little-endian. The length of every frame is protected by its own checksum, so a damaged length
//! is told apart from a file that was cut off: a file that ends inside a frame loads up to the frame before
//! (`truncated`), while a damaged length, checksum or payload is an error naming the frame and its offset.
//! Lengths are checked against [`MAX_LEVEL_BYTES`] and [`MAX_FRAME_BYTES`] before anything is allocated.

use super::{Frame, RecordError};
use crate::level::Level;

/// The first 8 bytes of every recording.
pub const MAGIC: [u8; 8] = *b"COLLREC\0";
/// The format version written; the only one read.
pub const FORMAT_VERSION: u32 = 1;
/// The largest embedded level accepted (the level format's own file limit).
pub const MAX_LEVEL_BYTES: u32 = 512 * 1024 * 1024;
/// The largest frame payload written or accepted.
pub const MAX_FRAME_BYTES: u32 = 256 * 1024 * 1024;
/// Bytes before the level text.
pub const HEADER_BYTES: usize = 8 + 4 + 4 + 4 + 4;
/// Bytes before each frame's payload.
pub const FRAME_HEADER_BYTES: usize = 12;

fn crc(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

/// The header for a recording of `level_ron`.
#[must_use]
pub fn encode_header(level_ron: &str) -> Vec<u8> {
    let text = level_ron.as_bytes();
    let mut out = Vec::with_capacity(HEADER_BYTES + text.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    let head_crc = crc(&out);
    out.extend_from_slice(&head_crc.to_le_bytes());
    out.extend_from_slice(&crc(text).to_le_bytes());
    out.extend_from_slice(text);
    out
}

/// A frame record (length, checksums, payload) around an encoded payload.
#[must_use]
pub fn frame_record(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(FRAME_HEADER_BYTES + payload.len());
    let len = (payload.len() as u32).to_le_bytes();
    out.extend_from_slice(&len);
    out.extend_from_slice(&crc(&len).to_le_bytes());
    out.extend_from_slice(&crc(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// What the decoder found next.
#[derive(Debug)]
pub enum Item {
    /// The header and its level.
    Header(Box<Level>),
    /// One whole frame.
    Frame(Box<Frame>),
}

/// An incremental reader of the format: feed it bytes as they come, take items as they complete.
#[derive(Debug)]
pub struct Decoder {
    buf: Vec<u8>,
    /// Read position in `buf`.
    pos: usize,
    /// Offset of `buf[0]` in the whole stream.
    base: u64,
    header_done: bool,
    /// Frames decoded so far (the ordinal named in errors).
    frames: u64,
    /// Limits (the format's own unless lowered, as the live link does).
    max_level: u32,
    max_frame: u32,
}

impl Decoder {
    /// A decoder at the start of a stream.
    #[must_use]
    pub fn new() -> Self {
        Self::with_limits(MAX_LEVEL_BYTES, MAX_FRAME_BYTES)
    }

    /// A decoder that refuses levels and frames longer than these (at most the format's own limits).
    #[must_use]
    pub fn with_limits(max_level: u32, max_frame: u32) -> Self {
        Self {
            buf: Vec::new(),
            pos: 0,
            base: 0,
            header_done: false,
            frames: 0,
            max_level: max_level.min(MAX_LEVEL_BYTES),
            max_frame: max_frame.min(MAX_FRAME_BYTES),
        }
    }

    /// Append bytes that arrived.
    pub fn feed(&mut self, bytes: &[u8]) {
        if self.pos > 0 && self.pos >= self.buf.len() / 2 {
            self.buf.drain(..self.pos);
            self.base += self.pos as u64;
            self.pos = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Bytes received but not yet part of a whole item.
    #[must_use]
    pub fn pending(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// Whether the header has been read.
    #[must_use]
    pub fn header_done(&self) -> bool {
        self.header_done
    }

    /// Whole frames decoded so far.
    #[must_use]
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The next whole item, `Ok(None)` when more bytes are needed. Each length is checked against its limit
    /// before the bytes it announces are waited for, so a bad peer cannot make the caller buffer more than the
    /// format allows.
    ///
    /// # Errors
    /// [`RecordError::NotARecording`] (bad magic), [`RecordError::UnsupportedVersion`],
    /// [`RecordError::Header`] (damaged header or level over the limit), [`RecordError::Level`] (the embedded
    /// level does not parse), [`RecordError::Frame`] (a damaged frame, named with its ordinal and offset).
    pub fn next_item(&mut self) -> Result<Option<Item>, RecordError> {
        let avail = &self.buf[self.pos..];
        let at = self.base + self.pos as u64;
        if !self.header_done {
            let magic_len = avail.len().min(MAGIC.len());
            if avail[..magic_len] != MAGIC[..magic_len] {
                return Err(RecordError::NotARecording);
            }
            if avail.len() < HEADER_BYTES {
                return Ok(None);
            }
            let version = u32_at(avail, 8);
            let level_len = u32_at(avail, 12);
            if crc(&avail[..16]) != u32_at(avail, 16) {
                return Err(RecordError::Header {
                    message: "its checksum does not match (the version or level length is damaged)"
                        .into(),
                });
            }
            if version != FORMAT_VERSION {
                return Err(RecordError::UnsupportedVersion {
                    found: version,
                    supported: FORMAT_VERSION,
                });
            }
            if level_len > self.max_level {
                return Err(RecordError::Header {
                    message: format!(
                        "the embedded level is {level_len} bytes, over the {}-byte limit",
                        self.max_level
                    ),
                });
            }
            let end = HEADER_BYTES + level_len as usize;
            if avail.len() < end {
                return Ok(None);
            }
            let text = &avail[HEADER_BYTES..end];
            if crc(text) != u32_at(avail, 20) {
                return Err(RecordError::Header {
                    message: "the embedded level's checksum does not match".into(),
                });
            }
            let text = std::str::from_utf8(text).map_err(|e| RecordError::Header {
                message: format!("the embedded level is not UTF-8 ({e})"),
            })?;
            let level = Level::from_ron_str(text).map_err(|e| RecordError::Level(Box::new(e)))?;
            self.pos += end;
            self.header_done = true;
            return Ok(Some(Item::Header(Box::new(level))));
        }
        if avail.len() < FRAME_HEADER_BYTES {
            return Ok(None);
        }
        let frame = self.frames;
        let damaged = |message: String| RecordError::Frame {
            frame,
            offset: at,
            message,
        };
        let len = u32_at(avail, 0);
        if crc(&avail[..4]) != u32_at(avail, 4) {
            return Err(damaged("its length is damaged (checksum mismatch)".into()));
        }
        if len > self.max_frame {
            return Err(damaged(format!(
                "its length {len} is over the {}-byte limit",
                self.max_frame
            )));
        }
        let end = FRAME_HEADER_BYTES + len as usize;
        if avail.len() < end {
            return Ok(None);
        }
        let payload = &avail[FRAME_HEADER_BYTES..end];
        if crc(payload) != u32_at(avail, 8) {
            return Err(damaged(
                "its contents are damaged (checksum mismatch)".into(),
            ));
        }
        let decoded = Frame::decode(payload)
            .map_err(|e| damaged(format!("its contents do not decode ({e})")))?;
        self.pos += end;
        self.frames += 1;
        Ok(Some(Item::Frame(Box::new(decoded))))
    }
}
