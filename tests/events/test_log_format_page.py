"""A reader written from docs/log-format.md and docs/log-kinds.md alone, as one in another language would be:
it imports nothing of affray's, checks the chain (format 1's line by line, format 2's block by block), the
lines in the page's order and each line's canonical form by the page's rules, and must name the same line
and seq as ``affray verify`` for every tampering the fuzz suite makes (bytes, lines, members; re-chained or
not), in logs of both formats, and find nothing in a log verify passes."""

from __future__ import annotations

import hashlib
import json
import re
from contextvars import ContextVar, copy_context
from dataclasses import dataclass
from decimal import Decimal
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, reject
from hypothesis import strategies as st

from affray import rulesets  # the harness's, for which ruleset version verify simulates: not the reader's
from affray.errors import AffrayError
from tests.fuzz.harness import EXAMPLES, affray
from tests.fuzz.test_logs import (
    FUZZ_SETTINGS,
    ExampleLogs,
    byte_mutants,
    line_mutants,
    member_mutants,
    rechained_line_mutants,
)
from tests.strategies import in_format, join_lines, log_lines, rechain

ROOT = Path(__file__).resolve().parents[2]
KINDS_PAGE = ROOT / "docs" / "log-kinds.md"
FORMAT_PAGE = ROOT / "docs" / "log-format.md"
LIMIT = 4 * 1024 * 1024
"""The most bytes a line may hold, its newline aside ("Reading, and the line-length limit")."""
BLOCK = 256
"""Event lines per block of a format 2 log's chain ("The hash chain")."""
BLOCK_LIMIT = 16 * 1024 * 1024
"""The most bytes a format 2 block may hold, its lines' newlines included ("The hash chain")."""
FORMATS = ("1", "2")
"""The format versions the page describes: 1 chains every line, 2 blocks of lines."""

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
SEALED_STREAMS: ContextVar[tuple[str, ...]] = ContextVar("sealed_streams", default=())
"""A players' copy's sealed streams, as its header's ``sealed`` lists them."""
REVEALERS: ContextVar[tuple[tuple[str, str, str], ...]] = ContextVar("revealers", default=())
"""A players' copy's members withheld beside the rolls (:func:`revealers`)."""
HELD_TO_FORM: ContextVar[bool] = ContextVar("held_to_form", default=True)
"""Whether each line is held to its canonical form: not for a log made under another version of its
ruleset than the one ``affray verify`` simulates (which the page cannot know: the caller says)."""


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


def structure_of(kind: str, value: Any) -> str | None:
    """The structure a type names for an object (by its tag when it names several); None for a map."""
    named: list[tuple[str, str]] = re.findall(r"\*(\w+)\*(?: \(`\w+`: `(\w+)`\))?", kind)
    if not named:
        return None
    held = dict(value)
    return next((name for name, tag in named if tag and held.get("do") == tag), named[0][0])


def map_item(kind: str) -> str:
    """The type of a map's values (``object of string to X, keys sorted``)."""
    return kind.split(" to ", 1)[-1].removesuffix(", keys sorted")


def object_text(pairs: Pairs, kind: str) -> str:
    """An object: a structure the type names (by its tag when it names several), or a map, keys sorted."""
    chosen = structure_of(kind, pairs)
    if chosen is None:
        item = map_item(kind)
        return (
            "{" + ",".join(f"{string(k)}:{value_text(v, item)}" for k, v in sorted(dict(pairs).items())) + "}"
        )
    return shape_text([(k, as_raw(v)) for k, v in pairs], page()[1][chosen], nested=True)


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
        item = map_item(kind)
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
        written_out = nested and not shape.leaves_out_defaults and HELD_TO_FORM.get()
        if name not in held and (default == "required" or written_out):
            # only a line's own members may be missing at their default, in the canonical form; a reader
            # takes any missing member as its default
            raise ValueError(f"{name} is missing")
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
    that is no JSON object, or (held to its canonical form) no compact one: whitespace between its tokens,
    or after it."""
    text = line.decode() + "\0"  # a sentinel: no index runs past the text
    blank = "" if HELD_TO_FORM.get() else " \t\r\n"

    def skip(at: int) -> int:
        while text[at] in blank:
            at += 1
        return at

    found: list[tuple[str, Raw]] = []
    at = skip(0)
    if text[at] != "{":
        raise ValueError("not an object")
    at = skip(at + 1)
    while text[at] != "}":
        key, at = _DECODER.raw_decode(text, at)
        at = skip(at)
        if type(key) is not str or text[at] != ":":
            raise ValueError("no member name and colon")
        start = skip(at + 1)
        _, end = _DECODER.raw_decode(text, start)
        found.append((key, Raw(text[start:end])))
        at = skip(end)
        if text[at] == "}":
            break
        if text[at] != ",":
            raise ValueError("no comma between members")
        at = skip(at + 1)
        if text[at] == "}":
            raise ValueError("a comma after the last member")
    if skip(at + 1) != len(text) - 1:
        raise ValueError("more after the object")
    return found


# -- a players' copy's stand-ins ("Sealed rolls") ----------------------------------------------------------


def revealers(parts: list[str], ruleset: str) -> tuple[tuple[str, str, str], ...]:
    """The members withheld beside the rolls for a log of these parts, as the page's table gives them: each
    kind and member with its roll (where the event holds it, or ``stream ...`` with ``ATTACKER``)."""
    text = FORMAT_PAGE.read_text()
    table = text[text.index("| ruleset or module | kind | member | its roll |") :].split("\n\n")[0]
    found: list[tuple[str, str, str]] = []
    for row in table.splitlines()[2:]:
        part, kind, member, roll, _ = (cell.strip() for cell in row.split("|")[1:-1])
        if part not in parts:
            continue
        if roll.startswith("stream "):
            streams = re.findall(r"`([^`]+)`(?: under (\w+))?", roll)
            roll = next("stream " + stream for stream, under in streams if under in ("", ruleset))
        found.append((kind.strip("`"), member.strip("`"), roll.strip("`")))
    return tuple(found)


def pointer(at: tuple[str | int, ...]) -> str:
    """A JSON pointer (RFC 6901) to a member, ``~1`` for ``/`` and ``~0`` for ``~`` in a name."""
    return "".join("/" + str(name).replace("~", "~0").replace("/", "~1") for name in at)


def stand_ins(value: Any, at: tuple[str | int, ...] = ()) -> set[str]:
    """The pointers of every stand-in a parsed line holds."""
    if stand_in(value):
        return {pointer(at)}
    items = value if isinstance(value, Pairs) else enumerate(value) if isinstance(value, list) else ()
    return {found for name, item in items for found in stand_ins(item, (*at, name))}


def rolls(value: Any, kind: str, at: tuple[str | int, ...] = ()) -> list[tuple[tuple[str | int, ...], Any]]:
    """Every *Roll* a value of type ``kind`` holds, at any depth, with where it is."""
    alternative = next((one for one in kind.split(" or ") if _fits_one(value, one)), "")
    if alternative.startswith("array of "):
        items = alternative.removeprefix("array of ").split(", ")
        kinds = items if len(items) > 1 else items * len(value)
        pairs = enumerate(zip(value, kinds, strict=True))
        return [found for i, (v, k) in pairs for found in rolls(v, k, (*at, i))]
    if alternative.startswith("object of "):
        item = map_item(alternative)
        return [found for name, v in value for found in rolls(v, item, (*at, name))]
    chosen = structure_of(alternative, value) if alternative.startswith("*") else None
    if chosen is None:
        return []
    if chosen == "Roll":
        return [(at, value)]
    held = dict(value)
    members = page()[1][chosen].members
    return [found for name, k, _ in members if name in held for found in rolls(held[name], k, (*at, name))]


def at_path(value: Any, path: str, index: int) -> tuple[tuple[str | int, ...], Any]:
    """Where a member the table names (``hit.roll``, ``margins[i].roll``) is in an event, and what it holds
    there (None when it or what leads to it is missing or null)."""
    at: tuple[str | int, ...] = ()
    for step in path.split("."):
        name, _, item = step.partition("[")
        at = (*at, name, index) if item else (*at, name)
        if isinstance(value, Pairs):
            value = dict(value).get(name)
        if item:
            value = value[index] if isinstance(value, list) and index < len(value) else None
    return at, value


def withheld(event: Pairs, kind: str, shape: Shape) -> set[str]:
    """The pointers a players' copy must hold stand-ins at in an event: each *Roll* of a sealed stream, its
    ``faces`` and ``total``; each member the table names whose roll is of a sealed stream (unless it or its
    roll is null)."""
    sealed = SEALED_STREAMS.get()

    def of_sealed(stream: str) -> bool:
        return any(fnmatchcase(stream, pattern) for pattern in sealed)

    def stream_of(roll: Any) -> str:
        fields = dict(roll) if isinstance(roll, Pairs) else {}
        return f"{fields.get('roller')}/{fields.get('purpose')}" if fields else ""

    held = dict(event)
    found = {
        pointer((*at, member))
        for name, k, _ in shape.members
        if name in held
        for at, roll in rolls(held[name], k, (name,))
        if of_sealed(stream_of(roll))
        for member in ("faces", "total")
    }
    for member, roll in ((m, r) for k, m, r in REVEALERS.get() if k == kind):
        array = held.get(member.split("[")[0]) if "[i]" in member else [None]
        for index in range(len(array) if isinstance(array, list) else 0):
            where, value = at_path(event, member, index)
            if roll.startswith("stream "):
                stream = roll.removeprefix("stream ").replace("ATTACKER", str(held.get("attacker")))
            else:
                stream = stream_of(at_path(event, roll, index)[1])
            if value is not None and of_sealed(stream):
                found.add(pointer(where))
    return found


# -- the checks, in the page's order -------------------------------------------------------------------


def chain_hash(data: bytes) -> str:
    """BLAKE2b with a 16-byte digest, in hex: of a line without its newline (format 1), or of a block's
    lines, each with its newline (format 2)."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


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


def changed(first: int) -> Found:
    """Step 2.5's naming of what a ``prev`` disowns: the block (format 1: the line) whose first line holds
    seq ``first``, ``line first+1 (seq first)``; the header, ``line 1 (header)``, when ``first`` is 0."""
    return Found(first + 1, first)


def check_event(line: bytes, seq: int, kinds: dict[str, Shape], prev: str | None, t: int, before: int) -> int:
    """Steps 2.3 to 2.7 for the line expected to hold ``seq``; its ``t``. ``prev`` is what it must end with
    (None: a format 2 line inside a block, which has none), ``before`` the first seq of the block (format
    1: the line) that ``prev`` hashes."""
    where = Found(seq + 1, seq)
    try:
        pairs = members(line)
        held = {name: parsed(raw) for name, raw in pairs if name in ("kind", "seq", "t", "prev")}
        shape = kinds[held["kind"]]
        written, at = int(held.get("seq", 0)), int(held.get("t", 0))
        body = [(k, v) for k, v in pairs if k not in ("kind", "prev")]
        first, last = f'"kind":{string(held["kind"])}', "" if prev is None else f',"prev":"{prev}"'
        canonical = shape_text(body, shape, first=first, last=last).encode()  # a lone surrogate is no UTF-8
        event = Pairs((name, parsed(raw)) for name, raw in body)
        if COPY.get() and stand_ins(event) != withheld(event, held["kind"], shape):
            raise ValueError("the stand-ins are not those the copy's sealed streams call for")
    except (ValueError, TypeError, KeyError, RecursionError):
        raise where from None  # 2.3: no event of the vocabulary, or a member not of its type
    if written != seq:
        raise where
    if prev is not None and not line.endswith(b',"prev":"%s"}' % prev.encode()):
        raise where if held.get("prev") == prev else changed(before)
    if (line != canonical and HELD_TO_FORM.get()) or at < t:
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


def check_end(line: bytes, events: int, prev: str, before: int, rest: list[bytes]) -> None:
    """Step 3 for the end line after ``events`` events; ``prev`` is the hash of the last block (format 1:
    line), whose first line holds seq ``before`` (0: the header)."""
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
        raise changed(before)
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


def first_problem(data: bytes, *, held_to_form: bool = True) -> tuple[int, int] | None:
    """The line and seq of a log's first problem by the page's rules (``held_to_form``: each line held to
    its canonical form too, as verify holds a log of the ruleset version it simulates); None when there is
    none."""

    def reading() -> tuple[int, int] | None:
        HELD_TO_FORM.set(held_to_form)
        return _first_problem(data)

    return copy_context().run(reading)


def _first_problem(data: bytes) -> tuple[int, int] | None:
    lines = data.split(b"\n")
    header, shape = members(lines[0]), page()[1]["The header (line 1)"]
    names = {name for name, _ in header}
    every = all(name in names for name, _, default in shape.members if "unset" not in default)
    if not every or lines[0] != shape_text(header, shape).encode():
        return (1, 0)
    held = {name: parsed(raw) for name, raw in header}
    if (
        held["ruleset"] not in set(page()[0]) - {"shared", *modules_named()}
        or held["format_version"] not in FORMATS
    ):
        return (1, 0)  # step 1: a ruleset or a format version the reader does not have
    modules = dict(held["scenario"]).get("modules", [])
    if type(modules) is not list or not all(
        type(name) is str and name in modules_named() for name in modules
    ):
        return (1, 0)  # step 2: the scenario's modules are an array of the modules the page names
    if "sealed" in held:  # a players' copy: its seeds are sealed, each by its own commitment
        COPY.set(True)
        SEALED_STREAMS.set(tuple(dict(held["sealed"])["streams"]))
        REVEALERS.set(revealers([held["ruleset"], *modules], held["ruleset"]))
        if not (stand_in(held["seed"]) and stand_in(dict(held["scenario"]).get("seed"))):
            return (1, 0)
    elif held["seed"] != dict(held["scenario"]).get("seed"):
        return (1, 0)  # step 1: the header's seed is always its scenario's
    kinds = vocabulary(header)
    if not all(readable(kind, kinds.get(kind), int(version)) for kind, version in held["event_versions"]):
        return (1, 0)  # step 1: a version of a kind the reader cannot read
    try:
        if held["format_version"] == "1":
            read_lines(lines, kinds)
        else:
            read_blocks(lines, kinds)
    except Found as found:
        return found.where
    return None


def read_lines(lines: list[bytes], kinds: dict[str, Shape]) -> None:
    """Steps 2 to 4 in format 1: each event line and the end line end with the hash of the line before."""
    prev, t = chain_hash(lines[0]), 0
    for index, line in enumerate(lines[1:], start=1):
        if index == len(lines) - 1 or len(line) > LIMIT:
            raise Found(index + 1, index)  # a partial line, or no end line after a whole one
        if line.startswith(b'{"end":'):
            check_end(line, index - 1, prev, index - 1, lines[index + 1 :])
            return
        t = check_event(line, index, kinds, prev, t, index - 1)
        prev = chain_hash(line)


def read_blocks(lines: list[bytes], kinds: dict[str, Shape]) -> None:
    """Steps 2 to 4 in format 2: the first line of each block of 256 (seq N, N mod 256 being 1) and the
    end line end with the hash of the block before, its lines each with its newline (block 0: the header);
    a block holds at most 16 MiB."""
    block, first, size, t = [lines[0] + b"\n"], 0, 0, 0  # the block so far, its first seq, its bytes
    for index, line in enumerate(lines[1:], start=1):
        if index == len(lines) - 1 or len(line) > LIMIT:
            raise Found(index + 1, index)  # a partial line, or no end line after a whole one
        if line.startswith(b'{"end":'):
            check_end(line, index - 1, chain_hash(b"".join(block)), first, lines[index + 1 :])
            return
        if index % BLOCK == 1:
            t = check_event(line, index, kinds, chain_hash(b"".join(block)), t, first)
            block, first, size = [], index, 0
        else:
            t = check_event(line, index, kinds, None, t, first)
        block.append(line + b"\n")
        size += len(line) + 1
        if size > BLOCK_LIMIT:
            raise Found(index + 1, index)  # 2.8: the block passes the bytes a block may hold


# -- held against affray verify -------------------------------------------------------------------------

VERIFIED = re.compile(r"^FAILED: .*?: line (\d+) \((?:seq (\d+)|header)\)(.*)$", re.M)
READ_ON = re.compile(r"; and line (\d+) \((?:seq (\d+)|header)\): (?!cannot be folded)")
"""After a line that differs from the re-simulation, the damage verify's reading of the log found (unless
it is a fold that fails): in format 2 most often the changed block that holds that line, named at the
block's first line, as the page's reader names it ("What a reader checks", the table of damage: ``line 8
(seq 7): differs from the re-simulation: ...; and line 2 (seq 1): lines 2 to 32 (seqs 1 to 31) were changed:
...``); in either format, a line that breaks the reading after one changed (time running backwards)."""
RESIMULATED = (
    "re-simulation failed",
    "disagrees with the re-simulation",
    "differs from the",
    "cannot be folded",
)
"""What a fight's rules decide (a fold, a re-simulation): beyond a reader of this page alone."""


def verify_names(folder: Path, data: bytes) -> tuple[int, int] | str | None:
    """What ``affray verify`` names for a reader of this page alone, who folds and re-simulates nothing: the
    line and seq of a FAILED finding; for a line that differs from the re-simulation, the damage it names
    after it (``; and ...``: format 2's changed block, whose lines the page's reader cannot tell apart);
    None for ok or CHANGED; or its whole output for anything else (a finding of the fold or the
    re-simulation alone, or an error: a log it cannot read at all)."""
    log = folder / "mutant.jsonl"
    log.write_bytes(data)
    outcome = affray("verify", log)
    found: re.Match[str] | None = VERIFIED.search(outcome.out)
    if found and any(said in found[0] for said in RESIMULATED):
        found = READ_ON.search(found[3])
        if found is None:
            return f"{outcome.status}: {outcome.out}{outcome.err}"
    if found:
        return int(found[1]), int(found[2] or 0)
    return None if outcome.status in (0, 3) else f"{outcome.status}: {outcome.out}{outcome.err}"


def agree(folder: Path, data: bytes) -> None:
    """The page's reader and verify name the same line and seq (or both nothing)."""
    verified = verify_names(folder, data)
    if isinstance(verified, str):
        return  # no log at all (its header unreadable), or what the rules decide: not the page's to match
    try:
        by_page = first_problem(data, held_to_form=not of_another_version(data))
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        by_page = (1, 0)
    assert by_page == verified, f"the page names {by_page}, verify {verified}"


def of_another_version(data: bytes) -> bool:
    """Whether the log was made under another version of its ruleset than this affray simulates, which
    verify does not hold to today's canonical form ("What a reader checks")."""
    try:
        header = json.loads(data[: data.index(b"\n")])
        return str(header["ruleset_version"]) != rulesets.ruleset(header["ruleset"]).version
    except (ValueError, KeyError, TypeError, RecursionError, AffrayError):
        return False


class Log(bytes):
    """A log's bytes, shown by their length: when a draw fails (a mutant not worth drawing), hypothesis
    shows the strategy with its arguments, and a log of hundreds of kB shown so is a warning, so an error."""

    def __repr__(self) -> str:
        return f"<a log of {len(self):,} bytes>"


def in_version(data: bytes, version: int) -> Log:
    """A log of format 2, as affray writes it, in format ``version`` (tests.strategies.in_format). Its lines
    inside a block are given a stand-in ``prev`` first, for format 1's re-chaining to put the right one in
    its place: it replaces a ``prev``, and adds none."""
    lines = log_lines(data)
    assert lines[0].startswith(b'{"format":"affray-log","format_version":2,')
    if version == 1:
        events = enumerate(lines[1:-1], start=1)
        lines[1:-1] = [line if seq % BLOCK == 1 else line[:-1] + b',"prev":""}' for seq, line in events]
    return Log(in_format(join_lines(lines), version))


@pytest.fixture(scope="module")
def written_logs(tmp_path_factory: pytest.TempPathFactory) -> ExampleLogs:
    """Four examples' logs as ``affray run`` writes them (format 2): both rulesets, the special_damage
    module and decisions of a controller from outside affray among them."""
    folder = tmp_path_factory.mktemp("page-logs")
    logs = ExampleLogs()
    for name in ("duel", "bar-brawl", "robots", "ambush"):
        out = folder / f"{name}.jsonl"
        assert affray("run", EXAMPLES / f"{name}.toml", "-o", out).status == 0
        logs[name] = out.read_bytes()
    return logs


@pytest.fixture(scope="module", params=[1, 2], ids=["format-1", "format-2"])
def example_logs(request: pytest.FixtureRequest, written_logs: ExampleLogs) -> ExampleLogs:
    """The examples' logs in format 1 (every line chained), then in format 2 (blocks of lines)."""
    return ExampleLogs({name: in_version(data, request.param) for name, data in written_logs.items()})


FILLER = 2100
"""How many times the long log repeats the duel's line of seq 8: 2,131 events, in eight blocks of 256 and
one of 83."""


def lengthened(duel: bytes) -> bytes:
    """The duel (format 2) with its line of seq 8 (brenna chooses gorm as her target) repeated ``FILLER``
    times, the seqs after it moved on and the chain made again: a log past two blocks' boundaries that
    holds, which verify finds ``CHANGED`` (its scenario makes no such fight) and undamaged."""
    header, *events, _ = log_lines(duel)
    events[8:8] = [events[7]] * FILLER
    events = [re.sub(rb'"seq":\d+', b'"seq":%d' % seq, line, count=1) for seq, line in enumerate(events, 1)]
    return rechain([header, *events])


@pytest.fixture(scope="module", params=[1, 2], ids=["format-1", "format-2"])
def long_log(request: pytest.FixtureRequest, written_logs: ExampleLogs) -> Log:
    """The lengthened duel in format 1, then in format 2."""
    return in_version(lengthened(written_logs["duel"]), request.param)


def test_the_page_finds_nothing_in_a_log_verify_passes(example_logs: ExampleLogs, tmp_path: Path) -> None:
    for name, data in example_logs.items():
        assert first_problem(data) is None, name
        assert verify_names(tmp_path, data) is None, name


def test_the_page_finds_nothing_in_a_long_log_verify_finds_undamaged(long_log: bytes, tmp_path: Path) -> None:
    assert len(log_lines(long_log)) == 1 + 31 + FILLER + 1
    assert first_problem(long_log) is None
    assert verify_names(tmp_path, long_log) is None


@pytest.mark.parametrize(
    ("seq", "block", "recorded_by"),
    [
        (1, (1, 256), "line 258 (seq 257)"),
        (256, (1, 256), "line 258 (seq 257)"),
        (257, (257, 512), "line 514 (seq 513)"),
        (512, (257, 512), "line 514 (seq 513)"),
        (2049, (2049, 2131), "the end line"),
        (2108, (2049, 2131), "the end line"),
    ],
)
def test_the_page_names_a_changed_block_at_its_first_line_as_verify_does(
    written_logs: ExampleLogs, tmp_path: Path, seq: int, block: tuple[int, int], recorded_by: str
) -> None:
    """A line of a format 2 log changed and its chain left as it was: the page's reader names the block that
    holds it at its first line, as verify does after the line, which it finds differs from the
    re-simulation, in the page's words."""
    lines = log_lines(lengthened(written_logs["duel"]))
    assert lines[seq].count(b'"side":"ford"') + lines[seq].count(b'"controller":"nearest"') == 1
    lines[seq] = lines[seq].replace(b'"side":"ford"', b'"side":"forD"').replace(b"nearest", b"nearesT", 1)
    changed_log = join_lines(lines)
    first, last = block
    assert first_problem(changed_log) == (first + 1, first)
    log = tmp_path / "changed.jsonl"
    log.write_bytes(changed_log)
    outcome = affray("verify", log)
    assert outcome.status == 1
    differs = seq if seq == 1 else 9  # the line changed, or before it the filler's first
    assert f": line {differs + 1} (seq {differs}): differs from the re-simulation: " in outcome.out
    named = f"line {first + 1} (seq {first}): lines {first + 1} to {last + 1} (seqs {first} to {last})"
    said = f"were changed: their hash no longer matches the prev that {recorded_by} records\n"
    assert f"; and {named} {said}" in outcome.out
    assert verify_names(tmp_path, changed_log) == (first + 1, first)


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


@pytest.mark.parametrize("forged", [b"3", b"0", b"-1"])
def test_the_page_refuses_a_format_version_it_does_not_know_as_verify_does(
    written_logs: ExampleLogs, tmp_path: Path, forged: bytes
) -> None:
    """The duel of format 1 with its header's format_version another, and the chain made again as that
    version chains (format 2's from 2 on): the page's step 1 refuses it at line 1."""
    lines = log_lines(in_version(written_logs["duel"], 1))
    lines[0] = lines[0].replace(b'"format_version":1,', b'"format_version":%s,' % forged, 1)
    forgery = rechain(lines)
    assert first_problem(forgery) == (1, 0)
    assert verify_names(tmp_path, forgery) == (1, 0)


MUTANTS = pytest.mark.parametrize(
    "mutants",
    [byte_mutants, line_mutants, rechained_line_mutants, member_mutants],
    ids=["bytes", "lines", "lines-rechained", "members"],
)


@MUTANTS
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


@MUTANTS
@FUZZ_SETTINGS
@given(data=st.data())
def test_the_page_names_the_line_and_seq_verify_names_in_a_long_log(
    long_log: bytes, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, mutants: Any
) -> None:
    """As above, in the lengthened duel: a change in any of its three blocks (verify names the line that
    differs from the re-simulation, the first of the filler, and then the damage its reading found)."""
    mutant = data.draw(mutants(long_log))
    agree(tmp_path_factory.mktemp("page"), mutant.data)


UNKNOWN_VERSION = re.compile(rb'\{"format":"affray-log","format_version":(?:0|-[1-9]\d*)[,}]')
"""A header naming a format version below 1, which affray reads as format 1 (see BELOW_1)."""


@FUZZ_SETTINGS
@given(data=st.data(), name=st.sampled_from(["duel", "bar-brawl"]))
def test_the_page_names_a_rechained_member_change_where_verify_does(
    example_logs: ExampleLogs, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, name: str
) -> None:
    try:
        mutant = data.draw(member_mutants(example_logs[name], rechain_it=True))
    except (RecursionError, TypeError):
        # tests.strategies.rechain reads the header's format_version (json.loads, then >= 2): a header made
        # hostile (nested past the recursion limit, or its format_version no number) is not re-chained
        reject()
    assume(UNKNOWN_VERSION.match(mutant.data) is None)
    agree(tmp_path_factory.mktemp("page"), mutant.data)


def signed(data: bytes, folder: Path) -> bytes:
    """A log signed by alice (``affray keygen``, ``affray sign``)."""
    log = folder / "signed.jsonl"
    log.write_bytes(data)
    assert affray("keygen", "alice", "-o", folder).status == 0
    assert affray("sign", log, "--key", folder / "alice.key").status == 0
    return log.read_bytes()


def test_the_page_reads_a_signed_log(example_logs: ExampleLogs, tmp_path: Path) -> None:
    data = signed(example_logs["duel"], tmp_path)
    assert data.startswith(example_logs["duel"])
    assert data != example_logs["duel"]
    assert first_problem(data) is None


def test_the_page_names_a_line_after_the_signatures_where_verify_does(
    example_logs: ExampleLogs, tmp_path: Path
) -> None:
    forgery = signed(example_logs["duel"], tmp_path) + b"{}\n"
    assert first_problem(forgery) == (35, 32)  # the end line is seq 32, line 33; alice signs on line 34
    agree(tmp_path, forgery)


PLAYERS_COPY = ROOT / "tests" / "corpus" / "format-1-sealed" / "wolves-players.jsonl"
"""A players' copy ("Sealed rolls"), as affray redact wrote it (format 1)."""


@pytest.fixture(scope="module", params=[1, 2], ids=["format-1", "format-2"])
def players_copy(request: pytest.FixtureRequest) -> Log:
    """The players' copy as written, then in format 2."""
    data = PLAYERS_COPY.read_bytes()
    return Log(data if request.param == 1 else in_format(data, 2))


def test_the_page_reads_a_players_copy(players_copy: bytes, tmp_path: Path) -> None:
    assert first_problem(players_copy) is None
    assert verify_names(tmp_path, players_copy) is None


def changed_once(data: bytes, pattern: bytes, by: bytes) -> bytes:
    """``data`` with the first match of ``pattern`` replaced ``by``."""
    return re.sub(pattern, by, data, count=1)


def test_the_page_names_a_roll_moved_out_of_a_sealed_stream_where_verify_does(
    players_copy: bytes, tmp_path: Path
) -> None:
    moved = changed_once(players_copy, rb'"roller":"wolf-3"', b'"roller":"olf-3"')
    assert first_problem(moved, held_to_form=False) == (6, 5)  # its faces sealed, its stream no longer so
    agree(tmp_path, moved)


def test_the_page_names_a_member_given_away_in_the_clear_where_verify_does(
    players_copy: bytes, tmp_path: Path
) -> None:
    shown = changed_once(players_copy, rb'"quality":\{"sealed":"[0-9a-f]{64}"\}', b'"quality":5')
    assert first_problem(shown, held_to_form=False) == (21, 20)  # a sealed hit roll's quality (E6)
    agree(tmp_path, shown)


def test_the_page_needs_a_comma_between_members_as_verify_does(players_copy: bytes, tmp_path: Path) -> None:
    joined = changed_once(players_copy, rb'"outcome":"hit",', b'"outcome":"hit"')
    assert first_problem(joined, held_to_form=False) == (21, 20)
    agree(tmp_path, joined)


def test_the_page_reads_whitespace_in_a_line_of_another_version_as_verify_does(
    players_copy: bytes, tmp_path: Path
) -> None:
    spaced = changed_once(players_copy, rb'"outcome":"hit"', b'"outcome": "hit"')
    assert of_another_version(spaced)
    block_or_line = (2, 1) if b'"format_version":2' in spaced[:100] else (21, 20)
    assert first_problem(spaced, held_to_form=False) == block_or_line  # only the chain finds it
    agree(tmp_path, spaced)


@pytest.mark.parametrize("mutants", [byte_mutants, line_mutants], ids=["bytes", "lines"])
@FUZZ_SETTINGS
@given(data=st.data())
def test_the_page_names_the_line_and_seq_verify_names_in_a_players_copy(
    players_copy: bytes, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, mutants: Any
) -> None:
    mutant = data.draw(mutants(players_copy))
    agree(tmp_path_factory.mktemp("page"), mutant.data)
