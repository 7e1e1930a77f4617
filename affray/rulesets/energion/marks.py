"""The marks Energion's events leave on the clock (``affray timeline``, ``affray view``): perception,
reaction and battle initiative as spans (E1-E3), attacks and grapples as instants with their outcome and
damage, aiming until the shot (E17), casting until the spell or its interruption (E23), holds until they
are broken and knock-downs until the combatant stands (E15), disabled locations (E20)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from affray.events.base import Event
from affray.events.energion.kinds import (
    AimStarted,
    AttackResolved,
    GrappleResolved,
    HoldEscapeRolled,
    LocationDisabled,
    Perceived,
    Reacted,
    SpellCast,
    SpellInterrupted,
    SpellStarted,
    StoodUp,
    Waited,
    WeaponChanged,
    WeaponReadied,
)
from affray.events.energion.state import EnergionState
from affray.kernel.clock import MS_PER_SECOND
from affray.kernel.timeline import Close, Instant, InstantKind, Mark, Marker, Span

KNOCKED_DOWN = "knocked down"
_GRAPPLE_OUTCOMES: dict[str, InstantKind] = {"landed": "hit", "avoided": "parried", "miss": "miss"}


def _perceived(e: Perceived, s: EnergionState) -> Sequence[Mark]:
    return [Span(combatant=e.combatant, kind="perception", start=e.t - e.after_ms, end=e.t)]


def _reacted(e: Reacted, s: EnergionState) -> Sequence[Mark]:
    return [Span(combatant=e.combatant, kind="reaction", start=e.t - e.reaction_ms, end=e.t)]


def _readied(e: WeaponReadied, s: EnergionState) -> Sequence[Mark]:
    start = e.t - e.initiative_ms
    return [Span(combatant=e.combatant, kind="initiative", start=start, end=e.t, label=e.weapon)]


def _changed(e: WeaponChanged, s: EnergionState) -> Sequence[Mark]:
    return [Span(combatant=e.combatant, kind="initiative", start=e.t - e.took_ms, end=e.t, label=e.to_weapon)]


def _waited(e: Waited, s: EnergionState) -> Sequence[Mark]:
    end = e.t + e.seconds * MS_PER_SECOND
    return [Span(combatant=e.combatant, kind="action", start=e.t, end=end, label="waits")]


def _aim(e: AimStarted, s: EnergionState) -> Sequence[Mark]:
    return [Span(combatant=e.combatant, kind="aim", start=e.t, end=None, label=e.target)]


def _attack(e: AttackResolved, s: EnergionState) -> Sequence[Mark]:
    damage = e.damage.damage if e.damage is not None else None
    return [
        Close(combatant=e.attacker, kind="aim", at=e.t),
        Instant(combatant=e.attacker, kind=e.outcome, at=e.t, target=e.target, damage=damage, label=e.weapon),
    ]


def _spell_started(e: SpellStarted, s: EnergionState) -> Sequence[Mark]:
    end = e.t + e.preparation_ms + e.initiation_ms + e.casting_ms
    return [Span(combatant=e.combatant, kind="cast", start=e.t, end=end, label=e.spell)]


def _spell_cast(e: SpellCast, s: EnergionState) -> Sequence[Mark]:
    return [
        Instant(combatant=e.combatant, kind="hit", at=e.t, target=e.target, damage=e.damage, label=e.spell)
    ]


def _spell_interrupted(e: SpellInterrupted, s: EnergionState) -> Sequence[Mark]:
    return [
        Close(combatant=e.combatant, kind="cast", at=e.t),
        Instant(combatant=e.combatant, kind="lost", at=e.t, label=f"{e.spell}: {e.reason}"),
    ]


def _grapple(e: GrappleResolved, s: EnergionState) -> Sequence[Mark]:
    outcome = _GRAPPLE_OUTCOMES[e.outcome]
    damage = e.damage if e.outcome == "landed" else None
    marks: list[Mark] = [
        Instant(combatant=e.attacker, kind=outcome, at=e.t, target=e.target, damage=damage, label=e.procedure)
    ]
    if e.outcome != "landed":
        return marks
    if "KD" in e.effects:
        marks.append(Span(combatant=e.target, kind="condition", start=e.t, end=None, label=KNOCKED_DOWN))
    if s.combatants[e.target].held_by == e.attacker:
        marks.append(
            Span(combatant=e.target, kind="hold", start=e.t, end=None, label=f"held by {e.attacker}")
        )
    return marks


def _escape(e: HoldEscapeRolled, s: EnergionState) -> Sequence[Mark]:
    if not e.avoidance.avoided:
        return []
    return [Close(combatant=e.combatant, kind="hold", at=e.t)]


def _stood_up(e: StoodUp, s: EnergionState) -> Sequence[Mark]:
    return [Close(combatant=e.combatant, kind="condition", at=e.t, label=KNOCKED_DOWN)]


def _location(e: LocationDisabled, s: EnergionState) -> Sequence[Mark]:
    what = "mortal wound" if e.effect == "dead" else "unusable"
    return [Span(combatant=e.combatant, kind="condition", start=e.t, end=None, label=f"{e.location} {what}")]


MARKERS: Mapping[type[Event], Marker] = {
    Perceived: _perceived,
    Reacted: _reacted,
    WeaponReadied: _readied,
    WeaponChanged: _changed,
    Waited: _waited,
    AimStarted: _aim,
    AttackResolved: _attack,
    SpellStarted: _spell_started,
    SpellCast: _spell_cast,
    SpellInterrupted: _spell_interrupted,
    GrappleResolved: _grapple,
    HoldEscapeRolled: _escape,
    StoodUp: _stood_up,
    LocationDisabled: _location,
}
"""The marker of each Energion kind that leaves a mark."""
