"""affray.errors: words for a user's messages."""

from __future__ import annotations

from affray.errors import first_named


def test_first_named_lists_every_name_within_the_most() -> None:
    assert first_named(["a", "b", "c"], 3) == "a, b, c"


def test_first_named_counts_the_names_beyond_the_most() -> None:
    assert first_named(["a", "b", "c", "d"], 2) == "a, b and 2 more"


def test_first_named_of_no_names_is_empty() -> None:
    assert first_named([], 5) == ""
