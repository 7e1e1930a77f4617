"""An output file written whole or not at all, and never by two writers at once.

Lines go to a temporary file beside the target; only a finished write takes the target's name (replacing an
old file only when asked), so a run that fails, is interrupted or is killed never costs the user the file
they had. What a failed write got down is kept under ``TARGET.partial`` (``.partial-2``, ... if taken). A
lock beside the target refuses a second writer. A target that is not a regular file (``/dev/stdout``, a
pipe) is written in place.
"""

from __future__ import annotations

import fcntl
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Protocol

from affray.errors import LogError


def partial_names(name: str) -> Iterator[str]:
    """The names a failed write's lines are kept under, in the order tried: ``NAME.partial``, then
    ``NAME.partial-2``, ... (999 in all)."""
    yield f"{name}.partial"
    for number in range(2, 1000):
        yield f"{name}.partial-{number}"


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


def _cannot(path: Path, exc: OSError) -> LogError:
    return LogError(f"{path}: cannot write: {exc.strerror or exc}")


def _special(path: Path) -> bool:
    try:
        return not stat.S_ISREG(path.stat().st_mode)
    except FileNotFoundError:
        return False


class OutputFile:
    """A file being written for ``target``: ``stream`` takes its bytes, ``commit`` puts it in place."""

    def __init__(self, target: Path, *, replace: bool = False) -> None:
        self.target = target
        self.replace = replace
        if target.exists() and not replace:
            raise LogError(f"{target}: already exists; choose another name or pass --force")
        self.in_place = _special(target)
        self.writing = target if self.in_place else target.with_name(f".{target.name}.{os.getpid()}.tmp")
        self._lock: int | None = None if self.in_place else self._take_lock()
        try:
            flags = os.O_WRONLY | (os.O_APPEND if self.in_place else os.O_CREAT | os.O_EXCL)
            self.stream: IO[bytes] = os.fdopen(os.open(self.writing, flags, 0o644), "wb", buffering=0)
        except OSError as exc:
            self._release()
            raise _cannot(target, exc) from None

    def write(self, data: bytes) -> None:
        """Append ``data`` (whole lines) to the file."""
        self.stream.write(data)

    def _lock_path(self) -> Path:
        return self.target.with_name(f".{self.target.name}.lock")

    def _take_lock(self) -> int:
        try:
            fd = os.open(self._lock_path(), os.O_WRONLY | os.O_CREAT, 0o644)
        except OSError as exc:
            raise _cannot(self.target, exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise LogError(f"{self.target}: another affray is writing it; wait for it to finish") from None
        return fd

    def _release(self) -> None:
        if self._lock is not None:
            self._lock_path().unlink(missing_ok=True)
            os.close(self._lock)
            self._lock = None

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
            if self.replace:
                os.replace(self.writing, self.target)
            else:
                os.link(self.writing, self.target)
                self.writing.unlink()
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
            for partial in partial_names(self.target.name):
                kept = self.target.with_name(partial)
                try:
                    os.link(self.writing, kept)
                except FileExistsError:
                    continue
                except OSError:
                    return self.writing
                self.writing.unlink()
                return kept
            return self.writing
        finally:
            self._release()
