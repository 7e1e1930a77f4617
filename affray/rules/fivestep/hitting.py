"""Percent to hit and grenades of the five-step system (seed 000), rules F1, F8 and F9.

Pure functions over ints and Decimals; the d100 (and d10) rolls are arguments. The tables the procedures
read (3-1, 3-2, 3-3.4, 3-4.0, 3-4.1, 3-7.x) are user-supplied (:mod:`.usertables`); a procedure whose table
the scenario does not supply raises MissingTable naming it. A result carries its derivation.

RULINGS (each also in docs/rulesets/fivestep.md):

- F1: hand to hand reaches up to and including 3 m; weaponry from 0.25 m to 3000 m, both included. An
  attack outside its reach fails without a roll (``out_of_reach``).
- F8: procedures 1 and 2 hit on a roll strictly *under* the chance, as printed ("under"). Option
  ``at_or_under``.
- F8: a range beyond Table 3-1's (or 3-2's) last row is off the table: the attack misses (``off_table``).
- F8: procedure 3: a result (Percent to Hit - Percent Against) of 0 or less misses with no roll: the text
  says negative misses and positive hits, and no d100 can be under 0. A positive result always hits: a
  roll more than 20 under it is a direct hit, any other roll (even one over it) a random hit, as printed.
  Option ``over_misses``: a roll at or over the result misses.
- F8: Table 3-2 is read for every procedure-3 attack, with no adversity modifiers too (a sum of 0): range
  alone may count against.
- F8: procedures 1 and 2 say nothing of where a hit lands: the referee names the part or rolls Table 3-3.4
  (as Damage procedure 1 says).
- F9: the check is against the *BRAWL attribute*, as printed ("under character's brawl attribute"); a
  caller may pass BRAWLmanship instead. Under it: lands exactly; from it up to 20 over (both included):
  bounces (Table 3-4.1); more than 20 over: misses, landing 1d10 + 13 m from the target hexagon, in a
  direction the text leaves to the referee.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Literal

import msgspec

from affray.rules.fivestep.usertables import AdversityTable, BounceRow, Tables, require

__all__ = [
    "DIRECT_MARGIN",
    "GRENADE_BOUNCE_LIMIT",
    "GRENADE_MISS_BASE_M",
    "HAND_TO_HAND_REACH_M",
    "WEAPONRY_MAX_M",
    "WEAPONRY_MIN_M",
    "Adversity",
    "CombatKind",
    "GrenadeThrow",
    "Outcome",
    "ToHit",
    "adversity_sum",
    "brawlmanship",
    "grenade",
    "in_reach",
    "marksmanship",
    "percent_to_hit_1",
    "percent_to_hit_2",
    "percent_to_hit_3",
    "random_hit_location",
    "throw_distance",
]

HAND_TO_HAND_REACH_M = Decimal(3)
"""Rule F1: hand-to-hand attacks cannot be used at over 3 m."""
WEAPONRY_MIN_M = Decimal("0.25")
"""Rule F1: weaponry combat occurs from 25 cm ..."""
WEAPONRY_MAX_M = Decimal(3000)
"""Rule F1: ... to 3 km."""
DIRECT_MARGIN = 20
"""Rule F8: a roll more than 20 under the result is a direct hit."""
GRENADE_BOUNCE_LIMIT = 20
"""Rule F9: a throw up to 20 over BRAWL bounces; more than 20 over misses."""
GRENADE_MISS_BASE_M = 13
"""Rule F9: a missed throw lands 1d10 + 13 m from the target hexagon."""

CombatKind = Literal["hand_to_hand", "weaponry"]
"""Rule F1: the two kinds of combat."""
Outcome = Literal["hit", "miss", "direct", "random", "out_of_reach", "off_table"]
"""Rule F8: ``hit`` and ``miss`` (procedures 1 and 2); ``direct`` and ``random`` hits and ``miss``
(procedure 3); ``out_of_reach`` (F1) and ``off_table`` (beyond Table 3-1 or 3-2) fail without a roll."""


def _d(value: int | Decimal) -> Decimal:
    return Decimal(value)


def _check_d100(roll: int) -> None:
    if not 1 <= roll <= 100:
        raise ValueError(f"a d100 roll is 1 to 100, got {roll}")


def marksmanship(aim: int, wep_dif: int) -> Decimal:
    """Rule F8: ``MARKS = (AIM + WEP DIF) / 2`` (AIM 65, WEP DIF 40: 52.5)."""
    return _d(aim + wep_dif) / 2


def brawlmanship(brawl: int, attack_dif: int) -> Decimal:
    """Rule F8: ``BRAWL = (BRAWL + ATTACK DIF) / 2`` (BRAWL 70, ATTACK DIF 30: 50)."""
    return _d(brawl + attack_dif) / 2


def in_reach(kind: CombatKind, range_m: Decimal) -> bool:
    """Rule F1: hand to hand within 3 m (3 m included); weaponry from 0.25 m to 3 km (both included)."""
    if kind == "hand_to_hand":
        return Decimal(0) <= range_m <= HAND_TO_HAND_REACH_M
    return WEAPONRY_MIN_M <= range_m <= WEAPONRY_MAX_M


class ToHit(msgspec.Struct, frozen=True, kw_only=True):
    """Rule F8: a percent-to-hit result with its derivation.

    ``skill`` is MARKS or BRAWL; ``percent_to_hit`` the chance (procedure 1: the skill; 2 and 3: Table
    3-1); ``modifier_sum`` and ``percent_against`` come from Tables 3-7.x and 3-2 (procedure 3);
    ``result`` is what the roll is compared with; ``under`` is ``result - roll`` (None with no roll).
    """

    procedure: Literal[1, 2, 3]
    outcome: Outcome
    skill: Decimal
    range_m: Decimal
    percent_to_hit: Decimal | None = None
    modifier_sum: Decimal | None = None
    percent_against: Decimal | None = None
    result: Decimal | None = None
    roll: int | None = None
    under: Decimal | None = None

    @property
    def hit(self) -> bool:
        """Whether the attack hits (plainly, directly or at random)."""
        return self.outcome in ("hit", "direct", "random")


def _rolled(
    procedure: Literal[1, 2], skill: Decimal, range_m: Decimal, chance: Decimal, roll: int, at_or_under: bool
) -> ToHit:
    _check_d100(roll)
    hit = roll <= chance if at_or_under else roll < chance
    return ToHit(
        procedure=procedure,
        outcome="hit" if hit else "miss",
        skill=skill,
        range_m=range_m,
        percent_to_hit=chance,
        result=chance,
        roll=roll,
        under=chance - roll,
    )


def percent_to_hit_1(
    skill: Decimal, roll: int, *, kind: CombatKind, range_m: Decimal, at_or_under: bool = False
) -> ToHit:
    """Rule F8, procedure 1: a d100 roll under MARKS (or BRAWL) hits (MARKS 52.5, roll 52: hit)."""
    if not in_reach(kind, range_m):
        return ToHit(procedure=1, outcome="out_of_reach", skill=skill, range_m=range_m)
    return _rolled(1, skill, range_m, skill, roll, at_or_under)


def percent_to_hit_2(
    tables: Tables,
    skill: Decimal,
    roll: int,
    *,
    kind: CombatKind,
    range_m: Decimal,
    at_or_under: bool = False,
) -> ToHit:
    """Rule F8, procedure 2: a d100 roll under Table 3-1's figure for MARKS (or BRAWL) at the range hits."""
    table = require(tables, "3-1", "procedure 2 to hit")
    if not in_reach(kind, range_m):
        return ToHit(procedure=2, outcome="out_of_reach", skill=skill, range_m=range_m)
    chance = table.lookup(range_m, skill)
    if chance is None:
        return ToHit(procedure=2, outcome="off_table", skill=skill, range_m=range_m)
    return _rolled(2, skill, range_m, chance, roll, at_or_under)


class Adversity(msgspec.Struct, frozen=True, kw_only=True):
    """Rule F8: one adversity condition that applies: the 3-7.x table it is in and its name there."""

    table: Literal["3-7.0", "3-7.1", "3-7.2", "3-7.3", "3-7.4"]
    condition: str


def adversity_sum(tables: Tables, conditions: Iterable[Adversity]) -> Decimal:
    """Rule F8, procedure 3b: the sum of the adversity modifiers of the conditions that apply, each from
    its Table 3-7.x (user-supplied)."""
    total = Decimal(0)
    for condition in conditions:
        table: AdversityTable = require(tables, condition.table, "procedure 3 to hit")
        total += table.named(condition.condition).modifier
    return total


def percent_to_hit_3(
    tables: Tables,
    skill: Decimal,
    conditions: Iterable[Adversity],
    roll: int | None,
    *,
    kind: CombatKind,
    range_m: Decimal,
    over_misses: bool = False,
) -> ToHit:
    """Rule F8, procedure 3: Percent to Hit (Table 3-1) less the Percent Against (the adversity sum vs
    range on Table 3-2). A result of 0 or less misses (``roll`` unused, may be None); above 0 it hits: a
    roll more than 20 under the result is a direct hit, otherwise a random one (Table 3-3.4).

    60 to hit - 15 against = 45; roll 20 is 25 under: direct; roll 30 is 15 under: random.
    """
    table_3_1 = require(tables, "3-1", "procedure 3 to hit")
    table_3_2 = require(tables, "3-2", "procedure 3 to hit")
    if not in_reach(kind, range_m):
        return ToHit(procedure=3, outcome="out_of_reach", skill=skill, range_m=range_m)
    to_hit = table_3_1.lookup(range_m, skill)
    modifiers = adversity_sum(tables, conditions)
    against = table_3_2.lookup(range_m, modifiers)
    if to_hit is None or against is None:
        return ToHit(procedure=3, outcome="off_table", skill=skill, range_m=range_m, modifier_sum=modifiers)
    result = to_hit - against
    base = ToHit(
        procedure=3,
        outcome="miss",
        skill=skill,
        range_m=range_m,
        percent_to_hit=to_hit,
        modifier_sum=modifiers,
        percent_against=against,
        result=result,
    )
    if result <= 0:
        return base
    if roll is None:
        raise ValueError(f"a result of {result} hits: procedure 3 needs the d100 roll that places it")
    _check_d100(roll)
    under = result - roll
    if over_misses and under <= 0:
        outcome: Outcome = "miss"
    else:
        outcome = "direct" if under > DIRECT_MARGIN else "random"
    return msgspec.structs.replace(base, outcome=outcome, roll=roll, under=under)


def roll_needed(result: ToHit, *, at_or_under: bool = False, over_misses: bool = False) -> str:
    """Rule F8: what the d100 needs, in words, for an attack the roll settles (``result`` judged with any
    roll: its figure does not depend on it). Procedures 1 and 2: under the chance (or at or under);
    procedure 3: more than 20 under the result is a direct hit, any other a random hit (or, with
    ``over_misses``, a miss at or over the result).

    Procedure 1 at 37.5: "under 37.5 to hit"; procedure 3 at 45: "under 25 for a direct hit, else random".
    """
    figure = result.result
    if figure is None:
        return ""
    shown = f"{figure.normalize():f}"
    if result.procedure != 3:
        return f"{'at or under' if at_or_under else 'under'} {shown} to hit"
    direct = f"{(figure - DIRECT_MARGIN).normalize():f}"
    if over_misses:
        return f"under {direct} for a direct hit, under {shown} for a random one"
    return f"under {direct} for a direct hit, else a random one"


def random_hit_location(tables: Tables, roll: int) -> str:
    """Rule F8: the body part a random hit strikes, a d100 on Table 3-3.4 (user-supplied)."""
    return require(tables, "3-3.4", "a random hit").part_for(roll)


# --- F9 grenades and explosives ---------------------------------------------------------------------


class GrenadeThrow(msgspec.Struct, frozen=True, kw_only=True):
    """Rule F9: where a grenade goes: ``exact`` (lands where aimed), ``bounce`` (``bounce`` is Table 3-4.1's
    row) or ``miss`` (``miss_m`` from the target hexagon)."""

    brawl: Decimal
    roll: int
    over: Decimal
    outcome: Literal["exact", "bounce", "miss"]
    bounce: BounceRow | None = None
    miss_m: int | None = None


def grenade(tables: Tables, brawl: Decimal, roll: int, miss_d10: int | None = None) -> GrenadeThrow:
    """Rule F9: a d100 under BRAWL lands exactly; up to 20 over bounces (Table 3-4.1, user-supplied);
    more than 20 over misses by ``miss_d10`` + 13 m (BRAWL 50: roll 49 exact, 62 bounces, 71 misses)."""
    _check_d100(roll)
    over = roll - brawl
    if over < 0:
        return GrenadeThrow(brawl=brawl, roll=roll, over=over, outcome="exact")
    if over <= GRENADE_BOUNCE_LIMIT:
        row = require(tables, "3-4.1", "a grenade bounce").row_for(over)
        return GrenadeThrow(brawl=brawl, roll=roll, over=over, outcome="bounce", bounce=row)
    if miss_d10 is None or not 1 <= miss_d10 <= 10:
        raise ValueError(f"a throw {over} over misses: it needs the 1d10 of the distance, got {miss_d10}")
    return GrenadeThrow(
        brawl=brawl, roll=roll, over=over, outcome="miss", miss_m=miss_d10 + GRENADE_MISS_BASE_M
    )


def throw_distance(tables: Tables, strength: int, weight_kg: Decimal) -> Decimal:
    """Rule F9: metres an object of ``weight_kg`` can be hurled by Physical Strength ``strength``
    (Table 3-4.0, user-supplied)."""
    return require(tables, "3-4.0", "a throw's distance").distance(strength, weight_kg)
