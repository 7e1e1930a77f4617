"""What the ``affray`` command writes reaches a terminal as text only: no character from a file can move the
cursor, clear the screen, set the title or the clipboard, or reverse the text around it.

``guard_streams`` (called first thing by ``main``) puts a ``VisibleText`` in front of ``sys.stdout`` and
``sys.stderr``: every character written that does not print as itself (``affray.errors.printable``) is
written as its JSON escape (``\\u001b``), newlines and tabs excepted, whatever command wrote it and however.
That is the promise, and it cannot be forgotten by the next command. Within it, a command that prints a line
per item (an event, a combatant, an encounter) escapes each line's own newlines and tabs with ``printable``,
so that a name cannot forge a line; an error quoting a value does the same. JSON output stays JSON: the
escapes are JSON's, and such characters only ever occur inside its strings.

affray's own progress bar (``affray.cli.progress``), which draws with escape codes, writes to the stream
behind the guard (``unguarded``).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable
from typing import TextIO

from affray.errors import printable

LAYOUT = "\n\t"
"""The characters below U+0020 the guard lets through: a line's end, and the tab that separates the
columns ``affray encounters`` prints."""


_ASCII_CONTROLS = bytes(code for code in [*range(32), 127] if chr(code) not in LAYOUT)


def visible(text: str) -> str:
    """``text`` as the guard writes it: what does not print as itself escaped, newlines and tabs kept."""
    if text.isascii():  # the common case, checked at the speed of bytes.translate
        if len(text.encode("ascii").translate(None, _ASCII_CONTROLS)) == len(text):
            return text
    elif (text[:-1] if text.endswith("\n") else text).isprintable():
        return text
    return printable(text, keep=LAYOUT)


def one_line(text: str) -> str:
    """``text`` (a line a command prints for one item: an event, a combatant) with its own newlines and
    tabs escaped too, so that a name cannot forge a line; the guard escapes the rest."""
    return printable(text) if "\n" in text or "\t" in text else text


class VisibleText(io.TextIOBase):
    """A text stream in front of ``stream`` that writes what it is given through ``visible``.

    It has no ``buffer``: bytes cannot go round it."""

    color = True
    """click strips the CSI sequences of what it echoes to a stream that is no terminal, unless the stream
    has a ``color`` attribute (as its own pager's does): the guard escapes them instead, so that a name
    piped to a file reads as it does on a terminal (and as in ``--json``)."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` made visible; the count of characters given, as a text stream returns."""
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.stream.write(visible(text))
        return len(text)

    def flush(self) -> None:
        """Flush the stream behind (unless it is closed: this one may be let go after it)."""
        if not self.stream.closed:
            self.stream.flush()

    def writable(self) -> bool:
        """A text stream one writes to."""
        return True

    def isatty(self) -> bool:
        """Whether the stream behind is a terminal."""
        return self.stream.isatty()

    def fileno(self) -> int:
        """The stream behind's file descriptor."""
        return self.stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The stream behind's encoding."""
        return self.stream.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        """The stream behind's error handler."""
        return self.stream.errors


def echo_lines(lines: Iterable[str]) -> None:
    """Print each of ``lines`` on a line of its own (``one_line``), as ``click.echo`` would, but flushed
    once at the end, not after each line: a long telling piped to a file or a pager is written in
    blocks. On a terminal each line is flushed as it is told."""
    out = sys.stdout
    live = out.isatty()
    for line in lines:
        out.write(one_line(line) + "\n")
        if live:
            out.flush()
    out.flush()


def guard_streams() -> None:
    """Put a ``VisibleText`` in front of ``sys.stdout`` and ``sys.stderr`` (once: a second call changes
    nothing)."""
    if not isinstance(sys.stdout, VisibleText):
        sys.stdout = VisibleText(sys.stdout)
    if not isinstance(sys.stderr, VisibleText):
        sys.stderr = VisibleText(sys.stderr)


def unguarded(stream: TextIO) -> TextIO:
    """The stream behind ``stream`` if it is guarded, else ``stream``: for affray's own escape codes."""
    return stream.stream if isinstance(stream, VisibleText) else stream
