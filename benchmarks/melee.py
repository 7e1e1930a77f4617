"""The benchmarks' shared fixture: a 20-combatant Energion melee, and small timing helpers.

Ten of the Watch against ten Raiders, two lines three metres apart, mixed weapons from the chart, armor,
shields and rolled perception and reaction. Every weapon is blunted (a damage bonus of -7, a tourney)
and everyone has 10000 damage points, so the fight runs the whole day a scenario may last (86400 game
seconds) and some 250k events with both sides still standing; a time limit cuts it shorter for a smaller
run.

Imported by the scripts beside it (run them as ``python benchmarks/<script>.py``, which puts this folder
on ``sys.path``).
"""

from __future__ import annotations

import bisect
import gc
import platform
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any, TypeVar

import affray
from affray import rulesets
from affray.kernel.dice import DICE_ALGORITHM

ENERGION = rulesets.ruleset("energion")

T = TypeVar("T")

SEED = 42
DAMAGE_POINTS = 10000
BLUNTED = -7
WHOLE_FIGHT_SECONDS = 86400
"""The largest time limit a scenario allows; the melee runs to it with both sides still standing."""

_WEAPONS = (
    "Sword, Long",
    "Rapier",
    "Axe, 1 hand",
    "Mace, Small",
    "Spear, stabbing",
    "Dagger, Parrying",
    "Scimitar",
    "Sword, Short",
    "Axe, 2 hand",
    "Hammer, 1 Handed",
)
_TWO_HANDED = frozenset({"Axe, 2 hand"})
_ARMOR = ("Chain Suit", "Leather Suit", "Studded Leather", "Plate")
_SHIELDS = (None, "Small", None, "Buckler", None, "Medium")
_READINESS = ("in_hand", "at_hand", "unready")

# (game seconds, events emitted by then) along the whole melee, measured once; used only to pick a time
# limit that yields about the number of events asked for. The scripts print the count they really got.
_CURVE = (
    (0, 80),
    (1853, 10000),
    (3721, 20000),
    (5589, 30000),
    (7456, 40000),
    (9323, 50000),
    (11279, 60000),
    (13288, 70000),
    (15455, 80000),
    (17876, 90000),
    (20510, 100000),
    (23567, 110000),
    (26891, 120000),
    (30483, 130000),
    (34133, 140000),
    (38085, 150000),
    (42078, 160000),
    (46073, 170000),
    (50417, 180000),
    (54954, 190000),
    (59492, 200000),
    (64030, 210000),
    (68826, 220000),
    (73637, 230000),
    (78848, 240000),
    (84429, 250000),
    (86400, 253534),
)


def _combatant(index: int, side: str, y: int) -> dict[str, Any]:
    weapon = _WEAPONS[index % len(_WEAPONS)]
    spec: dict[str, Any] = {
        "id": f"{side}{index}",
        "name": f"{side.title()} {index}",
        "side": side,
        "position": [2 * index, y],
        "damage_points": DAMAGE_POINTS,
        "skill": 60 + (index * 7) % 30,
        "parry": (index * 5) % 20,
        "stats": {
            "ST": 100 + (index * 13) % 40,
            "AG": 100 + (index * 11) % 40,
            "CO": 100 + (index * 17) % 30,
        },
        "weapons": [
            {"name": weapon, "readiness": _READINESS[index % len(_READINESS)], "damage_bonus": BLUNTED}
        ],
        "armor": _ARMOR[index % len(_ARMOR)],
        "perception": "1d10",
        "reaction": "1d4",
    }
    shield = _SHIELDS[index % len(_SHIELDS)]
    if shield is not None and weapon not in _TWO_HANDED:
        spec["shield"] = shield
    return spec


def melee_scenario(
    max_seconds: int = WHOLE_FIGHT_SECONDS, seed: int = SEED, dice: str = DICE_ALGORITHM
) -> Any:
    """The 10 v 10 melee, cut at ``max_seconds`` of game time, its rolls drawn with the ``dice`` algorithm."""
    raw = {
        "ruleset": "energion",
        "seed": seed,
        "name": "Benchmark melee: ten of the Watch against ten Raiders, blunted weapons",
        "max_seconds": max_seconds,
        "combatants": [_combatant(i, "watch", 0) for i in range(10)]
        + [_combatant(i, "raiders", 3) for i in range(10)],
        "dice": {"algorithm": dice},
    }
    return ENERGION.load(raw, "benchmarks/melee.py", None)


def seconds_for_events(events: int) -> int:
    """A time limit that makes the melee emit about ``events`` events (the whole fight if more)."""
    if events >= _CURVE[-1][1]:
        return WHOLE_FIGHT_SECONDS
    counts = [count for _, count in _CURVE]
    i = max(bisect.bisect_left(counts, events), 1)
    (s0, n0), (s1, n1) = _CURVE[i - 1], _CURVE[i]
    return max(1, round(s0 + (s1 - s0) * (events - n0) / (n1 - n0)))


def best_of(repeat: int, work: Callable[[], T]) -> tuple[float, T]:
    """The shortest wall-clock time of ``repeat`` runs of ``work`` (perf_counter), and its last result.

    The previous run's result is dropped before the next run starts, so freeing it is never timed.
    """
    best = float("inf")
    results: list[T] = []
    for _ in range(repeat):
        results.clear()
        start = time.perf_counter()
        value = work()
        best = min(best, time.perf_counter() - start)
        results.append(value)
        del value
    return best, results[0]


def timed(work: Callable[[], T]) -> tuple[float, T]:
    """One wall-clock timing of ``work`` and its result."""
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


class CollectorClock:
    """Adds up the time the cyclic garbage collector runs, through ``gc.callbacks``, while in a ``with``."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.collections = 0
        self._start = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._start
            self.collections += 1

    def __enter__(self) -> CollectorClock:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)


def environment() -> dict[str, str]:
    """The versions that shape the figures."""
    return {
        "python": platform.python_version(),
        "affray": version("affray"),
        "affray_from": str(Path(affray.__file__).parent),
        "simpy": version("simpy"),
        "msgspec": version("msgspec"),
        "machine": platform.machine(),
    }


def rate(count: int, seconds: float, unit: str = "events") -> str:
    """``count`` per ``seconds`` for people: ``'123,456 events/s'``."""
    return f"{count / seconds:,.0f} {unit}/s"
