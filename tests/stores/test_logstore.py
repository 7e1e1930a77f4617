"""Both stores are ``LogStore``s (affray.stores.logstore): to mypy, which checks ``STORES``' annotation
(``mypy tests/stores/test_logstore.py``; ``stores.place`` returning either holds it in the package too),
and at run time; and what each answers of a log that need not be there yet."""

from __future__ import annotations

from pathlib import Path

import pytest

from affray.stores import JsonLinesLog, LogStore, StoredLog

STORES: tuple[LogStore, ...] = (
    JsonLinesLog(Path("runs/duel.jsonl")),
    StoredLog(Path("runs/c.sqlite"), "duel"),
)
"""One log of each store, typed as the protocol."""


@pytest.mark.parametrize("where", STORES, ids=["jsonl", "sqlite"])
def test_each_store_is_a_log_store_at_run_time(where: object) -> None:
    assert isinstance(where, LogStore)


def test_a_bare_path_is_no_log_store() -> None:
    assert not isinstance(Path("runs/duel.jsonl"), LogStore)  # it has a name, a stem, open: not the rest


@pytest.mark.parametrize(
    ("where", "answers"),
    [
        (
            STORES[0],
            ("runs/duel.jsonl", "duel.jsonl", "duel", Path("runs/duel.jsonl"), Path("runs/duel.jsonl")),
        ),
        (STORES[1], ("runs/c.sqlite#duel", "duel", "duel", Path("runs/c.sqlite"), None)),
    ],
    ids=["jsonl", "sqlite"],
)
def test_what_each_store_answers_of_a_log(where: LogStore, answers: tuple[object, ...]) -> None:
    assert (str(where), where.name, where.stem, where.file, where.own_file) == answers


@pytest.mark.parametrize(
    ("where", "recorded"),
    [(STORES[0], "../duel.jsonl"), (STORES[1], "../c.sqlite#duel")],
    ids=["jsonl", "sqlite"],
)
def test_a_log_is_named_from_a_folder_by_the_path_to_its_file(where: LogStore, recorded: str) -> None:
    assert where.named_from(Path("runs/what-ifs").absolute()) == recorded


def test_a_resolved_log_is_named_by_its_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    root = tmp_path.resolve()
    assert [where.resolved() for where in STORES] == [
        JsonLinesLog(root / "runs/duel.jsonl"),
        StoredLog(root / "runs/c.sqlite", "duel"),
    ]


def test_nothing_is_there_before_a_log_is_written(tmp_path: Path) -> None:
    assert not JsonLinesLog(tmp_path / "duel.jsonl").exists()
    assert not StoredLog(tmp_path / "c.sqlite", "duel").exists()
    assert not (tmp_path / "c.sqlite").exists()  # asking makes no campaign
