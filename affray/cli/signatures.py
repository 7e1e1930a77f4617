"""Signing a log file and checking a log's signatures (docs/log-format.md, "Signatures").

``sign_log`` appends one signature line after the end line and whatever signatures follow it, by writing
the signed log as a new file beside it (``tempfile.mkstemp``) and moving it onto the log (``os.replace``),
so a failure or an interrupt leaves the log as it was. ``check_signatures`` tells, for verify, whether
each signature holds and, when keys are trusted, whether each signer's key is one of them.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from affray import rulesets
from affray.cli import keys
from affray.errors import LogError, SigningError, open_user_file, printable
from affray.events.reader import LogReader
from affray.events.signature import LogSignature, encode_signature, signed_message
from affray.stores import LogStore, StoredLog
from affray.stores.encounter import open_campaign

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

_CHUNK = 1 << 20


def _open_file(log: Path) -> BinaryIO:
    """The log file itself open for reading: no link (the signed log replaces the file at this name)."""
    shown = printable(str(log))
    with contextlib.suppress(OSError):
        if stat.S_ISLNK(os.lstat(log).st_mode):
            raise SigningError(f"{shown}: is a link; name the log file itself")
    stream = open_user_file(log, LogError, "a log")
    opened, named = os.fstat(stream.fileno()), os.lstat(log)
    if (opened.st_dev, opened.st_ino) != (named.st_dev, named.st_ino):
        stream.close()
        raise SigningError(f"{shown}: the file changed while it was opened; try again")
    return stream


def _whole(reader: LogReader, log: object) -> str:
    """The end hash of the log ``reader`` has read to its end; SigningError unless it is whole."""
    for _ in reader:
        pass
    shown = printable(str(log))
    problem = reader.problem
    if problem is not None:
        where = "" if "cut short" in problem.message else f"{problem.where()}: "
        raise SigningError(f"{shown}: {where}{problem.message}; only a whole log is signed (affray verify)")
    if reader.end_hash is None:
        raise SigningError(f"{shown}: the log has no end line; only a whole log is signed")
    return reader.end_hash


def _copy(source: BinaryIO, target: BinaryIO, size: int, log: Path) -> None:
    """The first ``size`` bytes of ``source``, from its start, written to ``target``."""
    source.seek(0)
    left = size
    while left:
        chunk = source.read(min(left, _CHUNK))
        if not chunk:
            raise SigningError(f"{printable(str(log))}: the log was cut while it was signed; it is unchanged")
        target.write(chunk)
        left -= len(chunk)


def _replace(log: Path, stream: BinaryIO, size: int, line: bytes) -> None:
    """Write the log's first ``size`` bytes and ``line`` to a new file beside it, then move it onto the
    log; on any failure the new file is removed and the log is untouched."""
    mode = stat.S_IMODE(os.fstat(stream.fileno()).st_mode)
    fd, temporary = tempfile.mkstemp(dir=log.parent, prefix=f".{log.name}.", suffix=".signing")
    try:
        with open(fd, "wb") as out:
            os.fchmod(out.fileno(), mode)
            _copy(stream, out, size, log)
            out.write(line + b"\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, log)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            why = f"cannot write the signed log: {exc.strerror or exc}; it is unchanged"
            raise SigningError(f"{printable(str(log))}: {why}") from None
        raise


def _signature(reader: LogReader, log: object, key: Ed25519PrivateKey, signer: str) -> tuple[bytes, bytes]:
    """The raw public key and the signature line of ``signer`` for the whole log ``reader`` reads through;
    SigningError when it is not whole or ``signer`` has signed it already."""
    end_hash = _whole(reader, log)
    for held in reader.signatures:
        if held.signer == signer:
            raise SigningError(
                f"{printable(str(log))}: already signed by {signer}; sign under another name (--name)"
            )
    public, signature = keys.sign(key, signed_message(end_hash, signer))
    return public, encode_signature(signer, public, signature)


def sign_log(log: LogStore, key_file: Path, signer: str) -> bytes:
    """Sign the whole log at ``log`` (a file or a campaign's encounter) as ``signer`` with the private key
    in ``key_file``: a signature line appended after its end line (and any signature lines already
    there). Returns the raw public key. SigningError or LogError, the log unchanged, when it cannot be
    signed."""
    keys.check_name(signer, "--name")
    key = keys.load_private(key_file)
    if isinstance(log, StoredLog):
        return _sign_encounter(log, key, signer)
    stream = _open_file(log.file)
    with LogReader(stream, rulesets.vocabulary_for, str(log)) as reader:
        public, line = _signature(reader, log, key, signer)
        _replace(log.file, stream, reader.offset, line)
    return public


def _sign_encounter(log: StoredLog, key: Ed25519PrivateKey, signer: str) -> bytes:
    """Sign a campaign's encounter: its signature line stored after its end line, read and written under
    the campaign's writer lock, so that nothing changes the encounter between."""
    with open_campaign(log.campaign) as campaign:
        with LogReader(campaign.read(log.name), rulesets.vocabulary_for, str(log)) as reader:
            public, line = _signature(reader, log, key, signer)
            seq = reader.count + 2 + len(reader.signatures)
        campaign.append(log.name, seq, line)
    return public


@dataclass
class Checked:
    """What verify says of a log's signatures: a line for each, and whether any makes it fail."""

    lines: list[str] = field(default_factory=list)
    failed: bool = False


def _said(held: LogSignature, holds: bool, trusted: Mapping[bytes, str] | None) -> tuple[str, bool]:
    """What verify says of one signature, and whether it fails."""
    said = f"signed by {held.signer} ({keys.described(held.key_bytes)})"
    if not holds:
        return (
            f"{said}: the signature does not hold: it is not that key's signature of this log's end hash "
            "(the log was changed or extended after it was signed, or the line was altered)",
            True,
        )
    if trusted is None:
        return f"{said}: the signature holds", False
    name = trusted.get(held.key_bytes)
    if name is None:
        return f"{said}: the signature holds, but the key is not one of the trusted keys (--trust)", True
    return f"{said}: the signature holds, by a trusted key ({name})", False


def check_signatures(
    log: str,
    reader: LogReader,
    trusted: Mapping[bytes, str] | None,
    first_line: int,
    required: Mapping[bytes, str] | None = None,
) -> Checked:
    """Each signature ``reader`` read after the end line (the first on line ``first_line``), checked
    against its end hash; with ``trusted`` (keys by the file they came from), each key looked up too, and
    a log with no signature fails; each ``required`` key must have signed, and its signature hold. Nothing
    is said of a log not read to a whole end."""
    checked = Checked()
    end_hash = reader.end_hash
    if end_hash is None:
        return checked
    held_by: set[bytes] = set()
    for number, held in enumerate(reader.signatures, first_line):
        holds = keys.holds(held.key_bytes, held.signature_bytes, signed_message(end_hash, held.signer))
        said, failed = _said(held, holds, trusted)
        checked.lines.append(f"FAILED: {log}: line {number}: {said}" if failed else said)
        checked.failed |= failed
        if holds:
            held_by.add(held.key_bytes)
    if trusted is not None and not reader.signatures:
        checked.lines.append(f"FAILED: {log}: the log is not signed; --trust asks for a trusted signer's")
        checked.failed = True
    for key, name in (required or {}).items():
        if key not in held_by:
            checked.lines.append(f"FAILED: {log}: the key in {name} has not signed it (--require)")
            checked.failed = True
    return checked


def trusted_keys(files: tuple[Path, ...]) -> dict[bytes, str]:
    """The raw public key of each ``--trust`` file, with the file's name as given."""
    return {keys.load_public(path): str(path) for path in files}
