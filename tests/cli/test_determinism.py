"""The same scenario gives the same log bytes in any process, whatever Python's hash seed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import DUEL, SKIRMISH, run_process

HASH_SEEDS = ["0", "1", "random"]


@pytest.mark.parametrize("scenario", [pytest.param(DUEL, id="duel"), pytest.param(SKIRMISH, id="skirmish")])
def test_log_is_byte_identical_under_every_pythonhashseed(tmp_path: Path, scenario: Path) -> None:
    logs: dict[str, bytes] = {}
    for seed in HASH_SEEDS:
        out = tmp_path / f"hashseed-{seed}.jsonl"
        result = run_process("run", scenario, "-o", out, env={"PYTHONHASHSEED": seed})
        assert result.code == 0, result
        logs[seed] = out.read_bytes()
    assert logs["1"] == logs["0"]
    assert logs["random"] == logs["0"]


def test_subprocess_log_matches_the_in_process_log(tmp_path: Path, duel_bytes: bytes) -> None:
    out = tmp_path / "duel.jsonl"
    assert run_process("run", DUEL, "-o", out, env={"PYTHONHASHSEED": "12345"}).code == 0
    assert out.read_bytes() == duel_bytes
