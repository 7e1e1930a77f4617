"""``affray explain LOG SEQ [--json]``: one event laid out as a derivation."""

from __future__ import annotations

import json
from pathlib import Path

from affray import rulesets
from affray.replays import snapshots
from tests.cli.conftest import DUEL, Affray, assert_user_error
from tests.strategies import example_log, read


def test_explain_lays_out_an_attack_rule_by_rule(affray: Affray, duel_log: Path) -> None:
    result = affray("explain", duel_log, "25")
    assert result.code == 0, result
    lines = result.out.splitlines()
    assert lines[0] == "seq 25 at 44.334 s: attack_resolved"
    assert lines[1].startswith("  gorm attacks brenna with Axe, 1 hand")
    derivation = lines[lines.index("derivation:") + 1 : lines.index("depends on:")]
    quality = next(line for line in derivation if "hit quality" in line)
    assert quality.split() == ["E6", "hit", "quality", "45", "92", "-", "40", "-", "7"]
    assert "depends on:" in lines


def test_explain_json_holds_every_step_with_its_rule(affray: Affray, duel_log: Path) -> None:
    found = json.loads(affray("explain", duel_log, "25", "--json").out)
    assert found["kind"] == "attack_resolved"
    assert {"what": "hit quality", "value": "45", "how": "92 - 40 - 7", "rule": "E6"} in found["steps"]
    assert [d["seq"] for d in found["depends_on"]] == [14, 15]


def test_a_seq_the_log_does_not_hold_is_one_error_line(affray: Affray, duel_log: Path) -> None:
    assert_user_error(affray("explain", duel_log, "99"), "no seq 99: the log holds seq 1 to 31")


def test_seq_zero_is_a_usage_error(affray: Affray, duel_log: Path) -> None:
    assert_user_error(affray("explain", duel_log, "0"))


def test_a_file_that_is_not_a_log_is_one_error_line(affray: Affray) -> None:
    assert_user_error(affray("explain", DUEL, "1"), "not an affray log")


def test_a_seq_beyond_a_cut_is_named_after_the_cut_is_warned_of(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(duel_log.read_bytes().split(b"\n")[:11]) + b"\n")
    result = affray("explain", cut, "20")
    assert result.code == 2
    assert result.err_lines[0].startswith(f"warning: {cut}: the log is cut short")
    assert result.err_lines[1] == f"error: {cut}: no seq 20: the log holds seq 1 to 10"


# --- --odds: the luck of the event's rolls, from a report of affray odds ---------------------------


def _odds(affray: Affray, log: Path) -> Path:
    report = log.with_name("odds.json")
    assert affray("odds", log, "--within", "10", "-o", report).code == 0
    return report


def test_odds_show_each_roll_of_the_event_with_each_sides_chance_before_and_after(
    affray: Affray, duel_log: Path
) -> None:
    result = affray("explain", duel_log, "25", "--odds", _odds(affray, duel_log))
    assert result.code == 0, result
    lines = result.out.splitlines()
    luck = lines[
        lines.index("luck (each side's chance to win just before -> just after the roll, affray odds):") :
    ]
    assert [line.split(":")[0].strip() for line in luck[1:]] == ["gorm/hit#4", "brenna/parry#2"]
    assert all(" ford " in line and " raiders " in line for line in luck[1:])


def test_odds_in_json_are_the_reports_chances_at_the_roll(affray: Affray, duel_log: Path) -> None:
    odds = _odds(affray, duel_log)
    report = json.loads(odds.read_text())
    made = next(r for r in report["rolls"] if r["roll"]["key"] == "brenna/hit#1")
    found = json.loads(affray("explain", duel_log, "11", "--json", "--odds", odds).out)
    assert found["luck"] == [
        {
            "roll": "brenna/hit#1",
            "before": {side: c["chance"] for side, c in made["before"]["sides"].items()},
            "after": {side: c["chance"] for side, c in made["after"]["sides"].items()},
        }
    ]


def test_without_odds_the_json_holds_no_luck(affray: Affray, duel_log: Path) -> None:
    assert "luck" not in json.loads(affray("explain", duel_log, "11", "--json").out)


def test_the_odds_of_another_log_are_one_error_line(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    other = tmp_path / "other" / "duel.jsonl"
    other.parent.mkdir()
    assert affray("run", DUEL, "--seed", "5", "-o", other).code == 0
    odds = _odds(affray, other)
    assert_user_error(affray("explain", duel_log, "11", "--odds", odds), "the odds of another log")


def test_odds_beside_a_log_cut_short_are_one_error_line(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    odds = _odds(affray, duel_log)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(duel_log.read_bytes().splitlines(keepends=True)[:-1]))
    assert_user_error(
        affray("explain", cut, "11", "--odds", odds), "is not whole, and odds are of whole logs"
    )


def test_explaining_far_into_a_long_log_keeps_its_snapshots_and_says_the_same_from_them(
    affray: Affray, long_log: Path, resumed: list[int]
) -> None:
    first = affray("explain", long_log, "100")
    assert first.code == 0, first
    resumed.clear()
    again = affray("explain", long_log, "100")
    assert (again.code, again.out) == (0, first.out)
    assert resumed == [96]


def test_explaining_near_the_start_of_a_long_log_keeps_no_snapshots(affray: Affray, long_log: Path) -> None:
    assert affray("explain", long_log, "20").code == 0
    reading = rulesets.reading(read(example_log("skirmish")).header, "skirmish")
    header = example_log("skirmish").split(b"\n", 1)[0]
    assert snapshots.nearest(long_log, header, reading, seq=None, t_ms=None) is None
