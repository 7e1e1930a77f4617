"""Mutated logs: the log ``affray run`` writes for each example (made once per session), damaged byte by
byte, line by line and member by member, and forged (a line or a member changed, then every hash and the end
line recomputed, so only the canonical-form check or the re-simulation can tell), then read with ``affray
replay``, ``affray state`` and ``affray verify``.

What must hold for every mutant: replay and state exit 0 (told or shown up to the break, with at most one
``warning:`` line, and exactly one when the chain was not re-hashed, since then the damage always shows in
the chain) or 2 (one ``error:`` line); verify exits 0, 1 (one ``FAILED:`` line naming the line and the seq)
or 2; nothing escapes ``main``; no line quotes more of a hostile value than an error may. And verify passes
no mutant whose bytes differ from the log ``affray run`` wrote, save one whose only change is its header (the
other lines differing in their ``prev`` alone) and whose header's scenario re-simulates to exactly the
mutant's bytes (a name or a time limit the fight never reached, say), checked here by re-simulating the
header independently of verify; and, a known weakness (see ``only_defaults_left_out``), a re-chained one
that only leaves out event members at their defaults.

Member mutations (any depth, header and event lines): a hostile value (1e400, a 5000-digit integer, nesting
100,000 deep, odd strings, every JSON type), another type, deletion, an extra member, a repeated key,
whitespace, a number written otherwise (``3.2e1`` for ``32``).

Every call is bounded by the harness (30 s of wall clock, 2 GiB of address space more than the test process
holds): a hang or a runaway allocation fails the test. Each hypothesis test makes 25 mutants per example
under the quick profile, 1000 under ``--hypothesis-profile=long``.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from affray import rulesets
from affray.errors import AffrayError
from affray.events.base import Event
from affray.events.codec import LogEnd, encode_log
from tests.fuzz.harness import (
    EXAMPLES,
    FieldPath,
    Mutant,
    Outcome,
    affray,
    assert_contract,
    breach,
    field_paths,
    report,
    shown_path,
    verify_breach,
)
from tests.strategies import join_lines, log_lines, read, rechain

NAMES = sorted(path.stem for path in EXAMPLES.glob("*.toml"))

FUZZ_SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


class ExampleLogs(dict[str, bytes]):
    """Each example's log as ``affray run`` writes it, by example name; shown in a few words (hypothesis
    shows a failing test's arguments, and a repr of megabytes upsets its replay of the failure)."""

    def __repr__(self) -> str:
        return f"<the logs of {', '.join(self)}>"


@pytest.fixture(scope="session")
def example_logs(tmp_path_factory: pytest.TempPathFactory) -> ExampleLogs:
    """Each example's log as ``affray run`` writes it, by example name."""
    folder = tmp_path_factory.mktemp("fuzz-logs")
    logs = ExampleLogs()
    for name in NAMES:
        out = folder / f"{name}.jsonl"
        ran = affray("run", EXAMPLES / f"{name}.toml", "-o", out)
        assert_contract(Mutant(f"examples/{name}.toml", "$", "none"), ran, (0,))
        logs[name] = out.read_bytes()
    return logs


class LogMutant:
    """A mutated log: its bytes, where it was changed and how, and whether its chain was recomputed. Not a
    dataclass, so that hypothesis shows it by its short repr rather than field by field, bytes and all."""

    def __init__(self, data: bytes, where: str, change: str, rechained: bool = False) -> None:
        self.data = data
        self.where = where
        self.change = change
        self.rechained = rechained

    def __repr__(self) -> str:
        chained = ", re-chained" if self.rechained else ""
        return f"<log mutant: {self.where}: {self.change}{chained}; {len(self.data):,} bytes>"


# -- JSON members -----------------------------------------------------------------------------------------

_PLACEHOLDER = "@@affray-fuzz-member@@"


def compact(value: object) -> str:
    """JSON as affray writes it for a value decoded with Decimal floats: no whitespace, keys in their
    order, strings with only the escapes JSON requires, each number as it was written."""
    if isinstance(value, dict):
        return (
            "{"
            + ",".join(f"{json.dumps(k, ensure_ascii=False)}:{compact(v)}" for k, v in value.items())
            + "}"
        )
    if isinstance(value, list):
        return "[" + ",".join(compact(item) for item in value) + "]"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def decoded(line: bytes) -> Any:
    """One log line as JSON values, floats as Decimal so that ``compact`` gives back its very bytes."""
    return json.loads(line, parse_float=Decimal)


@cache
def member_paths(line: bytes) -> list[FieldPath]:
    """Every member (at any depth) and array element of one log line."""
    return field_paths(decoded(line))


def retyped_json(value: object) -> str:
    """The value as another JSON type: a number or boolean as a string, a string as a number, null as 0,
    an array as an object of its elements, an object as an array holding it."""
    if isinstance(value, str):
        return str(len(value))
    if isinstance(value, list):
        return compact({str(index): item for index, item in enumerate(value)})
    if isinstance(value, dict):
        return compact([value])
    return "0" if value is None else json.dumps(compact(value))


def respelled(value: object) -> str:
    """The same value written otherwise: a number with an exponent (``3.2e1`` for ``32``), a string with its
    first character as a ``\\u`` escape, anything else with a space before it."""
    if isinstance(value, int | Decimal) and not isinstance(value, bool):
        return f"{Decimal(value).scaleb(-1):f}e1"
    if isinstance(value, str) and value:
        first = json.dumps(value[0], ensure_ascii=True)[1:-1]
        if first == value[0]:
            first = f"\\u{ord(value[0]):04x}"
        return f'"{first}{json.dumps(value[1:], ensure_ascii=False)[1:]}'
    return " " + compact(value)


HOSTILE_JSON: tuple[str, ...] = (
    "0",
    "-1",
    "-0",
    "9223372036854775808",
    "-9223372036854775809",
    "1e400",
    "-1e400",
    "1e-400",
    "9" * 5000,
    "[" * 100_000 + "]" * 100_000,
    '{"a":' * 100_000 + "1" + "}" * 100_000,
    '""',
    '"' + "x" * 10_000 + '"',
    '"a\\u0000b"',
    '"\\ud800"',
    '"\u202egorm\u0301\ufeff"',
    "true",
    "null",
    "[]",
    "{}",
)
"""JSON text put in place of a member: numbers no field holds, nesting no decoder should recurse into, odd
strings, every type."""

MEMBER_CHANGES = ("replaced", "retyped", "deleted", "extra member", "key repeated", "whitespace", "respelled")


def mutate_member(line: bytes, path: FieldPath, change: str, hostile: str) -> tuple[bytes, str]:
    """``line`` with the member (or array element) at ``path`` changed (``change`` of MEMBER_CHANGES;
    ``hostile`` is the JSON text a replacement puts there), re-encoded compactly; and what was done."""
    document = decoded(line)
    parent: Any = document
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    value = parent[last]
    if change == "deleted":
        del parent[last]
        return compact(document).encode(), "deleted"
    if change == "replaced":
        raw, said = hostile, f"replaced by {hostile[:40]!r}{'...' if len(hostile) > 40 else ''}"
    elif change == "retyped":
        raw, said = retyped_json(value), "its type changed"
    elif change == "extra member":
        extra = '"fuzz_extra":1' if isinstance(last, str) else compact(value)
        raw, said = f"{compact(value)},{extra}", "a member (an element in an array) added after it"
    elif change == "key repeated":
        again = f"{json.dumps(last)}:" if isinstance(last, str) else ""
        raw, said = f"{compact(value)},{again}{compact(value)}", "written twice"
    elif change == "whitespace":
        raw, said = f" {compact(value)} ", "spaces around it"
    else:
        raw, said = respelled(value), "written otherwise"
    parent[last] = _PLACEHOLDER
    text = compact(document).replace(json.dumps(_PLACEHOLDER), raw, 1)
    return text.encode(), said


# -- strategies ------------------------------------------------------------------------------------------


@st.composite
def byte_mutants(draw: st.DrawFn, data: bytes) -> LogMutant:
    """One byte replaced, inserted or deleted anywhere in the log."""
    how = draw(st.sampled_from(["replaced", "inserted", "deleted"]))
    offset = draw(st.integers(min_value=0, max_value=len(data) - (0 if how == "inserted" else 1)))
    if how == "deleted":
        return LogMutant(data[:offset] + data[offset + 1 :], f"byte {offset}", "deleted")
    value = draw(st.integers(min_value=0, max_value=254))
    if how == "replaced":
        value += value >= data[offset]
        mutated = data[:offset] + bytes([value]) + data[offset + 1 :]
    else:
        mutated = data[:offset] + bytes([value]) + data[offset:]
    return LogMutant(mutated, f"byte {offset}", f"{how} by {value:#04x}")


@st.composite
def line_mutants(draw: st.DrawFn, data: bytes) -> LogMutant:
    """A line deleted, duplicated or swapped with another (the header and end line among them), or the log
    cut at any byte."""
    lines = log_lines(data)
    how = draw(st.sampled_from(["deleted", "duplicated", "swapped", "cut"]))
    if how == "cut":
        offset = draw(st.integers(min_value=0, max_value=len(data) - 1))
        return LogMutant(data[:offset], f"byte {offset}", "the log cut there")
    index = draw(st.integers(min_value=0, max_value=len(lines) - 1))
    return _moved(lines, how, index, draw)


def _moved(lines: list[bytes], how: str, index: int, draw: st.DrawFn, low: int = 0) -> LogMutant:
    mutated = list(lines)
    if how == "deleted":
        del mutated[index]
        change = "deleted"
    elif how == "duplicated":
        mutated.insert(index, lines[index])
        change = "duplicated"
    else:
        other = draw(st.integers(min_value=low, max_value=len(lines) - 2))
        other += other >= index
        mutated[index], mutated[other] = lines[other], lines[index]
        change = f"swapped with line {other + 1}"
    return LogMutant(join_lines(mutated), f"line {index + 1}", change)


@st.composite
def member_mutants(draw: st.DrawFn, data: bytes, rechain_it: bool = False) -> LogMutant:
    """A member of one line (the header half the time; an event or, unless re-chained, the end line
    otherwise) changed at any depth: a hostile value, another type, a member added, a key repeated,
    whitespace, a number written otherwise."""
    lines = log_lines(data)
    last = len(lines) - (2 if rechain_it else 1)
    index = draw(st.one_of(st.just(0), st.integers(min_value=1, max_value=last)))
    paths = member_paths(lines[index])
    if rechain_it:
        paths = [path for path in paths if path != ("prev",)]
    path = draw(st.sampled_from(paths))
    change = draw(st.sampled_from(MEMBER_CHANGES))
    hostile = draw(st.sampled_from(HOSTILE_JSON)) if change == "replaced" else ""
    lines = list(lines)
    lines[index], said = mutate_member(lines[index], path, change, hostile)
    mutated = _rechained(lines) if rechain_it else join_lines(lines)
    return LogMutant(mutated, f"line {index + 1} {shown_path(path)}", said, rechained=rechain_it)


@st.composite
def rechained_line_mutants(draw: st.DrawFn, data: bytes) -> LogMutant:
    """An event line deleted, duplicated or swapped with another, or the events after one dropped, and then
    every hash and the end line recomputed."""
    lines = log_lines(data)[:-1]
    how = draw(st.sampled_from(["deleted", "duplicated", "swapped", "dropped after"]))
    index = draw(st.integers(min_value=1, max_value=len(lines) - 1))
    if how == "dropped after":
        moved = LogMutant(
            join_lines(lines[: index + 1]), f"line {index + 2}", "it and every event after dropped"
        )
    else:
        moved = _moved(lines, how, index, draw, low=1)
    return LogMutant(_rechained(log_lines(moved.data)), moved.where, moved.change, rechained=True)


def _rechained(lines: list[bytes]) -> bytes:
    """The lines re-hashed as a forger would (tests.strategies.rechain), as the header's format chains; a
    mutant it cannot re-hash (the ``prev`` member buried in hostile text) is not a forgery worth drawing.

    A header whose format json cannot tell (hostile, or not an object), which ``rechain`` cannot read, is
    refused by a reader whatever follows it, so its lines are chained as affray writes them today (format
    2)."""
    try:
        if _format_version(lines[0]) is None:
            return rechain(lines, format_version=2)
        return rechain(lines)
    except ValueError:
        assume(False)
        raise


def _format_version(header: bytes) -> int | None:
    """The ``format_version`` a header line names (today's, 2, when none, as a reader takes it), or None
    when json cannot tell."""
    try:
        decoded = json.loads(header)
    except (ValueError, RecursionError):
        return None
    version = decoded.get("format_version", 2) if isinstance(decoded, dict) else None
    return version if type(version) is int else None


# -- what must hold --------------------------------------------------------------------------------------


def resimulated(data: bytes) -> bytes:
    """The log that the header of ``data`` re-simulates to, with the decisions its combatants played
    from outside affray recorded in it, encoded as affray writes it (b"" when the header cannot be read
    or simulated): what a log verify passes must be, byte for byte."""
    try:
        log = read(data)
        battle = rulesets.recorded(log.header, "<mutant>").battle()
        recorded = iter(log.events)
        following: list[Event | None] = [next(recorded, None)]

        def advance(_: Event) -> None:
            following[0] = next(recorded, None)

        battle.replay_decisions(lambda: following[0])
        events = battle.run(sinks=[advance]).log
    except AffrayError:
        return b""
    return encode_log(log.header, events)


def _members(line: bytes) -> bytes:
    """An event line as a JSON object without its ``prev``, which format 1 puts on every line and format 2
    only on a block's first (so a log and its copy in another format compare line by line)."""
    cut = line.rfind(b',"prev":"')
    return line if cut < 0 else line[:cut] + b"}"


def header_alone_changed(original: bytes, mutated: bytes) -> bool:
    """Whether ``mutated`` differs from ``original`` in its header line only, and in the others' ``prev``."""
    ours, theirs = log_lines(original), mutated.split(b"\n")[:-1] if mutated.endswith(b"\n") else []
    if len(ours) != len(theirs):
        return False
    return all(_members(a) == _members(b) for a, b in zip(ours[1:], theirs[1:], strict=True))


DECISIONS = (b'{"kind":"intent_chosen"', b'{"kind":"step_chosen"')
"""How the lines of a decision from outside affray begin: Energion's intents and fivestep's steps."""


def decided_otherwise(original: bytes, mutated: bytes) -> bool:
    """Whether the first event line ``mutated`` changes is a decision from outside affray
    (``intent_chosen``, ``step_chosen``): an input of the fight, as a scenario is, which verify takes as
    recorded; such a log passes when it is exactly what affray makes of its header and its decisions."""
    ours, theirs = log_lines(original), mutated.split(b"\n")
    for a, b in zip(ours[1:], theirs[1:], strict=False):
        if _members(a) != _members(b):
            return b.startswith(DECISIONS)
    return False


_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw])
_ENCODER = msgspec.json.Encoder(decimal_format="number", order="deterministic")


def _defaults(kind: type[msgspec.Struct]) -> dict[str, bytes]:
    """Each field of ``kind`` that has a default, with the default as JSON, by the name it is written as."""
    found: dict[str, bytes] = {}
    for field in msgspec.structs.fields(kind):
        if field.default is msgspec.UNSET:
            continue  # an unset field is never written, so there is no default to leave out
        if field.default is not msgspec.NODEFAULT:
            found[field.encode_name] = _ENCODER.encode(field.default)
        elif field.default_factory is not msgspec.NODEFAULT:
            found[field.encode_name] = _ENCODER.encode(field.default_factory())
    return found


def only_defaults_left_out(original: bytes, mutated: bytes) -> bool:
    """Whether ``mutated`` is ``original`` with nothing changed but members of event lines left out whose
    values were their fields' defaults (and the ``prev`` members re-hashed after them).

    verify forgives that, since docs/log-format.md lets "a member whose field came into the format later"
    be missing from a line written before it; but it forgives it of any defaulted field, ``"parry":null``
    of an ``attack_resolved`` too, so a forger may drop such members and still pass. A known weakness
    (telling the later fields from the first ones needs each kind to record when its fields came), let
    through here only when this independent check finds the log to be exactly that.
    """
    ours, theirs = log_lines(original), log_lines(mutated) if mutated.endswith(b"\n") else []
    if len(ours) != len(theirs) or ours[0] != theirs[0]:
        return False
    events = read(original).events
    for event, a, b in zip(events, ours[1:-1], theirs[1:-1], strict=True):
        written, kept = (_MEMBERS.decode(_members(line)) for line in (a, b))
        defaults = _defaults(type(event))
        if [name for name in written if name in kept] != list(kept):
            return False
        for name, raw in written.items():
            same = name in kept and bytes(kept[name]) == bytes(raw)
            if not same and (name in kept or defaults.get(name) != bytes(raw)):
                return False
    return True


def damage_shows(original: bytes, mutated: bytes) -> bool:
    """Whether a reader must notice how ``mutated`` differs from ``original`` even with no canonical check:
    a line other than the end line changed, lines were added or lost, or the end line holds other values
    (an end line merely reformatted is forgiven in reading, as an event line is)."""
    if mutated == original:
        return False
    ours, theirs = original.split(b"\n"), mutated.split(b"\n")
    if len(ours) != len(theirs) or ours[:-2] != theirs[:-2] or theirs[-1] != b"":
        return True
    try:
        return msgspec.json.decode(theirs[-2], type=LogEnd) != msgspec.json.decode(ours[-2], type=LogEnd)
    except msgspec.DecodeError:
        return True


def told_breach(command: str, outcome: Outcome, damaged: bool) -> str:
    """How replay's or state's outcome breaks its promise ("" if it keeps it): the contract with exit 0 or
    2, at most one warning, and a warning or a refusal for a log whose chain shows damage."""
    problem = breach(outcome, (0, 2))
    if problem or outcome.status != 0:
        return problem
    if len(outcome.err_lines) > 1 or any(not line.startswith("warning: ") for line in outcome.err_lines):
        return f"{command} exit 0 with more than one warning, or a line other than a warning"
    if damaged and not outcome.err_lines:
        return f"{command} told a log with damage in its chain without a warning"
    return ""


def attack(folder: Path, name: str, original: bytes, mutant: LogMutant) -> None:
    """Write ``mutant`` into a new folder under ``folder``, run replay, state and verify on it and fail
    with a report on the first broken promise (the folder is removed when all hold)."""
    directory = Path(tempfile.mkdtemp(dir=folder))
    path = directory / f"{name}.jsonl"
    path.write_bytes(mutant.data)
    chained = " (re-chained)" if mutant.rechained else ""
    described = Mutant(f"the log of examples/{name}.toml", mutant.where, mutant.change + chained, path)
    changed = mutant.data != original
    for command in ("replay", "state"):
        outcome = affray(command, path)
        problem = told_breach(
            command, outcome, damaged=not mutant.rechained and damage_shows(original, mutant.data)
        )
        assert not problem, report(described, outcome, problem)
    verified = affray("verify", path)
    problem = verify_breach(verified)
    assert not problem, report(described, verified, problem)
    if changed and verified.status == 0:
        forgiven = (
            (header_alone_changed(original, mutant.data) or decided_otherwise(original, mutant.data))
            and resimulated(mutant.data) == mutant.data
        ) or (mutant.rechained and only_defaults_left_out(original, mutant.data))
        assert forgiven, report(described, verified, "verify passed a log whose bytes are not affray's")
    shutil.rmtree(directory)


MutantsOf = Callable[[bytes], st.SearchStrategy[LogMutant]]


def _attack_drawn(
    tmp_path: Path, logs: dict[str, bytes], name: str, data: st.DataObject, drawn: MutantsOf
) -> None:
    original = logs[name]
    attack(tmp_path, name, original, data.draw(drawn(original), label="mutant"))


@pytest.mark.parametrize("name", NAMES)
@FUZZ_SETTINGS
@given(data=st.data())
def test_a_log_with_a_byte_replaced_inserted_or_deleted_is_caught(
    name: str, tmp_path: Path, example_logs: ExampleLogs, data: st.DataObject
) -> None:
    _attack_drawn(tmp_path, example_logs, name, data, byte_mutants)


@pytest.mark.parametrize("name", NAMES)
@FUZZ_SETTINGS
@given(data=st.data())
def test_a_log_with_a_line_deleted_duplicated_swapped_or_cut_is_caught(
    name: str, tmp_path: Path, example_logs: ExampleLogs, data: st.DataObject
) -> None:
    _attack_drawn(tmp_path, example_logs, name, data, line_mutants)


@pytest.mark.parametrize("name", NAMES)
@FUZZ_SETTINGS
@given(data=st.data())
def test_a_log_with_a_member_changed_is_caught(
    name: str, tmp_path: Path, example_logs: ExampleLogs, data: st.DataObject
) -> None:
    _attack_drawn(tmp_path, example_logs, name, data, member_mutants)


@pytest.mark.parametrize("name", NAMES)
@FUZZ_SETTINGS
@given(data=st.data())
def test_a_rechained_log_with_lines_moved_fails_verify(
    name: str, tmp_path: Path, example_logs: ExampleLogs, data: st.DataObject
) -> None:
    _attack_drawn(tmp_path, example_logs, name, data, rechained_line_mutants)


@pytest.mark.parametrize("name", NAMES)
@FUZZ_SETTINGS
@given(data=st.data())
def test_a_rechained_log_with_a_member_changed_fails_verify_unless_it_resimulates(
    name: str, tmp_path: Path, example_logs: ExampleLogs, data: st.DataObject
) -> None:
    _attack_drawn(tmp_path, example_logs, name, data, lambda log: member_mutants(log, rechain_it=True))


# -- a players' copy ---------------------------------------------------------------------------------------

COPY = "wolves-players"
"""The players' copy of the log of examples/wolves.toml (affray redact)."""


@pytest.fixture(scope="session")
def copy_logs(example_logs: ExampleLogs, tmp_path_factory: pytest.TempPathFactory) -> ExampleLogs:
    """The players' copy of the wolves' log, by the name ``COPY``."""
    folder = tmp_path_factory.mktemp("fuzz-copy")
    referee, copy = folder / "wolves.jsonl", folder / f"{COPY}.jsonl"
    referee.write_bytes(example_logs["wolves"])
    made = affray("redact", referee, "-o", copy)
    assert_contract(Mutant("the wolves' log", "$", "redacted"), made, (0,))
    return ExampleLogs({COPY: copy.read_bytes()})


@FUZZ_SETTINGS
@given(data=st.data(), mutants=st.sampled_from([byte_mutants, line_mutants, member_mutants]))
def test_a_players_copy_damaged_is_caught(
    tmp_path: Path, copy_logs: ExampleLogs, data: st.DataObject, mutants: MutantsOf
) -> None:
    """A copy with a byte, a line or a member changed (a stand-in put anywhere, one taken out) is read up
    to the damage and fails verify, as any log does."""
    _attack_drawn(tmp_path, copy_logs, COPY, data, mutants)


@FUZZ_SETTINGS
@given(data=st.data(), rechained=st.booleans())
def test_a_players_copy_forged_is_read_or_refused_in_one_line(
    tmp_path: Path, copy_logs: ExampleLogs, data: st.DataObject, rechained: bool
) -> None:
    """A re-chained copy with a member changed or a line moved: every command tells it, shows it or
    refuses it in one line (verify of a copy cannot catch a re-chained change in the clear: it does not
    re-simulate; the reveal does, tests/cli/test_redact.py)."""
    original = copy_logs[COPY]
    drawn = rechained_line_mutants(original) if rechained else member_mutants(original, rechain_it=True)
    mutant = data.draw(drawn, label="mutant")
    path = tmp_path / f"{COPY}.jsonl"
    path.write_bytes(mutant.data)
    described = Mutant("the players' copy of the wolves' log", mutant.where, mutant.change, path)
    for command in ("replay", "state", "verify"):
        outcome = affray(command, path)
        problem = breach(outcome)
        assert not problem, report(described, outcome, problem)
