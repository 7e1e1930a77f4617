"""Energion's derivations of grapples, holds, spells and disabled locations (``affray explain``)."""

from __future__ import annotations

from decimal import Decimal

from affray.events.base import Event
from affray.events.energion.kinds import (
    AvoidanceRoll,
    GrappleResolved,
    HoldEscapeRolled,
    LocationDisabled,
    SpellCast,
    SpellStarted,
    TargetChosen,
)
from affray.events.energion.state import vocabulary
from affray.kernel.explanation import Explanation, Step
from affray.kernel.fold import fold
from affray.replays.explain import Index
from affray.rulesets.energion.explanation import EXPLAINERS
from tests.rulesets.energion.test_narration import joined, roll

VOCABULARY = vocabulary()


def explained(*events: Event) -> Explanation:
    """The last of ``events`` explained, the earlier ones noted as its history."""
    *earlier, last = events
    index = Index()
    for event in earlier:
        index.add(event, "")
    return EXPLAINERS[type(last)](last, fold(list(events), VOCABULARY), index)


def step(found: Explanation, what: str) -> Step:
    return next(s for s in found.steps if s.what == what)


def grapple(**fields: object) -> GrappleResolved:
    base: dict[str, object] = dict(
        seq=4,
        t=2000,
        attacker="a",
        target="b",
        procedure="Double Kick",
        hit_chance=Decimal("83.75"),
        armor="normal",
        armor_value=Decimal(10),
        roll=roll(72),
        quality=Decimal("1.75"),
        avoidance=None,
        outcome="landed",
        effects=("KD",),
        damage=Decimal("1.35"),
        recovery_ms=2000,
    )
    return GrappleResolved(**{**base, **fields})  # type: ignore[arg-type]


def test_a_grapples_quality_is_its_chance_less_armor_less_the_roll() -> None:
    # E6, E15: 83.75 - 10 - 72 = 1.75
    found = explained(joined("a", 1), joined("b", 2), grapple())
    assert (step(found, "quality").value, step(found, "quality").how) == ("1.75", "83.75 - 10 - 72")


def test_a_landed_grapples_damage_and_what_is_left_are_steps() -> None:
    # b has 36 DP (joined) - 1.35 = 34.65
    found = explained(joined("a", 1), joined("b", 2), grapple())
    assert step(found, "damage").how.endswith("(ruling 44)")
    assert step(found, "b left").value == "34.65/36 DP"


def test_an_avoidance_at_or_under_its_number_avoids() -> None:
    # E15: an avoidance of half AG 55 against a roll of 30: 30 <= 55, avoided
    avoidance = AvoidanceRoll(basis="half_ag", target_number=Decimal(55), roll=roll(30), avoided=True)
    found = explained(
        joined("a", 1), joined("b", 2), grapple(avoidance=avoidance, outcome="avoided", effects=())
    )
    assert (step(found, "avoidance").value, step(found, "avoidance").how) == ("avoided", "30 <= 55")
    assert step(found, "avoidance number").how == "half AG"


def test_a_grapple_depends_on_the_target_chosen() -> None:
    chosen = TargetChosen(
        seq=3, t=1000, combatant="a", target="b", controller="tactician", reason="close", distance=Decimal(4)
    )
    found = explained(joined("a", 1), joined("b", 2), chosen, grapple())
    assert [b.seq for b in found.depends_on] == [3]


def test_a_hold_escape_depends_on_the_hold() -> None:
    held = grapple(procedure="Hold", effects=("Pin",), damage=Decimal(0))
    escape = HoldEscapeRolled(
        seq=5,
        t=3000,
        combatant="b",
        holder="a",
        procedure="Hold",
        avoidance=AvoidanceRoll(basis="ag", target_number=Decimal(20), roll=roll(64), avoided=False),
    )
    found = explained(joined("a", 1), joined("b", 2), held, escape)
    assert ([b.seq for b in found.depends_on], step(found, "avoidance").how) == ([4], "64 > 20")


def test_a_spell_is_cast_after_preparation_initiation_and_casting() -> None:
    # E23: 1 s preparation + 1 s initiation + 6 s casting = 8 s
    started = SpellStarted(
        seq=3,
        t=1000,
        combatant="a",
        spell="Frost",
        target="b",
        preparation_ms=1000,
        initiation_ms=1000,
        casting_ms=6000,
    )
    found = explained(joined("a", 1), joined("b", 2), started)
    assert (step(found, "cast at").value, step(found, "cast at").how) == ("+8.000 s", "1.000 + 1.000 + 6.000")


def test_a_spells_damage_depends_on_its_start() -> None:
    started = SpellStarted(
        seq=3,
        t=1000,
        combatant="a",
        spell="Frost",
        target="b",
        preparation_ms=0,
        initiation_ms=1000,
        casting_ms=1000,
    )
    cast = SpellCast(
        seq=4,
        t=3000,
        combatant="a",
        spell="Frost",
        target="b",
        roll=roll(21, expr="4d10"),
        damage=Decimal(21),
    )
    found = explained(joined("a", 1), joined("b", 2), started, cast)
    assert ([b.seq for b in found.depends_on], step(found, "damage").value) == ([3], "21")


def test_a_disabled_location_shows_its_share_against_the_damage_there() -> None:
    # E20: a share of 4 damage points disables the arm; 5 damage there >= 4
    disabled = LocationDisabled(
        seq=3,
        t=1000,
        combatant="b",
        location="right arm",
        effect="unusable",
        damage=Decimal(5),
        share=Decimal(4),
    )
    found = explained(joined("a", 1), joined("b", 2), disabled)
    assert step(found, "effect").how == "5 damage there >= 4"
    assert step(found, "share").rule == "E20"
