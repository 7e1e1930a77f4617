"""Snapshots of a long log's state, kept in the user's own cache, so that ``affray state`` answers at any
moment of a log of any length in milliseconds rather than folding it from the start.

Every ``EVERY`` events the folded state is kept with where its event's line is in the file (its offset,
its hash, its seq and time). To answer at a moment, the state of the last snapshot before it is taken and
the log is read on from that line, which must still be at that offset with that hash and that seq, and
every later line must chain to it, as a reading from the start would require. A log's snapshots are made
the first time ``affray state`` reads far into it, by one more reading of the whole log
(docs/log-format.md, "Snapshots of a long log's state").

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
from pathlib import Path
from typing import Any

import msgspec

from affray import files
from affray.errors import AffrayError, open_user_file
from affray.events.codec import line_hash
from affray.events.reader import Position, Resolver, open_log
from affray.events.vocabulary import Vocabulary
from affray.kernel.fold import FoldError, apply_checked

EVERY = 4096
"""Events between two snapshots."""
WORTH_IT = 2 * EVERY
"""A log of fewer events is read from the start: it takes no longer than a snapshot would save."""
FORMAT = "affray-snapshots"
VERSION = 1
INDEX_LIMIT = 1 << 20
"""The most bytes a snapshot file's first line (its index) may take."""
STATE_LIMIT = 1 << 28
"""The most bytes of one snapshot's state that are read (a state of 256 MB is no fight's)."""
KEPT_LOGS = 64
"""Snapshots of at most this many logs are kept; the least recently made go first."""


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """One kept state: after the event at ``at``; its JSON is ``length`` bytes from ``start`` in the file."""

    at: Position
    start: int
    length: int


class Index(msgspec.Struct, frozen=True, kw_only=True):
    """A snapshot file's first line: whose log it is and its snapshots, in order."""

    format: str
    version: int
    header: str
    """The hash of the log's header line."""
    snapshots: list[Snapshot]


_INDEX = msgspec.json.Decoder(Index)


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


def _path(log: Path) -> Path | None:
    folder = cache_folder()
    name = _name(log)
    return None if folder is None or name is None else folder / name


def nearest(
    log: Path, header_line: bytes, *, seq: int | None, t_ms: int | None
) -> tuple[Snapshot, Path] | None:
    """The last kept snapshot of ``log`` at or before the moment (``seq``, or game time ``t_ms``: a
    snapshot after which an event at that very time may still come is fine), and its file."""
    path = _path(log)
    if path is None:
        return None
    with contextlib.suppress(AffrayError, OSError, msgspec.DecodeError, msgspec.ValidationError):
        with open_user_file(path, AffrayError, "a snapshot file") as file:
            index = _INDEX.decode(file.readline(INDEX_LIMIT))
        if index.format != FORMAT or index.version != VERSION or index.header != line_hash(header_line):
            return None
        before = [
            snapshot
            for snapshot in index.snapshots
            if (seq is None or snapshot.at.seq <= seq) and (t_ms is None or snapshot.at.t <= t_ms)
        ]
        return (before[-1], path) if before else None
    return None


def state_of(snapshot: Snapshot, path: Path, vocabulary: Vocabulary[Any]) -> Any:
    """The state a snapshot kept, or None when its file no longer holds it."""
    if snapshot.length > STATE_LIMIT:
        return None
    kind = type(vocabulary.new_state())
    unusable = (AffrayError, OSError, msgspec.DecodeError, msgspec.ValidationError)
    with contextlib.suppress(*unusable), open_user_file(path, AffrayError, "a snapshot file") as file:
        file.seek(snapshot.start)
        return msgspec.json.decode(file.read(snapshot.length), type=kind)
    return None


def keep(log: Path, resolve: Resolver) -> None:
    """Read ``log`` through from the start, keeping a snapshot every ``EVERY`` events, and write them to
    the cache if it proves long and whole (nothing is kept of a log cut short or damaged)."""
    if _path(log) is None:
        return
    with contextlib.suppress(AffrayError, FoldError), open_log(log, resolve) as reader:
        vocabulary = reader.vocabulary
        state = vocabulary.new_state()
        kept: list[tuple[Position, bytes]] = []
        for event in reader:
            apply_checked(vocabulary, state, event)
            if event.seq % EVERY == 0 and reader.position is not None:
                kept.append((reader.position, msgspec.json.encode(state)))
        if reader.ended and reader.problem is None and reader.count >= WORTH_IT:
            _write(log, reader.header_line, kept)


def _write(log: Path, header_line: bytes, kept: list[tuple[Position, bytes]]) -> None:
    """The snapshots written to the cache (a new file moved into place), the oldest files let go."""
    path = _path(log)
    if path is None:
        return
    snapshots, start = [], 0
    for at, state in kept:
        snapshots.append(Snapshot(at=at, start=start, length=len(state)))
        start += len(state)
    index = Index(format=FORMAT, version=VERSION, header=line_hash(header_line), snapshots=snapshots)
    with contextlib.suppress(OSError, AffrayError):
        files.write_new(path, _file(index, [state for _, state in kept]), force=True, flag="snapshots")
        _let_go(path.parent)


def _file(index: Index, states: list[bytes]) -> bytes:
    """The index line, each snapshot's start counted from the file's first byte, then the states one
    after another (the line's length and the starts it holds settle in a few rounds)."""
    head = b""
    while True:
        moved = [msgspec.structs.replace(s, start=s.start + len(head)) for s in index.snapshots]
        again = msgspec.json.encode(msgspec.structs.replace(index, snapshots=moved)) + b"\n"
        if len(again) == len(head):
            return again + b"".join(states)
        head = again


def _let_go(folder: Path) -> None:
    """Keep the snapshots of the ``KEPT_LOGS`` logs most recently read through."""
    with contextlib.suppress(OSError):
        newest_first = sorted(folder.glob("*.snapshots"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in newest_first[KEPT_LOGS:]:
            old.unlink(missing_ok=True)
