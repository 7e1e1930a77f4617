"""Errors a user can cause: each says where the problem is and what was expected."""

from __future__ import annotations

import errno
import fcntl
import os
import re
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

QUOTE_LIMIT = 40
"""How many characters of an offending value an error message quotes."""


class AffrayError(Exception):
    """Base of every error caused by input: a scenario, a log, a table or the command line."""


class ScenarioError(AffrayError):
    """A scenario file that cannot be read, parsed or validated."""


class TableError(AffrayError):
    """A rules table (packaged or user-supplied) that is malformed."""


class UnknownTableEntry(AffrayError):
    """A name (weapon, armor, shield) that the rules tables do not list."""


class LogError(AffrayError):
    """A log file that is not an affray log, or is damaged beyond reading."""


class SigningError(AffrayError):
    """A key file that cannot be made or read, or a log that cannot be signed: ``affray keygen``, ``sign``
    and ``verify --trust``."""


class ControllerError(AffrayError):
    """A controller from outside affray (user code a scenario names) that cannot be loaded, or that
    answered with something other than an intent."""


class UnrecordedDecision(ControllerError):
    """A decision a re-simulation needs that its log does not record: a what-if asking a combatant played
    from outside affray to decide anew, where its parent went otherwise or after the change made to it."""

    def __init__(self, combatant: str, controller: str, now: int) -> None:
        super().__init__(combatant, controller, now)
        self.combatant = combatant
        self.controller = controller
        self.now = now

    def __str__(self) -> str:
        return (
            f"{self.combatant} (controller {excerpt(self.controller)!r}) must make a decision at "
            f"{self.now / 1000:.3f} s that the log does not record"
        )


@dataclass(frozen=True)
class WantedRoll:
    """A roll made at the table that the fight asks for: its stream and draw, and its dice."""

    roll: str
    """``brenna/hit#3``."""
    count: int
    sides: int
    need: str = ""
    """What it is for and what it needs, when the rules say ("... under 62.5 to hit")."""


class DiceExhausted(AffrayError):
    """A manual dice source ran out of the rolls a referee supplied, or a roll does not fit its die;
    ``wanted`` names the roll asked for when it was not entered."""

    def __init__(
        self, problem: str, when: str = "", path: str = "$.dice.rolls", wanted: WantedRoll | None = None
    ) -> None:
        super().__init__(problem, when, path, wanted)
        self.problem = problem
        self.when = when
        self.path = path
        self.wanted = wanted

    def __str__(self) -> str:
        when = f", wanted {self.when}" if self.when else ""
        return f"{self.path}: {self.problem}{when}"

    def during(self, when: str) -> DiceExhausted:
        """The same problem, saying when in the fight the roll was wanted."""
        return DiceExhausted(self.problem, when, self.path, self.wanted)


def excerpt(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as an error quotes it: whole up to ``limit`` characters, else its start and ``...``."""
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


_SHORT_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_NOT_PLAIN_ASCII = re.compile(r"[^ -~]+")
"""Runs of characters outside printable ASCII: the only places a character to escape can be."""


def escaped(char: str) -> str:
    """``char`` as a JSON string escapes it: ``\\n``, ``\\t``, ``\\r``, else ``\\u`` and four lowercase hex
    digits (two such, a surrogate pair, for a character beyond U+FFFF)."""
    short = _SHORT_ESCAPES.get(char)
    if short is not None:
        return short
    code = ord(char)
    if code > 0xFFFF:
        high, low = divmod(code - 0x10000, 0x400)
        return f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}"
    return f"\\u{code:04x}"


def printable(text: str, keep: str = "") -> str:
    """``text`` with each character that does not print as itself escaped (see ``escaped``), so that text
    from a file can neither drive a terminal nor break a line: C0 and C1 controls (ESC, a newline, U+009B),
    DEL, bidirectional overrides (U+202E), line and paragraph separators (U+2028), every character
    ``str.isprintable`` refuses. The characters in ``keep`` (a newline, say) are left as they are.

    The escapes are JSON's, so text that is JSON stays JSON (the characters escaped only ever occur inside
    its strings, where the escape reads back as the character). Text that prints as it is, the common
    case, is returned at the speed of ``str.isprintable``."""
    if text.isprintable():
        return text

    def visible(run: re.Match[str]) -> str:
        return "".join(c if c.isprintable() or c in keep else escaped(c) for c in run.group())

    return _NOT_PLAIN_ASCII.sub(visible, text)


_QUOTED_INPUT = re.compile(r"(unknown field `|enum value '|Invalid value ')(.*?)([`'])(?= - at `|$)", re.S)


def briefly(message: str) -> str:
    """A decoder's message (msgspec's) as an error shows it: one line, and what it quotes of the input (an
    unknown field's name, a value outside a choice) cut to ``QUOTE_LIMIT`` characters."""

    def shorten(match: re.Match[str]) -> str:
        return f"{match[1]}{excerpt(printable(match[2]))}{match[3]}"

    return printable(_QUOTED_INPUT.sub(shorten, message))


def toml_limit(text: str, exc: ValueError | RecursionError) -> str:
    """What tomllib gave up on, other than a syntax error, in a few words: nesting too deep for it, or an
    integer longer than Python converts (with its line, when it can be found)."""
    if isinstance(exc, RecursionError):
        return "arrays or tables are nested too deeply"
    digits = sys.get_int_max_str_digits()
    if "integer string conversion" not in str(exc):
        return excerpt(str(exc), 2 * QUOTE_LIMIT)
    integer = re.search(rf"(?<![\w.\"'])[0-9][0-9_]{{{digits},}}", text)
    where = f"line {text.count(chr(10), 0, integer.start()) + 1}: " if integer else ""
    return f"{where}an integer has more than {digits} digits"


def _shown(name: str) -> str:
    return name if name.isprintable() else repr(name)


FILE_LIMIT = 4 * 1024 * 1024
"""The most bytes affray reads of a scenario, a table or a rolls file: a log's header line holds the
scenario and its tables whole, and a line holds at most 4 MiB (docs/log-format.md)."""

_NOT_REGULAR = {
    stat.S_IFIFO: "a fifo",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a directory",
}


def _unreadable(
    path: Path, error: type[AffrayError], kind: str, exc: OSError | ValueError, named: str | None = None
) -> AffrayError:
    """What went wrong opening or reading a file the user named, as ``error`` naming it (as ``named``)."""
    shown = _shown(str(path) if named is None else named)
    if isinstance(exc, FileNotFoundError):
        return error(f"{shown}: no such file")
    if isinstance(exc, IsADirectoryError):
        return error(f"{shown}: is a directory, not {kind}")
    if isinstance(exc, OSError) and exc.errno == errno.ENXIO:
        return error(f"{shown}: is a socket or a device, not {kind}; affray reads only regular files")
    if isinstance(exc, OSError):
        return error(f"{shown}: cannot read: {exc.strerror}")
    return error(f"{shown}: cannot read: not a file name ({exc})")


def refuse_irregular(mode: int, shown: str, error: type[AffrayError], kind: str) -> None:
    """``error`` unless ``mode`` is a regular file's: affray never reads a fifo (it could wait forever), a
    device (an endless stream, or one reading changes) or a socket."""
    if stat.S_ISREG(mode):
        return
    what = _NOT_REGULAR.get(stat.S_IFMT(mode), "not a regular file")
    if what == "a directory":
        raise error(f"{shown}: is a directory, not {kind}")
    raise error(f"{shown}: is {what}, not {kind}; affray reads only regular files")


def open_user_file(path: Path, error: type[AffrayError], kind: str, *, named: str | None = None) -> BinaryIO:
    """A regular file the user named, open for reading in binary. A missing or unreadable one, one that
    is not a regular file (a fifo, a device, a socket, a directory: refused before reading, without
    waiting for a fifo's writer) or a name no file can have (one holding a NUL byte) raises ``error``
    naming it: by its path, or as ``named`` (the path as a scenario wrote it, cut to ``QUOTE_LIMIT``)."""
    shown = _shown(str(path) if named is None else named)
    try:
        refuse_irregular(os.stat(path).st_mode, shown, error, kind)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except (OSError, ValueError) as exc:
        raise _unreadable(path, error, kind, exc, named) from None
    try:
        refuse_irregular(os.fstat(fd).st_mode, shown, error, kind)  # what was opened, if it was swapped
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_user_file(
    path: Path, error: type[AffrayError], kind: str, *, named: str | None = None, limit: int = FILE_LIMIT
) -> bytes:
    """The bytes of a regular file the user named, at most ``limit`` of them: a larger file raises
    ``error`` before it is read, and so does every file ``open_user_file`` refuses."""
    with open_user_file(path, error, kind, named=named) as stream:
        try:
            too_large = os.fstat(stream.fileno()).st_size > limit
            data = b"" if too_large else stream.read(limit + 1)
        except OSError as exc:
            raise _unreadable(path, error, kind, exc, named) from None
    if too_large or len(data) > limit:
        shown = _shown(str(path) if named is None else named)
        raise error(f"{shown}: larger than {size_in_words(limit)}, the most {kind} may hold")
    return data


def first_named(names: Sequence[str], most: int) -> str:
    """``names`` for a message: the first ``most`` of them, then how many more (``a, b and 3 more``)."""
    more = f" and {len(names) - most} more" if len(names) > most else ""
    return ", ".join(names[:most]) + more


def size_in_words(size: int) -> str:
    """A byte count as a limit is told: ``4 MiB``, ``4 KiB``, ``100 bytes``."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} bytes"
