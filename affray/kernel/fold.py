"""Folding events into state with the vocabulary a log is read with, and the state's digest.

A replay is ``fold(events, vocabulary)``: ``vocabulary.apply`` on a fresh ``vocabulary.new_state()``,
event after event, the same ``apply`` that ``Encounter.emit`` calls live. ``apply`` updates the state in
place, so a fold costs one small function call per event.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import TypeVar

import msgspec

from affray.errors import LogError, excerpt
from affray.events.base import Event
from affray.events.shared import kind_of
from affray.events.vocabulary import Folded, Vocabulary

S = TypeVar("S", bound=Folded)


class FoldError(LogError):
    """An event read from a log that does not fit the state it is applied to."""


def apply_checked(vocabulary: Vocabulary[S], state: S, event: Event) -> S:
    """``vocabulary.apply`` for events read from a file: an event that does not fit raises FoldError."""
    applier = vocabulary.appliers.get(type(event))
    if applier is None:
        raise FoldError(f"seq {event.seq}: {kind_of(type(event))} is not a kind of {vocabulary.name}")
    try:
        applier(state, event)
    except KeyError as exc:
        who = exc.args[0] if exc.args else ""
        raise FoldError(
            f"seq {event.seq}: {kind_of(type(event))} names combatant {excerpt(str(who))!r} who never joined"
        ) from None
    except (TypeError, ValueError, ArithmeticError, AttributeError) as exc:
        raise FoldError(f"seq {event.seq}: {kind_of(type(event))} cannot be applied ({exc})") from None
    state.seq = event.seq
    state.t = event.t
    return state


def fold(events: Iterable[Event], vocabulary: Vocabulary[S], state: S | None = None) -> S:
    """Fold events into a fresh state (or onto ``state``): the replay of a log.

    Raises FoldError naming the seq of an event that does not fit (one naming a combatant who never joined).
    """
    if state is None:
        state = vocabulary.new_state()
    for event in events:
        apply_checked(vocabulary, state, event)
    return state


_STATE_ENCODER = msgspec.json.Encoder(decimal_format="number", order="deterministic")


def encode_state(state: object) -> bytes:
    """The state as deterministic JSON bytes."""
    return _STATE_ENCODER.encode(state)


def digest(state: object) -> str:
    """A short hash of the state's deterministic JSON: live and folded states of one log always agree.

    Decimals are hashed as written, so ``3`` and ``3.0`` damage points give different digests.
    """
    return hashlib.blake2b(encode_state(state), digest_size=16).hexdigest()
