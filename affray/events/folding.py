"""Narrow kinds: a kind cut down to the members its fold reads, so that a reading that only folds decodes
no more of a line than the fold needs.

A part that applies a kind (or extends another part's) may list the members its applier reads, as dotted
paths (``"hit.ranged.mode"``: the ``mode`` of the hit's ``ranged``, when there is one). A kind every one of
whose appliers lists its reads is read for folding as its narrow kind: a Struct of the same tag holding
``seq``, ``t`` and those members, each nested Struct cut down the same way. Decoding skips the other members
of the line without building them (a hit's rolls, modifiers and decimals), which is most of what an
outcome event costs to read. The members kept are checked as the whole kind checks them.
"""

from __future__ import annotations

import types
from collections.abc import Iterable
from typing import Any, Union, get_args, get_origin

import msgspec

from affray.events.base import Event


class UnknownMember(Exception):
    """A path naming a member its kind (or a Struct on the way) does not have."""


def narrowed(kind: type[Event], paths: Iterable[str]) -> type[Event]:
    """``kind`` cut down to ``seq``, ``t`` and the members ``paths`` name; UnknownMember for a path that
    names no member."""
    config = kind.__struct_config__
    fields = _fields(kind, ("seq", "t", *paths), f"{kind.__name__}Folded")
    made: Any = msgspec.defstruct(
        f"{kind.__name__}Folded",
        fields,
        bases=(Event,),
        module=kind.__module__,
        tag=config.tag,
        frozen=True,
        kw_only=True,
        omit_defaults=config.omit_defaults,
        gc=False,
    )
    made.__doc__ = f"``{config.tag}`` as a reading that only folds decodes it: {', '.join(paths)}."
    made.CHANGES_THE_WORLD = kind.CHANGES_THE_WORLD
    made.MOVES_THE_FIELD = kind.MOVES_THE_FIELD
    made.VERSION = kind.VERSION
    narrow: type[Event] = made
    return narrow


def _fields(struct: type[msgspec.Struct], paths: Iterable[str], name: str) -> list[tuple[str, Any, Any]]:
    """The fields of ``struct`` that ``paths`` name, in its order, each a Struct cut down to the rest of
    its paths."""
    wanted: dict[str, list[str]] = {}
    for path in paths:
        head, _, rest = path.partition(".")
        wanted.setdefault(head, [])
        if rest:
            wanted[head].append(rest)
    known = {field.name: field for field in msgspec.structs.fields(struct)}
    for head in wanted:
        if head not in known:
            raise UnknownMember(f"{struct.__name__} has no member {head!r}")
    kept = []
    for field in msgspec.structs.fields(struct):
        if field.name not in wanted:
            continue
        member = field.type
        if wanted[field.name]:
            member = _cut(member, wanted[field.name], f"{name}_{field.name}", field.name)
        default = msgspec.NODEFAULT if field.required else field.default
        if field.default_factory is not msgspec.NODEFAULT:
            default = msgspec.field(default_factory=field.default_factory)
        kept.append((field.name, member, default))
    return kept


def _cut(member: Any, paths: list[str], name: str, field: str) -> Any:
    """The type ``member`` of ``field`` (a Struct, or a Struct or None) with its Struct cut down to
    ``paths``, as the Struct ``name``."""
    if isinstance(member, type) and issubclass(member, msgspec.Struct):
        config = member.__struct_config__
        return msgspec.defstruct(
            name,
            _fields(member, paths, name),
            frozen=True,
            kw_only=True,
            gc=False,
            tag=config.tag,
            tag_field=config.tag_field,
        )
    if get_origin(member) in (Union, types.UnionType):
        members = get_args(member)
        structs = [m for m in members if isinstance(m, type) and issubclass(m, msgspec.Struct)]
        if len(structs) == 1 and len(members) == 2 and type(None) in members:
            return _cut(structs[0], paths, name, field) | None
    raise UnknownMember(f"{field} is no record: {', '.join(paths)} cannot be read in it")
