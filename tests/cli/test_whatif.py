"""``affray whatif LOG --set STREAM#DRAW=VALUE -o OUT`` and ``affray lineage LOG``."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from tests.cli.conftest import DUEL, Affray, Result, assert_user_error, rechain
from tests.cli.test_entered_dice import logged_rolls
from tests.strategies import read_path

# In the duel brenna's third blow (seq 13) misses: roll 98 against 82.5% - armor 20 = 62.5; a 5 hits.
CHANGE = "brenna/hit#3=5"


@pytest.fixture
def whatif(affray: Affray, duel_log: Path) -> tuple[Path, Result]:
    out = duel_log.parent / "whatif.jsonl"
    result = affray("whatif", duel_log, "--set", CHANGE, "-o", out)
    assert result.code == 0, result
    return out, result


def test_a_changed_roll_leaves_every_roll_of_the_other_combatant_as_it_was(
    whatif: tuple[Path, Result], duel_log: Path
) -> None:
    def gorms(log: Path) -> dict[str, list[int]]:
        return {f"{r['purpose']}#{r['draw']}": r["faces"] for r in logged_rolls(log) if r["roller"] == "gorm"}

    before, after = gorms(duel_log), gorms(whatif[0])
    shared = before.keys() & after.keys()
    assert shared
    assert {key: after[key] for key in shared} == {key: before[key] for key in shared}


def test_a_what_if_log_verifies(affray: Affray, whatif: tuple[Path, Result]) -> None:
    assert affray("verify", whatif[0]).code == 0


def test_everything_before_the_change_is_as_it_was(whatif: tuple[Path, Result], duel_log: Path) -> None:
    assert read_path(whatif[0]).events[:12] == read_path(duel_log).events[:12]


def test_the_what_if_shows_the_changed_seq_first_and_then_the_outcome(whatif: tuple[Path, Result]) -> None:
    lines = whatif[1].out.splitlines()
    parting = lines.index("the logs part at seq 13 (15.999 s, attack_resolved in both):")
    assert lines.index("the outcome differs:") > parting
    assert any(line.split()[:3] == ["hit.roll.total", "98", "5"] for line in lines)


def test_diff_of_a_log_and_its_what_if_names_the_changed_seq_and_the_outcome(
    affray: Affray, whatif: tuple[Path, Result], duel_log: Path
) -> None:
    found = json.loads(affray("diff", duel_log, whatif[0], "--json").out)
    assert found["parting"]["seq"] == 13
    assert (found["outcome"]["a"]["t"], found["outcome"]["b"]["t"]) == (54996, 37664)


def test_the_what_ifs_header_names_its_parent_and_the_change(
    whatif: tuple[Path, Result], duel_log: Path
) -> None:
    header = read_path(whatif[0]).header
    assert header.changes == [CHANGE]
    assert not isinstance(header.parent, msgspec.UnsetType)
    assert header.parent.log == "duel.jsonl"


def test_a_what_if_of_a_what_if_keeps_the_first_change(
    affray: Affray, whatif: tuple[Path, Result], tmp_path: Path
) -> None:
    second = tmp_path / "second.jsonl"
    assert affray("whatif", whatif[0], "--set", "gorm/perception#1=2", "-o", second).code == 0
    rolled = json.loads(bytes(read_path(second).header.scenario))["dice"]["rolled"]
    assert rolled == {"brenna/hit#3": [5], "gorm/perception#1": [2]}
    assert affray("verify", second).code == 0


def test_lineage_shows_the_chain_back_to_the_original_fight(
    affray: Affray, whatif: tuple[Path, Result], duel_log: Path, tmp_path: Path
) -> None:
    second = tmp_path / "second.jsonl"
    affray("whatif", whatif[0], "--set", "gorm/perception#1=2", "-o", second)
    lines = affray("lineage", second).out.splitlines()
    assert [line.split()[0:2] for line in lines] == [
        [str(second), "(end"],
        ["from", str(whatif[0])],
        ["from", str(duel_log)],
    ]
    assert lines[0].endswith(": gorm/perception#1=2")
    assert lines[-1].endswith(": the original fight")


def test_lineage_says_when_the_parent_is_gone(
    affray: Affray, whatif: tuple[Path, Result], duel_log: Path
) -> None:
    duel_log.unlink()
    assert (
        affray("lineage", whatif[0])
        .out.splitlines()[-1]
        .endswith(": not found (end " + read_path(whatif[0]).header.parent.end + "); the link is unchecked")
    )  # type: ignore[union-attr]


def test_lineage_says_when_the_parent_was_replaced(
    affray: Affray, whatif: tuple[Path, Result], duel_log: Path, tmp_path: Path
) -> None:
    scenario = tmp_path / "other.toml"
    scenario.write_text(DUEL.read_text().replace("seed = 1130", "seed = 5"))
    affray("run", scenario, "-o", duel_log, "--force")
    assert "not the parent" in affray("lineage", whatif[0]).out.splitlines()[-1]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        pytest.param("brenna/hit#99=5", "the fight made no such roll (brenna/hit has 12 draws)", id="draw"),
        pytest.param("nobody/hit#1=5", "the fight made no such roll (no roll on nobody/hit)", id="stream"),
        pytest.param(
            "brenna/hit#2=101", "brenna/hit#2 rolls 1d100, which needs 1 face of 1..100", id="range"
        ),
        pytest.param("brenna/hit#2=0", "which needs 1 face of 1..100", id="zero"),
        pytest.param("brenna/hit#2=3,4", "which needs 1 face of 1..100", id="faces"),
        pytest.param("brenna/hit=5", "expected STREAM#DRAW=VALUE", id="form"),
    ],
)
def test_a_bad_change_is_one_error_line(
    affray: Affray, duel_log: Path, tmp_path: Path, change: str, said: str
) -> None:
    out = tmp_path / "out.jsonl"
    assert_user_error(affray("whatif", duel_log, "--set", change, "-o", out), said)
    assert not out.exists()


def test_a_long_bad_change_is_quoted_in_part(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    # a 120 KB --set was echoed whole in its error line
    result = affray("whatif", duel_log, "--set", "x" * 120_000, "-o", tmp_path / "out.jsonl")
    assert_user_error(result, "expected STREAM#DRAW=VALUE")
    assert len(result.err) < 300


def test_a_seq_that_does_not_hold_the_roll_is_one_error_line(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    result = affray("whatif", duel_log, "--set", CHANGE, "--seq", "10", "-o", tmp_path / "out.jsonl")
    assert_user_error(result, "--seq 10: brenna/hit#3 is rolled at seq 13")


def test_a_cut_log_is_refused(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(duel_log.read_bytes().split(b"\n")[:15]) + b"\n")
    assert_user_error(affray("whatif", cut, "--set", CHANGE, "-o", tmp_path / "o.jsonl"), "a whole log")


def test_a_log_that_does_not_verify_is_refused(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    lines = duel_log.read_bytes().split(b"\n")[:-2]
    lines[3] = lines[3].replace(b'"after_ms":0', b'"after_ms":1')  # brenna perceives a millisecond late
    assert lines[3] != duel_log.read_bytes().split(b"\n")[3]
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(rechain(lines))
    result = affray("whatif", forged, "--set", CHANGE, "-o", tmp_path / "o.jsonl")
    assert_user_error(result, f"{forged} does not verify (line 4 (seq 3): differs from the re-simulation: ")


def test_the_output_may_not_be_the_log_itself(affray: Affray, duel_log: Path) -> None:
    assert_user_error(
        affray("whatif", duel_log, "--set", CHANGE, "-o", duel_log), "that is the log the what-if"
    )
