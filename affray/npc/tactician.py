"""A controller that uses its weapons well: shoots from afar with aim, fights hand to hand up close.

Every choice comes with its reason, recorded in the log with the target it picks.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from affray.kernel.clock import MS_PER_SECOND
from affray.kernel.state import CombatantState
from affray.npc.intents import (
    Aim,
    Approach,
    ArmView,
    Attack,
    BreakHold,
    Cast,
    ChangeWeapon,
    Charge,
    Flee,
    Grapple,
    Intent,
    View,
    Wait,
)
from affray.npc.nearest import Distances, nearest_enemy
from affray.rules.energion.ranged import range_band

FLEE_AT = Decimal("0.25")
"""At or below this share of its damage points left, it flees."""
FULL_COVER = 100
CHARGE_PACE = Decimal(4)
"""Faster than this (m/s) a melee fighter charges: the E21 damage multiple, speed / 4, exceeds 1."""
CLOSE_QUARTERS = Decimal(2)
"""An enemy this near (metres) is fought hand to hand if a melee weapon is carried."""
SHOOTING_DISTANCE = Decimal(10)
"""An enemy at least this far (metres) is worth shooting at rather than closing with."""
EXTRA_AIM_SECONDS = {"PTB": 0, "SHT": 0, "MED": 2, "LNG": 5, "EXT": 10}
"""Seconds of aim beyond the weapon's gap by range band: long shots pay for patience (rule E17)."""


class Tactician:
    """Nearest enemy first: a spell when one reaches it (unless a melee weapon is ready up close); a missile
    or hurled weapon from a distance, aimed by range; melee up close."""

    name = "tactician"

    def __init__(self) -> None:
        self.distances: Distances = {}

    def give_up(self, pieces: tuple[tuple[str, int], ...], units: int) -> list[str]:
        """Rule S3: the victim's pick of the equipment it loses: the kind it has most units of first."""
        return [name for name, left in sorted(pieces, key=lambda p: -p[1]) if left > 0]

    def decide(self, view: View) -> Intent | None:
        """Pick the weapon for the distance, then aim, shoot, strike or close in."""
        if view.me.held_by is not None:
            return BreakHold(reason=f"held by {view.me.held_by} ({view.me.hold}): try to break free")
        found = nearest_enemy(view, self.distances)
        if found is None:
            return None
        target, gap = found
        me = view.me
        if me.damage_left <= me.damage_points * FLEE_AT:
            return Flee(target=target.id, reason=f"badly hurt ({me.damage_left}/{me.damage_points} DP): flee")
        outmatched = me.damage_left * 2 < me.damage_points and target.damage_left > me.damage_left
        if outmatched and view.parries and gap <= view.arm.reach and target.weapon_ready:
            return Wait(
                seconds=1,
                reason=f"outmatched ({me.damage_left} DP to {target.damage_left}): parry rather than strike",
            )
        arm = view.arm
        close_in = _close_combat(view, target, gap)
        if close_in is not None:
            return close_in
        ready = view.me.weapon_ready and arm.usable
        spell = next((sp for sp in view.spells if gap <= sp.range_m), None)
        close = gap <= max(CLOSE_QUARTERS, arm.reach)
        if spell is not None and not (close and ready and arm.mode == "melee"):
            return Cast(
                spell=spell.index,
                target=target.id,
                reason=f"{target.id} at {gap} m, within {spell.name}'s {spell.range_m} m",
            )
        melee = _first(view, lambda a: a.mode == "melee")
        shooter = _first(
            view, lambda a: a.mode != "melee" and a.usable and range_band(a.ranges, gap) is not None
        )
        if arm.mode == "melee" and ready:
            if gap <= arm.reach:
                return Attack(target=target.id, reason=f"{target.id} within reach ({gap} m)")
            if shooter is not None and gap >= SHOOTING_DISTANCE:
                return ChangeWeapon(
                    index=shooter.index,
                    method="put_away",
                    reason=f"{target.id} is {gap} m away: put away the {arm.name} for the {shooter.name}",
                )
            if view.pace > CHARGE_PACE and not view.grapples:
                return Charge(
                    target=target.id, reason=f"charge {target.id}, {gap} m away, at {view.pace} m/s"
                )
            return Approach(target=target.id, reason=f"close with {target.id}, {gap} m away")
        if melee is not None and gap <= CLOSE_QUARTERS:
            return ChangeWeapon(
                index=melee.index,
                method="drop_and_grab",
                reason=f"{target.id} at close quarters ({gap} m): drop the {arm.name}, grab the {melee.name}",
            )
        if not ready:
            spare = shooter or melee
            if spare is None:
                return None
            reason = f"{arm.name} spent: take up the {spare.name}"
            if spare.index == arm.index:
                reason = f"{arm.name} thrown: take up the next ({spare.uses_left} left)"
            return ChangeWeapon(index=spare.index, method="drop_and_grab", reason=reason)
        band = range_band(arm.ranges, gap)
        if band is None and view.me.cover:
            return Wait(
                seconds=1, reason=f"hold cover until {target.id} ({gap} m) is within the {arm.name}'s range"
            )
        if band is None:
            return Approach(
                target=target.id, reason=f"{target.id} is {gap} m away, beyond the {arm.name}'s range"
            )
        hidden = target.cover >= FULL_COVER and (
            target.attacked_ms is None or view.now - target.attacked_ms >= MS_PER_SECOND
        )
        if hidden:
            return Aim(
                target=target.id, seconds=1, reason=f"{target.id} is in full cover: wait for it to shoot"
            )
        aimed = (
            view.now - me.aim_since_ms if me.aim_target == target.id and me.aim_since_ms is not None else 0
        )
        wanted = arm.speed_ms + EXTRA_AIM_SECONDS[band] * MS_PER_SECOND
        if aimed < wanted:
            seconds = -(-(wanted - aimed) // MS_PER_SECOND)
            return Aim(
                target=target.id,
                seconds=seconds,
                reason=f"{target.id} at {gap} m ({band}): aim {seconds} s more before the shot",
            )
        return Attack(
            target=target.id, reason=f"aimed {aimed / MS_PER_SECOND:g} s at {target.id}, {gap} m ({band})"
        )


def _close_combat(view: View, target: CombatantState, gap: Decimal) -> Intent | None:
    """At arm's length: a grappler's procedure (E15); a martial artist's kicks and punches (E13)."""
    if gap > 1:
        return None
    standing = not target.knocked_down and target.held_by is None
    if view.grapples and standing and view.me.holding is None:
        procedure = view.grapples[0]
        return Grapple(procedure=procedure, target=target.id, reason=f"{target.id} within reach: {procedure}")
    kick = _first(view, lambda a: a.martial == "kick")
    punch = _first(view, lambda a: a.martial == "punch")
    recovering = view.me.kicked_ms is not None and view.now - view.me.kicked_ms < MS_PER_SECOND
    if kick is not None and not recovering:
        return Attack(target=target.id, arm=kick.index, reason=f"kick {target.id}")
    if punch is not None:
        why = "punch: recovering from the kick" if recovering else f"punch {target.id}"
        return Attack(target=target.id, arm=punch.index, reason=why)
    return None


def _first(view: View, wanted: Callable[[ArmView], bool]) -> ArmView | None:
    return next((arm for arm in view.arms if wanted(arm)), None)
