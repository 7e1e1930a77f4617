"""Shared hypothesis strategies and small helpers for the kernel, events and replays tests.

``scenario_tomls()`` draws small, valid Energion scenarios as TOML text (two to four combatants on two or
three sides, some of them tacticians with spells (rule E23), a short time limit so a run stays in the low
milliseconds); ``scenarios()`` decodes them with
``decode_scenario``. ``events()`` draws events of every kind field by field, for codec round trips.
The helpers run scenarios, snapshot the live state at every seq, and re-hash a tampered log's chain.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import pytest
from hypothesis import strategies as st

from affray import rulesets
from affray.events.base import Event, Roll
from affray.events.codec import encode_log
from affray.events.energion.kinds import (
    AimStarted,
    AttackResolved,
    CombatantJoined,
    DamageDerivation,
    HitDerivation,
    ParryAttempt,
    Perceived,
    RangedDerivation,
    Reacted,
    SpellCast,
    SpellInterrupted,
    SpellStarted,
    TargetChosen,
    Waited,
    WeaponChanged,
    WeaponReadied,
)
from affray.events.reader import LogFile, read_bytes, read_log
from affray.events.shared import ActionRefused, CombatantOut, EncounterEnded, Moved
from affray.handlers.energion import battle as battle_module
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import CONTROLLERS, EnergionScenario, decode_scenario
from affray.handlers.fivestep import battle as fivestep_battle_module
from affray.handlers.special_damage.aftermath import run_aftermath
from affray.kernel.dice import Need, Stream
from affray.kernel.encounter import Encounter
from affray.kernel.fold import digest
from affray.kernel.ruleset import Battle, Reading, Recorded
from affray.npc.outside import check_controllers
from affray.replays.narrate import narrate
from affray.replays.verify import Verdict, verify

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

ONE_HANDED = (
    "Sword, Long",
    "Axe, 1 hand",
    "Rapier",
    "Mace, Small",
    "Dagger, Parrying",
    "Spear, stabbing",
    "Staff",
    "Crossbow, Light",
)
TWO_HANDED = ("Axe, 2 hand", "Sword, 2 Handed")
ARMORS = ("Cloth", "Leather Suit", "Studded Leather", "Chain Suit", "Plate")
SHIELDS = ("Buckler", "Small", "Medium", "Large")
READINESS = ("in_hand", "at_hand", "unready")

seeds = st.integers(min_value=0, max_value=2**63 - 1)
"""Every seed a scenario accepts."""

_times = st.one_of(
    st.integers(min_value=0, max_value=3),
    st.sampled_from([0.5, 1.25, 2.001]),
    st.sampled_from(["1d4", "1d6", "1d10", "2d3-1", "d3+1"]),
)


@st.composite
def _spell_toml(draw: st.DrawFn, index: int) -> str:
    """One spell as an inline table: a fixed or rolled preparation, 1-10 s of casting, some damage dice."""
    preparation = draw(st.sampled_from([0, 1, 0.5, "1d2", "1d4"]))
    casting = draw(st.integers(min_value=1, max_value=10))
    damage = draw(st.sampled_from(["1d10", "2d10", "4d10", "1d6+2", "1d4-2"]))
    range_m = draw(st.sampled_from([5, 12.5, 30, 60]))
    return (
        f"{{ name = {_toml_value(f'Spell {index}')}, preparation = {_toml_value(preparation)}, "
        f"casting_seconds = {casting}, damage = {_toml_value(damage)}, range_m = {range_m} }}"
    )


def _toml_value(value: object) -> str:
    """A TOML literal for a str, bool, int or float (JSON's string escapes are valid TOML)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


GRAPPLES = ("Flying Tackle", "Overbear", "Hold Down", "Trip", "Partial Hold", "Full Hold")


@st.composite
def _combatant_toml(draw: st.DrawFn, index: int, side: str, special: bool) -> str:
    two_handed = draw(st.booleans().map(lambda b: b and index % 2 == 1))
    weapon = draw(st.sampled_from(TWO_HANDED if two_handed else ONE_HANDED))
    shield = None if two_handed else draw(st.none() | st.sampled_from(SHIELDS))
    stats = {k: draw(st.integers(min_value=60, max_value=150)) for k in ("ST", "AG", "CO")}
    fields: dict[str, object] = {
        "id": f"c{index}",
        "name": draw(st.text(alphabet="abcdefghij ABC-'", min_size=1, max_size=12)),
        "side": side,
        "damage_points": draw(st.integers(min_value=4, max_value=30)),
        "skill": draw(st.integers(min_value=20, max_value=95)),
        "parry": draw(st.integers(min_value=0, max_value=30)),
        "armor": draw(st.sampled_from(ARMORS)),
        "perception": draw(_times),
        "reaction": draw(_times),
        "prepared": draw(st.booleans()),
        "move_rate": draw(st.sampled_from([1, 2.5, 3, 6])),
    }
    if shield is not None:
        fields["shield"] = shield
    fields["controller"] = draw(st.sampled_from(["nearest", "tactician"]))
    spells = draw(st.lists(_spell_toml(index), max_size=2))
    x = draw(st.integers(min_value=0, max_value=12))
    y = draw(st.integers(min_value=0, max_value=12))
    readiness = draw(st.sampled_from(READINESS))
    bonus = draw(st.integers(min_value=-3, max_value=5))
    weapons = [
        f"{{ name = {_toml_value(weapon)}, readiness = {_toml_value(readiness)}, damage_bonus = {bonus} }}"
    ]
    extra = draw(_extras(special))
    if extra.pop("martial", None):
        weapons = ['{ name = "Foot" }', '{ name = "Hand" }']
    if extra.pop("archer", None) and not two_handed and shield is None:
        weapons = [
            '{ name = "Bow, Self, Short", ammunition = 6 }',
            '{ name = "Dagger, Throwing", class = "Daggers", hurled = true, count = 2 }',
            *weapons,
        ]
    fields.update(extra)
    lines = ["[[combatants]]"]
    lines += [f"{key} = {_toml_value(value)}" for key, value in fields.items() if not isinstance(value, list)]
    lines += [
        f"{key} = [{', '.join(map(_toml_value, value))}]"
        for key, value in fields.items()
        if isinstance(value, list)
    ]
    lines.append(f"position = [{x}, {y}]")
    lines.append(f"stats = {{ ST = {stats['ST']}, AG = {stats['AG']}, CO = {stats['CO']} }}")
    lines.append(f"weapons = [{', '.join(weapons)}]")
    if spells:
        lines.append(f"spells = [{', '.join(spells)}]")
    if special:
        lines.append('equipment = [{ name = "rope" }, { name = "ration", count = 3 }]')
    return "\n".join(lines)


@st.composite
def _extras(draw: st.DrawFn, special: bool) -> dict[str, object]:
    """The later rules, drawn sparingly: martial arts, grapples, missiles, cover, dodging, special damage."""
    extra: dict[str, object] = {}
    style = draw(st.sampled_from(["plain", "plain", "martial", "grappler", "archer"]))
    if style == "martial":
        extra["martial"] = True
        extra["martial_arts_level"] = draw(st.integers(min_value=1, max_value=12))
        if draw(st.booleans()):
            extra["grapples"] = ["Double Kick"]
    elif style == "grappler":
        extra["grapples"] = [draw(st.sampled_from(GRAPPLES))]
    elif style == "archer":
        extra["archer"] = True
    if draw(st.booleans()):
        extra["cover"] = draw(st.sampled_from([0, 30, 60, 100]))
    if draw(st.booleans()):
        extra["acrobatics_level"] = draw(st.integers(min_value=0, max_value=5))
    if special:
        extra["kind"] = draw(st.sampled_from(["living", "living", "robot"]))
    return extra


@st.composite
def scenario_tomls(draw: st.DrawFn, *, seed: st.SearchStrategy[int] = seeds) -> str:
    """A small valid Energion scenario as TOML text."""
    count = draw(st.integers(min_value=2, max_value=4))
    sides = draw(st.integers(min_value=2, max_value=min(count, 3)))
    head = [
        'ruleset = "energion"',
        f"seed = {draw(seed)}",
        'name = "generated"',
        f"max_seconds = {draw(st.integers(min_value=5, max_value=60))}",
    ]
    special = draw(st.booleans())
    if special:
        head.append('modules = ["special_damage"]')
    if draw(st.booleans()):
        head.append("\n[options]\nhit_locations = true")
    blocks = [draw(_combatant_toml(i, f"side{i % sides}", special)) for i in range(count)]
    return "\n".join(head) + "\n\n" + "\n\n".join(blocks) + "\n"


def scenarios(*, seed: st.SearchStrategy[int] = seeds) -> st.SearchStrategy[EnergionScenario]:
    """Small valid Energion scenarios, decoded from TOML text as a user's file would be."""
    return scenario_tomls(seed=seed).map(lambda text: decode_scenario(text, "<generated>"))


# -- events, field by field --------------------------------------------------------------------------

_names = st.text(min_size=1, max_size=12)
_ints = st.integers(min_value=-(2**63), max_value=2**63 - 1)
_ms = st.integers(min_value=0, max_value=10**9)
_decimals = st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-(10**6), max_value=10**6)
_positions = st.tuples(_decimals, _decimals)

rolls = st.builds(
    Roll,
    expr=st.sampled_from(["1d100", "1d10", "4d10+2", "2d6-1"]),
    faces=st.lists(st.integers(min_value=1, max_value=100), min_size=1, max_size=4).map(tuple),
    total=_ints,
    purpose=_names,
    roller=_names,
    source=st.sampled_from(["generated", "manual"]),
)

_stamp: dict[str, Any] = {"seq": st.integers(min_value=1, max_value=10**6), "t": _ms}

_parries = st.builds(
    ParryAttempt, device=_names, chance=_decimals, roll=rolls, parried=st.booleans(), gap_ms=_ms
)
_shots = st.builds(
    RangedDerivation,
    mode=st.sampled_from(["hurled", "missile"]),
    distance=_decimals,
    band=st.sampled_from(["PTB", "SHT", "MED", "LNG", "EXT"]),
    range_factor=_decimals,
    chance_before=_decimals,
    target_area=_decimals,
    cover=st.integers(min_value=0, max_value=100),
    visible_area=_decimals,
    size_percentage=_decimals,
    size_penalty=_decimals,
    relative_speed=_decimals,
    speed_penalty=_decimals,
    aim_ms=_ms,
    gap_ms=_ms,
    aim_bonus=_decimals,
    unaimed_penalty=_decimals,
)
_hits = st.builds(
    HitDerivation,
    skill=_decimals,
    bonus=_decimals,
    bonus_kind=st.sampled_from(["melee", "mechanical"]),
    hit_chance=_decimals,
    armor=_names,
    weapon_type=st.integers(min_value=1, max_value=17),
    armor_value=_ints,
    shield_bonus=_ints,
    roll=rolls,
    quality=_decimals,
    ranged=st.none() | _shots,
)
_damages = st.builds(
    DamageDerivation,
    base=_ints,
    strength_bonus=_decimals,
    weapon_bonus=_decimals,
    skill_bonus=_decimals,
    potential=_decimals,
    multiplier=_decimals,
    damage=_decimals,
    range_factor=st.none() | _decimals,
)

events: st.SearchStrategy[Event] = st.one_of(
    st.builds(
        CombatantJoined,
        combatant=_names,
        name=_names,
        side=_names,
        damage_points=_decimals,
        position=_positions,
        weapon=_names,
        armor=_names,
        shield=st.none() | _names,
        cover=st.integers(min_value=0, max_value=100),
        **_stamp,
    ),
    st.builds(
        Perceived,
        combatant=_names,
        after_ms=_ms,
        reaction_roll=st.none() | rolls,
        perception_roll=st.none() | rolls,
        **_stamp,
    ),
    st.builds(
        Reacted,
        combatant=_names,
        reaction_ms=_ms,
        prepared=st.booleans(),
        reaction_roll=st.none() | rolls,
        **_stamp,
    ),
    st.builds(
        WeaponReadied,
        combatant=_names,
        weapon=_names,
        readiness=st.sampled_from(READINESS),
        chart_initiative=_ints,
        chart_speed=_ints,
        speed_adjustment=_decimals,
        initiative_ms=_ms,
        speed_ms=_ms,
        **_stamp,
    ),
    st.builds(
        TargetChosen,
        combatant=_names,
        target=_names,
        controller=_names,
        reason=st.text(max_size=40),
        distance=_decimals,
        **_stamp,
    ),
    st.builds(
        Moved, combatant=_names, toward=_names, start=_positions, end=_positions, distance=_decimals, **_stamp
    ),
    st.builds(
        AttackResolved,
        attacker=_names,
        target=_names,
        weapon=_names,
        hit=_hits,
        parry=st.none() | _parries,
        outcome=st.sampled_from(["hit", "miss", "parried"]),
        damage=st.none() | _damages,
        **_stamp,
    ),
    st.builds(
        WeaponChanged,
        combatant=_names,
        from_weapon=st.none() | _names,
        to_weapon=_names,
        to_index=st.integers(min_value=0, max_value=20),
        method=st.sampled_from(["drop_and_grab", "put_away"]),
        took_ms=_ms,
        **_stamp,
    ),
    st.builds(
        Waited, combatant=_names, seconds=st.integers(min_value=1, max_value=60), reason=_names, **_stamp
    ),
    st.builds(AimStarted, combatant=_names, target=_names, weapon=_names, **_stamp),
    st.builds(
        SpellStarted,
        combatant=_names,
        spell=_names,
        target=_names,
        preparation_ms=_ms,
        initiation_ms=_ms,
        casting_ms=_ms,
        roll=st.none() | rolls,
        **_stamp,
    ),
    st.builds(
        SpellCast, combatant=_names, spell=_names, target=_names, roll=rolls, damage=_decimals, **_stamp
    ),
    st.builds(SpellInterrupted, combatant=_names, spell=_names, reason=st.text(max_size=40), **_stamp),
    st.builds(ActionRefused, combatant=_names, action=_names, reason=st.text(max_size=40), **_stamp),
    st.builds(CombatantOut, combatant=_names, reason=st.text(max_size=40), **_stamp),
    st.builds(EncounterEnded, winner=st.none() | _names, reason=st.text(max_size=40), **_stamp),
)
"""Events of every kind with arbitrary field values (not a consistent fight: for the codec only)."""


# -- helpers -----------------------------------------------------------------------------------------


@cache
def example_text(name: str) -> str:
    """The TOML text of ``examples/<name>.toml``."""
    return (EXAMPLES / f"{name}.toml").read_text()


def example(name: str) -> EnergionScenario:
    """The scenario ``examples/<name>.toml``, its controllers from outside affray imported from
    examples/ as the file's loader does."""
    source = f"examples/{name}.toml"
    scenario = decode_scenario(example_text(name), source)
    check_controllers([c.controller for c in scenario.combatants], CONTROLLERS, source, EXAMPLES)
    return scenario


REFUSAL_TOML = """\
ruleset = "energion"
seed = 7
name = "a shot at a man wholly behind cover"
max_seconds = 30

[[combatants]]
id = "archer"
name = "Archer"
side = "wall"
controller = "nearest"
damage_points = 20
skill = 60
weapons = [{ name = "Crossbow, Light" }]

[[combatants]]
id = "hidden"
name = "Hidden"
side = "raiders"
position = [5, 0]
damage_points = 20
skill = 60
cover = 100
weapons = [{ name = "Sword, Long" }]
"""
"""A run with an ``action_refused``: the archer (nearest-enemy, reach 8 m) shoots at a man wholly behind
cover (rule E16) until he steps out of it to close in."""


def refusal_scenario() -> EnergionScenario:
    """The scenario of :data:`REFUSAL_TOML`."""
    return decode_scenario(REFUSAL_TOML, "refusal.toml")


RULED_DUEL_TOML = """
[[rulings]]
seq = 25
combatant = "gorm"
outcome = "miss"
reason = "the axe could not reach over the buckler"
"""
"""Rulings added to the duel: gorm's only blow to get through (seq 25, a hit for 10.875 without it) is ruled
a miss."""


def ruled_duel() -> EnergionScenario:
    """The duel of ``examples/duel.toml`` with :data:`RULED_DUEL_TOML`'s rulings."""
    return decode_scenario(example_text("duel") + RULED_DUEL_TOML, "ruled-duel.toml")


CONDITION_TOML = """\
ruleset = "energion"
seed = 1
name = "a head wound knocks a man out for a minute"
max_seconds = 10
modules = ["special_damage"]

[dice]
source = "manual"
rolls = [5, 5, 1, 1, 3]

[special_damage]
level_divisor = 60

[[combatants]]
id = "a"
name = "A"
side = "ford"
prepared = true
damage_points = 30
skill = 60
weapons = [{ name = "Sword, Long" }]

[[combatants]]
id = "b"
name = "B"
side = "raiders"
position = [1, 0]
perception = 100
damage_points = 100
skill = 60
weapons = [{ name = "Sword, Long" }]
"""
"""A run whose aftermath yields ``condition_ended``: a (skill 60 // level_divisor 60 = level 1: chance
3 + 2 x 1 = 5 %) hits b with roll 5 <= 5; type roll 5 + 1 (level) + 2 (Long melee) = 8: Head wound (S3, S4);
b's 50 % unconsciousness roll 1 knocks it out for 1d100 = 1 minute; equipment roll 50 (no weapon); the
fight ends at its 10 s time limit, and the aftermath's head wound heals in 1d10+1 = 3 + 1 hours, b coming
round at 60 s."""


def condition_scenario() -> EnergionScenario:
    """The scenario of :data:`CONDITION_TOML`."""
    return decode_scenario(CONDITION_TOML, "condition.toml")


def healed_events(scenario: EnergionScenario, days: int) -> list[Event]:
    """Run ``scenario``, then its aftermath of ``days`` (rules S7, S8); the whole log's events."""
    battle = EnergionBattle(scenario)
    encounter = battle.run()
    run_aftermath(encounter, battle, days)
    return encounter.log


AnyScenario = Any
"""A loaded scenario of any ruleset."""


def battle_for(scenario: AnyScenario) -> Battle:
    """The battle of ``scenario`` under its ruleset, as the ``affray`` command makes it."""
    return rulesets.ruleset(scenario.ruleset).battle(scenario)


def header_for(scenario: AnyScenario) -> Any:
    """The log header of ``scenario`` under its ruleset, as ``affray run`` writes it."""
    return rulesets.header(rulesets.ruleset(scenario.ruleset), scenario)


def recorded_for(scenario: AnyScenario) -> Recorded:
    """What a log of ``scenario`` records it was made with."""
    ruleset = rulesets.ruleset(scenario.ruleset)
    return Recorded(ruleset=ruleset, scenario=scenario, modules=tuple(rulesets.modules_of(scenario)))


def read(data: bytes, source: str = "<log>") -> LogFile:
    """A log read back as ``affray`` reads it, with the registry's vocabularies."""
    return read_bytes(data, rulesets.vocabulary_for, source)


def vocabulary_of(scenario: AnyScenario) -> Any:
    """The vocabulary of ``scenario``'s ruleset and modules."""
    return rulesets.ruleset(scenario.ruleset).vocabulary(scenario.modules)


S = TypeVar("S", bound=msgspec.Struct)


def with_seed(scenario: S, seed: int) -> S:
    """The same scenario under another seed."""
    return msgspec.structs.replace(scenario, seed=seed)


def log_bytes(scenario: AnyScenario) -> bytes:
    """Run ``scenario`` (of any ruleset) and return its whole log as bytes."""
    return encode_log(header_for(scenario), battle_for(scenario).run().log)


def any_example(name: str) -> AnyScenario:
    """The scenario ``examples/<name>.toml`` of any ruleset, its tables read as ``affray run`` reads them."""
    return rulesets.load_scenario(EXAMPLES / f"{name}.toml")[1]


@cache
def example_log(name: str) -> bytes:
    """The log of ``examples/<name>.toml`` (computed once per session; bytes are immutable)."""
    return log_bytes(any_example(name))


class SnapshotEncounter(Encounter[Any]):
    """An Encounter whose first sink records ``digest(self.state)`` as each event is handed out.

    A sink receives each event right after ``apply``, so ``snapshots[k - 1]`` is the live state at seq k.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.snapshots: list[str] = []
        self.sinks.append(lambda event: self.snapshots.append(digest(self.state)))


def run_with_snapshots(scenario: AnyScenario) -> SnapshotEncounter:
    """Run ``scenario`` (of any ruleset) with the live state's digest taken at every seq."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(battle_module, "Encounter", SnapshotEncounter)
        patch.setattr(fivestep_battle_module, "Encounter", SnapshotEncounter)
        encounter = battle_for(scenario).run()
    assert isinstance(encounter, SnapshotEncounter)
    return encounter


def rolls_in(value: Any) -> int:
    if isinstance(value, dict):
        own = 1 if {"faces", "roller", "purpose"} <= value.keys() else 0
        return own + sum(rolls_in(v) for v in value.values())
    if isinstance(value, list | tuple):
        return sum(rolls_in(v) for v in value)
    return 0


def rolls_made_and_logged(scenario: AnyScenario) -> tuple[int, int]:
    """Run ``scenario`` counting the dice rolled; the count and the rolls its log records."""
    made = 0
    plain = Stream.roll

    def counted(self: Stream, expr: str, need: Need = None) -> Roll:
        nonlocal made
        made += 1
        return plain(self, expr, need)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Stream, "roll", counted)
        encounter = battle_for(scenario).run()
    return made, sum(rolls_in(msgspec.to_builtins(e)) for e in encounter.log)


# -- raw logs ----------------------------------------------------------------------------------------

_PREV = b',"prev":"'


def chain_hash(line: bytes) -> str:
    """BLAKE2b-128 of one line, computed here rather than by the codec."""
    return hashlib.blake2b(line, digest_size=16).hexdigest()


def log_lines(data: bytes) -> list[bytes]:
    """The lines of a whole log, without newlines: header, events, end line."""
    assert data.endswith(b"\n")
    return data[:-1].split(b"\n")


def join_lines(lines: list[bytes]) -> bytes:
    """Lines back into a log's bytes."""
    return b"\n".join(lines) + b"\n"


BLOCK = 256
"""Event lines per block of a format 2 log's chain (docs/log-format.md), written here rather than taken
from the codec."""


def rechain(lines: list[bytes], format_version: int | None = None) -> bytes:
    """Re-hash a tampered log so its chain is valid again, as its header's format chains (format 2 when it
    names none, as a reader takes it; ``format_version`` when given, for a header json cannot read): in
    format 1 every ``prev``, in format 2 the ``prev`` of each block's first line (added or taken away where
    lines moved), and the end line recomputed.

    ``lines`` is a header, event lines (their ``prev`` may be stale or missing) and optionally an old end
    line; ValueError for a line that must end with a ``prev`` but does not end as a JSON object, or a
    header whose format json cannot tell.
    """
    if lines[-1].startswith(b'{"end":'):
        lines = lines[:-1]
    version = format_version
    if version is None:
        try:
            version = json.loads(lines[0]).get("format_version", 2)
        except (ValueError, RecursionError, AttributeError):
            raise ValueError("the header is no JSON object to read a format from") from None
    blocks = not isinstance(version, int) or version >= 2
    out = [lines[0]]
    chained = lines[0] + b"\n" if blocks else lines[0]
    for seq, line in enumerate(lines[1:], 1):
        body = line[: line.rindex(_PREV)] + b"}" if line.endswith(b'"}') and _PREV in line else line
        if blocks and seq % BLOCK != 1:
            out.append(body)
            chained += body + b"\n"
            continue
        if not body.endswith(b"}"):
            raise ValueError(f"line {seq + 1} does not end as a JSON object, so it cannot end with a prev")
        line = b'%s%s%s"}' % (body[:-1], _PREV, chain_hash(chained).encode())
        out.append(line)
        chained = line + b"\n" if blocks else line
    out.append(b'{"end":%d,"prev":"%s"}' % (len(out) - 1, chain_hash(chained).encode()))
    return join_lines(out)


def in_format(data: bytes, version: int) -> bytes:
    """A whole log written in another format version: its header saying so and its chain made again."""
    lines = log_lines(data)
    header = json.loads(lines[0])
    lines[0] = lines[0].replace(
        b'"format_version":%d' % header["format_version"], b'"format_version":%d' % version, 1
    )
    return rechain(lines)


def all_kinds() -> set[type[Event]]:
    """Every kind of every built-in ruleset's vocabulary, with all its modules."""
    kinds: set[type[Event]] = set()
    for name in rulesets.BUILT_IN_RULESETS:
        ruleset = rulesets.ruleset(name)
        kinds |= set(ruleset.vocabulary(ruleset.modules).kinds)
    return kinds


def read_path(path: Path) -> LogFile:
    """The log at ``path`` read back as ``affray`` reads it."""
    return read_log(path, rulesets.vocabulary_for)


def tell(
    events: list[Event], ruleset: str = "energion", modules: tuple[str, ...] = ("special_damage",)
) -> list[str]:
    """``affray replay``'s lines for ``events`` of ``ruleset`` with ``modules``."""
    found = rulesets.ruleset(ruleset)
    reading = Reading(ruleset=found, modules=tuple(rulesets.module(m) for m in modules))
    return list(narrate(events, reading.vocabulary(), reading.tellers()))


def verdict(log: LogFile, source: str = "<log>") -> Verdict:
    """``affray verify``'s verdict on a log read back, re-simulating what its header records."""
    return verify(log, lambda: rulesets.recorded(log.header, source))
