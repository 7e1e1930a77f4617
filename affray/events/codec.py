"""The log: JSON Lines with a header, one event per line, a hash chain, and an end line.

::

    {"format":"affray-log","format_version":2,...,"scenario":{...}}      header
    {"kind":"combatant_joined","seq":1,"t":0,...,"prev":"<hash of the header line>"}
    {"kind":"perceived","seq":2,...}                                        (no prev within a block)
    ...
    {"kind":"attack_resolved","seq":257,...,"prev":"<hash of the lines of seqs 1 to 256>"}
    ...
    {"end":N,"prev":"<hash of the last block's lines>"}                    end line
    {"signer":"alice",...}                                                  signature lines, if any

Every line is encoded deterministically (struct fields in declaration order, mapping keys sorted, decimals
as JSON numbers). Format 2 chains **blocks** of ``BLOCK_LINES`` event lines: the first line of each block
(seq 1, 257, 513, ...) and the end line end with ``prev``, the BLAKE2b-128 hex digest of the block before
(its lines' bytes, each with its newline; the header line is the block before seq 1), so a change anywhere
is found at the block that holds it, with one hash call per block. Format 1, read forever, wrote ``prev``
on every line: the digest of the line before, without its newline. No line is longer than
``MAX_LINE_BYTES``, no block longer than ``MAX_BLOCK_BYTES``. Reading is ``affray.events.reader``'s; the
signature lines that may follow the end line are ``affray.events.signature``'s.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import msgspec

from affray.errors import LogError
from affray.events.base import Event
from affray.events.output import Output, OutputFile, take_notices
from affray.events.sealed import Sealed, Sealing

FORMAT_VERSION = 2
"""The format affray writes, and the newest it reads (docs/log-format.md)."""
BLOCK_LINES = 256
"""Event lines per block of a format 2 log's chain."""
MAX_BLOCK_BYTES = 16 * 1024 * 1024
"""The most bytes a format 2 block's lines may hold, newlines included (16 MiB): a reader holds a block's
events until the block's hash is checked, so this bounds what it holds."""


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


class TooLong(LogError):
    """A line, or a block of lines, longer than a log may hold: what it is, how long it would be, the
    limit and what the limit is of (``line`` or ``block``)."""

    def __init__(self, what: str, length: int, limit: int = MAX_LINE_BYTES, of: str = "line") -> None:
        self.what, self.length, self.limit, self.of = what, length, limit, of
        super().__init__(self._said())

    def _said(self) -> str:
        return (
            f"{self.what} would be {self.length:,} bytes, longer than the {self.limit:,} a log {self.of} may "
            "hold (docs/log-format.md)"
        )

    def at(self, where: object) -> LogError:
        """The same, said of ``where`` (the log being written)."""
        return LogError(f"{where}: {self._said()}")


def _header_line(header: LogHeader, where: object) -> bytes:
    line = encode_header(header)
    if len(line) > MAX_LINE_BYTES:
        raise TooLong("the header line, which holds the scenario,", len(line)).at(where)
    return line


def encode_event(event: Event, prev: str) -> bytes:
    """An event line's bytes: the event's JSON with ``prev`` as its last member."""
    body = ENCODER.encode(event)
    return b'%s%s%s"}' % (body[:-1], PREV_KEY, prev.encode())


def starts_block(seq: int) -> bool:
    """Whether the line of ``seq`` begins a block in a format 2 log (and so ends with ``prev``)."""
    return seq % BLOCK_LINES == 1


def block_hash(lines: bytes) -> str:
    """The chain hash of a format 2 block: of its lines' bytes, each with its newline."""
    return hashlib.blake2b(lines, digest_size=16).hexdigest()


def encode_end(count: int, prev: str) -> bytes:
    """The end line's bytes."""
    return ENCODER.encode(LogEnd(end=count, prev=prev))


class Chained:
    """A log's lines made one after another, each chained as its format says: every event line with
    ``prev`` (format 1), or the first line of each block (format 2); then the end line."""

    def __init__(self, header_line: bytes, format_version: int) -> None:
        self.blocks = format_version >= 2
        self.count = 0
        self._block = [header_line + b"\n"]
        self.block_bytes = len(self._block[0])
        self._prev = block_hash(self._block[0]) if self.blocks else line_hash(header_line)

    def event(self, event: Event) -> bytes:
        """The event's line, newline included (the event being the next seq); see ``line``."""
        return self.line(ENCODER.encode(event), event.seq)

    def line(self, body: bytes, seq: int) -> bytes:
        """The line of seq ``seq`` whose JSON object, without ``prev``, is ``body``: with ``prev`` where the
        format puts one, and its newline. A line longer than a log line may be, or one that would bring its
        block past its bound, raises ``TooLong`` (what it is) and changes nothing."""
        starting = not self.blocks or starts_block(seq)
        prev = (block_hash(b"".join(self._block)) if self.blocks else self._prev) if starting else ""
        line = (b'%s%s%s"}' % (body[:-1], PREV_KEY, prev.encode()) if starting else body) + b"\n"
        if len(line) > MAX_LINE_BYTES + 1:
            raise TooLong(f"the line of seq {seq}", len(line) - 1)
        held = len(line) + (0 if starting else self.block_bytes)
        if self.blocks and held > MAX_BLOCK_BYTES:
            raise TooLong(f"the block of lines ending at seq {seq}", held, MAX_BLOCK_BYTES, "block")
        self.count += 1
        if not self.blocks:
            self._prev = line_hash(line[:-1])
        elif starting:
            self._prev, self._block = prev, [line]
        else:
            self._block.append(line)
        self.block_bytes = held
        return line

    def end(self) -> bytes:
        """The end line, newline included: it chains to the last line (format 1) or block (format 2; the
        header when there is no event)."""
        prev = block_hash(b"".join(self._block)) if self.blocks else self._prev
        return encode_end(self.count, prev) + b"\n"


class LogWriter:
    """Appends a log line by line to an ``output``; every write is whole lines, so a crash leaves a
    readable prefix."""

    def __init__(self, output: Output, header: LogHeader) -> None:
        self._output = output
        line = _header_line(header, self._where())
        self._lines = Chained(line, header.format_version)
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
        try:
            line = self._lines.event(event)
        except TooLong as refused:
            raise refused.at(self._where()) from None
        self._put(line)

    def abandon(self, *, keep_empty: bool = False) -> object | None:
        """Stop without an end line, keeping the log of a failed run as far as it went; return where
        (None when it holds no event, and is not kept, unless ``keep_empty``: a stopped run keeps its
        header)."""
        if self._lines.count == 0 and not keep_empty:
            self._output.discard()
            return None
        return self._output.keep_partial()

    def discard(self) -> None:
        """Stop and keep nothing: for a log made from another, which can be made again."""
        self._output.discard()

    def close(self) -> None:
        """Append the end line and put the log in place."""
        try:
            self._put(self._lines.end())
        except LogError:
            self.abandon()
            raise
        self._output.commit()


class _Format(msgspec.Struct):
    format_version: int = FORMAT_VERSION


def format_of(header_line: bytes) -> int:
    """The format version a header line names (today's when it names none); ValueError when it is no
    JSON object."""
    try:
        return msgspec.json.decode(header_line, type=_Format).format_version
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
        raise ValueError(f"not a log header: {exc}") from None


_PREV_TAIL = re.compile(rb',"prev":"[^"]*"}\Z')


def rechained(lines: list[bytes]) -> bytes:
    """A log from a header line and event lines (each without its newline, with or without a ``prev``,
    a stale end line after them or not), chained again as the header's format says: every ``prev`` put
    where the format puts one and recomputed, and a fresh end line. What a careful forger does, so tests
    and the contract suites make one; ValueError when a line does not end as a JSON object."""
    header, *events = lines
    if events and events[-1].startswith(END_PREFIX):
        events.pop()
    chained = Chained(header, format_of(header))
    made = [header + b"\n"]
    for seq, line in enumerate(events, 1):
        body = _PREV_TAIL.sub(b"}", line)
        if not body.endswith(b"}"):
            raise ValueError(f"line {seq + 1} does not end as a JSON object")
        made.append(chained.line(body, seq))
    made.append(chained.end())
    return b"".join(made)


def encode_log(header: LogHeader, events: list[Event]) -> bytes:
    """A whole log in memory: the same bytes LogWriter writes."""
    lines = Chained(encode_header(header), header.format_version)
    made = [encode_header(header) + b"\n"]
    made += [lines.event(event) for event in events]
    made.append(lines.end())
    return b"".join(made)
