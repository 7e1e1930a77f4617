"""What every ruleset's scenario shares: TOML read into typed Structs, errors with a field path, the dice.

A ruleset's scenario is a tree of :class:`Section` Structs decoded straight from the TOML file's mapping (or
a log header's), so every mistake comes with its field path (``$.combatants[1].skill: ...``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from typing import Annotated, Any, Literal, Protocol, TypeVar

import msgspec

from affray.errors import ScenarioError, briefly, excerpt, toml_limit
from affray.events.codec import LogHeader
from affray.kernel.dice import (
    DICE_ALGORITHM,
    DICE_ALGORITHMS,
    MAX_DICE,
    MAX_FACES,
    STREAM_DRAW,
    STREAM_PATTERN,
    Algorithm,
    DiceSource,
    EnteredDice,
    GeneratedDice,
    ManualDice,
)
from affray.kernel.space import FIELD_M
from affray.kernel.validation import explain

Identifier = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,40}$")]
Seed = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
Coordinate = Annotated[float, msgspec.Meta(ge=-FIELD_M, le=FIELD_M)]
"""One coordinate of where a combatant starts, in metres: a finite number within the field (kernel.space)."""
T = TypeVar("T")


class Section(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Settings shared by every scenario Struct: unknown fields are errors, not silently ignored."""


Face = Annotated[int, msgspec.Meta(ge=1, le=MAX_FACES)]
Entered = Face | Annotated[list[Face], msgspec.Meta(min_length=1, max_length=MAX_DICE)]
"""A roll entered by hand: its face, or its faces when it rolls several dice."""


class Dice(Section, frozen=True, kw_only=True):
    """Where the dice come from: generated from the seed; or rolled at a real table, entered by stream
    and draw (``rolled``) on the streams marked ``manual`` (all of them with ``source = "manual"``), or
    as one list in the order the fight asks (``rolls``, the older form)."""

    source: Literal["generated", "manual"] = "generated"
    algorithm: Algorithm | msgspec.UnsetType = DICE_ALGORITHM
    """How generated rolls are drawn from the seed (docs/log-format.md, "Dice"). A log's header names it
    in its own ``dice`` and writes its scenario without it (``recorded``): unset only there."""
    rolls: list[Face] = []
    manual: list[Annotated[str, msgspec.Meta(pattern=STREAM_PATTERN)]] = []
    rolled: dict[Annotated[str, msgspec.Meta(pattern=STREAM_DRAW)], Entered] = {}
    sealed: list[Annotated[str, msgspec.Meta(pattern=STREAM_PATTERN)]] | msgspec.UnsetType = msgspec.UNSET
    """The streams whose rolls only the referee sees: a players' copy of the log (``affray redact``)
    withholds them (docs/log-format.md, "Sealed rolls"). Written in a header's scenario only when given."""

    def __post_init__(self) -> None:
        if self.rolls and (self.rolled or self.manual):
            raise ValueError(
                "give the rolls in one list in order (rolls) or by stream and draw (rolled, manual), not both"
            )
        if self.rolls and self.sealed:
            raise ValueError(
                "sealed streams need the rolls by stream and draw (rolled, manual): the one list (rolls) "
                "does not say which roll is whose"
            )
        if self.rolls and self.source != "manual":
            raise ValueError('rolls in one list are for source = "manual"')

    def source_for(self, seed: int) -> DiceSource:
        """Generated streams from ``seed``, with the rolls entered by stream and draw; or the referee's
        rolls in one list, in order."""
        if self.rolls:
            return ManualDice(self.rolls)
        if self.source == "generated" and not self.rolled and not self.manual:
            return GeneratedDice(seed, self.drawn_with)
        manual = ["*"] if self.source == "manual" else self.manual
        entered = {
            key: (value,) if isinstance(value, int) else tuple(value) for key, value in self.rolled.items()
        }
        return EnteredDice(seed, manual, entered, self.drawn_with)

    @property
    def sealed_streams(self) -> tuple[str, ...]:
        """The sealed streams' patterns (none unless given)."""
        return () if isinstance(self.sealed, msgspec.UnsetType) else tuple(self.sealed)

    @property
    def drawn_with(self) -> Algorithm:
        """The algorithm generated rolls are drawn with."""
        return DICE_ALGORITHM if isinstance(self.algorithm, msgspec.UnsetType) else self.algorithm

    def recorded(self) -> Dice:
        """These dice as a log's header writes them in its scenario: without the algorithm, which the
        header names in its own ``dice``."""
        return msgspec.structs.replace(self, algorithm=msgspec.UNSET)


def with_algorithm(raw: Any, algorithm: str) -> Any:
    """A scenario's mapping (decoded from a log's header) with ``dice.algorithm`` put back as
    ``algorithm``, the header's ``dice``, when the scenario has a dice table without one and affray rolls
    with ``algorithm``; otherwise as it is."""
    dice = raw.get("dice") if isinstance(raw, dict) else None
    if isinstance(dice, dict) and "algorithm" not in dice and algorithm in DICE_ALGORITHMS:
        return {**raw, "dice": {**dice, "algorithm": algorithm}}
    return raw


def recorded_mapping(header: LogHeader) -> Any:
    """The scenario a log's header holds, decoded, with the dice algorithm the log was rolled with (the
    header's ``dice``): the scenario to re-run the fight from. Raises what decoding raises."""
    return with_algorithm(msgspec.json.decode(header.scenario), header.dice)


def read_rolls(raw: dict[str, object], source: str) -> dict[str, list[int]]:
    """Rolls entered by stream and draw, as a rolls file or ``[dice.rolled]`` holds them (``"brenna/hit#1" =
    41``, ``"gorm/damage#1" = [3, 5]``), each as its list of faces; errors name ``source`` and the roll."""
    try:
        rolls = msgspec.convert(raw, dict[Annotated[str, msgspec.Meta(pattern=STREAM_DRAW)], Entered])
    except msgspec.ValidationError as exc:
        raise ScenarioError(f"{source}: {path_first(str(exc))}") from None
    return {key: [value] if isinstance(value, int) else list(value) for key, value in rolls.items()}


def rolls_toml(rolls: dict[str, list[int]]) -> str:
    """Rolls as the lines of a rolls file, in the order given."""
    lines = [f'"{key}" = {faces[0] if len(faces) == 1 else faces}' for key, faces in rolls.items()]
    return "".join(f"{line}\n" for line in lines)


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
    what = briefly(what)
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
