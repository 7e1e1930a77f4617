"""Logs from strangers: deep nesting and absurd numbers, with the chain recomputed, are told or refused in
one line, never with a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import Affray, assert_user_error, rechain

DEEP = b"[" * 100_000 + b"]" * 100_000


def hostile(tmp_path: Path, duel_bytes: bytes, line: int, old: bytes, new: bytes) -> Path:
    lines = duel_bytes.split(b"\n")[:-2]
    assert old in lines[line]
    edited = lines[line].replace(old, new, 1)
    path = tmp_path / "hostile.jsonl"
    if line == 0:
        path.write_bytes(rechain([edited, *lines[1:]], format_version=2))
    else:
        lines[line] = edited
        path.write_bytes(rechain(lines))
    return path


@pytest.mark.parametrize("command", ["replay", "state"])
def test_a_header_nested_a_hundred_thousand_deep_is_one_error_line(
    affray: Affray, tmp_path: Path, duel_bytes: bytes, command: str
) -> None:
    log = hostile(tmp_path, duel_bytes, 0, b'"seed":1130', b'"seed":1130,"x":' + DEEP)
    assert_user_error(affray(command, log), "line 1 is not an affray log header", "recursion")


def test_verify_fails_a_header_nested_a_hundred_thousand_deep(
    affray: Affray, tmp_path: Path, duel_bytes: bytes
) -> None:
    log = hostile(tmp_path, duel_bytes, 0, b'"seed":1130', b'"seed":1130,"x":' + DEEP)
    result = affray("verify", log)
    assert result.code == 1
    assert result.out.startswith(f"FAILED: {log}: line 1 (header): ")


def test_an_event_nested_a_hundred_thousand_deep_is_shown_up_to_it(
    affray: Affray, tmp_path: Path, duel_bytes: bytes
) -> None:
    log = hostile(tmp_path, duel_bytes, 7, b'"combatant":"brenna"', b'"combatant":' + DEEP)
    result = affray("replay", log)
    assert result.code == 0, result
    assert result.err_lines[0].startswith(f"warning: {log}: line 8 (seq 7): not a valid event")


@pytest.mark.parametrize("figure", [b"1e400", b"9" * 5000, b"1" + b"0" * 30])
@pytest.mark.parametrize("command", ["replay", "state"])
def test_an_absurd_number_is_told_not_a_crash(
    affray: Affray, tmp_path: Path, duel_bytes: bytes, figure: bytes, command: str
) -> None:
    log = hostile(tmp_path, duel_bytes, 1, b'"damage_points":32', b'"damage_points":' + figure)
    result = affray(command, log)
    assert result.code == 0, result
    assert "e+" in result.out


def test_verify_tells_an_absurd_number_in_scientific_notation(
    affray: Affray, tmp_path: Path, duel_bytes: bytes
) -> None:
    log = hostile(tmp_path, duel_bytes, 1, b'"damage_points":32', b'"damage_points":' + b"9" * 5000)
    result = affray("verify", log)
    assert result.code == 3  # re-chained: whole, but not what the rules make
    assert len(result.out) < 400
    assert "damage_points: recorded 1.000000e+5000, simulated 32" in result.out
