"""docs/log-kinds.md, written from the code: every event kind of every registered ruleset and module, its
version, and its members in the order a line holds them, with their types and defaults, so that a reader
in another language can check a line's canonical form (docs/log-format.md, "Canonical form").

``python -m affray.rulesets.describe > docs/log-kinds.md`` writes the page again; a test fails when the
page and the code disagree.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import msgspec
import msgspec.inspect as mi

from affray import rulesets
from affray.events.codec import ENCODER, LogEnd, LogHeader
from affray.events.shared import kind_of

_HEAD = """# Event kinds, member by member

<!-- Written by `python -m affray.rulesets.describe > docs/log-kinds.md`; do not edit by hand. -->

Every kind of every vocabulary this affray writes, as [log-format.md](log-format.md) ("Canonical form")
reads this page. A line is `{"kind":"<kind>"` followed by the members below, in this order, then, on the
first line of a block of the hash chain, `"prev":"<hash>"`, and `}`. "left out at its default" kinds write
no member whose value is its default (`t` at 0 included); the others write every member. A reader takes a
missing member as its default either way. A type in *italics* is a structure described under
"Structures", a member of which is written in its order too.
"""


def _literal(values: tuple[Any, ...]) -> str:
    return " or ".join(f"`{ENCODER.encode(value).decode()}`" for value in values)


def _struct_name(info: mi.StructType) -> str:
    tag = f" (`{info.tag_field}`: `{info.tag}`)" if info.tag_field else ""
    return f"*{info.cls.__name__}*{tag}"


_SIMPLE = {
    mi.IntType: "integer",
    mi.StrType: "string",
    mi.DecimalType: "decimal",
    mi.FloatType: "float",
    mi.BoolType: "boolean",
    mi.NoneType: "null",
    mi.AnyType: "any value",
    mi.RawType: "any JSON value, kept as written",
}


def type_text(info: mi.Type) -> str:
    """A member's type in words: ``decimal``, ``array of integer``, ``string or null``, *Roll*."""
    simple = _SIMPLE.get(type(info))
    if simple is not None:
        return simple
    if isinstance(info, mi.LiteralType):
        return _literal(info.values)
    if isinstance(info, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        return f"array of {type_text(info.item_type)}"
    if isinstance(info, mi.TupleType):
        return "array of " + ", ".join(type_text(item) for item in info.item_types)
    if isinstance(info, mi.DictType):
        return f"object of {type_text(info.key_type)} to {type_text(info.value_type)}, keys sorted"
    if isinstance(info, mi.UnionType):
        return " or ".join(type_text(member) for member in info.types)
    if isinstance(info, mi.StructType):
        return _struct_name(info)
    if isinstance(info, mi.Metadata):  # ActorId, CombatantId
        return f"{type_text(info.type)} (a combatant's id)"
    return type(info).__name__


def _default(field: mi.Field) -> str:
    if field.required:
        return "required"
    if field.default is msgspec.NODEFAULT and field.default_factory is msgspec.NODEFAULT:
        return "none: left out when unset"
    value = field.default_factory() if field.default is msgspec.NODEFAULT else field.default
    return f"`{ENCODER.encode(value).decode()}`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _table(fields: tuple[mi.Field, ...]) -> list[str]:
    rows = ["| member | type | default |", "| --- | --- | --- |"]
    rows += [f"| `{f.encode_name}` | {_cell(type_text(f.type))} | {_cell(_default(f))} |" for f in fields]
    return rows


def _structs_in(info: mi.Type) -> Iterator[mi.StructType]:
    """The structures a type holds, at any depth."""
    if isinstance(info, mi.StructType):
        yield info
        for field in info.fields:
            yield from _structs_in(field.type)
    for name in ("item_type", "key_type", "value_type"):
        inner = getattr(info, name, None)
        if inner is not None:
            yield from _structs_in(inner)
    for inner in getattr(info, "types", ()) + getattr(info, "item_types", ()):
        yield from _structs_in(inner)


def _parts() -> dict[str, dict[str, type[Any]]]:
    """Each part's kinds by name, the parts as every registered ruleset's vocabulary with all its modules
    composes them (a part shared by rulesets once)."""
    parts: dict[str, dict[str, type[Any]]] = {}
    for name in rulesets.ruleset_names():
        ruleset = rulesets.ruleset(name)
        for part in ruleset.vocabulary(ruleset.modules).parts:
            kinds = parts.setdefault(part.name, {})
            kinds.update((kind_of(kind), kind) for kind in part.appliers)
    return parts


def _left_out(struct: type[Any]) -> str:
    """Whether a structure leaves out the members at their defaults."""
    return "left out at its default" if struct.__struct_config__.omit_defaults else "every member written"


def _kind(tag: str, kind: type[Any]) -> list[str]:
    info = mi.type_info(kind)
    assert isinstance(info, mi.StructType)
    left_out = _left_out(kind)
    return [f"### `{tag}`", "", f"Version {kind.VERSION}; {left_out}.", "", *_table(info.fields), ""]


def _line(title: str, struct: type[Any], structures: dict[str, mi.StructType]) -> list[str]:
    """A line that is no event (the header, the end line): every member written but those left unset."""
    info = mi.type_info(struct)
    assert isinstance(info, mi.StructType)
    for field in info.fields:
        structures.update((s.cls.__name__, s) for s in _structs_in(field.type))
    return [
        f"### {title}",
        "",
        'Every member written, in this order, but one "left out when unset" where it does not apply.',
        "",
        *_table(info.fields),
        "",
    ]


def _what(part: str, modules: set[str]) -> str:
    """What a part is: the shared kinds, a ruleset's or a module's (a reader tells them apart by this)."""
    if part == "shared":
        return "The kinds every ruleset shares."
    if part in modules:
        return f"The kinds of the module `{part}`, which a scenario turns on in its `modules`."
    return f"The kinds of the ruleset `{part}`, which a header names in its `ruleset`."


def page() -> str:
    """The whole page."""
    structures: dict[str, mi.StructType] = {}
    lines = [
        _HEAD,
        "## The header and the end line",
        "",
        *_line("The header (line 1)", LogHeader, structures),
        *_line("The end line", LogEnd, structures),
    ]
    modules = set(rulesets.module_names())
    for part, kinds in _parts().items():
        if not kinds:
            continue  # a part that only extends other parts' kinds (a module's adapter to its host)
        lines += [f"## Part `{part}`", "", _what(part, modules), ""]
        for tag in sorted(kinds):
            lines += _kind(tag, kinds[tag])
            info = mi.type_info(kinds[tag])
            assert isinstance(info, mi.StructType)
            for field in info.fields:
                structures.update((s.cls.__name__, s) for s in _structs_in(field.type))
    lines += ["## Structures", ""]
    for name in sorted(structures):
        info = structures[name]
        left_out = _left_out(info.cls)
        tagged = f" Tagged `{info.tag_field}`: `{info.tag}`, written first." if info.tag_field else ""
        lines += [f"### {name}", "", f"{left_out.capitalize()}.{tagged}", "", *_table(info.fields), ""]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).rstrip("\n") + "\n"


if __name__ == "__main__":
    print(page(), end="")
