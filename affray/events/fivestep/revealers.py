"""Fivestep's fields that reveal a roll beyond the roll itself, which a players' copy withholds with the
rolls of sealed streams (affray.events.sealed). What a roll caused (surprise, the order of attack, a hit,
the points a part took) stays in the clear."""

from __future__ import annotations

from collections.abc import Iterator

from affray.events.fivestep.kinds import (
    DamageResolved,
    GrenadeThrown,
    PrimaryAttackRolled,
    SurpriseChecked,
    ToHitResolved,
)
from affray.events.sealed import Revealer

TO_HIT = "to hit"
"""The purpose of a fivestep to-hit roll's stream (F8)."""


def _margins(event: SurpriseChecked) -> Iterator[tuple[str, str]]:
    """F5: each side's margin is its figure less its roll."""
    for index, side in enumerate(event.margins):
        yield f"/margins/{index}/margin", side.roll.stream


def _scores(event: PrimaryAttackRolled) -> Iterator[tuple[str, str]]:
    """F6: each side's score is its roll less half its damage %."""
    for index, side in enumerate(event.scores):
        yield f"/scores/{index}/score", side.roll.stream


def _under(event: ToHitResolved) -> Iterator[tuple[str, str]]:
    """F8: how far under the chance the roll fell."""
    if event.roll is not None and event.under is not None:
        yield "/under", event.roll.stream


def _grazing(event: DamageResolved) -> Iterator[tuple[str, str]]:
    """F10: a grazing shot's %UNDER is the to-hit figure less the to-hit roll."""
    if event.grazing is not None:
        yield "/grazing/percent_under", f"{event.attacker}/{TO_HIT}"


def _over(event: GrenadeThrown) -> Iterator[tuple[str, str]]:
    """F9: how far over BRAWL the throw's roll went."""
    yield "/over", event.roll.stream


REVEALERS: dict[type, Revealer] = {
    SurpriseChecked: _margins,
    PrimaryAttackRolled: _scores,
    ToHitResolved: _under,
    DamageResolved: _grazing,
    GrenadeThrown: _over,
}
"""Fivestep's revealers by kind."""
