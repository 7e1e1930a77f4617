"""Key files for signing logs: an Ed25519 key pair as ``affray keygen`` makes it, read back to sign with
(``affray sign``) or to trust (``affray verify --trust``).

The private key is PKCS#8 in PEM form, unencrypted, in ``NAME.key`` (mode 0600); the public key is one
OpenSSH line, ``ssh-ed25519 AAAA... NAME``, in ``NAME.pub``. Every step that needs cryptography imports
the ``cryptography`` library when it runs, so that no other command loads it.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import stat
import struct
from pathlib import Path
from typing import TYPE_CHECKING

from affray.errors import SigningError, excerpt, printable, read_user_file
from affray.events.signature import NAME_RULE, is_name

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

KEY_FILE_LIMIT = 16 * 1024
"""The most bytes a key file may hold: an Ed25519 key takes about a hundred."""
PRIVATE_SUFFIX = ".key"
PUBLIC_SUFFIX = ".pub"
_SSH_TYPE = b"ssh-ed25519"
_NEW = os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC


def fingerprint(key: bytes) -> str:
    """The fingerprint of a raw Ed25519 public key as ``ssh-keygen -l`` prints it: ``SHA256:`` and the
    unpadded base64 of the SHA-256 of the key's OpenSSH wire form."""
    blob = struct.pack(">I", len(_SSH_TYPE)) + _SSH_TYPE + struct.pack(">I", len(key)) + key
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def described(key: bytes) -> str:
    """How a key is named to the user: ``ed25519 key SHA256:...``."""
    return f"ed25519 key {fingerprint(key)}"


def check_name(name: str, what: str = "NAME") -> None:
    """SigningError unless ``name`` may name a signer (affray.events.signature.NAME)."""
    if not is_name(name):
        raise SigningError(f"{what} {printable(excerpt(name))!r}: not a signer's name ({NAME_RULE})")


def _taken(path: Path) -> SigningError:
    return SigningError(
        f"{printable(str(path))}: a file (or a link) already has that name; keygen never writes over one "
        "(choose another NAME or -o DIR)"
    )


def _write_new(path: Path, data: bytes, mode: int) -> None:
    """Create ``path`` with ``mode`` and write ``data``: never over anything there, never through a link;
    a failure leaves no file."""
    try:
        fd = os.open(path, _NEW, mode)
    except FileExistsError:
        raise _taken(path) from None
    except OSError as exc:
        raise SigningError(f"{printable(str(path))}: cannot create: {exc.strerror or exc}") from None
    try:
        with open(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(path)
        if isinstance(exc, OSError):
            raise SigningError(f"{printable(str(path))}: cannot write: {exc.strerror or exc}") from None
        raise


def _folder(folder: Path) -> None:
    try:
        mode = os.stat(folder).st_mode
    except FileNotFoundError:
        raise SigningError(f"-o {printable(str(folder))}: no such folder") from None
    except OSError as exc:
        raise SigningError(f"-o {printable(str(folder))}: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(mode):
        raise SigningError(f"-o {printable(str(folder))}: not a folder")


def make_pair(name: str, folder: Path) -> tuple[Path, Path, bytes]:
    """A new key pair for ``name`` in ``folder``: ``NAME.key`` (private, mode 0600) and ``NAME.pub``
    (public); their paths and the raw public key. Neither file may exist yet."""
    check_name(name)
    _folder(folder)
    private_path, public_path = folder / f"{name}{PRIVATE_SUFFIX}", folder / f"{name}{PUBLIC_SUFFIX}"
    for path in (private_path, public_path):
        if os.path.lexists(path):
            raise _taken(path)
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public = key.public_key()
    line = public.public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
    _write_new(private_path, private, 0o600)
    try:
        _write_new(public_path, line + b" " + name.encode() + b"\n", 0o644)
    except BaseException:
        os.unlink(private_path)
        raise
    return private_path, public_path, public.public_bytes_raw()


def _kept_private(path: Path) -> None:
    """SigningError when others than its owner may read or write the key file (as ssh refuses one)."""
    with contextlib.suppress(OSError):
        mode = stat.S_IMODE(os.stat(path).st_mode)
        if mode & 0o077:
            raise SigningError(
                f"--key {printable(str(path))}: others may read or write it (mode {mode:04o}); a private key "
                f"is for its owner alone: chmod 600 it, and make a new pair if others may have read it"
            )


def load_private(path: Path) -> Ed25519PrivateKey:
    """The Ed25519 private key in the PEM file at ``path``, which only its owner may read or write;
    SigningError saying why when there is none."""
    data = read_user_file(path, SigningError, "a private key", limit=KEY_FILE_LIMIT)
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    shown = printable(str(path))
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except TypeError:
        raise SigningError(
            f"--key {shown}: the key is protected by a password; affray reads only unprotected keys "
            "(affray keygen makes one)"
        ) from None
    except (ValueError, UnsupportedAlgorithm):
        raise SigningError(
            f"--key {shown}: not a private key in PEM form (PKCS#8, as affray keygen writes it)"
        ) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningError(f"--key {shown}: not an Ed25519 key; affray signs with Ed25519 (affray keygen)")
    _kept_private(path)
    return key


def load_public(path: Path, flag: str = "--trust") -> bytes:
    """The raw Ed25519 public key in the OpenSSH public key file at ``path`` (``ssh-ed25519 AAAA...
    NAME``); SigningError naming ``flag`` and the file when it holds none."""
    data = read_user_file(path, SigningError, "a public key", limit=KEY_FILE_LIMIT)
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    shown = printable(str(path))
    try:
        key = serialization.load_ssh_public_key(data.strip())
    except (ValueError, UnsupportedAlgorithm):
        raise SigningError(
            f"{flag} {shown}: not an OpenSSH public key ('ssh-ed25519 AAAA... NAME', as affray keygen "
            "writes it)"
        ) from None
    if not isinstance(key, Ed25519PublicKey):
        raise SigningError(f"{flag} {shown}: not an Ed25519 key; affray signs with Ed25519")
    return key.public_bytes_raw()


def sign(key: Ed25519PrivateKey, message: bytes) -> tuple[bytes, bytes]:
    """The raw public key of ``key`` and its signature of ``message``."""
    return key.public_key().public_bytes_raw(), key.sign(message)


def holds(key: bytes, signature: bytes, message: bytes) -> bool:
    """Whether ``signature`` is the raw Ed25519 ``key``'s signature of ``message``."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True
