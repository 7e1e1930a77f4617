"""A batch on a real Dask cluster (tests/cli/conftest.py's ``scheduler``: a ``dask scheduler`` and a ``dask
worker`` on loopback), the batch sent to them, the report compared with the local one."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.cli.conftest import Affray, assert_user_error, free_port, run_process

distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed")

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples" / "duel.toml"


def test_a_batch_on_the_cluster_reports_what_a_local_one_does(affray: Affray, scheduler: str) -> None:
    local = affray("battle", DUEL, "--runs", "200", "--json")
    remote = affray("battle", DUEL, "--runs", "200", "--json", "--scheduler", scheduler)
    assert remote.code == 0, remote
    assert json.loads(remote.out) == json.loads(local.out)


def test_a_recorded_fight_fought_on_on_the_cluster_reports_what_a_local_one_does(
    affray: Affray, scheduler: str, tmp_path: Path
) -> None:
    # the continuation's scenario travels to the workers with the batch (BatchSpec.mapping)
    log = tmp_path / "duel.jsonl"
    assert affray("run", DUEL, "-o", log).code == 0
    local = affray("battle", f"{log}@10", "--runs", "200", "--json")
    remote = affray("battle", f"{log}@10", "--runs", "200", "--json", "--scheduler", scheduler)
    assert remote.code == 0, remote
    assert json.loads(remote.out) == json.loads(local.out)


@pytest.mark.thorough  # a long test: .ci/run runs it after the quick suite
def test_a_scheduler_that_does_not_answer_is_one_error_line(affray: Affray) -> None:
    started = time.monotonic()
    result = affray("battle", DUEL, "--runs", "2", "--scheduler", f"tcp://127.0.0.1:{free_port()}")
    assert_user_error(result, "no Dask scheduler answers there")
    assert time.monotonic() - started < 120


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("tcp://[::1", "not an address (Invalid IPv6 URL)"),
        ("tcp://127.0.0.1:99999", "not an address (Port out of range"),
        ("tcp://127.0.0.1", "expected tcp://HOST:PORT"),
        ("tls://127.0.0.1:8786", "by tcp:// only"),
        ("ucx://127.0.0.1:8786", "by tcp:// only"),
    ],
)
def test_an_address_dask_cannot_use_is_refused_before_a_client_is_made(address: str, said: str) -> None:
    # a Client made for these printed its error, hung 20 s closing, then "Exception ignored in Client.__del__"
    assert_user_error(run_process("battle", DUEL, "--runs", "2", "--scheduler", address), said)
