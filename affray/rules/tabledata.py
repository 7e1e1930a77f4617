"""Reading rules tables from TOML data files: decoding into Structs, and errors that name file and field."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar

import msgspec

from affray.errors import TableError, UnknownTableEntry
from affray.names import close_names, name_key

_F = TypeVar("_F", bound=msgspec.Struct)


class _HasName(Protocol):
    @property
    def name(self) -> str: ...


_T = TypeVar("_T", bound=_HasName)


def decode_table(source: str, text: str | bytes, file_type: type[_F]) -> _F:
    """Decode a table file into its Struct; a malformed one raises TableError naming ``source``."""
    try:
        return msgspec.toml.decode(text, type=file_type)
    except msgspec.DecodeError as exc:
        raise TableError(f"{source}: {exc}") from exc


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
    raise UnknownTableEntry(f"unknown {kind} {name!r}{where}; close matches: {hint}")
