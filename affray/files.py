"""How affray creates a file: new, under a random name in the target's own folder, then moved onto it.

Every file affray writes (a log, a page, a picture, a results table, a report, a golden, a list of kept
logs) is made here, in three steps:

1. a new file ``.NAME.<16 hex digits>.tmp`` is created beside the target with
   ``O_CREAT|O_EXCL|O_NOFOLLOW``: whatever is already at that name (a link, a fifo, a file) makes the
   open fail instead of being written through, and the name is drawn by ``secrets``, so no one can plant
   anything there in advance;
2. it is written, flushed and fsynced;
3. it is moved onto the target: with ``force`` by rename(2) (``os.replace``), which replaces whatever has
   the target's name (a link goes; what it pointed to is untouched); without, by link(2) and then the
   temporary name removed, which fails when anything at all has the target's name, a dangling link
   included.

A failure or an interrupt at any step removes the temporary file; only SIGKILL, which nothing sees, can
leave one (hidden by its leading dot). The folders on a target's path are followed, as the user named
them; only a file's own name is never followed. Folders affray makes (``--plots DIR``, ``--logs DIR``,
export's folder) are made with mkdir, and each file in them is written as above.

Each failure is one ``AffrayError`` naming the flag and the target (``-o page.html: ...``). A target that
is a folder, or whose folder does not exist, is refused by ``check_target`` before any work is done.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from affray import stops
from affray.errors import AffrayError, printable

Content = bytes | Callable[[BinaryIO], object]
"""What ``write_new`` writes: bytes, or a function that writes to the open binary file (matplotlib's
``savefig(file, format=...)``, a CSV writer over it, pyarrow's ``ParquetWriter(file, schema)``)."""

NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
"""The flags of every file affray creates: new, never through a link."""
NO_HARD_LINKS = frozenset({errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS})
"""What link(2) fails with on a file system that has no hard links (FAT, some network shares)."""
TEMPORARY_TRIES = 8
"""Random names tried for a temporary file before giving up (one clash in 2**64 is already unheard of)."""


def shown(flag: str, target: Path) -> str:
    """How an error names an output: ``-o page.html`` (the flag left out when there is none)."""
    path = printable(str(target))
    return f"{flag} {path}" if flag else path


def what_is_at(path: Path) -> str | None:
    """What has the name ``path`` itself, its last component not followed: "a link", "a folder", "a
    file" or "a special file" (a fifo, a device, a socket); None when nothing has it."""
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISLNK(mode):
        return "a link"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "a file" if stat.S_ISREG(mode) else "a special file"


def _cannot(flag: str, target: Path, exc: OSError | ValueError) -> AffrayError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return AffrayError(f"{shown(flag, target)}: cannot write it ({reason})")


def check_target(target: Path, *, force: bool, flag: str) -> None:
    """``target`` may be written, checked before any work: it is not a folder (nor a link to one), its
    folder exists, and nothing has its name unless ``force`` (a dangling link counts)."""
    where = shown(flag, target)
    try:
        occupant = what_is_at(target)
        folder = target.parent.is_dir()
        is_folder = target.is_dir()
    except (OSError, ValueError) as exc:
        raise _cannot(flag, target, exc) from None
    if is_folder:
        raise AffrayError(f"{where}: is a folder; name a file")
    if not folder:
        raise AffrayError(f"{where}: there is no folder {printable(str(target.parent))}")
    if occupant is not None and not force:
        there = "the file exists" if occupant == "a file" else f"{occupant} has that name"
        raise AffrayError(f"{where}: {there}; --force replaces it")


def make_folder(folder: Path, flag: str) -> None:
    """``folder`` made if missing (its parents too); one that cannot be, or a name held by something
    other than a folder, is an error naming ``flag``."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise AffrayError(
            f"{shown(flag, folder)}: {what_is_at(folder) or 'something'} has that name, not a folder"
        ) from None
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise AffrayError(f"{shown(flag, folder)}: cannot make the folder ({reason})") from None


def temporary_name(target: Path) -> Path:
    """A fresh random name beside ``target`` for its temporary file: ``.NAME.<16 hex>.tmp``."""
    return target.with_name(f".{target.name}.{os.urandom(8).hex()}.tmp")  # as secrets.token_hex(8)


def create_temporary(target: Path) -> tuple[int, Path]:
    """A new file beside ``target`` under a random name, open for writing: its descriptor and name.
    Raises OSError when the folder cannot hold it."""
    for _ in range(TEMPORARY_TRIES):
        path = temporary_name(target)
        try:
            return os.open(path, NEW_FILE, 0o666), path
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(target))


def put_in_place(temporary: Path, target: Path, *, replace: bool) -> None:
    """Give the file at ``temporary`` the name ``target``: replacing what has it only when ``replace``
    (rename(2), which replaces a link rather than following it); else link(2), which fails with
    FileExistsError when anything has the name, and the temporary name removed. On a file system without
    hard links the name is checked free, then renamed onto (never through a link either way)."""
    if replace:
        os.replace(temporary, target)
        return
    try:
        os.link(temporary, target, follow_symlinks=False)
    except OSError as exc:
        if exc.errno not in NO_HARD_LINKS:
            raise
        if what_is_at(target) is not None:
            raise FileExistsError(errno.EEXIST, "File exists", str(target)) from None
        os.replace(temporary, target)
        return
    with contextlib.suppress(OSError):  # the file is in place; a second name left is no failure
        os.unlink(temporary)


def partial_names(name: str) -> Iterator[str]:
    """The names a failed write's lines are kept under, in the order tried: ``NAME.partial``, then
    ``NAME.partial-2``, ... (999 in all)."""
    yield f"{name}.partial"
    for number in range(2, 1000):
        yield f"{name}.partial-{number}"


def keep_as_partial(path: Path, target: Path) -> Path | None:
    """The file at ``path`` given the first free name of ``partial_names`` beside ``target`` (by link(2),
    which takes no name that exists and follows no link) and its own name removed; None when it cannot
    be (the folder full of partials, or a file system without hard links)."""
    for partial in partial_names(target.name):
        kept = target.with_name(partial)
        try:
            os.link(path, kept, follow_symlinks=False)
        except FileExistsError:
            continue
        except OSError:
            return None
        with contextlib.suppress(OSError):
            os.unlink(path)
        return kept
    return None


class NewFile:
    """A file being written for ``target``: ``file`` takes its bytes, ``finish`` puts it in place,
    ``abandon`` removes it. Errors name ``flag``."""

    def __init__(self, target: Path, *, force: bool, flag: str) -> None:
        self.target = target
        self.force = force
        self.flag = flag
        try:
            fd, self.temporary = create_temporary(target)
        except (OSError, ValueError) as exc:
            raise _cannot(flag, target, exc) from None
        try:
            self.file: BinaryIO = os.fdopen(fd, "wb")
        except BaseException:
            os.close(fd)
            os.unlink(self.temporary)
            raise

    def finish(self) -> None:
        """Flush to disk and move the file onto the target (replacing it only with ``force``); on any
        failure nothing is left beside it."""
        try:
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
            put_in_place(self.temporary, self.target, replace=self.force)
        except FileExistsError:
            self.abandon()
            raise AffrayError(
                f"{shown(self.flag, self.target)}: {what_is_at(self.target) or 'a file'} was made there "
                "meanwhile; --force replaces it"
            ) from None
        except OSError as exc:
            self.abandon()
            raise _cannot(self.flag, self.target, exc) from None
        except BaseException:
            self.abandon()
            raise

    def keep_partial(self) -> Path | None:
        """Flush and keep what was written as ``TARGET.partial`` (``keep_as_partial``) rather than under
        the target's name; None when nothing could be kept (the temporary file is then removed)."""
        try:
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
            kept = keep_as_partial(self.temporary, self.target)
        except OSError:
            kept = None
        if kept is None:
            self.abandon()
        return kept

    def abandon(self) -> None:
        """Close and remove the temporary file; the target is untouched."""
        try:
            with contextlib.suppress(OSError):
                self.file.close()
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.temporary)


def write_new(target: Path, content: Content, *, force: bool, flag: str, last: bool = False) -> None:
    """Write ``content`` to a new file and move it onto ``target`` (see the module): an old target is
    never half replaced, a link at its name is replaced and never followed, and nothing is left beside
    it when writing fails or is interrupted. ``last``: it is the command's last output, so once it is
    written a stop no longer cuts the command short (affray.stops.finishing)."""
    made = NewFile(target, force=force, flag=flag)
    try:
        if isinstance(content, bytes):
            made.file.write(content)
        else:
            content(made.file)
    except OSError as exc:
        made.abandon()
        raise _cannot(flag, target, exc) from None
    except BaseException:
        made.abandon()
        raise
    if last:
        stops.finishing()
    made.finish()
