"""Long text where a scenario or a log has a name or an expression is refused at once: it is neither searched
for close matches nor matched in time growing with the square of its length. Each command runs as a real
process, which ``run_process`` stops after 60 s: only a hang takes that long."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import DUEL, assert_user_error, run_process


def test_a_megabyte_weapon_name_is_one_error_line_with_no_close_matches(tmp_path: Path) -> None:
    scenario = tmp_path / "long.toml"
    scenario.write_text(DUEL.read_text().replace('name = "Sword, Long"', f'name = "{"x" * 1_000_000}"'))
    result = run_process("run", scenario, "-o", tmp_path / "long.jsonl")
    assert_user_error(result, "unknown weapon 'xxxx", "close matches: none")


def test_a_dice_expression_of_a_megabyte_of_spaces_is_one_error_line(tmp_path: Path) -> None:
    scenario = tmp_path / "spaces.toml"
    spaces = " " * 1_000_000
    scenario.write_text(DUEL.read_text().replace('perception = "1d10"', f'perception = "{spaces}x"', 1))
    result = run_process("run", scenario, "-o", tmp_path / "spaces.jsonl")
    assert_user_error(result, "is not of the form NdS")
