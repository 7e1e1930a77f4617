"""Recorded fights as regression tests: a log re-simulated under today's rules and tables, and sorted.

A log is ``unchanged`` (it verifies), ``changed`` (it is whole, but today's rules make another fight of
it: where the events first part, the fields that differ, and how the outcome differs), ``damaged`` (its
chain, its lines or its fold break: edited by hand, cut short, not affray's), ``unreadable`` (not an
affray log at all), ``other_version`` (made under a version of its ruleset this affray does not
simulate: read and chain-checked, not re-simulated) or ``sealed`` (a players' copy, whose seed and sealed
rolls are withheld: read, chain-checked and folded, not re-simulated). ``affray regress`` is the command
over it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Literal

import msgspec

from affray.errors import AffrayError
from affray.events.base import Event
from affray.events.codec import LogHeader, Pins, encode_log
from affray.events.reader import LogFile
from affray.kernel.ruleset import Recorded
from affray.replays.diff import FieldDifference, diff_logs, outcome_differences
from affray.replays.verify import Finding, resimulate, verify

Sort = Literal["unchanged", "changed", "damaged", "unreadable", "other_version", "sealed"]
SORTS: dict[Finding, Sort] = {
    "ok": "unchanged",
    "changed": "changed",
    "damaged": "damaged",
    "other_version": "other_version",
}
"""The sort of each verify finding."""


class Regression(msgspec.Struct, kw_only=True):
    """What re-simulating one log found: its sort, where it first differs or breaks and why, the fields
    of that event that differ, how the outcome differs, and whether the log was rewritten."""

    path: str
    sort: Sort
    where: str = ""
    message: str = ""
    seq: int | None = None
    fields: list[FieldDifference] = msgspec.field(default_factory=list)
    outcome: list[FieldDifference] = msgspec.field(default_factory=list)
    updated: bool = False
    since: list[str] = msgspec.field(default_factory=list)
    """The data files pinned in its header whose digest differs today (or that are gone): what changed
    since it was made."""

    @property
    def winner_changed(self) -> bool:
        """Whether today's rules give the fight another winner."""
        return any(row.path == "winner" for row in self.outcome)


class _Following:
    """Keeps the re-simulated events; the recorded event at the same place is the one due next."""

    def __init__(self, recorded: list[Event]) -> None:
        self._recorded = recorded
        self.events: list[Event] = []

    def __call__(self, event: Event) -> None:
        self.events.append(event)

    def peek(self) -> Event | None:
        """The recorded event at the place of the next re-simulated one."""
        at = len(self.events)
        return self._recorded[at] if at < len(self._recorded) else None


def regress(path: str, log: LogFile, recorded: Callable[[], Recorded]) -> tuple[Regression, bytes | None]:
    """Sort the log read (canonically) from ``path``; for a changed log, also the log that today's rules
    make of its header and its recorded decisions (what ``--update`` writes)."""
    recorded = cache(recorded)  # the header's scenario is loaded once, for all three uses
    verdict = verify(log, recorded)
    regression = Regression(
        since=_changed_since(log.header, recorded),
        path=path,
        sort=SORTS[verdict.finding],
        where=verdict.where,
        message=verdict.message,
        seq=verdict.seq,
    )
    if verdict.finding != "changed":
        return regression, None
    try:
        what = recorded()
        following = _Following(log.events)
        resimulate(what, following)
    except AffrayError:  # a re-simulation that fails is told by the verdict already
        return regression, None
    header = _today(log.header, what)
    today = LogFile(
        header=header, header_line=b"", vocabulary=log.vocabulary, events=following.events, ended=True
    )
    diff = diff_logs(log, today, ("recorded", "today"))
    regression.fields = diff.parting.fields if diff.parting is not None else []
    regression.outcome = outcome_differences(diff.a, diff.b)
    return regression, encode_log(header, following.events)


def _changed_since(header: LogHeader, recorded: Callable[[], Recorded]) -> list[str]:
    """The data files whose digest in ``header`` differs from today's (none for a log without pins)."""
    if not isinstance(header.pins, Pins):
        return []
    try:
        what = recorded()
    except AffrayError:
        return []
    today = what.ruleset.header(what.scenario, what.modules).pins
    now = today.data if isinstance(today, Pins) else {}
    return sorted(name for name, digest in header.pins.data.items() if now.get(name) != digest)


def _today(old: LogHeader, what: Recorded) -> LogHeader:
    """The header today's affray writes for the log's scenario, keeping a what-if's parent and changes."""
    header = what.ruleset.header(what.scenario, what.modules)
    return msgspec.structs.replace(header, parent=old.parent, changes=old.changes)
