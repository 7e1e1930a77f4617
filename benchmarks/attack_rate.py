"""Attacks resolved per second: affray's kernel against a bare loop of our own, side by side in this process.

affray side: the 10 v 10 melee of ``melee.py`` run to about ``--events`` events, no log kept; its attacks
are counted (``attack_resolved``: every roll recorded, the derivation built, the clock, the controllers,
the fold). Bare side: as many attacks in a plain loop of ``random.randint``, resolved as Energion resolves a
melee blow with floats: a d100 against the chance less the armor (E6), a parry roll when it would land
(E5), the damage multiplier of the quality (E7), the result appended to a list. This stands in for the
PyPI peer's attack loop with its dice library swapped for ``randint`` (the issue's measure); the peer
itself is not vendored here. The goal (issue 23): affray at least a quarter of the bare loop's rate, every
roll still recorded.

    python benchmarks/attack_rate.py [--events N] [--repeat R] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random

from melee import ENERGION, best_of, melee_scenario, seconds_for_events

from affray import __version__
from affray.events.energion.kinds import AttackResolved

GOAL = 0.25


def affray_attacks(events: int) -> int:
    """Attacks resolved in a melee of about ``events`` events."""
    count = 0

    def note(event: object) -> None:
        nonlocal count
        if type(event) is AttackResolved:
            count += 1

    ENERGION.battle(melee_scenario(seconds_for_events(events))).run(sinks=[note], keep_log=False)
    return count


def bare_attacks(attacks: int, seed: int = 42) -> int:
    """``attacks`` attacks resolved in a plain loop; how many landed."""
    roll = random.Random(seed).randint
    landed: list[tuple[int, float]] = []
    for i in range(attacks):
        chance, armor, parry, potential = 80.0, 20 + i % 15, 25.0, 18.75
        hit = roll(1, 100)
        quality = chance - armor - hit
        if quality <= 0 or roll(1, 100) <= parry:
            continue
        multiplier = math.trunc((quality + 10) / 10) / 10
        landed.append((hit, multiplier * potential))
    return len(landed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ours_s, attacks = best_of(args.repeat, lambda: affray_attacks(args.events))
    bare_s, _ = best_of(args.repeat, lambda: bare_attacks(attacks))
    figures = {
        "attacks": attacks,
        "affray_attacks_per_s": attacks / ours_s,
        "bare_attacks_per_s": attacks / bare_s,
        "ratio": bare_s / ours_s,
        "goal": GOAL,
        "affray": __version__,
    }
    if args.json:
        print(json.dumps(figures))
        return
    met = "met" if figures["ratio"] >= GOAL else "not met"
    ours, bare = figures["affray_attacks_per_s"], figures["bare_attacks_per_s"]
    print(f"attacks: affray {ours:,.0f}/s, bare loop {bare:,.0f}/s")
    print(f"ratio affray / bare: {figures['ratio']:.3f} (goal {GOAL}: {met})")


if __name__ == "__main__":
    main()
