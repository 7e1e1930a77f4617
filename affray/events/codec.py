"""The log: JSON Lines with a header, one event per line, a hash chain, and an end line.

::

    {"format":"affray-log","format_version":1,...,"scenario":{...}}      header
    {"kind":"combatant_joined","seq":1,"t":0,...,"prev":"<hash of line 1>"}
    ...
    {"end":N,"prev":"<hash of the last event line>"}                       end line

Every line is encoded deterministically (struct fields in declaration order, mapping keys sorted, decimals
as JSON numbers). ``prev`` is the BLAKE2b-128 hex digest of the previous line's bytes (without its newline),
so an edit, insertion, deletion, reordering or cut is found at the first line that no longer chains.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import IO, Any, Literal

import msgspec

from affray.errors import LogError, read_user_file
from affray.events.base import Event
from affray.events.canonical import is_canonical
from affray.events.output import OutputFile
from affray.events.upcast import missing_steps, upcast
from affray.events.vocabulary import Vocabulary

FORMAT_VERSION = 1


class LogHeader(msgspec.Struct, frozen=True, kw_only=True):
    """The first line: what wrote the log, under which rules, from which scenario and seed."""

    format: Literal["affray-log"] = "affray-log"
    format_version: int = FORMAT_VERSION
    affray_version: str
    ruleset: str
    ruleset_version: str
    dice: str
    seed: int
    event_versions: dict[str, int]
    scenario: msgspec.Raw


class UnreadableHeader(LogError):
    """The first line is not a log header: the file is no log, or a log whose header was damaged."""


Resolver = Callable[[LogHeader, str], Vocabulary[Any]]
"""``resolve(header, source)``: the vocabulary of the log's ruleset and modules, or LogError naming
``source`` (an unknown ruleset, say). ``affray.rulesets.vocabulary_for`` resolves with the registry."""


class LogEnd(msgspec.Struct, frozen=True, kw_only=True):
    """The last line: how many events the log holds, chained to the last of them."""

    end: int
    prev: str


ENCODER = msgspec.json.Encoder(decimal_format="number", order="deterministic")
_HEADER_DECODER = msgspec.json.Decoder(LogHeader)
_END_DECODER = msgspec.json.Decoder(LogEnd)
_RECORD_DECODER = msgspec.json.Decoder(dict[str, Any], float_hook=Decimal)
_PREV_KEY = b',"prev":"'
_END_PREFIX = b'{"end":'
_UNKNOWN_KIND = re.compile(r"Invalid value '(.*)' - at `\$\.kind`")
NOT_CANONICAL = "is not written as affray writes it (a member added, repeated, reordered or reformatted)"


def line_hash(line: bytes) -> str:
    """The chain hash of one line (its bytes without the newline)."""
    return hashlib.blake2b(line, digest_size=16).hexdigest()


def encode_header(header: LogHeader) -> bytes:
    """The header line's bytes."""
    return ENCODER.encode(header)


def encode_event(event: Event, prev: str) -> bytes:
    """An event line's bytes: the event's JSON with ``prev`` as its last member."""
    body = ENCODER.encode(event)
    return b'%s%s%s"}' % (body[:-1], _PREV_KEY, prev.encode())


def encode_end(count: int, prev: str) -> bytes:
    """The end line's bytes."""
    return ENCODER.encode(LogEnd(end=count, prev=prev))


class LogWriter:
    """Appends a log line by line; every write is whole lines, so a crash leaves a readable prefix."""

    def __init__(self, stream: IO[bytes], header: LogHeader, output: OutputFile | None = None) -> None:
        self._stream = stream
        self._output = output
        self._count = 0
        line = encode_header(header)
        self._prev = line_hash(line)
        self._put(line + b"\n")

    @classmethod
    def create(cls, path: Path, header: LogHeader, *, replace: bool = False) -> LogWriter:
        """A log for ``path``, written beside it until ``close`` puts it in place (see OutputFile); an
        existing file is refused unless ``replace``, and so is a second writer."""
        output = OutputFile(path, replace=replace)
        try:
            return cls(output.stream, header, output)
        except BaseException:
            output.keep_partial()
            raise

    @property
    def writing(self) -> Path | None:
        """The file the lines go to until ``close`` (None for a stream of the caller's)."""
        return None if self._output is None else self._output.writing

    def _cannot(self, exc: OSError) -> LogError:
        where = self._output.target if self._output else "the log"
        return LogError(f"{where}: cannot write: {exc.strerror or exc}")

    def _put(self, data: bytes) -> None:
        try:
            self._stream.write(data)
        except OSError as exc:
            raise self._cannot(exc) from None

    def write(self, event: Event) -> None:
        """Append one event line."""
        line = encode_event(event, self._prev)
        self._prev = line_hash(line)
        self._count += 1
        try:
            self._stream.write(line + b"\n")
        except OSError as exc:
            raise self._cannot(exc) from None

    def abandon(self) -> Path | None:
        """Stop without an end line, keeping the log of a failed run as far as it went; return where."""
        if self._output is None:
            self._stream.close()
            return None
        return self._output.keep_partial()

    def close(self) -> None:
        """Append the end line and put the log in place."""
        try:
            self._put(encode_end(self._count, self._prev) + b"\n")
        except LogError:
            self.abandon()
            raise
        if self._output is None:
            self._stream.close()
        else:
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


class LogProblem(msgspec.Struct, frozen=True, kw_only=True):
    """The first thing wrong in a log: the line (1-based), the seq there (0 for the header), and what."""

    line: int
    seq: int
    message: str

    def where(self) -> str:
        """``line 8 (seq 7)``, or ``line 1 (header)``."""
        return f"line {self.line} ({f'seq {self.seq}' if self.seq else 'header'})"


class LogFile(msgspec.Struct, kw_only=True):
    """A log as read: its header, the vocabulary it was read with, every event up to the first problem,
    and that problem if any."""

    header: LogHeader
    header_line: bytes
    vocabulary: Vocabulary[Any]
    events: list[Event]
    ended: bool
    problem: LogProblem | None = None


def _header(line: bytes, source: str, resolve: Resolver) -> tuple[LogHeader, Vocabulary[Any]]:
    """The header and the vocabulary to read the events with; LogError when this affray cannot read them.

    ``event_versions`` is checked for the kinds of the vocabulary; other kinds it lists are ignored
    (logs of format 1 written by affray 0.1 list the kinds of every ruleset).
    """
    try:
        header = _HEADER_DECODER.decode(line)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise UnreadableHeader(f"{source}: line 1 is not an affray log header ({exc})") from None
    if header.format_version > FORMAT_VERSION:
        raise LogError(
            f"{source}: log format version {header.format_version} is newer than this affray reads "
            f"({FORMAT_VERSION})"
        )
    vocabulary = resolve(header, source)
    for kind, version in header.event_versions.items():
        current = vocabulary.versions.get(kind)
        if current is None:
            continue
        if version > current:
            raise LogError(
                f"{source}: line 1: {kind} version {version} is newer than this affray ({current})"
            )
        if missing_steps(vocabulary.upcasters, kind, version, current):
            raise LogError(f"{source}: line 1: no upcaster brings {kind} from version {version} to {current}")
    return header, vocabulary


def _decoder_for(header: LogHeader, vocabulary: Vocabulary[Any]) -> Callable[[bytes], Event]:
    """A function bytes -> Event that upcasts kinds recorded under older versions."""
    current = vocabulary.versions
    old = {k: v for k, v in header.event_versions.items() if k in current and v < current[k]}
    if not old:
        return vocabulary.decoder.decode

    def decode(line: bytes) -> Event:
        record = _RECORD_DECODER.decode(line)
        kind = str(record.get("kind"))
        recorded = old.get(kind)
        if recorded is not None:
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


class _Chain:
    """Checks event lines one after another (decoding, seq, time, hash chain) and decodes them; with
    ``canonical``, that each line is in the form affray writes (kinds read through an upcaster aside)."""

    def __init__(
        self, header_line: bytes, header: LogHeader, vocabulary: Vocabulary[Any], canonical: bool = False
    ) -> None:
        self._decode = _decoder_for(header, vocabulary)
        self._canonical = canonical
        self._upcast = {k for k, v in header.event_versions.items() if v < vocabulary.versions.get(k, v)}
        self._vocabulary = vocabulary
        self._prev = line_hash(header_line)
        self._suffix = b'%s%s"}' % (_PREV_KEY, self._prev.encode())
        self.count = 0
        self._t = 0

    def _invalid(self, message: str) -> str:
        unknown = _UNKNOWN_KIND.fullmatch(message)
        if unknown:
            return f"unknown event kind {unknown.group(1)!r} (not a kind of {self._vocabulary.name})"
        return f"not a valid event ({message})"

    def _previous_changed(self) -> _Broken:
        """The line before no longer hashes to the ``prev`` that the current line records."""
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

    def event(self, line: bytes) -> Event:
        """Check and decode the next event line."""
        seq = self.count + 1
        try:
            event: Event = self._decode(line)
        except msgspec.ValidationError as exc:
            raise _at(seq, self._invalid(str(exc))) from None
        except (msgspec.DecodeError, RecursionError) as exc:
            raise _at(seq, f"not a valid event ({exc})") from None
        if event.seq != seq:
            raise _at(seq, f"holds seq {event.seq} (a line was inserted, removed, duplicated or moved here)")
        if not line.endswith(self._suffix):
            raise self._previous_changed()
        if self._canonical and not self._written_as_affray_writes(line, event):
            raise _at(seq, NOT_CANONICAL)
        if event.t < self._t:
            raise _at(seq, f"time runs backwards ({event.t} ms after {self._t} ms)")
        self._t = event.t
        self._prev = line_hash(line)
        self._suffix = b'%s%s"}' % (_PREV_KEY, self._prev.encode())
        self.count = seq
        return event

    def _written_as_affray_writes(self, line: bytes, event: Event) -> bool:
        if type(event).__struct_config__.tag in self._upcast:
            return True
        return is_canonical(line, event, ENCODER, self._suffix)

    def end(self, line: bytes, more: bool) -> None:
        """Check the end line."""
        after = self.count + 1
        try:
            end = _END_DECODER.decode(line)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise _at(after, f"the end line is damaged ({exc})") from None
        if end.end != self.count:
            raise _at(after, f"the end line counts {end.end} events where the log holds {self.count}")
        if end.prev != self._prev:
            raise self._previous_changed()
        if more:
            raise _Broken(LogProblem(line=after + 2, seq=after, message="lines follow the end line"))

    def cut(self, partial: bool) -> _Broken:
        """The problem of a log that stops before its end line."""
        what = "a partial line" if partial else "no end line"
        return _at(self.count + 1, f"the log is cut short: {what} after seq {self.count}")


def _open_header(first: bytes, source: str, resolve: Resolver) -> tuple[LogHeader, Vocabulary[Any]]:
    if not first.startswith(b"{"):
        raise UnreadableHeader(f"{source}: line 1 is not an affray log header")
    return _header(first, source, resolve)


def read_bytes(data: bytes, resolve: Resolver, source: str = "<log>", *, canonical: bool = False) -> LogFile:
    """Read a whole log held in memory: every event up to the first problem, which it records; with
    ``canonical``, a line not written as affray writes it is a problem too (for verify)."""
    if not data:
        raise LogError(f"{source}: the file is empty, not an affray log")
    lines = data.split(b"\n")
    partial = lines.pop() != b""
    if not lines:
        raise UnreadableHeader(f"{source}: line 1 is not an affray log header")
    header, vocabulary = _open_header(lines[0], source, resolve)
    log = LogFile(header=header, header_line=lines[0], vocabulary=vocabulary, events=[], ended=False)
    chain = _Chain(lines[0], header, vocabulary, canonical)
    append = log.events.append
    try:
        if canonical and not is_canonical(lines[0], header, ENCODER):
            raise _Broken(LogProblem(line=1, seq=0, message=f"the header {NOT_CANONICAL}"))
        for index in range(1, len(lines)):
            line = lines[index]
            if line.startswith(_END_PREFIX):
                chain.end(line, more=index + 1 < len(lines) or partial)
                log.ended = True
                return log
            append(chain.event(line))
        raise chain.cut(partial)
    except _Broken as broken:
        log.problem = broken.problem
        if broken.drop_last:
            log.events.pop()
    return log


def read_log(path: Path, resolve: Resolver, *, canonical: bool = False) -> LogFile:
    """Read the log at ``path``; an unreadable file or a missing header raises LogError."""
    return read_bytes(read_user_file(path, LogError, "a log"), resolve, str(path), canonical=canonical)


def iter_events(stream: IO[bytes], resolve: Resolver, source: str = "<log>") -> Iterator[Event]:
    """Stream the events of a log line by line, checking the chain, for logs too big to hold.

    An event is yielded once the next line has confirmed its hash (the last one at a cut, as
    ``read_bytes`` keeps it). Yields every complete event before a cut and then stops; raises LogError at
    any other problem, having yielded only the events before it.
    """
    first = stream.readline()
    if not first.endswith(b"\n"):
        raise UnreadableHeader(f"{source}: line 1 is not an affray log header")
    header, vocabulary = _open_header(first[:-1], source, resolve)
    chain = _Chain(first[:-1], header, vocabulary)
    pending: Event | None = None
    try:
        for raw in stream:
            if not raw.endswith(b"\n"):
                break
            line = raw[:-1]
            if line.startswith(_END_PREFIX):
                chain.end(line, more=bool(stream.read(1)))
                break
            event = chain.event(line)
            if pending is not None:
                yield pending
            pending = event
    except _Broken as broken:
        raise LogError(f"{source}: {broken.problem.where()}: {broken.problem.message}") from None
    if pending is not None:
        yield pending
