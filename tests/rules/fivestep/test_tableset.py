"""A scenario's table files read as a set: each must declare the table the scenario names it as."""

from __future__ import annotations

import pytest

from affray.errors import TableError
from affray.rules.fivestep.tableset import parse_table_set


def test_a_file_declaring_another_table_is_refused_naming_both() -> None:
    with pytest.raises(TableError, match=r"3-6.toml: the file is Table 3-7.0, but the scenario names it 3-6"):
        parse_table_set({"3-6": ("3-6.toml", 'table = "3-7.0"\n')})


@pytest.mark.parametrize("declared", ["a\\nerror: forged", "\\u2028\\u0085", "x" * 100])
def test_the_table_a_file_declares_is_quoted_on_one_line_in_at_most_40_characters(declared: str) -> None:
    with pytest.raises(TableError) as caught:
        parse_table_set({"3-6": ("3-6.toml", f'table = "{declared}"\n')})
    message = str(caught.value)
    assert len(message.splitlines()) == 1
    assert "x" * 41 not in message
