"""What every place one log may live offers the commands: the ``LogStore`` protocol.

Two stores implement it: a JSON Lines file of its own (``affray.stores.jsonl.JsonLinesLog``) and an
encounter of a SQLite campaign (``affray.stores.encounter.StoredLog``). A command reads, writes and names a
log only through these operations, so a third store (a server's database, an object store) is one more
class, not a change to every command.
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO, Protocol, runtime_checkable

from affray.events.output import Output
from affray.events.reader import LogReader, Resolver


@runtime_checkable
class LogStore(Protocol):
    """A place where one log lives, named as the user names it (``str()``)."""

    @property
    def name(self) -> str:
        """The log's own name where it is kept: its file's name (``duel.jsonl``), or the encounter's."""

    @property
    def stem(self) -> str:
        """What names the fight when its scenario has no name: the file's name without its suffix, or the
        encounter's name."""

    @property
    def file(self) -> Path:
        """The file that holds the log (a campaign holds others too): what no output may be written over."""

    @property
    def own_file(self) -> Path | None:
        """The file that holds this log and nothing else, beside which snapshots are kept and which a
        command may replace as a file; None for a log kept among others (a campaign's encounter)."""

    def __str__(self) -> str:
        """How errors and messages name the log: ``duel.jsonl``, ``campaign.sqlite#NAME``."""

    def named_from(self, folder: Path) -> str:
        """How a log in ``folder`` records this one: the path to its file from there, with ``#NAME`` for
        an encounter (``affray.stores.place`` reads it back)."""

    def resolved(self) -> LogStore:
        """The same place by its absolute path, links followed: two names of one log resolve alike."""

    def exists(self) -> bool:
        """Whether a log (or anything else) is there."""

    def open(self, resolve: Resolver, *, canonical: bool = False, folding: bool = False) -> LogReader:
        """A reader of the log (``affray.events.reader.LogReader``, its ``canonical`` and ``folding``);
        LogError when there is none or it cannot be read."""

    def open_bytes(self) -> BinaryIO:
        """A stream of the log's bytes as its JSON Lines file holds (or would hold) them; LogError when
        there is none."""

    def output(self, *, replace: bool = False) -> Output:
        """Where a log written here goes line by line (``affray.events.output.Output``), put in place only
        when whole: an existing log is refused unless ``replace``, and so is a second writer."""
