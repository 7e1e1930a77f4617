"""Snapshots of a long log's state, kept in the user's own cache, so that ``affray state``, ``explain`` and
``view --from`` start at any moment of a log of any length in milliseconds rather than reading it from the
start.

Every ``EVERY`` events the folded state is kept with where its event's line is in the file (its offset,
its hash, its seq and time), and with the history an explanation from there may draw on: where the lines
of the events the explaining reading holds are, each with the line it was told in. To start at a moment,
the state of the last snapshot before it is taken and the log is read on from that line, which must still
be at that offset with that hash and that seq, and every later line must chain to it, as a reading from
the start would require; the history's lines are read again and must hash as kept. A log's snapshots are
made the first time one of those commands reads far into it, by one more reading of the whole log
(docs/log-format.md, "Snapshots of a long log's state"). Snapshots made by other code (another version of
affray, or a fold or teller changed since) are passed by.

They are never taken from beside a log, where anyone may put a file: only from the cache of the user
running affray (``$XDG_CACHE_HOME/affray/snapshots``, else ``~/.cache/affray/snapshots``), a folder only
that user may enter, under a name made from the log file's identity (device, inode, size, time of last
change), so a log changed since is read from the start again. A cache that cannot be used (no home, a
read-only disk, a link where the folder should be) is passed by: snapshots only make reading faster.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import msgspec

import affray
from affray import files
from affray.errors import AffrayError, open_user_file
from affray.events.codec import LogHeader, line_hash
from affray.events.reader import LogReader, Position, open_log
from affray.kernel.fold import FoldError, apply_checked
from affray.kernel.ruleset import Reading
from affray.replays import explain

EVERY = 2048
"""Events between two snapshots."""
WORTH_IT = 4 * EVERY
"""A log of fewer events is read from the start: it takes no longer than a snapshot would save."""
FORMAT = "affray-snapshots"
VERSION = 2
INDEX_LIMIT = 1 << 20
"""The most bytes a snapshot file's first line (its index) may take."""
STATE_LIMIT = 1 << 28
"""The most bytes of one snapshot's state, or of its history, that are read (256 MB is no fight's)."""
KEPT_LOGS = 64
"""Snapshots of at most this many logs are kept; the least recently made go first."""


Readings = Callable[[LogHeader, str], Reading]
"""``reading(header, source)``: what a log is read with (``affray.rulesets.reading``)."""


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """One kept state: after the event at ``at``; its JSON is ``length`` bytes from ``start`` in the file,
    and its history's (a JSON array of ``Told``) the ``history`` bytes right after."""

    at: Position
    start: int
    length: int
    history: int
    """0 in a file made with no histories."""


class Told(msgspec.Struct, frozen=True, kw_only=True):
    """An event of a snapshot's history: where its line is, and the line it was told in."""

    at: Position
    told: str


class Index(msgspec.Struct, frozen=True, kw_only=True):
    """A snapshot file's first line: whose log it is, what made the snapshots, and the snapshots, in
    order."""

    format: str
    version: int
    made_by: str
    """``made_by`` of the reading that made them."""
    histories: bool
    """Whether the snapshots hold histories (made by an explaining reading) or states only."""
    header: str
    """The hash of the log's header line."""
    snapshots: list[Snapshot]


class Resumed(msgspec.Struct, frozen=True, kw_only=True):
    """Where a reading starts from a snapshot: the event it starts after, and the state after it."""

    at: Position
    state: Any


_INDEX = msgspec.json.Decoder(Index)
_HISTORY = msgspec.json.Decoder(list[Told])


def made_by(reading: Reading) -> str:
    """What the snapshots of a log read with ``reading`` are made by: affray's version and the files of the
    code that folds and tells its kinds, each by its size and time of last change (so a snapshot of code
    changed since, in a copy of affray being worked on, is passed by)."""
    vocabulary = reading.vocabulary()
    code: list[Any] = [vocabulary.new_state, *vocabulary.kinds, *reading.tellers().values()]
    for part in vocabulary.parts:
        code += [*part.appliers.values(), *part.extends.values()]
    modules = {getattr(sys.modules.get(getattr(c, "__module__", "")), "__file__", None) for c in code}
    identity = [affray.__version__]
    for file in sorted(str(m) for m in modules if m):
        with contextlib.suppress(OSError):
            status = os.stat(file)
            identity.append(f"{file}:{status.st_size}:{status.st_mtime_ns}")
    return hashlib.sha256("\n".join(identity).encode()).hexdigest()[:32]


def cache_folder() -> Path | None:
    """The user's folder of snapshots (made, only the user may enter it), or None when there is none."""
    base = os.environ.get("XDG_CACHE_HOME") or (
        os.path.expanduser("~/.cache") if "HOME" in os.environ else ""
    )
    if not base or not os.path.isabs(base):
        return None
    folder = Path(base) / "affray" / "snapshots"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        status = os.lstat(folder)
    except OSError:
        return None
    mine = stat.S_ISDIR(status.st_mode) and status.st_uid == os.getuid() and not status.st_mode & 0o077
    return folder if mine else None


def _name(log: Path) -> str | None:
    """The name a log's snapshots are kept under: its file's identity, so a changed log gets another."""
    try:
        status = os.stat(log)
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode):
        return None
    identity = (
        f"{status.st_dev}:{status.st_ino}:{status.st_size}:{status.st_mtime_ns}:{os.path.realpath(log)}"
    )
    return hashlib.sha256(identity.encode()).hexdigest()[:40] + ".snapshots"


def can_keep(log: Path) -> bool:
    """Whether snapshots of ``log`` can be kept: it is a regular file, and the user's cache is usable."""
    return _path(log) is not None


def _path(log: Path) -> Path | None:
    folder = cache_folder()
    name = _name(log)
    return None if folder is None or name is None else folder / name


def nearest(
    log: Path,
    header_line: bytes,
    reading: Reading,
    *,
    seq: int | None,
    t_ms: int | None,
    histories: bool = False,
) -> tuple[Snapshot, Path] | None:
    """The last kept snapshot of ``log`` at or before the moment (``seq``, or game time ``t_ms``: a
    snapshot after which an event at that very time may still come is fine), and its file; with
    ``histories``, only one that holds its history."""
    found = _index(log, header_line, reading)
    if found is None or (histories and not found[0].histories):
        return None
    index, path = found
    before = [
        snapshot
        for snapshot in index.snapshots
        if (seq is None or snapshot.at.seq <= seq) and (t_ms is None or snapshot.at.t <= t_ms)
    ]
    return (before[-1], path) if before else None


def _index(log: Path, header_line: bytes, reading: Reading) -> tuple[Index, Path] | None:
    """The index of the snapshots kept of ``log`` (whose header is ``header_line``) by the code of
    ``reading``, and its file; None when there is none."""
    path = _path(log)
    if path is None:
        return None
    with contextlib.suppress(AffrayError, OSError, msgspec.DecodeError, msgspec.ValidationError):
        with open_user_file(path, AffrayError, "a snapshot file") as file:
            index = _INDEX.decode(file.readline(INDEX_LIMIT))
        if (index.format, index.version) != (FORMAT, VERSION) or index.header != line_hash(header_line):
            return None
        return (index, path) if index.made_by == made_by(reading) else None
    return None


def _read(path: Path, start: int, length: int) -> bytes | None:
    """``length`` bytes from ``start`` of a snapshot file, or None."""
    if not 0 <= length <= STATE_LIMIT:
        return None
    with (
        contextlib.suppress(AffrayError, OSError),
        open_user_file(path, AffrayError, "a snapshot file") as file,
    ):
        file.seek(start)
        data = file.read(length)
        return data if len(data) == length else None
    return None


def state_of(snapshot: Snapshot, path: Path, reading: Reading) -> Any:
    """The state a snapshot kept, or None when its file no longer holds it."""
    data = _read(path, snapshot.start, snapshot.length)
    kind = type(reading.vocabulary().new_state())
    with contextlib.suppress(msgspec.DecodeError, msgspec.ValidationError):
        return None if data is None else msgspec.json.decode(data, type=kind)
    return None


def _history_of(snapshot: Snapshot, path: Path) -> list[Told] | None:
    """The history a snapshot kept, or None when its file no longer holds it."""
    data = _read(path, snapshot.start + snapshot.length, snapshot.history)
    with contextlib.suppress(msgspec.DecodeError, msgspec.ValidationError):
        return None if data is None else _HISTORY.decode(data)
    return None


def resume(
    log: Path, reader: LogReader, reading: Reading, *, seq: int | None, t_ms: int | None
) -> Resumed | None:
    """The reader set to read on after the last snapshot at or before the moment, and the state there;
    None, and the reader as it was, when there is none to start from."""
    kept = nearest(log, reader.header_line, reading, seq=seq, t_ms=t_ms)
    if kept is None:
        return None
    snapshot, path = kept
    state = state_of(snapshot, path, reading)
    if state is None or not reader.resume_after(snapshot.at):
        return None
    return Resumed(at=snapshot.at, state=state)


def explaining(
    log: Path, reader: LogReader, reading: Reading, *, seq: int | None, t_ms: int | None
) -> explain.Explaining | None:
    """An explaining reading set to go on after the last snapshot at or before the moment: its state and
    its history as they were there (each event read again from its line). None, and the reader as it was,
    when there is none to start from."""
    kept = nearest(log, reader.header_line, reading, seq=seq, t_ms=t_ms, histories=True)
    if kept is None:
        return None
    snapshot, path = kept
    state = state_of(snapshot, path, reading)
    history = _history_of(snapshot, path)
    if state is None or history is None:
        return None
    index = explain.Index()
    for held in history:
        event = reader.recall(held.at)
        if event is None:
            return None
        index.add(event, held.told)
    if not reader.resume_after(snapshot.at):
        return None
    return explain.Explaining(reading, state, index)


def keep(log: Path, reading_of: Readings, *, histories: bool = False) -> None:
    """Read ``log`` through from the start, keeping a snapshot every ``EVERY`` events (with ``histories``,
    each with its history, by an explaining reading, which tells every event), and write them to the
    cache if it proves long and whole. Of a log cut short or damaged nothing is kept but that it was read
    through (an index of no snapshots), so that it is not read through again until it changes."""
    if not can_keep(log):
        return
    with (
        contextlib.suppress(AffrayError, FoldError),
        open_log(log, _vocabulary(reading_of), folding=not histories) as reader,
    ):
        reading = reading_of(reader.header, str(log))
        found = _index(log, reader.header_line, reading)
        if found is not None and not found[0].snapshots:
            return
        explaining = explain.Explaining(reading)
        keeper = Keeper(explaining, histories=histories)
        for event in reader:
            if histories:
                explaining.read(event)
            else:
                apply_checked(explaining.vocabulary, explaining.state, event)
            keeper.note(event.seq, reader.position)
        keeper.write(log, reader, reading)


class Keeper:
    """Keeps a snapshot every ``EVERY`` events of an explaining reading as it goes: its state, and with
    ``histories`` where the lines of the events it holds are, with the lines they were told in."""

    def __init__(self, explaining: explain.Explaining, *, histories: bool = True) -> None:
        self.explaining = explaining
        self.histories = histories
        self.where: dict[int, Position] = {}
        self.kept: list[tuple[Position, bytes, bytes]] = []

    def note(self, seq: int, at: Position | None) -> None:
        """The event ``seq``, whose line is ``at``, was just read; keep a snapshot after it when it is
        time."""
        if at is None:
            return
        explaining = self.explaining
        if self.histories:
            self.where[seq] = at
        if seq % EVERY:
            return
        history = b""
        if self.histories:
            held = explaining.index.kept()
            told = [Told(at=self.where[s], told=explaining.index.told(s)) for s in held]
            history = msgspec.json.encode(told)
            self.where = {s: self.where[s] for s in held}
        self.kept.append((at, msgspec.json.encode(explaining.state), history))

    def write(self, log: Path, reader: LogReader, reading: Reading) -> None:
        """Write the snapshots kept to the cache, if the log, read through, proved long and whole; an
        index of none if it proved long but not whole (cut short or damaged)."""
        if reader.count < WORTH_IT:
            return
        whole = reader.ended and reader.problem is None
        index = Index(
            format=FORMAT,
            version=VERSION,
            made_by=made_by(reading),
            histories=self.histories,
            header=line_hash(reader.header_line),
            snapshots=[],
        )
        _write(log, index, self.kept if whole else [])


def _vocabulary(reading_of: Readings) -> Any:
    """The resolver of ``open_log`` for readings made by ``reading_of``."""
    return lambda header, source: reading_of(header, source).vocabulary()


def _write(log: Path, index: Index, kept: list[tuple[Position, bytes, bytes]]) -> None:
    """The snapshots written to the cache (a new file moved into place), the oldest files let go."""
    path = _path(log)
    if path is None:
        return
    snapshots, start = [], 0
    for at, state, history in kept:
        snapshots.append(Snapshot(at=at, start=start, length=len(state), history=len(history)))
        start += len(state) + len(history)
    parts = [part for _, state, history in kept for part in (state, history)]
    with contextlib.suppress(OSError, AffrayError):
        made = _file(msgspec.structs.replace(index, snapshots=snapshots), parts)
        files.write_new(path, made, force=True, flag="snapshots")
        _let_go(path.parent)


def _file(index: Index, parts: Iterable[bytes]) -> bytes:
    """The index line, each snapshot's start counted from the file's first byte, then the states and
    histories one after another (the line's length and the starts it holds settle in a few rounds)."""
    head = b""
    while True:
        moved = [msgspec.structs.replace(s, start=s.start + len(head)) for s in index.snapshots]
        again = msgspec.json.encode(msgspec.structs.replace(index, snapshots=moved)) + b"\n"
        if len(again) == len(head):
            return again + b"".join(parts)
        head = again


def _let_go(folder: Path) -> None:
    """Keep the snapshots of the ``KEPT_LOGS`` logs most recently read through."""
    with contextlib.suppress(OSError):
        newest_first = sorted(folder.glob("*.snapshots"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in newest_first[KEPT_LOGS:]:
            old.unlink(missing_ok=True)
