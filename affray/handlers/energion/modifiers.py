"""What modifies an Energion chance to hit, as the (name, value, rule) entries a hit's derivation records:
those a weapon always carries (E12, E13), worked out once with the loadout, and those a moment brings
(S4, S5, a referee's ruling), worked out at each attack. A new modifier is one entry here."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from affray.events.energion.kinds import INJURIES, MARTIAL_ARTS, PROFICIENCY, RULING, Modifier
from affray.events.energion.state import EnergionCombatant


def carried(proficiency: int, open_hand: Decimal) -> tuple[Modifier, ...]:
    """A weapon's own modifiers: its proficiency (E12) and a martial artist's open-hand bonus (E13)."""
    return _kept(
        (
            Modifier(name=PROFICIENCY, value=Decimal(proficiency), rule="E12"),
            Modifier(name=MARTIAL_ARTS, value=open_hand, rule="E13"),
        )
    )


def of_the_moment(attacker: EnergionCombatant, now: int, ruling: int = 0) -> tuple[Modifier, ...]:
    """What the moment ``now`` adds to ``attacker``'s chance: its injuries' penalty (S4, S5) and a
    referee's ruling."""
    injuries = attacker.special.to_hit()
    if not injuries and not ruling:
        return ()
    return _kept(
        (
            Modifier(name=INJURIES, value=Decimal(injuries), rule="S4, S5"),
            Modifier(name=RULING, value=Decimal(ruling), rule="ruling"),
        )
    )


def hit_chance(base: Decimal, modifiers: Iterable[Modifier]) -> Decimal:
    """Rule E4: a chance to hit, ``base`` with ``modifiers`` added."""
    return base + sum((m.value for m in modifiers), Decimal(0))


def _kept(modifiers: tuple[Modifier, ...]) -> tuple[Modifier, ...]:
    """Those that change the chance."""
    return tuple(m for m in modifiers if m.value)
