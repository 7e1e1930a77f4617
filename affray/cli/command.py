"""What the ``affray`` commands share: the group (affray.cli.group), exit statuses, opening a log named on
the command line, warnings about a broken log, checking an output before any work (``new_output``; every
file is then written by ``affray.files``) and refusing to write over an input."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from affray import files, rulesets, stores
from affray.errors import AffrayError, LogError, excerpt, printable
from affray.events.reader import LogFile, LogProblem, LogReader, read_all
from affray.stores import JsonLinesLog, LogStore, StoredLog
from affray.stores.kinds import SUFFIXES, is_campaign_path


class Interrupted(KeyboardInterrupt):
    """A stop (Ctrl-C, a kill, a closed terminal: affray.cli.stops), with what became of the command's
    output."""


class LogArgument(click.ParamType[LogStore]):
    """A log named on the command line: a file, or ``campaign.sqlite#NAME``."""

    name = "log"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> LogStore:
        """The place the text names."""
        if isinstance(value, LogStore):
            return value
        try:
            return stores.place(str(value))
        except LogError as exc:
            self.fail(str(exc), param, ctx)


LOG = LogArgument()
"""The type of a command's LOG argument."""

MAX_SEED = 2**63 - 1


class SeedArgument(click.ParamType[int]):
    """A seed given on the command line: a whole number from 0 to 2**63 - 1."""

    name = "seed"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """The seed the text spells."""
        if isinstance(value, int):
            return value
        text = str(value).strip()
        if not text.isdigit() or int(text) > MAX_SEED:
            self.fail(f"{excerpt(text)!r}: a seed is a whole number from 0 to {MAX_SEED:,}", param, ctx)
        return int(text)


SEED = SeedArgument()
"""The type of a command's --seed option."""


def encounter_place(output: LogStore, encounter: str | None, default: str) -> LogStore:
    """Where ``-o OUTPUT [--encounter NAME]`` writes: a log file, or an encounter of a campaign, named by
    ``--encounter``, after the ``#`` or, failing both, ``default``."""
    file = output.own_file
    if file is None:
        if encounter is not None and encounter != output.name:
            raise AffrayError(f"--encounter {encounter}: -o {output} names another encounter")
        return output
    if is_campaign_path(file):
        return StoredLog(file, encounter if encounter is not None else default)
    if encounter is not None:
        campaigns = ", ".join(SUFFIXES)
        raise AffrayError(f"--encounter {encounter}: -o {output} is a log file, not a campaign ({campaigns})")
    return output


def a_log_file(output: Path, flag: str = "-o") -> None:
    """An output that only a log file can be: a campaign's name is refused (``affray import`` copies the
    log into one)."""
    if is_campaign_path(output) or stores.place(str(output)).own_file is None:
        raise AffrayError(
            f"{flag} {output}: this command writes a log file (.jsonl), not a campaign; write the file, "
            "then affray import it"
        )


def open_log_arg(path: LogStore, *, canonical: bool = False, folding: bool = False) -> LogReader:
    """A reader of the log at ``path`` (a file or a campaign's encounter), with the registry's rulesets
    (``LogReader``'s ``canonical`` and ``folding``)."""
    return path.open(rulesets.vocabulary_for, canonical=canonical, folding=folding)


def find_parent(child: LogStore, recorded: str) -> tuple[LogStore, bool]:
    """Where the parent a what-if at ``child`` records as ``recorded`` is (its path from the child's file's
    folder; a campaign's encounter as ``campaign.sqlite#NAME``), and whether anything is there."""
    try:
        parent = stores.place(str(child.file.parent / recorded))
    except LogError:
        return JsonLinesLog(Path(recorded)), False
    try:
        return parent, parent.exists()
    except AffrayError:  # there, but no campaign: reading it says why
        return parent, True


def recorded_parent(parent: LogStore, output: Path) -> str:
    """How a what-if written to ``output`` records its parent: the path from the what-if's folder, with
    ``#NAME`` for a campaign's encounter (``find_parent`` reads it back)."""
    return parent.named_from(output.absolute().parent)


def warn_if_broken(reader: LogReader, path: LogStore, done: str) -> None:
    """The one warning for a log shown up to a cut or a broken line (``done``: what was done to the
    events before it, "told" or "folded")."""
    p = reader.problem
    if p is None:
        return
    if "cut short" in p.message:
        shown = f"{p.message}; {done} the {reader.count} complete events"
    else:
        shown = f"{p.where()}: {p.message}; {done} the {reader.count} events before it"
    click.echo(f"warning: {path}: {shown} (affray verify tells more)", err=True)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def refuse_overwriting(output: Path, inputs: Mapping[Path, str], flag: str = "-o") -> None:
    """An output that is one of the command's own inputs is refused, ``--force`` or not."""
    for given, what in inputs.items():
        if _same_file(output, given):
            raise AffrayError(f"{flag} {output}: that is {what}; write the output to another file")


def new_output(
    output: Path,
    force: bool,
    inputs: Mapping[Path, str],
    suffixes: Sequence[str],
    what: str,
    flag: str = "-o",
) -> None:
    """``-o OUTPUT`` (or another ``flag``) checked before any work: it ends in one of ``suffixes``
    (``what`` it is), is none of the command's ``inputs``, is no folder, its folder exists, and it
    exists (a link included) only if ``force`` may replace it. The output is then written with
    ``affray.files.write_new``."""
    if output.suffix.lower() not in suffixes:
        raise AffrayError(f"{flag} {output}: {what} ends in {', '.join(suffixes)}")
    refuse_overwriting(output, inputs, flag)
    files.check_target(output, force=force, flag=flag)


def refuse_broken(log: LogStore, problem: LogProblem | None, done: str) -> None:
    """A log cut short or broken where it breaks, for a command that ``done`` only a whole log."""
    if problem is None:
        return
    where = "" if "cut short" in problem.message else f"{problem.where()}: "
    raise AffrayError(
        f"{log}: {where}{problem.message}; only a whole log is {done} (affray verify tells more)"
    )


def tell_notes(notes: Iterable[str]) -> None:
    """Each note an output gathered (a killed run's lines kept, a partial log still there), a line each
    on stderr."""
    for note in notes:
        click.echo(f"note: {printable(note)}", err=True)


def whole_verified(log: LogStore, purpose: str) -> tuple[LogFile, str]:
    """The log at ``log`` read whole, and its end hash; it must be whole and verify, as what ``purpose``
    says starts from one must ("a what-if starts from")."""
    from affray.replays.verify import verify

    with open_log_arg(log) as reader:
        whole = read_all(reader)
        end = reader.end_hash
    if whole.problem is not None or end is None:
        where = f"{whole.problem.where()}: {whole.problem.message}" if whole.problem else "no end line"
        raise AffrayError(f"{log}: {where}; {purpose} a whole log")
    verdict = verify(whole, lambda: rulesets.recorded(whole.header, str(log)))
    if not verdict.ok:
        where = f"{verdict.where}: " if verdict.where else ""
        raise AffrayError(f"{log} does not verify ({where}{verdict.message}); {purpose} a log that does")
    return whole, end


Decorated = TypeVar("Decorated", bound=Callable[..., Any])


def odds_option(command: Decorated) -> Decorated:
    """The ``--odds [FILE]`` option of the commands that show a log's odds beside it (affray.cli.odds's
    ``odds_beside``): FILE, or "" to work them out now."""
    return click.option(
        "--odds",
        "odds_given",
        is_flag=False,
        flag_value="",
        default=None,
        metavar="[FILE]",
        help="Each side's chance to win, from FILE (a report of `affray odds LOG -o FILE`), or worked out "
        "now with affray odds's defaults when no FILE is given.",
    )(command)
