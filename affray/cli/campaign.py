"""``affray export``, ``affray import`` and ``affray encounters``: logs between files and campaigns, byte for
byte, and what a campaign holds (and removing what it need not)."""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import NamedTuple

import click

from affray import files, rulesets, stores
from affray.cli.command import LOG, encounter_place, refuse_broken, refuse_overwriting, tell_notes
from affray.cli.group import cli, short_help_of
from affray.cli.terminal import one_line
from affray.errors import AffrayError, excerpt, printable
from affray.stores import JsonLinesLog, LogStore, StoredLog
from affray.stores.kinds import SUFFIXES, is_campaign_path
from affray.stores.sqlite import Campaign, Stored


def _whole(log: LogStore) -> int:
    """How many events the log holds, once read through and found whole (its signature lines too);
    AffrayError when it is not."""
    with log.open(rulesets.vocabulary_for) as reader:
        for _ in reader:
            pass
        refuse_broken(log, reader.problem, "imported or exported")
        if not reader.ended:
            raise AffrayError(f"{log}: the log is cut short; only a whole log is imported or exported")
        return reader.count


def _same_bytes(a: LogStore, b: LogStore) -> bool:
    with a.open_bytes() as left, b.open_bytes() as right:
        return all(x == y for x, y in itertools.zip_longest(left, right))


class _Copy(NamedTuple):
    """One log to copy, checked: its events, and whether the target holds it already."""

    source: LogStore
    target: LogStore
    events: int
    there: bool


def _checked_copy(source: LogStore, target: LogStore, force: bool) -> _Copy:
    """A copy of the whole log at ``source`` to ``target``, checked before anything is written: the source
    is whole, the target is a log file or an encounter and is not the source's file, and holds nothing
    else unless ``force``."""
    events = _whole(source)
    file = target.own_file
    if file is not None and file.suffix.lower() != ".jsonl":
        raise AffrayError(f"-o {target}: a log file ends in .jsonl")
    refuse_overwriting(target.file, {source.file: "the log to copy"})
    there = target.exists()
    plain = file is None or files.what_is_at(file) == "a file"  # a link, a fifo: never read
    same = there and plain and _same_bytes(source, target)
    if there and not same and not force:
        raise AffrayError(f"{target}: already exists and holds another log; --force replaces it")
    return _Copy(source, target, events, same)


def checked_copies(pairs: list[tuple[LogStore, LogStore]], *, force: bool) -> list[_Copy]:
    """Each copy of a whole log to its target, checked (see ``_checked_copy``) before any is made; two logs
    bound for one target are refused."""
    seen: dict[str, LogStore] = {}
    for source, target in pairs:
        other = seen.setdefault(str(target), source)
        if other != source:
            raise AffrayError(f"{other} and {source} would both be {target}; copy them one at a time")
    return [_checked_copy(source, target, force) for source, target in pairs]


def make_copies(copies: list[_Copy], *, force: bool) -> None:
    """Make each checked copy without changing a byte, saying what was done; a target that holds the very
    same log is left as it is (copying again changes nothing)."""
    for copy in copies:
        if copy.there:
            click.echo(f"{copy.source}: {copy.target} holds it already, byte for byte")
            continue
        with copy.source.open_bytes() as lines:
            tell_notes(stores.write_whole(copy.target, lines, replace=force))
        click.echo(f"{copy.source} -> {copy.target} ({copy.events} events)")


def copy_logs(pairs: list[tuple[LogStore, LogStore]], *, force: bool) -> None:
    """Copy each whole log to its target, every copy checked before the first is made."""
    make_copies(checked_copies(pairs, force=force), force=force)


WRITING_ROOM = 32
"""How many bytes a log file's name may grow by while affray writes it (the temporary and partial names
it gives the file beside its own), kept free when an encounter's name becomes a file's."""
_NAME_MAX = 255
"""The longest file name, in bytes, where a folder does not say (most filesystems' limit)."""


def _name_room(folder: Path) -> int:
    """The longest file name, in bytes, that ``folder`` (or, when it is not made yet, the nearest folder
    above it) takes."""
    probe = folder.absolute()
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        return os.pathconf(probe, "PC_NAME_MAX")
    except (OSError, ValueError):
        return _NAME_MAX


def _file_name(log: StoredLog, folder: Path, room: int) -> str:
    """The name of the file an encounter is exported to, checked: a name no file can have, or one longer
    than ``folder`` takes (in bytes, with ``WRITING_ROOM`` to spare), is an error."""
    name = log.name
    shown = f"{log.campaign}#{excerpt(printable(name))}"
    if "/" in name or "\\" in name or "\0" in name or name in (".", ".."):
        raise AffrayError(f"{shown}: its name cannot be a file's name; export it alone: -o FILE.jsonl")
    file_name = f"{name}.jsonl"
    size = len(os.fsencode(file_name))
    if size + WRITING_ROOM > room:
        raise AffrayError(
            f"{shown}: its file's name would be {size:,} bytes long, and a name in {folder} may be {room} "
            f"bytes, less {WRITING_ROOM} for the names affray gives a file while writing it; export it "
            "alone: -o FILE.jsonl"
        )
    return file_name


@cli.command(name="export", short_help=short_help_of("export"))
@click.argument("source", type=LOG)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    required=True,
    help="Log file, or a folder for a whole campaign.",
)
@click.option("--force", is_flag=True, help="Replace a log file that holds another log.")
def export_command(source: LogStore, output: Path, force: bool) -> None:
    """Write a campaign's encounter (``campaign.sqlite#NAME``) to a log file, byte for byte, or every whole
    encounter of a campaign (``campaign.sqlite``) to a folder, each as NAME.jsonl."""
    file = source.own_file
    if file is None:
        copy_logs([(source, JsonLinesLog(output))], force=force)
        return
    if not is_campaign_path(file):
        raise AffrayError(f"{source}: not a campaign ({', '.join(SUFFIXES)}); export copies from one")
    logs = stores.whole_encounters(file)
    if output.exists() and not output.is_dir():
        raise AffrayError(f"-o {output}: a campaign is exported to a folder, and this is a file")
    room = _name_room(output)
    pairs: list[tuple[LogStore, LogStore]] = [
        (log, JsonLinesLog(output / _file_name(log, output, room))) for log in logs
    ]
    copies = checked_copies(pairs, force=force)
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise AffrayError(f"-o {output}: cannot make the folder ({exc.strerror or exc})") from None
    make_copies(copies, force=force)
    click.echo(f"{source}: {_counted(len(logs))} exported to {output}")


@cli.command(name="import", short_help=short_help_of("import"))
@click.argument("logs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", type=LOG, required=True, help="The campaign (campaign.sqlite) to write to.")
@click.option(
    "--encounter", help="The encounter's name (one LOG only; default: the file's name without .jsonl)."
)
@click.option("--force", is_flag=True, help="Replace an encounter of that name that holds another log.")
def import_command(logs: tuple[Path, ...], output: LogStore, encounter: str | None, force: bool) -> None:
    """Copy whole log files into a campaign, byte for byte, each as an encounter named after its file;
    importing a log the campaign holds already changes nothing. Every log and every name is checked
    before any is copied, so a damaged log or a name taken stops the import before it begins."""
    if not is_campaign_path(output.file):
        raise AffrayError(f"-o {output}: not a campaign (campaign.sqlite); import writes to one")
    if len(logs) > 1 and (encounter is not None or output.own_file is None):
        flag = f"--encounter {encounter}" if encounter is not None else f"-o {output}"
        raise AffrayError(f"{flag}: names one encounter, and {len(logs)} logs are given")
    pairs: list[tuple[LogStore, LogStore]] = [
        (JsonLinesLog(log), encounter_place(output, encounter, log.stem)) for log in logs
    ]
    copy_logs(pairs, force=force)


@cli.command(name="encounters", short_help=short_help_of("encounters"))
@click.argument("campaign", type=click.Path(path_type=Path))
@click.option(
    "--remove",
    "removed",
    multiple=True,
    metavar="NAME",
    help="Remove this encounter first (a whole one only with --force); repeat for more.",
)
@click.option("--force", is_flag=True, help="Let --remove remove a whole encounter, a recorded fight.")
def encounters_command(campaign: Path, removed: tuple[str, ...], force: bool) -> None:
    """List the encounters of CAMPAIGN: each one's name, events, and whether it is whole, a failed run's
    partial log, or one being written (or left by a run that was killed). --remove removes the partial
    and left-over ones a user no longer wants."""
    if removed:
        _remove(campaign, removed, force)
    with Campaign.open(campaign, read_only=True) as opened:
        held = opened.stored()
    for stored in held:
        click.echo(f"{one_line(stored.name)}\t{stored.events} events\t{_state(stored)}")
    click.echo(f"{campaign}: {_counted(len(held))}")


def _remove(campaign: Path, names: tuple[str, ...], force: bool) -> None:
    """Remove each encounter named, all or none checked first: a whole one only with ``force``."""
    with Campaign.open(campaign) as opened:
        held = {stored.name: stored for stored in opened.stored()}
        for name in names:
            if name not in held:
                raise AffrayError(f"--remove {name}: {campaign} holds no encounter of that name")
            if held[name].whole and not name.startswith(".") and not force:
                raise AffrayError(
                    f"--remove {name}: a whole log, a recorded fight; --force removes it (affray export "
                    "keeps a copy)"
                )
        for name in dict.fromkeys(names):
            opened.delete(name)
            click.echo(f"removed {campaign}#{name}")


def _counted(encounters: int) -> str:
    return f"{encounters} encounter{'' if encounters == 1 else 's'}"


def _state(stored: Stored) -> str:
    if stored.name.startswith("."):
        return "being written, or left by a run that was killed"
    if stored.whole:
        return "whole"
    return "partial: a run that failed or was interrupted"
