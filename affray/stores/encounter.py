"""A log kept as an encounter of a campaign (``campaign.sqlite#NAME``): the campaign's ``LogStore``.

SQLite and the campaign code (``affray.stores.sqlite``) load only when a campaign is first opened, so naming
or telling apart logs loads neither.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from affray.errors import first_named, printable
from affray.events.output import Output
from affray.events.reader import LogReader, Resolver

if TYPE_CHECKING:
    from affray.stores.sqlite import Campaign, CampaignOutput


def open_campaign(path: Path, *, read_only: bool = False, create: bool = False) -> Campaign:
    """The campaign at ``path``, opened (see ``Campaign.open``)."""
    from affray.stores.sqlite import Campaign

    return Campaign.open(path, read_only=read_only, create=create)


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

    @property
    def file(self) -> Path:
        """The campaign."""
        return self.campaign

    @property
    def own_file(self) -> None:
        """None: the campaign holds other encounters."""
        return None

    def named_from(self, folder: Path) -> str:
        """The path to the campaign from ``folder``, then ``#NAME``."""
        return f"{os.path.relpath(self.campaign.absolute(), folder)}#{self.name}"

    def resolved(self) -> StoredLog:
        """The encounter of the campaign's resolved path."""
        return StoredLog(self.campaign.resolve(), self.name)

    def exists(self) -> bool:
        """Whether the campaign is there and holds an encounter of this name."""
        if not self.campaign.exists():
            return False
        with open_campaign(self.campaign, read_only=True) as campaign:
            return campaign.exists(self.name)

    def open(self, resolve: Resolver, *, canonical: bool = False, folding: bool = False) -> LogReader:
        """A reader of the encounter's log; LogError when there is no such campaign or encounter."""
        stream = self.open_bytes()
        try:
            return LogReader(stream, resolve, str(self), canonical=canonical, folding=folding)
        except BaseException:
            stream.close()
            raise

    def open_bytes(self) -> BinaryIO:
        """The encounter's log as its file would hold it, read from a snapshot of the campaign."""
        with open_campaign(self.campaign, read_only=True) as campaign:
            return campaign.read(self.name)

    def output(self, *, replace: bool = False) -> Output:
        """A temporary encounter of the campaign (made when there is none), which takes the name when the
        write is committed; the name is checked before any campaign is made for it."""
        from affray.stores.sqlite import check_new_name

        check_new_name(self.campaign, self.name)
        campaign = open_campaign(self.campaign, create=True)
        try:
            return _CampaignLog(campaign, campaign.writer(self.name, replace=replace))
        except BaseException:
            campaign.close()
            raise


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


def whole_encounters(campaign: Path) -> list[StoredLog]:
    """Every whole encounter of a campaign (none that is partial or being written), by name."""
    with open_campaign(campaign, read_only=True) as opened:
        stored = opened.stored()
    return [StoredLog(campaign, s.name) for s in stored if s.whole and not s.name.startswith(".")]


def listed(campaign: Path) -> str:
    """The names of a campaign's whole encounters, for an error: the first 20, then how many more."""
    names = [printable(log.name) for log in whole_encounters(campaign)]
    return first_named(names, 20) or "none"
