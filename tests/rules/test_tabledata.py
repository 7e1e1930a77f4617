"""Decoding rules table files: a malformed one is one short error line naming the file and the field."""

from __future__ import annotations

import msgspec
import pytest

from affray.errors import TableError
from affray.rules.tabledata import decode_table


class _Row(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str


@pytest.mark.parametrize("key", ["a\\nerror: forged", "x" * 100])
def test_an_unknown_field_of_a_table_file_is_named_on_one_line_in_a_few_dozen_characters(key: str) -> None:
    with pytest.raises(TableError) as caught:
        decode_table("3-6.toml", f'name = "a"\n"{key}" = 1\n', _Row)
    message = str(caught.value)
    assert message.startswith("3-6.toml: Object contains unknown field `")
    assert len(message.splitlines()) == 1
    assert "x" * 41 not in message
