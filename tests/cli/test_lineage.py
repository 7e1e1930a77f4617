"""A what-if's link to its parent, checked by ``affray verify`` and ``affray lineage`` when the parent is at
hand: the what-if's scenario must be the parent's with exactly the changes it declares
(replays/lineage.py; docs/settling-a-dispute.md)."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
import pytest

from affray.events.codec import Parent, encode_header
from tests.cli.conftest import DUEL, Affray, assert_user_error, rechain
from tests.strategies import read_path

CHANGE = "brenna/hit#2=5"


def false_child(affray: Affray, duel_log: Path, edits: dict[str, str], changes: list[str]) -> Path:
    """A forged what-if of the duel: a scenario that also makes ``edits`` (TOML lines replaced), run
    into a log of its own, whose header then claims the duel (by its end hash) as its parent and only
    ``changes``; re-chained, so only a look at the parent can object."""
    folder = duel_log.parent
    text = DUEL.read_text()
    for old, new in edits.items():
        assert old in text
        text = text.replace(old, new, 1)
    scenario = folder / "forged.toml"
    scenario.write_text(f'{text}\n[dice.rolled]\n"brenna/hit#2" = [5]\n')
    ran = folder / "ran.jsonl"
    assert affray("run", scenario, "-o", ran).code == 0
    duel = read_path(duel_log)
    lines = ran.read_bytes().split(b"\n")[:-2]
    header = read_path(ran).header
    end = duel_end(duel_log)
    claimed = msgspec.structs.replace(header, parent=Parent(log=duel_log.name, end=end), changes=changes)
    assert duel.header.scenario != header.scenario
    lines[0] = encode_header(claimed)
    child = folder / "child.jsonl"
    child.write_bytes(rechain(lines))
    return child


def duel_end(duel_log: Path) -> str:
    from affray.cli.command import open_log_arg
    from affray.stores import JsonLinesLog

    with open_log_arg(JsonLinesLog(duel_log)) as reader:
        for _ in reader:
            pass
        assert reader.end_hash is not None
        return reader.end_hash


GORM_AND_BRENNA = {"skill = 72": "skill = 90", "damage_points = 32": "damage_points = 40"}


@pytest.fixture
def forged(affray: Affray, duel_log: Path) -> Path:
    """The issue's false parent: gorm's skill and brenna's damage points changed, only the roll declared."""
    return false_child(affray, duel_log, GORM_AND_BRENNA, [CHANGE])


def test_verify_fails_a_what_if_that_changes_more_than_it_declares_naming_the_fields(
    affray: Affray, forged: Path, duel_log: Path
) -> None:
    result = affray("verify", forged)
    assert result.code == 1, result
    line = result.out.strip()
    assert line.startswith(
        f"FAILED: {forged}: line 1 (header): not made from its parent {duel_log} as it says:"
    )
    assert f"its scenario is not the parent's with exactly {CHANGE}" in line
    assert "$.combatants[0].damage_points: parent with the changes 32, what-if 40" in line
    assert "$.combatants[1].skill: parent with the changes 72, what-if 90" in line


def test_lineage_names_the_undeclared_changes_and_exits_1(affray: Affray, forged: Path) -> None:
    result = affray("lineage", forged)
    assert result.code == 1, result
    lines = result.out.splitlines()
    assert lines[1].startswith("  from ")
    assert lines[-1].startswith(
        f"  {forged} is not made from it as it says: its scenario is not the parent's"
    )
    assert "$.combatants[1].skill" in lines[-1]


def test_an_undeclared_ruling_is_named(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    ruled = tmp_path / "ruled.jsonl"
    made = affray("whatif", duel_log, "--seq", "17", "--rule", "miss", "--reason", "r", "-o", ruled)
    assert made.code == 0, made
    lines = ruled.read_bytes().split(b"\n")[:-2]
    header = msgspec.structs.replace(read_path(ruled).header, changes=[])
    lines[0] = encode_header(header)
    ruled.write_bytes(rechain(lines))
    result = affray("verify", ruled)
    assert result.code == 1
    assert "its scenario is not the parent's with exactly no change: $.rulings" in result.out


def test_a_declared_change_the_parent_cannot_take_is_named(affray: Affray, duel_log: Path) -> None:
    child = false_child(affray, duel_log, {}, [CHANGE, "brenna/hit#99=5"])
    result = affray("verify", child)
    assert result.code == 1
    assert (
        "its declared changes cannot be made to it: --set brenna/hit#99=5: the fight made no such roll"
        in (result.out)
    )


def test_verify_says_a_what_if_is_its_parent_with_exactly_its_changes(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    out = tmp_path / "whatif.jsonl"
    affray("whatif", duel_log, "--set", CHANGE, "-o", out)
    result = affray("verify", out)
    assert result.code == 0
    assert result.out.rstrip().endswith(f"; made from {duel_log} with exactly the changes it declares")


def test_a_chain_of_a_roll_a_ruling_and_an_order_holds_link_by_link(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    first, second, third = (tmp_path / f"{n}.jsonl" for n in ("first", "second", "third"))
    assert affray("whatif", duel_log, "--set", CHANGE, "-o", first).code == 0
    reason = "the axe (so the referee says) could not reach"
    assert (
        affray("whatif", first, "--seq", "17", "--rule", "miss", "--reason", reason, "-o", second).code == 0
    )
    assert affray("whatif", second, "--seq", "3", "--intent", "gorm:target=brenna", "-o", third).code == 0
    result = affray("lineage", third)
    assert result.code == 0, result
    assert len(result.out.splitlines()) == 4
    assert f"made from {second} with exactly" in affray("verify", third).out


def test_verify_says_the_link_is_unchecked_when_the_parent_is_gone(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    out = tmp_path / "whatif.jsonl"
    affray("whatif", duel_log, "--set", CHANGE, "-o", out)
    duel_log.unlink()
    result = affray("verify", out)
    assert result.code == 0
    assert f"; the link to its parent {duel_log} is unchecked: not found (end " in result.out


def test_lineage_of_a_parent_that_is_not_a_log_says_so_in_one_line(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    out = tmp_path / "whatif.jsonl"
    affray("whatif", duel_log, "--set", CHANGE, "-o", out)
    duel_log.unlink()
    duel_log.write_text("root:x:0:0:root:/root:/bin/bash\n")
    result = affray("lineage", out)
    assert result.code == 0, result
    assert result.err == ""
    assert result.out.splitlines()[-1] == (
        f"  from {duel_log}: line 1 is not an affray log header; the link is unchecked"
    )


@pytest.mark.parametrize("command", ["lineage", "verify"])
def test_a_parent_that_is_a_fifo_is_not_opened(
    affray: Affray, duel_log: Path, tmp_path: Path, command: str
) -> None:
    out = tmp_path / "whatif.jsonl"
    affray("whatif", duel_log, "--set", CHANGE, "-o", out)
    duel_log.unlink()
    os.mkfifo(duel_log)
    result = affray(command, out)
    assert result.code == 0, result
    assert "is a fifo, not a log; affray reads only regular files" in result.out.splitlines()[-1]
    assert "unchecked" in result.out


def test_lineage_of_a_log_that_is_not_one_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    other = tmp_path / "passwd"
    other.write_text("root:x:0:0:root:/root:/bin/bash\n")
    assert_user_error(affray("lineage", other), "not an affray log")
