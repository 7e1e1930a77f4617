"""What a scenario says to the special_damage module (seed 001), whatever its host ruleset.

A host's combatants carry :class:`SpecialTraits` and its weapons :class:`SpecialWeaponTraits`; a host
scenario has ``modules``, ``special_damage`` (:class:`SpecialDamageOptions`) and ``rulings``
(:class:`Ruling`). :func:`check_special` holds what every host checks of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal, Protocol, TypeVar

import msgspec

from affray.errors import ScenarioError, excerpt
from affray.handlers.rulings import Ruling
from affray.kernel.scenario import Section
from affray.names import close_names
from affray.rules.special_damage.tables import load_living, load_robots

MODULE = "special_damage"


class Equipment(Section, frozen=True, kw_only=True):
    """A piece of equipment a combatant carries, in units (special damage destroys it, rule S3)."""

    name: str
    count: Annotated[int, msgspec.Meta(ge=1, le=10000)] = 1


class Program(Section, frozen=True, kw_only=True):
    """A computer's program and its level (rule S6); a "Computer Security" program controls ``alarms``."""

    name: str
    level: Annotated[int, msgspec.Meta(ge=1, le=10)]
    alarms: list[str] = msgspec.field(default_factory=list)


class SpecialWeaponTraits(Section, frozen=True, kw_only=True):
    """What the special_damage module reads of a weapon, whatever the ruleset (rules S7, S9)."""

    special_type: str | None = None
    """Special damage (S9): its Table 2 weapon type; by default one the host ruleset's weapon maps to."""
    electrical: bool = False
    """Special damage (S7): an electrostunner or other electrical weapon causes nerve damage, not breaks."""


class SpecialTraits(Section, frozen=True, kw_only=True):
    """What the special_damage module reads of a combatant, whatever the ruleset (rules S2-S9)."""

    kind: Literal["living", "robot", "computer"] = "living"
    """What special damage does to it (rules S3-S6); robots and computers need the special_damage module."""
    race: str = "human"
    """Special damage cares about Vrusk (two arms a side) and Dralasites (no bones) (rule S7)."""
    defensive_screen: bool = False
    """An active defensive screen: no special damage (rule S2)."""
    suit_defense: bool = False
    """A suit-type defense: -2 to the special damage roll (rule S9)."""
    equipment: list[Equipment] = msgspec.field(default_factory=list)
    """Most valuable first: special damage takes the last listed first (the victim's pick, rule S3)."""
    programs: list[Program] = msgspec.field(default_factory=list)
    """A computer's programs (rule S6)."""
    robotics_skill: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0
    computer_skill: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0


class SpecialDamageOptions(Section, frozen=True, kw_only=True):
    """How the special_damage module sits on its host ruleset (docs/rulesets/special_damage.md)."""

    level_divisor: Annotated[int, msgspec.Meta(ge=1, le=100)] = 10
    """A host's percentage skill to the add-on's skill level: level = skill // level_divisor."""
    limbs_set_in_time: bool = True
    """Rule S7: broken limbs are set within two hours (else the hospital)."""
    underwater: bool = False
    """Rule S9: the fight is underwater (-2 to every special damage roll)."""
    rs_divisor: Annotated[int, msgspec.Meta(ge=1, le=10)] = 2
    """Reaction Speed for RS checks is the host's AG / rs_divisor (100 AG -> RS 50, a ruling)."""


class _Carrying(Protocol):
    """What every host's combatant has that these checks read."""

    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def programs(self) -> Sequence[Program]: ...
    @property
    def weapons(self) -> Sequence[object]: ...


def check_special(
    combatants: Sequence[_Carrying], modules: Sequence[str], rulings: Sequence[Ruling], source: str
) -> None:
    """Robots and computers need the module, only a computer goes unarmed or has programs, and rulings
    (S10) need the module and name combatants."""
    special = MODULE in modules
    ids = {c.id for c in combatants}
    for index, combatant in enumerate(combatants):
        path = f"$.combatants[{index}]"
        if combatant.kind != "living" and not special:
            raise ScenarioError(
                f'{source}: {path}.kind: a {combatant.kind} target needs modules = ["{MODULE}"]'
            )
        if combatant.kind != "computer" and not combatant.weapons:
            raise ScenarioError(f"{source}: {path}.weapons: at least one weapon is needed")
        if combatant.kind != "computer" and combatant.programs:
            raise ScenarioError(f"{source}: {path}.programs: only a computer has programs")
    kinds = {c.id: c.kind for c in combatants}
    for number, ruling in enumerate(rulings):
        if ruling.target is None:
            continue
        if not special:
            raise ScenarioError(
                f"{source}: $.rulings[{number}].target: a ruling on special damage needs that module on"
            )
        if ruling.target not in ids:
            raise ScenarioError(
                f"{source}: $.rulings[{number}].target: no combatant {excerpt(ruling.target)!r}"
            )
        if ruling.replace_with is not None:
            _check_replacement(ruling.replace_with, kinds[ruling.target], f"{source}: $.rulings[{number}]")


class _Damage(Protocol):
    """A row of a damage results table (Table 3 or 4), as a ruling names it."""

    @property
    def damage(self) -> str: ...


_D = TypeVar("_D", bound=_Damage)


def replacement(rows: Sequence[_D], name: str) -> _D | None:
    """Rule S10: the row of a damage table's ``rows`` a ruling's ``replace_with`` names (case ignored)."""
    key = name.casefold()
    return next((row for row in rows if row.damage.casefold() == key), None)


def _check_replacement(name: str, kind: str, where: str) -> None:
    """A ruling's replacement is a damage of the table its target's special damage reads: Table 3 for a
    living target, Table 4 for a robot (a computer loses programs and reads neither)."""
    if kind == "computer":
        return
    rows: Sequence[_Damage] = load_robots().rows if kind == "robot" else load_living().rows
    if replacement(rows, name) is not None:
        return
    close = close_names(name, (row.damage for row in rows))
    hint = ", ".join(map(repr, close)) if close else "none"
    number = 4 if kind == "robot" else 3
    raise ScenarioError(
        f"{where}.replace_with: Table {number} ({kind} targets) has no damage {excerpt(name)!r}; "
        f"close matches: {hint}"
    )
