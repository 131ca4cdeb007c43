//! The `collidoscope` binary: the level editor (no subcommand) and the headless command-line tools.

use clap::Parser;

/// Collidoscope: collision-detection runtime, level editor and collision debugger.
#[derive(Debug, Parser)]
#[command(version, about, long_about = None)]
struct Cli {}

fn main() {
    let _cli = Cli::parse();
    eprintln!(
        "collidoscope {}: the editor and the level commands are not built yet; \
         the runtime library is available to games now. See --help.",
        env!("CARGO_PKG_VERSION")
    );
    std::process::exit(2);
}
