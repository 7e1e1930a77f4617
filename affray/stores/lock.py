"""A campaign's lock: an ``flock`` on the campaign's own file, so every name that reaches the file (a
symbolic link, a hard link, another path to it) meets the same lock, and nothing is written beside it.

A writer holds the file exclusively from the moment it opens the campaign until it closes it; a reader
holds it shared while it reads, so no writer can start meanwhile (see ``affray.stores.connection`` for how
a reader opens the file), and a reader that finds a writer there reads beside it without the lock. The
operating system lets a lock go when its process ends, however it ends.

Each process keeps one open descriptor per campaign file (by device and inode), shared by every use of the
file, and closes it only when the last use ends. Two reasons: ``flock`` locks belong to an open file
description, so two descriptors of one process would meet each other's lock as another process's; and
closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's own among them,
so no descriptor of a campaign file is closed while a connection of this process may still hold one.

Who holds a lock is found in ``/proc/locks`` by the file's device and inode; nothing is written to say it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from affray.errors import LogError, refuse_irregular

READERS_WAIT = 5.0
"""How many seconds a writer waits for the readers of a campaign to finish before giving up."""
_POLL = 0.02
"""How often, in seconds, a waiting writer tries the lock again."""
_OPEN_FLAGS = os.O_RDONLY | os.O_CLOEXEC | os.O_NOCTTY | os.O_NONBLOCK

Identity = tuple[int, int]
"""A file's device and inode."""


@dataclass
class _OpenFile:
    """A campaign file this process has open: its descriptor, how many uses it has, how many of them
    read it under the shared lock, and whether one writes it (holding the lock exclusively)."""

    fd: int
    uses: int = 0
    readers: int = 0
    writer: bool = False
    spare: list[int] = field(default_factory=list)
    """Descriptors of the same file opened meanwhile, closed with it."""


_open: dict[Identity, _OpenFile] = {}
_mutex = threading.Lock()


def _forked() -> None:
    """A child made by fork starts afresh: the locks it inherits belong to its parent's uses (and the
    mutex may have been held by a thread the child does not have)."""
    global _mutex
    _open.clear()
    _mutex = threading.Lock()


os.register_at_fork(after_in_child=_forked)


def _identity(path: Path, where: str) -> Identity:
    """The device and inode of the regular file at ``path`` (a link followed); LogError when there is
    none, or it is no regular file (a folder, a FIFO or a device is never opened)."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        raise LogError(f"{where}: no such file") from None
    except OSError as exc:
        raise LogError(f"{where}: cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise LogError(f"{where}: cannot read: not a file name ({exc})") from None
    refuse_irregular(status.st_mode, where, LogError, "a campaign")
    return status.st_dev, status.st_ino


def _opened(path: Path, where: str, identity: Identity) -> int:
    """A new descriptor of the file at ``path``, which must still be the file of ``identity``."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise LogError(f"{where}: cannot read: {exc.strerror or exc}") from None
    status = os.fstat(fd)
    if (status.st_dev, status.st_ino) == identity:
        return fd
    other = _open.get((status.st_dev, status.st_ino))
    if other is not None:
        other.spare.append(fd)  # closing it would drop this process's locks on that file
    else:
        os.close(fd)
    raise LogError(f"{where}: it was replaced while affray opened it; try again")


class CampaignFile:
    """One use of a campaign's file by this process: the file's first bytes, and its lock, shared
    (``share``) or exclusive (``exclude``); ``close`` ends the use. Close every SQLite connection of a use
    before the use."""

    def __init__(self, where: str, identity: Identity, opened: _OpenFile) -> None:
        self.where = where
        self.identity = identity
        self._file = opened
        self._lock: Literal["shared", "exclusive"] | None = None
        self._closed = False

    @classmethod
    def open(cls, path: Path, where: str) -> CampaignFile:
        """A use of the regular file at ``path`` (``where`` names it in errors)."""
        identity = _identity(path, where)
        with _mutex:
            opened = _open.get(identity)
            if opened is None:
                opened = _OpenFile(_opened(path, where, identity))
                _open[identity] = opened
            opened.uses += 1
        return cls(where, identity, opened)

    def again(self) -> CampaignFile:
        """Another use of the same file, holding no lock yet."""
        with _mutex:
            self._file.uses += 1
        return CampaignFile(self.where, self.identity, self._file)

    def head(self, size: int) -> bytes:
        """The file's first ``size`` bytes (fewer when it is shorter)."""
        try:
            return os.pread(self._file.fd, size, 0)
        except OSError as exc:
            raise LogError(f"{self.where}: cannot read: {exc.strerror or exc}") from None

    def share(self) -> bool:
        """Take the lock shared, as a reader; False, holding nothing, when a writer holds it."""
        with _mutex:
            opened = self._file
            if opened.writer:
                return False
            if opened.readers == 0:
                try:
                    fcntl.flock(opened.fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                except BlockingIOError:
                    return False
                except OSError as exc:
                    raise LogError(f"{self.where}: cannot lock it: {exc.strerror or exc}") from None
            opened.readers += 1
            self._lock = "shared"
            return True

    def exclude(self) -> None:
        """Take the lock exclusively, as the one writer, waiting up to ``READERS_WAIT`` seconds for readers
        to finish; LogError naming who holds it when it cannot."""
        with _mutex:
            opened = self._file
            if opened.writer:
                raise LogError(
                    f"{self.where}: another affray is writing to it (this process); wait for it to finish"
                )
            if opened.readers:
                raise LogError(
                    f"{self.where}: this process is reading it, so it cannot write to it meanwhile"
                )
            deadline = time.monotonic() + READERS_WAIT
            while not self._try_exclusive(opened.fd):
                self._refuse_unless_readers(time.monotonic() > deadline)
                time.sleep(_POLL)
            opened.writer = True
            self._lock = "exclusive"

    def _try_exclusive(self, fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        except OSError as exc:
            raise LogError(f"{self.where}: cannot lock it: {exc.strerror or exc}") from None
        return True

    def _refuse_unless_readers(self, waited: bool) -> None:
        """LogError when a writer holds the lock, or when the wait is over and readers (or holders that
        cannot be told apart) still hold it."""
        holders = lock_holders(self.identity)
        writers = [pid for kind, pid in holders or () if kind == "WRITE"]
        if writers:
            by = _process(writers[0])
            raise LogError(f"{self.where}: another affray is writing to it ({by}); wait for it to finish")
        if not waited:
            return
        if holders:
            pids = ", ".join(str(pid) for _, pid in holders[:5])
            raise LogError(
                f"{self.where}: another affray is reading it (process{'es' if len(holders) > 1 else ''} "
                f"{pids}) and did not finish within {READERS_WAIT:g} s; try again once it has"
            )
        raise LogError(f"{self.where}: another affray is writing to it or reading it; wait for it to finish")

    def unlock(self) -> None:
        """Give up the lock this use holds, if any (the file stays open for the use)."""
        with _mutex:
            opened = self._file
            if self._lock == "shared":
                opened.readers -= 1
                release = opened.readers == 0 and not opened.writer
            elif self._lock == "exclusive":
                opened.writer = False
                release = opened.readers == 0
            else:
                return
            self._lock = None
            if release:
                fcntl.flock(opened.fd, fcntl.LOCK_UN)

    def close(self) -> None:
        """End the use: its lock given up, and the file closed once no use of this process is left."""
        if self._closed:
            return
        self.unlock()
        self._closed = True
        with _mutex:
            opened = self._file
            opened.uses -= 1
            if opened.uses == 0:
                del _open[self.identity]
                for fd in (opened.fd, *opened.spare):
                    with contextlib.suppress(OSError):
                        os.close(fd)


def _process(pid: int) -> str:
    return "this process" if pid == os.getpid() else f"process {pid}"


def lock_holders(identity: Identity) -> list[tuple[str, int]] | None:
    """Who holds an ``flock`` on the file of ``identity``: each holder's kind (``READ`` for shared,
    ``WRITE`` for exclusive) and process id, from ``/proc/locks``; None where there is no such table."""
    device, inode = identity
    key = f"{os.major(device):02x}:{os.minor(device):02x}:{inode}"
    try:
        table = Path("/proc/locks").read_text()
    except OSError:
        return None
    holders = []
    for line in table.splitlines():
        fields = line.split()  # "1: FLOCK ADVISORY WRITE 1234 fe:00:5678 0 EOF"; a waiter has "->" second
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == key and fields[4].isdigit():
            holders.append((fields[3], int(fields[4])))
    return holders
