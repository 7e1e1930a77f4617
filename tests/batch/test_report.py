"""The report of a batch (batch/report.py) from outcomes made by hand."""

from __future__ import annotations

from decimal import Decimal

from affray.batch.outcome import RunOutcome, Share
from affray.batch.report import tally, tell_report


def run(
    index: int, winner: str | None, end_ms: int, *, timed_out: bool = False, gorm_out: int | None = None
) -> RunOutcome:
    shares = [
        Share("brenna", "ford", Decimal(10), Decimal(2), 3, 5, None),
        Share("gorm", "raiders", Decimal(2), Decimal(10), 1, 4, gorm_out),
    ]
    reason = "time limit of 60 s reached" if timed_out else "only one side stands"
    return RunOutcome(index, index, winner, end_ms, reason, timed_out, 20, shares)


def test_wins_no_winner_and_time_limit_are_counted_apart() -> None:
    report = tally(
        [
            run(0, "ford", 10_000),
            run(1, "ford", 20_000),
            run(2, None, 60_000, timed_out=True),
            run(3, None, 5_000),
        ],
        7,
    )
    wins = {s.side: s.wins.count for s in report.sides}
    assert (wins, report.draws.count, report.time_limit.count) == ({"ford": 2, "raiders": 0}, 1, 1)


def test_a_side_that_never_wins_is_reported_at_zero() -> None:
    report = tally([run(0, "ford", 10_000)], 7)
    assert [(s.side, s.wins.count) for s in report.sides] == [("ford", 1), ("raiders", 0)]


def test_time_to_resolution_is_in_seconds_with_percentiles() -> None:
    # 10, 20, 30, 40 s: median 25 s, p10 at position 0.3: 10 + 0.3 * 10 = 13 s
    report = tally([run(i, "ford", (i + 1) * 10_000) for i in range(4)], 7)
    assert (report.time_percentiles_s["p50"], round(report.time_percentiles_s["p10"], 6)) == (25.0, 13.0)
    assert report.time_mean_s == 25.0


def test_a_combatants_survival_and_time_out() -> None:
    # gorm out in two runs of four, at 8 s and 12 s: median 10 s; he stands to the end in the other two
    outcomes = [run(0, "ford", 9_000, gorm_out=8_000), run(1, "ford", 13_000, gorm_out=12_000)]
    outcomes += [run(2, None, 5_000), run(3, None, 5_000)]
    gorm = next(c for c in tally(outcomes, 7).combatants if c.combatant == "gorm")
    assert (gorm.survived.count, gorm.out.count, gorm.out_median_s) == (2, 2, 10.0)
    assert (gorm.dealt, gorm.taken) == (2.0, 10.0)


def test_the_report_tells_each_side_with_its_interval() -> None:
    lines = tell_report(tally([run(0, "ford", 10_000), run(1, "raiders", 10_000)], 7), "duel")
    assert lines[0] == "duel: 2 runs from seed 7"
    assert any(line.split()[:4] == ["side", "ford", "50.0", "%"] for line in lines)
