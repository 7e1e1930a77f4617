"""Energion's fields that reveal a roll beyond the roll itself, which a players' copy withholds with the
rolls of sealed streams (affray.events.sealed). What a roll caused (a hit, a parry, an avoided hold, the
damage) stays in the clear."""

from __future__ import annotations

from collections.abc import Iterator

from affray.events.energion.kinds import AttackResolved, GrappleResolved, SpellStarted
from affray.events.sealed import Revealer


def _hit_quality(event: AttackResolved) -> Iterator[tuple[str, str]]:
    """E6: the hit quality is the hit chance less the roll and the armor value."""
    yield "/hit/quality", event.hit.roll.stream


def _grapple_quality(event: GrappleResolved) -> Iterator[tuple[str, str]]:
    """E15: the grapple's quality is its chance less the roll and the armor value."""
    yield "/quality", event.roll.stream


def _preparation(event: SpellStarted) -> Iterator[tuple[str, str]]:
    """E23: the preparation time is the roll's, known before the spell goes off."""
    if event.roll is not None:
        yield "/preparation_ms", event.roll.stream


REVEALERS: dict[type, Revealer] = {
    AttackResolved: _hit_quality,
    GrappleResolved: _grapple_quality,
    SpellStarted: _preparation,
}
"""Energion's revealers by kind."""
