"""Where logs are kept: JSON Lines files, or encounters of a campaign (many in one SQLite file).

Commands name a log as a path (``duel.jsonl``) or as ``campaign.sqlite#NAME``; ``place`` tells the two
apart and gives a ``LogStore`` (``affray.stores.logstore``), through which a command reads, writes and
names the log whichever store holds it, so a log held in a campaign is read, chain-checked and verified
exactly as its file would be.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from pathlib import Path

from affray.errors import LogError
from affray.events.codec import LogHeader, LogWriter
from affray.events.output import take_notices
from affray.events.reader import LogFile, Resolver, read_all
from affray.stores.encounter import StoredLog, whole_encounters
from affray.stores.jsonl import JsonLinesLog
from affray.stores.kinds import is_campaign_path
from affray.stores.logstore import LogStore

__all__ = [
    "JsonLinesLog",
    "LogStore",
    "StoredLog",
    "check_there",
    "log_writer",
    "place",
    "read_place",
    "whole_encounters",
    "write_whole",
]


def place(text: str) -> LogStore:
    """``campaign.sqlite#NAME`` (split at the first ``#`` that follows a campaign's suffix, so a folder
    may have one in its name) as a StoredLog; anything else as a path (a JsonLinesLog)."""
    at = text.find("#")
    while at != -1 and not is_campaign_path(Path(text[:at])):
        at = text.find("#", at + 1)
    if at == -1:
        return JsonLinesLog(Path(text))
    head, name = text[:at], text[at + 1 :]
    if not name:
        raise LogError(f"{text}: name the encounter after the # sign ({head}#NAME)")
    return StoredLog(Path(head), name)


def check_there(where: LogStore) -> None:
    """LogError when there is no log at ``where``: no such file, campaign or encounter."""
    with where.open_bytes():
        pass


def read_place(where: LogStore, resolve: Resolver, *, canonical: bool = False) -> LogFile:
    """The whole log at ``where``, read into memory."""
    with where.open(resolve, canonical=canonical) as reader:
        return read_all(reader)


def log_writer(where: LogStore, header: LogHeader, *, replace: bool = False) -> LogWriter:
    """A log written to ``where`` (``LogStore.output``): put in place only when whole; an existing log is
    refused unless ``replace``, and so is a second writer."""
    return LogWriter.into(lambda: where.output(replace=replace), header, where)


def write_whole(where: LogStore, lines: Iterable[bytes], *, replace: bool = False) -> list[str]:
    """A log's ``lines`` (its exact bytes, each line with its newline: a binary file iterates so) written
    to ``where`` as ``log_writer`` writes one, put in place once all are written; what the output has to
    tell the user (``OutputFile.notices``) is returned."""
    output = where.output(replace=replace)
    try:
        for line in lines:
            output.write(line)
    except BaseException:
        with contextlib.suppress(Exception):  # the error that stopped the write is the one to tell
            output.discard()
        raise
    output.commit()
    return take_notices(output)
