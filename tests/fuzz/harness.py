"""The fuzz suite's harness: the ``affray`` command run in-process on a mutant, bounded in time and memory,
and its outcome held to the promises the project makes (README.md, docs/log-format.md "Exit statuses").

``affray(*args)`` calls ``affray.cli.main`` (what the console script runs) with stdout and stderr captured.
Each call is bounded:

- a wall clock of ``WALL_SECONDS``, enforced by ``signal.setitimer(ITIMER_REAL)`` raising ``Hang``, a
  BaseException that no ``except Exception`` in affray can swallow. 30 s is generous: the largest example
  runs in about 0.2 s, and even a scenario at the edge of every range (86,400 s of game time, fighters a
  million metres apart) in a few seconds, so only a hang reaches it. The signal is seen between bytecodes:
  one long C call (a huge integer conversion, say) is cut short only once it returns;
- an address space of the process's current size plus ``EXTRA_ADDRESS_SPACE`` (2 GiB, far above what a
  run of an example needs), set with ``resource.setrlimit(RLIMIT_AS)`` for the call and restored after it,
  so a runaway allocation is a MemoryError rather than a machine brought to its knees.

A hang, a MemoryError or any other exception escaping ``main`` (a traceback a user would see) is what
``Outcome.escaped`` describes; ``judge`` turns it, and any breach of the exit-status contract, into a report
that names the mutant and the command line that reproduces it from the project root. The harness uses
signals, so it runs in the main thread only.

The second half builds TOML mutants (scenarios and table files): every field path of a document, and the
replacements, deletions, unknown keys and type changes made at a path, written back with tomli-w; values
tomli-w cannot write (a 5000-digit integer, arrays nested 1000 deep) go in as raw text through a placeholder.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import os
import re
import resource
import shlex
import signal
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path
from types import FrameType
from typing import Any, Literal, TypeVar

import tomli_w

from affray.cli import main
from affray.errors import QUOTE_LIMIT

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

WALL_SECONDS = 30.0
"""How long one ``affray`` call may take before it counts as a hang."""
EXTRA_ADDRESS_SPACE = 2 * 1024**3
"""How much address space one call may add to the process's before an allocation fails."""
REPORT_CHARS = 1500
"""How much of a mutant's stdout and stderr a failure report shows."""


class Hang(BaseException):
    """An ``affray`` call ran past ``WALL_SECONDS``."""


def _address_space() -> int:
    """The process's virtual size in bytes, as the kernel counts it against RLIMIT_AS."""
    pages = int(Path("/proc/self/statm").read_text().split()[0])
    return pages * os.sysconf("SC_PAGE_SIZE")


@contextlib.contextmanager
def bounded(seconds: float | None = None, extra: int | None = None) -> Iterator[None]:
    """Within the block: a Hang after ``seconds`` (``WALL_SECONDS``), a MemoryError past the current size
    plus ``extra`` (``EXTRA_ADDRESS_SPACE``)."""
    limit = WALL_SECONDS if seconds is None else seconds
    extra = EXTRA_ADDRESS_SPACE if extra is None else extra

    def alarm(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"still running after {limit:g} s")

    old_handler = signal.signal(signal.SIGALRM, alarm)
    old_limit = resource.getrlimit(resource.RLIMIT_AS)
    soft = _address_space() + extra
    for bound in old_limit:
        if bound != resource.RLIM_INFINITY:
            soft = min(soft, bound)
    resource.setrlimit(resource.RLIMIT_AS, (soft, old_limit[1]))
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        resource.setrlimit(resource.RLIMIT_AS, old_limit)
        signal.signal(signal.SIGALRM, old_handler)


@dataclass(frozen=True)
class Outcome:
    """What one ``affray`` call did: its arguments, exit status, output, and what escaped ``main`` if
    anything did (a hang, a MemoryError, a traceback; "" when nothing did)."""

    args: tuple[str, ...]
    status: int
    out: str
    err: str
    escaped: str = ""

    @property
    def err_lines(self) -> list[str]:
        """stderr split into lines."""
        return self.err.splitlines()

    @property
    def out_lines(self) -> list[str]:
        """stdout split into lines."""
        return self.out.splitlines()

    def command(self) -> str:
        """The command line that reproduces this call from the project root."""
        return ".venv/bin/affray " + shlex.join(self.args)


def _status(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    return exc.code if isinstance(exc.code, int) else 1


def affray(*args: str | os.PathLike[str]) -> Outcome:
    """Run ``affray ARGS`` in-process, bounded (see the module docstring), and return what it did."""
    argv = tuple(os.fspath(a) for a in args)
    out, err = io.StringIO(), io.StringIO()
    status, escaped = 0, ""
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            with bounded():
                main(list(argv))
        except SystemExit as exc:
            status = _status(exc)
        except Hang as exc:
            escaped = f"a hang: {exc}\n{traceback.format_exc()}"
        except MemoryError:
            escaped = (
                f"memory ran out: {EXTRA_ADDRESS_SPACE:,} bytes more were used\n{traceback.format_exc()}"
            )
        except Exception as exc:
            escaped = f"{type(exc).__name__}: {str(exc)[:200]}\n{traceback.format_exc()}"
    return Outcome(argv, status, out.getvalue(), err.getvalue(), escaped)


# -- the contract ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    """One mutated input: the file it was made from, where it was changed, how, and where it is on disk."""

    origin: str
    where: str
    change: str
    path: Path | None = None

    def __str__(self) -> str:
        written = f" (written to {self.path})" if self.path else ""
        return f"{self.origin}: {self.where}: {self.change}{written}"


def _clipped(text: str) -> str:
    return text if len(text) <= REPORT_CHARS else f"{text[:REPORT_CHARS]}... ({len(text):,} characters)"


def report(mutant: Mutant, outcome: Outcome, problem: str) -> str:
    """A failure report: the mutant, what went wrong, how to reproduce it, and what the command printed."""
    return (
        f"mutant {mutant}\n"
        f"  {problem}\n"
        f"  reproduce from the project root: {outcome.command()}\n"
        f"  exit status {outcome.status}\n"
        f"  stdout: {_clipped(outcome.out)!r}\n"
        f"  stderr: {_clipped(outcome.err)!r}\n"
        f"{outcome.escaped}"
    )


_SIDE_LINES = ("warning: ", "note: ")


def breach(outcome: Outcome, statuses: Sequence[int] = (0, 1, 2)) -> str:
    """How ``outcome`` breaks the promise every command makes ("" if it keeps it): nothing escapes, the
    status is one of ``statuses``, no traceback is printed, a status 2 ends with one ``error:`` line, every
    other stderr line is a ``warning:`` or a ``note:``, and none quotes more than ``QUOTE_LIMIT`` characters
    of a value."""
    if outcome.escaped:
        return outcome.escaped.partition("\n")[0] + " (escaped affray.cli.main)"
    if outcome.status not in statuses:
        return f"exit status {outcome.status}, expected one of {', '.join(map(str, statuses))}"
    if "Traceback" in outcome.err or "Traceback" in outcome.out:
        return "a traceback was printed"
    lines = outcome.err_lines
    if outcome.status == 2:
        if not lines or not lines[-1].startswith("error: "):
            return "exit status 2 without an 'error: ' line last on stderr"
        lines = lines[:-1]
    stray = [line for line in lines if not line.startswith(_SIDE_LINES)]
    if stray:
        return f"stderr line neither error, warning nor note: {stray[0][:200]!r}"
    return _quotes_too_much(outcome.err_lines, QUOTE_LIMIT)


def _quotes_too_much(lines: Sequence[str], limit: int) -> str:
    """What is wrong if a line holds more than ``limit`` of one character in a row: more of a hostile value
    (10,000 x's, 5000 nines) than a message may quote."""
    run = re.compile(rf"(.)\1{{{limit}}}")
    long = [line for line in lines if run.search(line)]
    return f"a line quotes more than {limit} characters of a value: {long[0][:200]!r}..." if long else ""


def judge(mutant: Mutant, outcome: Outcome, statuses: Sequence[int] = (0, 1, 2)) -> str:
    """A failure report if ``outcome`` breaks the contract (see ``breach``), else ""."""
    problem = breach(outcome, statuses)
    return report(mutant, outcome, problem) if problem else ""


def assert_contract(mutant: Mutant, outcome: Outcome, statuses: Sequence[int] = (0, 1, 2)) -> None:
    """Fail with a report if ``outcome`` breaks the contract (see ``breach``)."""
    found = judge(mutant, outcome, statuses)
    assert not found, found


T = TypeVar("T")


def sampled(mutations: Sequence[T], share: int) -> list[T]:
    """One mutation in ``share`` of a field's, its first among them (the whole sweep when ``share`` is 1)."""
    return list(mutations[::share])


def fail_all(reports: Sequence[str], tried: int) -> None:
    """Fail naming every report of a sweep (after it tried ``tried`` mutants), or pass when there are none."""
    assert not reports, f"{len(reports)} of {tried} mutants failed:\n\n" + "\n".join(reports)


# -- a scenario run and the log it wrote ------------------------------------------------------------------


_LINE_AND_SEQ = re.compile(r"line \d+ \((seq \d+|header)\)")


def check_run(mutant: Mutant, scenario: Path, out: Path) -> str:
    """``affray run SCENARIO -o OUT`` on a mutant: the contract, no temporary file or lock left beside OUT,
    no file at OUT after a refusal (a ``.partial`` beside it may be), and a written log that verifies,
    replays without a warning and shows its state. A failure report, or "" when all holds."""
    ran = affray("run", scenario, "-o", out)
    found = judge(mutant, ran, (0, 2))
    if found:
        return found
    left = sorted(path.name for path in out.parent.glob(f".{out.name}.*"))
    if left:
        return report(mutant, ran, f"left behind {', '.join(left)} (a temporary file or a lock)")
    if ran.status == 2:
        return report(mutant, ran, f"refused, yet {out} exists") if out.exists() else ""
    if not out.is_file():
        return report(mutant, ran, f"exit status 0, but no log at {out}")
    verified = affray("verify", out)
    if verified.status != 0 or not verified.out.startswith("ok: "):
        return report(mutant, verified, "a log that affray run wrote does not verify")
    replayed = affray("replay", out)
    if replayed.status != 0 or replayed.err:
        return report(mutant, replayed, "a log that affray run wrote does not replay cleanly")
    shown = affray("state", out)
    if shown.status != 0 or shown.err:
        return report(mutant, shown, "a log that affray run wrote does not show its state cleanly")
    return ""


VERDICT_WORDS = {1: ("FAILED: ",), 3: ("CHANGED: ", "OTHER VERSION: ")}
"""How verify's one line begins at each failing exit status: 1 a damaged log, 3 a whole one that this
affray simulates otherwise (or a re-chained edit, which only re-simulation can tell)."""


def verify_breach(outcome: Outcome) -> str:
    """How ``affray verify``'s outcome breaks its own promise ("" if it keeps it): exit 0, 1, 2 or 3 under
    the contract, and a status 1 or 3 is exactly one ``FAILED:`` (``CHANGED:``, ``OTHER VERSION:``) line on
    stdout naming the line and the seq."""
    problem = breach(outcome, (0, 1, 2, 3))
    if problem or outcome.status not in VERDICT_WORDS:
        return problem
    lines = outcome.out_lines
    words = VERDICT_WORDS[outcome.status]
    if len(lines) != 1 or not lines[0].startswith(words):
        return f"exit status {outcome.status} without exactly one {' or '.join(words)!r} line on stdout"
    if not _LINE_AND_SEQ.search(lines[0]):
        return "the verdict names no line and seq ('line N (seq S)' or 'line 1 (header)')"
    return _quotes_too_much(lines, QUOTE_LIMIT)


# -- TOML mutants ----------------------------------------------------------------------------------------

FieldPath = tuple[str | int, ...]
"""Where a value is in a TOML document: table keys and array indices from the top."""


def field_paths(value: object, prefix: FieldPath = ()) -> list[FieldPath]:
    """Every path in a parsed TOML document: each key of each table and each element of each array (arrays
    of tables and inline tables too), parents before their children."""
    paths: list[FieldPath] = []
    items: Iterator[tuple[str | int, object]]
    if isinstance(value, dict):
        items = iter(value.items())
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return paths
    for step, item in items:
        path = (*prefix, step)
        paths.append(path)
        paths.extend(field_paths(item, path))
    return paths


_BARE_KEY = re.compile(r"^[A-Za-z0-9_]+$")


def shown_path(path: FieldPath) -> str:
    """A path as affray's errors write it: ``$.combatants[0].stats.ST`` (``$.tables["3-6"]``)."""
    steps = [
        f"[{step}]" if isinstance(step, int) else f".{step}" if _BARE_KEY.match(step) else f"[{step!r}]"
        for step in path
    ]
    return "$" + "".join(steps)


@dataclass(frozen=True)
class Raw:
    """TOML text to write as it is where a value goes: what tomli-w cannot write."""

    text: str


_PLACEHOLDER = "@@affray-fuzz-raw@@"

HOSTILE_VALUES: tuple[tuple[str, object], ...] = (
    ("0", 0),
    ("-1", -1),
    ("2**63", 2**63),
    ("-2**63", -(2**63)),
    ("10**30", 10**30),
    ("a 5000-digit integer", Raw("9" * 5000)),
    ("1e308", 1e308),
    ("-1e308", -1e308),
    ("nan", math.nan),
    ("inf", math.inf),
    ("-inf", -math.inf),
    ("-0.0", -0.0),
    ("0.5", 0.5),
    ('""', ""),
    ("a 10,000-character string", "x" * 10_000),
    ("a string with a NUL", "a\x00b"),
    ("a string of odd unicode", "\u202egorm\u0301\u200d\ufeff\U0001f5e1\u2028\x85"),
    ("an escaped lone surrogate", Raw('"\\ud800"')),
    ("true", True),
    ("[]", []),
    ("{}", {}),
    ("arrays nested 1000 deep", Raw("[" * 1000 + "]" * 1000)),
    ("inline tables nested 1000 deep", Raw("{ a = " * 1000 + "1" + " }" * 1000)),
    ("a date", date(1979, 5, 27)),
    ("a local time", time(7, 32)),
    ("a date and time", datetime(1979, 5, 27, 7, 32, tzinfo=UTC)),
    ('"1d99999999999999999999"', "1d99999999999999999999"),
    ('"999999999d6"', "999999999d6"),
    ('"0d6"', "0d6"),
    ('"1d0"', "1d0"),
    ('"d6"', "d6"),
    ('"1d6+"', "1d6+"),
    ('"-1d6"', "-1d6"),
    ('"1000d1000000+1000000"', "1000d1000000+1000000"),
    ('"1001d6"', "1001d6"),
    ('"1d6+9999999999"', "1d6+9999999999"),
    ("[1e7, 0]", [1e7, 0]),
    ("[nan, 0]", [math.nan, 0]),
    ("[0, -inf]", [0, -math.inf]),
)
"""Values put in place of a field, each with the label a report shows."""

UNKNOWN_KEY = "fuzz_unknown_field"

Operation = Literal["replace", "delete", "add", "retype"]


def retyped(value: object) -> object:
    """The value as another TOML type holding the same content: a number or a boolean as a string, a
    string as a number, an array as a table of its elements, a table as an array holding it."""
    if isinstance(value, bool | int | float):
        return str(value).lower() if isinstance(value, bool) else str(value)
    if isinstance(value, str):
        return len(value)
    if isinstance(value, list):
        return {str(index): item for index, item in enumerate(value)}
    if isinstance(value, dict):
        return [value]
    return str(value)


class TomlMutation:
    """One change at one path of a TOML document: ``replace`` its value with ``value`` (``label`` says
    which), ``delete`` it, ``add`` an unknown key beside it (in an array: a copy of the element after it),
    or ``retype`` it (see ``retyped``). Not a dataclass, so that hypothesis shows a drawn one by its short
    repr rather than field by field, 10,000-character values and all."""

    def __init__(self, operation: Operation, path: FieldPath, label: str = "", value: object = None) -> None:
        self.operation = operation
        self.path = path
        self.label = label
        self.value = value

    def __repr__(self) -> str:
        return f"<{shown_path(self.path)}: {self.describe()}>"

    def describe(self) -> str:
        """What the mutation does, for a report."""
        if self.operation == "replace":
            return f"replaced by {self.label}"
        if self.operation == "delete":
            return "deleted"
        if self.operation == "add":
            return (
                "element duplicated" if isinstance(self.path[-1], int) else f"{UNKNOWN_KEY} added beside it"
            )
        return "its type changed"

    def apply(self, document: dict[str, Any]) -> str:
        """The TOML text of ``document`` with this change made (``document`` itself is not changed)."""
        mutated = copy.deepcopy(document)
        parent: Any = mutated
        for step in self.path[:-1]:
            parent = parent[step]
        last = self.path[-1]
        raw = ""
        if self.operation == "replace":
            value = self.value
            if isinstance(value, Raw):
                raw, value = value.text, _PLACEHOLDER
            parent[last] = value
        elif self.operation == "delete":
            del parent[last]
        elif self.operation == "add":
            if isinstance(parent, list) and isinstance(last, int):
                parent.insert(last + 1, copy.deepcopy(parent[last]))
            else:
                _insert_after(parent, str(last), UNKNOWN_KEY, 1)
        else:
            parent[last] = retyped(parent[last])
        text = tomli_w.dumps(mutated)
        return text.replace(json.dumps(_PLACEHOLDER), raw) if raw else text


def _insert_after(table: dict[str, Any], key: str, new: str, value: object) -> None:
    """Put ``new = value`` into ``table`` right after ``key``, keeping the order of the others."""
    items = list(table.items())
    table.clear()
    for name, item in items:
        table[name] = item
        if name == key:
            table[new] = value
    table.setdefault(new, value)


def mutations_at(path: FieldPath) -> list[TomlMutation]:
    """Every mutation this suite makes at ``path``: each hostile value, deletion, an unknown key beside it,
    a change of type."""
    replaced = [TomlMutation("replace", path, label, value) for label, value in HOSTILE_VALUES]
    return [*replaced, TomlMutation("delete", path), TomlMutation("add", path), TomlMutation("retype", path)]


def sweep_mutations(path: FieldPath, *, huge_integer: bool = True) -> list[TomlMutation]:
    """The few mutations the sweep makes at every path: a huge integer (unless told not to), nan, a change
    of type, deletion."""
    huge = [TomlMutation("replace", path, "10**30", 10**30)] if huge_integer else []
    return [
        *huge,
        TomlMutation("replace", path, "nan", math.nan),
        TomlMutation("retype", path),
        TomlMutation("delete", path),
    ]
