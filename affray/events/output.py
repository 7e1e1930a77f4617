"""An output file written whole or not at all, and never by two writers at once.

Lines go to a new temporary file beside the target, ``.NAME.<16 hex digits>.tmp`` (made by
``affray.files``: a random name, created with ``O_EXCL|O_NOFOLLOW``, so never a link or a file someone put
there); only a finished write takes the target's name (replacing an old file, or a link, only when asked;
a link is replaced, never followed), so a run that fails, is interrupted or is killed never costs the user
the file they had. What a failed write got down is kept under ``NAME.partial`` (``.partial-2``, ... if
taken), made by link(2), which never follows a link either.

A lock beside the target, ``.NAME.lock``, refuses a second writer: an flock on a file opened with
``O_NOFOLLOW``, never truncated nor written, removed when the writer is done (a writer that finds the name
now names another file than the one it locked tries again). The writer also holds an flock on its
temporary file, so a temporary file of NAME that no one holds was left by a process that was killed
(SIGKILL, which no handler sees): the next writer of NAME keeps it as ``NAME.partial`` and says so in
``notices``. A commit with a ``NAME.partial`` of an earlier failed run beside it says that too. This layer
prints nothing: the commands print the notices.

A target the user named that is a character device or a fifo, itself or through links (``/dev/null``,
``/dev/stdout``, a named pipe), is written in place, as asked: no file is written through it, so no file
can be overwritten through a link that way. It is opened without blocking, so a fifo that nothing reads is
an error rather than a hang.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
from pathlib import Path
from typing import IO, Protocol

from affray import files
from affray.errors import LogError
from affray.files import keep_as_partial, partial_names

SYSTEM_FOLDERS = ("dev", "proc")
"""Folders whose names affray writes only in place (a device, a pipe), never replaces."""
LOCK_TRIES = 20
"""How many times a writer opens the lock again when the one it locked was removed meanwhile."""
OPEN_LOCK = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
"""How a lock file is opened: read-only (an flock needs no more), never through a link, never waiting on
a fifo."""


class Output(Protocol):
    """Where a log's lines go while it is written, until it is put in place or given up: a file
    (OutputFile) or an encounter of a campaign (``affray.stores.sqlite.CampaignOutput``)."""

    @property
    def target(self) -> object:
        """What the user named: the log file, or ``campaign.sqlite#NAME``."""

    @property
    def writing(self) -> object:
        """Where the lines go until ``commit``: a temporary file or encounter beside the target."""

    def write(self, data: bytes) -> object:
        """Append one whole line, newline included."""

    def commit(self) -> None:
        """Put the log in place under the target's name."""

    def discard(self) -> None:
        """Give it up, keeping nothing."""

    def keep_partial(self) -> object:
        """Give it up, keeping what was written beside the target; return where."""


def _cannot(path: Path, exc: OSError | ValueError) -> LogError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return LogError(f"{path}: cannot write: {reason}")


def _names(fd: int, path: Path) -> bool:
    """Whether ``path`` (not followed) names the file open as ``fd``."""
    held = os.fstat(fd)
    try:
        there = os.lstat(path)
    except FileNotFoundError:
        return False
    return (held.st_dev, held.st_ino) == (there.st_dev, there.st_ino)


def _writable_here(mode: int) -> bool:
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _open_device(target: Path) -> int | None:
    """``target`` open for writing in place when it is (through links) a character device or a fifo;
    None when it is anything else. The open never waits and the file opened is checked, so a name
    changed meanwhile is never written through. A name in /dev or /proc that leads to anything else
    (``/dev/stdout`` when stdout is a file) is refused: its link must not be replaced by a file."""
    try:
        if not _writable_here(os.stat(target).st_mode):
            if target.is_absolute() and target.parts[1] in SYSTEM_FOLDERS:
                raise LogError(f"{target}: is not a terminal, a pipe or a device here; name the file itself")
            return None
        fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_NOCTTY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise LogError(f"{target}: a pipe that nothing reads yet; start its reader first") from None
        return None
    if not _writable_here(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    os.set_blocking(fd, True)
    return fd


def _refuse(target: Path, replace: bool) -> None:
    """A target that is a folder, or that exists (a link included) unless ``replace``, is refused."""
    try:
        occupant = files.what_is_at(target)
        folder = target.is_dir()
    except (OSError, ValueError) as exc:
        raise _cannot(target, exc) from None
    if folder:
        raise LogError(f"{target}: is a folder; name a file")
    if occupant is not None and not replace:
        there = "already exists" if occupant == "a file" else f"{occupant} has that name"
        raise LogError(f"{target}: {there}; choose another name or pass --force")


def _keep_left_over(path: Path, target: Path) -> Path | None:
    """A temporary file of ``target`` that no process holds (its writer was killed) kept as a partial;
    None when it is held, or is no regular file of this user's with one name (not affray's)."""
    try:
        fd = os.open(path, OPEN_LOCK)
    except OSError:
        return None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode) or status.st_nlink != 1 or status.st_uid != os.geteuid():
            return None
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return keep_as_partial(path, target) if _names(fd, path) else None
    except OSError:
        return None
    finally:
        os.close(fd)


def _take_lock(path: Path, target: Path) -> tuple[int, bool]:
    """The lock at ``path`` taken: its descriptor, and whether this writer made it (no earlier writer
    left one behind). Another writer holding it is an error naming ``target``."""
    for _ in range(LOCK_TRIES):
        made = True
        try:
            fd = os.open(path, OPEN_LOCK | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            made = False
            try:
                fd = os.open(path, OPEN_LOCK)
            except FileNotFoundError:
                continue  # released meanwhile
        try:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode) or status.st_nlink != 1:  # a fifo, another file's name
                raise LogError(f"{target}: {path.name} beside it is not a lock file; remove it")
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if _names(fd, path):
                return fd, made
        except BlockingIOError:
            os.close(fd)
            raise LogError(f"{target}: another affray is writing it; wait for it to finish") from None
        except BaseException:
            if made:  # a stop as it was taken: the lock made is not left behind
                with contextlib.suppress(OSError):
                    os.unlink(path)
            os.close(fd)
            raise
        os.close(fd)  # the lock locked was removed by the writer before: take the one there now
    raise LogError(f"{target}: the lock {path.name} beside it keeps changing; try again")


class OutputFile:
    """A file being written for ``target``: ``stream`` takes its bytes, ``commit`` puts it in place.
    ``notices`` gathers what the user should be told (a killed run's lines kept, a partial log still
    beside the target): the command prints them."""

    def __init__(self, target: Path, *, replace: bool = False) -> None:
        self.target = target
        self.replace = replace
        self.notices: list[str] = []
        self._lock: int | None = None
        self._kept: set[str] = set()
        _refuse(target, replace)
        device = _open_device(target) if replace else None
        self.in_place = device is not None
        if device is not None:
            self.writing = target
            self.stream: IO[bytes] = os.fdopen(device, "wb", buffering=0)
            return
        try:
            self._lock, made = _take_lock(self._lock_path(), target)
        except (OSError, ValueError) as exc:
            raise self._cannot_lock(exc) from None
        try:
            if not made:
                self._keep_left_overs()
            fd, self.writing = files.create_temporary(target)
        except OSError as exc:
            self._release()
            raise _cannot(target, exc) from None
        except BaseException:
            self._release()
            raise
        self.stream = self._held(fd)

    def _cannot_lock(self, exc: OSError | ValueError) -> LogError:
        if isinstance(exc, OSError) and exc.errno == errno.ELOOP:
            return LogError(f"{self.target}: {self._lock_path().name} beside it is a link; remove it")
        return _cannot(self.target, exc)

    def _held(self, fd: int) -> IO[bytes]:
        """The temporary file open as ``fd``, locked for as long as it is written."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return os.fdopen(fd, "wb", buffering=0)
        except BaseException:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(self.writing)
            self._release()
            raise

    def write(self, data: bytes) -> None:
        """Append ``data`` (whole lines) to the file."""
        self.stream.write(data)

    def _lock_path(self) -> Path:
        return self.target.with_name(f".{self.target.name}.lock")

    def _keep_left_overs(self) -> None:
        """Keep as partials the temporary files of the target that killed writers left, and say so."""
        left = re.compile(rf"\.{re.escape(self.target.name)}\.[0-9a-f]+\.tmp")
        try:
            names = sorted(e.name for e in os.scandir(self.target.parent) if left.fullmatch(e.name))
        except OSError:
            return
        for name in names:
            kept = _keep_left_over(self.target.with_name(name), self.target)
            if kept is not None:
                self._kept.add(kept.name)
                self.notices.append(
                    f"{self.target}: a run that was killed while writing it left {name}; kept as {kept}"
                )

    def _tell_partials_left(self) -> None:
        """Say when partial logs of earlier failed runs are beside the target just put in place."""
        left = []
        with contextlib.suppress(OSError):
            for name in partial_names(self.target.name):
                if files.what_is_at(self.target.with_name(name)) is None:
                    break
                if name not in self._kept:
                    left.append(name)
        if left:
            more = f" (and {len(left) - 1} more)" if len(left) > 1 else ""
            self.notices.append(
                f"{self.target}: {self.target.with_name(left[0])}{more}, from an earlier run that failed, "
                "is still beside it"
            )

    def _release(self) -> None:
        if self._lock is None:
            return
        fd, self._lock = self._lock, None
        try:
            if _names(fd, self._lock_path()):
                self._lock_path().unlink()
        except OSError:
            pass  # a lock file left behind is taken again by the next writer
        finally:
            os.close(fd)

    def commit(self) -> None:
        """Flush to disk and give the file the target's name; a target made meanwhile is not replaced."""
        try:
            os.fsync(self.stream.fileno())
        except OSError as exc:
            if not self.in_place:
                raise _cannot(self.target, exc) from None
        self.stream.close()
        if self.in_place:
            return
        try:
            files.put_in_place(self.writing, self.target, replace=self.replace)
        except FileExistsError:
            kept = self.keep_partial()
            raise LogError(
                f"{self.target}: was made while affray wrote it; the log is kept in {kept}"
            ) from None
        except OSError as exc:
            kept = self.keep_partial()
            raise LogError(
                f"{self.target}: cannot write: {exc.strerror or exc}; the log is kept in {kept}"
            ) from None
        else:
            self._tell_partials_left()
        finally:
            self._release()

    def discard(self) -> None:
        """Close and remove what was written, without taking the target's name (a file written in place
        is left as it is)."""
        if not self.stream.closed:
            self.stream.close()
        try:
            if not self.in_place:
                self.writing.unlink(missing_ok=True)
        finally:
            self._release()

    def keep_partial(self) -> Path:
        """Close without taking the target's name; keep what was written as ``TARGET.partial``."""
        if not self.stream.closed:
            self.stream.close()
        if self.in_place:
            return self.target
        try:
            return keep_as_partial(self.writing, self.target) or self.writing
        finally:
            self._release()


def take_notices(output: object) -> list[str]:
    """What ``output`` has to tell the user since it was last asked (its ``notices``, emptied; an output
    without them has none)."""
    notices = getattr(output, "notices", None)
    if not isinstance(notices, list):
        return []
    taken = [str(notice) for notice in notices]
    notices.clear()
    return taken
