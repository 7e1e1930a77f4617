"""What fivestep's state makes of the special_damage module's aftermath (ruling 21, rule F11)."""

from __future__ import annotations

from decimal import Decimal

from affray.events.fivestep.state import FivestepCombatant, vocabulary
from affray.events.special_damage.kinds import AftermathStarted


def test_the_aftermath_heals_body_parts_but_a_destroyed_part_stays_without_function() -> None:
    # ruling 21: the damage points heal as the aftermath begins; F11: a part destroyed (five times its
    # points taken) is gone, so it stays without function, while a merely disabled arm works again
    words = vocabulary(["special_damage"])
    state = words.new_state()
    state.combatants["x"] = FivestepCombatant(
        id="x",
        name="X",
        side="s",
        damage_points=Decimal(100),
        position=(Decimal(0), Decimal(0)),
        damage_taken=Decimal(40),
        location_damage={"left hand": Decimal(30), "right arm": Decimal(10)},
        disabled=["left hand", "right arm"],
        destroyed=["left hand"],
    )
    words.apply(state, AftermathStarted(days=1, limbs_set_in_time=True, restored=("x",)))
    healed = state.combatants["x"]
    assert (healed.damage_taken, healed.location_damage, healed.disabled) == (Decimal(0), {}, ["left hand"])
