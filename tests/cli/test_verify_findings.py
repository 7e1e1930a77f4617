"""``affray verify LOG``'s findings and exit codes: 0 ``ok``; 1 ``FAILED:`` for a damaged log (its chain,
lines or fold broken); 3 ``CHANGED:`` for a whole log that today's rules re-simulate otherwise (as a
re-chained edit does) and ``OTHER VERSION:`` for a whole log made under another ruleset version or dice.

In the duel (tests/golden/duel.jsonl), seq 1 is brenna joining with 32 damage points and seq 12 is her
first blow that lands (her first, seq 11, misses), 3.75 damage to gorm.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from affray.cli.group import EXIT_CHANGED, EXIT_VERIFY_FAILED
from tests.cli.conftest import ROOT, Affray, Result
from tests.strategies import BLOCK, chain_hash, join_lines, log_lines, rechain

DUEL = (ROOT / "tests" / "golden" / "duel.jsonl").read_bytes()
OLD_DUEL = ROOT / "tests" / "corpus" / "format-1" / "duel.jsonl"
DUEL_1 = (ROOT / "tests" / "corpus" / "format-1-last" / "duel.jsonl").read_bytes()
"""The golden duel in format 1, which chains every line."""
BLOCK_CHANGED = (
    "line 2 (seq 1): lines 2 to 32 (seqs 1 to 31) were changed: their hash no longer matches the prev that "
    "the end line records"
)
"""A change to the duel's one block of lines (format 2), as its chain tells it."""
RE_CHAINED = "or an edit was re-chained"


def rechain_keeping_what_follows(lines: list[bytes]) -> bytes:
    """A header and event lines, each ``prev`` where the header's format holds one, with every ``prev``
    recomputed and a fresh end line: as ``rechain``, but keeping whatever follows a line's ``prev`` member
    (which ``rechain`` drops), so that only those bytes are wrong."""
    blocks = b'"format_version":1,' not in lines[0]
    out, chained = [lines[0]], lines[0] + b"\n" if blocks else lines[0]
    for seq, line in enumerate(lines[1:], 1):
        if not blocks or seq % BLOCK == 1:
            at = line.rindex(b',"prev":"') + len(b',"prev":"')
            line = line[:at] + chain_hash(chained).encode() + line[at + 32 :]
            chained = b""
        out.append(line)
        chained = chained + line + b"\n" if blocks else line
    out.append(b'{"end":%d,"prev":"%s"}' % (len(out) - 1, chain_hash(chained).encode()))
    return join_lines(out)


def header_edited(old: bytes, new: bytes, log: bytes = DUEL) -> list[bytes]:
    lines = log_lines(log)
    assert old in lines[0]
    lines[0] = lines[0].replace(old, new, 1)
    return lines


def blow_edited(log: bytes = DUEL) -> list[bytes]:
    """The duel's lines with brenna's first blow that lands dealing 4.75 instead of 3.75."""
    lines = log_lines(log)
    assert b'"damage":3.75}' in lines[12]
    lines[12] = lines[12].replace(b'"damage":3.75}', b'"damage":4.75}', 1)
    return lines


def bump_time(line: bytes) -> bytes:
    edited, count = re.subn(rb'"t":(\d+)', lambda m: b'"t":%d' % (int(m[1]) + 1), line, count=1)
    assert count == 1
    return edited


def verified(affray: Affray, tmp_path: Path, data: bytes) -> tuple[Path, Result]:
    log = tmp_path / "duel.jsonl"
    log.write_bytes(data)
    return log, affray("verify", log)


def one_line(result: Result) -> str:
    assert "Traceback" not in result.err
    lines = result.out.splitlines()
    assert len(lines) == 1, result.out
    return lines[0]


def test_exit_codes_are_distinct() -> None:
    assert (EXIT_VERIFY_FAILED, EXIT_CHANGED) == (1, 3)


def test_a_golden_copy_is_ok(affray: Affray, tmp_path: Path) -> None:
    log, result = verified(affray, tmp_path, DUEL)
    assert result.code == 0, result
    assert one_line(result).startswith(f"ok: {log}: 31 events chain, fold and re-simulate identically")


# -- exit 3: whole, but simulated otherwise -----------------------------------------------------------


def test_a_re_chained_edit_of_an_event_is_changed(affray: Affray, tmp_path: Path) -> None:
    log, result = verified(affray, tmp_path, rechain(blow_edited()))
    assert result.code == EXIT_CHANGED, result
    line = one_line(result)
    assert line.startswith(f"CHANGED: {log}: line 13 (seq 12): differs from the re-simulation: ")
    assert "damage.damage: recorded 4.75, simulated 3.75" in line
    assert line.endswith(
        "; its chain and lines are whole: a rule or a table changed since it was made "
        "(or an edit was re-chained)"
    )


def test_a_re_chained_edit_of_the_headers_scenario_is_changed(affray: Affray, tmp_path: Path) -> None:
    log, result = verified(
        affray, tmp_path, rechain(header_edited(b'"damage_points":32', b'"damage_points":1'))
    )
    assert result.code == EXIT_CHANGED, result
    line = one_line(result)
    assert line.startswith(f"CHANGED: {log}: line 2 (seq 1): ")
    assert "damage_points: recorded 32, simulated 1" in line
    assert RE_CHAINED in line


def test_a_re_chained_log_cut_short_is_changed(affray: Affray, tmp_path: Path) -> None:
    log, result = verified(affray, tmp_path, rechain(log_lines(DUEL)[:21]))
    assert result.code == EXIT_CHANGED, result
    line = one_line(result)
    assert line.startswith(f"CHANGED: {log}: line 22 (seq 21): the log stops at seq 20")
    assert RE_CHAINED in line


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (b'"ruleset_version":"7"', b'"ruleset_version":"2"', "made under energion version 2"),
        (b'"dice":"blake2b-ctr-v2"', b'"dice":"blake2b-ctr-v0"', "its dice are 'blake2b-ctr-v0'"),
    ],
    ids=["ruleset-version", "dice"],
)
def test_a_whole_log_of_another_version_is_other_version(
    affray: Affray, tmp_path: Path, old: bytes, new: bytes, said: str
) -> None:
    log, result = verified(affray, tmp_path, rechain(header_edited(old, new)))
    assert result.code == EXIT_CHANGED, result
    line = one_line(result)
    assert line.startswith(f"OTHER VERSION: {log}: line 1 (header): {said}")
    assert "so it is not re-simulated" in line
    assert line.endswith("its chain and lines are whole, and it folds")


# -- exit 1: damaged -----------------------------------------------------------------------------------


def test_a_hand_edit_fails(affray: Affray, tmp_path: Path) -> None:
    log, result = verified(affray, tmp_path, join_lines(blow_edited()))
    assert result.code == EXIT_VERIFY_FAILED, result
    line = one_line(result)
    assert line.startswith(f"FAILED: {log}: line 13 (seq 12): ")
    assert RE_CHAINED not in line
    assert "CHANGED" not in line


def test_a_hand_edit_of_the_header_fails(affray: Affray, tmp_path: Path) -> None:
    log, result = verified(
        affray, tmp_path, join_lines(header_edited(b'"damage_points":32', b'"damage_points":1'))
    )
    assert result.code == EXIT_VERIFY_FAILED, result
    assert one_line(result).startswith(f"FAILED: {log}: ")


def test_a_hand_edit_of_another_versions_log_fails(affray: Affray, tmp_path: Path) -> None:
    # format 1 chains every line, so the hand edit is named at its line though the log is not re-simulated
    lines = log_lines(rechain(header_edited(b'"ruleset_version":"7"', b'"ruleset_version":"2"', DUEL_1)))
    lines[20] = bump_time(lines[20])
    log, result = verified(affray, tmp_path, join_lines(lines))
    assert result.code == EXIT_VERIFY_FAILED, result
    line = one_line(result)
    assert line.startswith(f"FAILED: {log}: line 1 (header): made under energion version 2")
    assert "; and line 21 (seq 20): " in line


def test_a_hand_edit_of_another_versions_format_2_log_names_its_block(affray: Affray, tmp_path: Path) -> None:
    # format 2 chains blocks of lines, and a log of another version is not re-simulated to tell which line
    # of the block differs: the block is named
    lines = log_lines(rechain(header_edited(b'"ruleset_version":"7"', b'"ruleset_version":"2"')))
    lines[20] = bump_time(lines[20])
    log, result = verified(affray, tmp_path, join_lines(lines))
    assert result.code == EXIT_VERIFY_FAILED, result
    line = one_line(result)
    assert line.startswith(f"FAILED: {log}: line 1 (header): made under energion version 2")
    assert line.endswith(f"; and {BLOCK_CHANGED}")


def test_a_re_chained_edit_then_a_hand_edit_after_it_fails(affray: Affray, tmp_path: Path) -> None:
    # in format 1, each is named at its line
    lines = log_lines(rechain(blow_edited(DUEL_1)))
    lines[20] = bump_time(lines[20])
    log, result = verified(affray, tmp_path, join_lines(lines))
    assert result.code == EXIT_VERIFY_FAILED, result
    line = one_line(result)
    assert line.startswith(f"FAILED: {log}: line 13 (seq 12): differs from the re-simulation: ")
    assert "; and line 21 (seq 20): " in line
    assert RE_CHAINED not in line


def test_a_re_chained_edit_then_a_hand_edit_in_its_block_fails(affray: Affray, tmp_path: Path) -> None:
    # in format 2 the hand edit breaks the chain of the block both are in: the first line of the block that
    # differs from the re-simulation is named, and the block
    lines = log_lines(rechain(blow_edited()))
    lines[20] = bump_time(lines[20])
    log, result = verified(affray, tmp_path, join_lines(lines))
    assert result.code == EXIT_VERIFY_FAILED, result
    line = one_line(result)
    assert line.startswith(f"FAILED: {log}: line 13 (seq 12): differs from the re-simulation: ")
    assert "damage.damage: recorded 4.75, simulated 3.75" in line
    assert line.endswith(f"; and {BLOCK_CHANGED}")
    assert RE_CHAINED not in line


# -- an older ruleset version's log, not in today's canonical form ------------------------------------


def test_an_old_corpus_log_is_of_another_version_not_damaged(affray: Affray, tmp_path: Path) -> None:
    """A log of an older ruleset version is read as written (older logs need not be in today's canonical
    form) and chain-checked: whole, it is OTHER VERSION (exit 3), as regress says too."""
    _, result = verified(affray, tmp_path, OLD_DUEL.read_bytes())
    assert result.code == EXIT_CHANGED, result
    line = one_line(result)
    assert line.startswith("OTHER VERSION: "), line
    assert "made under energion version 1" in line


def test_a_number_written_otherwise_and_re_chained_is_changed_naming_the_field(
    affray: Affray, tmp_path: Path
) -> None:
    # brenna's position [0.000,0.000] written [0.0,0.000]: one number, another line; the finding named no
    # field ("combatant_joined ;") since the values compared equal
    lines = log_lines(DUEL)
    lines[1] = lines[1].replace(b'"position":[0.000,', b'"position":[0.0,', 1)
    _, result = verified(affray, tmp_path, rechain(lines))
    assert result.code == EXIT_CHANGED, result
    assert (
        "line 2 (seq 1): differs from the re-simulation: combatant_joined position[0]: recorded 0.0, "
        "simulated 0.000 (the same number, written otherwise)"
    ) in one_line(result)


def test_whitespace_after_a_lines_closing_brace_is_named_at_that_line(affray: Affray, tmp_path: Path) -> None:
    # seq 4's line ends "} " and the log is re-chained: the line blamed was seq 3's, whose hash still holds
    *lines, _ = log_lines(DUEL_1)
    lines[4] += b" "
    log, result = verified(affray, tmp_path, rechain_keeping_what_follows(lines))
    assert result.code == EXIT_VERIFY_FAILED, result
    assert one_line(result) == (
        f"FAILED: {log}: line 5 (seq 4): does not end with its prev as affray writes it "
        "(the prev member last, nothing after)"
    )


def test_whitespace_after_a_blocks_first_line_is_named_at_that_line(affray: Affray, tmp_path: Path) -> None:
    # format 2: seq 1 begins the duel's one block and ends with its prev, then " "
    *lines, _ = log_lines(DUEL)
    lines[1] += b" "
    log, result = verified(affray, tmp_path, rechain_keeping_what_follows(lines))
    assert result.code == EXIT_VERIFY_FAILED, result
    assert one_line(result) == (
        f"FAILED: {log}: line 2 (seq 1): does not end with its prev as affray writes it "
        "(the prev member last, nothing after)"
    )


def test_whitespace_after_a_line_inside_a_block_is_named_at_that_line(affray: Affray, tmp_path: Path) -> None:
    # format 2: seq 4 holds no prev, so its " " is held to the canonical form
    *lines, _ = log_lines(DUEL)
    lines[4] += b" "
    log, result = verified(affray, tmp_path, rechain_keeping_what_follows(lines))
    assert result.code == EXIT_VERIFY_FAILED, result
    assert one_line(result) == (
        f"FAILED: {log}: line 5 (seq 4): is not written as affray writes it "
        "(a member added, repeated, reordered or reformatted)"
    )
