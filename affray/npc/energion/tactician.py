"""A controller that uses its weapons well: shoots from afar with aim, fights hand to hand up close.

It weighs its options in a fixed rank, from the most pressing (break a hold, flee when badly hurt) to the
default (shoot when aimed); the first option that applies gives the intent, with its reason, which the
log records with the target it picks.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Literal

import msgspec

from affray.kernel.clock import MS_PER_SECOND
from affray.npc.energion.intents import (
    Aim,
    Approach,
    Attack,
    BreakHold,
    Cast,
    ChangeWeapon,
    Charge,
    Flee,
    Grapple,
    Intent,
    Surrender,
    Wait,
)
from affray.npc.energion.view import ArmView, Seen, View
from affray.npc.targeting import TargetMemory
from affray.rules.energion.ranged import aim_start, range_band

FLEE_AT = Decimal("0.25")
"""At or below this share of its damage points left, it flees."""
NO_GROUND_MS = 10 * MS_PER_SECOND
"""A flight whose gap to the nearest enemy has not grown by GROUND_M in this long cannot succeed."""
GROUND_M = Decimal(1)
FULL_COVER = 100
CHARGE_PACE = Decimal(4)
"""Faster than this (m/s) a melee fighter charges: the E21 damage multiple, speed / 4, exceeds 1."""
CLOSE_QUARTERS = Decimal(2)
"""An enemy this near (metres) is fought hand to hand if a melee weapon is carried."""
BLOW_REACH = Decimal(1)
"""How near an enemy coming on must be to strike: the common melee reach (metres)."""
SHOOTING_DISTANCE = Decimal(10)
"""An enemy at least this far (metres) is worth shooting at rather than closing with."""
EXTRA_AIM_SECONDS = {"PTB": 0, "SHT": 0, "MED": 2, "LNG": 5, "EXT": 10}
"""Seconds of aim beyond the weapon's gap by range band: long shots pay for patience (rule E17)."""


class Situation(msgspec.Struct, frozen=True, kw_only=True):
    """What the options weigh: the view, the enemy chosen and how far it is, the weapon in hand."""

    view: View
    target: Seen
    gap: Decimal
    arm: ArmView
    ready: bool
    """The weapon in hand is ready and has uses left."""
    cornered: bool = False
    """It has given up fleeing and stands (ruling 48)."""
    arrives_ms: int | None = None
    """How soon the target, coming on, will be within a blow's reach (None: it is not coming on)."""

    @property
    def me(self) -> Seen:
        """The tactician's own combatant."""
        return self.view.me

    @property
    def aimed_ms(self) -> int:
        """How long it has aimed at the target, its aim unspoiled (E17)."""
        me = self.me
        since, _ = aim_start(me.aim_target, me.aim_since_ms, self.target.id, self.target.course_changed_ms)
        return self.view.now - since if since is not None else 0

    def first(self, wanted: Callable[[ArmView], bool]) -> ArmView | None:
        """The first carried weapon that is ``wanted``."""
        return next((arm for arm in self.view.arms if wanted(arm)), None)

    def shooter(self) -> ArmView | None:
        """A usable missile or hurled weapon that reaches the target."""
        return self.first(
            lambda a: a.mode != "melee" and a.usable and range_band(a.ranges, self.gap) is not None
        )


class GiveUp(msgspec.Struct, frozen=True):
    """An option's verdict that there is nothing left to do (no intent at all)."""


GIVE_UP = GiveUp()
Option = Callable[[Situation], Intent | GiveUp | None]


def flee(s: Situation) -> Intent | None:
    """Badly hurt: run from the enemy."""
    me = s.me
    if not s.cornered and me.damage_left <= me.damage_points * FLEE_AT:
        return Flee(target=s.target.id, reason=f"badly hurt ({me.damage_left}/{me.damage_points} DP): flee")
    return None


def parry_instead(s: Situation) -> Intent | None:
    """Outmatched by a ready enemy within reach: keep the parry for its blows."""
    me, target = s.me, s.target
    outmatched = me.damage_left * 2 < me.damage_points and target.damage_left > me.damage_left
    if outmatched and s.view.parries and s.gap <= s.arm.reach and target.weapon_ready:
        return Wait(
            seconds=1,
            reason=f"outmatched ({me.damage_left} DP to {target.damage_left}): parry rather than strike",
        )
    return None


def grapple(s: Situation) -> Intent | None:
    """At arm's length, a grappler tries its procedure on a standing enemy (E15)."""
    target = s.target
    standing = not target.knocked_down and target.held_by is None
    if s.gap <= 1 and s.view.grapples and standing and s.me.holding is None:
        procedure = s.view.grapples[0]
        return Grapple(procedure=procedure, target=target.id, reason=f"{target.id} within reach: {procedure}")
    return None


def kick_or_punch(s: Situation) -> Intent | None:
    """At arm's length, a martial artist kicks, or punches in the second after a kick (E13)."""
    if s.gap > 1:
        return None
    kick = s.first(lambda a: a.martial == "kick")
    punch = s.first(lambda a: a.martial == "punch")
    kicked = s.me.kicked_ms
    recovering = kicked is not None and s.view.now - kicked < MS_PER_SECOND
    if kick is not None and not recovering:
        return Attack(target=s.target.id, arm=kick.index, reason=f"kick {s.target.id}")
    if punch is not None:
        why = "punch: recovering from the kick" if recovering else f"punch {s.target.id}"
        return Attack(target=s.target.id, arm=punch.index, reason=why)
    return None


def cast(s: Situation) -> Intent | None:
    """A spell that reaches, unless a ready melee weapon is already up close."""
    spell = next((sp for sp in s.view.spells if s.gap <= sp.range_m), None)
    close = s.gap <= max(CLOSE_QUARTERS, s.arm.reach)
    if spell is None or (close and s.ready and s.arm.mode == "melee"):
        return None
    return Cast(
        spell=spell.index,
        target=s.target.id,
        reason=f"{s.target.id} at {s.gap} m, within {spell.name}'s {spell.range_m} m",
    )


def draw(s: Situation) -> Intent | None:
    """A caster that did not cast first readies its weapon (its battle initiative, E1, E3)."""
    if s.me.readied or not s.arm.usable:
        return None
    return ChangeWeapon(index=s.arm.index, method="drop_and_grab", reason=f"ready the {s.arm.name}")


def melee(s: Situation) -> Intent | None:
    """With a ready melee weapon: strike within reach; else take up a shooter for a far enemy, charge when
    fast enough, or close in."""
    arm, target, gap = s.arm, s.target, s.gap
    if arm.mode != "melee" or not s.ready:
        return None
    if gap <= arm.reach:
        return Attack(target=target.id, reason=f"{target.id} within reach ({gap} m)")
    shooter = s.shooter()
    if shooter is not None and gap >= SHOOTING_DISTANCE:
        return ChangeWeapon(
            index=shooter.index,
            method="put_away",
            reason=f"{target.id} is {gap} m away: put away the {arm.name} for the {shooter.name}",
        )
    if s.view.pace > CHARGE_PACE and not s.view.grapples:
        return Charge(target=target.id, reason=f"charge {target.id}, {gap} m away, at {s.view.pace} m/s")
    return Approach(target=target.id, reason=f"close with {target.id}, {gap} m away")


def draw_melee(s: Situation) -> Intent | None:
    """At close quarters with a missile in hand: drop it and grab the melee weapon."""
    weapon = s.first(lambda a: a.mode == "melee")
    if weapon is None or s.gap > CLOSE_QUARTERS:
        return None
    return ChangeWeapon(
        index=weapon.index,
        method="drop_and_grab",
        reason=f"{s.target.id} at close quarters ({s.gap} m): drop the {s.arm.name}, grab the {weapon.name}",
    )


def rearm(s: Situation) -> Intent | GiveUp | None:
    """The weapon in hand is spent or thrown: take up the next, or give up with nothing left."""
    if s.ready:
        return None
    spare = s.shooter() or s.first(lambda a: a.mode == "melee")
    if spare is None:
        return GIVE_UP
    reason = f"{s.arm.name} spent: take up the {spare.name}"
    if spare.index == s.arm.index:
        reason = f"{s.arm.name} thrown: take up the next ({spare.uses_left} left)"
    return ChangeWeapon(index=spare.index, method="drop_and_grab", reason=reason)


def out_of_range(s: Situation) -> Intent | None:
    """Beyond the weapon's range: hold cover and wait, or come nearer."""
    if range_band(s.arm.ranges, s.gap) is not None:
        return None
    if s.me.cover:
        return Wait(
            seconds=1, reason=f"hold cover until {s.target.id} ({s.gap} m) is within the {s.arm.name}'s range"
        )
    return Approach(
        target=s.target.id, reason=f"{s.target.id} is {s.gap} m away, beyond the {s.arm.name}'s range"
    )


def wait_for_exposure(s: Situation) -> Intent | None:
    """A target in full cover shows itself only in the second of its own attack (E16): aim until then."""
    attacked = s.target.attacked_ms
    hidden = s.target.cover >= FULL_COVER and (attacked is None or s.view.now - attacked >= MS_PER_SECOND)
    if hidden:
        return Aim(
            target=s.target.id, seconds=1, reason=f"{s.target.id} is in full cover: wait for it to shoot"
        )
    return None


def meet_the_charge(s: Situation) -> Intent | None:
    """An enemy coming on that will be within reach before the shot is aimed (E17) is met with the melee
    weapon instead, grabbed in time (E3: 1 s and its initiative) with a second to spare."""
    arrives, weapon = s.arrives_ms, s.first(lambda a: a.mode == "melee")
    if arrives is None or weapon is None or s.arm.speed_ms - s.aimed_ms <= arrives:
        return None
    if arrives > MS_PER_SECOND + weapon.initiative_ms + MS_PER_SECOND:
        return None  # time yet: aim on, in case it stops
    return ChangeWeapon(
        index=weapon.index,
        method="drop_and_grab",
        reason=f"{s.target.id} will be on it in {arrives / MS_PER_SECOND:.1f} s, before an aimed shot: "
        f"drop the {s.arm.name}, grab the {weapon.name}",
    )


def shoot(s: Situation) -> Intent:
    """Aim for the range band's seconds beyond the gap (E17), a second at a time, then shoot: sooner, as
    soon as the gap is aimed, when the target coming on would arrive before the extra aim; at once at a
    target in full cover that shows itself for the second of its own shot (E16), too short to aim at."""
    target, arm = s.target, s.arm
    band = range_band(arm.ranges, s.gap)
    assert band is not None  # out_of_range came first
    if target.cover >= FULL_COVER:
        return Attack(target=target.id, reason=f"{target.id} shows itself to shoot: shoot back at once")
    aimed, wanted = s.aimed_ms, arm.speed_ms + EXTRA_AIM_SECONDS[band] * MS_PER_SECOND
    hurried = s.arrives_ms is not None and aimed >= arm.speed_ms and s.arrives_ms < wanted - aimed
    if aimed < wanted and not hurried:
        seconds = -(-(wanted - aimed) // MS_PER_SECOND)
        return Aim(
            target=target.id,
            seconds=1,
            reason=f"{target.id} at {s.gap} m ({band}): aim {seconds} s more before the shot",
        )
    coming = f", before it arrives in {(s.arrives_ms or 0) / MS_PER_SECOND:.1f} s" if hurried else ""
    return Attack(
        target=target.id,
        reason=f"aimed {aimed / MS_PER_SECOND:g} s at {target.id}, {s.gap} m ({band}){coming}",
    )


OPTIONS: tuple[Option, ...] = (
    flee,
    parry_instead,
    grapple,
    kick_or_punch,
    cast,
    draw,
    melee,
    draw_melee,
    rearm,
    out_of_range,
    wait_for_exposure,
    meet_the_charge,
    shoot,
)
"""The tactician's options, most pressing first."""


class Flight(msgspec.Struct, frozen=True):
    """How a flight is going: the widest gap to the nearest enemy it has opened, and when."""

    gap: Decimal
    since_ms: int


class Closing(msgspec.Struct, frozen=True):
    """An enemy's gap when last looked at, and how soon it would then arrive (None: not coming on)."""

    at: int
    gap: Decimal
    arrives_ms: int | None


class Tactician:
    """Nearest enemy first: a spell when one reaches it (unless a melee weapon is ready up close); a missile
    or hurled weapon from a distance, aimed by range; melee up close. A flight that gains no ground for
    10 s ends as ``cornered`` says: it surrenders, or stands and fights on (ruling 48)."""

    name = "tactician"

    def __init__(self, cornered: Literal["surrender", "stand"] = "surrender") -> None:
        self.memory = TargetMemory()
        self.when_cornered = cornered
        self.flight: Flight | None = None
        self.cornered = False
        self.closing: dict[str, Closing] = {}

    def give_up(self, pieces: tuple[tuple[str, int], ...], units: int) -> list[str]:
        """Rule S3: the victim's pick of the equipment it loses: the kind it has most units of first."""
        return [name for name, left in sorted(pieces, key=lambda p: -p[1]) if left > 0]

    def decide(self, view: View) -> Intent | None:
        """Break a hold if held; else weigh the options against the nearest enemy."""
        if view.me.held_by is not None:
            return BreakHold(reason=f"held by {view.me.held_by} ({view.me.hold}): try to break free")
        chosen = self.memory.nearest(view.me, view.field, view.now, view.priority)
        if chosen is None:
            return None
        contact, gap = chosen
        arm = view.arm
        situation = Situation(
            view=view,
            target=view.look(contact.id),
            gap=gap,
            arm=arm,
            ready=view.me.weapon_ready and arm.usable,
            cornered=self.cornered,
            arrives_ms=self._arrival(contact.id, gap, view.now),
        )
        choice = _weigh(situation)
        if not isinstance(choice, Flee):
            self.flight = None
            return choice
        if self.flight is None or gap >= self.flight.gap + GROUND_M:
            self.flight = Flight(gap, view.now)
        elif view.now - self.flight.since_ms >= NO_GROUND_MS:
            return self._cornered(situation)
        return choice

    def _arrival(self, target: str, gap: Decimal, now: int) -> int | None:
        """How soon ``target`` will be within a blow's reach at the pace it closed the gap since last
        seen (None: it did not come nearer, or this is the first look at it)."""
        last = self.closing.get(target)
        if last is not None and last.at == now:
            return last.arrives_ms
        arrives = None
        if last is not None and gap < last.gap:
            pace = (last.gap - gap) / (now - last.at)  # metres per ms
            arrives = int(max(gap - BLOW_REACH, Decimal(0)) / pace)
        self.closing[target] = Closing(now, gap, arrives)
        return arrives

    def _cornered(self, situation: Situation) -> Intent | None:
        """Ruling 48: the flight has gained no ground on the nearest enemy for 10 s."""
        why = f"gained no ground on {situation.target.id} in {NO_GROUND_MS // MS_PER_SECOND} s of flight"
        if self.when_cornered == "surrender":
            return Surrender(reason=why)
        self.cornered, self.flight = True, None
        return _weigh(msgspec.structs.replace(situation, cornered=True))


def _weigh(situation: Situation) -> Intent | None:
    """The first option that applies, in rank."""
    for option in OPTIONS:
        choice = option(situation)
        if isinstance(choice, GiveUp):
            return None
        if choice is not None:
            return choice
    return None
