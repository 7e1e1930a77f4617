"""Running a batch: the scenario fought once per seed, in chunks, on this process or on a pool of them.

A :class:`BatchSpec` is what a worker needs to fight runs (picklable): the scenario file and any changes
to it (a sweep's point). Each worker loads the scenario once, then fights its chunks with no log kept:
only the outcome of each run comes back. Results come out in the order of the runs, whatever the number of
workers, so the same seeds give the same results byte for byte.
"""

from __future__ import annotations

import itertools
import multiprocessing
import signal
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import msgspec

from affray import rulesets
from affray.batch.outcome import OutTimes, RunOutcome, outcome_of
from affray.batch.seeds import run_seed
from affray.errors import AffrayError, ScenarioError, excerpt, printable, read_user_file
from affray.kernel.ruleset import Ruleset
from affray.kernel.scenario import parse_toml

CONNECT_TIMEOUT_S = 10
"""How long to wait for a Dask scheduler to answer."""
CHUNK = 64
"""Runs a worker fights per task: enough to spread the cost of sending work, few enough to show progress."""


@dataclass(frozen=True)
class BatchSpec:
    """A scenario to fight many times: its file, and values put at paths in it (``combatants.gorm.skill``);
    or, given ``mapping``, the scenario that mapping holds (as JSON), named by ``path`` in errors: a
    recorded fight fought on from a point (affray.replays.continuation), with only the first ``entered``
    of its entered rolls (``dice.rolled``, in the order made) when that is given: the points of a fight's
    odds share one mapping."""

    path: Path
    changes: tuple[tuple[str, Any], ...] = field(default=())
    mapping: bytes | None = None
    entered: int | None = None


SPECS_KEPT = 64
"""How many specs' scenarios a process keeps loaded: a batch's, a sweep's points or a fight's odds come to
a worker one after another."""


@lru_cache(maxsize=SPECS_KEPT)
def _loaded(spec: BatchSpec) -> tuple[Ruleset[Any, Any], Any]:
    """The spec's ruleset and scenario, loaded once per process. A mapping's scenario imports no code from
    anywhere: it comes from a log."""
    if spec.mapping is not None:
        raw = msgspec.json.decode(spec.mapping)
        if spec.entered is not None:
            rolled = raw["dice"]["rolled"]
            raw["dice"]["rolled"] = dict(itertools.islice(rolled.items(), spec.entered))
        folder = None
    else:
        raw = parse_toml(read_user_file(spec.path, ScenarioError, "a scenario file"), str(spec.path))
        folder = spec.path.parent
    for dotted, value in spec.changes:
        put(raw, dotted, value)
    return rulesets.load_mapping(raw, str(spec.path), folder)


def load(spec: BatchSpec) -> tuple[Ruleset[Any, Any], Any]:
    """The spec's ruleset and scenario (a ScenarioError names the file and field when it cannot load)."""
    return _loaded(spec)


def put(raw: dict[str, Any], dotted: str, value: Any) -> None:
    """Set ``value`` at ``dotted`` in a scenario's mapping; a list of tables is entered by the ``id`` of
    the entry (``combatants.gorm.skill``), or by its position."""
    *route, last = dotted.split(".")
    here: Any = raw
    for step in route:
        here = _step(here, step, dotted)
    if isinstance(here, list):
        here[_index(here, last, dotted)] = value
    elif isinstance(here, dict):
        here[last] = value
    else:
        raise ScenarioError(f"--vary {dotted}: {last!r} is not in a table")


def _step(here: Any, step: str, dotted: str) -> Any:
    if isinstance(here, dict):
        if step not in here:
            raise ScenarioError(f"--vary {dotted}: the scenario has no {step!r}")
        return here[step]
    if isinstance(here, list):
        return here[_index(here, step, dotted)]
    raise ScenarioError(f"--vary {dotted}: {step!r} is not in a table")


def _index(items: list[Any], step: str, dotted: str) -> int:
    for i, item in enumerate(items):
        if isinstance(item, dict) and item.get("id") == step:
            return i
    if step.isdigit() and int(step) < len(items):
        return int(step)
    raise ScenarioError(f"--vary {dotted}: no entry {step!r} (by id or position)")


def fight(spec: BatchSpec, base: int, indices: Sequence[int]) -> list[RunOutcome]:
    """Runs ``indices`` of the batch with seed ``base``: each fought with its own seed, no log kept."""
    ruleset, scenario = load(spec)
    outcomes = []
    for index in indices:
        seed = run_seed(base, index)
        out = OutTimes()
        try:
            encounter = ruleset.battle(msgspec.structs.replace(scenario, seed=seed)).run(
                sinks=[out], keep_log=False
            )
        except AffrayError as exc:
            raise AffrayError(f"{spec.path}: run {index} (seed {seed}): {exc}") from None
        outcomes.append(outcome_of(index, seed, encounter, out))
    return outcomes


def chunks(runs: int, size: int = CHUNK) -> list[range]:
    """The runs cut into tasks."""
    return [range(start, min(start + size, runs)) for start in range(0, runs, size)]


Done = Callable[[int], None]
"""``done(n)``: n more runs are finished (for progress)."""


def run_batch(
    spec: BatchSpec,
    runs: int,
    base: int,
    jobs: int = 1,
    done: Done | None = None,
    scheduler: str | None = None,
) -> Generator[RunOutcome, None, None]:
    """Every run's outcome, in run order: fought on ``jobs`` processes (1: this one), or on the Dask
    cluster whose scheduler is at ``scheduler`` (``tcp://host:port``)."""
    for outcomes in run_tasks([(spec, task) for task in chunks(runs)], base, jobs, done, scheduler):
        yield from outcomes


Task = tuple[BatchSpec, range]
"""Runs of one scenario: the scenario, and the numbers of the runs (each fought with its own seed)."""


def run_tasks(
    tasks: Sequence[Task],
    base: int,
    jobs: int = 1,
    done: Done | None = None,
    scheduler: str | None = None,
) -> Generator[list[RunOutcome], None, None]:
    """Each task's outcomes, in task order, fought as ``run_batch`` fights them: several scenarios (the
    points of a fight's odds, say) share the workers."""
    if scheduler is not None:
        results = _on_dask(scheduler, base, tasks)
    elif jobs <= 1:
        results = (fight(spec, base, task) for spec, task in tasks)
    else:
        results = _on_pool(jobs, base, tasks)
    for outcomes in results:
        if done:
            done(len(outcomes))
        yield outcomes


def _fight_task(base: int, task: Task) -> list[RunOutcome]:
    return fight(task[0], base, task[1])


def _on_pool(jobs: int, base: int, tasks: Sequence[Task]) -> Iterator[list[RunOutcome]]:
    """The tasks fought on ``jobs`` worker processes, their results in order. A batch stopped (Ctrl-C, a
    kill, a closed terminal, or the caller closing this generator) stops its workers at once, whatever
    they are fighting; the runs already yielded are the batch's."""
    pool = multiprocessing.get_context().Pool(jobs, initializer=_worker_started)
    try:
        yield from pool.imap(partial(_fight_task, base), tasks)
    except BaseException:
        pool.terminate()
        raise
    else:
        pool.close()
    finally:
        pool.join()


def _worker_started() -> None:
    """A worker leaves Ctrl-C to the process that runs the batch, which stops the workers; SIGTERM and
    SIGHUP end it at once, silently (not by the handlers it inherits from affray's command)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for stop in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(stop, signal.SIG_DFL)


def check_scheduler(address: str) -> None:
    """AffrayError unless ``address`` is a Dask scheduler's ``tcp://HOST:PORT`` (an IPv6 host in brackets).
    Only tcp is taken: Dask's tls needs certificates affray is not given, and its ucx a library it does not
    install, and a Client made for either hung 20 s as it closed."""
    shown = f"--scheduler {excerpt(printable(address))!r}"
    try:
        parts = urlsplit(address)
        port = parts.port
    except ValueError as exc:
        raise AffrayError(f"{shown}: not an address ({exc})") from None
    if parts.scheme and parts.scheme != "tcp":
        raise AffrayError(f"{shown}: affray reaches a scheduler by tcp:// only, as in tcp://127.0.0.1:8786")
    extra = parts.path or parts.query or parts.fragment or parts.username
    if parts.scheme != "tcp" or not parts.hostname or port is None or extra:
        raise AffrayError(f"{shown}: expected tcp://HOST:PORT, as in tcp://127.0.0.1:8786")


def _on_dask(scheduler: str, base: int, tasks: Sequence[Task]) -> Iterator[list[RunOutcome]]:
    """The tasks sent to a running Dask cluster (its workers need affray, as this process has it)."""
    try:
        from distributed import Client
    except ImportError:
        raise AffrayError("--scheduler needs Dask: pip install 'affray[dask]'") from None
    check_scheduler(scheduler)
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT_S, set_as_default=False)  # type: ignore[no-untyped-call]
    except Exception as exc:  # Dask and tornado raise their own timeouts and connection errors
        raise AffrayError(f"--scheduler {scheduler}: no Dask scheduler answers there ({exc})") from None
    with client:
        pending = [client.submit(fight, spec, base, list(task), pure=False) for spec, task in tasks]
        try:
            for future in pending:
                yield future.result()
        except BaseException:  # stopped: the cluster need not fight on for nobody
            client.cancel(pending)  # type: ignore[no-untyped-call]
            raise
