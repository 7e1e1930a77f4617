"""A batch's results, one row per run, streamed to CSV or Parquet (pyarrow) as the runs come.

Columns: in a sweep first each varied path (its value at the run's point), then ``run``, ``seed``,
``winner`` (empty: none), ``end_s``, ``end_reason``, ``timed_out``, ``events``, then for each combatant
in the order they joined ``ID.dealt``, ``ID.taken``, ``ID.hits``, ``ID.attacks`` and ``ID.out_s`` (empty
while it stood). Parquet holds a varied value as its JSON text. Damage is written as a float: the rules
keep it to the thousandth, well within a float's precision.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from affray import files
from affray.batch.outcome import RunOutcome
from affray.errors import AffrayError

FORMATS = (".csv", ".parquet")
ROWS_PER_GROUP = 1024
"""Rows a Parquet row group holds (and rows kept before they are written)."""
SHARE_COLUMNS = ("dealt", "taken", "hits", "attacks", "out_s")


def columns(first: RunOutcome, varied: Sequence[str] = ()) -> list[str]:
    """The columns of a batch whose first run is ``first`` (after the ``varied`` paths of a sweep)."""
    shared = [f"{s.combatant}.{name}" for s in first.shares for name in SHARE_COLUMNS]
    return [*varied, "run", "seed", "winner", "end_s", "end_reason", "timed_out", "events", *shared]


def row(outcome: RunOutcome, point: Sequence[Any] = ()) -> list[Any]:
    """One run's row (after its sweep point's values)."""
    shares: list[Any] = []
    for s in outcome.shares:
        out = s.out_ms / 1000 if s.out_ms is not None else None
        shares += [float(s.dealt), float(s.taken), s.hits, s.attacks, out]
    head = [*point, outcome.index, outcome.seed, outcome.winner, outcome.end_ms / 1000, outcome.end_reason]
    return [*head, outcome.timed_out, outcome.events, *shares]


class Results(Protocol):
    """A results file being written."""

    def add(self, outcome: RunOutcome, point: Sequence[Any]) -> None: ...
    def close(self) -> None: ...


class CsvResults:
    """Results as CSV, into an open binary file."""

    def __init__(self, file: BinaryIO, varied: Sequence[str]) -> None:
        self._file = io.TextIOWrapper(file, newline="", encoding="utf-8", write_through=False)
        self._writer = csv.writer(self._file)
        self._varied = varied
        self._started = False

    def add(self, outcome: RunOutcome, point: Sequence[Any]) -> None:
        if not self._started:
            self._writer.writerow(columns(outcome, self._varied))
            self._started = True
        self._writer.writerow(["" if v is None else v for v in row(outcome, point)])

    def close(self) -> None:
        self._file.flush()
        self._file.detach()  # the binary file is closed by its owner


class ParquetResults:
    """Results as Parquet, into an open binary file, a row group every ROWS_PER_GROUP runs."""

    def __init__(self, file: BinaryIO, varied: Sequence[str]) -> None:
        try:
            import pyarrow
            import pyarrow.parquet
        except ImportError:
            raise AffrayError("Parquet results need pyarrow: pip install pyarrow (or write .csv)") from None
        self._pa, self._pq = pyarrow, pyarrow.parquet
        self._file = file
        self._writer: Any = None
        self._rows: list[list[Any]] = []
        self._names: list[str] = []
        self._varied = list(varied)

    def add(self, outcome: RunOutcome, point: Sequence[Any]) -> None:
        if not self._names:
            self._names = columns(outcome, self._varied)
        self._rows.append(
            row(outcome, [json.dumps(value) if isinstance(value, str) else value for value in point])
        )
        if len(self._rows) >= ROWS_PER_GROUP:
            self._flush()

    def _flush(self) -> None:
        if not self._rows:
            return
        schema = self._schema()
        values = zip(*self._rows, strict=True)
        table = self._pa.table(
            {
                name: self._pa.array(list(column), type=schema.field(name).type)
                for name, column in zip(self._names, values, strict=True)
            }
        )
        if self._writer is None:
            self._writer = self._pq.ParquetWriter(self._file, schema)
        self._writer.write_table(table)
        self._rows = []

    def _schema(self) -> Any:
        pa = self._pa
        kinds = {
            "run": pa.int64(),
            "seed": pa.int64(),
            "winner": pa.string(),
            "end_s": pa.float64(),
            "end_reason": pa.string(),
            "timed_out": pa.bool_(),
            "events": pa.int64(),
            "dealt": pa.float64(),
            "taken": pa.float64(),
            "hits": pa.int64(),
            "attacks": pa.int64(),
            "out_s": pa.float64(),
        }
        varied = [(name, pa.string()) for name in self._varied]
        rest = self._names[len(self._varied) :]
        return pa.schema(varied + [(name, kinds[name.rpartition(".")[2]]) for name in rest])

    def close(self) -> None:
        self._flush()
        if self._writer is not None:
            self._writer.close()


def check_results(path: Path, force: bool) -> None:
    """``-o PATH`` checked before any fight: a results file's suffix, and a place it may be written
    (``affray.files.check_target``)."""
    if path.suffix.lower() not in FORMATS:
        raise AffrayError(f"-o {path}: results end in {' or '.join(FORMATS)}")
    files.check_target(path, force=force, flag="-o")


class ResultsFile:
    """Results written to a new file beside ``path`` and moved there when complete (``affray.files``),
    so that a batch stopped half way never leaves a results file that looks whole; an existing file (or a
    link) is replaced only with ``force``, and never written through."""

    def __init__(self, path: Path, *, force: bool, varied: Sequence[str] = ()) -> None:
        check_results(path, force)
        self.path = path
        chosen = CsvResults if path.suffix.lower() == ".csv" else ParquetResults
        self.made = files.NewFile(path, force=force, flag="-o")
        try:
            self.results: Results = chosen(self.made.file, varied)
        except BaseException:
            self.made.abandon()
            raise

    def add(self, outcome: RunOutcome, point: Sequence[Any] = ()) -> None:
        """Write one run's row (with its sweep point's values)."""
        self.results.add(outcome, point)

    def finish(self) -> None:
        """Close and put the file in its place."""
        try:
            self.results.close()
        except OSError as exc:
            self.made.abandon()
            raise AffrayError(f"-o {self.path}: cannot write it ({exc.strerror or exc})") from None
        except BaseException:
            self.made.abandon()
            raise
        self.made.finish()

    def keep_partial(self) -> Path | None:
        """Close and keep the rows written so far beside the file, as ``PATH.partial`` (a batch that was
        stopped); None when nothing could be kept."""
        try:
            self.results.close()
        except Exception:  # the stop is what to tell; nothing is kept then
            self.made.abandon()
            return None
        return self.made.keep_partial()

    def abandon(self) -> None:
        """Close and remove what was written."""
        try:
            with contextlib.suppress(Exception):  # the error that stopped the batch is the one to tell
                self.results.close()
        finally:
            self.made.abandon()
