"""Grappling on the clock (rule E15): a procedure's attack against its armor, the target's avoidance,
the damage and effects; holds that last until the held combatant's avoidance roll breaks them.

The procedures come from the packaged table (rules/energion/data/grappling.toml). A procedure's attack uses
the attacker's combat skill and melee bonus (E4); "Normal" armor is the target's armor against the body
weapon type (the kick's for a double kick) with its shield's plus, "AG/Luck" armor its luck armor plus a
quarter of its agility bonus (its dodge), which an unaware target loses (E24).
"""

from __future__ import annotations

from decimal import Decimal

from affray.events.base import Roll
from affray.events.energion.kinds import AvoidanceRoll, GrappleResolved, HoldDamageDealt, HoldEscapeRolled
from affray.events.energion.state import EnergionCombatant
from affray.handlers.energion import modifiers
from affray.handlers.energion.host import Arena, EnergionHost
from affray.handlers.energion.loadout import Loadout
from affray.handlers.energion.resolution import SHIELD_ARM, parry_chance
from affray.kernel.clock import MS_PER_SECOND
from affray.kernel.space import distance
from affray.npc.energion.intents import Grapple
from affray.rules.energion import close_combat, formulas
from affray.rules.energion.close_combat import GrapplingProcedure

GRAPPLE_DIE = "1d100"
AVOIDANCE_DIE = "1d100"
BODY_TYPE = 17
"""E11: body weapons (hand and foot), the weapon type a grapple strikes as."""
GRAPPLE_REACH = Decimal(1)
HOLDS = frozenset({"Pin", "Disable"})


def grapple_problem(
    loadout: Loadout, live: EnergionCombatant, target: EnergionCombatant, intent: Grapple
) -> str:
    """Why the procedure cannot be tried now, or ""."""
    procedure = _procedure(loadout, intent.procedure)
    if procedure is None:
        return f"{loadout.id} does not know the {intent.procedure}"
    if live.special.no_melee():
        return "its damage allows no melee attack"  # S4, ruling 8: a procedure is a melee attack
    if procedure.name == "Double Kick" and loadout.arm_for("kick") is None:
        return "a double kick needs a martial artist's kick (Foot)"
    if target.out:
        return f"{target.id} is out of the fight"
    gap = distance(live.position, target.position)
    if gap > GRAPPLE_REACH:
        return f"{target.id} is {gap} m away, beyond arm's length"
    if HOLDS & set(procedure.effects) and (target.held_by is not None or live.holding is not None):
        return (
            f"{target.id} is already held" if target.held_by else f"{loadout.id} is already holding someone"
        )
    return ""


def grapple(encounter: Arena, battle: EnergionHost, loadout: Loadout, intent: Grapple) -> int:
    """Try the procedure; return how long the attacker is busy (its recovery, at least a second)."""
    procedure = _procedure(loadout, intent.procedure)
    assert procedure is not None  # grapple_problem checked it
    defender = battle.loadouts[intent.target]
    target = encounter.state.combatants[intent.target]
    able = target.reacted and not target.knocked_down and target.held_by is None
    now = modifiers.of_the_moment(
        encounter.state.combatants[loadout.id], int(encounter.now)
    )  # S4, S5 (ruling 8)
    hit_chance = formulas.tidy(modifiers.hit_chance(Decimal(loadout.spec.skill) + loadout.melee_bonus, now))
    armor_value = _armor(procedure, defender, target, aware=target.reacted)

    def need() -> str:
        under = hit_chance - armor_value
        return f"{loadout.id} tries a {procedure.name} on {intent.target}: under {under} (E6, E15)"

    roll = encounter.dice.roll(loadout.id, "grapple", GRAPPLE_DIE, need=need)
    quality = formulas.tidy(hit_chance - armor_value - roll.total)
    avoidance = None
    damage = Decimal(0)
    damage_roll = None
    if quality <= 0:
        outcome = "miss"
    else:
        if able:
            avoidance = _avoid(encounter, defender, target, procedure)
        if avoidance is not None and avoidance.avoided:
            outcome = "avoided"
        else:
            outcome = "landed"
            damage, damage_roll = _damage(encounter, loadout, procedure, quality)
    recovery_ms = procedure.recovery_seconds * MS_PER_SECOND
    encounter.emit(
        GrappleResolved(
            attacker=loadout.id,
            target=target.id,
            procedure=procedure.name,
            hit_chance=hit_chance,
            modifiers=now,
            armor=procedure.armor,
            armor_value=armor_value,
            roll=roll,
            quality=quality,
            avoidance=avoidance,
            outcome=outcome,  # type: ignore[arg-type]
            effects=procedure.effects if outcome == "landed" else (),
            damage=damage,
            damage_roll=damage_roll,
            recovery_ms=recovery_ms,
        )
    )
    if damage > 0:
        battle.after_damage(encounter, target.id)
    if outcome == "landed" and HOLDS & set(procedure.effects):
        return recovery_ms  # the hold's own seconds begin at once (each ends with its hold-down damage)
    return max(recovery_ms, MS_PER_SECOND)


def try_to_break(encounter: Arena, battle: EnergionHost, loadout: Loadout, live: EnergionCombatant) -> None:
    """The held combatant's action for the second: its avoidance roll against the hold (E15)."""
    assert live.held_by is not None
    assert live.hold is not None
    procedure = battle.grappling.procedure(live.hold)
    avoidance = _avoid(encounter, loadout, live, procedure)
    encounter.emit(
        HoldEscapeRolled(
            combatant=loadout.id, holder=live.held_by, procedure=procedure.name, avoidance=avoidance
        )
    )


def next_escape_ms(live: EnergionCombatant) -> int:
    """Rule E15: "the avoidance may be rolled subsequently each second that the character has an action":
    a held combatant's next roll to break free, a second after the hold landed (whose avoidance roll was
    the first) or after its last roll."""
    last = max(live.held_since_ms or 0, live.escape_rolled_ms or 0)
    return last + MS_PER_SECOND


def keep_hold(encounter: Arena, battle: EnergionHost, loadout: Loadout, live: EnergionCombatant) -> None:
    """A second of holding: holding down does half a point (E15; affray's holders always choose to)."""
    if live.holding is None or live.hold != "Hold Down":
        return
    encounter.emit(
        HoldDamageDealt(
            holder=loadout.id, target=live.holding, damage=close_combat.HOLD_DOWN_DAMAGE_PER_SECOND
        )
    )
    battle.after_damage(encounter, live.holding)


def _procedure(loadout: Loadout, name: str) -> GrapplingProcedure | None:
    key = name.strip().casefold()
    return next((p for p in loadout.grapples if p.name.casefold() == key), None)


def _armor(
    procedure: GrapplingProcedure, defender: Loadout, target: EnergionCombatant, *, aware: bool
) -> Decimal:
    """The armor the procedure meets: normal armor (with the shield's plus), or AG/Luck armor."""
    if procedure.armor == "normal":
        kind = close_combat.kick_type if procedure.name == "Double Kick" else BODY_TYPE
        shield = defender.shield.parry if defender.shield and SHIELD_ARM not in target.disabled else 0
        return Decimal(defender.armor.value_against(kind) + shield)
    agility = max(defender.ag_bonus, Decimal(0)) / 4 if aware else Decimal(0)
    return formulas.tidy(defender.spec.luck_armor + agility)


def _avoid(
    encounter: Arena, defender: Loadout, target: EnergionCombatant, procedure: GrapplingProcedure
) -> AvoidanceRoll:
    # "a standard parry roll": with a device its parry chance; without one its own parry skill
    parry = parry_chance(defender, target, melee=True)
    chance = parry[1] if parry is not None else Decimal(defender.spec.parry)
    number = close_combat.avoidance_target(procedure, defender.spec.stats.AG, chance)
    roll = encounter.dice.roll(
        defender.id, "avoidance", AVOIDANCE_DIE, need=lambda: f"{defender.id} avoids: {number} or under (E15)"
    )
    return AvoidanceRoll(
        basis=procedure.avoidance,
        target_number=number,
        roll=roll,
        avoided=close_combat.avoided(roll.total, number),
    )


def _damage(
    encounter: Arena, loadout: Loadout, procedure: GrapplingProcedure, quality: Decimal
) -> tuple[Decimal, Roll | None]:
    """The procedure's printed damage, read by ruling: "2*Foot" twice a kick's E7 damage at this quality;
    "F" and "Fall(1)" an uncontrolled fall, 1d10; "1" one point; "1/2s" and "None" nothing on landing."""
    printed = procedure.damage
    if printed == "2*Foot":
        kick = loadout.arm_for("kick")
        assert kick is not None
        return formulas.tidy(2 * formulas.damage(quality, kick.damage_potential)), None
    if printed in ("F", "Fall(1)"):
        roll = encounter.dice.roll(loadout.id, "fall", close_combat.FALL_DIE)
        return Decimal(max(roll.total, 0)), roll
    if printed == "1":
        return Decimal(1), None
    return Decimal(0), None
