//! Autosave: a recovery copy of a changed level every 30 s, offered back at the next start. The session
//! owns it: the recovery files live beside its options, and what it says goes back as the status line.

use std::path::{Path, PathBuf};

use super::{Dialog, Session};
use crate::editor::document::Document;
use crate::level::{Level, atomic_write};

impl Session {
    /// The recovery copy and the file naming the original path, when autosave is on.
    pub(crate) fn recovery_files(&self) -> Option<(PathBuf, PathBuf)> {
        let dir = self.opts.recovery_dir.as_ref()?;
        Some((dir.join("recovery.ron"), dir.join("recovery.path")))
    }

    /// Offer the recovery copy back (the Recover dialog). Returns the status line when it is damaged.
    pub(crate) fn offer_recovery(&mut self) -> Option<String> {
        let (level_file, path_file) = self.recovery_files()?;
        let text = std::fs::read_to_string(&level_file).ok()?;
        let age = std::fs::metadata(&level_file)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .map_or_else(String::new, |d| format!("{} min ago", d.as_secs() / 60));
        match Level::from_ron_str(&text) {
            Ok(level) => {
                let original = std::fs::read_to_string(&path_file)
                    .ok()
                    .filter(|s| !s.is_empty())
                    .map(PathBuf::from);
                self.dialog = Some(Dialog::Recover {
                    level: Box::new(level),
                    original,
                    age,
                });
                None
            }
            Err(e) => Some(format!(
                "the recovery file {} is damaged: {e}",
                level_file.display()
            )),
        }
    }

    /// Remove the recovery copy (the work was saved or discarded).
    pub(crate) fn clear_recovery(&mut self) {
        if let Some((a, b)) = self.recovery_files() {
            let _ = std::fs::remove_file(a);
            let _ = std::fs::remove_file(b);
        }
        self.autosaved = None;
    }

    /// Write the recovery file now when `doc` has unsaved changes not yet autosaved. Returns the status
    /// line when it fails.
    pub(crate) fn autosave(&mut self, doc: &Document) -> Option<String> {
        if !doc.is_dirty() || self.autosaved == Some(doc.key()) {
            return None;
        }
        let (level_file, path_file) = self.recovery_files()?;
        let result = std::fs::create_dir_all(level_file.parent().unwrap_or(Path::new(".")))
            .map_err(|e| e.to_string())
            .and_then(|()| {
                atomic_write(&level_file, doc.level().to_ron_string().as_bytes())
                    .map_err(|e| e.to_string())
            })
            .and_then(|()| {
                let original = doc
                    .path
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default();
                atomic_write(&path_file, original.as_bytes()).map_err(|e| e.to_string())
            });
        match result {
            Ok(()) => {
                self.autosaved = Some(doc.key());
                None
            }
            Err(e) => Some(format!("autosave failed: {e}")),
        }
    }
}
