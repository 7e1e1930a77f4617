"""An attack as an action (rules E1, E13, E20, S4, S5): the weapon it is made with, what bars it now, the
second of recovery after a kick, and the gap it leaves until the next action. The attack itself is
resolved in :mod:`.resolution`.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from affray.events.base import Roll
from affray.events.energion.kinds import AttackResolved, RangedDerivation
from affray.events.energion.state import WEAPON_ARM, EnergionCombatant
from affray.events.shared import CheckRolled
from affray.handlers.energion.host import Arena, EnergionHost
from affray.handlers.energion.loadout import Arm, Loadout
from affray.handlers.energion.resolution import UNRULED, Ruled, aim_shot, resolve_attack
from affray.handlers.shared import refuse
from affray.handlers.special_damage.module import malfunction
from affray.kernel.clock import MS_PER_SECOND
from affray.kernel.referee import Referee, RulingTerms
from affray.kernel.space import distance
from affray.npc.energion.intents import Attack
from affray.rules.energion import close_combat

RECOVERY_DIE = "1d100"
MARTIAL_GAP_MS = MS_PER_SECOND // close_combat.MAX_ATTACKS_PER_SECOND
LEGS = ("right leg", "left leg")


def attack(
    encounter: Arena,
    battle: EnergionHost,
    loadout: Loadout,
    live: EnergionCombatant,
    intent: Attack,
    *,
    charge_speed: Decimal | None = None,
) -> int:
    """Strike or shoot, or refuse what cannot be done; return how long until the next action (E1's gap)."""
    arm = arm_for_attack(loadout, live, intent)
    defender = battle.loadouts[intent.target]
    shot = _aimed_or_barred(encounter, loadout, live, arm, defender)
    if isinstance(shot, str):
        return refuse(encounter, loadout.id, f"attack {intent.target}", shot)
    recovery = _recovery(encounter, loadout, live, arm)
    if isinstance(recovery, str):
        return refuse(encounter, loadout.id, f"attack {intent.target}", recovery)
    rulings = _rulings_due(encounter, battle.referee, loadout.id) if battle.referee else None
    event = encounter.emit(
        resolve_attack(
            encounter,
            loadout,
            arm,
            defender,
            shot,
            locations=battle.locations,
            subdue=loadout.spec.subdue or intent.subdue,
            recovery_roll=recovery,
            charge_speed=charge_speed,
            ruled=rulings.ruled() if rulings is not None else UNRULED,
        )
    )
    if rulings is not None:
        rulings.record(encounter, battle.referee, event)
    battle.after_attack(encounter, event, loadout, arm)
    # E13: a martial artist attacks at most twice in any second.
    return max(arm.speed_ms, MARTIAL_GAP_MS) if arm.artist else arm.speed_ms


def _aimed_or_barred(
    encounter: Arena, loadout: Loadout, live: EnergionCombatant, arm: Arm, defender: Loadout
) -> RangedDerivation | str | None:
    """A shot's range and aim figures (None for a blow within reach), or why the attack cannot be made
    now: the weapon is barred (S4, S5, E20), the target out of range, out of sight or out of reach."""
    problem = _barred(encounter, loadout, live, arm)
    if problem:
        return problem
    if arm.ranged:
        return aim_shot(encounter, loadout, arm, defender)
    gap = distance(live.position, encounter.state.combatants[defender.id].position)
    if gap > arm.reach:
        return f"{defender.id} is {gap} m away, beyond reach {arm.reach} m"
    return None


@dataclass
class _Due:
    """The referee's rulings due for one attack, by effect."""

    attacker: str
    modifiers: list[tuple[int, RulingTerms]]
    misses: list[tuple[int, RulingTerms]]
    damage: list[tuple[int, RulingTerms]]

    def ruled(self) -> Ruled:
        """What they change in the attack's resolution."""
        points = [ruling.damage or 0 for _, ruling in self.damage]
        return Ruled(
            modifier=sum(ruling.modifier or 0 for _, ruling in self.modifiers),
            miss=bool(self.misses),
            points=sum(points) if points else None,
        )

    def record(self, encounter: Arena, referee: Referee, event: AttackResolved) -> None:
        """Each ruling that took effect on ``event`` is recorded after it. A damage ruling on an attack that
        did not land waits for the next blow when it is keyed to a time; keyed to this seq, it is an error."""
        for number, ruling in self.modifiers:
            referee.record(encounter, number, self.attacker, f"{ruling.modifier:+d} to hit")
        for number, _ in self.misses:
            referee.record(encounter, number, self.attacker, "the attack is a miss")
        for number, ruling in self.damage:
            if event.damage is not None:
                referee.record(encounter, number, self.attacker, f"{ruling.damage:+d} damage points")
            elif ruling.seq is not None:
                raise referee.refuse(
                    number, f"seq {ruling.seq} is a {event.outcome}: no blow landed to add damage to"
                )


def _rulings_due(encounter: Arena, referee: Referee, attacker: str) -> _Due:
    return _Due(
        attacker,
        referee.due(encounter, attacker, "modifier"),
        referee.due(encounter, attacker, "outcome"),
        referee.due(encounter, attacker, "damage"),
    )


def arm_for_attack(loadout: Loadout, live: EnergionCombatant, intent: Attack) -> Arm:
    """The weapon in hand; a martial artist may punch or kick instead, whichever is in hand (E13)."""
    arm = loadout.arms[live.weapon_index]
    picked = (
        loadout.arms[intent.arm] if intent.arm is not None and 0 <= intent.arm < len(loadout.arms) else None
    )
    return picked if picked is not None and picked.martial and arm.martial else arm


def _barred(encounter: Arena, loadout: Loadout, live: EnergionCombatant, arm: Arm) -> str:
    """Why the weapon cannot be used now ("" when it can): a robot's malfunction (S5), an injury that
    forbids melee (S4), a leg or the weapon arm unusable (E20), no weapon ready or nothing left to use."""
    return malfunction(encounter, live) or barred_now(live, arm)


def barred_now(live: EnergionCombatant, arm: Arm, *, readying: bool = False) -> str:
    """Why the weapon cannot be used now, before any roll (S4, E20, no weapon ready), or "";
    ``readying``: its first weapon's battle initiative is still to run, and readies it first (E1, E3)."""
    if not arm.ranged and live.special.no_melee():
        return "its damage allows no melee attack"
    if arm.martial == "kick":
        if any(leg in live.disabled for leg in LEGS):
            return "a kick needs both legs"
    elif WEAPON_ARM in live.disabled:
        return "its weapon arm is unusable"
    if not (live.weapon_ready or readying) or spent(live, arm):
        return f"no usable weapon in hand ({arm.weapon.name})"
    return ""


def spent(live: EnergionCombatant, arm: Arm) -> bool:
    """Whether the weapon has no throw or shot left."""
    return arm.uses is not None and live.used.get(str(arm.index), 0) >= arm.uses


def _recovery(encounter: Arena, loadout: Loadout, live: EnergionCombatant, arm: Arm) -> Roll | str | None:
    """Rule E13: the second after a kick is recovery: punches only, each needing an AGbonus roll. The roll
    made (None outside recovery), or why the attack cannot be made."""
    if not arm.martial or live.kicked_ms is None or encounter.now - live.kicked_ms >= MS_PER_SECOND:
        return None
    if arm.martial == "kick":
        return "recovering from a kick: punches only this second"
    recovery = encounter.dice.roll(
        loadout.id,
        "recovery",
        RECOVERY_DIE,
        need=lambda: f"{loadout.id} punches after a kick: {loadout.ag_bonus} or under (AGbonus)",
    )
    if recovery.total > loadout.ag_bonus:
        encounter.emit(
            CheckRolled(
                combatant=loadout.id,
                check="kick recovery (AGbonus)",
                roll=recovery,
                chance=loadout.ag_bonus,
                under=False,
            )
        )
        return f"recovering from a kick: AGbonus roll {recovery.total} over {loadout.ag_bonus}"
    return recovery
