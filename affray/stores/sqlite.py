"""Campaigns: the logs of many encounters in one SQLite file, written as ``OutputFile`` writes a log file.

A campaign (``campaign.sqlite``) holds each encounter's log as the lines of its JSON Lines file: the
header, the event lines by seq, and the end line once written; ``Campaign.read`` gives back the file's
bytes. The store keeps the log's hash chain: a line is added only at the next seq and only when its
``prev`` is the hash of the line before it, so what a campaign holds always reads as a log that chains.

An encounter is written whole or not at all: its lines go to a temporary encounter (``.NAME.PID.tmp``),
which takes NAME only when the write is committed, in one transaction; a failed write is kept as
``NAME.partial`` (``NAME.partial-2``, ...). A lock file beside the campaign (``.campaign.sqlite.lock``,
an ``flock``, so a killed process releases it) lets one affray write to the campaign at a time; any
number read meanwhile (SQLite's write-ahead log), each stream a snapshot of the log as it was when read.

Each line is appended in a transaction of its own, committed before the append returns: a process killed
at any moment leaves every line appended before it, and never half a line. The file is kept with
``synchronous=NORMAL``: a power cut or an operating system crash may lose the last commits, but a
transaction is all or nothing, so it never leaves half a line either.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import sqlite3
from collections.abc import Generator, Iterator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

import msgspec

from affray.errors import LogError, excerpt, open_user_file, printable
from affray.events.codec import END_PREFIX, MAX_LINE_BYTES, PREV_KEY, encode_end, line_hash
from affray.events.output import partial_names

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

SUFFIXES = (".sqlite", ".sqlite3", ".db")
"""A path ending in one of these names a campaign (compared without regard to case)."""
APPLICATION_ID = int.from_bytes(b"afry", "big")
"""SQLite's ``application_id`` of a campaign: the ASCII of ``afry``."""
SCHEMA_VERSION = 1
"""The campaign schema this affray writes and reads, kept as SQLite's ``user_version``."""
BUSY_TIMEOUT = 5.0
"""How many seconds a statement waits for another connection's write lock before giving up."""
NAME_LIMIT = 200
"""The longest name, in characters, an encounter may be given."""
_STORED_NAME_LIMIT = NAME_LIMIT + 40
"""The longest name a stored encounter may have: a temporary or partial one adds to its name."""
_LISTED = 20
"""How many names an error about a missing encounter lists."""
_SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = f"""
BEGIN;
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = {SCHEMA_VERSION};
CREATE TABLE encounters (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    header BLOB NOT NULL,
    end_line BLOB NULL,
    events INTEGER NOT NULL CHECK (events >= 0),
    last_hash TEXT NOT NULL
) STRICT;
CREATE TABLE events (
    encounter INTEGER NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL CHECK (seq >= 1),
    line BLOB NOT NULL,
    PRIMARY KEY (encounter, seq)
) WITHOUT ROWID, STRICT;
COMMIT;
"""

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
}
"""What a SQLite error means for the user, by its primary result code."""


def is_campaign_path(path: Path) -> bool:
    """Whether ``path`` names a campaign rather than a JSON Lines log, by its suffix."""
    return Path(path).suffix.lower() in SUFFIXES


class Stored(msgspec.Struct, frozen=True):
    """An encounter a campaign holds: its name, how many event lines it holds, and whether its end line
    is stored (a partial or temporary encounter has none)."""

    name: str
    events: int
    whole: bool


class _Held(NamedTuple):
    id: int
    header: bytes
    end_line: bytes | None
    events: int
    last_hash: str


class _Taken(Exception):
    """The name a write was to take was made while it was written."""


def _sqlite_error(where: str, exc: sqlite3.Error) -> LogError:
    # an error the sqlite3 module raises itself carries no result code
    problem = _PROBLEMS.get(getattr(exc, "sqlite_errorcode", 0) & 0xFF, "SQLite failed")
    return LogError(f"{where}: {problem} ({exc})")


@contextlib.contextmanager
def _guarded(where: str) -> Iterator[None]:
    """SQLite's errors as LogError naming ``where``; a misuse of the sqlite3 module stays what it is."""
    try:
        yield
    except (sqlite3.ProgrammingError, sqlite3.InterfaceError):
        raise
    except sqlite3.Error as exc:
        raise _sqlite_error(where, exc) from None


def _rollback(connection: sqlite3.Connection) -> None:
    if connection.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")


def _not_campaign(where: str, why: str) -> LogError:
    return LogError(f"{where}: not an affray campaign ({why})")


def _no_wal(where: str, mode: str) -> LogError:
    return LogError(
        f"{where}: cannot keep a campaign here: SQLite's write-ahead log does not work on this filesystem "
        f"(the journal mode stays {mode!r}); keep the campaign on a local disk"
    )


def _uri(path: Path, mode: str) -> str:
    return f"{path.absolute().as_uri()}?mode={mode}"


def _connect(path: Path) -> sqlite3.Connection:
    """A connection to an existing file, never creating one, in autocommit mode (transactions explicit)."""
    return sqlite3.connect(_uri(path, "rw"), uri=True, isolation_level=None, timeout=BUSY_TIMEOUT)


_CANNOT_SHARE = {sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN}
"""What opening a campaign read-only gives when its folder cannot hold SQLite's shared-memory file."""


def _connect_to_read(path: Path) -> sqlite3.Connection:
    """A read-only connection, which writes nothing to the file or beside it: a campaign in a folder this
    process may not write to (an archive, a read-only mount) is read as ``immutable``, since no one can be
    writing it there."""
    connection = sqlite3.connect(_uri(path, "ro"), uri=True, isolation_level=None, timeout=BUSY_TIMEOUT)
    try:
        connection.execute("PRAGMA application_id").fetchone()
    except sqlite3.OperationalError as exc:
        connection.close()
        if getattr(exc, "sqlite_errorcode", 0) & 0xFF not in _CANNOT_SHARE:
            raise
        uri = f"{_uri(path, 'ro')}&immutable=1"
        return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT)
    return connection


def _remove_database(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            path.with_name(path.name + suffix).unlink(missing_ok=True)


def _create(path: Path) -> None:
    """Make an empty campaign at ``path`` unless a file is there: built beside it, then linked into place,
    so that no one ever sees a campaign half made; a file made there meanwhile is left as it is."""
    where = printable(str(path))
    temporary = path.with_name(f".{path.name}.{os.getpid()}.new")
    _remove_database(temporary)
    try:
        connection = sqlite3.connect(_uri(temporary, "rwc"), uri=True, isolation_level=None)
        try:
            connection.executescript(_SCHEMA)
            (mode,) = connection.execute("PRAGMA journal_mode=WAL").fetchone()
        finally:
            connection.close()
        if mode != "wal":
            raise _no_wal(where, mode)
        os.link(temporary, path)
    except FileExistsError:
        pass
    except sqlite3.Error as exc:
        raise _sqlite_error(where, exc) from None
    except OSError as exc:
        raise LogError(f"{where}: cannot write: {exc.strerror or exc}") from None
    finally:
        _remove_database(temporary)


def _sniff(path: Path) -> None:
    """Refuse, before SQLite opens it (and could change it), a file that is no campaign."""
    where = printable(str(path))
    with open_user_file(path, LogError, "a campaign") as file:  # never a fifo, a device or a socket
        try:
            head = file.read(100)
        except OSError as exc:
            raise LogError(f"{where}: cannot read: {exc.strerror or exc}") from None
    if not head:
        raise _not_campaign(where, "an empty file")
    if len(head) < 100 or not head.startswith(_SQLITE_MAGIC):
        raise _not_campaign(where, "not a SQLite file")
    _check_application_id(where, int.from_bytes(head[68:72], "big"))


def _check_application_id(where: str, found: int) -> None:
    if found != APPLICATION_ID:
        raise _not_campaign(
            where, f"a SQLite database whose application_id is {found:#x}, not affray's {APPLICATION_ID:#x}"
        )


def _check_schema(connection: sqlite3.Connection, where: str) -> None:
    (found,) = connection.execute("PRAGMA application_id").fetchone()
    _check_application_id(where, found)
    (version,) = connection.execute("PRAGMA user_version").fetchone()
    if version > SCHEMA_VERSION:
        raise LogError(
            f"{where}: its campaign schema is version {version}, newer than this affray reads "
            f"({SCHEMA_VERSION}); use a newer affray"
        )
    if version < SCHEMA_VERSION:
        raise _not_campaign(where, f"its schema version is {version}")
    tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    missing = sorted({"encounters", "events"} - tables)
    if missing:
        raise _not_campaign(where, f"it has no {' or '.join(missing)} table")


def _configure(connection: sqlite3.Connection, where: str) -> None:
    (mode,) = connection.execute("PRAGMA journal_mode=WAL").fetchone()
    if mode != "wal":
        raise _no_wal(where, mode)
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("PRAGMA foreign_keys=ON")


def _name_problem(name: str, limit: int) -> str | None:
    if not name:
        return "is empty"
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "is not text (it holds bytes that are not UTF-8)"
    if "\n" in name or "\r" in name:
        return "holds a newline"
    if len(name) > limit:
        return f"is {len(name):,} characters long, longer than the {limit} a name may be"
    return None


def check_new_name(campaign: Path, name: str) -> None:
    """LogError when ``name`` cannot be given to an encounter written to ``campaign``: empty, holding a
    line break, too long, or beginning with ``.`` (which marks one being written)."""
    where = f"{printable(str(campaign))}#{excerpt(printable(name))}"
    problem = _name_problem(name, NAME_LIMIT)
    if problem:
        raise LogError(f"{where}: an encounter's name {problem}")
    if name.startswith("."):
        raise LogError(f"{where}: an encounter's name may not begin with '.', which marks one being written")


def _check_line(where: str, seq: int, line: bytes) -> None:
    if seq < 0:
        raise LogError(f"{where}: seq {seq} is negative; the header is seq 0, the events 1, 2, ...")
    if len(line) > MAX_LINE_BYTES:
        raise LogError(
            f"{where}: the line of seq {seq} is {len(line):,} bytes, longer than the {MAX_LINE_BYTES:,} a "
            "log line may hold (docs/log-format.md)"
        )
    if not line:
        raise LogError(f"{where}: the line of seq {seq} is empty")
    if b"\n" in line:
        raise LogError(f"{where}: the line of seq {seq} holds a newline; a log line cannot")


def _same(where: str, seq: int, held: bytes, line: bytes) -> bool:
    """False for the line already held at ``seq`` (appending it again changes nothing); LogError for
    another."""
    if held != line:
        raise LogError(f"{where}: seq {seq} already holds another line")
    return False


def _check_chain(where: str, held: _Held, seq: int, line: bytes) -> None:
    before = "the header" if seq == 1 else f"seq {seq - 1}"
    if not line.endswith(b'%s%s"}' % (PREV_KEY, held.last_hash.encode())):
        raise LogError(
            f"{where}: seq {seq} does not chain: its prev must be {held.last_hash}, the hash of {before}"
        )
    if line.startswith(END_PREFIX) and line != encode_end(held.events, held.last_hash):
        raise LogError(f"{where}: the end line (seq {seq}) must count the {held.events} events held")


def _put_line(connection: sqlite3.Connection, where: str, held: _Held, seq: int, line: bytes) -> bool:
    """Append an event or end line at ``seq`` (1 or more) to the encounter ``held``."""
    if seq <= held.events:
        row = connection.execute(
            "SELECT line FROM events WHERE encounter = ? AND seq = ?", (held.id, seq)
        ).fetchone()
        if row is None:
            raise LogError(f"{where}: the file is damaged: seq {seq} is missing")
        return _same(where, seq, row[0], line)
    after = held.events + 1
    if held.end_line is not None:
        if seq == after:
            return _same(where, seq, held.end_line, line)
        raise LogError(f"{where}: seq {seq} would follow the end line (seq {after}); nothing follows it")
    if seq > after:
        raise LogError(
            f"{where}: seq {seq} would leave a gap: it holds lines up to seq {held.events}, so seq {after} "
            "comes next"
        )
    _check_chain(where, held, seq, line)
    if line.startswith(END_PREFIX):
        connection.execute("UPDATE encounters SET end_line = ? WHERE id = ?", (line, held.id))
    else:
        connection.execute("INSERT INTO events (encounter, seq, line) VALUES (?, ?, ?)", (held.id, seq, line))
        connection.execute(
            "UPDATE encounters SET events = ?, last_hash = ? WHERE id = ?", (seq, line_hash(line), held.id)
        )
    return True


class _WriterLock:
    """The campaign's writer lock: an ``flock`` on ``.NAME.lock`` beside it, holding the writer's pid."""

    def __init__(self, campaign: Path) -> None:
        self.where = printable(str(campaign))
        # beside the file itself, so a writer reaching it by a link or another path meets the same lock
        real = campaign.resolve()
        self.path = real.with_name(f".{real.name}.lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or LogError naming who holds it."""
        for _ in range(100):
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise LogError(f"{self.where}: cannot write: {exc.strerror or exc}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = self._holder(fd)
                os.close(fd)
                raise LogError(
                    f"{self.where}: another affray is writing to it ({holder}); wait for it to finish"
                ) from None
            except OSError as exc:
                os.close(fd)
                raise LogError(f"{self.where}: cannot lock {self.path.name}: {exc.strerror or exc}") from None
            if self._still_named(fd):
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, 0)
                    os.write(fd, f"{os.getpid()}\n".encode())
                self._fd = fd
                return
            # its holder removed the lock file between our open and flock: take the one there now
            os.close(fd)
        raise LogError(f"{self.where}: cannot lock {self.path.name}: it keeps changing")

    def _still_named(self, fd: int) -> bool:
        try:
            named = self.path.stat()
        except FileNotFoundError:
            return False
        held = os.fstat(fd)
        return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)

    def _holder(self, fd: int) -> str:
        try:
            text = os.pread(fd, 32, 0).strip()
        except OSError:
            text = b""
        if not text.isdigit():
            return f"{self.path.name} is held"
        pid = int(text)
        return f"{'this process' if pid == os.getpid() else f'process {pid}'} holds {self.path.name}"

    def release(self) -> None:
        """Give the lock up and remove its file (while still holding it, so no one takes a removed one)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                self.path.unlink(missing_ok=True)
            os.close(self._fd)
            self._fd = None


class _LogStream(io.RawIOBase):
    """An encounter's log as bytes, a line at a time from a cursor on a connection of its own, in one read
    transaction: a snapshot, whatever is appended meanwhile. Closing it closes the connection."""

    def __init__(
        self, connection: sqlite3.Connection, where: str, encounter: int, header: bytes, end: bytes | None
    ) -> None:
        super().__init__()
        self._connection = connection
        self._where = where
        self._cursor = connection.execute(
            "SELECT line FROM events WHERE encounter = ? ORDER BY seq", (encounter,)
        )
        self._lines = self._each(header, end)
        self._pending = memoryview(b"")

    def _each(self, header: bytes, end: bytes | None) -> Generator[bytes, None, None]:
        yield header
        for (line,) in self._cursor:
            yield line
        if end is not None:
            yield end

    def readable(self) -> bool:
        """It is."""
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        """Fill ``buffer`` from the current line, fetching the next when it is used up; 0 at the end."""
        while not self._pending:
            with _guarded(self._where):
                line = next(self._lines, None)
            if line is None:
                return 0
            self._pending = memoryview(line + b"\n")
        with memoryview(buffer) as view, view.cast("B") as flat:
            size = min(len(flat), len(self._pending))
            flat[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        return size

    def close(self) -> None:
        """Close the cursor and the connection."""
        if not self.closed:
            try:
                self._lines.close()
                self._cursor.close()
                self._connection.close()
            finally:
                super().close()


class Campaign:
    """A SQLite file of many encounters' logs. A context manager (closes the connection).

    ``append`` and ``delete`` take the writer lock for their duration unless a ``writer`` of this
    campaign holds it; reading needs no lock.
    """

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._connection = connection
        self._writer: CampaignOutput | None = None

    @classmethod
    def open(cls, path: Path, *, create: bool = False, read_only: bool = False) -> Campaign:
        """The campaign at ``path``; with ``create``, an empty one made there when there is no file; with
        ``read_only``, opened to read and never written to (nor the folder beside it). A file that is no
        campaign (not SQLite, another program's database, a newer schema) is refused, untouched."""
        path = Path(path)
        if create and not os.path.lexists(path):
            _create(path)
        _sniff(path)
        where = printable(str(path))
        with _guarded(where):
            connection = _connect_to_read(path) if read_only else _connect(path)
        try:
            with _guarded(where):
                _check_schema(connection, where)
                if not read_only:
                    _configure(connection, where)
        except BaseException:
            connection.close()
            raise
        return cls(path, connection)

    def __enter__(self) -> Campaign:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection; a write still going is kept as partial first (see ``keep_partial``)."""
        if self._writer is not None:
            self._writer.keep_partial()
        self._connection.close()

    def _where(self) -> str:
        return printable(str(self.path))

    def _named(self, name: str) -> str:
        return f"{self._where()}#{printable(name)}"

    def _check_name(self, name: str, limit: int = _STORED_NAME_LIMIT) -> None:
        problem = _name_problem(name, limit)
        if problem:
            raise LogError(f"{self._where()}#{excerpt(printable(name))}: an encounter's name {problem}")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception; SQLite's errors as LogError."""
        connection = self._connection
        with _guarded(self._where()):
            _rollback(connection)  # one an interrupt (Ctrl-C) left open between its BEGIN and its try
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
                connection.execute("COMMIT")
            except BaseException:
                _rollback(connection)
                raise

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        if self._writer is not None:
            yield
            return
        lock = _WriterLock(self.path)
        lock.acquire()
        try:
            yield
        finally:
            lock.release()

    def stored(self) -> list[Stored]:
        """Every encounter the campaign holds, partial and temporary ones too, sorted by name."""
        with _guarded(self._where()):
            rows = self._connection.execute(
                "SELECT name, events, end_line IS NOT NULL FROM encounters ORDER BY name"
            ).fetchall()
        return [Stored(name, events, bool(whole)) for name, events, whole in rows]

    def exists(self, name: str) -> bool:
        """Whether the campaign holds an encounter of that name."""
        self._check_name(name)
        with _guarded(self._where()):
            row = self._connection.execute("SELECT 1 FROM encounters WHERE name = ?", (name,)).fetchone()
        return row is not None

    def _missing(self, name: str) -> LogError:
        with _guarded(self._where()):
            (count,) = self._connection.execute("SELECT count(*) FROM encounters").fetchone()
            names = [
                printable(found)
                for (found,) in self._connection.execute(
                    "SELECT name FROM encounters ORDER BY name LIMIT ?", (_LISTED,)
                )
            ]
        more = f" and {count - len(names):,} more" if count > len(names) else ""
        holds = f"it holds: {', '.join(names)}{more}" if names else "it holds none"
        return LogError(f"{self._named(name)}: no such encounter; {holds}")

    def read(self, name: str) -> BinaryIO:
        """The log's bytes exactly as its JSON Lines file would hold them, read lazily (a line at a time)
        from a snapshot of the campaign; close the stream when done."""
        self._check_name(name)
        with _guarded(self._where()):
            connection = _connect_to_read(self.path)
        try:
            with _guarded(self._where()):
                connection.execute("BEGIN")
                row = connection.execute(
                    "SELECT id, header, end_line FROM encounters WHERE name = ?", (name,)
                ).fetchone()
                if row is None:
                    raise self._missing(name)
                raw = _LogStream(connection, self._named(name), *row)
        except BaseException:
            connection.close()
            raise
        return io.BufferedReader(raw)

    def append(self, name: str, seq: int, line: bytes) -> bool:
        """Add ``line`` (without its newline) at ``seq`` of encounter ``name`` in a transaction of its own:
        seq 0 is the header, which makes the encounter; 1, 2, ... the event lines; the end line comes at
        the seq after the last event. True when added; False when that very line is already there. Any
        other line at a held seq, a gap, a line that does not chain to the one before, anything after the
        end line, or a line longer than a log line may be: LogError. Takes the writer lock (see above)."""
        self._check_name(name)
        with self._locked():
            return self._append(name, seq, line)

    def _append(self, name: str, seq: int, line: bytes) -> bool:
        where = self._named(name)
        _check_line(where, seq, line)
        with self._transaction() as connection:
            row = connection.execute(
                "SELECT id, header, end_line, events, last_hash FROM encounters WHERE name = ?", (name,)
            ).fetchone()
            held = None if row is None else _Held(*row)
            if seq == 0:
                return self._put_header(connection, name, held, line)
            if held is None:
                raise LogError(f"{where}: no such encounter; its header (seq 0) comes before seq {seq}")
            return _put_line(connection, where, held, seq, line)

    def _put_header(self, connection: sqlite3.Connection, name: str, held: _Held | None, line: bytes) -> bool:
        if held is not None:
            return _same(self._named(name), 0, held.header, line)
        if line.startswith(END_PREFIX):
            raise LogError(f"{self._named(name)}: seq 0 must be the header, not an end line")
        connection.execute(
            "INSERT INTO encounters (name, header, events, last_hash) VALUES (?, ?, 0, ?)",
            (name, line, line_hash(line)),
        )
        return True

    def delete(self, name: str) -> None:
        """Remove an encounter and all its lines; LogError when there is none of that name. Takes the
        writer lock (see above)."""
        self._check_name(name)
        with self._locked():
            if not self._delete(name):
                raise self._missing(name)

    def _delete(self, name: str) -> bool:
        with self._transaction() as connection:
            return connection.execute("DELETE FROM encounters WHERE name = ?", (name,)).rowcount > 0

    def writer(self, name: str, *, replace: bool = False) -> CampaignOutput:
        """An encounter to write as ``name``: refused when one of that name exists (unless ``replace``) or
        while another writer holds the campaign's lock, in this process or another."""
        check_new_name(self.path, name)
        if not replace and self.exists(name):
            raise LogError(f"{self._named(name)}: already exists; choose another name or pass --force")
        lock = _WriterLock(self.path)
        lock.acquire()
        try:
            output = CampaignOutput(self, name, lock, replace=replace)
        except BaseException:
            lock.release()
            raise
        self._writer = output
        return output

    def _rename(self, temporary: str, name: str, *, replace: bool) -> None:
        with self._transaction() as connection:
            taken = connection.execute("SELECT id FROM encounters WHERE name = ?", (name,)).fetchone()
            if taken is not None:
                if not replace:
                    raise _Taken
                connection.execute("DELETE FROM encounters WHERE id = ?", taken)
            moved = connection.execute(
                "UPDATE encounters SET name = ? WHERE name = ?", (name, temporary)
            ).rowcount
            if moved != 1:
                raise LogError(f"{self._named(temporary)}: was removed while affray wrote it")

    def _keep_partial(self, temporary: str, name: str) -> str | None:
        """Rename ``temporary`` ``NAME.partial`` (``-2``, ... when taken); the name it took, None when it
        was not there or no such name is free."""
        with self._transaction() as connection:
            if connection.execute("SELECT 1 FROM encounters WHERE name = ?", (temporary,)).fetchone() is None:
                return None
            for kept in partial_names(name):
                if connection.execute("SELECT 1 FROM encounters WHERE name = ?", (kept,)).fetchone() is None:
                    connection.execute("UPDATE encounters SET name = ? WHERE name = ?", (kept, temporary))
                    return self._named(kept)
            return None


class CampaignOutput:
    """One encounter being written; the same surface as affray.events.output.OutputFile: ``write`` each
    line, then ``commit``, ``discard`` or ``keep_partial``, each of which releases the writer lock."""

    def __init__(self, campaign: Campaign, name: str, lock: _WriterLock, *, replace: bool = False) -> None:
        self.name = name
        self.replace = replace
        self.target = campaign._named(name)
        """``campaign.sqlite#NAME``, as the user names it."""
        self._temporary = f".{name}.{os.getpid()}.tmp"
        self.writing = campaign._named(self._temporary)
        """``campaign.sqlite#.NAME.PID.tmp``: the temporary encounter the lines go to until ``commit``."""
        self._campaign = campaign
        self._lock = lock
        self._lines = 0
        self._ended: str | None = None
        if campaign.exists(self._temporary):
            # left by an earlier write of this pid that never ended (killed): kept, as a failed write is
            campaign._keep_partial(self._temporary, name)

    def _check_going(self) -> None:
        if self._ended is not None:
            raise LogError(f"{self.target}: its write has ended ({self._ended}); nothing more can be done")

    def _end(self, how: str) -> None:
        if self._ended is None:
            self._ended = how
            if self._campaign._writer is self:
                self._campaign._writer = None
            self._lock.release()

    def write(self, data: bytes) -> None:
        """Append one whole line, ending in its newline (the header first, then the events, then the end
        line), in a transaction of its own."""
        self._check_going()
        if not data.endswith(b"\n") or data.find(b"\n") != len(data) - 1:
            raise LogError(f"{self.target}: a write must be one whole line ending in a newline")
        self._campaign._append(self._temporary, self._lines, bytes(data[:-1]))
        self._lines += 1

    def commit(self) -> None:
        """Give the encounter its name, in one transaction (replacing the old one when asked); a name made
        meanwhile is not replaced: the log is kept as partial and LogError says where."""
        self._check_going()
        if self._lines == 0:
            self._end("nothing was written")
            raise LogError(f"{self.target}: nothing was written to it")
        try:
            self._campaign._rename(self._temporary, self.name, replace=self.replace)
        except _Taken:
            kept = self.keep_partial()
            raise LogError(
                f"{self.target}: was made while affray wrote it; the log is kept in {kept}"
            ) from None
        except LogError as exc:
            kept = self.keep_partial()
            raise LogError(f"{exc}; the log is kept in {kept}") from None
        finally:
            self._end("committed")

    def discard(self) -> None:
        """Remove what was written, without taking the name (nothing, once the write has ended)."""
        if self._ended is not None:
            return
        try:
            self._campaign._delete(self._temporary)
        finally:
            self._end("discarded")

    def keep_partial(self) -> str:
        """End without taking the name; keep what was written as ``NAME.partial`` (``NAME.partial-2``, ...
        when taken) and return ``campaign.sqlite#NAME.partial``: the temporary name when that cannot be
        done or nothing was written."""
        self._check_going()
        kept: str | None = None
        try:
            kept = self._campaign._keep_partial(self._temporary, self.name)
        except LogError:
            kept = None
        finally:
            self._end("kept as partial")
        return kept or self.writing
