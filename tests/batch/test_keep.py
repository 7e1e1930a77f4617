"""Which runs of a batch keep their logs (batch/keep.py)."""

from __future__ import annotations

from affray.batch.keep import Keeper
from affray.batch.outcome import RunOutcome


def outcome(index: int, end_ms: int) -> RunOutcome:
    return RunOutcome(index, 1000 + index, "a", end_ms, "won", False, 10, [])


def test_the_soonest_and_latest_ending_runs_are_kept() -> None:
    # ends 0, 10, ..., 90 s: K = 3 keeps the 2 soonest (0, 10 s) and the latest (90 s), then samples
    keeper = Keeper(3, 7)
    for i in range(10):
        keeper.add(outcome(i, i * 10_000))
    why = {k.index: k.why for k in keeper.kept()}
    assert {i for i, w in why.items() if w == "soonest"} == {0, 1}
    assert {i for i, w in why.items() if w == "latest"} == {9}


def test_a_sample_of_k_more_runs_is_kept_the_same_every_time() -> None:
    def kept() -> list[int]:
        keeper = Keeper(4, 7)
        for i in range(1000):
            keeper.add(outcome(i, 50_000))
        return [k.index for k in keeper.kept() if k.why == "sample"]

    assert len(kept()) == 4
    assert kept() == kept()


def test_a_run_kept_for_two_reasons_is_kept_once() -> None:
    keeper = Keeper(2, 7)
    for i in range(2):
        keeper.add(outcome(i, i * 1000))
    assert [k.index for k in keeper.kept()] == [0, 1]


def test_k_keeps_2k_runs_however_the_sample_falls() -> None:
    # K = 4 of 6 runs: the extremes are 4 of them; the sample takes the other 2, never an extreme twice
    for runs, k in [(6, 4), (40, 10), (1000, 4), (8, 4)]:
        keeper = Keeper(k, 7)
        for i in range(runs):
            keeper.add(outcome(i, (i * 7919) % 1000 * 100))
        assert len(keeper.kept()) == min(2 * k, runs), (runs, k)


def test_the_sample_is_drawn_from_the_runs_that_are_no_extreme() -> None:
    keeper = Keeper(2, 7)
    for i in range(100):
        keeper.add(outcome(i, i * 1000))
    sampled = {k.index for k in keeper.kept() if k.why == "sample"}
    assert len(sampled) == 2
    assert not sampled & {0, 99}
