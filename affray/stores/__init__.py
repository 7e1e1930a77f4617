"""Where logs are kept: JSON Lines files, or encounters of a campaign (many in one SQLite file).

Commands name a log as a path (``duel.jsonl``) or as ``campaign.sqlite#NAME``; ``place`` tells the two
apart, and reading and writing go through the same reader and writer whichever it is, so a log held in a
campaign is read, chain-checked and verified exactly as its file would be.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from affray.errors import LogError, open_user_file, printable
from affray.events.codec import LogHeader, LogWriter
from affray.events.output import Output, OutputFile, take_notices
from affray.events.reader import LogFile, LogReader, Resolver, open_log, read_all
from affray.stores.kinds import is_campaign_path

if TYPE_CHECKING:
    from affray.stores.sqlite import Campaign, CampaignOutput


@dataclass(frozen=True)
class StoredLog:
    """An encounter's log in a campaign: ``campaign.sqlite#NAME``."""

    campaign: Path
    name: str

    def __str__(self) -> str:
        return f"{self.campaign}#{self.name}"

    @property
    def stem(self) -> str:
        """What names the fight when its scenario has no name: the encounter's name (a file's stem)."""
        return self.name


Place = Path | StoredLog
"""Where one log is: a file, or an encounter of a campaign."""


def place(text: str) -> Place:
    """``campaign.sqlite#NAME`` (split at the first ``#`` that follows a campaign's suffix, so a folder
    may have one in its name) as a StoredLog; anything else as a path."""
    at = text.find("#")
    while at != -1 and not is_campaign_path(Path(text[:at])):
        at = text.find("#", at + 1)
    if at == -1:
        return Path(text)
    head, name = text[:at], text[at + 1 :]
    if not name:
        raise LogError(f"{text}: name the encounter after the # sign ({head}#NAME)")
    return StoredLog(Path(head), name)


def file_of(where: Place) -> Path:
    """The file that holds the log: itself, or its campaign."""
    return where if isinstance(where, Path) else where.campaign


def _campaign(path: Path, *, read_only: bool = False, create: bool = False) -> Campaign:
    """The campaign at ``path``, opened (SQLite and the campaign code load when a campaign is first used)."""
    from affray.stores.sqlite import Campaign

    return Campaign.open(path, read_only=read_only, create=create)


def check_there(where: Place) -> None:
    """LogError when there is no log at ``where``: no such file, campaign or encounter."""
    with open_bytes(where):
        pass


def exists(where: Place) -> bool:
    """Whether a log (or anything else) is there."""
    if isinstance(where, Path):
        return os.path.lexists(where)
    if not where.campaign.exists():
        return False
    with _campaign(where.campaign, read_only=True) as campaign:
        return campaign.exists(where.name)


def _names(campaign: Path) -> str:
    names = [printable(log.name) for log in whole_encounters(campaign)]
    return ", ".join(names[:20]) + (f" and {len(names) - 20} more" if len(names) > 20 else "") or "none"


def _refuse_bare_campaign(path: Path) -> None:
    if is_campaign_path(path) and path.is_file():
        raise LogError(
            f"{path}: a campaign holds many encounters; name one as {path}#NAME (it holds: {_names(path)})"
        )


def open_place(where: Place, resolve: Resolver, *, canonical: bool = False) -> LogReader:
    """A reader of the log at ``where`` (see ``affray.events.reader.LogReader``); LogError when there is
    none or it cannot be read."""
    if isinstance(where, Path):
        _refuse_bare_campaign(where)
        return open_log(where, resolve, canonical=canonical)
    with _campaign(where.campaign, read_only=True) as campaign:
        stream = campaign.read(where.name)
    try:
        return LogReader(stream, resolve, str(where), canonical=canonical)
    except BaseException:
        stream.close()
        raise


def read_place(where: Place, resolve: Resolver, *, canonical: bool = False) -> LogFile:
    """The whole log at ``where``, read into memory."""
    with open_place(where, resolve, canonical=canonical) as reader:
        return read_all(reader)


def open_bytes(where: Place) -> BinaryIO:
    """A stream of the log's bytes as its file holds them (for a campaign's encounter, as its file would)."""
    if isinstance(where, Path):
        return open_user_file(where, LogError, "a log")
    with _campaign(where.campaign, read_only=True) as campaign:
        return campaign.read(where.name)


class _CampaignLog:
    """An encounter being written that closes its campaign when the write ends."""

    def __init__(self, campaign: Campaign, output: CampaignOutput) -> None:
        self._campaign = campaign
        self._output = output

    @property
    def target(self) -> str:
        """``campaign.sqlite#NAME``."""
        return self._output.target

    @property
    def writing(self) -> str:
        """``campaign.sqlite#.NAME.PID.tmp``."""
        return self._output.writing

    @property
    def notices(self) -> list[str]:
        """What the user should be told (``CampaignOutput.notices``)."""
        return self._output.notices

    def write(self, data: bytes) -> None:
        """One whole line."""
        self._output.write(data)

    def commit(self) -> None:
        """The encounter takes its name."""
        try:
            self._output.commit()
        finally:
            self._campaign.close()

    def discard(self) -> None:
        """Nothing is kept."""
        try:
            self._output.discard()
        finally:
            self._campaign.close()

    def keep_partial(self) -> str:
        """What was written is kept as ``NAME.partial``."""
        try:
            return self._output.keep_partial()
        finally:
            self._campaign.close()


def _campaign_output(where: StoredLog, replace: bool) -> Output:
    from affray.stores.sqlite import check_new_name

    check_new_name(where.campaign, where.name)  # before a campaign is made for it
    campaign = _campaign(where.campaign, create=True)
    try:
        return _CampaignLog(campaign, campaign.writer(where.name, replace=replace))
    except BaseException:
        campaign.close()
        raise


def log_writer(where: Place, header: LogHeader, *, replace: bool = False) -> LogWriter:
    """A log written to ``where``: a file beside its name, or a temporary encounter of the campaign (made
    when there is none), put in place only when whole; an existing log is refused unless ``replace``, and
    so is a second writer."""
    if isinstance(where, Path):
        return LogWriter.create(where, header, replace=replace)
    return LogWriter.into(lambda: _campaign_output(where, replace), header, where)


def write_whole(where: Place, lines: Iterable[bytes], *, replace: bool = False) -> list[str]:
    """A log's ``lines`` (its exact bytes, each line with its newline: a binary file iterates so) written
    to ``where`` as ``log_writer`` writes one, put in place once all are written; what the output has to
    tell the user (``OutputFile.notices``) is returned."""
    output: Output
    if isinstance(where, Path):
        output = OutputFile(where, replace=replace)
    else:
        output = _campaign_output(where, replace)
    try:
        for line in lines:
            output.write(line)
    except BaseException:
        with contextlib.suppress(Exception):  # the error that stopped the write is the one to tell
            output.discard()
        raise
    output.commit()
    return take_notices(output)


def whole_encounters(campaign: Path) -> list[StoredLog]:
    """Every whole encounter of a campaign (none that is partial or being written), by name."""
    with _campaign(campaign, read_only=True) as opened:
        stored = opened.stored()
    return [StoredLog(campaign, s.name) for s in stored if s.whole and not s.name.startswith(".")]
