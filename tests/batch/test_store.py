"""A batch's results streamed to CSV or Parquet (batch/store.py)."""

from __future__ import annotations

import csv
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from affray.batch.runner import BatchSpec, run_batch
from affray.batch.store import ResultsFile
from affray.errors import AffrayError

ROOT = Path(__file__).resolve().parents[2]
DUEL = BatchSpec(ROOT / "examples" / "duel.toml")


def written(path: Path, runs: int = 5, point: tuple[object, ...] = ()) -> Path:
    results = ResultsFile(path, force=False, varied=["combatants.gorm.skill"] if point else [])
    for outcome in run_batch(DUEL, runs, 1130):
        results.add(outcome, point)
    results.finish()
    return path


def test_csv_has_a_row_per_run_with_each_combatants_columns(tmp_path: Path) -> None:
    with written(tmp_path / "r.csv").open() as file:
        rows = list(csv.DictReader(file))
    assert [row["run"] for row in rows] == ["0", "1", "2", "3", "4"]
    assert {"gorm.dealt", "gorm.out_s", "brenna.hits"} <= rows[0].keys()


def test_parquet_holds_the_same_rows_as_csv(tmp_path: Path) -> None:
    with written(tmp_path / "r.csv").open() as file:
        rows = list(csv.DictReader(file))
    table = pq.read_table(written(tmp_path / "r.parquet")).to_pylist()
    assert [r["seed"] for r in table] == [int(r["seed"]) for r in rows]
    assert [r["brenna.out_s"] for r in table] == [
        None if r["brenna.out_s"] == "" else float(r["brenna.out_s"]) for r in rows
    ]


def test_parquet_is_written_in_row_groups_of_1024(tmp_path: Path) -> None:
    assert pq.ParquetFile(written(tmp_path / "r.parquet", runs=1500)).num_row_groups == 2


def test_a_sweeps_values_lead_each_row(tmp_path: Path) -> None:
    with written(tmp_path / "r.csv", point=(80,)).open() as file:
        rows = list(csv.DictReader(file))
    assert next(iter(rows[0])) == "combatants.gorm.skill"
    assert {row["combatants.gorm.skill"] for row in rows} == {"80"}


def test_an_abandoned_batch_leaves_no_results(tmp_path: Path) -> None:
    results = ResultsFile(tmp_path / "r.csv", force=False)
    results.add(next(iter(run_batch(DUEL, 1, 1130))))
    results.abandon()
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_kept_without_force(tmp_path: Path) -> None:
    (tmp_path / "r.csv").write_text("mine")
    with pytest.raises(AffrayError, match="the file exists; --force replaces it"):
        ResultsFile(tmp_path / "r.csv", force=False)
    assert (tmp_path / "r.csv").read_text() == "mine"


def test_results_are_csv_or_parquet(tmp_path: Path) -> None:
    with pytest.raises(AffrayError, match=r"results end in \.csv or \.parquet"):
        ResultsFile(tmp_path / "r.xlsx", force=False)
