"""Grenades and explosives (rule F9): under BRAWL they land where aimed, up to 20 over they bounce (Table
3-4.1), more than 20 over they miss; everyone within the blast is hurt."""

from __future__ import annotations

from decimal import Decimal

from affray.events.fivestep.kinds import GrenadeThrown
from affray.events.fivestep.state import FivestepCombatant
from affray.handlers.fivestep.fighters import Arm, Fighter
from affray.handlers.fivestep.host import Arena, FivestepHost
from affray.handlers.fivestep.wounds import alert, hurt
from affray.kernel.space import distance, metres
from affray.rules.fivestep.dice import D10, D100
from affray.rules.fivestep.hitting import GRENADE_BOUNCE_LIMIT, grenade, random_hit_location

_HALF = Decimal("0.7071")
COMPASS: tuple[tuple[str, Decimal, Decimal], ...] = (
    ("north", Decimal(0), Decimal(1)),
    ("north-east", _HALF, _HALF),
    ("east", Decimal(1), Decimal(0)),
    ("south-east", _HALF, -_HALF),
    ("south", Decimal(0), Decimal(-1)),
    ("south-west", -_HALF, -_HALF),
    ("west", Decimal(-1), Decimal(0)),
    ("north-west", -_HALF, _HALF),
)
"""A bounce or a miss goes the way a d8 says (a ruling: the text leaves the direction to the referee)."""


def throw(
    encounter: Arena, battle: FivestepHost, fighter: Fighter, arm: Arm, target: FivestepCombatant
) -> None:
    """Rule F9: a grenade thrown at ``target``: under BRAWL it lands there; up to 20 over it bounces (Table
    3-4.1); more than 20 over it misses by 1d10 + 13 m. Everyone within its blast takes its damage."""
    live = encounter.state.combatants[fighter.id]
    aimed_at = target.position
    range_m = distance(live.position, aimed_at)
    brawl = Decimal(fighter.spec.brawl)

    def need() -> str:
        limit = brawl + GRENADE_BOUNCE_LIMIT
        return f"{fighter.id} throws at {target.id}: under {brawl} lands where aimed, to {limit} bounces (F9)"

    roll = encounter.dice.roll(fighter.id, "grenade", str(D100), need=need)
    miss = None
    if roll.total - brawl > GRENADE_BOUNCE_LIMIT:
        miss = encounter.dice.roll(fighter.id, "grenade miss", str(D10))
    thrown = grenade(battle.tables.user, brawl, roll.total, miss.total if miss is not None else None)
    off = Decimal(0)
    direction = None
    way = ""
    landed = aimed_at
    if thrown.outcome != "exact":
        off = thrown.bounce.distance_m if thrown.bounce is not None else Decimal(thrown.miss_m or 0)
        direction = encounter.dice.roll(fighter.id, "grenade direction", "1d8")
        way, dx, dy = COMPASS[direction.total - 1]
        landed = (metres(aimed_at[0] + dx * off), metres(aimed_at[1] + dy * off))
    encounter.emit(
        GrenadeThrown(
            thrower=fighter.id,
            target=target.id,
            weapon=arm.spec.name,
            range_m=range_m,
            max_range_m=arm.reach_m,
            brawl=fighter.spec.brawl,
            roll=roll,
            over=thrown.over,
            outcome=thrown.outcome,
            bounces=thrown.bounce.bounces if thrown.bounce is not None else None,
            note=thrown.bounce.note if thrown.bounce is not None else "",
            miss_roll=miss,
            direction_roll=direction,
            direction=way,
            off_m=off,
            aimed_at=aimed_at,
            landed=landed,
        )
    )
    blast = Decimal(str(arm.spec.blast_m))
    caught = [
        v for v in encounter.state.combatants.values() if not v.out and distance(v.position, landed) <= blast
    ]
    for victim in caught:
        roll = encounter.dice.roll(fighter.id, "hit location", str(D100))
        part = random_hit_location(battle.tables.user, roll.total)
        alert(encounter, battle, victim)
        hurt(encounter, battle, fighter, arm, victim, part, distance(victim.position, landed), None, roll)
    for victim in caught:
        battle.after_damage(encounter, victim.id)
