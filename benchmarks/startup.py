"""Start-up: whole ``affray`` processes as a user starts them, medians of several runs.

Each command is run ``--runs`` times as a fresh process (``python -m affray ...``; ``PYTHONPATH`` picks the
copy of affray measured), the commands taken in turn in each round, and the median wall-clock time of each
is printed beside bare Python's. The goal of issue 23: ``affray run examples/duel.toml`` in 0.10 s.

affray's bytecode is compiled first, as an installed affray's is once it has run: where it is not (a fresh
checkout run with ``PYTHONDONTWRITEBYTECODE`` set, as some containers do), every process would compile
every module anew and take twice as long.

    python benchmarks/startup.py [--runs N] [--json]
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

from baseline import compile_bytecode

ROOT = Path(__file__).resolve().parents[1]
GOAL_S = 0.10
LIBRARIES = "import click, decimal, hashlib, msgspec, simpy, tomllib"
"""What ``affray run`` cannot start without: its command-line library, SimPy (which reads its own package
metadata as it is imported), msgspec and the standard modules every fight uses. Their import is the
floor under affray's own start-up."""


def commands(folder: Path) -> dict[str, list[str]]:
    """What is started: bare Python, the libraries alone, the help, importing the commands, and a run of
    the duel."""
    affray = [sys.executable, "-m", "affray"]
    duel = str(ROOT / "examples" / "duel.toml")
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "its libraries": [sys.executable, "-c", LIBRARIES],
        "affray --help": [*affray, "--help"],
        "import affray.cli": [sys.executable, "-c", "import affray.cli"],
        "affray run duel": [*affray, "run", duel, "-o", str(folder / "duel.jsonl"), "--force"],
    }


def timed(command: list[str]) -> float:
    """One whole process's wall-clock seconds."""
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def main() -> int:
    """Parse the options, start each command in turn ``--runs`` times, print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="affray-startup-") as folder:
        started = commands(Path(folder))
        seen: dict[str, list[float]] = {name: [] for name in started}
        for _ in range(args.runs):
            for name, command in started.items():
                seen[name].append(timed(command))
    medians = {name: statistics.median(times) for name, times in seen.items()}
    if args.json:
        print(json.dumps({"runs": args.runs, "goal_s": GOAL_S, "median_s": medians}))
        return 0
    print(f"startup: median of {args.runs} whole processes each, taken in turn")
    for name, seconds in medians.items():
        goal = f"  (goal <= {GOAL_S} s: {'met' if seconds <= GOAL_S else 'not met'})" if "run" in name else ""
        print(f"  {name:<18} {seconds:6.3f} s{goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
