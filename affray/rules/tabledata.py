"""Reading rules tables from TOML data files: decoding into Structs, and errors that name file and field."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Protocol, TypeVar

import msgspec

from affray.errors import TableError, UnknownTableEntry

_F = TypeVar("_F", bound=msgspec.Struct)
MAX_CLOSE_MATCHES = 5


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
        key = name.strip().casefold()
        if key in seen:
            raise table_error(source, path.format(index), f"duplicate {what} {name!r}")
        seen.add(key)


def find_named(kind: str, name: str, entries: Iterable[_T], *, where: str = "") -> _T:
    """The entry called ``name`` (case and surrounding spaces ignored); UnknownTableEntry with close names."""
    rows = list(entries)
    key = name.strip().casefold()
    for row in rows:
        if row.name.strip().casefold() == key:
            return row
    by_key = {row.name.strip().casefold(): row.name for row in rows}
    close = difflib.get_close_matches(key, list(by_key), n=MAX_CLOSE_MATCHES)
    hint = ", ".join(repr(by_key[k]) for k in close) if close else "none"
    raise UnknownTableEntry(f"unknown {kind} {name!r}{where}; close matches: {hint}")
