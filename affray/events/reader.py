"""Reading a log line by line: the header at once, then each event once the chain confirms it.

A reader holds one line at a time, so a log of any length takes memory for the caller's state and one
line: every line is read with ``MAX_LINE_BYTES`` as its bound, and a longer one is a problem, not read on.
The first thing wrong (a line that does not decode, chain, count or keep time) ends the events and is
recorded as the reader's ``problem``; every event before it is still read.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Callable, Iterator
from decimal import Decimal
from hashlib import blake2b
from pathlib import Path
from types import TracebackType
from typing import IO, Any

import msgspec

from affray.errors import LogError, briefly, excerpt, open_user_file
from affray.events.base import Event
from affray.events.canonical import is_canonical
from affray.events.codec import (
    BLOCK_LINES,
    ENCODER,
    END_PREFIX,
    FORMAT_VERSION,
    MAX_BLOCK_BYTES,
    MAX_LINE_BYTES,
    PREV_KEY,
    LogEnd,
    LogHeader,
    block_hash,
    encode_header,
    line_hash,
    starts_block,
)
from affray.events.players_copy import header_problem, unsealing
from affray.events.sealed import Sealing
from affray.events.signature import (
    MAX_SIGNATURE_BYTES,
    SIGNATURE_PREFIX,
    DamagedSignature,
    LogSignature,
    decode_signature,
)
from affray.events.signature import TOO_LONG as SIGNATURE_TOO_LONG
from affray.events.upcast import lacks_a_step, upcast
from affray.events.vocabulary import Vocabulary

_HEADER_DECODER = msgspec.json.Decoder(LogHeader)
_END_DECODER = msgspec.json.Decoder(LogEnd)
_RECORD_DECODER = msgspec.json.Decoder(dict[str, Any], float_hook=Decimal)


class _Prev(msgspec.Struct):
    """A line's ``prev`` member alone, the others skipped."""

    prev: object = None


_PREV_DECODER = msgspec.json.Decoder(_Prev)
_UNKNOWN_KIND = re.compile(r"Invalid value '(.*)' - at `\$\.kind`")
NOT_CANONICAL = "is not written as affray writes it (a member added, repeated, reordered or reformatted)"
TOO_LONG = f"is longer than the {MAX_LINE_BYTES:,} bytes a log line may hold; it is not read"


class UnreadableHeader(LogError):
    """The first line is not a log header: the file is no log, or a log whose header was damaged."""


Resolver = Callable[[LogHeader, str], Vocabulary[Any]]
"""``resolve(header, source)``: the vocabulary of the log's ruleset and modules, or LogError naming
``source`` (an unknown ruleset, say). ``affray.rulesets.vocabulary_for`` resolves with the registry."""


class Position(msgspec.Struct, frozen=True, kw_only=True):
    """Where an event's line is in its log file: its seq, the byte offset the line starts at, the hash of
    the line (in format 1, what the next line records as its ``prev``), the event's time, and in format 2
    the byte offset of the first line of its block (-1 in format 1)."""

    seq: int
    offset: int
    hash: str
    t: int
    block: int = -1


class LogProblem(msgspec.Struct, frozen=True, kw_only=True):
    """The first thing wrong in a log: the line (1-based), the seq there (0 for the header), and what."""

    line: int
    seq: int
    message: str

    def where(self) -> str:
        """``line 8 (seq 7)``, or ``line 1 (header)``."""
        return f"line {self.line} ({f'seq {self.seq}' if self.seq else 'header'})"


def _header(line: bytes, source: str, resolve: Resolver) -> tuple[LogHeader, Vocabulary[Any]]:
    """The header and the vocabulary to read the events with; LogError when this affray cannot read them.

    ``event_versions`` is checked for the kinds of the vocabulary, under their names of today or their
    former ones; other kinds it lists are ignored (logs of format 1 written by affray 0.1 list the kinds
    of every ruleset).
    """
    if not line.startswith(b"{"):
        raise UnreadableHeader(f"{source}: line 1 is not an affray log header{_scenario_hint(line)}")
    try:
        header = _HEADER_DECODER.decode(line)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise UnreadableHeader(
            f"{source}: line 1 is not an affray log header ({briefly(str(exc))})"
        ) from None
    if header.format_version > FORMAT_VERSION:
        raise LogError(
            f"{source}: log format version {header.format_version} is newer than this affray reads "
            f"({FORMAT_VERSION})"
        )
    if header.format_version < 1:
        version = header.format_version
        raise LogError(f"{source}: line 1: log format version {version} is no version affray ever wrote")
    sealing = header_problem(header)
    if sealing:
        raise LogError(f"{source}: line 1: {sealing}")
    vocabulary = resolve(header, source)
    for recorded_as, version in header.event_versions.items():
        kind = vocabulary.aliases.get(recorded_as, recorded_as)
        current = vocabulary.versions.get(kind)
        if current is None:
            continue
        if version > current:
            raise LogError(
                f"{source}: line 1: {recorded_as} version {version} is newer than this affray ({current})"
            )
        if lacks_a_step(vocabulary.upcasters, kind, version, current):
            raise LogError(f"{source}: line 1: no upcaster brings {kind} from version {version} to {current}")
    return header, vocabulary


def recorded_otherwise(header: LogHeader, vocabulary: Vocabulary[Any]) -> dict[str, int]:
    """The kinds the log records otherwise than this affray writes them, by the name the log gives them:
    under a former name (an alias), or an older version; each with the version recorded."""
    current = vocabulary.versions
    aliases = vocabulary.aliases
    return {
        name: version
        for name, version in header.event_versions.items()
        if name in aliases or (name in current and version < current[name])
    }


def _decoder_for(header: LogHeader, vocabulary: Vocabulary[Any]) -> Callable[[bytes], Event]:
    """A function bytes -> Event that reads kinds under their former names and upcasts those recorded
    under older versions; in a players' copy, puts its sealed values in place (players_copy.py)."""
    decode = _upcasting_decoder(header, vocabulary)
    if isinstance(header.sealed, Sealing):
        return unsealing(decode, vocabulary, header.sealed)
    return decode


def _upcasting_decoder(header: LogHeader, vocabulary: Vocabulary[Any]) -> Callable[[bytes], Event]:
    otherwise = recorded_otherwise(header, vocabulary)
    if not otherwise:
        return vocabulary.decoder.decode
    aliases, current = vocabulary.aliases, vocabulary.versions

    def decode(line: bytes) -> Event:
        record = _RECORD_DECODER.decode(line)
        name = str(record.get("kind"))
        recorded = otherwise.get(name)
        if recorded is not None:
            kind = record["kind"] = aliases.get(name, name)
            record = upcast(vocabulary.upcasters, record, recorded, current[kind])
        record.pop("prev", None)
        event: Event = msgspec.convert(record, vocabulary.union)
        return event

    return decode


class _Broken(Exception):
    """A problem found while reading; ``drop_last`` when it lies in the event already accepted."""

    def __init__(self, problem: LogProblem, *, drop_last: bool = False) -> None:
        self.problem = problem
        self.drop_last = drop_last


def _at(seq: int, message: str) -> _Broken:
    return _Broken(LogProblem(line=seq + 1, seq=seq, message=message))


def _not_utf8(data: bytes) -> str | None:
    """Why ``data`` is not UTF-8 throughout (a log is UTF-8 text, and a decoder may skip a member without
    reading it), or None when it is."""
    if data.isascii():
        return None
    try:
        data.decode()
    except UnicodeDecodeError as exc:
        return f"not UTF-8: {exc.reason} at byte {exc.start + 1}"
    return None


def _in_order(events: list[Event], first: int, t: int) -> bool:
    """Whether ``events`` hold the seqs from ``first`` on, one after another, and no time before ``t``
    or before the event's before."""
    for seq, event in enumerate(events, first):
        if event.seq != seq or event.t < t:
            return False
        t = event.t
    return True


def _prev_beside_a_huge_number(line: bytes) -> object:
    """The ``prev`` of a line of JSON that holds a number out of any decoder's range (None when ``prev`` is
    that number)."""
    try:
        return _PREV_DECODER.decode(line).prev
    except msgspec.ValidationError:
        return None


class _Chain:
    """Checks event lines one after another (decoding, seq, time, hash chain) and decodes them; with
    ``canonical``, that each line is in the form affray writes (kinds read under a former name or through
    an upcaster aside)."""

    def __init__(
        self,
        header_line: bytes,
        header: LogHeader,
        vocabulary: Vocabulary[Any],
        canonical: bool = False,
        folding: bool = False,
    ) -> None:
        self._whole = _decoder_for(header, vocabulary)
        self._decode = self._whole
        plain = not recorded_otherwise(header, vocabulary) and not isinstance(header.sealed, Sealing)
        if folding and plain:
            self._decode = vocabulary.fold_decoder.decode
        self._lines_decoder: msgspec.json.Decoder[Any] | None = None
        """What decodes a whole block of lines at once, when nothing is read line by line (upcast, unsealed,
        held to its form)."""
        if plain and not canonical:
            self._lines_decoder = vocabulary.fold_decoder if folding else vocabulary.decoder
        self._canonical = canonical
        self._otherwise = {
            vocabulary.aliases.get(name, name) for name in recorded_otherwise(header, vocabulary)
        }
        self._vocabulary = vocabulary
        self.blocks = header.format_version >= 2
        self._block = [header_line + b"\n"]
        self._block_bytes = 0
        self._prev = line_hash(header_line)
        self._suffix = b'%s%s"}' % (PREV_KEY, self._prev.encode())
        self.count = 0
        self._t = 0
        self.end_hash: str | None = None

    @property
    def prev(self) -> str:
        """The hash of the last line checked."""
        return self._prev

    def _invalid(self, message: str) -> str:
        unknown = _UNKNOWN_KIND.fullmatch(message)
        if unknown:
            return f"unknown event kind {excerpt(unknown.group(1))!r} (not a kind of {self._vocabulary.name})"
        return f"not a valid event ({briefly(message)})"

    def _previous_changed(self, by: str) -> _Broken:
        """The line before (in format 2, the block before) no longer hashes to the ``prev`` that the
        current line, ``by``, records."""
        if self.blocks and self.count:
            return self._block_changed(by)
        if self.count == 0:
            return _Broken(
                LogProblem(
                    line=1, seq=0, message="the header was changed: the first event does not chain to it"
                )
            )
        return _Broken(
            LogProblem(
                line=self.count + 1,
                seq=self.count,
                message="this line was changed: its hash no longer matches the prev the next line records",
            ),
            drop_last=True,
        )

    def _block_changed(self, by: str) -> _Broken:
        """The block before no longer hashes to the ``prev`` that ``by`` (a line named) records."""
        first = self.count - len(self._block) + 1
        return _Broken(
            LogProblem(
                line=first + 1,
                seq=first,
                message=(
                    f"lines {first + 1} to {self.count + 1} (seqs {first} to {self.count}) were changed: "
                    f"their hash no longer matches the prev that {by} records"
                ),
            ),
            drop_last=True,
        )

    def _unchained(self, line: bytes, seq: int) -> _Broken:
        """A line that does not end in ``"prev":"<the hash of the line before>"}``: when it is no JSON after
        all (its ``prev``, skipped as no member of the kind, is not valid UTF-8, say), or its ``prev`` member
        holds that hash anyway (whitespace after its closing brace, a member after ``prev``), the line
        itself is at fault; else the line before was changed."""
        try:
            recorded = _RECORD_DECODER.decode(line).get("prev")
        except msgspec.ValidationError:  # JSON, with a number beyond what a decoder holds (5,000 nines)
            recorded = _prev_beside_a_huge_number(line)
        except (msgspec.DecodeError, RecursionError) as exc:  # a member skipped as unknown was no JSON
            return _at(seq, f"not a valid event ({briefly(str(exc))})")
        if recorded == self._prev:
            return _at(
                seq, "does not end with its prev as affray writes it (the prev member last, nothing after)"
            )
        return self._previous_changed(f"line {seq + 1} (seq {seq})")

    def _decoded(self, line: bytes, seq: int) -> Event:
        """The event line of ``seq`` decoded; _Broken when it is none (not UTF-8 throughout, a member the
        decoder skips included), or holds another seq."""
        unreadable = _not_utf8(line)
        if unreadable:
            raise _at(seq, f"not a valid event ({unreadable})")
        try:
            event: Event = self._decode(line)
        except msgspec.ValidationError as exc:
            raise _at(seq, self._invalid(str(exc))) from None
        except (msgspec.DecodeError, RecursionError) as exc:
            raise _at(seq, f"not a valid event ({exc})") from None
        if event.seq != seq:
            raise _at(seq, f"holds seq {event.seq} (a line was inserted, removed, duplicated or moved here)")
        return event

    def event(self, line: bytes) -> Event:
        """Check and decode the next event line."""
        seq = self.count + 1
        event = self._decoded(line, seq)
        if not line.endswith(self._suffix):
            raise self._unchained(line, seq)
        if self._canonical and not self._written_as_affray_writes(line, event):
            raise _at(seq, NOT_CANONICAL)
        if event.t < self._t:
            raise _at(seq, f"time runs backwards ({event.t} ms after {self._t} ms)")
        self._t = event.t
        self._prev = hashed = blake2b(line, digest_size=16).hexdigest()
        self._suffix = PREV_KEY + hashed.encode() + b'"}'
        self.count = seq
        return event

    def block_event(self, raw: bytes) -> Event:
        """Check and decode the next event line of a format 2 log, ``raw`` with its newline: at the first
        line of a block, that its ``prev`` is the hash of the block before."""
        seq = self.count + 1
        line = raw[:-1]
        event = self._decoded(line, seq)
        starting = starts_block(seq)
        if starting:
            self._prev = block_hash(b"".join(self._block))
            self._suffix = b'%s%s"}' % (PREV_KEY, self._prev.encode())
            if not line.endswith(self._suffix):
                raise self._unchained(line, seq)
            self._block, self._block_bytes = [], 0
        if self._canonical and not self._written_as_affray_writes(line, event, starting):
            raise _at(seq, NOT_CANONICAL)
        if event.t < self._t:
            raise _at(seq, f"time runs backwards ({event.t} ms after {self._t} ms)")
        self._block_bytes += len(raw)
        if self._block_bytes > MAX_BLOCK_BYTES:
            raise _at(seq, f"passes the {MAX_BLOCK_BYTES:,} bytes a block of lines may hold; it is not read")
        self._block.append(raw)
        self._t = event.t
        self.count = seq
        return event

    def lines(self, raws: list[bytes]) -> list[Event] | None:
        """The events of ``raws``, the next lines up to the end of their block (each with its newline), all
        checked at once: decoded in one call, seqs and times in order, the block's first line chained to
        the block before, its bytes within bounds. None, and nothing changed, when any of that fails or
        the lines cannot be decoded together: ``block_event``, line by line, then names the problem."""
        if self._lines_decoder is None:
            return None
        data = b"".join(raws)
        if _not_utf8(data):
            return None
        try:
            events: list[Event] = self._lines_decoder.decode_lines(data)
        except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
            return None
        first = self.count + 1
        if len(events) != len(raws) or not _in_order(events, first, self._t):
            return None
        starting = starts_block(first)
        held = len(data) if starting else self._block_bytes + len(data)
        if held > MAX_BLOCK_BYTES:
            return None
        if starting:
            prev = block_hash(b"".join(self._block))
            if not raws[0].endswith(b'%s%s"}\n' % (PREV_KEY, prev.encode())):
                return None
            self._prev, self._block = prev, list(raws)
        else:
            self._block += raws
        self._block_bytes = held
        self.count = events[-1].seq
        self._t = events[-1].t
        return events

    def resume_block(self, block: list[bytes], at: Position) -> None:
        """Go on from the event ``at`` names in a format 2 log, ``block`` being the lines of its block up
        to and with its own, already checked."""
        self._t = at.t
        self._block = block
        self._block_bytes = sum(len(raw) for raw in block)
        self.count = at.seq

    def resume(self, line: bytes, at: Position) -> None:
        """Go on from ``line``, the line of the event ``at`` names, already checked: the next line must be
        seq ``at.seq + 1`` and chain to it."""
        self._t = at.t
        self._prev = line_hash(line)
        self._suffix = b'%s%s"}' % (PREV_KEY, self._prev.encode())
        self.count = at.seq

    def decoded(self, line: bytes) -> Event | None:
        """``line`` decoded whole, unchecked; None when it does not decode."""
        try:
            return self._whole(line)
        except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
            return None

    def _written_as_affray_writes(self, line: bytes, event: Event, chained: bool = True) -> bool:
        if type(event).__struct_config__.tag in self._otherwise:
            return True
        return is_canonical(line, event, ENCODER, self._suffix if chained else b"")

    def end(self, line: bytes) -> None:
        """Check the end line (what follows it is the reader's to check)."""
        after = self.count + 1
        unreadable = _not_utf8(line)
        if unreadable:
            raise _at(after, f"the end line is damaged ({unreadable})")
        try:
            end = _END_DECODER.decode(line)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise _at(after, f"the end line is damaged ({exc})") from None
        if end.end != self.count:
            raise _at(after, f"the end line counts {end.end} events where the log holds {self.count}")
        if self.blocks:
            self._prev = block_hash(b"".join(self._block))
        if end.prev != self._prev:
            raise self._previous_changed("the end line")
        if self._canonical and not is_canonical(line, end, ENCODER):
            raise _at(after, f"the end line {NOT_CANONICAL}")

    def cut(self, partial: bool) -> _Broken:
        """The problem of a log that stops before its end line."""
        what = "a partial line" if partial else "no end line"
        return _at(self.count + 1, f"the log is cut short: {what} after seq {self.count}")


class _Held:
    """Events of a format 2 block read but not yet confirmed, with their lines: ``first``, the byte offset
    of their block's first line, and ``start``, of the first of them (a reading resumed in the middle of a
    block holds only the lines after)."""

    def __init__(self, first: int, start: int) -> None:
        self.first = first
        self.start = start
        self.events: list[Event] = []
        self.raws: list[bytes] = []
        self._offsets: list[int] | None = None

    def add(self, event: Event, raw: bytes) -> None:
        """One more event and its line."""
        self.events.append(event)
        self.raws.append(raw)

    def extend(self, events: list[Event], raws: list[bytes]) -> None:
        """More events, with their lines."""
        self.events += events
        self.raws += raws

    def position(self, seq: int) -> Position:
        """Where the line of event ``seq``, one of these, is."""
        if self._offsets is None:
            self._offsets = list(itertools.accumulate(map(len, self.raws), initial=self.start))
        at = seq - self.events[0].seq
        raw = self.raws[at]
        return Position(
            seq=seq, offset=self._offsets[at], hash=line_hash(raw[:-1]), t=self.events[at].t, block=self.first
        )


class LogReader:
    """A log read from ``stream`` line by line: its ``header`` and ``vocabulary`` at once, its events by
    iterating, once.

    Each event is yielded once the next line has confirmed its hash (in format 2, each block's events once
    the next block's first line or the end line has confirmed the block's; the last at a cut too). The
    first problem ends the events and is then ``problem``, and the events of a block it found changed are
    ``disowned``, not yielded; ``ended`` says the end line was read and holds;
    ``count`` is how many events were yielded, and ``end_hash`` the hash of the end line once it holds
    (the chain makes it a hash of the whole log). The signature lines after the end line are
    ``signatures`` once it is read (affray.events.signature); a damaged one is the problem and
    ``damaged_signature``, any other line there the problem "lines follow the end line". With
    ``canonical``, a line not written as affray writes it is a problem too (for verify). With
    ``folding``, for a caller that only folds the events, a kind whose fold reads only some of its members
    is decoded with those alone (``Vocabulary.fold_decoder``; not in a players' copy, nor for kinds
    recorded under an older version or name); the other members of its lines are skipped unchecked. A
    reader is a context manager that closes its stream.
    """

    def __init__(
        self,
        stream: IO[bytes],
        resolve: Resolver,
        source: str = "<log>",
        *,
        canonical: bool = False,
        folding: bool = False,
    ) -> None:
        if canonical and folding:
            raise ValueError("a canonical reading checks every member: it cannot be one that only folds")
        self._stream = stream
        self.source = source
        self._offset = 0
        first = self._readline()
        if not first:
            raise LogError(f"{source}: the file is empty, not an affray log")
        if not first.endswith(b"\n"):
            long = f" (it {TOO_LONG})" if len(first) > MAX_LINE_BYTES else ""
            raise UnreadableHeader(f"{source}: line 1 is not an affray log header{long}")
        self.header_line = first[:-1]
        self.header, self.vocabulary = _header(self.header_line, source, resolve)
        self.problem: LogProblem | None = None
        self.ended = False
        self.signatures: list[LogSignature] = []
        self.damaged_signature: LogProblem | None = None
        self.disowned: list[Event] = []
        self.count = 0
        self._chain = _Chain(self.header_line, self.header, self.vocabulary, canonical, folding)
        self._started = False
        self._at: tuple[int, str, int, int] | None = None
        """Where the last event yielded is, in format 1 (or the event a format 2 reading resumed after): its
        line's offset, its line's hash, its time, and its block's offset (-1 in format 1)."""
        self._held: _Held | None = None
        """The format 2 block whose events are being yielded."""
        # every member of the header has been in it since format 1: none may be missing, even at its default
        if canonical and self.header_line != encode_header(self.header):
            self.problem = LogProblem(line=1, seq=0, message=f"the header {NOT_CANONICAL}")

    def _readline(self, limit: int = MAX_LINE_BYTES) -> bytes:
        try:
            line = self._stream.readline(limit + 1)
        except OSError as exc:
            raise LogError(f"{self.source}: cannot read: {exc.strerror or exc}") from None
        self._offset += len(line)
        return line

    def resume_after(self, at: Position) -> bool:
        """Read on from the event ``at`` names, not from the start (a seekable file, before any event is
        read): its line must be at ``at.offset``, hold that seq and hash to ``at.hash``, and the lines
        after must chain to it (in format 2, its block is read again from ``at.block`` to be hashed with
        the lines after). False, and the reader as it was, when the line is not so."""
        if self._started or self.problem is not None or at.offset < 0:
            return False
        if (at.block >= 0) != self._chain.blocks:
            return False
        block = self._block_up_to(at) if self._chain.blocks else [self._line_at(at.offset)]
        line = block[-1] if block else b""
        if not (line.endswith(b"\n") and line_hash(line[:-1]) == at.hash and _seq_of(line) == at.seq):
            self._stream.seek(len(self.header_line) + 1)
            self._offset = len(self.header_line) + 1
            return False
        if self._chain.blocks:
            self._chain.resume_block(block, at)
        else:
            self._chain.resume(line[:-1], at)
        self.count = at.seq
        self._at = (at.offset, at.hash, at.t, at.block)
        return True

    def _line_at(self, offset: int) -> bytes:
        self._stream.seek(offset)
        self._offset = offset
        return self._readline()

    def _block_up_to(self, at: Position) -> list[bytes]:
        """The lines of the block ``at`` is in, from ``at.block`` to the line at ``at.offset``, each with its
        newline; [] when they are not so (``at.block`` not where a line begins, its line not the block's
        first seq, more lines or bytes than a block holds, a partial line)."""
        first_seq = at.seq - (at.seq - 1) % BLOCK_LINES
        if not 0 < at.block <= at.offset:
            return []
        self._stream.seek(at.block - 1)
        if self._stream.read(1) != b"\n":
            return []
        self._offset, held = at.block, 0
        lines: list[bytes] = []
        while self._offset < at.offset:
            raw = self._readline()
            held += len(raw)
            if not raw.endswith(b"\n") or held > MAX_BLOCK_BYTES or len(lines) >= BLOCK_LINES:
                return []
            lines.append(raw)
        if self._offset != at.offset or len(lines) != at.seq - first_seq:
            return []
        lines.append(self._readline())
        return lines if _seq_of(lines[0]) == first_seq else []

    def recall(self, at: Position) -> Event | None:
        """The earlier event ``at`` names, read again from its line (a seekable file, before the events are
        read on): None unless the line is at ``at.offset``, holds that seq and hashes to ``at.hash``. The
        reading goes on where it was."""
        if self._started or at.offset < 0:
            return None
        here = self._stream.tell()
        try:
            self._stream.seek(at.offset)
            line = self._stream.readline(MAX_LINE_BYTES + 1)
        except OSError:
            return None
        finally:
            self._stream.seek(here)
        if not (line.endswith(b"\n") and _seq_of(line) == at.seq and line_hash(line[:-1]) == at.hash):
            return None
        return self._chain.decoded(line[:-1])

    @property
    def offset(self) -> int:
        """How many bytes of the stream have been read: once the end line and what follows it are read,
        the whole log's length."""
        return self._offset

    @property
    def position(self) -> Position | None:
        """Where the line of the last event yielded is (None before any): affray.replays.snapshots."""
        held = self._held
        if held is not None and held.events and self.count >= held.events[0].seq:
            return held.position(self.count)
        if self._at is None:
            return None
        offset, hashed, t, block = self._at
        return Position(seq=self.count, offset=offset, hash=hashed, t=t, block=block)

    def __iter__(self) -> Iterator[Event]:
        if self._started:
            raise RuntimeError("a LogReader's events are read once")
        self._started = True
        if self.problem is not None:
            return iter(())
        return self._block_events() if self._chain.blocks else self._events()

    def _events(self) -> Iterator[Event]:
        chain = self._chain
        pending: Event | None = None
        pending_at = 0
        try:
            while True:
                start = self._offset
                raw = self._readline()
                if not raw.endswith(b"\n"):
                    if len(raw) > MAX_LINE_BYTES:
                        raise _at(chain.count + 1, f"line {chain.count + 2} {TOO_LONG}")
                    raise chain.cut(partial=bool(raw))
                line = raw[:-1]
                if line.startswith(END_PREFIX):
                    chain.end(line)
                    chain.end_hash = line_hash(line)
                    self._signature_lines(chain.count + 1)
                    self.ended = True
                    break
                before = chain._prev
                event = chain.event(line)
                if pending is not None:
                    self.count += 1
                    self._at = (pending_at, before, pending.t, -1)
                    yield pending
                pending, pending_at = event, start
        except _Broken as broken:
            self.problem = broken.problem
            if broken.drop_last:
                pending = None
        if pending is not None:
            self.count += 1
            self._at = (pending_at, chain.prev, pending.t, -1)
            yield pending

    def _block_events(self) -> Iterator[Event]:
        """The events of a format 2 log: each block's once the next block's first line (or the end line)
        has confirmed its hash; the last block's at a cut too. The lines are read up to the end of their
        block and checked together (``_Chain.lines``), or one by one when that fails, to name the problem."""
        chain = self._chain
        held = _Held(self._offset if self._at is None else self._at[3], self._offset)
        try:
            while True:
                start = self._offset
                raws, last = self._lines_to_block_end()
                events = chain.lines(raws) if raws else []
                if events is None:
                    for raw in raws:
                        event = chain.block_event(raw)
                        if starts_block(event.seq):
                            yield from self._confirmed(held)
                            held = _Held(start, start)
                        held.add(event, raw)
                        start += len(raw)
                elif raws:
                    if starts_block(events[0].seq):
                        yield from self._confirmed(held)
                        held = _Held(start, start)
                    held.extend(events, raws)
                if last is not None:
                    self._last_line(last)
                    break
        except _Broken as broken:
            self.problem = broken.problem
            if broken.drop_last:
                self.disowned = held.events
                held = _Held(self._offset, self._offset)
        yield from self._confirmed(held)

    def _lines_to_block_end(self) -> tuple[list[bytes], bytes | None]:
        """The next event lines up to the end of their block, each with its newline, and the line that
        stopped them short, if one did: the end line, a partial line, or none at the end of the file
        (b""); a block that passes its bound stops them too, for ``block_event`` to name."""
        chain = self._chain
        readline, limit = self._stream.readline, MAX_LINE_BYTES + 1
        raws: list[bytes] = []
        size = 0
        try:
            for _ in range(BLOCK_LINES - chain.count % BLOCK_LINES):
                raw = readline(limit)
                if not raw.endswith(b"\n") or raw.startswith(END_PREFIX):
                    self._offset += size + len(raw)
                    return raws, raw
                raws.append(raw)
                size += len(raw)
                if size > MAX_BLOCK_BYTES:
                    break
        except OSError as exc:
            raise LogError(f"{self.source}: cannot read: {exc.strerror or exc}") from None
        self._offset += size
        return raws, None

    def _last_line(self, raw: bytes) -> None:
        """After the events: the end line (and the signature lines after it), or a cut."""
        chain = self._chain
        if not raw.endswith(b"\n"):
            if len(raw) > MAX_LINE_BYTES:
                raise _at(chain.count + 1, f"line {chain.count + 2} {TOO_LONG}")
            raise chain.cut(partial=bool(raw))
        line = raw[:-1]
        chain.end(line)
        chain.end_hash = line_hash(line)
        self._signature_lines(chain.count + 1)
        self.ended = True

    def _confirmed(self, held: _Held) -> Iterator[Event]:
        if held.events:
            self._held = held
        for event in held.events:
            self.count += 1
            yield event

    def _signature_lines(self, end_seq: int) -> None:
        """Read what follows the end line (seq ``end_seq``): signature lines only, each read with
        ``MAX_SIGNATURE_BYTES`` as its bound. Anything else is the problem "lines follow the end line"; a
        line that begins as a signature line but is none is the problem "the signature line is damaged",
        kept as ``damaged_signature`` too (a user error for the commands that sign and check)."""
        number = end_seq + 1
        while raw := self._readline(MAX_SIGNATURE_BYTES):
            number += 1
            if not raw.startswith(SIGNATURE_PREFIX):
                raise _Broken(LogProblem(line=number, seq=end_seq, message="lines follow the end line"))
            try:
                if not raw.endswith(b"\n"):
                    long = len(raw) > MAX_SIGNATURE_BYTES
                    raise DamagedSignature(SIGNATURE_TOO_LONG if long else "it is cut short (no newline)")
                self.signatures.append(decode_signature(raw[:-1]))
            except DamagedSignature as exc:
                message = f"the signature line is damaged: {exc}"
                damaged = LogProblem(line=number, seq=end_seq, message=message)
                self.damaged_signature = damaged
                raise _Broken(damaged) from None

    @property
    def end_hash(self) -> str | None:
        """The hash of the end line, once it was read and holds (even when what follows it does not: the
        signatures read before a foreign line can still be checked against it)."""
        return self._chain.end_hash

    def close(self) -> None:
        """Close the stream."""
        self._stream.close()

    def __enter__(self) -> LogReader:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


_TOML_START = re.compile(rb"\s*(#|\[|[A-Za-z0-9_\"'-][A-Za-z0-9_.\"' -]*=)")
"""How a scenario's first line begins: a comment, a table, or a key and ``=`` (TOML)."""


def _scenario_hint(line: bytes) -> str:
    """What to say of a file whose first line reads as TOML: it is a scenario, and what runs it."""
    if _TOML_START.match(line) is None:
        return ""
    return "; it reads as a scenario (TOML): `affray run SCENARIO -o LOG` simulates it into a log"


_SEQ = re.compile(rb'"seq":(\d{1,12}),')


def _seq_of(line: bytes) -> int | None:
    """The seq an event line holds, read without decoding it (None if it holds none)."""
    match = _SEQ.search(line, 0, 200)
    return int(match.group(1)) if match else None


def open_log(path: Path, resolve: Resolver, *, canonical: bool = False, folding: bool = False) -> LogReader:
    """A reader of the log at ``path`` (see LogReader); an unreadable file or a missing header raises
    LogError."""
    stream = open_user_file(path, LogError, "a log")
    try:
        return LogReader(stream, resolve, str(path), canonical=canonical, folding=folding)
    except BaseException:
        stream.close()
        raise


class LogFile(msgspec.Struct, kw_only=True):
    """A log read whole: its header, the vocabulary it was read with, every event up to the first
    problem, and that problem if any."""

    header: LogHeader
    header_line: bytes
    vocabulary: Vocabulary[Any]
    events: list[Event]
    ended: bool
    problem: LogProblem | None = None
    disowned: list[Event] = msgspec.field(default_factory=list)
    """The events of a format 2 block that the problem found changed, read but not in ``events``."""

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)


def read_all(reader: LogReader) -> LogFile:
    """Every event ``reader`` reads, held in memory."""
    events = list(reader)
    return LogFile(
        header=reader.header,
        header_line=reader.header_line,
        vocabulary=reader.vocabulary,
        events=events,
        ended=reader.ended,
        problem=reader.problem,
        disowned=reader.disowned,
    )


def read_bytes(
    data: bytes, resolve: Resolver, source: str = "<log>", *, canonical: bool = False, folding: bool = False
) -> LogFile:
    """Read a whole log held in memory (see LogReader)."""
    return read_all(LogReader(io.BytesIO(data), resolve, source, canonical=canonical, folding=folding))


def read_log(path: Path, resolve: Resolver, *, canonical: bool = False) -> LogFile:
    """Read the whole log at ``path`` into memory; an unreadable file or a missing header raises
    LogError."""
    with open_log(path, resolve, canonical=canonical) as reader:
        return read_all(reader)
