"""Battles fought per second by one batch worker, this copy of affray against an older commit.

Each copy fights the same runs of each example (seeds derived from the scenario's, no log kept) through
``affray.batch.runner.fight`` in a fresh process, after a warm-up, the copies taken in turn ``--repeat``
times; the medians are compared. The goal of issue 23: at least 5 times the battles per second of
commit 77b77bf, the figures it quoted (skirmish ~360/s, duel ~2,700/s).

    python benchmarks/batch_rate.py [--baseline REV] [--runs N] [--repeat R] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys

from baseline import ISSUE_BASELINE, ROOT, checkout, in_turn

GOAL = 5.0
SCENARIOS = ("duel", "skirmish")
_MEASURE = """
import json, sys, time
from pathlib import Path
from affray.batch.runner import BatchSpec, fight
spec, runs = BatchSpec(Path(sys.argv[1])), int(sys.argv[2])
fight(spec, 7, range(max(runs // 10, 8)))
started = time.perf_counter()
fight(spec, 7, range(runs))
import affray
print(json.dumps({"from": affray.__file__, "per_s": runs / (time.perf_counter() - started)}))
"""


def main() -> int:
    """Parse the options, measure both copies in turn, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--baseline", default=ISSUE_BASELINE, help=f"the older commit (default {ISSUE_BASELINE})"
    )
    parser.add_argument("--runs", type=int, default=400, help="battles per measurement (default 400)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the median counts (default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = {}
    with checkout(args.baseline) as old:
        copies = {"now": ROOT, "baseline": old}
        for name in SCENARIOS:
            scenario = str(ROOT / "examples" / f"{name}.toml")
            rates = in_turn(_MEASURE, [scenario, str(args.runs)], copies, args.repeat, "per_s")
            figures[name] = {**rates, "ratio": rates["now"] / rates["baseline"]}
    if args.json:
        print(json.dumps({"baseline": args.baseline, "goal": GOAL, "figures": figures}))
        return 0
    print(f"batch_rate: battles/s on one worker, median of {args.repeat}, against {args.baseline}")
    for name, f in figures.items():
        met = "met" if f["ratio"] >= GOAL else "not met"
        print(
            f"  {name:<9} now {f['now']:8,.0f}/s  baseline {f['baseline']:8,.0f}/s  "
            f"x{f['ratio']:.2f} (goal x{GOAL}: {met})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
