//! The commands' standard output and error, without `println!`'s panic on a closed pipe.
//!
//! `println!` panics when its write fails, and a reader that stops early (`collidoscope check levels/*.ron |
//! head -1`, `collidoscope info run.rec | head -1`) closes the pipe under it. Here every piece of output
//! goes through a locked stdout with `write!` (the `out!` and `outln!` macros):
//! - a closed pipe (`BrokenPipe`) quietly ends the output: later output is dropped, and the command still
//!   finishes its work (every file of `fmt` is formatted, `check` still judges every file) and exits with
//!   its own status, as it would have with a reader that read everything;
//! - any other failure (a full disk, say) ends the output as well, and [`finish`] reports it once on stderr
//!   and turns the exit status into 2.
//!
//! Writes to stderr (`errln!`) ignore failures: there is nowhere left to report them.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// What became of standard output.
enum State {
    /// Writing.
    Open,
    /// The reader went away: output ends quietly.
    Closed,
    /// Writing failed otherwise: output ends, and [`finish`] reports the error.
    Failed(io::Error),
}

static STDOUT: Mutex<State> = Mutex::new(State::Open);

fn state() -> MutexGuard<'static, State> {
    STDOUT.lock().unwrap_or_else(PoisonError::into_inner)
}

fn failure(e: io::Error) -> State {
    if e.kind() == io::ErrorKind::BrokenPipe {
        State::Closed
    } else {
        State::Failed(e)
    }
}

/// Writes `args` to stdout, unless output has already ended (see the module docs).
pub(crate) fn write_stdout(args: fmt::Arguments<'_>) {
    let mut state = state();
    if let State::Open = *state
        && let Err(e) = io::stdout().lock().write_fmt(args)
    {
        *state = failure(e);
    }
}

/// Writes `args` to stderr; a failure is ignored.
pub(crate) fn write_stderr(args: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(args);
}

/// The command's exit status once stdout is flushed: `code`, or 2 (with a message on stderr) when the
/// output failed other than by its reader going away.
pub(crate) fn finish(code: ExitCode) -> ExitCode {
    let mut state = state();
    if let State::Open = *state
        && let Err(e) = io::stdout().lock().flush()
    {
        *state = failure(e);
    }
    match &*state {
        State::Failed(e) => {
            write_stderr(format_args!("collidoscope: cannot write the output: {e}\n"));
            ExitCode::from(2)
        }
        State::Open | State::Closed => code,
    }
}
