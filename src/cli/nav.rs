//! `nav` (a path between two points of a level for its character, with the link of each step: walk, drop,
//! jump or ride), through the runtime's navigation map ([`collidoscope::nav`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use collidoscope::glam::Vec3;
use collidoscope::level::{Level, LevelError};
use collidoscope::nav::{NavLink, NavMap, NavPath, NavSettings};
use collidoscope::scene::Scene;

use super::reach::{num, v3};
use super::{Format, print_json};

#[derive(Debug, Args)]
pub(super) struct NavArgs {
    /// Level file.
    file: PathBuf,
    /// Where the path starts: the feet, `X,Y,Z` in metres.
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true, value_name = "X,Y,Z")]
    from: Vec3,
    /// Where it goes: the feet, `X,Y,Z` in metres.
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true, value_name = "X,Y,Z")]
    to: Vec3,
    /// The agent: 0 is the level's character (the only agent a level names today).
    #[arg(long, default_value_t = 0)]
    agent: usize,
    /// The map's grid cell, metres.
    #[arg(long, default_value_t = 0.25)]
    cell: f32,
    /// Leave jump links out (only walks and drops).
    #[arg(long)]
    no_jump: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

/// `X,Y,Z` as three finite numbers.
fn parse_point(s: &str) -> Result<Vec3, String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.len() != 3 {
        return Err(format!("expected X,Y,Z (three numbers), got {s:?}"));
    }
    let mut v = [0.0f32; 3];
    for (slot, p) in v.iter_mut().zip(&parts) {
        let x: f32 = p.parse().map_err(|_| format!("{p:?} is not a number"))?;
        if !x.is_finite() {
            return Err(format!("{p:?} is not a finite number"));
        }
        *slot = x;
    }
    Ok(Vec3::from_array(v))
}

/// Run `nav`: exit 0 with a path, 1 when there is none, 2 on errors.
pub(super) fn nav(args: &NavArgs) -> ExitCode {
    let file = &args.file;
    let level = match Level::load(file) {
        Ok(l) => l,
        Err(e) => {
            errln!("{e}");
            return ExitCode::from(2);
        }
    };
    let scene = match Scene::from_level(&level) {
        Ok(s) => s,
        Err(LevelError::Invalid { problems }) => {
            errln!(
                "{}: the level has {} error(s), so its paths would not be the game's: fix them first (see \
                 `collidoscope check`)",
                file.display(),
                problems.len()
            );
            return ExitCode::from(2);
        }
        Err(e) => {
            errln!("{}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    let settings = NavSettings {
        agents: vec![level.character.unwrap_or_default()],
        cell: args.cell,
        jump: !args.no_jump,
        gravity: level.simulation.gravity,
        ..NavSettings::default()
    };
    if args.agent >= settings.agents.len() {
        errln!(
            "--agent {}: the level has {} agent(s) (0 is its character)",
            args.agent,
            settings.agents.len()
        );
        return ExitCode::from(2);
    }
    let map = NavMap::build(&scene, &settings);
    if let Some(why) = map.error() {
        errln!("{}: cannot build the navigation map: {why}", file.display());
        return ExitCode::from(2);
    }
    let path = map.path(args.agent, args.from, args.to);
    match args.format {
        Format::Json => print_json(&json(file, args, path.as_ref())),
        Format::Human => print_human(file, args, path.as_ref()),
    }
    ExitCode::from(if path.is_some() { 0 } else { 1 })
}

/// A link in words, for text output.
fn link_words(l: &NavLink) -> String {
    match l {
        NavLink::Walk => "walk".into(),
        NavLink::Drop { height } => format!("drop {height:.2} m"),
        NavLink::Jump { height, length } => format!("jump {length:.2} m across, {height:+.2} m up"),
        NavLink::Ride { mover } => format!("ride #{}", mover.0),
    }
}

fn print_human(file: &Path, args: &NavArgs, path: Option<&NavPath>) {
    let Some(p) = path else {
        outln!(
            "{}: no path for agent {} from {} to {} (unreachable, in the air or inside something)",
            file.display(),
            args.agent,
            point(args.from),
            point(args.to)
        );
        return;
    };
    outln!(
        "{}: a path of {} point(s), {:.2} m, for agent {}",
        file.display(),
        p.points.len(),
        p.length(),
        args.agent
    );
    for (i, at) in p.points.iter().enumerate() {
        match p.links.get(i) {
            Some(l) => outln!("  {}  then {}", point(*at), link_words(l)),
            None => outln!("  {}", point(*at)),
        }
    }
}

fn point(v: Vec3) -> String {
    format!("({:.2}, {:.2}, {:.2})", v.x, v.y, v.z)
}

fn json(file: &Path, args: &NavArgs, path: Option<&NavPath>) -> serde_json::Value {
    use serde_json::json;
    let links = |p: &NavPath| -> Vec<serde_json::Value> {
        p.links
            .iter()
            .map(|l| match l {
                NavLink::Walk => json!({ "kind": "walk" }),
                NavLink::Drop { height } => json!({ "kind": "drop", "height": num(*height) }),
                NavLink::Jump { height, length } => {
                    json!({ "kind": "jump", "height": num(*height), "length": num(*length) })
                }
                NavLink::Ride { mover } => json!({ "kind": "ride", "mover": mover.0 }),
            })
            .collect()
    };
    json!({
        "file": file.display().to_string(),
        "agent": args.agent,
        "from": v3(args.from),
        "to": v3(args.to),
        "found": path.is_some(),
        "length": path.map(|p| num(p.length())),
        "points": path.map(|p| p.points.iter().map(|&v| v3(v)).collect::<Vec<_>>()),
        "links": path.map(links),
    })
}
