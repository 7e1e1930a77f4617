"""The report of a batch: win rates with their intervals, time to resolution, and each combatant's
damage, survival and time out, gathered as the outcomes come (``affray battle`` prints it, or its JSON)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import msgspec

from affray.batch.outcome import RunOutcome
from affray.batch.stats import mean, percentile, wilson

QUANTILES = (10, 25, 50, 75, 90)
"""The percentiles of time to resolution reported."""


class Rate(msgspec.Struct, frozen=True):
    """How often something happened: the count, of how many runs, the rate and its 95 % Wilson interval."""

    count: int
    runs: int
    rate: float
    low: float
    high: float

    @classmethod
    def of(cls, count: int, runs: int) -> Rate:
        """The rate of ``count`` in ``runs``."""
        low, high = wilson(count, runs)
        return cls(count, runs, count / runs if runs else 0.0, low, high)

    def shown(self) -> str:
        """``61.2 % (58.1-64.2)``."""
        return f"{100 * self.rate:5.1f} % ({100 * self.low:.1f}-{100 * self.high:.1f})"


class SideReport(msgspec.Struct, frozen=True):
    """One side's wins."""

    side: str
    wins: Rate


class CombatantReport(msgspec.Struct, frozen=True):
    """One combatant over the batch: mean damage dealt and taken, how often it stood to the end and how
    often it went out, and the median time it went out at (seconds; None when it never did)."""

    combatant: str
    side: str
    dealt: float
    taken: float
    survived: Rate
    out: Rate
    out_median_s: float | None


class Report(msgspec.Struct, frozen=True, omit_defaults=True):
    """A whole batch: its runs and seed, each side's wins, draws and time-limit endings, time to
    resolution (seconds: mean and percentiles), mean events, and each combatant; ``interrupted`` when the
    batch was stopped before all its runs were fought (the report is then of those fought)."""

    runs: int
    seed: int
    sides: list[SideReport]
    draws: Rate
    time_limit: Rate
    time_mean_s: float
    time_percentiles_s: dict[str, float]
    events_mean: float
    combatants: list[CombatantReport]
    interrupted: bool = False


@dataclass
class _Combatant:
    side: str
    dealt: list[float] = field(default_factory=list)
    taken: list[float] = field(default_factory=list)
    out_at: list[float] = field(default_factory=list)


class Tally:
    """The outcomes gathered so far (one pass; only what the report needs is kept)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.runs = 0
        self.wins: dict[str, int] = {}
        self.draws = 0
        self.time_limit = 0
        self.times: list[float] = []
        self.events: list[float] = []
        self.combatants: dict[str, _Combatant] = {}

    def add(self, outcome: RunOutcome) -> None:
        """Count one run."""
        self.runs += 1
        for share in outcome.shares:
            self.wins.setdefault(share.side, 0)
            c = self.combatants.setdefault(share.combatant, _Combatant(share.side))
            c.dealt.append(float(share.dealt))
            c.taken.append(float(share.taken))
            if share.out_ms is not None:
                c.out_at.append(share.out_ms / 1000)
        if outcome.winner is not None:
            self.wins[outcome.winner] = self.wins.get(outcome.winner, 0) + 1
        elif outcome.timed_out:
            self.time_limit += 1
        else:
            self.draws += 1
        self.times.append(outcome.end_ms / 1000)
        self.events.append(float(outcome.events))

    def report(self) -> Report:
        """The report of the runs counted."""
        times = sorted(self.times)
        combatants = [
            CombatantReport(
                who,
                c.side,
                mean(c.dealt),
                mean(c.taken),
                Rate.of(self.runs - len(c.out_at), self.runs),
                Rate.of(len(c.out_at), self.runs),
                percentile(sorted(c.out_at), 50) if c.out_at else None,
            )
            for who, c in self.combatants.items()
        ]
        return Report(
            runs=self.runs,
            seed=self.seed,
            sides=[SideReport(side, Rate.of(wins, self.runs)) for side, wins in self.wins.items()],
            draws=Rate.of(self.draws, self.runs),
            time_limit=Rate.of(self.time_limit, self.runs),
            time_mean_s=mean(times),
            time_percentiles_s={f"p{q}": percentile(times, q) for q in QUANTILES},
            events_mean=mean(self.events),
            combatants=combatants,
        )


def tally(outcomes: Iterable[RunOutcome], seed: int) -> Report:
    """The report of ``outcomes``."""
    counted = Tally(seed)
    for outcome in outcomes:
        counted.add(outcome)
    return counted.report()


def _rate_line(label: str, rate: Rate) -> str:
    return f"  {label:<20} {rate.shown():<22} {rate.count}/{rate.runs}"


INTERRUPTED = " (interrupted: the runs fought before the stop)"
"""What a report's first line says of a batch that was stopped."""


def tell_report(report: Report, name: str) -> list[str]:
    """The report as lines for people."""
    p = report.time_percentiles_s
    lines = [
        f"{name}: {report.runs} runs from seed {report.seed}" + (INTERRUPTED if report.interrupted else ""),
        "wins, each with its 95 % Wilson interval:",
        *(_rate_line(f"side {s.side}", s.wins) for s in report.sides),
        _rate_line("no winner", report.draws),
        _rate_line("time limit", report.time_limit),
        f"time to resolution: median {p['p50']:.1f} s (10-90 %: {p['p10']:.1f}-{p['p90']:.1f} s, "
        f"quartiles {p['p25']:.1f}-{p['p75']:.1f} s), mean {report.time_mean_s:.1f} s; "
        f"{report.events_mean:.0f} events a run",
        f"  {'combatant':<12} {'side':<10} {'dealt':>8} {'taken':>8}   {'stands to the end':<22} "
        "out (median time)",
    ]
    for c in report.combatants:
        median = f" ({c.out_median_s:.1f} s)" if c.out_median_s is not None else ""
        lines.append(
            f"  {c.combatant:<12} {c.side:<10} {c.dealt:8.2f} {c.taken:8.2f}   {c.survived.shown():<22} "
            f"{100 * c.out.rate:5.1f} %{median}"
        )
    return lines
