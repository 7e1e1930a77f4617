"""The special_damage module's narration (rules S1-S10): the chance, the type roll and its modifiers,
conditions, losses, rulings, and the aftermath's healing and repair."""

from __future__ import annotations

import re

import pytest

from affray.events.base import Event
from affray.events.special_damage.kinds import (
    ConditionStarted,
    EquipmentLost,
    Exploded,
    HealingScheduled,
    NotHealed,
    ProgramsDestroyed,
    RefereeRuling,
    SpecialDamage,
)
from tests.strategies import condition_scenario, example, healed_events, tell

CONDITION_LINES = list(tell(healed_events(condition_scenario(), 1)))
ROBOTS_HEALED = healed_events(example("robots"), 30)
ROBOTS_LINES = dict(zip(ROBOTS_HEALED, tell(ROBOTS_HEALED), strict=True))


def test_special_damage_narrates_the_chance_the_type_roll_and_its_modifiers() -> None:
    # S1: 3 + 2 x 1 = 5 %, roll 5; S2: 5 + 1 + 2 = 8 -> Head wound, +10 damage; 100 - 10.8 - 10 = 79.2
    assert CONDITION_LINES[7].endswith(
        "special damage to b: chance 5% (3 + 2 x level 1), roll 5; type 1d10=5 @a/special#1, manual +1 per"
        " skill level with weapon +2 long melee = 8 -> Head wound: +10 damage, 1 equipment lost;"
        " b has 79.2/100 DP"
    )


@pytest.mark.parametrize(
    ("index", "text"),
    [
        pytest.param(
            8,
            "b is unconscious (50%: 1 @b/unconscious#1, manual) by Head wound until 60.000 s"
            " (1d100=1 @b/unconscious-time#1, manual)",
            id="started",
        ),
        pytest.param(9, "the encounter ends: side ford wins (only side ford still stands)", id="ended-fight"),
        pytest.param(
            10,
            "the fight is over: 1 day of healing and repair begin (broken limbs set in time); the damage"
            " points of b are healed",
            id="aftermath",
        ),
        pytest.param(
            11,
            "b's Head wound heals as wound: 1d10+1=4 @b/healing#1, manual, ready at 4 h 00 min 00 s",
            id="scheduled",
        ),
        pytest.param(12, "b is no longer unconscious", id="ended"),
        pytest.param(13, "b's Head wound has healed: its penalties are gone", id="healed"),
        pytest.param(14, "1 day has passed", id="aftermath-ended"),
    ],
)
def test_the_condition_runs_aftermath_narrates_each_event(index: int, text: str) -> None:
    assert CONDITION_LINES[index].endswith(text), CONDITION_LINES[index]


@pytest.mark.parametrize(
    ("kind", "pattern"),
    [
        pytest.param(ProgramsDestroyed, r"vault-mind loses \d+ programs \(\d+ // 5 = \d+\): ", id="programs"),
        pytest.param(
            Exploded, r"explodes: \d+d10=\d+ \[[\d+]+\] @[\w-]+/explosion#\d+ within \d+ m: ", id="exploded"
        ),
        pytest.param(
            RefereeRuling,
            r"referee ruling on sentry-1's special damage #1: .* becomes Arm damage",
            id="ruling",
        ),
        pytest.param(ConditionStarted, r"is (stunned|deactivated|unconscious)", id="condition"),
        pytest.param(NotHealed, r"'s .* does not heal: ", id="not-healed"),
        pytest.param(EquipmentLost, r"loses (equipment: |its )", id="equipment"),
        pytest.param(SpecialDamage, r"special damage to [\w-]+: chance \d+%", id="special"),
        pytest.param(HealingScheduled, r"heals as [\w ]+: ", id="scheduled"),
    ],
)
def test_the_healed_robots_log_narrates_each_special_kind(kind: type[Event], pattern: str) -> None:
    lines = [line for event, line in ROBOTS_LINES.items() if isinstance(event, kind)]
    assert lines
    assert all(re.search(pattern, line) for line in lines), lines
