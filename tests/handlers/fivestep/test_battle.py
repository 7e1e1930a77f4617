"""What a fivestep battle checks at load, before anything is simulated: one error naming the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from affray.errors import ScenarioError, TableError
from affray.handlers.fivestep.battle import FivestepBattle
from tests.handlers.fivestep import RIFLE, TABLES, character, scenario

ACTIONS = """table = "3-6"
example = true
unit = "points"

[[row]]
action = "run 1 m"
cost = 2

[[row]]
action = "punch"
cost = 0
"""


def test_an_action_that_costs_nothing_is_refused(tmp_path: Path) -> None:
    # rule F7: a move or attack that costs no points could be repeated without end in one instant
    (tmp_path / "3-6.toml").write_text(ACTIONS)
    built = scenario(
        character("red", "red"),
        character("blue", "blue"),
        tables={**TABLES, "3-6": str(tmp_path / "3-6.toml")},
    )
    with pytest.raises(ScenarioError, match=r"\$\.combatants\[0\]\.weapons\[0\]\.action: 'punch' costs no"):
        FivestepBattle(built)


def test_weaponry_reaches_no_further_than_table_3_3_under_damage_procedure_3(tmp_path: Path) -> None:
    # rule F10: Table 3-3 has no figure beyond its last band, so a shot cannot be made beyond it
    text = (Path(__file__).parents[3] / "examples/tables/fivestep/3-3.toml").read_text()
    (tmp_path / "3-3.toml").write_text(
        text.replace(
            "range_m = [3, 10, 25, 50, 100, 250, 500, 1000, 3000]",
            "range_m = [3, 10, 25, 50, 100, 250, 500, 1000, 2000]",
        )
    )
    built = scenario(
        character("red", "red", weapons=[RIFLE]),
        character("blue", "blue"),
        procedures={"damage": 3},
        tables={**TABLES, "3-3": str(tmp_path / "3-3.toml")},
    )
    assert FivestepBattle(built).fighters["red"].arms[0].reach_m == 2000


def test_an_exoskeleton_needs_the_bone_layer_of_every_description_table(tmp_path: Path) -> None:
    # rule F11: exoskeleton races read bone first, so the table must say which layer is bone
    text = (Path(__file__).parents[3] / "examples/tables/fivestep/3-8.toml").read_text()
    (tmp_path / "3-8.toml").write_text(text.replace('bone_layer = "bone"\n', ""))
    built = scenario(
        character("red", "red"),
        character("blue", "blue", exoskeleton=True),
        tables={**TABLES, "3-8": str(tmp_path / "3-8.toml")},
    )
    with pytest.raises(TableError, match=r"names no bone_layer, which blue \(an exoskeleton\)"):
        FivestepBattle(built)


def test_sub_turns_need_agility_points() -> None:
    # rule F7: sub-turns cut the points, which action procedure 1 does not count
    with pytest.raises(ScenarioError, match=r"\$\.options\.sub_turns: .*action procedure 1"):
        scenario(
            character("red", "red"),
            character("blue", "blue"),
            procedures={"action": 1},
            options={"sub_turns": 5},
        )


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"aim_at": "tail"}, r"\$\.combatants\[0\]\.aim_at: no body has a part 'tail'"),
        (
            {"weapons": [{**RIFLE, "damage": None}]},
            r"\$\.combatants\[0\]\.weapons\[0\]\.damage: damage procedure 2",
        ),
        (
            {"weapons": [{**RIFLE, "action": ""}]},
            r"\$\.combatants\[0\]\.weapons\[0\]\.action: action procedure 2",
        ),
    ],
)
def test_a_characters_mistake_names_its_field(change: dict[str, object], fragment: str) -> None:
    built = scenario(character("red", "red", **change), character("blue", "blue"))
    with pytest.raises(ScenarioError, match=fragment):
        FivestepBattle(built)


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (
            {"priority_targets": ["nobody"]},
            r"\$\.combatants\[1\]\.priority_targets\[0\]: no combatant 'nobody'",
        ),
        ({"body": "horse"}, r"\$\.combatants\[1\]\.body: no body 'horse'"),
    ],
)
def test_a_scenario_mistake_names_its_field(extra: dict[str, object], fragment: str) -> None:
    with pytest.raises(ScenarioError, match=fragment):
        scenario(character("red", "red"), character("blue", "blue", **extra))


def test_an_id_used_twice_is_refused() -> None:
    with pytest.raises(ScenarioError, match=r"\$\.combatants\[1\]\.id: 'red' is used twice"):
        scenario(character("red", "red"), character("red", "blue"))


def test_random_hit_locations_need_table_3_3_4() -> None:
    # rule F8: locate_hits = "random" reads Table 3-3.4
    tables = {k: v for k, v in TABLES.items() if k != "3-3.4"}
    built = scenario(
        character("red", "red"), character("blue", "blue"), tables=tables, options={"locate_hits": "random"}
    )
    with pytest.raises(TableError, match=r"\$\.options\.locate_hits: .*Table 3-3\.4"):
        FivestepBattle(built)


def test_a_part_to_aim_at_that_no_body_has_is_quoted_in_a_few_dozen_characters() -> None:
    built = scenario(character("a", "left", aim_at="x" * 100), character("b", "right"))
    with pytest.raises(ScenarioError, match="no body has a part") as caught:
        FivestepBattle(built)
    assert "x" * 41 not in str(caught.value)
