"""Whether a what-if is what its header says: its parent's scenario with exactly the changes it declares.

A what-if's header names its parent (a path, relative to the what-if's folder, and the hash of its end
line) and the changes made to it (``brenna/hit#2=5``, ``seq 17: miss (...)``, ``seq 9: gorm
target=brenna from then on``). The chain and a re-simulation prove the what-if is a fight of its own
scenario, not that this scenario is the parent's with those changes: that needs the parent. When the
parent is at hand (a regular file at the path named, whose end hash is the one named), the changes are
made to its scenario again, as ``affray whatif`` made them, and the result must be the what-if's scenario
field for field; otherwise the link is unchecked, and said to be.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any, Literal

import msgspec

from affray.errors import QUOTE_LIMIT, AffrayError, excerpt, printable
from affray.events.codec import ENCODER, LogHeader
from affray.events.reader import LogFile, LogReader, read_all
from affray.kernel.ruleset import Recorded
from affray.kernel.scenario import recorded_mapping, with_algorithm
from affray.replays.diff import differences, shown
from affray.replays.whatif import (
    Change,
    IntentChange,
    RollChange,
    RulingChange,
    check_change,
    logged_rolls,
    parse_change,
    scenario_with,
)

LinkState = Literal["holds", "false", "unchecked"]
"""What is known of a what-if's link to its parent: the parent was read and the what-if is it with exactly
the declared changes (``holds``); it was read and the what-if is not that (``false``: a forgery, or a
header edited by hand); it could not be read or is not the log named (``unchecked``)."""

_RULING = re.compile(
    r"^seq (?P<seq>[0-9]{1,9}): (?P<effect>miss|damage|modifier|leaves)(?:=(?P<value>\S+))? "
    r"\((?P<reason>.*)\)$",
    re.S,
)
_INTENT = re.compile(
    r"^seq (?P<seq>[0-9]{1,9}): (?P<who>[A-Za-z0-9_-]{1,40}) (?P<key>target|controller)=(?P<value>\S+) "
    r"from then on(?: \((?P<reason>.*)\))?$",
    re.S,
)
_PATH_LIMIT = 200
"""How much of a parent's path a line quotes (a stranger's header may name a path of any length)."""
_SCENARIO = msgspec.json.Decoder(dict[str, Any], float_hook=Decimal)
Finder = Callable[[Any, str], tuple[Any, bool]]
"""``find(child, recorded)``: where the parent that the what-if at ``child`` (a log file or a campaign's
encounter) records as ``recorded`` is, and whether anything is there. A parent is recorded by its path
from the child's folder, a campaign's encounter as ``campaign.sqlite#NAME``."""


class Link(msgspec.Struct, frozen=True, kw_only=True):
    """What was found of a what-if's parent: ``state``, in words ``why`` (for a link that does not hold),
    and, when it was read, the parent's path, header and end hash (lineage goes on from them)."""

    path: Any
    """The parent's log file, or its campaign's encounter."""
    state: LinkState
    why: str = ""
    header: LogHeader | None = None
    end: str | None = None

    @property
    def shown(self) -> str:
        """The parent's path, printable on one line."""
        return printable(excerpt(str(self.path), _PATH_LIMIT))


OpenLog = Callable[[Any], LogReader]
"""Opens a log for reading (the registry's rulesets resolve its vocabulary)."""
Rerecord = Callable[[LogHeader, str], Recorded]
"""What a header records (``affray.rulesets.recorded``): its scenario loaded under its ruleset."""


def parent_link(child: Any, header: LogHeader, open_log: OpenLog, recorded: Rerecord, find: Finder) -> Link:
    """The link from the what-if at ``child`` (whose header is ``header``) to the parent it names."""
    if header.parent is msgspec.UNSET:
        raise ValueError("not a what-if")
    path, there = find(child, header.parent.log)
    named = header.parent.end
    said = printable(excerpt(named))  # a stranger's header may hold anything there
    if not there:
        return Link(path=path, state="unchecked", why=f"not found (end {said})")
    try:
        with open_log(path) as reader:
            parent = read_all(reader)
            end = reader.end_hash
    except AffrayError as exc:
        return Link(path=path, state="unchecked", why=_without_path(str(exc), path))
    if end != named:
        its_end = f"its end hash is {end}" if end else "it has no end line that holds"
        return Link(path=path, state="unchecked", why=f"not the parent: {its_end}, the what-if names {said}")
    problem = changes_problem(parent, header, lambda h: recorded(h, str(path)))
    state: LinkState = "false" if problem else "holds"
    return Link(path=path, state=state, why=problem, header=parent.header, end=end)


def _without_path(message: str, path: Any) -> str:
    return printable(message.removeprefix(f"{path}: "))


def changes_problem(parent: LogFile, child: LogHeader, recorded: Callable[[LogHeader], Recorded]) -> str:
    """How the what-if whose header is ``child`` is not ``parent`` with exactly the changes it declares
    ("" when it is): a change that cannot be read or made to the parent, or the scenario fields that
    differ from the parent's with the changes made."""
    declared = child.changes if child.changes is not msgspec.UNSET else []
    try:
        scenario = declared_scenario(parent, [parse_declared(text) for text in declared], recorded)
        expected = _normal(
            msgspec.structs.replace(parent.header, scenario=msgspec.Raw(ENCODER.encode(scenario))), recorded
        )
    except AffrayError as exc:
        return f"its declared changes cannot be made to it: {printable(str(exc))}"
    try:
        actual = _normal(child, recorded)
    except AffrayError as exc:
        return f"its own scenario cannot be read: {printable(str(exc))}"
    fields = differences(expected, actual)
    if not fields:
        return ""
    listed = "; ".join(
        f"$.{f.path}: parent with the changes {_value(f.a)}, what-if {_value(f.b)}" for f in fields[:3]
    )
    more = f" (and {len(fields) - 3} more)" if len(fields) > 3 else ""
    return f"its scenario is not the parent's with exactly {_changes(declared)}: {listed}{more}"


def _changes(declared: Sequence[str]) -> str:
    return printable("; ".join(declared)) if declared else "no change"


def _value(value: Any) -> str:
    return printable(shown(value, QUOTE_LIMIT)) if value is not None else "absent"


def _normal(header: LogHeader, recorded: Callable[[LogHeader], Recorded]) -> dict[str, Any]:
    """A header's scenario as this affray writes it, every default written out and the dice algorithm
    with it: two scenarios that load alike compare alike, whichever version of affray wrote them."""
    what = recorded(header)
    written = what.ruleset.header(what.scenario, what.modules)
    scenario: dict[str, Any] = with_algorithm(_SCENARIO.decode(written.scenario), written.dice)
    return scenario


def parse_declared(text: str) -> Change:
    """A change as a what-if's header declares it (``str`` of a RollChange, RulingChange or
    IntentChange), read back; AffrayError when it is none of them."""
    ruling = _RULING.match(text)
    if ruling is not None:
        return RulingChange(int(ruling["seq"]), ruling["effect"], ruling["value"], ruling["reason"])
    intent = _INTENT.match(text)
    if intent is not None:
        return IntentChange(
            int(intent["seq"]), intent["who"], intent["key"], intent["value"], intent["reason"] or ""
        )
    try:
        return parse_change(text)
    except AffrayError:
        raise AffrayError(f"{printable(text[:QUOTE_LIMIT])!r} is no change affray whatif makes") from None


def declared_scenario(
    parent: LogFile, changes: Sequence[Change], recorded: Callable[[LogHeader], Recorded]
) -> dict[str, Any]:
    """The parent's scenario with ``changes`` made as ``affray whatif`` makes them; AffrayError when one
    cannot be made to this parent."""
    rolls = logged_rolls(parent.events)
    for roll in changes:
        if isinstance(roll, RollChange):
            check_change(roll, rolls, None)
    scenario = recorded_mapping(parent.header)
    return scenario_with(scenario, parent.events, changes, lambda: recorded(parent.header).ruleset)
