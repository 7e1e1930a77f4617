"""A signature line: who signed a log, with which key, and the signature over the log's end hash.

::

    {"end":27,"prev":"2538424b..."}                                                        end line
    {"signer":"alice","algorithm":"ed25519","key":"<base64>","signature":"<base64>"}       signature line

Zero or more signature lines follow the end line, one per signer. Each signs ``signed_message``: a fixed
label, the hash of the end line (which the chain makes a hash of the whole log) and the signer's name, so
a signature made over one log, or under one name, holds for no other. This module holds the line's form
only; making and checking a signature is ``affray.cli.keys``'s, which imports the cryptography library.
"""

from __future__ import annotations

import base64
import binascii
import re

import msgspec

from affray.errors import briefly, excerpt

SIGNATURE_PREFIX = b'{"signer":'
"""How a signature line begins."""
MAX_SIGNATURE_BYTES = 1024
"""The longest signature line a reader takes, newline aside; a longer one is refused unread."""
ALGORITHM = "ed25519"
"""The only signature algorithm so far: Ed25519 (RFC 8032), a 32-byte key and a 64-byte signature."""
KEY_BYTES = 32
SIGNATURE_BYTES = 64
MESSAGE_LABEL = b"affray-log-signature-v1"
"""What every signed message begins with, so that a signature over a log is a signature over nothing else."""
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A signer's name: 1 to 64 letters, digits, ``_``, ``-`` and ``.``, beginning with a letter or a digit."""
NAME_RULE = "1 to 64 ASCII letters, digits, '_', '-' or '.', the first a letter or a digit"
TOO_LONG = f"it is longer than the {MAX_SIGNATURE_BYTES:,} bytes a signature line may hold"
_HASH = re.compile(r"[0-9a-f]{32}")


class LogSignature(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One signature line: the signer's name, the algorithm, the public key (its raw 32 bytes, base64)
    and the signature over ``signed_message`` (its raw 64 bytes, base64)."""

    signer: str
    algorithm: str
    key: str
    signature: str

    @property
    def key_bytes(self) -> bytes:
        """The raw public key."""
        return base64.b64decode(self.key)

    @property
    def signature_bytes(self) -> bytes:
        """The raw signature."""
        return base64.b64decode(self.signature)


class DamagedSignature(ValueError):
    """A signature line that is not one affray can read; the message says why."""


_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(LogSignature)


def is_name(name: str) -> bool:
    """Whether ``name`` may name a signer (``NAME``)."""
    return NAME.fullmatch(name) is not None


def signed_message(end_hash: str, signer: str) -> bytes:
    """The bytes a signer signs: ``affray-log-signature-v1``, the end hash (32 lower-case hex digits) and
    the signer's name, each followed by a newline, in ASCII."""
    if _HASH.fullmatch(end_hash) is None or not is_name(signer):
        raise ValueError(f"not an end hash and a signer's name: {end_hash!r}, {signer!r}")
    return b"%s\n%s\n%s\n" % (MESSAGE_LABEL, end_hash.encode(), signer.encode())


def encode_signature(signer: str, key: bytes, signature: bytes) -> bytes:
    """A signature line's bytes (no newline) for ``signer``'s raw Ed25519 ``key`` and ``signature``."""
    return _ENCODER.encode(
        LogSignature(
            signer=signer,
            algorithm=ALGORITHM,
            key=base64.b64encode(key).decode(),
            signature=base64.b64encode(signature).decode(),
        )
    )


def _raw(text: str, size: int, what: str) -> None:
    """DamagedSignature unless ``text`` is the standard base64 of ``size`` bytes, as affray writes it."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise DamagedSignature(f"its {what} is not base64") from None
    if len(raw) != size or base64.b64encode(raw).decode() != text:
        raise DamagedSignature(f"its {what} is not the base64 of {size} bytes")


def decode_signature(line: bytes) -> LogSignature:
    """The signature a signature line (without its newline) holds; DamagedSignature saying why when it
    holds none, or is not written exactly as ``encode_signature`` writes it."""
    if len(line) > MAX_SIGNATURE_BYTES:
        raise DamagedSignature(TOO_LONG)
    try:
        held = _DECODER.decode(line)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise DamagedSignature(f"not a signature ({briefly(str(exc))})") from None
    if not is_name(held.signer):
        raise DamagedSignature(f"its signer {excerpt(held.signer)!r} is not a name ({NAME_RULE})")
    if held.algorithm != ALGORITHM:
        raise DamagedSignature(f"its algorithm {excerpt(held.algorithm)!r} is not {ALGORITHM}")
    _raw(held.key, KEY_BYTES, "key")
    _raw(held.signature, SIGNATURE_BYTES, "signature")
    if line != encode_signature(held.signer, held.key_bytes, held.signature_bytes):
        raise DamagedSignature("it is not written as affray writes it (a member added, moved or reformatted)")
    return held
