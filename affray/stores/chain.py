"""How a line is added to an encounter: only at the next seq, and only when its ``prev`` is the hash of the
line before it (in a log of format 2, when the first line of a block and the end line hold the hash of the
block before, and no block holds more bytes than a block may), so what a campaign holds always reads as a
log that chains. Appending a line already held changes nothing; another line at a held seq is refused.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3

from affray.errors import LogError
from affray.events.codec import (
    BLOCK_LINES,
    END_PREFIX,
    MAX_BLOCK_BYTES,
    MAX_LINE_BYTES,
    PREV_KEY,
    block_hash,
    encode_end,
    line_hash,
    starts_block,
)
from affray.events.signature import SIGNATURE_PREFIX, DamagedSignature, decode_signature
from affray.stores.rows import LINE, SIGNATURE_LINE, Bad, Column, Held, select, values
from affray.stores.rows import held as held_row


def check_line(where: str, seq: int, line: bytes) -> None:
    """LogError for a line no log may hold at ``seq``: a negative seq, an empty line, one holding a newline
    or longer than a log line may be."""
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


def append(connection: sqlite3.Connection, where: str, name: str, seq: int, line: bytes) -> bool:
    """Add ``line`` at ``seq`` of encounter ``name`` within the transaction open on ``connection``: seq 0,
    the header, makes the encounter. True when added; False when that very line is there already."""
    check_line(where, seq, line)
    held = held_row(connection, where, name, header=seq == 0)
    if seq == 0:
        return _put_header(connection, where, name, held, line)
    if held is None:
        raise LogError(f"{where}: no such encounter; its header (seq 0) comes before seq {seq}")
    return _put_line(connection, where, held, seq, line)


def _same(where: str, seq: int, held: bytes, line: bytes) -> bool:
    """False for the line already held at ``seq`` (appending it again changes nothing); LogError for
    another."""
    if held != line:
        raise LogError(f"{where}: seq {seq} already holds another line")
    return False


def _put_header(
    connection: sqlite3.Connection, where: str, name: str, held: Held | None, line: bytes
) -> bool:
    if held is not None:
        return _same(where, 0, held.header, line)
    if line.startswith(END_PREFIX):
        raise LogError(f"{where}: seq 0 must be the header, not an end line")
    chained = block_hash(line + b"\n") if _blocks(line) else line_hash(line)
    connection.execute(
        "INSERT INTO encounters (name, header, events, last_hash) VALUES (?, ?, 0, ?)", (name, line, chained)
    )
    return True


_FORMAT = re.compile(rb'\A\{"format":"affray-log","format_version":(\d{1,6})[,}]')
_HEADER_START = "SELECT substr(header, 1, 64) FROM encounters WHERE id = ?"


def _blocks(header: bytes) -> bool:
    """Whether the log of this header line (its first 64 bytes will do) chains blocks of lines (format 2
    and on), read from where affray writes ``format_version``; a header not so is taken as format 1's."""
    found = _FORMAT.match(header)
    return found is not None and int(found.group(1)) >= 2


def _held_blocks(connection: sqlite3.Connection, held: Held) -> bool:
    """Whether the encounter ``held`` chains blocks of lines, from the start of its header."""
    (start,) = connection.execute(_HEADER_START, (held.id,)).fetchone()
    return isinstance(start, bytes) and _blocks(start)


_BLOCK = select([LINE], "FROM events WHERE encounter = ? AND seq >= ? ORDER BY seq", first="seq")
_BLOCK_BYTES = "SELECT total(length(line)) + count(*) FROM events WHERE encounter = ? AND seq >= ?"


def _block_first(held: Held) -> int:
    """The seq of the first line of the last block held (format 2)."""
    return held.events - (held.events - 1) % BLOCK_LINES


def _held_block_hash(connection: sqlite3.Connection, where: str, held: Held) -> str:
    """The hash of the last block held, line by line (the header's when no event is held)."""
    if held.events == 0:
        return held.last_hash
    hasher = hashlib.blake2b(digest_size=16)
    for row in connection.execute(_BLOCK, (held.id, _block_first(held))):
        try:
            (stored,) = values([LINE], row)
        except Bad as bad:
            raise LogError(f"{where}: seq {row[0]}: {bad}; affray did not write it so") from None
        assert isinstance(stored, bytes)
        hasher.update(stored + b"\n")
    return hasher.hexdigest()


def _check_block_chain(connection: sqlite3.Connection, where: str, held: Held, seq: int, line: bytes) -> str:
    """Check a line of a format 2 log; the chain hash the encounter holds after it."""
    if not (line.startswith(END_PREFIX) or starts_block(seq)):
        (held_bytes,) = connection.execute(_BLOCK_BYTES, (held.id, _block_first(held))).fetchone()
        if held_bytes + len(line) + 1 > MAX_BLOCK_BYTES:
            raise LogError(
                f"{where}: seq {seq} would bring its block of lines past the {MAX_BLOCK_BYTES:,} bytes a "
                "block may hold"
            )
        return held.last_hash
    prev = _held_block_hash(connection, where, held)
    before = "the header" if held.events == 0 else f"the block of seqs {_block_first(held)} to {held.events}"
    _check_prev(where, held, seq, line, prev, before)
    return prev


def _check_prev(where: str, held: Held, seq: int, line: bytes, prev: str, before: str) -> None:
    if not line.endswith(b'%s%s"}' % (PREV_KEY, prev.encode())):
        raise LogError(f"{where}: seq {seq} does not chain: its prev must be {prev}, the hash of {before}")
    if line.startswith(END_PREFIX) and line != encode_end(held.events, prev):
        raise LogError(f"{where}: the end line (seq {seq}) must count the {held.events} events held")


def _check_chain(where: str, held: Held, seq: int, line: bytes) -> None:
    _check_prev(where, held, seq, line, held.last_hash, "the header" if seq == 1 else f"seq {seq - 1}")


Found = tuple[str, tuple[int, int], Column, str]
"""Where a held line is: the query, its key, the column and how an error names the line."""


def _held_again(connection: sqlite3.Connection, where: str, found: Found, seq: int, line: bytes) -> bool:
    """False when ``line`` is the line held where ``found`` says (appending it again changes nothing);
    LogError when another is held there, or none, or one not as affray stores it."""
    query, key, column, said = found
    row = connection.execute(query, key).fetchone()
    if row is None:
        raise LogError(f"{where}: the file is damaged: {said} is missing")
    try:
        (stored,) = values([column], row)
    except Bad as bad:
        raise LogError(f"{where}: {said}: {bad}; affray did not write it so") from None
    assert isinstance(stored, bytes)
    return _same(where, seq, stored, line)


_HELD_SIGNATURE = select(
    [SIGNATURE_LINE], "FROM signatures WHERE encounter = ? AND position = ?", first="position"
)


def _put_signature(connection: sqlite3.Connection, where: str, held: Held, seq: int, line: bytes) -> bool:
    """Append a signature line at ``seq``, after the end line (seq ``held.events + 1``) and the signature
    lines before it; it must be one as affray writes it (affray.events.signature)."""
    position = seq - held.events - 1
    try:
        decode_signature(line)
    except DamagedSignature as damaged:
        raise LogError(f"{where}: the signature line at seq {seq} is damaged: {damaged}") from None
    (count,) = connection.execute(
        "SELECT count(*) FROM signatures WHERE encounter = ?", (held.id,)
    ).fetchone()
    if position <= count:
        found = (_HELD_SIGNATURE, (held.id, position), SIGNATURE_LINE, f"signature {position}")
        return _held_again(connection, where, found, seq, line)
    if position > count + 1:
        raise LogError(f"{where}: seq {seq} would leave a gap after its {count} signature lines")
    connection.execute(
        "INSERT INTO signatures (encounter, position, line) VALUES (?, ?, ?)", (held.id, position, line)
    )
    return True


_HELD_LINE = select([LINE], "FROM events WHERE encounter = ? AND seq = ?", first="seq")


def _put_line(connection: sqlite3.Connection, where: str, held: Held, seq: int, line: bytes) -> bool:
    """Append an event or end line at ``seq`` (1 or more) to the encounter ``held``."""
    if seq <= held.events:
        return _held_again(connection, where, (_HELD_LINE, (held.id, seq), LINE, f"seq {seq}"), seq, line)
    after = held.events + 1
    if held.end_line is not None:
        if seq == after:
            return _same(where, seq, held.end_line, line)
        if line.startswith(SIGNATURE_PREFIX):
            return _put_signature(connection, where, held, seq, line)
        raise LogError(
            f"{where}: seq {seq} would follow the end line (seq {after}); only signature lines follow it"
        )
    if seq > after:
        raise LogError(
            f"{where}: seq {seq} would leave a gap: it holds lines up to seq {held.events}, so seq {after} "
            "comes next"
        )
    if _held_blocks(connection, held):
        chained = _check_block_chain(connection, where, held, seq, line)
    else:
        _check_chain(where, held, seq, line)
        chained = line_hash(line)
    if line.startswith(END_PREFIX):
        connection.execute("UPDATE encounters SET end_line = ? WHERE id = ?", (line, held.id))
    else:
        connection.execute("INSERT INTO events (encounter, seq, line) VALUES (?, ?, ?)", (held.id, seq, line))
        connection.execute(
            "UPDATE encounters SET events = ?, last_hash = ? WHERE id = ?", (seq, chained, held.id)
        )
    return True
