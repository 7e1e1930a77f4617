"""What fivestep's state makes of the special_damage module's aftermath (ruling 21, rule F11), and of damage
to a part a character does not have."""

from __future__ import annotations

from decimal import Decimal

import pytest

from affray.events.fivestep.kinds import DamageResolved
from affray.events.fivestep.state import FivestepCombatant, vocabulary
from affray.events.special_damage.kinds import AftermathStarted
from affray.kernel.fold import FoldError, apply_checked


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


def test_damage_to_a_part_its_target_does_not_have_cannot_be_folded() -> None:
    # a log whose damage_resolved names a part the character joined without (edited or damaged) is an
    # event the fold cannot apply, not a state that shows crash on
    words = vocabulary([])
    state = words.new_state()
    for who in ("a", "b"):
        state.combatants[who] = FivestepCombatant(
            id=who,
            name=who,
            side=who,
            damage_points=Decimal(10),
            position=(Decimal(0), Decimal(0)),
            parts={"head": 10},
        )
    hit = DamageResolved(
        seq=1,
        attacker="a",
        target="b",
        weapon="Fists",
        procedure=2,
        part="tail",
        range_m=Decimal(1),
        points=3,
        part_taken=3,
        part_points=10,
        percentage=Decimal(30),
        structure_lost=0,
        function_left=100,
        functional=True,
    )
    with pytest.raises(FoldError, match="b has no body part 'tail'"):
        apply_checked(words, state, hit)
