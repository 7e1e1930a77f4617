"""Reading rules tables from TOML data files: decoding into Structs, and errors that name file and field."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Protocol, TypeVar

import msgspec

from affray.errors import TableError, UnknownTableEntry, briefly, excerpt, toml_limit
from affray.names import close_names, name_key

_F = TypeVar("_F", bound=msgspec.Struct)

NUMBER_LIMIT = 1_000_000
"""Every number a table file holds is finite and within this much of 0."""


class _HasName(Protocol):
    @property
    def name(self) -> str: ...


_T = TypeVar("_T", bound=_HasName)


def decode_table(source: str, text: str | bytes, file_type: type[_F]) -> _F:
    """Decode a table file into its Struct; a malformed one, or one with a number that is not finite or
    beyond NUMBER_LIMIT, raises TableError naming ``source`` (and the field path)."""
    try:
        table = msgspec.toml.decode(text, type=file_type)
    except msgspec.DecodeError as exc:
        raise TableError(f"{source}: {briefly(str(exc))}") from exc
    except (ValueError, RecursionError) as exc:
        shown = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        raise TableError(f"{source}: cannot read the TOML: {toml_limit(shown, exc)}") from None
    for path, number in _numbers(table, "$"):
        exact = Decimal(number)
        if not exact.is_finite() or abs(exact) > NUMBER_LIMIT:
            raise table_error(
                source,
                path,
                f"expected a finite number from {-NUMBER_LIMIT:,} to {NUMBER_LIMIT:,}, "
                f"got {excerpt(str(number))}",
            )
    return table


def _numbers(value: object, path: str) -> Iterator[tuple[str, Decimal | float | int]]:
    """Every number in a decoded table, with its field path."""
    if isinstance(value, msgspec.Struct):
        for name, written in _field_names(type(value)):
            yield from _numbers(getattr(value, name), f"{path}.{written}")
    elif isinstance(value, tuple | list):
        for index, item in enumerate(value):
            yield from _numbers(item, f"{path}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _numbers(item, f"{path}.{key}")
    elif isinstance(value, Decimal | float | int) and not isinstance(value, bool):
        yield path, value


@functools.cache
def _field_names(struct: type[msgspec.Struct]) -> tuple[tuple[str, str], ...]:
    """Each field of a Struct type: its name, and its name in the file."""
    return tuple((field.name, field.encode_name) for field in msgspec.structs.fields(struct))


def table_error(source: str, path: str, problem: str) -> TableError:
    """A TableError for a value that decodes but breaks a rule of the table: file, problem, field path."""
    return TableError(f"{source}: {problem} - at `{path}`")


def require_unique(source: str, path: str, names: Iterable[str], what: str = "name") -> None:
    """Refuse a table whose ``names`` repeat, case and surrounding spaces ignored; ``path`` holds ``{}``
    where the row index goes, e.g. ``"$.armor[{}].name"``."""
    seen: set[str] = set()
    for index, name in enumerate(names):
        key = name_key(name)
        if key in seen:
            raise table_error(source, path.format(index), f"duplicate {what} {name!r}")
        seen.add(key)


def find_named(kind: str, name: str, entries: Iterable[_T], *, where: str = "") -> _T:
    """The entry called ``name`` (case and surrounding spaces ignored); UnknownTableEntry with close names."""
    rows = list(entries)
    key = name_key(name)
    for row in rows:
        if name_key(row.name) == key:
            return row
    close = close_names(name, (row.name for row in rows))
    hint = ", ".join(map(repr, close)) if close else "none"
    raise UnknownTableEntry(f"unknown {kind} {excerpt(name)!r}{where}; close matches: {hint}")
