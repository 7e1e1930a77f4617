"""The pictures of a batch (batch/plots.py): wins, time to resolution and damage, as PNG files."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from decimal import Decimal
from pathlib import Path

import pytest

from affray.batch.outcome import RunOutcome, Share
from affray.batch.plots import PLOT_NAMES, PlotData, bin_edges, draw_plots, win_bars
from affray.batch.report import Report, Tally
from affray.batch.runner import BatchSpec, run_batch

DUEL = Path(__file__).resolve().parents[2] / "examples" / "duel.toml"
PNG = b"\x89PNG\r\n\x1a\n"


def gathered(outcomes: Iterable[RunOutcome]) -> tuple[Report, PlotData]:
    """The report and the plot data of ``outcomes``, fed one at a time as the CLI does."""
    counted, data = Tally(7), PlotData()
    for outcome in outcomes:
        counted.add(outcome)
        data.add(outcome)
    return counted.report(), data


def undecided(index: int, shares: list[Share]) -> RunOutcome:
    return RunOutcome(index, index, None, 4_000 + 1_000 * index, "all fell", False, 9, shares)


@pytest.fixture(scope="module")
def duel() -> tuple[Report, PlotData]:
    return gathered(run_batch(BatchSpec(DUEL), 30, 11))


def test_a_real_batch_is_drawn_as_three_pngs(duel: tuple[Report, PlotData], tmp_path: Path) -> None:
    paths = draw_plots(*duel, tmp_path, "Duel at the ford")
    assert [p.read_bytes()[:8] for p in paths] == [PNG] * 3


def test_the_paths_come_in_a_stable_order(duel: tuple[Report, PlotData], tmp_path: Path) -> None:
    first = draw_plots(*duel, tmp_path / "a", "duel")
    again = draw_plots(*duel, tmp_path / "b", "duel")
    assert [p.relative_to(tmp_path / "a") for p in first] == [Path(n) for n in PLOT_NAMES]
    assert [p.name for p in again] == list(PLOT_NAMES) == ["wins.png", "time.png", "damage.png"]


@pytest.mark.parametrize(
    "shares",
    [
        [
            Share("brenna", "ford", Decimal(0), Decimal(0), 0, 3, None),
            Share("gorm", "raiders", Decimal(0), Decimal(0), 0, 2, None),
        ],
        [],
    ],
    ids=["two-combatants", "no-combatants"],
)
def test_a_batch_no_one_wins_still_draws(shares: list[Share], tmp_path: Path) -> None:
    report, data = gathered(undecided(i, shares) for i in range(5))
    paths = draw_plots(report, data, tmp_path, "stalemate")
    assert ("no winner", report.draws) in win_bars(report)
    assert all(p.read_bytes()[:8] == PNG for p in paths)


def test_a_single_run_draws(tmp_path: Path) -> None:
    report, data = gathered(run_batch(BatchSpec(DUEL), 1, 11))
    paths = draw_plots(report, data, tmp_path, "one duel")
    assert all(p.read_bytes()[:8] == PNG for p in paths)


def test_only_endings_that_happened_get_a_bar(duel: tuple[Report, PlotData]) -> None:
    report, _ = duel
    assert [label for label, _ in win_bars(report)] == ["side ford", "side raiders"]


def test_the_data_keeps_a_float_per_combatant_and_run(duel: tuple[Report, PlotData]) -> None:
    _, data = duel
    kept = [
        (v.dealt.typecode, len(v.dealt), v.taken.typecode, len(v.taken)) for v in data.combatants.values()
    ]
    assert kept == [("d", 30, "d", 30)] * 2
    assert sum(len(times) for times in data.won.values()) == 30


def test_time_bins_have_a_round_width_centred_on_whole_seconds() -> None:
    edges = bin_edges(20.0, 95.0, 20)
    widths = {round(b - a, 9) for a, b in itertools.pairwise(edges)}
    assert (widths, edges[0], edges[0] <= 20.0, edges[-1] >= 95.0) == ({5.0}, 17.5, True, True)
