"""``affray explain`` and ``affray view --from`` late in a long log: with and without its snapshots.

The log: the melee of ``melee.py`` run to about ``--events`` events (default 200000), written by a process
of its own to a file in a new temporary folder. Each command runs as a whole process (``python -m
affray``), at an event near the end of the fight and over its last minute: with no cache (read from the
start every time, as before snapshots served them), then once to make the snapshots (the first reading of
a long log), then from the snapshots. Each command has a cache of its own; affray's bytecode is compiled
first. Times are medians of ``--repeat`` runs, with the largest peak memory of those runs. Issue 23:
snapshots for ``state --at``, ``view`` and ``explain`` on long logs.

    python benchmarks/long_log.py [--events N] [--repeat R] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from baseline import compile_bytecode
from big_battle import once

WRITE = """
import sys
from pathlib import Path
from state_at import write_log
_, events, end = write_log(Path(sys.argv[1]), int(sys.argv[2]))
print(events, end)
"""


def write(folder: Path, events: int) -> tuple[Path, int, int]:
    """The melee's log written by a process of its own (so this one stays small): path, events, end ms."""
    here = Path(__file__).resolve().parent
    done = subprocess.run(
        [sys.executable, "-c", WRITE, str(folder), str(events)],
        cwd=here,
        capture_output=True,
        text=True,
        check=True,
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(here), os.environ.get("PYTHONPATH")])),
        },
    )
    count, end = done.stdout.split()
    return folder / "melee.jsonl", int(count), int(end)


def medians(repeat: int, command: list[str], folder: Path, cache: str) -> tuple[float, float]:
    """The median seconds and the largest peak MB of ``repeat`` runs with ``cache`` as the cache."""
    environment = {**os.environ, "XDG_CACHE_HOME": cache}
    runs = [once(command, folder, environment) for _ in range(repeat)]
    return statistics.median(r[0] for r in runs), max(r[1] for r in runs)


def main() -> int:
    """Parse the options, write the log, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="affray-long-") as name:
        folder = Path(name)
        log, events, end = write(folder, args.events)
        commands = {
            "explain": ["explain", log.name, str(events - 100)],
            "view": ["view", log.name, "-o", "page.html", "--force", "--from", f"{(end - 60_000) / 1000}"],
        }
        figures: dict[str, dict[str, tuple[float, float]]] = {}
        for command, words in commands.items():
            cache = str(folder / f"cache-{command}")
            figures[command] = {
                "from the start": medians(args.repeat, words, folder, "no-cache"),  # not absolute: unused
                "making snapshots": medians(1, words, folder, cache),
                "from snapshots": medians(args.repeat, words, folder, cache),
            }
    if args.json:
        print(json.dumps({"events": events, **figures}))
        return 0
    print(f"long_log: a log of {events:,} events; whole processes, medians of {args.repeat}")
    for command, measured in figures.items():
        print(f"  {command}")
        for how, (seconds, megabytes) in measured.items():
            print(f"    {how:<18} {seconds:7.2f} s  {megabytes:6.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
