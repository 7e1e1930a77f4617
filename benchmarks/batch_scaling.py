"""Batch scaling: skirmishes fought per second by ``affray battle``'s runner on 2 worker processes, against
1, run side by side in this process (the goal: 2 workers at least 1.8 times one).

Both sides fight the same runs of examples/skirmish.toml (seeds derived from the scenario's, no log
kept), through ``affray.batch.runner.run_batch``, best of ``--repeat`` timed in turn. A process pool's
start-up is inside the 2-worker figure, as it is in a real batch.

    python benchmarks/batch_scaling.py [--runs N] [--repeat R] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from affray import __version__
from affray.batch.runner import BatchSpec, run_batch

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = BatchSpec(ROOT / "examples" / "skirmish.toml")
GOAL = 1.8


def timed(runs: int, jobs: int) -> float:
    """Seconds to fight ``runs`` skirmishes on ``jobs`` processes."""
    started = time.perf_counter()
    for _ in run_batch(SKIRMISH, runs, 7, jobs=jobs):
        pass
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    timed(64, 1)  # load the scenario and warm the caches of this process
    one, two = [], []
    for _ in range(args.repeat):
        one.append(timed(args.runs, 1))
        two.append(timed(args.runs, 2))
    per_s_one, per_s_two = args.runs / min(one), args.runs / min(two)
    figures = {
        "runs": args.runs,
        "one_worker_per_s": per_s_one,
        "two_workers_per_s": per_s_two,
        "ratio": per_s_two / per_s_one,
        "goal": GOAL,
        "affray": __version__,
        "python": sys.version.split()[0],
    }
    if args.json:
        print(json.dumps(figures))
        return
    met = "met" if figures["ratio"] >= GOAL else "not met"
    print(f"skirmishes: 1 worker {per_s_one:,.0f}/s, 2 workers {per_s_two:,.0f}/s")
    print(f"ratio 2 workers / 1: {figures['ratio']:.2f} (goal {GOAL}: {met})")


if __name__ == "__main__":
    main()
