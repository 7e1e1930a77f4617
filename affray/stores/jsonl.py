"""A log kept as a JSON Lines file of its own (``duel.jsonl``): the file's ``LogStore``."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from affray.errors import LogError, open_user_file
from affray.events.output import Output, OutputFile
from affray.events.reader import LogReader, Resolver, open_log
from affray.stores.encounter import listed
from affray.stores.kinds import is_campaign_path


@dataclass(frozen=True)
class JsonLinesLog:
    """The log in the file at ``path`` (named as the path; a campaign named bare is refused as a log)."""

    path: Path

    def __str__(self) -> str:
        return str(self.path)

    @property
    def name(self) -> str:
        """The file's name, suffix and all."""
        return self.path.name

    @property
    def stem(self) -> str:
        """The file's name without its suffix."""
        return self.path.stem

    @property
    def file(self) -> Path:
        """The file itself."""
        return self.path

    @property
    def own_file(self) -> Path:
        """The file itself."""
        return self.path

    def named_from(self, folder: Path) -> str:
        """The path to the file from ``folder``."""
        return os.path.relpath(self.path.absolute(), folder)

    def resolved(self) -> JsonLinesLog:
        """The log of the resolved path."""
        return JsonLinesLog(self.path.resolve())

    def exists(self) -> bool:
        """Whether anything has the file's name (a dangling link counts)."""
        return os.path.lexists(self.path)

    def open(self, resolve: Resolver, *, canonical: bool = False, folding: bool = False) -> LogReader:
        """A reader of the file; a campaign named without an encounter is refused with the names it
        holds."""
        if is_campaign_path(self.path) and self.path.is_file():
            raise LogError(
                f"{self.path}: a campaign holds many encounters; name one as {self.path}#NAME "
                f"(it holds: {listed(self.path)})"
            )
        return open_log(self.path, resolve, canonical=canonical, folding=folding)

    def open_bytes(self) -> BinaryIO:
        """The file's bytes (a regular file only: see ``affray.errors.open_user_file``)."""
        return open_user_file(self.path, LogError, "a log")

    def output(self, *, replace: bool = False) -> Output:
        """A temporary file beside the target, moved onto it when whole (``OutputFile``)."""
        return OutputFile(self.path, replace=replace)
