//! The `collidoscope` binary: the level editor (no subcommand) and the headless command-line tools.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
