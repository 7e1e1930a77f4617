"""The pytest plugin installed with affray (a ``pytest11`` entry point): golden logs as regression tests.

With ``affray_golden = ["tests/golden"]`` in the pytest configuration, every ``*.jsonl`` log in those
folders is a test item named after its file (and every whole encounter of a campaign there one named after
the encounter): it passes when the log re-simulates identically under
today's rules and tables, fails with the first divergence and the outcome change when it does not (or
when it is damaged), and is skipped when it was made under another ruleset version.
``--affray-update`` rewrites the goldens that today's rules simulate otherwise. The ``affray_golden``
fixture compares a log a test made with a golden file. Without the setting the plugin collects nothing.
docs/regression.md is the guide.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

UPDATE = "--affray-update"


def pytest_addoption(parser: pytest.Parser) -> None:
    """``affray_golden`` (ini) and ``--affray-update``."""
    parser.addini(
        "affray_golden", "folders of affray logs that are regression tests", type="paths", default=[]
    )
    parser.getgroup("affray").addoption(
        UPDATE,
        action="store_true",
        help="rewrite the golden logs that today's rules simulate otherwise (never a damaged one)",
    )


def _folders(config: pytest.Config) -> list[Path]:
    return [Path(folder).resolve() for folder in config.getini("affray_golden")]


CAMPAIGNS = (".sqlite", ".sqlite3", ".db")
"""The suffixes of a campaign (``affray.stores.sqlite.SUFFIXES``), named here so that collecting a project's
other files imports nothing of affray."""


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A ``*.jsonl`` file in one of the ``affray_golden`` folders is a golden log; a campaign there holds
    one golden log per whole encounter. A hidden file is none, as for ``affray regress`` (a writer's
    temporary file, or a link a stranger planted at one's name)."""
    if file_path.suffix != ".jsonl" and file_path.suffix.lower() not in CAMPAIGNS:
        return None
    if file_path.name.startswith("."):
        return None
    resolved = file_path.resolve()
    if not any(resolved.is_relative_to(folder) for folder in _folders(parent.config)):
        return None
    collector: pytest.Collector = GoldenFile.from_parent(parent, path=file_path)
    return collector


class GoldenFile(pytest.File):
    """A golden log: one test item, named after the file; or a campaign: an item per whole encounter,
    named after it."""

    def collect(self) -> Iterator[pytest.Item]:
        """The log's one item, or the campaign's."""
        from affray import stores
        from affray.errors import AffrayError

        if self.path.suffix == ".jsonl":
            yield GoldenLog.from_parent(self, name=self.path.stem, place=stores.JsonLinesLog(self.path))
            return
        try:
            encounters = stores.whole_encounters(self.path)
        except AffrayError:
            # one item that fails with why, as regress reports such a file: the other goldens still run
            yield GoldenLog.from_parent(self, name=self.path.stem, place=stores.JsonLinesLog(self.path))
            return
        for log in encounters:
            yield GoldenLog.from_parent(self, name=log.name, place=log)


class Differs(Exception):
    """A golden log that today's rules simulate otherwise, or that is damaged: the report's line."""


class GoldenLog(pytest.Item):
    """Re-simulate the log and compare (``affray regress`` on one file or encounter)."""

    def __init__(self, *, place: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.place: Any = place
        """The log (an ``affray.stores.LogStore``): its file, or a campaign's encounter."""

    def runtest(self) -> None:
        """Pass, skip (another ruleset version, a players' copy), or raise Differs with the first
        divergence."""
        from affray.cli.regress import SKIPPED, failing, told
        from affray.errors import printable

        self.config.stash.setdefault(USED, set()).add(self.path.resolve())  # checked: not unused
        regression = _check(self.place, bool(self.config.getoption(UPDATE)))
        if regression.sort in SKIPPED:
            pytest.skip(printable(regression.message))
        if failing(regression):
            raise Differs(printable(told(regression)))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        """The first divergence and the outcome change, not a traceback."""
        if isinstance(excinfo.value, Differs):
            return f"{excinfo.value}\n(if the change is intended: pytest {UPDATE} rewrites it)"
        return str(super().repr_failure(excinfo, style))

    def reportinfo(self) -> tuple[Path, int, str]:
        """Where the item is, as pytest reports it."""
        return self.path, 0, f"golden log {self.place}"


def _check(path: Any, update: bool) -> Any:
    from affray.cli.regress import check

    return check(path, update)


class Golden:
    """``affray_golden.check(log, path)``: the log a test made must be the golden file's bytes; with
    ``--affray-update`` a golden that differs, or is missing, is written instead. ``used`` gathers the
    goldens checked in the session."""

    def __init__(self, update: bool, used: set[Path]) -> None:
        self.update = update
        self.used = used

    def check(self, log: bytes, golden: Path) -> None:
        """Fail with where the two logs first part and how the outcome differs, when they do."""
        self.used.add(golden.resolve())
        held = _held(golden)
        if self.update and held != log:
            _rewrite(golden, log)
            return
        if held is None:
            pytest.fail(f"{golden} is missing ({UPDATE} writes it)", pytrace=False)
        if held != log:
            pytest.fail(
                f"{golden}: the log made differs ({UPDATE} rewrites it)\n{_parting(held, log)}", pytrace=False
            )


def _held(golden: Path) -> bytes | None:
    """The golden file's bytes, None when there is none; one that is no regular file (a fifo, a device)
    fails the test unread."""
    from affray.errors import AffrayError, LogError, open_user_file

    if not golden.exists():
        return None
    try:
        with open_user_file(golden, LogError, "a golden log") as stream:
            return stream.read()
    except AffrayError as exc:
        pytest.fail(str(exc), pytrace=False)


def _rewrite(golden: Path, log: bytes) -> None:
    """The golden file replaced by ``log``, written new and moved onto its name (``affray.files``): a
    link at the golden's name is replaced, never written through."""
    from affray import files
    from affray.errors import AffrayError

    try:
        files.write_new(golden, log, force=True, flag=UPDATE)
    except AffrayError as exc:
        pytest.fail(str(exc), pytrace=False)


def _parting(golden: bytes, made: bytes) -> str:
    """Where the golden log and the one made part, and the outcome change, on a few lines (as they are
    told: a table of headers keeps its columns)."""
    from affray import rulesets
    from affray.errors import AffrayError, printable
    from affray.events.reader import read_bytes
    from affray.replays.diff import diff_logs, tell_diff

    try:
        diff = diff_logs(
            read_bytes(golden, rulesets.vocabulary_for), read_bytes(made, rulesets.vocabulary_for)
        )
    except AffrayError as exc:  # a golden file that is no log at all
        return f"differs, and cannot be read as a log: {printable(str(exc))}"
    return "\n".join(printable(line) for line in tell_diff(diff, "the golden log", "the log made")[:12])


USED = pytest.StashKey[set[Path]]()
"""The goldens the ``affray_golden`` fixture checked in this session."""


def pytest_configure(config: pytest.Config) -> None:
    """Start the session with no golden checked."""
    config.stash[USED] = set()


@pytest.fixture
def affray_golden(request: pytest.FixtureRequest) -> Golden:
    """Compare a log a test made with a golden file (``affray_golden.check(log_bytes, path)``)."""
    return Golden(bool(request.config.getoption(UPDATE)), request.config.stash[USED])


def unused(used: set[Path]) -> list[Path]:
    """The logs beside the goldens checked that no test checked: goldens left over from a test or an
    example that is gone."""
    folders = {path.parent for path in used}
    return sorted(
        p
        for folder in folders
        for p in folder.glob("*.jsonl")
        if not p.name.startswith(".") and p.resolve() not in used  # hidden: no golden, as regress has it
    )


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Name the unused goldens, unless the run was narrowed to some tests (by -k, -m or a node id)."""
    used = config.stash.get(USED, set())
    chosen = bool(config.getoption("keyword")) or bool(config.getoption("markexpr"))
    narrowed = chosen or any("::" in arg for arg in config.args)
    left = unused(used)
    if not used or not left or narrowed:
        return
    terminalreporter.section("affray: unused golden logs")
    for path in left:
        terminalreporter.write_line(f"{path}: no test checked it (remove it if its test or example is gone)")
