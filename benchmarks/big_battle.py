"""Big battles as a user meets them: whole ``affray`` processes on the two-lines fight, timed and weighed.

Writes the fixture of ``lines.py`` (``--per-side`` fighters a side) into a new temporary folder, then runs
each command ``--runs`` times as a fresh process (``python -m affray ...``, so ``PYTHONPATH`` picks the copy
of affray measured) and prints, per command, the median wall-clock time, the largest peak resident memory
of its runs (``wait4``'s ``ru_maxrss``) and the size of what it wrote, affray's bytecode compiled first
(``baseline.compile_bytecode``). Absolute figures of a shared machine: medians of several runs, never a
test's assertion.

    python benchmarks/big_battle.py [--per-side N] [--ruleset R] [--damage-points D] [--runs R]
        [--only run,view,...] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from baseline import compile_bytecode
from lines import SCENARIOS, add_damage_points, check_damage_points, write_lines

GOALS = {"view": 1.0, "timeline": 5.0}
"""Seconds per command for the 60-combatant fight (also: view's peak <= 150 MB and page <= 5 MB)."""


@dataclass
class Figure:
    """One command's figures: median seconds, largest peak memory (MB), output size (MB)."""

    command: str
    seconds: float
    peak_mb: float
    output_mb: float | None


def once(args: Sequence[str], cwd: Path, env: Mapping[str, str] | None = None) -> tuple[float, float]:
    """One whole `affray` process (in `cwd`, with `env`): wall seconds and peak resident MB."""
    start = time.perf_counter()
    command = [sys.executable, "-m", "affray", *args]
    child = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"error: affray {' '.join(args)} exited with {child.returncode}")
    return seconds, usage.ru_maxrss / 1024


def measure(command: str, args: Sequence[str], output: str | None, runs: int, cwd: Path) -> Figure:
    """``runs`` runs of ``args``; ``output`` (a file the command writes, with ``--force``) weighed."""
    timings = [once(args, cwd) for _ in range(runs)]
    size = (cwd / output).stat().st_size / 1e6 if output else None
    return Figure(command, statistics.median(t for t, _ in timings), max(m for _, m in timings), size)


def _last_second(log: Path) -> float:
    with log.open("rb") as file:
        file.seek(max(0, log.stat().st_size - 4096))
        last_event = file.read().splitlines()[-2]  # the last line is the log's end
    return float(json.loads(last_event)["t"]) / 1000


def commands(log: str, end: float) -> dict[str, tuple[list[str], str | None]]:
    """What is measured: each command's arguments and the file it writes."""
    return {
        "run": (["run", "lines.toml", "-o", log, "--force"], log),
        "verify": (["verify", log], None),
        "view": (["view", log, "-o", "page.html", "--force"], "page.html"),
        "timeline": (["timeline", log, "-o", "timeline.png", "--force"], "timeline.png"),
        "state-mid": (["state", log, "--at", f"{end / 2:.3f}"], None),
        "state-end": (["state", log, "--at", f"{end:.3f}"], None),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, write the fight, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-side", type=int, default=30, help="fighters on each side (default 30)")
    parser.add_argument(
        "--ruleset", choices=SCENARIOS, default="energion", help="whose lines (default energion)"
    )
    add_damage_points(parser)
    parser.add_argument("--runs", type=int, default=5, help="runs of each command; the median counts")
    parser.add_argument("--only", default="", help="commands to measure, comma-separated (default all)")
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of the table")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.per_side < 1:
        parser.error("--runs and --per-side must be at least 1")
    check_damage_points(parser, args)
    known = commands("", 0.0)
    unknown = [name for name in args.only.split(",") if name and name not in known]
    if unknown:
        parser.error(f"--only: no command {unknown[0]!r} here (known: {', '.join(known)})")
    compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="affray-big-") as folder:
        cwd = Path(folder)
        write_lines(cwd / "lines.toml", args.per_side, ruleset=args.ruleset, damage_points=args.damage_points)
        subprocess.run(
            [sys.executable, "-m", "affray", "run", "lines.toml", "-o", "lines.jsonl"],
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            check=True,
        )
        events = sum(1 for _ in (cwd / "lines.jsonl").open("rb")) - 2  # the header and the end
        chosen = commands("lines.jsonl", _last_second(cwd / "lines.jsonl"))
        wanted = [name for name in args.only.split(",") if name] or list(chosen)
        figures = [measure(name, *chosen[name], args.runs, cwd) for name in wanted]
    if args.json:
        print(
            json.dumps(
                {
                    "ruleset": args.ruleset,
                    "per_side": args.per_side,
                    "events": events,
                    "runs": args.runs,
                    "figures": [asdict(f) for f in figures],
                }
            )
        )
        return 0
    print(
        f"big_battle: {args.ruleset}, {args.per_side} a side, {events:,} events; "
        f"median of {args.runs} whole processes"
    )
    for f in figures:
        written = f"{f.output_mb:8.2f} MB written" if f.output_mb is not None else ""
        goal = GOALS.get(f.command)
        aim = f"  (goal <= {goal} s)" if goal and (args.ruleset, args.per_side) == ("energion", 30) else ""
        print(f"  {f.command:<10} {f.seconds:8.3f} s  peak {f.peak_mb:7.1f} MB  {written}{aim}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
