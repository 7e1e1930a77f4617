"""Campaigns: the logs of many encounters in one SQLite file, written as ``OutputFile`` writes a log file.

A campaign (``campaign.sqlite``) holds each encounter's log as the lines of its JSON Lines file: the
header, the event lines by seq, and the end line once written; ``Campaign.read`` gives back the file's
bytes. The store keeps the log's hash chain (``affray.stores.chain``).

An encounter is written whole or not at all (``affray.stores.output``). A campaign opened to write holds
the lock on its file (``affray.stores.lock``) from open to close, so one affray writes to it at a time; any
number read meanwhile, each stream a snapshot of the log as it was when read, and a read writes nothing
(``affray.stores.connection``). A file is opened as a campaign only once its header and its schema are
affray's (``affray.stores.schema``), and every value is checked before it is fetched
(``affray.stores.rows``).

Each line is appended in a transaction of its own, committed before the append returns: a process killed
at any moment leaves every line appended before it, and never half a line. The file is kept with
``synchronous=NORMAL``: a power cut or an operating system crash may lose the last commits, but a
transaction is all or nothing, so it never leaves half a line either.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

from affray.errors import LogError, excerpt, printable
from affray.events.signature import SIGNATURE_PREFIX
from affray.files import partial_names
from affray.stores.chain import append as append_line
from affray.stores.connection import (
    Beside,
    Mode,
    alone_mode,
    beside,
    connect,
    guarded,
    read_mode,
    sqlite_error,
)
from affray.stores.kinds import SUFFIXES, is_campaign_path
from affray.stores.lock import CampaignFile
from affray.stores.output import CampaignOutput, Taken
from affray.stores.rows import NAME_LIMIT, STORED_NAME_LIMIT, Stored, check_lines, fetching, held, listing
from affray.stores.schema import (
    APPLICATION_ID,
    HEADER_BYTES,
    SCHEMA,
    SCHEMA_VERSION,
    UPGRADE,
    check_header,
    check_schema,
)
from affray.stores.stream import LogStream

__all__ = [
    "APPLICATION_ID",
    "NAME_LIMIT",
    "SUFFIXES",
    "Campaign",
    "CampaignOutput",
    "Stored",
    "check_new_name",
    "is_campaign_path",
]

_LISTED = 20
"""How many names an error about a missing encounter lists."""


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


def _create(path: Path, where: str) -> None:
    """Make an empty campaign at ``path`` unless a file (or a link) is there: built in a new folder of a
    random name beside it, then linked into place, so that no one ever sees a campaign half made and
    nothing is written at a name someone else may have chosen; a file made there meanwhile is left as it
    is."""
    try:
        folder = Path(tempfile.mkdtemp(prefix=".affray-new-", dir=path.parent))
    except OSError as exc:
        raise LogError(f"{where}: cannot write: {exc.strerror or exc}") from None
    made = folder / "campaign.sqlite"
    try:
        with contextlib.closing(connect(made, Mode.CREATE)) as connection:
            connection.executescript(SCHEMA)
            (mode,) = connection.execute("PRAGMA journal_mode=WAL").fetchone()
        if mode != "wal":
            raise _no_wal(where, mode)
        os.link(made, path)
    except FileExistsError:
        pass
    except sqlite3.Error as exc:
        raise sqlite_error(where, exc) from None
    except OSError as exc:
        raise LogError(f"{where}: cannot write: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _no_wal(where: str, mode: str) -> LogError:
    return LogError(
        f"{where}: cannot keep a campaign here: SQLite's write-ahead log does not work on this filesystem "
        f"(the journal mode stays {mode!r}); keep the campaign on a local disk"
    )


def _checked(path: Path, mode: Mode, where: str) -> tuple[sqlite3.Connection, int]:
    """A connection in ``mode`` to a file whose schema was found to be a campaign's, and nothing else; and
    its schema version."""
    with guarded(where):
        connection = connect(path, mode)
        try:
            version = check_schema(connection, where)
        except BaseException:
            connection.close()
            raise
    return connection, version


def _to_read(file: CampaignFile, path: Path, where: str) -> tuple[sqlite3.Connection, int]:
    check_header(where, file.head(HEADER_BYTES))
    return _checked(path, read_mode(file, path), where)


def _to_write(file: CampaignFile, path: Path, where: str) -> tuple[sqlite3.Connection, int]:
    """The writer's connection, once the file has been found to be a campaign without writing a byte
    (SQLite folds a write-ahead log into the file when a writer closes it, a refused one too)."""
    check_header(where, file.head(HEADER_BYTES))
    sidecars: Beside = beside(path, where)
    if not sidecars.lines_left or sidecars.shm:
        _checked(path, alone_mode(sidecars, where), where)[0].close()
    connection, version = _checked(path, Mode.WRITE, where)
    try:
        with guarded(where):
            (mode,) = connection.execute("PRAGMA journal_mode=WAL").fetchone()
            if mode != "wal":
                raise _no_wal(where, mode)
            connection.execute("PRAGMA synchronous=NORMAL")
            connection.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        connection.close()
        raise
    return connection, version


class Campaign:
    """A SQLite file of many encounters' logs. A context manager (closes the connection).

    Opened to write, it holds the campaign's lock until closed: ``append``, ``delete`` and ``writer`` work
    only then, and one ``writer`` at a time. Opened to read, it holds the lock shared while no writer
    does, and writes nothing.
    """

    def __init__(
        self, path: Path, file: CampaignFile, connection: sqlite3.Connection, version: int, *, writes: bool
    ) -> None:
        self.path = path
        self.version = version
        """Its schema version (schema.py): 1 keeps no signature lines until one is stored."""
        self._shown = printable(str(path))
        self._file = file
        self._connection = connection
        self._writes = writes
        self._writer: CampaignOutput | None = None

    @classmethod
    def open(cls, path: Path, *, create: bool = False, read_only: bool = False) -> Campaign:
        """The campaign at ``path``; with ``create``, an empty one made there when there is no file; with
        ``read_only``, opened to read and never written to (nor the folder beside it). A file that is no
        campaign (not SQLite, another program's database, a schema not exactly affray's, a newer schema)
        is refused, untouched; so is a second writer."""
        path = Path(path)
        where = printable(str(path))
        if create and not read_only and not os.path.lexists(path):
            _create(path, where)
        file = CampaignFile.open(path, where)
        try:
            if read_only:
                connection, version = _to_read(file, path, where)
            else:
                file.exclude()
                connection, version = _to_write(file, path, where)
        except BaseException:
            file.close()
            raise
        return cls(path, file, connection, version, writes=not read_only)

    def __enter__(self) -> Campaign:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection, then let the lock go; a write still going is kept as partial first (see
        ``CampaignOutput.keep_partial``)."""
        try:
            if self._writer is not None:
                self._writer.keep_partial()
        finally:
            try:
                self._connection.close()
            finally:
                self._file.close()

    def _where(self) -> str:
        return self._shown

    def named(self, name: str) -> str:
        """``campaign.sqlite#NAME``, as errors and messages name an encounter."""
        return f"{self._where()}#{printable(name)}"

    def _check_name(self, name: str, limit: int = STORED_NAME_LIMIT) -> None:
        problem = _name_problem(name, limit)
        if problem:
            raise LogError(f"{self._where()}#{excerpt(printable(name))}: an encounter's name {problem}")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception; SQLite's errors as LogError."""
        if not self._writes:
            raise LogError(f"{self._where()}: cannot write: it was opened read-only, to read")
        connection = self._connection
        with guarded(self._where()):
            _rollback(connection)  # one an interrupt (Ctrl-C) left open between its BEGIN and its try
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
                connection.execute("COMMIT")
            except BaseException:
                _rollback(connection)
                raise

    def stored(self) -> list[Stored]:
        """Every encounter the campaign holds, partial and temporary ones too, sorted by name."""
        with guarded(self._where()):
            return listing(self._connection, self._where())

    def exists(self, name: str) -> bool:
        """Whether the campaign holds an encounter of that name."""
        self._check_name(name)
        with guarded(self._where()):
            cursor = fetching(
                self._connection, self._where(), "SELECT 1 FROM encounters WHERE name = ?", (name,)
            )
            return cursor.fetchone() is not None

    def names_starting(self, prefix: str) -> list[str]:
        """The names of the encounters that begin with ``prefix``, sorted."""
        with guarded(self._where()):
            cursor = fetching(
                self._connection,
                self._where(),
                "SELECT name FROM encounters WHERE substr(name, 1, ?) = ? ORDER BY name",
                (len(prefix), prefix),
            )
            return [name for (name,) in cursor.fetchall()]

    def _missing(self, name: str) -> LogError:
        with guarded(self._where()):
            (count,) = self._connection.execute("SELECT count(*) FROM encounters").fetchone()
            names = [printable(stored.name) for stored in listing(self._connection, self._where(), _LISTED)]
        more = f" and {count - len(names):,} more" if count > len(names) else ""
        holds = f"it holds: {', '.join(names)}{more}" if names else "it holds none"
        return LogError(f"{self.named(name)}: no such encounter; {holds}")

    def read(self, name: str) -> BinaryIO:
        """The log's bytes exactly as its JSON Lines file would hold them, read lazily (a line at a time)
        from a snapshot of the campaign; close the stream when done."""
        self._check_name(name)
        where = self._where()
        file = self._file.again()
        try:
            connection, version = _checked(self.path, read_mode(file, self.path), where)
        except BaseException:
            file.close()
            raise
        try:
            with guarded(where):
                connection.execute("BEGIN")
                row = held(connection, self.named(name), name)
                if row is None:
                    raise self._missing(name)
                check_lines(connection, self.named(name), row.id)
                raw = LogStream(file, connection, self.named(name), row, signed=version >= 2)
        except BaseException:
            connection.close()
            file.close()
            raise
        return io.BufferedReader(raw)

    def append(self, name: str, seq: int, line: bytes) -> bool:
        """Add ``line`` (without its newline) at ``seq`` of encounter ``name`` in a transaction of its own:
        seq 0 is the header, which makes the encounter; 1, 2, ... the event lines; the end line comes at
        the seq after the last event. True when added; False when that very line is already there. Any
        other line at a held seq, a gap, a line that does not chain to the one before, anything after the
        end line but signature lines, or a line longer than a log line may be: LogError. The first signature
        line stored in a campaign of schema version 1 makes it one of version 2 (schema.py)."""
        self._check_name(name)
        upgrading = self.version < SCHEMA_VERSION and line.startswith(SIGNATURE_PREFIX)
        with self._transaction() as connection:
            for statement in UPGRADE if upgrading else ():
                connection.execute(statement)
            added = append_line(connection, self.named(name), name, seq, line)
        if upgrading:
            self.version = SCHEMA_VERSION
        return added

    def delete(self, name: str) -> None:
        """Remove an encounter and all its lines; LogError when there is none of that name."""
        self._check_name(name)
        if not self.remove(name):
            raise self._missing(name)

    def remove(self, name: str) -> bool:
        """Remove an encounter and all its lines; whether there was one."""
        with self._transaction() as connection:
            return connection.execute("DELETE FROM encounters WHERE name = ?", (name,)).rowcount > 0

    def writer(self, name: str, *, replace: bool = False) -> CampaignOutput:
        """An encounter to write as ``name``: refused when one of that name exists (unless ``replace``) or
        while another write to this campaign goes on."""
        check_new_name(self.path, name)
        if not self._writes:
            raise LogError(f"{self._where()}: cannot write: it was opened read-only, to read")
        if self._writer is not None:
            raise LogError(
                f"{self._where()}: another affray is writing to it (this process); wait for it to finish"
            )
        if not replace and self.exists(name):
            raise LogError(f"{self.named(name)}: already exists; choose another name or pass --force")
        output = CampaignOutput(self, name, replace=replace)
        self._writer = output
        return output

    def write_ended(self, output: CampaignOutput) -> None:
        """``output``'s write has ended: another may begin."""
        if self._writer is output:
            self._writer = None

    def rename(self, temporary: str, name: str, *, replace: bool) -> None:
        """Give encounter ``temporary`` the name ``name``, in one transaction: Taken when an encounter of
        that name exists and ``replace`` is not given (else it goes)."""
        with self._transaction() as connection:
            taken = connection.execute("SELECT id FROM encounters WHERE name = ?", (name,)).fetchone()
            if taken is not None:
                if not replace:
                    raise Taken
                connection.execute("DELETE FROM encounters WHERE id = ?", taken)
            moved = connection.execute(
                "UPDATE encounters SET name = ? WHERE name = ?", (name, temporary)
            ).rowcount
            if moved != 1:
                raise LogError(f"{self.named(temporary)}: was removed while affray wrote it")

    def keep_as_partial(self, temporary: str, name: str) -> str | None:
        """Rename ``temporary`` ``NAME.partial`` (``-2``, ... when taken); the name it took, None when it
        was not there or no such name is free."""
        with self._transaction() as connection:
            if connection.execute("SELECT 1 FROM encounters WHERE name = ?", (temporary,)).fetchone() is None:
                return None
            for kept in partial_names(name):
                if connection.execute("SELECT 1 FROM encounters WHERE name = ?", (kept,)).fetchone() is None:
                    connection.execute("UPDATE encounters SET name = ? WHERE name = ?", (kept, temporary))
                    return self.named(kept)
            return None


def _rollback(connection: sqlite3.Connection) -> None:
    if connection.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")
