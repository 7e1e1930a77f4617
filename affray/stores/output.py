"""One encounter being written into a campaign, with the surface of ``affray.events.output.OutputFile``:
its lines go to a temporary encounter (``.NAME.PID.tmp``), which takes NAME in one transaction when the
write is committed; a failed write is kept as ``NAME.partial`` (``NAME.partial-2``, ...)."""

from __future__ import annotations

import os
import re
from typing import Protocol

from affray.errors import LogError
from affray.files import partial_names


class Taken(Exception):
    """The name a write was to take was made while it was written."""


class Host(Protocol):
    """What an encounter being written needs of its campaign (``affray.stores.sqlite.Campaign``)."""

    def named(self, name: str) -> str:
        """``campaign.sqlite#NAME``."""

    def exists(self, name: str) -> bool:
        """Whether the campaign holds an encounter of that name."""

    def names_starting(self, prefix: str) -> list[str]:
        """The names of the encounters that begin with ``prefix``, sorted."""

    def append(self, name: str, seq: int, line: bytes) -> bool:
        """Add a line at ``seq`` of an encounter."""

    def rename(self, temporary: str, name: str, *, replace: bool) -> None:
        """Give ``temporary`` the name ``name``: Taken when it is taken and not to be replaced."""

    def remove(self, name: str) -> bool:
        """Remove an encounter; whether there was one."""

    def keep_as_partial(self, temporary: str, name: str) -> str | None:
        """Rename ``temporary`` ``NAME.partial`` (or the next free partial name); where, or None."""

    def write_ended(self, output: CampaignOutput) -> None:
        """The campaign's write has ended."""


class CampaignOutput:
    """One encounter being written; the same surface as affray.events.output.OutputFile: ``write`` each
    line, then ``commit``, ``discard`` or ``keep_partial``."""

    def __init__(self, campaign: Host, name: str, *, replace: bool = False) -> None:
        self.name = name
        self.replace = replace
        self.target = campaign.named(name)
        """``campaign.sqlite#NAME``, as the user names it."""
        self._temporary = f".{name}.{os.getpid()}.tmp"
        self.writing = campaign.named(self._temporary)
        """``campaign.sqlite#.NAME.PID.tmp``: the temporary encounter the lines go to until ``commit``."""
        self._campaign = campaign
        self._lines = 0
        self._ended: str | None = None
        self.notices: list[str] = []
        """What the user should be told (a killed run's lines kept, a partial still there)."""
        self._kept: set[str] = set()
        self._keep_left_overs()

    def _keep_left_overs(self) -> None:
        """Keep as partials the temporary encounters of NAME that killed writers left (one writer holds
        a campaign at a time, so any there now was left by a process that is gone), and say so."""
        left = re.compile(rf"\.{re.escape(self.name)}\.[0-9]+\.tmp")
        for name in self._campaign.names_starting(f".{self.name}."):
            if not left.fullmatch(name):
                continue
            kept = self._campaign.keep_as_partial(name, self.name)
            if kept is not None:
                self._kept.add(kept)
                self.notices.append(
                    f"{self.target}: a run that was killed while writing it left {name}; kept as {kept}"
                )

    def _tell_partials_left(self) -> None:
        """Say when partial logs of earlier failed runs are in the campaign beside the one just named."""
        left = []
        for name in partial_names(self.name):
            if not self._campaign.exists(name):
                break
            if self._campaign.named(name) not in self._kept:
                left.append(self._campaign.named(name))
        if left:
            more = f" (and {len(left) - 1} more)" if len(left) > 1 else ""
            self.notices.append(
                f"{self.target}: {left[0]}{more}, from an earlier run that failed, is still in the campaign"
            )

    def _check_going(self) -> None:
        if self._ended is not None:
            raise LogError(f"{self.target}: its write has ended ({self._ended}); nothing more can be done")

    def _end(self, how: str) -> None:
        if self._ended is None:
            self._ended = how
            self._campaign.write_ended(self)

    def write(self, data: bytes) -> None:
        """Append one whole line, ending in its newline (the header first, then the events, then the end
        line), in a transaction of its own."""
        self._check_going()
        if not data.endswith(b"\n") or data.find(b"\n") != len(data) - 1:
            raise LogError(f"{self.target}: a write must be one whole line ending in a newline")
        self._campaign.append(self._temporary, self._lines, bytes(data[:-1]))
        self._lines += 1

    def commit(self) -> None:
        """Give the encounter its name, in one transaction (replacing the old one when asked); a name made
        meanwhile is not replaced: the log is kept as partial and LogError says where."""
        self._check_going()
        if self._lines == 0:
            self._end("nothing was written")
            raise LogError(f"{self.target}: nothing was written to it")
        try:
            self._campaign.rename(self._temporary, self.name, replace=self.replace)
            self._tell_partials_left()
        except Taken:
            kept = self.keep_partial()
            raise LogError(
                f"{self.target}: was made while affray wrote it; the log is kept in {kept}"
            ) from None
        except LogError as exc:
            kept = self.keep_partial()
            raise LogError(f"{exc}; the log is kept in {kept}") from None
        finally:
            self._end("committed")

    def discard(self) -> None:
        """Remove what was written, without taking the name (nothing, once the write has ended)."""
        if self._ended is not None:
            return
        try:
            self._campaign.remove(self._temporary)
        finally:
            self._end("discarded")

    def keep_partial(self) -> str:
        """End without taking the name; keep what was written as ``NAME.partial`` (``NAME.partial-2``, ...
        when taken) and return ``campaign.sqlite#NAME.partial``: the temporary name when that cannot be
        done or nothing was written."""
        self._check_going()
        kept: str | None = None
        try:
            kept = self._campaign.keep_as_partial(self._temporary, self.name)
        except LogError:
            kept = None
        finally:
            self._end("kept as partial")
        return kept or self.writing
