"""docs/log-kinds.md is what the code writes: every kind, its version and its members, in order."""

from __future__ import annotations

from pathlib import Path

import msgspec.inspect as mi

from affray.events.base import Roll
from affray.rulesets import describe

PAGE = Path(__file__).resolve().parents[2] / "docs" / "log-kinds.md"


def test_the_page_is_what_the_code_describes() -> None:
    # when this fails, a kind changed: write the page again with
    # python -m affray.rulesets.describe > docs/log-kinds.md
    assert PAGE.read_text() == describe.page()


def test_every_kind_of_every_vocabulary_is_on_the_page() -> None:
    from tests.strategies import all_kinds

    page = describe.page()
    assert all(f"### `{kind.__struct_config__.tag}`" in page for kind in all_kinds())


def test_a_structures_members_are_listed_in_the_order_a_line_holds_them() -> None:
    page = describe.page()
    table = page[page.index("### Roll\n") :].split("\n\n")[2].splitlines()[2:]
    assert [row.split("`")[1] for row in table] == [
        "expr",
        "faces",
        "total",
        "purpose",
        "roller",
        "source",
        "draw",
    ]


def test_a_member_type_is_said_in_words() -> None:
    roll = mi.type_info(Roll)
    assert isinstance(roll, mi.StructType)
    said = {f.name: describe.type_text(f.type) for f in roll.fields}
    assert said["faces"] == "array of integer"
    assert said["source"] == '`"generated"` or `"manual"`'
