#!/usr/bin/env python3
"""Print the collidoscope / parry3d comparison from the last `cargo bench --bench queries` run.

Reads target/criterion/<group>/{collidoscope,parry3d}/new/estimates.json (criterion's mean point estimate,
in nanoseconds per iteration; one iteration runs the whole batch of cases) and prints a markdown table.
The ratio is parry3d / collidoscope: above 1 means collidoscope is faster.

Usage: python3 benches/ratios.py [--per-case N] [CRITERION_DIR]
  CRITERION_DIR defaults to target/criterion next to this script's crate (or $CARGO_TARGET_DIR/criterion).
  --per-case N divides the times by N (the batch size, 1024 in benches/queries.rs) to show ns per query.
Exits 1 with a message naming what is missing when an estimate cannot be read.
"""

import json
import os
import sys

GROUPS = [
    "moller_trumbore",
    "ray_aabb",
    "ray_obb",
    "ray_sphere",
    "obb_obb",
    "sweep_sphere_sphere",
    "sweep_sphere_triangle",
    "sweep_capsule_triangle",
    "sweep_capsule_triangle_floor",
    "sweep_capsule_aabb",
    "sweep_capsule_aabb_floor",
    "sweep_capsule_capsule",
    "overlap_capsule_triangle",
    "overlap_capsule_aabb",
    "sweep_capsule_cylinder",
    "sweep_capsule_wall",
    "mesh_sweep_capsule_near",
    "mesh_sweep_capsule",
]
SIDES = ["collidoscope", "parry3d"]


def default_criterion_dir():
    target = os.environ.get("CARGO_TARGET_DIR")
    if not target:
        crate = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        target = os.path.join(crate, "target")
    return os.path.join(target, "criterion")


def mean_ns(path):
    """The mean point estimate in ns, or an error string."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        value = float(data["mean"]["point_estimate"])
    except FileNotFoundError:
        return None, "missing"
    except (OSError, ValueError, KeyError, TypeError) as e:
        return None, f"unreadable ({e.__class__.__name__}: {e})"
    if not value > 0.0:
        return None, f"not a positive time ({value})"
    return value, None


def main(argv):
    per_case = 1
    args = list(argv)
    if "--per-case" in args:
        i = args.index("--per-case")
        try:
            per_case = int(args[i + 1])
            if per_case <= 0:
                raise ValueError
        except (IndexError, ValueError):
            print("error: --per-case needs a positive integer", file=sys.stderr)
            return 1
        del args[i : i + 2]
    if any(a in ("-h", "--help") for a in args):
        print(__doc__.strip())
        return 0
    if len(args) > 1:
        print("error: at most one CRITERION_DIR argument", file=sys.stderr)
        return 1
    root = args[0] if args else default_criterion_dir()

    rows, problems = [], []
    for group in GROUPS:
        times = {}
        for side in SIDES:
            path = os.path.join(root, group, side, "new", "estimates.json")
            value, err = mean_ns(path)
            if err:
                problems.append(f"  {path}: {err}")
            else:
                times[side] = value / per_case
        if len(times) == len(SIDES):
            rows.append((group, times["collidoscope"], times["parry3d"]))

    if problems:
        print(
            "error: criterion estimates are missing or unreadable; run "
            "`cargo bench --bench queries` first:\n" + "\n".join(problems),
            file=sys.stderr,
        )
        return 1

    unit = "ns/query" if per_case > 1 else "ns/batch"
    print(f"| group | collidoscope ({unit}) | parry3d ({unit}) | parry3d / collidoscope |")
    print("|---|---:|---:|---:|")
    for group, ours, theirs in rows:
        print(f"| {group} | {ours:.1f} | {theirs:.1f} | {theirs / ours:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
