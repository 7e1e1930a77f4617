"""What every ruleset's scenario shares: TOML read into typed Structs, errors with a field path, the dice.

A ruleset's scenario is a tree of :class:`Section` Structs decoded straight from the TOML file's mapping (or
a log header's), so every mistake comes with its field path (``$.combatants[1].skill: ...``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from typing import Annotated, Literal, Protocol, TypeVar

import msgspec

from affray.errors import ScenarioError, excerpt, toml_limit
from affray.kernel.dice import MAX_FACES, DiceSource, GeneratedDice, ManualDice
from affray.kernel.space import FIELD_M
from affray.kernel.validation import explain

Identifier = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,40}$")]
Seed = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
Coordinate = Annotated[float, msgspec.Meta(ge=-FIELD_M, le=FIELD_M)]
"""One coordinate of where a combatant starts, in metres: a finite number within the field (kernel.space)."""
T = TypeVar("T")


class Section(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Settings shared by every scenario Struct: unknown fields are errors, not silently ignored."""


class Dice(Section, frozen=True, kw_only=True):
    """Where the dice come from: generated from the seed, or the faces a referee rolled, in order."""

    source: Literal["generated", "manual"] = "generated"
    rolls: list[Annotated[int, msgspec.Meta(ge=1, le=MAX_FACES)]] = []

    def source_for(self, seed: int) -> DiceSource:
        """Generated streams from ``seed``, or the referee's rolls in order."""
        if self.source == "manual":
            return ManualDice(self.rolls)
        return GeneratedDice(seed)


def parse_toml(data: bytes | str, source: str) -> dict[str, object]:
    """A scenario file's TOML as a mapping, for any ruleset; errors name ``source`` and the line."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{source}: invalid TOML: {exc}") from None
    except (ValueError, RecursionError) as exc:
        raise ScenarioError(f"{source}: cannot read the TOML: {toml_limit(text, exc)}") from None


def path_first(message: str, kind: object = None) -> str:
    """msgspec says "Expected X - at `$.a.b`"; put the path first: "$.a.b: expected X", and, given the
    scenario's ``kind``, what was expected there (the choices, the field meant)."""
    what, sep, where = message.rpartition(" - at ")
    if not sep:
        what, where = message, "$"
    where = where.strip("`")
    hint = explain(kind, what, where) if kind is not None else ""
    return f"{where}: {what[0].lower()}{what[1:]}{hint}"


def convert(raw: object, kind: type[T], source: str) -> T:
    """A decoded mapping checked as a ``kind`` scenario; a mismatch is a ScenarioError with its path."""
    try:
        return msgspec.convert(raw, kind)
    except msgspec.ValidationError as exc:
        raise ScenarioError(f"{source}: {path_first(str(exc), kind)}") from None


class _Named(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def priority_targets(self) -> Sequence[str]: ...


def check_fighters(combatants: Sequence[_Named], source: str) -> None:
    """The checks every ruleset's combatants share: ids used once, at least two sides, priority targets
    that name combatants."""
    seen: set[str] = set()
    for index, combatant in enumerate(combatants):
        if combatant.id in seen:
            raise ScenarioError(f"{source}: $.combatants[{index}].id: {combatant.id!r} is used twice")
        seen.add(combatant.id)
    if len({c.side for c in combatants}) < 2:
        raise ScenarioError(f"{source}: $.combatants: every combatant is on one side; a fight needs two")
    for index, combatant in enumerate(combatants):
        for number, target in enumerate(combatant.priority_targets):
            if target not in seen:
                raise ScenarioError(
                    f"{source}: $.combatants[{index}].priority_targets[{number}]: no combatant "
                    f"{excerpt(target)!r}"
                )


def check_dice(dice: Dice, source: str) -> None:
    """Manual rolls only with manual dice."""
    if dice.source == "generated" and dice.rolls:
        raise ScenarioError(f"{source}: $.dice.rolls: rolls are given but dice.source is 'generated'")
