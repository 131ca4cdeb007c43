//! Atomic writes of level (and recording) files, and the clean-up of temporary files that killed saves left.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::LevelError;

/// Write `bytes` to `path` atomically (temporary file in the same folder, fsync, rename, fsync the folder).
///
/// # Errors
/// [`LevelError::Io`] naming the step that failed; `path` is untouched then.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> Result<(), LevelError> {
    remove_stale_temp_files(path);
    let io = |action, source| LevelError::Io {
        path: path.to_path_buf(),
        action,
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "level.ron".into());
    // A name no other save (another thread or process) is using: pid, a counter and the clock, created
    // exclusively.
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut attempt = 0;
    let (tmp, mut f) = loop {
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let tmp = dir.join(format!(
            ".{file_name}.tmp-{}-{n}-{nanos}",
            std::process::id()
        ));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 16 => attempt += 1,
            Err(e) => return Err(io("cannot create a temporary file", e)),
        }
    };
    let result = (|| {
        f.write_all(bytes).map_err(|e| io("cannot write", e))?;
        f.sync_all().map_err(|e| io("cannot flush to disk", e))?;
        drop(f);
        std::fs::rename(&tmp, path).map_err(|e| io("cannot replace the file", e))?;
        // Make the rename itself durable; not every platform can open a folder, so this is best effort.
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Remove the temporary files that saves of `path` left behind when they were killed mid-write
/// (`.NAME.tmp-PID-…` in the same folder, up to the whole level's size each). A temporary file is stale when
/// the process that wrote it no longer runs (Linux: no `/proc/PID`) or, wherever that cannot be told, when it
/// was last written over an hour ago; a save in progress in a running process is never touched. Called by
/// every save ([`atomic_write`]) and load ([`super::Level::load`]); returns how many files were removed.
pub fn remove_stale_temp_files(path: &Path) -> usize {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return 0;
    };
    let prefix = format!(".{name}.tmp-");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return 0;
    };
    let own = std::process::id();
    let proc_known = Path::new("/proc/self").exists();
    let mut removed = 0;
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&prefix) else {
            continue;
        };
        let pid: Option<u32> = rest.split('-').next().and_then(|p| p.parse().ok());
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > std::time::Duration::from_secs(3600));
        let dead = match pid {
            Some(p) if p == own => false,
            Some(p) if proc_known => !Path::new("/proc").join(p.to_string()).exists(),
            _ => false,
        };
        if (dead || old)
            && entry.file_type().is_ok_and(|t| t.is_file())
            && std::fs::remove_file(entry.path()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}
