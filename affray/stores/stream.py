"""An encounter's log read as the bytes of its file, a line at a time."""

from __future__ import annotations

import io
import sqlite3
from collections.abc import Generator
from typing import TYPE_CHECKING

from affray.errors import LogError
from affray.stores.connection import guarded
from affray.stores.lock import CampaignFile
from affray.stores.rows import LINE, LINES, Bad, values

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer


class LogStream(io.RawIOBase):
    """An encounter's log as bytes, a line at a time from a cursor on a connection of its own, in one read
    transaction: a snapshot, whatever is appended meanwhile. Closing it closes the connection, then its
    use of the campaign's file (which may hold the lock that keeps writers out while it reads)."""

    def __init__(
        self,
        file: CampaignFile,
        connection: sqlite3.Connection,
        where: str,
        encounter: int,
        header: bytes,
        end: bytes | None,
    ) -> None:
        super().__init__()
        self._file = file
        self._connection = connection
        self._where = where
        self._cursor = connection.execute(LINES, (encounter,))
        self._lines = self._each(header, end)
        self._pending = memoryview(b"")

    def _each(self, header: bytes, end: bytes | None) -> Generator[bytes, None, None]:
        yield header
        for row in self._cursor:
            try:
                (line,) = values([LINE], row)
            except Bad as bad:
                raise LogError(f"{self._where}: seq {row[0]}: {bad}; affray did not write it so") from None
            assert isinstance(line, bytes)
            yield line
        if end is not None:
            yield end

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
