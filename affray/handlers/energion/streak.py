"""A plain blow struck again, each time after its gap (rule E1), while nothing it is checked against changes.

Before every action a combatant's controller is asked what to do, and the blow is checked: the weapon is
ready and allowed, the target is standing and within reach, and so on. All of that reads state that only
events other than attacks change, or that a timed condition or standing order changes at a known moment. So
after a plain melee blow (no shot, hit location, kick, blow to subdue, charge or referee's ruling) by a
combatant whose steady controller's answer is kept, the same blow is struck again without the checks for as
long as no such event has happened (``Encounter.changes``) and no such moment has come. The blows struck are
those the checked path strikes, roll for roll and byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from affray.events.energion.kinds import AttackResolved
from affray.handlers.energion.attack import arm_for_attack
from affray.handlers.energion.host import Arena, EnergionHost
from affray.handlers.energion.loadout import Arm, Loadout
from affray.handlers.energion.resolution import Blow, plain_blow, strike_again
from affray.kernel.dice import Stream
from affray.npc.energion.intents import Attack


@dataclass(frozen=True)
class Streak:
    """One combatant's plain blow at one defender, kept while nothing it is checked against changes."""

    encounter: Arena
    battle: EnergionHost
    attacker: Loadout
    arm: Arm
    defender: Loadout
    blow: Blow
    hits: Stream
    """The attacker's stream of hit rolls."""
    record: Callable[[AttackResolved], None]
    """The encounter's ``recorder`` of attacks."""
    gap_ms: int
    changes: int
    """``Encounter.changes`` when the blow was last checked."""
    until: int | None
    """The first ms at which a timed condition or a standing order may change a check (None: never)."""

    def holds(self) -> bool:
        """Whether the blow, checked now, would be struck as it was."""
        encounter = self.encounter
        return encounter.changes == self.changes and (self.until is None or encounter.now < self.until)

    def strike(self) -> int:
        """Strike the blow once more; the ms until the next action."""
        encounter = self.encounter
        event = strike_again(encounter, self.attacker, self.arm, self.defender, self.blow, self.hits)
        self.record(event)
        if event.damage is not None:
            self.battle.after_attack(encounter, event, self.attacker, self.arm)
        return self.gap_ms


def begin_streak(
    encounter: Arena,
    battle: EnergionHost,
    attacker: Loadout,
    intent: Attack,
    checked: int,
    gap_ms: int,
    until: int | None,
) -> Streak | None:
    """The streak of the attack just made with ``intent``, whose checks ran when ``Encounter.changes`` was
    ``checked`` (so that a change the attack itself brought about ends it at once), or None when the blow
    is not a plain melee blow or a referee rules on the fight. The caller has made sure that the
    controller's answer is kept until ``until`` (``Acting.streak``)."""
    if battle.referee or battle.locations is not None:
        return None
    arm = arm_for_attack(attacker, encounter.state.combatants[attacker.id], intent)
    if arm.ranged or arm.martial or attacker.spec.subdue or intent.subdue:
        return None
    defender = battle.loadouts[intent.target]
    blow = plain_blow(encounter, attacker, arm, defender)
    hits = encounter.dice.stream(attacker.id, "hit")
    record = encounter.recorder(AttackResolved)
    return Streak(encounter, battle, attacker, arm, defender, blow, hits, record, gap_ms, checked, until)
