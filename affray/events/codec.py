"""The log: JSON Lines with a header, one event per line, a hash chain, and an end line.

::

    {"format":"affray-log","format_version":1,...,"scenario":{...}}      header
    {"kind":"combatant_joined","seq":1,"t":0,...,"prev":"<hash of line 1>"}
    ...
    {"end":N,"prev":"<hash of the last event line>"}                       end line
    {"signer":"alice",...}                                                  signature lines, if any

Every line is encoded deterministically (struct fields in declaration order, mapping keys sorted, decimals
as JSON numbers). ``prev`` is the BLAKE2b-128 hex digest of the previous line's bytes (without its newline),
so an edit, insertion, deletion, reordering or cut is found at the first line that no longer chains.
No line is longer than ``MAX_LINE_BYTES``. Reading is ``affray.events.reader``'s; the signature lines
that may follow the end line are ``affray.events.signature``'s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import msgspec

from affray.errors import LogError
from affray.events.base import Event
from affray.events.output import Output, OutputFile, take_notices
from affray.events.sealed import Sealed, Sealing

FORMAT_VERSION = 1


class Parent(msgspec.Struct, frozen=True, kw_only=True):
    """The log a what-if was made from: where it was, relative to the what-if's folder, and the hash of
    its end line, which the chain makes a hash of the whole log."""

    log: str
    end: str


class Pins(msgspec.Struct, frozen=True, kw_only=True):
    """What a log was made with beyond its ruleset's version: each module's version, and a digest of each
    data file (chart, table) of the ruleset and modules, named ``owner/file``: BLAKE2b, 16 bytes, hex."""

    modules: dict[str, str] = msgspec.field(default_factory=dict)
    data: dict[str, str] = msgspec.field(default_factory=dict)


class LogHeader(msgspec.Struct, frozen=True, kw_only=True):
    """The first line: what wrote the log, under which rules, from which scenario and seed; for a what-if,
    the log it was made from and the changes made (neither is written otherwise)."""

    format: Literal["affray-log"] = "affray-log"
    format_version: int = FORMAT_VERSION
    affray_version: str
    ruleset: str
    ruleset_version: str
    dice: str
    seed: int | Sealed
    """The encounter seed; in a players' copy, sealed (affray.events.sealed)."""
    event_versions: dict[str, int]
    scenario: msgspec.Raw
    parent: Parent | msgspec.UnsetType = msgspec.UNSET
    changes: list[str] | msgspec.UnsetType = msgspec.UNSET
    pins: Pins | msgspec.UnsetType = msgspec.UNSET
    """Written by affray since module versions and data digests were pinned; older logs have none."""
    sealed: Sealing | msgspec.UnsetType = msgspec.UNSET
    """Only in a players' copy (``affray redact``): what it withholds."""


class LogEnd(msgspec.Struct, frozen=True, kw_only=True):
    """The last line: how many events the log holds, chained to the last of them."""

    end: int
    prev: str


ENCODER = msgspec.json.Encoder(decimal_format="number", order="deterministic")
PREV_KEY = b',"prev":"'
"""How an event line's last member begins."""
END_PREFIX = b'{"end":'
"""How the end line begins."""
MAX_LINE_BYTES = 4 * 1024 * 1024
"""The longest line a log may hold, newline aside (4 MiB): readers refuse a longer one unread, so that
reading a log takes memory for its state and one line whatever its length."""


def line_hash(line: bytes) -> str:
    """The chain hash of one line (its bytes without the newline)."""
    return hashlib.blake2b(line, digest_size=16).hexdigest()


def encode_header(header: LogHeader) -> bytes:
    """The header line's bytes."""
    return ENCODER.encode(header)


def _too_long(where: object, what: str, line: bytes) -> LogError:
    return LogError(
        f"{where}: {what} would be {len(line):,} bytes, longer than the {MAX_LINE_BYTES:,} a log line may "
        "hold (docs/log-format.md)"
    )


def _header_line(header: LogHeader, where: object) -> bytes:
    line = encode_header(header)
    if len(line) > MAX_LINE_BYTES:
        raise _too_long(where, "the header line, which holds the scenario,", line)
    return line


def encode_event(event: Event, prev: str) -> bytes:
    """An event line's bytes: the event's JSON with ``prev`` as its last member."""
    body = ENCODER.encode(event)
    return b'%s%s%s"}' % (body[:-1], PREV_KEY, prev.encode())


def encode_end(count: int, prev: str) -> bytes:
    """The end line's bytes."""
    return ENCODER.encode(LogEnd(end=count, prev=prev))


class LogWriter:
    """Appends a log line by line to an ``output``; every write is whole lines, so a crash leaves a
    readable prefix."""

    def __init__(self, output: Output, header: LogHeader) -> None:
        self._output = output
        self._count = 0
        line = _header_line(header, self._where())
        self._prev = line_hash(line)
        self._put(line + b"\n")

    @classmethod
    def create(cls, path: Path, header: LogHeader, *, replace: bool = False) -> LogWriter:
        """A log for ``path``, written beside it until ``close`` puts it in place (see OutputFile); an
        existing file is refused unless ``replace``, and so is a second writer."""
        return cls.into(lambda: OutputFile(path, replace=replace), header, path)

    @classmethod
    def into(cls, output: Callable[[], Output], header: LogHeader, where: object) -> LogWriter:
        """A log written to the output that ``output()`` makes. A header longer than a log line may be (a
        scenario too large to record) is refused before the output is made (errors name ``where``)."""
        _header_line(header, where)
        made = output()
        try:
            return cls(made, header)
        except BaseException:
            made.keep_partial()
            raise

    @property
    def writing(self) -> object:
        """Where the lines go until ``close`` (a temporary file or encounter)."""
        return self._output.writing

    def notices(self) -> list[str]:
        """What the output has to tell the user since last asked (``OutputFile.notices``)."""
        return take_notices(self._output)

    def _where(self) -> object:
        return self._output.target

    def _cannot(self, exc: OSError) -> LogError:
        return LogError(f"{self._where()}: cannot write: {exc.strerror or exc}")

    def _put(self, data: bytes) -> None:
        try:
            self._output.write(data)
        except OSError as exc:
            raise self._cannot(exc) from None

    def write(self, event: Event) -> None:
        """Append one event line."""
        line = encode_event(event, self._prev)
        if len(line) > MAX_LINE_BYTES:
            raise _too_long(self._where(), f"the line of seq {event.seq}", line)
        self._prev = line_hash(line)
        self._count += 1
        self._put(line + b"\n")

    def abandon(self, *, keep_empty: bool = False) -> object | None:
        """Stop without an end line, keeping the log of a failed run as far as it went; return where
        (None when it holds no event, and is not kept, unless ``keep_empty``: a stopped run keeps its
        header)."""
        if self._count == 0 and not keep_empty:
            self._output.discard()
            return None
        return self._output.keep_partial()

    def discard(self) -> None:
        """Stop and keep nothing: for a log made from another, which can be made again."""
        self._output.discard()

    def close(self) -> None:
        """Append the end line and put the log in place."""
        try:
            self._put(encode_end(self._count, self._prev) + b"\n")
        except LogError:
            self.abandon()
            raise
        self._output.commit()


def encode_log(header: LogHeader, events: list[Event]) -> bytes:
    """A whole log in memory: the same bytes LogWriter writes."""
    lines = [encode_header(header)]
    prev = line_hash(lines[0])
    for event in events:
        line = encode_event(event, prev)
        prev = line_hash(line)
        lines.append(line)
    lines.append(encode_end(len(events), prev))
    return b"\n".join(lines) + b"\n"
