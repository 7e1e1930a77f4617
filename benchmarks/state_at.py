"""``affray state LOG --at T`` on a long log: with and without the snapshots of its state.

The log: the melee of ``melee.py`` run to about ``--events`` events (default 200000), written to a file in
a new temporary folder; the snapshots go to a cache folder beside it (``XDG_CACHE_HOME``). At the start,
middle and end of the fight, the state is rebuilt in this process the way ``affray state`` rebuilds it:
from the start (no snapshots kept), then from the last snapshot before the moment. Each figure is the
median of ``--repeat`` runs. Whole processes (``python -m affray state``) are timed too, medians of as many.
The goal of issue 23: 20 ms anywhere in a 200k-event log.

    python benchmarks/state_at.py [--events N] [--repeat R] [--json]
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
from pathlib import Path

from melee import ENERGION, melee_scenario, seconds_for_events

from affray import rulesets
from affray.cli.tell import _rebuilt
from affray.events.codec import encode_log
from affray.events.reader import open_log
from affray.replays import snapshots
from affray.stores import JsonLinesLog

GOAL_S = 0.020


def write_log(folder: Path, events: int) -> tuple[Path, int, int]:
    """The melee's log written into ``folder``: its path, its events and its last time (ms)."""
    battle = ENERGION.battle(melee_scenario(seconds_for_events(events)))
    encounter = battle.run()
    log = folder / "melee.jsonl"
    log.write_bytes(encode_log(ENERGION.header(battle.scenario), encounter.log))
    return log, len(encounter.log), encounter.log[-1].t


def rebuild_s(log: Path, t_ms: int) -> float:
    """Seconds to rebuild the state at ``t_ms`` as ``affray state`` does, the log opened and closed."""
    started = time.perf_counter()
    with open_log(log, rulesets.vocabulary_for) as reader:
        _rebuilt(JsonLinesLog(log), reader, None, t_ms)
    return time.perf_counter() - started


def process_s(log: Path, t_ms: int) -> float:
    """Seconds of a whole ``affray state LOG --at T`` process."""
    started = time.perf_counter()
    command = [sys.executable, "-m", "affray", "state", str(log), "--at", f"{t_ms / 1000}"]
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def median(repeat: int, measure: object, *args: object) -> float:
    """The median of ``repeat`` measurements."""
    return statistics.median(measure(*args) for _ in range(repeat))  # type: ignore[operator]


def main() -> int:
    """Parse the options, write the log, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="affray-state-") as folder:
        log, events, end = write_log(Path(folder), args.events)
        moments = {"start": end // 100, "middle": end // 2, "end": end}
        os.environ["XDG_CACHE_HOME"] = "no-cache"  # not absolute: no snapshots are kept or used
        cold = {name: rebuild_s(log, t) for name, t in moments.items()}
        os.environ["XDG_CACHE_HOME"] = str(Path(folder) / "cache")
        snapshots.keep(log, rulesets.reading)
        warm = {name: median(args.repeat, rebuild_s, log, t) for name, t in moments.items()}
        whole = {name: median(args.repeat, process_s, log, t) for name, t in moments.items()}
    figures = {"events": events, "from_start_s": cold, "from_snapshot_s": warm, "process_s": whole}
    if args.json:
        print(json.dumps({**figures, "goal_s": GOAL_S}))
        return 0
    print(f"state_at: a log of {events:,} events; medians of {args.repeat}")
    for name in moments:
        met = "met" if warm[name] <= GOAL_S else "not met"
        print(
            f"  {name:<7} from the start {cold[name]:7.3f} s   from a snapshot {warm[name] * 1000:6.1f} ms "
            f"(goal <= {GOAL_S * 1000:.0f} ms: {met})   whole process {whole[name]:6.3f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
