"""Which runs of a batch keep their logs (``affray battle --keep-logs K``): the most extreme and a sample.

Half of K (rounded up) are the runs that ended soonest and the rest those that ended latest; then K more
are a uniform sample of the other runs: 2K in all when the batch has that many runs. The sample is drawn
by reservoir sampling of 2K runs as they come, then K of those that are no extreme, its random numbers
drawn from the batch's seed, so the same batch keeps the same runs. Only seeds and numbers are kept while
the batch runs: the logs are fought again from their seeds afterwards.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field

from affray.batch.outcome import RunOutcome


@dataclass(frozen=True, order=True)
class Kept:
    """A run kept, and why: "soonest", "latest" or "sample"."""

    index: int
    seed: int = field(compare=False)
    why: str = field(compare=False)


class Keeper:
    """Chooses the runs to keep as the outcomes come, in memory bounded by K."""

    def __init__(self, count: int, base: int) -> None:
        self.count = count
        self._soonest: list[tuple[int, int, int]] = []  # (-end, -index, seed): the largest are the soonest
        self._latest: list[tuple[int, int, int]] = []  # (end, -index, seed)
        self._sample: list[tuple[int, int]] = []
        self._seen = 0
        self._random = random.Random(f"affray-keep-v1:{base}")

    def add(self, outcome: RunOutcome) -> None:
        """Consider one run."""
        soonest, latest = (self.count + 1) // 2, self.count // 2
        _keep_largest(self._soonest, (-outcome.end_ms, -outcome.index, outcome.seed), soonest)
        _keep_largest(self._latest, (outcome.end_ms, -outcome.index, outcome.seed), latest)
        self._seen += 1
        room = 2 * self.count  # enough to leave K once the (at most K) extremes are set aside
        if len(self._sample) < room:
            self._sample.append((outcome.index, outcome.seed))
        else:
            slot = self._random.randrange(self._seen)
            if slot < room:
                self._sample[slot] = (outcome.index, outcome.seed)

    def kept(self) -> list[Kept]:
        """The runs kept, by run number."""
        by_run: dict[int, Kept] = {}
        for _, negative, seed in self._soonest:
            by_run.setdefault(-negative, Kept(-negative, seed, "soonest"))
        for _, negative, seed in self._latest:
            by_run.setdefault(-negative, Kept(-negative, seed, "latest"))
        others = [(index, seed) for index, seed in self._sample if index not in by_run]
        chosen = self._random.sample(others, min(self.count, len(others)))
        for index, seed in chosen:
            by_run[index] = Kept(index, seed, "sample")
        return sorted(by_run.values())


def _keep_largest(heap: list[tuple[int, int, int]], entry: tuple[int, int, int], size: int) -> None:
    """Keep in ``heap`` (a min-heap) the ``size`` largest entries seen."""
    if size <= 0:
        return
    if len(heap) < size:
        heapq.heappush(heap, entry)
    elif entry > heap[0]:
        heapq.heapreplace(heap, entry)
