"""The fivestep ruleset's events (seed 000): rounds, surprise, primary attack, turns and Agility Points,
percent to hit, grenades and damage to body parts (rules F1-F13).

Each step's event names the procedure that produced it (``procedure``), so a log shows how the referee
chose to run every step. Outcome events carry their derivation: rolls, table figures, and the rows read.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

import msgspec

from affray.events.base import ActorId, CombatantId, Event, Position, Roll
from affray.events.fivestep.steps import Step
from affray.events.shared import CombatantJoined as Joined
from affray.events.shared import Score


class BodyPart(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Rule F11: a body part and its damage points when undamaged."""

    name: str
    points: int


class CombatantJoined(Joined, frozen=True, kw_only=True, tag="combatant_joined", omit_defaults=True):
    """A fivestep character enters the encounter (when its side joins, rule F6) with its body's parts."""

    weapon: str
    """Its first weapon's name ("" for none)."""
    armor: str
    """Always "": fivestep has no armor; the member stays so that lines read as they always have."""
    body: Literal["living", "robot", "computer"] = "living"
    """What special damage does to it (its scenario ``kind``)."""
    parts: tuple[BodyPart, ...]
    """Rule F11: its body parts and their damage points; ``damage_points`` is their sum."""


class SideMargin(msgspec.Struct, frozen=True, kw_only=True, gc=False, omit_defaults=True):
    """Rule F5: one side's surprise figure, its roll and how far under the figure it rolled."""

    side: str
    perception: Decimal
    """The side's average Perception (F2)."""
    alertness: Decimal | None = None
    """Procedure 2: the side's Alertness %; procedure 3: its members' Alertness Conditions averaged."""
    target: Decimal
    roll: Roll
    margin: Decimal


class SurpriseChecked(Event, frozen=True, kw_only=True, tag="surprise_checked"):
    """Rule F5: every side rolled for surprise; ``winner`` alone acts this round, the others are surprised.
    A ``tie`` at the top is rolled again (the next event)."""

    round: int
    procedure: Literal[1, 2, 3]
    reason: str
    margins: tuple[SideMargin, ...]
    outcome: Literal["surprise", "tie", "none"]
    winner: str | None = None
    surprised: tuple[str, ...] = ()


class SideScore(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Rule F6: one side's primary attack roll, the damage % that moved it (procedure 2), and its score."""

    side: str
    roll: Roll
    damage_percent: Decimal
    score: Decimal


class PrimaryAttackRolled(Event, frozen=True, kw_only=True, tag="primary_attack_rolled", omit_defaults=True):
    """Rule F6: the sides' attack order, lowest score first. ``sole_attack``: the first side is 30 or more
    ahead and has the only attack; ``passed``: the side that passed acts last; ``joiner``: a side joining
    the fight was slotted into the order. A ``tie`` is rolled again."""

    round: int
    procedure: Literal[1, 2, 3]
    each_round: Literal[1, 2] | None = None
    """Procedure 3: the procedure it performs every round (1 or 2, the GM's choice)."""
    scores: tuple[SideScore, ...]
    outcome: Literal["order", "tie"]
    order: tuple[str, ...] = ()
    sole_attack: bool = False
    passed: str | None = None
    joiner: str | None = None


class RoundStarted(Event, frozen=True, kw_only=True, tag="round_started"):
    """Rules F3, F4: a round of 5 s begins; ``acting`` are the sides that take a turn, in order."""

    round: int
    acting: tuple[str, ...]
    reason: str
    pieces: int
    """Rule F7: the sub-turns each turn is cut into (1: whole turns)."""


class TurnStarted(Event, frozen=True, kw_only=True, tag="turn_started"):
    """Rule F7: a character's turn (or one sub-turn of it) begins, with the Agility Points it may spend.

    ``agility`` is a full turn's points (the attribute; under action procedure 1 the actions the referee
    allows); ``available`` is what this piece may spend, points carried from the turn's earlier pieces
    included; ``owed`` are points the previous turn borrowed from this one.
    """

    combatant: ActorId
    round: int
    piece: int
    pieces: int
    agility: int
    available: int
    owed: int = 0
    no_move: bool = False
    end_ms: int


class ApBorrowed(Event, frozen=True, kw_only=True, tag="ap_borrowed", omit_defaults=True):
    """Rule F7: ``points`` of the next turn borrowed for ``gained`` now, at 3 for 1."""

    combatant: ActorId
    points: int
    gained: int
    next_turn_left: int
    reason: str = ""


class StepChosen(Event, frozen=True, kw_only=True, tag="step_chosen", omit_defaults=True):
    """A character played from outside affray chose the next step of its declaration (rule F7): its
    controller (the scenario's ``package.module:factory``, or ``external``), the step with its reason
    (None: the declaration is complete), and the scores it gave its options. A re-simulation takes the
    recorded step instead of asking."""

    combatant: ActorId
    controller: str
    step: Step | None
    scores: tuple[Score, ...] = ()


class ActionTaken(Event, frozen=True, kw_only=True, tag="action_taken", omit_defaults=True):
    """Rule F7 (step 3): an action done, what it cost, and when its points ran out.

    Procedure 1 counts actions, not points (each costs 1 of the turn's allowance); procedure 2 costs the
    Table 3-6 row ``action``.
    """

    combatant: ActorId
    procedure: Literal[1, 2]
    action: str
    purpose: Literal["move", "attack", "throw"]
    times: int = 1
    """How many times the action was done (a move of 4 m is "run 1 m" four times)."""
    cost: int
    available: int
    elapsed_ms: int
    """Time from the start of the piece to the end of this action (0.5 s per 10 % of the points)."""
    controller: str = ""
    reason: str = ""
    """Why the character's controller declared it."""


class AdversityApplied(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Rule F8 (procedure 3b): one adversity condition that applied, from its Table 3-7.x row."""

    table: str
    condition: str
    modifier: Decimal


class ToHitResolved(Event, frozen=True, kw_only=True, tag="to_hit_resolved", omit_defaults=True):
    """Rules F1, F8 (step 4): an attack's percent to hit, by ``procedure``, and where a hit lands.

    ``skill`` is MARKS = (AIM + WEP DIF) / 2 or BRAWL = (BRAWL + ATTACK DIF) / 2; ``chance`` is what the d100
    is rolled under (procedure 1: the skill; 2: Table 3-1; 3: Percent to Hit - Percent Against).
    """

    attacker: ActorId
    target: CombatantId
    weapon: str
    procedure: Literal[1, 2, 3]
    combat: Literal["hand_to_hand", "weaponry"]
    range_m: Decimal
    skill_name: Literal["MARKS", "BRAWL"]
    attribute: int
    difficulty: int
    skill: Decimal
    injury: int = 0
    """The special_damage module's to-hit penalties of the attacker's injuries, in MARKS or BRAWL."""
    outcome: Literal["hit", "miss", "direct", "random", "out_of_reach", "off_table"]
    percent_to_hit: Decimal | None = None
    adversity: tuple[AdversityApplied, ...] = ()
    modifier_sum: Decimal | None = None
    percent_against: Decimal | None = None
    chance: Decimal | None = None
    roll: Roll | None = None
    under: Decimal | None = None
    part: str | None = None
    part_roll: Roll | None = None
    ruled_modifier: int = 0
    """A referee's ruling: points added to ``skill`` (already in it), as injuries are."""
    ruled_miss: bool = False
    """A referee's ruling: the attack is a miss whatever its roll (``outcome`` is then "miss")."""


class GrenadeThrown(Event, frozen=True, kw_only=True, tag="grenade_thrown", omit_defaults=True):
    """Rule F9: a grenade or explosive thrown at ``target``: under BRAWL exact, up to 20 over a bounce
    (Table 3-4.1), more than 20 over a miss by 1d10 + 13 m; ``direction`` (a d8 compass point, a ruling)
    says which way a bounce or miss went."""

    thrower: ActorId
    target: CombatantId
    weapon: str
    range_m: Decimal
    max_range_m: Decimal
    brawl: int
    roll: Roll
    over: Decimal
    outcome: Literal["exact", "bounce", "miss"]
    bounces: int | None = None
    note: str = ""
    miss_roll: Roll | None = None
    direction_roll: Roll | None = None
    direction: str = ""
    off_m: Decimal = Decimal(0)
    aimed_at: Position
    landed: Position


class DieRoll(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Rule F10 (procedure 2): the DAMAGE DIE ROLL "X+Y" and its d10s: whole dice, a fractional die's
    points, and Y."""

    expression: str
    roll: Roll
    whole_dice: int
    fraction_points: int
    bonus: int


class WepModRead(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Rule F10 (procedure 3): the WEP MOD row and range band of Table 3-3 that gave the points."""

    wep_mod: int
    band_bound_m: Decimal


class Grazing(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Rule F10: a grazing shot: the points scaled by %UNDER / the figure the d100 was rolled under."""

    target: Decimal
    percent_under: Decimal
    points_before: int


class OrganEffect(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Rule F12: one organ system's damage value (tissue % x Table 3-3.1's factor) and its 3-15.x row."""

    system: str
    factor: Decimal
    value: Decimal
    effect: str | None


class DamageResolved(Event, frozen=True, kw_only=True, tag="damage_resolved", omit_defaults=True):
    """Rules F10, F11, F12 (step 5): the points a hit did to one body part, by ``procedure``, and what the
    part is left with: its damage percentage and category, structure and function lost, destruction, the
    description (Tables 3-8 to 3-14) and organ system effects (3-15.x) when the scenario supplies them."""

    attacker: ActorId
    target: CombatantId
    weapon: str
    procedure: Literal[2, 3]
    part: str
    range_m: Decimal
    die_roll: DieRoll | None = None
    wep_mod: WepModRead | None = None
    grazing: Grazing | None = None
    blast: bool = False
    part_roll: Roll | None = None
    """A blast's d100 on Table 3-3.4 for the part it strikes."""
    points: int
    part_taken: int
    part_points: int
    percentage: Decimal
    category: int | None = None
    structure_lost: int
    function_left: int
    functional: bool
    destroyed: bool = False
    damage_type: str = ""
    description: str | None = None
    organs: tuple[OrganEffect, ...] = ()
    ruled_points: int | None = None
    """What a referee's ruling added to the hit's points (taken off, if negative; never below 0), already
    in ``points``."""


class PoisonResolved(Event, frozen=True, kw_only=True, tag="poison_resolved"):
    """Rule F12: a poison or drug delivered by a hit: its WEP MOD's points on Table 3-3 (ignored as tissue
    damage) as a percentage of the part's points, read on the organ tables of the systems it affects."""

    attacker: ActorId
    target: CombatantId
    weapon: str
    part: str
    wep_mod: WepModRead
    points: int
    tissue_percentage: Decimal
    organs: tuple[OrganEffect, ...]


class AlertnessRaised(Event, frozen=True, kw_only=True, tag="alertness_raised"):
    """Rule F5: an attack raised the alertness of a side (surprise procedure 2) or a character
    (procedure 3), by the scenario's amount, at most to 100."""

    who: str
    before: int
    after: int
