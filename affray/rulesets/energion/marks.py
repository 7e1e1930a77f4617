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
from affray.events.sealed import is_sealed
from affray.kernel.clock import MS_PER_SECOND
from affray.kernel.timeline import Close, Instant, InstantKind, Mark, Marker, Span

KNOCKED_DOWN = "knocked down"
_GRAPPLE_OUTCOMES: dict[str, InstantKind] = {"landed": "hit", "avoided": "parried", "miss": "miss"}


def _perceived(event: Perceived, state: EnergionState) -> Sequence[Mark]:
    return [Span(combatant=event.combatant, kind="perception", start=event.t - event.after_ms, end=event.t)]


def _reacted(event: Reacted, state: EnergionState) -> Sequence[Mark]:
    return [Span(combatant=event.combatant, kind="reaction", start=event.t - event.reaction_ms, end=event.t)]


def _readied(event: WeaponReadied, state: EnergionState) -> Sequence[Mark]:
    start = event.t - event.initiative_ms
    return [Span(combatant=event.combatant, kind="initiative", start=start, end=event.t, label=event.weapon)]


def _changed(event: WeaponChanged, state: EnergionState) -> Sequence[Mark]:
    return [
        Span(
            combatant=event.combatant,
            kind="initiative",
            start=event.t - event.took_ms,
            end=event.t,
            label=event.to_weapon,
        )
    ]


def _waited(event: Waited, state: EnergionState) -> Sequence[Mark]:
    end = event.t + event.seconds * MS_PER_SECOND
    return [Span(combatant=event.combatant, kind="action", start=event.t, end=end, label="waits")]


def _aim(event: AimStarted, state: EnergionState) -> Sequence[Mark]:
    return [Span(combatant=event.combatant, kind="aim", start=event.t, end=None, label=event.target)]


def _attack(event: AttackResolved, state: EnergionState) -> Sequence[Mark]:
    damage = event.damage.damage if event.damage is not None else None
    return [
        Close(combatant=event.attacker, kind="aim", at=event.t),
        Instant(
            combatant=event.attacker,
            kind=event.outcome,
            at=event.t,
            target=event.target,
            damage=damage,
            label=event.weapon,
        ),
    ]


def _spell_started(event: SpellStarted, state: EnergionState) -> Sequence[Mark]:
    """The casting, to its end; in a players' copy, whose preparation is sealed, to the spell's going
    off or being lost (a Close)."""
    end = (
        None
        if is_sealed(event.preparation_ms)
        else event.t + event.preparation_ms + event.initiation_ms + event.casting_ms
    )
    return [Span(combatant=event.combatant, kind="cast", start=event.t, end=end, label=event.spell)]


def _spell_cast(event: SpellCast, state: EnergionState) -> Sequence[Mark]:
    return [
        Close(combatant=event.combatant, kind="cast", at=event.t),
        Instant(
            combatant=event.combatant,
            kind="hit",
            at=event.t,
            target=event.target,
            damage=event.damage,
            label=event.spell,
        ),
    ]


def _spell_interrupted(event: SpellInterrupted, state: EnergionState) -> Sequence[Mark]:
    return [
        Close(combatant=event.combatant, kind="cast", at=event.t),
        Instant(combatant=event.combatant, kind="lost", at=event.t, label=f"{event.spell}: {event.reason}"),
    ]


def _grapple(event: GrappleResolved, state: EnergionState) -> Sequence[Mark]:
    outcome = _GRAPPLE_OUTCOMES[event.outcome]
    damage = event.damage if event.outcome == "landed" else None
    marks: list[Mark] = [
        Instant(
            combatant=event.attacker,
            kind=outcome,
            at=event.t,
            target=event.target,
            damage=damage,
            label=event.procedure,
        )
    ]
    if event.outcome != "landed":
        return marks
    if "KD" in event.effects:
        marks.append(
            Span(combatant=event.target, kind="condition", start=event.t, end=None, label=KNOCKED_DOWN)
        )
    if state.combatants[event.target].held_by == event.attacker:
        marks.append(
            Span(
                combatant=event.target,
                kind="hold",
                start=event.t,
                end=None,
                label=f"held by {event.attacker}",
            )
        )
    return marks


def _escape(event: HoldEscapeRolled, state: EnergionState) -> Sequence[Mark]:
    if not event.avoidance.avoided:
        return []
    return [Close(combatant=event.combatant, kind="hold", at=event.t)]


def _stood_up(event: StoodUp, state: EnergionState) -> Sequence[Mark]:
    return [Close(combatant=event.combatant, kind="condition", at=event.t, label=KNOCKED_DOWN)]


def _location(event: LocationDisabled, state: EnergionState) -> Sequence[Mark]:
    what = "mortal wound" if event.effect == "dead" else "unusable"
    return [
        Span(
            combatant=event.combatant,
            kind="condition",
            start=event.t,
            end=None,
            label=f"{event.location} {what}",
        )
    ]


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
