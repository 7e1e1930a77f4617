"""The big-battle fixture: two lines of fighters, written as a scenario file.

Energion (the default): each side stands in a line, 2 m between neighbours, the lines 4 m apart; every
fighter has 400 damage points, a chart weapon and an armor from a rotation, some a shield, rolled perception
and reaction; the fight is cut at 4000 game seconds. Thirty a side (60 combatants) is the figure the
README's performance table quotes; a few hundred is the scale figure.

Five-step (``--ruleset fivestep``): riflemen in two lines 40 m apart, 2 m between neighbours, under
examples/firefight.toml's procedures, options, bodies and tables (its invented example data, named by
absolute path), cut at 600 game seconds: a standoff, where no one moves and everyone shoots.

Not a test: a scenario for the benchmarks and for looking at pictures.

    python benchmarks/lines.py [--per-side N] [--seed S] [--ruleset energion|fivestep] [--damage-points D]
        -o lines.toml
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tomli_w

DAMAGE_POINTS = 400
MAX_SECONDS = 4000
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
_ARMOR = ("Chain Suit", "Leather Suit", "Studded Leather", "Cloth", "Plate")
_SHIELDS = (None, "Small", None, "Buckler", None, "Medium")
_READINESS = ("in_hand", "at_hand", "unready")


def _fighter(index: int, side: str, y: int, damage_points: int) -> dict[str, Any]:
    weapon = _WEAPONS[(index * 3 + len(side)) % len(_WEAPONS)]
    spec: dict[str, Any] = {
        "id": f"{side}{index:03d}",
        "name": f"{side.title()} {index}",
        "side": side,
        "position": [2 * index, y],
        "damage_points": damage_points,
        "skill": 55 + (index * 7) % 35,
        "parry": (index * 5) % 20,
        "stats": {"ST": 95 + (index * 13) % 45, "AG": 95 + (index * 11) % 45, "CO": 100 + (index * 17) % 30},
        "weapons": [{"name": weapon, "readiness": _READINESS[index % len(_READINESS)]}],
        "armor": _ARMOR[(index + len(side)) % len(_ARMOR)],
        "perception": "1d10",
        "reaction": "1d4",
    }
    shield = _SHIELDS[index % len(_SHIELDS)]
    if shield is not None and weapon not in _TWO_HANDED:
        spec["shield"] = shield
    return spec


def lines_scenario(per_side: int, seed: int = 60, damage_points: int = DAMAGE_POINTS) -> dict[str, Any]:
    """The scenario as TOML's data: ``per_side`` of the Watch against as many Raiders, each with
    ``damage_points``; the fight is cut at ``MAX_SECONDS`` for every 400 of them."""
    return {
        "ruleset": "energion",
        "seed": seed,
        "name": f"Two lines: {per_side} of the Watch against {per_side} Raiders",
        "max_seconds": MAX_SECONDS * damage_points // DAMAGE_POINTS,
        "combatants": [_fighter(i, "watch", 0, damage_points) for i in range(per_side)]
        + [_fighter(i, "raiders", 4, damage_points) for i in range(per_side)],
    }


FIREFIGHT = Path(__file__).resolve().parents[1] / "examples" / "firefight.toml"
RIFLE = {
    "name": "Rifle",
    "combat": "weaponry",
    "difficulty": 30,
    "wep_mod": 4,
    "damage_type": "projectile",
    "action": "fire a rifle",
    "ammunition": 60,
}


def _rifleman(index: int, side: str, x: int) -> dict[str, Any]:
    return {
        "id": f"{side}{index:03d}",
        "name": f"{side.title()} {index}",
        "side": side,
        "position": [x, 2 * index],
        "body": "human",
        "perception": 55 + (index * 7) % 20,
        "agility": 50 + (index * 11) % 20,
        "aim": 60 + (index * 13) % 25,
        "brawl": 55,
        "strength": 60,
        "aim_at": "chest",
        "weapons": [RIFLE],
    }


def standoff_scenario(per_side: int, seed: int = 60) -> dict[str, Any]:
    """The five-step standoff as TOML's data: ``per_side`` rangers against as many raiders."""
    firefight = tomllib.loads(FIREFIGHT.read_text())
    tables = {name: str(FIREFIGHT.parent / path) for name, path in firefight["tables"].items()}
    kept = {
        key: firefight[key] for key in ("ruleset", "procedures", "options", "adversity", "bodies", "sides")
    }
    return {
        **kept,
        "seed": seed,
        "name": f"A standoff: {per_side} rangers against {per_side} raiders",
        "max_seconds": 600,
        "tables": tables,
        "combatants": [_rifleman(i, "rangers", 0) for i in range(per_side)]
        + [_rifleman(i, "raiders", 40) for i in range(per_side)],
    }


SCENARIOS = {"energion": lines_scenario, "fivestep": standoff_scenario}


def write_lines(
    path: Path, per_side: int, seed: int = 60, ruleset: str = "energion", damage_points: int = DAMAGE_POINTS
) -> Path:
    """The scenario of ``ruleset`` written to ``path`` (a new file); Energion's fighters with
    ``damage_points`` each."""
    if ruleset == "energion":
        scenario = lines_scenario(per_side, seed, damage_points)
    else:
        scenario = SCENARIOS[ruleset](per_side, seed)
    with path.open("xb") as file:
        tomli_w.dump(scenario, file)
    return path


def add_damage_points(parser: argparse.ArgumentParser) -> None:
    """The ``--damage-points`` option of Energion's lines (a longer fight: 2000 makes some 54,000 events)."""
    parser.add_argument(
        "--damage-points",
        type=int,
        default=DAMAGE_POINTS,
        help=f"each Energion fighter's damage points, the time limit scaled too (default {DAMAGE_POINTS})",
    )


def check_damage_points(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse ``--damage-points`` below 1, or given for lines other than Energion's."""
    if args.damage_points < 1:
        parser.error("--damage-points must be at least 1")
    if args.ruleset != "energion" and args.damage_points != DAMAGE_POINTS:
        parser.error(f"--damage-points is for Energion's lines, not {args.ruleset}'s")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, write the scenario."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-side", type=int, default=30, help="fighters on each side (default 30)")
    parser.add_argument("--seed", type=int, default=60)
    parser.add_argument(
        "--ruleset", choices=SCENARIOS, default="energion", help="whose lines (default energion)"
    )
    add_damage_points(parser)
    parser.add_argument("-o", "--output", type=Path, required=True, help="the scenario file to write (new)")
    args = parser.parse_args(argv)
    if args.per_side < 1:
        parser.error("--per-side must be at least 1")
    check_damage_points(parser, args)
    write_lines(args.output, args.per_side, args.seed, args.ruleset, args.damage_points)
    return 0


if __name__ == "__main__":
    sys.exit(main())
