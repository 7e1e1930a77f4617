"""Reading rules tables from TOML data files: decoding into Structs, and errors that name file and field."""

from __future__ import annotations

from typing import TypeVar

import msgspec

from affray.errors import TableError

_F = TypeVar("_F", bound=msgspec.Struct)


def decode_table(source: str, text: str | bytes, file_type: type[_F]) -> _F:
    """Decode a table file into its Struct; a malformed one raises TableError naming ``source``."""
    try:
        return msgspec.toml.decode(text, type=file_type)
    except msgspec.DecodeError as exc:
        raise TableError(f"{source}: {exc}") from exc


def table_error(source: str, path: str, problem: str) -> TableError:
    """A TableError for a value that decodes but breaks a rule of the table: file, problem, field path."""
    return TableError(f"{source}: {problem} - at `{path}`")
