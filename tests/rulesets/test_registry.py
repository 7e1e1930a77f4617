"""The registry of rulesets and modules (affray.rulesets): a name it does not know is an error quoting at
most a few dozen characters of it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from affray import rulesets
from affray.errors import QUOTE_LIMIT, AffrayError, excerpt

LONG = "x" * 10_000


@pytest.mark.parametrize("find", [rulesets.ruleset, rulesets.module], ids=["ruleset", "module"])
def test_an_unknown_name_is_quoted_in_at_most_the_quote_limit(find: Callable[[str], object]) -> None:
    with pytest.raises(AffrayError) as caught:
        find(LONG)
    assert repr(excerpt(LONG)) in str(caught.value)
    assert "x" * (QUOTE_LIMIT + 1) not in str(caught.value)
