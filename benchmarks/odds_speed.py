"""``affray odds`` as a user runs it: the full report of the duel and of the skirmish on two workers, each
chance within 3 points either way at 95 % (the defaults), as whole processes, medians of several runs.

Each example is run once (``affray run``) to make its log; then ``affray odds LOG --jobs 2 --json`` is
started ``--runs`` times, the examples taken in turn in each round, affray's bytecode compiled first. The
script prints each median, the samples fought and the widest interval of the report (the goals of issue
25: the duel in 10 s, the skirmish in 30 s, no interval wider than 3 points either way).

    python benchmarks/odds_speed.py [--runs N] [--jobs J] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from baseline import compile_bytecode

ROOT = Path(__file__).resolve().parents[1]
GOALS_S = {"duel": 10.0, "skirmish": 30.0}
WITHIN = 0.03


def widest(report: dict[str, Any]) -> float:
    """The widest interval of the report, either way, over every sampled point and outcome."""
    points = [report["opening"], *(made["after"] for made in report["rolls"])]
    return max(
        max(c["chance"] - c["low"], c["high"] - c["chance"])
        for p in points
        if p["samples"]
        for c in [*p["sides"].values(), p["no_winner"]]
    )


def samples(report: dict[str, Any]) -> int:
    """How many fights the report took."""
    return int(report["opening"]["samples"]) + sum(made["after"]["samples"] for made in report["rolls"])


def timed(command: list[str]) -> tuple[float, dict[str, Any]]:
    """One whole process's wall-clock seconds, and the report it printed."""
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=True)
    return time.perf_counter() - started, json.loads(done.stdout)


def main() -> int:
    """Make the logs, time the reports in turn, print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each report (default 5)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    affray = [sys.executable, "-m", "affray"]
    figures: dict[str, dict[str, Any]] = {}
    compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="affray-odds-") as folder:
        logs = {}
        for name in GOALS_S:
            logs[name] = Path(folder) / f"{name}.jsonl"
            subprocess.run(
                [*affray, "run", str(ROOT / "examples" / f"{name}.toml"), "-o", str(logs[name])],
                check=True,
                capture_output=True,
            )
        seen: dict[str, list[float]] = {name: [] for name in GOALS_S}
        reports: dict[str, dict[str, Any]] = {}
        for _ in range(args.runs):
            for name, log in logs.items():
                seconds, reports[name] = timed(
                    [*affray, "odds", str(log), "--jobs", str(args.jobs), "--json"]
                )
                seen[name].append(seconds)
    for name, times in seen.items():
        median = statistics.median(times)
        figures[name] = {
            "median_s": median,
            "runs": times,
            "rolls": len(reports[name]["rolls"]),
            "samples": samples(reports[name]),
            "widest_points": 100 * widest(reports[name]),
            "goal_s": GOALS_S[name],
            "met": median <= GOALS_S[name] and widest(reports[name]) <= WITHIN + 1e-9,
        }
    if args.json:
        print(json.dumps({"benchmark": "odds_speed", "jobs": args.jobs, "figures": figures}))
        return 0
    print(
        f"affray odds LOG --jobs {args.jobs}, whole processes, median of {args.runs} "
        f"(Python {sys.version.split()[0]})"
    )
    for name, f in figures.items():
        print(
            f"  {name:<9} {f['median_s']:6.2f} s  {f['rolls']:>4} rolls, {f['samples']:>7,} samples, "
            f"widest interval +-{f['widest_points']:.2f} points; goal {f['goal_s']:g} s: "
            + ("met" if f["met"] else "not met")
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
