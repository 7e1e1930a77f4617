"""The form affray writes a line in: a value's encoding, less defaulted members an older line lacks."""

from __future__ import annotations

import msgspec

from affray.events.canonical import canonical

ENCODER = msgspec.json.Encoder(decimal_format="number", order="deterministic")


class Then(msgspec.Struct, kw_only=True):
    a: int
    b: list[str] = msgspec.field(default_factory=list)
    c: int | msgspec.UnsetType = msgspec.UNSET


def test_a_line_written_now_is_its_own_canonical_form() -> None:
    line = ENCODER.encode(Then(a=1, b=["x"]))
    assert canonical(line, Then(a=1, b=["x"]), ENCODER) == line


def test_a_line_from_before_a_defaulted_field_existed_is_canonical() -> None:
    assert canonical(b'{"a":1}', Then(a=1), ENCODER) == b'{"a":1}'


def test_a_member_the_line_adds_is_not_in_the_canonical_form() -> None:
    assert canonical(b'{"a":1,"z":2}', Then(a=1), ENCODER) == b'{"a":1}'


def test_a_missing_member_that_is_not_at_its_default_stays_in_the_canonical_form() -> None:
    assert canonical(b'{"a":1}', Then(a=1, b=["x"]), ENCODER) == b'{"a":1,"b":["x"]}'
