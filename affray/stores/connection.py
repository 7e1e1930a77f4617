"""Connections to a campaign's file, opened as a file from a stranger calls for, and so that reading writes
nothing.

Every connection runs with untrusted schema off (``PRAGMA trusted_schema = OFF``: no function with side
effects from a view or a trigger), SQLite's defensive mode where Python offers it (3.12 and later), no value
longer than ``VALUE_LIMIT`` loaded (``SQLITE_LIMIT_LENGTH``: a longer one is an error, never read) and no
database attached (``SQLITE_LIMIT_ATTACHED`` 0). In the ``affray`` command's own process SQLite may take
no more than ``HEAP_LIMIT`` of memory in all (``PRAGMA hard_heap_limit``, a setting of the process that
can only be lowered, so it is not made where affray is a library in another program).

How a reader opens the file, by what ``read_mode`` finds (docs/campaigns.md says it to users):

- no writer (it holds the lock shared, so none can start) and no write-ahead log with lines in it beside
  the file: ``immutable=1``, the file read alone; SQLite takes no lock and creates nothing;
- no writer, and a ``-wal`` holding lines that a writer now gone committed (one that was killed), with its
  ``-shm``: read-only with ``readonly_shm=1``; SQLite reads those lines and writes neither file;
- no writer, and such a ``-wal`` without its ``-shm``: refused, since SQLite would have to make one;
- a writer there: read-only (``mode=ro``) through the writer's ``-wal`` and ``-shm``, as SQLite's readers
  read beside a writer.
"""

from __future__ import annotations

import contextlib
import enum
import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from affray import process
from affray.errors import LogError, excerpt, printable
from affray.events.codec import MAX_LINE_BYTES
from affray.stores.lock import CampaignFile

BUSY_TIMEOUT = 5.0
"""How many seconds a statement waits for another connection's write lock before giving up."""
VALUE_LIMIT = 2 * MAX_LINE_BYTES
"""The longest value (and row) SQLite loads for affray: a line and the rest of its row fit, and a longer
value in a file is an error rather than memory."""
HEAP_LIMIT = 64 * 1024 * 1024
"""The most memory SQLite may take in all (``PRAGMA hard_heap_limit``): a campaign's lines, its cache and
its work fit many times over, and a value SQLite would load whole however long (the key of a row of a
table without rowid, compared as a statement seeks) is an error rather than memory."""
WRITER_FILES_WAIT = 1.0
"""How many seconds a reader that meets a writer waits for the writer's ``-wal`` and ``-shm`` to be there."""
_POLL = 0.02
_WAL_HEADER = 32
"""A write-ahead log no longer than its header holds no line."""

_PROBLEMS = {
    sqlite3.SQLITE_BUSY: "another program holds it locked; try again once it is done",
    sqlite3.SQLITE_LOCKED: "another program holds it locked; try again once it is done",
    sqlite3.SQLITE_CORRUPT: "the file is damaged",
    sqlite3.SQLITE_NOTADB: "not an affray campaign (not a SQLite file)",
    sqlite3.SQLITE_FULL: "cannot write: the disk is full",
    sqlite3.SQLITE_IOERR: "cannot read or write the file",
    sqlite3.SQLITE_READONLY: "cannot write: the file or its folder is read-only",
    sqlite3.SQLITE_CANTOPEN: "cannot open the file",
    sqlite3.SQLITE_PERM: "cannot open the file: permission denied",
    sqlite3.SQLITE_TOOBIG: f"it holds a value longer than the {VALUE_LIMIT:,} bytes affray reads",
}
"""What a SQLite error means for the user, by its primary result code."""


class Mode(enum.Enum):
    """How a connection opens the file: the query of its URI."""

    CREATE = "mode=rwc"
    WRITE = "mode=rw"
    BESIDE_WRITER = "mode=ro"
    LEFT_LOG = "mode=ro&readonly_shm=1"
    ALONE = "mode=ro&immutable=1"


def error_code(exc: sqlite3.Error) -> int:
    """The primary result code of a SQLite error (0 for one the sqlite3 module raises itself)."""
    return getattr(exc, "sqlite_errorcode", 0) & 0xFF


def sqlite_error(where: str, exc: sqlite3.Error) -> LogError:
    """A SQLite error as the LogError a user reads."""
    problem = _PROBLEMS.get(error_code(exc), "SQLite failed")
    return LogError(f"{where}: {problem} ({excerpt(printable(str(exc)))})")


@contextlib.contextmanager
def guarded(where: str) -> Iterator[None]:
    """SQLite's errors as LogError naming ``where``; a misuse of the sqlite3 module stays what it is."""
    try:
        yield
    except (sqlite3.ProgrammingError, sqlite3.InterfaceError):
        raise
    except sqlite3.Error as exc:
        raise sqlite_error(where, exc) from None
    except MemoryError:
        raise LogError(
            f"{where}: it holds a value larger than affray reads (SQLite may take "
            f"{HEAP_LIMIT // 2**20} MiB of memory for it)"
        ) from None


def connect(path: Path, mode: Mode) -> sqlite3.Connection:
    """A connection to the file at ``path`` in ``mode``, in autocommit mode (transactions explicit), with
    the settings every campaign connection has (see the module's docstring)."""
    uri = f"{Path(path).absolute().as_uri()}?{mode.value}"
    connection = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT)
    try:
        connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, VALUE_LIMIT)
        connection.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
        connection.execute("PRAGMA trusted_schema = OFF")
        if process.is_affrays_own():
            connection.execute(f"PRAGMA hard_heap_limit = {HEAP_LIMIT}")
        setconfig = getattr(connection, "setconfig", None)  # Python 3.12 and later
        defensive = getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE", None)
        if setconfig is not None and defensive is not None:
            setconfig(defensive, True)
    except BaseException:
        connection.close()
        raise
    return connection


class Beside(NamedTuple):
    """SQLite's files beside a campaign: the size of its write-ahead log (None when there is none), and
    whether its shared-memory index is there."""

    wal: int | None
    shm: bool

    @property
    def lines_left(self) -> bool:
        """Whether the write-ahead log may hold lines that are not yet in the file."""
        return self.wal is not None and self.wal > _WAL_HEADER


def beside(path: Path, where: str) -> Beside:
    """What lies beside the campaign's real file (links followed, as SQLite names them): LogError for one
    that is not a regular file (a link planted there) or a rollback journal, which affray never leaves."""
    real = Path(os.path.realpath(path))
    sizes: dict[str, int] = {}
    for suffix in ("-wal", "-shm", "-journal"):
        side = real.with_name(real.name + suffix)
        try:
            status = os.lstat(side)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise LogError(f"{where}: cannot read {printable(side.name)}: {exc.strerror or exc}") from None
        if not stat.S_ISREG(status.st_mode):
            raise LogError(
                f"{where}: {printable(side.name)} beside it is not a regular file (a link, say); only "
                "SQLite's own files may lie there"
            )
        sizes[suffix] = status.st_size
    if sizes.get("-journal"):
        raise LogError(
            f"{where}: {printable(real.name)}-journal beside it is a rollback journal, which affray never "
            "leaves; another program was writing it: move the journal away or let that program finish"
        )
    return Beside(sizes.get("-wal"), "-shm" in sizes)


def read_mode(file: CampaignFile, path: Path) -> Mode:
    """How to open the campaign to read it (see the module's docstring), taking ``file``'s lock shared
    when no writer holds it."""
    deadline = time.monotonic() + WRITER_FILES_WAIT
    while True:
        if file.share():
            try:
                return alone_mode(beside(path, file.where), file.where)
            except BaseException:
                file.unlock()
                raise
        sidecars = beside(path, file.where)
        if sidecars.wal is not None and sidecars.shm:
            return Mode.BESIDE_WRITER
        if time.monotonic() > deadline:
            raise LogError(
                f"{file.where}: another affray is writing to it by another name (a hard link), and it "
                "cannot be read beside that write; try again once it is done"
            )
        time.sleep(_POLL)  # a writer just starting or just done: its files are being made or removed


def alone_mode(sidecars: Beside, where: str) -> Mode:
    """How to read a campaign no one writes: alone, or with the lines a writer that is gone left in its
    write-ahead log."""
    if not sidecars.lines_left:
        return Mode.ALONE
    if sidecars.shm:
        return Mode.LEFT_LOG
    raise LogError(
        f"{where}: its -wal file holds lines a writer committed and its -shm file, SQLite's index of them, "
        "is missing; reading them would make one, and reading writes nothing: bring the -shm file with "
        "it, or let affray write to the campaign once (the writer takes the lines in)"
    )
