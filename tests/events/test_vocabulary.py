"""Composing a vocabulary (affray/events/vocabulary.py): what it refuses of its parts."""

from __future__ import annotations

from typing import ClassVar

import pytest

from affray.events.base import Event
from affray.events.energion.state import ENERGION, EnergionState
from affray.events.state import SHARED
from affray.events.vocabulary import Part, Vocabulary, VocabularyError


class Pushed(Event, frozen=True, kw_only=True, tag="pushed"):
    """A kind that moves the field but names no combatant."""

    MOVES_THE_FIELD: ClassVar[bool] = True
    who: str


def test_a_kind_that_moves_the_field_without_naming_its_combatant_is_refused() -> None:
    part = Part(name="pushing", appliers={Pushed: lambda state, event: None})
    with pytest.raises(VocabularyError, match="pushed moves the field but names no combatant it moves"):
        Vocabulary(EnergionState, SHARED, ENERGION, part)
