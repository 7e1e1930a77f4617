"""``affray regress``: a folder of recorded fights re-run as regression tests under today's rules."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from xml.etree import ElementTree

import click
import msgspec

from affray import files, rulesets, stores
from affray.cli.command import LOG, new_output
from affray.cli.group import cli, short_help_of
from affray.cli.progress import Progress
from affray.cli.terminal import echo_lines
from affray.errors import AffrayError, printable
from affray.events.reader import LogFile
from affray.events.sealed import Sealing
from affray.replays.diff import shown
from affray.replays.regress import Regression, regress
from affray.replays.verify import fold_only
from affray.stores import JsonLinesLog, LogStore
from affray.stores.kinds import is_campaign_path

SAID = {
    "changed": "CHANGED",
    "damaged": "DAMAGED",
    "unreadable": "UNREADABLE",
    "other_version": "OTHER VERSION",
    "sealed": "SEALED",
}
"""How each sort but ``unchanged`` is named in the report."""
JSON = msgspec.json.Encoder(decimal_format="number")
FAILING = frozenset({"changed", "damaged", "unreadable"})
"""The sorts that make regress exit 1 (a changed log rewritten by ``--update`` does not)."""
SKIPPED = frozenset({"other_version", "sealed"})
"""The sorts of the logs that are read but not re-simulated: skipped, as a test is."""


def failing(regression: Regression) -> bool:
    """Whether ``regression`` makes regress exit 1."""
    return regression.sort in FAILING and not regression.updated


def _in_folder(folder: Path) -> list[LogStore]:
    """A folder's logs: its ``*.jsonl`` files and its campaigns' whole encounters, recursively, in name
    order (hidden files, such as the temporary ``.NAME.<random>.tmp`` of a log being written, left out)."""
    inside: list[LogStore] = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.startswith(".")):
        if path.suffix == ".jsonl":
            inside.append(JsonLinesLog(path))
        elif is_campaign_path(path):
            try:
                inside.extend(stores.whole_encounters(path))
            except AffrayError:
                inside.append(JsonLinesLog(path))  # reported as unreadable, with why
    return inside


def logs_in(paths: Sequence[LogStore]) -> list[LogStore]:
    """The logs named: files and campaigns' encounters as given, a campaign's whole encounters, folders'
    logs recursively (``_in_folder``), each once; an error for a path that is not there or a folder that
    holds no log."""
    logs: list[LogStore] = []
    for path in paths:
        file = path.own_file
        if file is None:
            stores.check_there(path)
            logs.append(path)
        elif file.is_dir():
            inside = _in_folder(file)
            if not inside:
                raise AffrayError(f"{path}: the folder holds no log (*.jsonl, or a campaign)")
            logs.extend(inside)
        elif is_campaign_path(file) and file.is_file():
            logs.extend(stores.whole_encounters(file))
        elif file.exists():
            logs.append(path)  # a file, read as any log is (what is no regular file is refused unread)
        else:
            raise AffrayError(f"{path}: no such file or folder")
    seen: dict[LogStore, LogStore] = {}
    for log in logs:
        seen.setdefault(log.resolved(), log)
    return list(seen.values())


def sort_log(path: LogStore) -> tuple[Regression, bytes | None]:
    """Sort one log; for a changed one, also the log today's rules make of it. Writes nothing, so worker
    processes may sort at once while one process writes."""
    name = str(path)
    try:
        log = stores.read_place(path, rulesets.vocabulary_for, canonical=True)
        current = rulesets.ruleset(log.header.ruleset).version
    except AffrayError as exc:
        said = str(exc).removeprefix(f"{name}: ").removeprefix(f"{path.file}: ")
        return Regression(path=name, sort="unreadable", message=said), None
    if log.header.ruleset_version != current:
        return _other_version(path, log.header.ruleset, log.header.ruleset_version, current), None
    if isinstance(log.header.sealed, Sealing):
        return _players_copy(name, log), None
    return regress(name, log, lambda: rulesets.recorded(log.header, name))


def check(path: LogStore, update: bool) -> Regression:
    """Sort one log; with ``update``, rewrite a changed one under today's rules (never a damaged one)."""
    regression, today = sort_log(path)
    return _updated(path, regression, today) if update else regression


def _updated(path: LogStore, regression: Regression, today: bytes | None) -> Regression:
    """``regression``, its log rewritten under today's rules when it changed; a rewrite that cannot be done
    (a campaign another affray is writing, say) is said in its line, and the log still fails."""
    if today is None:
        return regression
    try:
        _rewrite(path, today)
    except AffrayError as exc:
        regression.message += f"; --update could not rewrite it: {exc}"
        return regression
    regression.updated = True
    return regression


def _rewrite(path: LogStore, today: bytes) -> None:
    """The log at ``path`` replaced by ``today``'s, whole or not at all."""
    file = path.own_file
    if file is None:
        stores.write_whole(path, today.splitlines(keepends=True), replace=True)
    else:
        files.write_new(file, today, force=True, flag="--update")


def _players_copy(name: str, log: LogFile) -> Regression:
    """A players' copy: read and folded, not re-simulated, for its seed and sealed rolls are withheld."""
    verdict = fold_only(log)
    if not verdict.ok:
        return Regression(
            path=name, sort="damaged", where=verdict.where, message=verdict.message, seq=verdict.seq
        )
    message = (
        "a players' copy: it chains and folds, but its seed and sealed rolls are withheld, so it is not "
        "re-simulated (affray reveal checks it against the referee's log)"
    )
    return Regression(path=name, sort="sealed", where="line 1 (header)", message=message)


def _other_version(path: LogStore, ruleset: str, made: str, current: str) -> Regression:
    """A log of another ruleset version: read as written (older logs need not be in today's canonical
    form), its chain and lines checked, not re-simulated."""
    plain = stores.read_place(path, rulesets.vocabulary_for)
    if plain.problem is not None:
        problem = plain.problem
        return Regression(
            path=str(path), sort="damaged", where=problem.where(), message=problem.message, seq=problem.seq
        )
    message = f"made under {ruleset} version {shown(made, 20)}; this affray simulates version {current}"
    return Regression(path=str(path), sort="other_version", where="line 1 (header)", message=message)


def _checked(paths: list[LogStore], jobs: int, update: bool) -> Iterator[Regression]:
    """Each log sorted, on ``jobs`` worker processes; the changed ones rewritten here, one at a time (a
    campaign takes one writer)."""
    if jobs <= 1 or len(paths) <= 1:
        yield from (check(path, update) for path in paths)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for path, (regression, today) in zip(paths, pool.map(sort_log, paths), strict=True):
            yield _updated(path, regression, today) if update else regression


def told(regression: Regression) -> str:
    """One log's line in the report ("" for an unchanged one)."""
    if regression.sort == "unchanged":
        return ""
    where = f"{regression.where}: " if regression.where else ""
    line = f"{SAID[regression.sort]} {regression.path}: {where}{regression.message}"
    if regression.outcome:
        rows = (f"{row.path} {shown(row.a)} -> {shown(row.b)}" for row in regression.outcome)
        line += "; the outcome: " + "; ".join(rows)
    elif regression.sort == "changed":
        line += "; the outcome is the same"
    if regression.sort == "changed" and regression.since:
        line += f"; changed since it was made: {', '.join(regression.since)}"
    return line + ("; rewritten under today's rules" if regression.updated else "")


def summary(results: Sequence[Regression]) -> str:
    """The last line: how many logs of each sort."""
    count = {sort: sum(1 for r in results if r.sort == sort) for sort in ("unchanged", *SAID)}
    winners = sum(1 for r in results if r.winner_changed)
    updated = sum(1 for r in results if r.updated)
    logs = f"{len(results)} log{'' if len(results) == 1 else 's'}"
    line = (
        f"{logs}: {count['unchanged']} unchanged, {count['changed']} changed "
        f"({winners} with another winner), {count['damaged']} damaged, {count['unreadable']} unreadable, "
        f"{count['other_version']} of another version"
    )
    if count["sealed"]:
        line += f", {count['sealed']} players' cop{'y' if count['sealed'] == 1 else 'ies'} not re-simulated"
    return line + (f"; {updated} rewritten under today's rules" if updated else "")


def causes(results: Sequence[Regression]) -> list[str]:
    """A line for each data file changed since some of the changed logs were made: how many of the logs
    made with it end differently ("energion/weapons.toml changed: 3 of 9 fights made with it end
    differently")."""
    lines = []
    for name in sorted({name for r in results if r.sort == "changed" for name in r.since}):
        made = [r for r in results if name in r.since]
        ending = sum(1 for r in made if r.sort == "changed")
        lines.append(f"{name} changed: {ending} of {len(made)} fights made with it end differently")
    return lines


def junit(results: Sequence[Regression]) -> bytes:
    """The results as JUnit XML: a test case per log, failing when changed, damaged or unreadable, skipped
    when of another ruleset version."""
    failures = sum(1 for r in results if failing(r))
    skipped = sum(1 for r in results if r.sort in SKIPPED)
    suite = ElementTree.Element(
        "testsuite",
        name="affray regress",
        tests=str(len(results)),
        failures=str(failures),
        errors="0",
        skipped=str(skipped),
    )
    for regression in results:
        path = Path(regression.path)  # XML 1.0 holds no control character: each text is made printable
        case = ElementTree.SubElement(
            suite, "testcase", classname=printable(str(path.parent)), name=printable(path.name)
        )
        if failing(regression):
            said = printable(told(regression))
            failure = ElementTree.SubElement(case, "failure", type=regression.sort, message=said[:500])
            failure.text = said
        elif regression.sort in SKIPPED:
            ElementTree.SubElement(case, "skipped", message=printable(regression.message))
    written: bytes = ElementTree.tostring(suite, encoding="utf-8", xml_declaration=True)
    return written


@cli.command(name="regress", short_help=short_help_of("regress"))
@click.argument("paths", nargs=-1, required=True, type=LOG)
@click.option("-j", "--jobs", type=click.IntRange(min=1, max=64), default=1, help="Logs checked at once.")
@click.option("--update", is_flag=True, help="Rewrite the changed logs under today's rules.")
@click.option("--junit", "junit_path", type=click.Path(path_type=Path), help="Write JUnit XML here too.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--force", is_flag=True, help="Replace the --junit file if it exists.")
def regress_command(
    paths: tuple[LogStore, ...], jobs: int, update: bool, junit_path: Path | None, as_json: bool, force: bool
) -> None:
    """Re-simulate every log in PATHS (files, campaigns' encounters, campaigns, or folders searched for
    *.jsonl files and campaigns) under today's rules and tables, and sort each: unchanged, changed (where
    it first differs and how the outcome does), damaged (its chain or lines broken: edited by hand, cut),
    unreadable, or of another ruleset version (not re-simulated). Exit 0 when none is changed, damaged
    or unreadable, else 1.

    --update rewrites each changed log under today's rules (never a damaged one) and says which; the
    logs it rewrote no longer count as failing.
    """
    logs = logs_in(paths)
    if junit_path is not None:
        inputs = {p.file: "a log to check" for p in logs}
        new_output(junit_path, force, inputs, (".xml",), "a JUnit report", "--junit")
    progress = Progress(len(logs), sys.stderr, label="logs")
    results = []
    for regression in _checked(logs, jobs, update):
        results.append(regression)
        progress.advance(1)
    progress.close()
    if as_json:
        rows = [{**msgspec.structs.asdict(r), "winner_changed": r.winner_changed} for r in results]
        click.echo(JSON.encode(rows).decode())
    else:
        echo_lines([*filter(None, map(told, results)), *causes(results)])
        click.echo(summary(results))
    if junit_path is not None:
        report = junit(results)
        files.write_new(junit_path, report, force=force, flag="--junit")
    if any(failing(r) for r in results):
        sys.exit(1)
