"""What special damage destroys (rules S3, S5, S6): equipment and weapons, a computer's programs, and the
explosions of robots and computers."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from affray.events.base import Roll
from affray.events.special_damage.kinds import (
    BlastHit,
    EquipmentLost,
    Exploded,
    LostItem,
    ProgramsDestroyed,
    SpecialModifier,
)
from affray.events.special_damage.state import Carrier
from affray.handlers.special_damage.host import SpecialHost, SpecialProfile
from affray.handlers.special_damage.scenario import Program
from affray.kernel.encounter import Encounter
from affray.kernel.space import distance
from affray.rules.special_damage import rolls
from affray.rules.special_damage.tables import Explosion

PERCENT_DIE = "1d100"
SECURITY_PROGRAM = "computer security"


def lose_equipment(
    encounter: Encounter[Any], host: SpecialHost, defender: SpecialProfile, target: Carrier, units: int
) -> None:
    """S3: one time in ten a weapon instead; else the pieces the victim's controller gives up (by default
    the last listed first), two units of a kind it has more than one of."""
    special = target.special
    left = {e.name: e.count - special.lost.get(e.name, 0) for e in defender.traits.equipment}
    if not any(left.values()):
        return  # nothing to destroy: no roll for a weapon "instead of equipment"
    roll = encounter.dice.roll(target.id, "equipment", PERCENT_DIE)
    if rolls.weapon_instead(roll.total):
        names = [name for name in defender.weapons if name not in special.destroyed_weapons]
        if names:
            encounter.emit(EquipmentLost(combatant=target.id, weapon_roll=roll, weapon=names[-1]))
            return
    give_up = getattr(host.controllers.get(target.id), "give_up", last_listed_first)
    order = [name for name in give_up(tuple(left.items()), units) if name in left]
    order += [name for name in last_listed_first(tuple(left.items()), units) if name not in order]
    items: list[LostItem] = []
    for name in order:
        while units and left[name] > 0:
            lost = min(rolls.equipment_lost(1, left[name] > 1), left[name])
            left[name] -= lost
            units -= 1
            items.append(LostItem(name, lost))
    encounter.emit(EquipmentLost(combatant=target.id, weapon_roll=roll, items=_merged(items)))


def lose_programs(
    encounter: Encounter[Any],
    host: SpecialHost,
    defender: SpecialProfile,
    target: Carrier,
    roll: Roll,
    modifiers: list[SpecialModifier],
    total: int,
) -> None:
    """S6: programs destroyed lowest level first; the alarms of a Computer Security program that survives
    the damage (whether or not other programs were lost, and each alarm once); an explosion."""
    remaining = [p for p in defender.traits.programs if p.name not in target.special.programs_lost]
    count = rolls.programs_destroyed(total)
    order = sorted(range(len(remaining)), key=lambda i: remaining[i].level)
    gone = [remaining[i] for i in order[:count]]
    kept = [p for p in remaining if p not in gone]
    alarms = _alarms(remaining, kept, target.special.alarms)
    boom = rolls.explodes(count, len(remaining))
    encounter.emit(
        ProgramsDestroyed(
            computer=target.id,
            total=total,
            destroyed=tuple(p.name for p in gone),
            remaining=tuple(p.name for p in kept),
            alarms=alarms,
            explodes=boom,
            type_roll=roll,
            modifiers=tuple(modifiers),
        )
    )
    if boom:
        explode(encounter, host, target.id, rolls.COMPUTER_EXPLOSION)
        if not target.out:
            host.put_out(encounter, target.id, "exploded: more programs destroyed than it had")


def _alarms(remaining: list[Program], kept: list[Program], raised: list[str]) -> tuple[str, ...]:
    """S6: the alarms that sound, each once: a Computer Security program's that survives the damage."""
    had = any(p.name.casefold() == SECURITY_PROGRAM for p in remaining)
    security = [p for p in kept if p.name.casefold() == SECURITY_PROGRAM]
    if not rolls.alarms_set_off(had, security_destroyed=not security):
        return ()
    return tuple(a for p in security for a in p.alarms if a not in raised)


def explode(encounter: Encounter[Any], host: SpecialHost, source: str, blast: Explosion) -> None:
    """S5/S6: the dice to everyone within the radius; a Reaction Speed check (AG) halves it (ruling)."""
    combatants: dict[str, Carrier] = encounter.state.combatants
    centre = combatants[source].position
    roll = encounter.dice.roll(source, "explosion", blast.dice)
    hits = []
    for other in combatants.values():
        if other.id == source or other.out:
            continue
        gap = distance(centre, other.position)
        if gap > blast.radius_m:
            continue
        rs = host.profile(other.id).reaction_speed
        check = encounter.dice.roll(other.id, "rs-check", PERCENT_DIE)
        halved = check.total <= rs
        damage = Decimal(roll.total) / 2 if halved else Decimal(roll.total)
        hits.append(
            BlastHit(
                combatant=other.id,
                distance=gap,
                rs_target=rs,
                rs_roll=check,
                halved=halved,
                damage=damage,
            )
        )
    encounter.emit(Exploded(source=source, roll=roll, radius_m=blast.radius_m, hits=tuple(hits)))
    for hit in hits:
        host.after_damage(encounter, hit.combatant)


def last_listed_first(pieces: tuple[tuple[str, int], ...], units: int) -> list[str]:
    """The default pick (S3): the pieces listed last, taken to be the least valuable, go first."""
    return [name for name, left in reversed(pieces) if left > 0]


def _merged(items: list[LostItem]) -> tuple[LostItem, ...]:
    merged: dict[str, int] = {}
    for item in items:
        merged[item.name] = merged.get(item.name, 0) + item.units
    return tuple(LostItem(name, units) for name, units in merged.items())
