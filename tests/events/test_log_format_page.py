"""A reader written from docs/log-format.md and docs/log-kinds.md alone, as one in another language would be:
it imports nothing of affray's, checks the chain, the lines in the page's order and each line's canonical
form by the page's rules, and must name the same line and seq as ``affray verify`` for every tampering the
fuzz suite makes (bytes, lines, members; re-chained or not), and find nothing in a log verify passes."""

from __future__ import annotations

import hashlib
import json
import re
from contextvars import ContextVar, copy_context
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.harness import EXAMPLES, affray
from tests.fuzz.test_logs import (
    FUZZ_SETTINGS,
    ExampleLogs,
    byte_mutants,
    line_mutants,
    member_mutants,
    rechained_line_mutants,
)
from tests.strategies import log_lines, rechain

ROOT = Path(__file__).resolve().parents[2]
KINDS_PAGE = ROOT / "docs" / "log-kinds.md"
LIMIT = 4 * 1024 * 1024

Member = tuple[str, str, str]
"""A member as the page lists it: its name, its type in words, its default (``required``...)."""


@dataclass(frozen=True)
class Shape:
    """A kind or structure as the page lists it: its members in order, whether it leaves out those at their
    default, and its tag member (``do``) when it has one."""

    members: tuple[Member, ...]
    leaves_out_defaults: bool
    tag: str | None = None
    version: int = 0


def _shape(body: str) -> Shape:
    """A kind or structure from its section: its table's rows, the sentence before the table."""
    rows = [line for line in body.splitlines() if line.startswith("| `")]
    cells = [[cell.strip() for cell in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows]
    said = body.strip().split("\n\n")[0]
    tag = re.search(r"Tagged `(\w+)`", said)
    version = re.match(r"Version (\d+);", said)
    return Shape(
        members=tuple((c[0].strip("`"), c[1].replace("\\|", "|"), c[2]) for c in cells),
        leaves_out_defaults="left out at its default" in said.lower(),
        tag=tag[1] if tag else None,
        version=int(version[1]) if version else 0,
    )


@cache
@cache
def modules_named() -> frozenset[str]:
    """The parts the kinds page calls modules (the others are the shared kinds and the rulesets')."""
    return frozenset(re.findall(r"^The kinds of the module `([^`]+)`", KINDS_PAGE.read_text(), flags=re.M))


def page() -> tuple[dict[str, dict[str, Shape]], dict[str, Shape]]:
    """The kinds page read: each part's kinds by name, and the structures (the header and end line among
    them) by name."""
    parts: dict[str, dict[str, Shape]] = {}
    structures: dict[str, Shape] = {}
    for chapter in re.split(r"^## ", KINDS_PAGE.read_text(), flags=re.M)[1:]:
        heading, _, text = chapter.partition("\n")
        part = re.fullmatch(r"Part `([^`]+)`", heading)
        for section in re.split(r"^### ", text, flags=re.M)[1:]:
            title, _, body = section.partition("\n")
            if part:
                parts.setdefault(part[1], {})[title.strip("`")] = _shape(body)
            else:
                structures[title] = _shape(body)
    return parts, structures


# -- the canonical form, by the page's rules -------------------------------------------------------------


def string(text: str) -> str:
    """A string as the page writes it: ``"`` and ``\\`` escaped, the five named controls, other controls as
    ``\\u00xx``, everything else as itself."""
    named = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
    return '"' + "".join(named.get(c) or (f"\\u{ord(c):04x}" if ord(c) < 0x20 else c) for c in text) + '"'


def float_text(value: float) -> str:
    """A float as the page writes it: shortest digits, plain from 1e-5 to 1e16, else exponent form."""
    if value == 0 or 1e-5 <= abs(value) < 1e16:
        plain = format(Decimal(repr(value)), "f")
        return plain if "." in plain else f"{plain}.0"
    mantissa, _, exponent = repr(value).partition("e")
    return f"{mantissa.removesuffix('.0')}e{int(exponent)}"


class Number(str):
    """A number token as the line wrote it."""


class Pairs(list[tuple[str, Any]]):
    """An object's members in order, a repeated key kept twice."""


COPY: ContextVar[bool] = ContextVar("copy", default=False)
"""Whether the log being read is a players' copy ("Sealed rolls"), whose members may be sealed."""


def stand_in(value: Any) -> bool:
    """Whether a value is a players' copy's stand-in, ``{"sealed":"<64 hex digits>"}``, in a copy."""
    return (
        COPY.get()
        and isinstance(value, Pairs)
        and len(value) == 1
        and value[0][0] == "sealed"
        and type(value[0][1]) is str
        and re.fullmatch(r"[0-9a-f]{64}", value[0][1]) is not None
    )


def value_text(value: Any, kind: str) -> str:
    """A value as the page writes a member of type ``kind`` (words, as the page says them)."""
    if stand_in(value):
        return as_raw(value)
    if isinstance(value, Number):
        if "decimal" in kind:
            # a plain integer reads as that integer (-0 as 0), of any length
            number = Decimal(value)
            return "0" if number.is_zero() and re.fullmatch(r"-?\d+", value) else str(number)
        if "float" in kind:
            return float_text(float(value))
        return str(int(value)) if re.fullmatch(r"-?\d+", value) else value
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, Pairs):
        return object_text(value, kind)
    item = kind.removeprefix("array of ")
    return "[" + ",".join(value_text(v, item) for v in value) + "]"


def object_text(pairs: Pairs, kind: str) -> str:
    """An object: a structure the type names (by its tag when it names several), or a map, keys sorted."""
    structures = page()[1]
    named = re.findall(r"\*(\w+)\*(?: \(`\w+`: `(\w+)`\))?", kind)
    if not named:
        item = kind.split(" to ", 1)[-1].removesuffix(", keys sorted")
        return (
            "{" + ",".join(f"{string(k)}:{value_text(v, item)}" for k, v in sorted(dict(pairs).items())) + "}"
        )
    held = dict(pairs)
    chosen = next((name for name, tag in named if tag and held.get("do") == tag), named[0][0])
    return shape_text([(k, as_raw(v)) for k, v in pairs], structures[chosen], nested=True)


class Raw(str):
    """A member's value as a line writes it."""


def as_raw(value: Any) -> Raw:
    """A parsed value back as (compact) text, for a structure nested in a member."""
    if isinstance(value, Number):
        return Raw(value)
    if isinstance(value, Pairs):
        return Raw("{" + ",".join(f"{string(k)}:{as_raw(v)}" for k, v in value) + "}")
    if isinstance(value, list):
        return Raw("[" + ",".join(as_raw(v) for v in value) + "]")
    return Raw(json.dumps(value, ensure_ascii=False))


def parsed(raw: str) -> Any:
    """A value read from its text: objects as lists of pairs (order and repeated keys kept), numbers as
    written."""
    value = json.loads(raw, object_pairs_hook=Pairs, parse_float=Number, parse_int=Number)
    json.dumps(value, ensure_ascii=False).encode()  # UnicodeEncodeError: an escape of a lone surrogate
    return value


def fits(value: Any, kind: str) -> bool:
    """Whether a value is of a member's type, as the page says it (``integer or null``, ``array of
    decimal``, a structure, a literal); in a players' copy, a stand-in is of any type."""
    return stand_in(value) or any(_fits_one(value, alternative) for alternative in kind.split(" or "))


def _fits_one(value: Any, kind: str) -> bool:
    if kind.startswith("array of "):
        items = kind.removeprefix("array of ").split(", ")
        if len(items) > 1:  # an array of so many members, each of its type
            return type(value) is list and len(value) == len(items) and all(map(fits, value, items))
        return type(value) is list and all(fits(v, items[0]) for v in value)
    if kind.startswith("object of "):
        item = kind.split(" to ", 1)[1].removesuffix(", keys sorted")
        return isinstance(value, Pairs) and all(fits(v, item) for _, v in value)
    if kind.startswith("*"):
        return isinstance(value, Pairs)
    if kind.startswith("`"):
        literal = json.loads(kind.strip("`"))
        return value == str(literal) if isinstance(value, Number) else type(value) is str and value == literal
    plain = {
        "integer": isinstance(value, Number) and re.fullmatch(r"-?\d+", value) is not None,
        "decimal": isinstance(value, Number),
        "float": isinstance(value, Number),
        "string": type(value) is str,
        "boolean": isinstance(value, bool),
        "null": value is None,
    }
    return plain.get(kind.split(" (")[0], True)


def shape_text(
    pairs: list[tuple[str, Raw]], shape: Shape, first: str = "", last: str = "", *, nested: bool = False
) -> str:
    """What the page writes for a kind or structure holding ``pairs`` (as written): its members in order,
    those it leaves out at their default left out, any other member (a repeated or unknown one) not
    written, a value "kept as written" as it is."""
    held = dict(pairs)
    out = [first] if first else []
    if shape.tag:
        out.append(f'"{shape.tag}":{string(parsed(held.get(shape.tag, Raw(chr(34) * 2))))}')
    for name, kind, default in shape.members:
        if name not in held and (default == "required" or (nested and not shape.leaves_out_defaults)):
            raise ValueError(
                f"{name} is missing"
            )  # only a line's own members may be missing at their default
        if name not in held:
            continue
        if "kept as written" in kind:
            out.append(f"{string(name)}:{held[name]}")
            continue
        value = parsed(held[name])
        if not fits(value, kind):
            raise ValueError(f"{name} is not {kind}")
        text = value_text(value, kind)
        if shape.leaves_out_defaults and default == f"`{text}`" and kind != "decimal":
            continue  # a decimal at its default may be written or not
        out.append(f"{string(name)}:{text}")
    return "{" + ",".join(out) + last + "}"


_DECODER = json.JSONDecoder(parse_int=Number, parse_float=Number)


def members(line: bytes) -> list[tuple[str, Raw]]:
    """A line's members in order, each value as written (a repeated key kept twice); ValueError for a line
    that is no compact JSON object (whitespace between its tokens, or after it)."""
    text = line.decode() + "\0"  # a sentinel: no index runs past the text
    found: list[tuple[str, Raw]] = []
    at = 1 if text.startswith("{") else -1
    while 0 < at < len(text) - 1 and text[at] != "}":
        key, at = _DECODER.raw_decode(text, at)
        if text[at] != ":":
            raise ValueError("no colon")
        _, end = _DECODER.raw_decode(text, at + 1)
        found.append((key, Raw(text[at + 1 : end])))
        at = end + (text[end] == ",")
    if at != len(text) - 2 or text[at] != "}" or (found and text[at - 1] == ","):
        raise ValueError("not a compact object")
    return found


# -- the checks, in the page's order -------------------------------------------------------------------


def chain_hash(line: bytes) -> str:
    return hashlib.blake2b(line, digest_size=16).hexdigest()


class Found(Exception):
    """The first problem: the line and the seq the page says to name."""

    def __init__(self, line: int, seq: int) -> None:
        super().__init__(line, seq)
        self.where = (line, seq)


def vocabulary(header: list[tuple[str, Raw]]) -> dict[str, Shape]:
    """The kinds a log may hold: the shared part's, its ruleset's and its modules' (with their adapters)."""
    held = dict(header)
    ruleset = parsed(held["ruleset"])
    modules = dict(parsed(held["scenario"])).get("modules", [])
    names = ["shared", ruleset, *modules, *(f"{ruleset}+{m}" for m in modules)]
    parts = page()[0]
    return {kind: shape for name in names for kind, shape in parts.get(name, {}).items()}


def check_event(line: bytes, seq: int, kinds: dict[str, Shape], prev: str, t: int) -> int:
    """Steps 2.3 to 2.7 for the line expected to hold ``seq``; its ``t``."""
    where = Found(seq + 1, seq)
    try:
        pairs = members(line)
        held = {name: parsed(raw) for name, raw in pairs if name in ("kind", "seq", "t", "prev")}
        shape = kinds[held["kind"]]
        written, at = int(held.get("seq", 0)), int(held.get("t", 0))
        body = [(k, v) for k, v in pairs if k not in ("kind", "prev")]
        first, last = f'"kind":{string(held["kind"])}', f',"prev":"{prev}"'
        canonical = shape_text(body, shape, first=first, last=last).encode()  # a lone surrogate is no UTF-8
    except (ValueError, TypeError, KeyError, RecursionError):
        raise where from None  # 2.3: no event of the vocabulary, or a member not of its type
    if written != seq:
        raise where
    if not line.endswith(b',"prev":"%s"}' % prev.encode()):
        raise where if held.get("prev") == prev else Found(seq, seq - 1) if seq > 1 else Found(1, 0)
    if line != canonical or at < t:
        raise where
    return at


SIGNATURE = re.compile(
    rb'\{"signer":"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}","algorithm":"ed25519",'
    rb'"key":"[A-Za-z0-9+/]{43}=","signature":"[A-Za-z0-9+/]{86}=="\}'
)
"""A signature line as "Signatures" lays it out (the page's bound, 1,024 bytes, is far above its length)."""


def check_signatures(rest: list[bytes], seq: int) -> None:
    """Step 3's last part: after the end line (seq ``seq``), only whole signature lines."""
    *whole, last = rest
    for number, line in enumerate(whole, start=seq + 2):
        if SIGNATURE.fullmatch(line) is None:
            raise Found(number, seq)
    if last:
        raise Found(seq + 2 + len(whole), seq)  # a partial line


def check_end(line: bytes, events: int, prev: str, rest: list[bytes]) -> None:
    """Step 3 for the end line after ``events`` events."""
    seq = events + 1
    try:
        pairs = members(line)
        held = {name: parsed(raw) for name, raw in pairs}
        count, recorded = int(held["end"]), held["prev"]
        canonical = shape_text(pairs, page()[1]["The end line"]).encode()
    except (ValueError, TypeError, KeyError, RecursionError):
        raise Found(seq + 1, seq) from None
    if count != events:
        raise Found(seq + 1, seq)
    if recorded != prev:
        raise Found(seq, seq - 1) if events else Found(1, 0)
    if line != canonical:
        raise Found(seq + 1, seq)
    check_signatures(rest, seq)


UPCAST = {"perceived": 1, "reacted": 1}
"""The kinds log-format.md's table of versions has an upcaster for, from the version given."""


def readable(kind: str, shape: Shape | None, version: int) -> bool:
    """Whether a kind recorded at ``version`` can be read: today's, or one the page's upcasters bring up
    (a kind outside the vocabulary is ignored)."""
    if shape is None:
        return True
    return 1 <= version <= shape.version and (version == shape.version or version >= UPCAST.get(kind, 99))


def first_problem(data: bytes) -> tuple[int, int] | None:
    """The line and seq of a log's first problem by the page's rules; None when there is none."""
    return copy_context().run(_first_problem, data)


def _first_problem(data: bytes) -> tuple[int, int] | None:
    lines = data.split(b"\n")
    header, shape = members(lines[0]), page()[1]["The header (line 1)"]
    names = {name for name, _ in header}
    every = all(name in names for name, _, default in shape.members if "unset" not in default)
    if not every or lines[0] != shape_text(header, shape).encode():
        return (1, 0)
    held = {name: parsed(raw) for name, raw in header}
    if held["ruleset"] not in set(page()[0]) - {"shared", *modules_named()} or held["format_version"] != "1":
        return (1, 0)  # step 1: a ruleset or a format version the reader does not have
    modules = dict(held["scenario"]).get("modules", [])
    if type(modules) is not list or not all(
        type(name) is str and name in modules_named() for name in modules
    ):
        return (1, 0)  # step 2: the scenario's modules are an array of the modules the page names
    if "sealed" in held:  # a players' copy: its seeds are sealed, each by its own commitment
        COPY.set(True)
        if not (stand_in(held["seed"]) and stand_in(dict(held["scenario"]).get("seed"))):
            return (1, 0)
    elif held["seed"] != dict(held["scenario"]).get("seed"):
        return (1, 0)  # step 1: the header's seed is always its scenario's
    kinds, prev, t = vocabulary(header), chain_hash(lines[0]), 0
    if not all(readable(kind, kinds.get(kind), int(version)) for kind, version in held["event_versions"]):
        return (1, 0)  # step 1: a version of a kind the reader cannot read
    try:
        for index, line in enumerate(lines[1:], start=1):
            last = index == len(lines) - 1
            if last or len(line) > LIMIT:
                raise Found(index + 1, index)  # a partial line, or no end line after a whole one
            if line.startswith(b'{"end":'):
                check_end(line, index - 1, prev, lines[index + 1 :])
                return None
            t = check_event(line, index, kinds, prev, t)
            prev = chain_hash(line)
    except Found as found:
        return found.where
    return None


# -- held against affray verify -------------------------------------------------------------------------

VERIFIED = re.compile(r"^FAILED: .*?: line (\d+) \((?:seq (\d+)|header)\)", re.M)


def verify_names(folder: Path, data: bytes) -> tuple[int, int] | str | None:
    """What ``affray verify`` names: the line and seq of a FAILED finding, None for ok, CHANGED or a
    finding of the fold or the re-simulation (a reader of this page alone folds and re-simulates nothing),
    or its whole output for anything else (an error: a log it cannot read at all)."""
    log = folder / "mutant.jsonl"
    log.write_bytes(data)
    outcome = affray("verify", log)
    found = VERIFIED.search(outcome.out)
    # what a fight's rules decide (a fold, a re-simulation) is beyond a reader of this page alone
    resimulated = (
        "re-simulation failed",
        "disagrees with the re-simulation",
        "differs from the",
        "cannot be folded",
    )
    if found and not any(said in outcome.out for said in resimulated):
        return int(found[1]), int(found[2] or 0)
    return None if outcome.status in (0, 3) else f"{outcome.status}: {outcome.out}{outcome.err}"


def agree(folder: Path, data: bytes) -> None:
    """The page's reader and verify name the same line and seq (or both nothing)."""
    verified = verify_names(folder, data)
    if isinstance(verified, str):
        return  # no log at all (its header unreadable): an error line, which the page's reader need not match
    try:
        by_page = first_problem(data)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        by_page = (1, 0)
    assert by_page == verified, f"the page names {by_page}, verify {verified}"


@pytest.fixture(scope="module")
def example_logs(tmp_path_factory: pytest.TempPathFactory) -> ExampleLogs:
    """Four examples' logs as ``affray run`` writes them: both rulesets, the special_damage module and
    decisions of a controller from outside affray among them."""
    folder = tmp_path_factory.mktemp("page-logs")
    logs = ExampleLogs()
    for name in ("duel", "bar-brawl", "robots", "ambush"):
        out = folder / f"{name}.jsonl"
        assert affray("run", EXAMPLES / f"{name}.toml", "-o", out).status == 0
        logs[name] = out.read_bytes()
    return logs


def test_the_page_finds_nothing_in_a_log_verify_passes(example_logs: ExampleLogs) -> None:
    for name, data in example_logs.items():
        assert first_problem(data) is None, name


@pytest.mark.parametrize(
    ("written", "forged"),
    [
        *(
            (b'"modules":[]', b'"modules":' + value)
            for value in (b'""', b"{}", b"0", b"[[]]", b'["energion"]')
        ),
        (b'"modules":[]', b'"modules":["special_damagf"]'),
        (b'"ruleset":"energion"', b'"ruleset":"special_damage"'),
    ],
)
def test_the_page_refuses_a_header_naming_no_ruleset_or_modules_it_has_as_verify_does(
    example_logs: ExampleLogs, tmp_path: Path, written: bytes, forged: bytes
) -> None:
    """The duel's header re-chained with its scenario's modules no array of module names, or a module
    named as its ruleset (the header's own, the first): the page's step 2 refuses it at line 1, as verify
    does."""
    lines = log_lines(example_logs["duel"])
    assert written in lines[0]
    lines[0] = lines[0].replace(written, forged, 1)
    forgery = rechain(lines)
    assert first_problem(forgery) == (1, 0)
    agree(tmp_path, forgery)


@pytest.mark.parametrize(
    "mutants",
    [byte_mutants, line_mutants, rechained_line_mutants, member_mutants],
    ids=["bytes", "lines", "lines-rechained", "members"],
)
@FUZZ_SETTINGS
@given(data=st.data(), name=st.sampled_from(["duel", "bar-brawl", "robots", "ambush"]))
def test_the_page_names_the_line_and_seq_verify_names(
    example_logs: ExampleLogs,
    tmp_path_factory: pytest.TempPathFactory,
    data: st.DataObject,
    name: str,
    mutants: Any,
) -> None:
    mutant = data.draw(mutants(example_logs[name]))
    agree(tmp_path_factory.mktemp("page"), mutant.data)


@FUZZ_SETTINGS
@given(data=st.data(), name=st.sampled_from(["duel", "bar-brawl"]))
def test_the_page_names_a_rechained_member_change_where_verify_does(
    example_logs: ExampleLogs, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, name: str
) -> None:
    mutant = data.draw(member_mutants(example_logs[name], rechain_it=True))
    agree(tmp_path_factory.mktemp("page"), mutant.data)


def test_the_page_reads_a_signed_log(example_logs: ExampleLogs, tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    log.write_bytes(example_logs["duel"])
    assert affray("keygen", "alice", "-o", tmp_path).status == 0
    assert affray("sign", log, "--key", tmp_path / "alice.key").status == 0
    assert first_problem(log.read_bytes()) is None


def test_the_page_names_a_line_after_the_signatures_where_verify_does(
    example_logs: ExampleLogs, tmp_path: Path
) -> None:
    log = tmp_path / "duel.jsonl"
    log.write_bytes(example_logs["duel"])
    assert affray("keygen", "alice", "-o", tmp_path).status == 0
    assert affray("sign", log, "--key", tmp_path / "alice.key").status == 0
    agree(tmp_path, log.read_bytes() + b"{}\n")


PLAYERS_COPY = ROOT / "tests" / "corpus" / "format-1-sealed" / "wolves-players.jsonl"
"""A players' copy ("Sealed rolls"), as affray redact wrote it."""


def test_the_page_reads_a_players_copy() -> None:
    assert first_problem(PLAYERS_COPY.read_bytes()) is None


@pytest.mark.parametrize("mutants", [byte_mutants, line_mutants], ids=["bytes", "lines"])
@FUZZ_SETTINGS
@given(data=st.data())
def test_the_page_names_the_line_and_seq_verify_names_in_a_players_copy(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, mutants: Any
) -> None:
    mutant = data.draw(mutants(PLAYERS_COPY.read_bytes()))
    agree(tmp_path_factory.mktemp("page"), mutant.data)
