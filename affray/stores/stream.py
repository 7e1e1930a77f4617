"""An encounter's log read as the bytes of its file, a line at a time."""

from __future__ import annotations

import io
import sqlite3
from collections.abc import Generator
from typing import TYPE_CHECKING

from affray.errors import LogError
from affray.stores.connection import guarded
from affray.stores.lock import CampaignFile
from affray.stores.rows import LINE, LINES, SIGNATURE_LINE, SIGNATURE_LINES, Bad, Column, Held, values

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer


class LogStream(io.RawIOBase):
    """An encounter's log as bytes, a line at a time from a cursor on a connection of its own, in one read
    transaction: a snapshot, whatever is appended meanwhile. Closing it closes the connection, then its
    use of the campaign's file (which may hold the lock that keeps writers out while it reads)."""

    def __init__(
        self, file: CampaignFile, connection: sqlite3.Connection, where: str, held: Held, *, signed: bool
    ) -> None:
        super().__init__()
        self._file = file
        self._connection = connection
        self._where = where
        self._cursor = connection.execute(LINES, (held.id,))
        self._lines = self._each(held, signed)
        self._pending = memoryview(b"")

    def _each(self, held: Held, signed: bool) -> Generator[bytes, None, None]:
        """The header, the event lines, the end line and (schema version 2) the signature lines."""
        yield held.header
        yield from self._rows(LINE, "seq")
        if held.end_line is None:
            return
        yield held.end_line
        if signed:
            self._cursor = self._connection.execute(SIGNATURE_LINES, (held.id,))
            yield from self._rows(SIGNATURE_LINE, "signature")

    def _rows(self, column: Column, what: str) -> Generator[bytes, None, None]:
        for row in self._cursor:
            try:
                (line,) = values([column], row)
            except Bad as bad:
                raise LogError(f"{self._where}: {what} {row[0]}: {bad}; affray did not write it so") from None
            assert isinstance(line, bytes)
            yield line

    def readable(self) -> bool:
        """It is."""
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        """Fill ``buffer`` from the current line, fetching the next when it is used up; 0 at the end."""
        while not self._pending:
            with guarded(self._where):
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
        """Close the cursor, the connection and the use of the file."""
        if not self.closed:
            try:
                self._lines.close()
                self._cursor.close()
                self._connection.close()
            finally:
                try:
                    self._file.close()
                finally:
                    super().close()
