"""Forgeries a careful forger makes (an edit, then every hash recomputed) that decoding alone forgives:
``verify`` holds every line to the bytes affray writes and names the seq that is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from affray.events.reader import NOT_CANONICAL
from tests.cli.conftest import Affray, rechain

# seq 7 of the duel: brenna readies her sword, {"kind":"weapon_readied","seq":7,"t":5333,...}
SEQ = 7


def forged(tmp_path: Path, duel_bytes: bytes, edit: tuple[bytes, bytes], seq: int = SEQ) -> Path:
    lines = duel_bytes.split(b"\n")[:-2]  # without the end line and the trailing empty string
    old, new = edit
    assert old in lines[seq], lines[seq]
    lines[seq] = lines[seq].replace(old, new, 1)
    path = tmp_path / "forged.jsonl"
    path.write_bytes(rechain(lines))
    return path


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param((b',"seq":7', b',"note":"forged","seq":7'), id="member-added"),
        pytest.param((b'"seq":7', b'"seq": 7'), id="whitespace"),
        pytest.param((b'"weapon":', b'"weapon": '), id="space-before-a-value"),
        pytest.param((b',"seq":7', b',"seq":6,"seq":7'), id="duplicate-key"),
    ],
)
def test_a_rechained_line_not_written_as_affray_writes_fails_at_its_seq(
    affray: Affray, tmp_path: Path, duel_bytes: bytes, edit: tuple[bytes, bytes]
) -> None:
    log = forged(tmp_path, duel_bytes, edit)
    result = affray("verify", log)
    assert result.code == 1, result
    assert result.out == f"FAILED: {log}: line 8 (seq 7): {NOT_CANONICAL}\n"


def test_a_number_written_otherwise_fails_at_its_seq(
    affray: Affray, tmp_path: Path, duel_bytes: bytes
) -> None:
    # brenna's 32 damage points written as 3.2e1 decode to the same Decimal
    log = forged(tmp_path, duel_bytes, (b'"damage_points":32', b'"damage_points":3.2e1'), seq=1)
    result = affray("verify", log)
    assert result.out == f"FAILED: {log}: line 2 (seq 1): {NOT_CANONICAL}\n"


def test_a_member_added_to_the_header_fails_at_line_1(
    affray: Affray, tmp_path: Path, duel_bytes: bytes
) -> None:
    log = forged(
        tmp_path, duel_bytes, (b'"format":"affray-log",', b'"format":"affray-log","note":"x",'), seq=0
    )
    result = affray("verify", log)
    assert result.code == 1, result
    assert result.out == f"FAILED: {log}: line 1 (header): the header {NOT_CANONICAL}\n"


def test_an_untouched_log_verifies(affray: Affray, duel_log: Path) -> None:
    assert affray("verify", duel_log).code == 0


def test_the_replay_still_reads_a_forged_member(affray: Affray, tmp_path: Path, duel_bytes: bytes) -> None:
    # reading forgives what verify does not: the log is told, and verify is where forgeries are caught
    log = forged(tmp_path, duel_bytes, (b',"seq":7', b',"note":"forged","seq":7'))
    assert affray("replay", log).code == 0


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param((b'{"format"', b'{"format'), id="invalid-json"),
        pytest.param((b'"format":"affray-log"', b'"format":"affray-lag"'), id="invalid-member"),
    ],
)
def test_a_damaged_header_is_a_failed_verification_at_line_1(
    affray: Affray, tmp_path: Path, duel_bytes: bytes, damage: tuple[bytes, bytes]
) -> None:
    # tampering, not a wrong file: the lines below are the log's events, so verify says FAILED and exits 1
    log = tmp_path / "damaged.jsonl"
    log.write_bytes(duel_bytes.replace(*damage, 1))
    result = affray("verify", log)
    assert result.code == 1, result
    assert result.out.startswith(f"FAILED: {log}: line 1 (header): is not an affray log header")
