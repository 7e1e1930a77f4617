"""Progress of a long command: a rich progress bar with an ETA on a terminal, plain lines (no escape codes)
in a pipe or CI, at every tenth of the work."""

from __future__ import annotations

import time
from typing import Any, TextIO

from affray.cli.terminal import unguarded


class Progress:
    """``total`` steps of work told to ``stream`` as they are done (``advance``) until ``close``."""

    def __init__(self, total: int, stream: TextIO, label: str = "runs") -> None:
        self.total = total
        self.done = 0
        self.label = label
        self.stream = stream = unguarded(stream)  # its own escape codes draw the bar
        self._started = time.monotonic()
        self._next_line = total / 10
        self._bar: Any = None
        self._task: Any = None
        if stream.isatty():
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as Bar

            self._bar = Bar(
                TextColumn(label),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=Console(file=stream),
                transient=True,
            )
            self._task = self._bar.add_task(label, total=total)
            self._bar.start()

    def advance(self, steps: int) -> None:
        """``steps`` more are done."""
        self.done += steps
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done)
            return
        if self.done >= self._next_line or self.done == self.total:
            elapsed = time.monotonic() - self._started
            rate = self.done / elapsed if elapsed > 0 else 0.0
            left = (self.total - self.done) / rate if rate else 0.0
            print(
                f"{self.done}/{self.total} {self.label}, {rate:.0f}/s, about {left:.0f} s left",
                file=self.stream,
            )
            while self._next_line <= self.done:
                self._next_line += self.total / 10

    def grow(self, steps: int) -> None:
        """``steps`` more are to be done than were first counted (work found as it goes)."""
        self.total += steps
        if self._bar is not None:
            self._bar.update(self._task, total=self.total)

    def close(self) -> None:
        """Stop showing progress."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
