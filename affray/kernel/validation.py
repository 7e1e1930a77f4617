"""A scenario's validation errors told so a person can fix them: the choices a value has, the field a typo
meant, and where a key belongs that TOML put in the wrong table.

msgspec reports "Invalid enum value 'tactical' - at `$.combatants[0].controller`"; :func:`explain` reads the
scenario's type along that path (``msgspec.inspect``) to add what it expects.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import msgspec.inspect as mi

from affray.names import close_names

_PATH_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def _unwrapped(node: mi.Type) -> mi.Type:
    while isinstance(node, mi.Metadata):
        node = node.type
    return node


def _step(node: mi.Type, step: str | int) -> mi.Type | None:
    node = _unwrapped(node)
    if isinstance(node, mi.UnionType):
        stepped = (_step(member, step) for member in node.types)
        return next((each for each in stepped if each is not None), None)
    if isinstance(node, mi.StructType) and isinstance(step, str):
        return next((f.type for f in node.fields if f.encode_name == step), None)
    if isinstance(node, mi.ListType | mi.VarTupleType) and isinstance(step, int):
        return node.item_type
    if isinstance(node, mi.TupleType) and isinstance(step, int) and step < len(node.item_types):
        return node.item_types[step]
    return None


def _steps(path: str) -> list[str | int]:
    return [name if name else int(index) for name, index in _PATH_STEP.findall(path.removeprefix("$"))]


def type_at(kind: Any, path: str) -> mi.Type | None:
    """The type a scenario of ``kind`` expects at ``path`` (``$.combatants[0].controller``), if any."""
    node: mi.Type | None = mi.type_info(kind)
    for step in _steps(path):
        if node is None:
            return None
        node = _step(node, step)
    return None if node is None else _unwrapped(node)


def _structs(node: mi.Type, where: str) -> Iterator[tuple[str, mi.StructType]]:
    """Every struct in a scenario type with the path of its table: ``""`` the top, ``options`` ..."""
    node = _unwrapped(node)
    if isinstance(node, mi.UnionType):
        for member in node.types:
            yield from _structs(member, where)
    elif isinstance(node, mi.StructType):
        yield where, node
        for f in node.fields:
            yield from _structs(f.type, f"{where}.{f.encode_name}" if where else f.encode_name)
    elif isinstance(node, mi.ListType):
        yield from _structs(node.item_type, f"{where}[]")


def _choices(kind: Any, path: str) -> str:
    node = type_at(kind, path)
    if isinstance(node, mi.ListType):
        node = _unwrapped(node.item_type)
    if not isinstance(node, mi.LiteralType):
        return ""
    return "; expected one of " + ", ".join(repr(value) for value in node.values)


def _misplaced(kind: Any, path: str, field: str) -> str:
    steps = _steps(path)
    if not any(isinstance(step, int) for step in steps):
        return ""
    array = str(steps[0])
    homes = [where for where, struct in _structs(mi.type_info(kind), "") if field in struct_fields(struct)]
    home = next((where for where in homes if "[]" not in where), None)
    if home is None:
        return ""
    table = "at the top of the file, above the first" if home == "" else f"under [{home}], not after"
    return (
        f"; TOML puts a key written after [[{array}]] inside the last of them: `{field}` belongs {table} "
        f"[[{array}]]"
    )


def struct_fields(struct: mi.StructType) -> list[str]:
    """A struct type's field names as a scenario writes them."""
    return [f.encode_name for f in struct.fields]


def _unknown(kind: Any, path: str, field: str) -> str:
    misplaced = _misplaced(kind, path, field)
    if misplaced:
        return misplaced
    node = type_at(kind, path)
    if not isinstance(node, mi.StructType):
        return ""
    close = close_names(field, struct_fields(node), limit=3)
    return "; did you mean " + " or ".join(f"`{name}`" for name in close) + "?" if close else ""


def explain(kind: Any, what: str, path: str) -> str:
    """What to add to msgspec's message ``what`` at ``path`` so that it says what was expected."""
    if what.startswith("Invalid enum value"):
        return _choices(kind, path)
    unknown = re.match(r"Object contains unknown field `(.+)`$", what)
    return _unknown(kind, path, unknown.group(1)) if unknown else ""
