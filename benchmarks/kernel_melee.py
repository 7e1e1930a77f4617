"""Kernel speed: events per wall-clock second of a 20-combatant melee, against bare SimPy in the same process.

affray side: ``ruleset.battle(scenario).run()`` on the melee of ``melee.py`` (10 v 10, Energion, mixed
chart weapons), cut by its time limit near ``--events`` events. Each event is a SimPy step plus the
handler's dice, rules, controller and ``emit`` (stamp, apply, append). The garbage collector's share of the
best run is timed through ``gc.callbacks``.

SimPy side: a bare ``simpy.Environment`` with 20 processes, each looping ``yield env.timeout(gap)`` with its
combatant's attack gap in milliseconds, for as many timeouts in all as affray emitted events.

Both are timed with ``time.perf_counter``, best of ``--repeat`` runs taken in turn, gc left on. The ratio
affray / SimPy is the figure to watch; the target is at least 1/3.

    python benchmarks/kernel_melee.py [--events N] [--repeat R] [--log] [--json]
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import sys
from collections.abc import Generator, Sequence
from typing import Any

import simpy
from melee import ENERGION, CollectorClock, environment, melee_scenario, rate, seconds_for_events, timed

from affray.events.codec import LogWriter
from affray.kernel.dice import DICE_ALGORITHM, DICE_ALGORITHMS
from affray.kernel.encounter import Encounter
from affray.kernel.fold import digest
from affray.kernel.ruleset import Battle

TARGET_RATIO = 1 / 3
PROCESSES = 20


class InMemory(io.BytesIO):
    """A log's output held in memory (affray.events.output.Output): the lines written, nothing put in
    place."""

    target = writing = "<memory>"

    def commit(self) -> None:
        """Nothing to put in place."""

    def discard(self) -> None:
        """Nothing to remove."""

    def keep_partial(self) -> str:
        """Nothing kept."""
        return self.target


def run_affray(battle: Battle, write_log: bool) -> Encounter[Any]:
    """One whole run of the melee; with ``write_log`` the log is also written, into memory."""
    if not write_log:
        return battle.run()
    writer = LogWriter(InMemory(), ENERGION.header(battle.scenario))
    return battle.run(sinks=[writer.write])


def _ticker(env: simpy.Environment, gap: int, count: int) -> Generator[Any, Any, None]:
    for _ in range(count):
        yield env.timeout(gap)


def run_simpy(total: int, gaps: Sequence[int]) -> int:
    """Bare SimPy: one process per gap, ``total`` timeouts shared out among them; returns the time reached."""
    env = simpy.Environment()
    share, extra = divmod(total, len(gaps))
    for index, gap in enumerate(gaps):
        env.process(_ticker(env, gap, share + (1 if index < extra else 0)))
    env.run()
    return int(env.now)


def measure(events: int, repeat: int, write_log: bool, dice: str = DICE_ALGORITHM) -> dict[str, Any]:
    """Time both sides ``repeat`` times, alternating, and keep the best of each; the melee's rolls are
    drawn with the ``dice`` algorithm."""
    scenario = melee_scenario(seconds_for_events(events), dice=dice)
    battle: Any = ENERGION.battle(scenario)
    gaps = [loadout.arms[0].speed_ms for loadout in battle.loadouts.values()]
    assert len(gaps) == PROCESSES
    best_affray = best_simpy = float("inf")
    collector = 0.0
    outcomes: set[tuple[int, str, str | None]] = set()
    count = 0
    end: str | None = None
    for _ in range(repeat):
        # Only figures outlive a run: a previous run's log left alive would make the collector slower.
        with CollectorClock() as clock:
            seconds, encounter = timed(lambda: run_affray(battle, write_log))
        if seconds < best_affray:
            best_affray, collector = seconds, clock.seconds
        count, end = len(encounter.log), encounter.state.end_reason
        outcomes.add((count, digest(encounter.state), end))
        del encounter
        seconds, _ = timed(functools.partial(run_simpy, count, gaps))
        best_simpy = min(best_simpy, seconds)
    if len(outcomes) != 1:
        raise SystemExit("error: the melee did not give the same log on every run")
    return {
        "benchmark": "kernel_melee",
        "combatants": len(gaps),
        "events": count,
        "game_seconds": scenario.max_seconds,
        "end": end,
        "dice": dice,
        "write_log": write_log,
        "repeat": repeat,
        "affray_seconds": best_affray,
        "affray_gc_seconds": collector,
        "simpy_seconds": best_simpy,
        "affray_events_per_s": count / best_affray,
        "simpy_timeouts_per_s": count / best_simpy,
        "ratio": best_simpy / best_affray,
        "target_ratio": TARGET_RATIO,
        "meets_target": best_simpy / best_affray >= TARGET_RATIO,
        **environment(),
    }


def report(r: dict[str, Any]) -> str:
    """The figures for people."""
    verdict = "met" if r["meets_target"] else "not met"
    side = "Battle.run + LogWriter" if r["write_log"] else "Battle.run"
    return "\n".join(
        [
            f"kernel_melee: {r['combatants']} combatants (10 v 10), {r['events']:,} events, "
            f"game time limit {r['game_seconds']:,} s ({r['end']}), dice {r['dice']}",
            f"best of {r['repeat']}, wall clock (perf_counter), gc on, Python {r['python']}, "
            f"simpy {r['simpy']}, msgspec {r['msgspec']}",
            f"  affray  {side:<28} {r['affray_seconds']:8.3f} s  "
            f"{rate(r['events'], r['affray_seconds']):>20}",
            f"          of which the garbage collector {r['affray_gc_seconds']:8.3f} s  "
            f"({r['affray_gc_seconds'] / r['affray_seconds']:.0%})",
            f"  SimPy   {PROCESSES} processes x env.timeout  {r['simpy_seconds']:8.3f} s  "
            f"{rate(r['events'], r['simpy_seconds'], 'timeouts'):>20}",
            f"  ratio   affray / bare SimPy = {r['ratio']:.3f}  "
            f"(1 : {1 / r['ratio']:.1f}; target >= {r['target_ratio']:.3f}: {verdict})",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000, help="about how many events (default 100000)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each side; the best counts (default 3)"
    )
    parser.add_argument("--log", action="store_true", help="also write the log (LogWriter into memory)")
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of the table")
    parser.add_argument(
        "--dice",
        choices=DICE_ALGORITHMS,
        default=DICE_ALGORITHM,
        help=f"dice algorithm (default {DICE_ALGORITHM})",
    )
    args = parser.parse_args(argv)
    if args.events < 1 or args.repeat < 1:
        parser.error("--events and --repeat must be at least 1")
    result = measure(args.events, args.repeat, args.log, args.dice)
    print(json.dumps(result) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
