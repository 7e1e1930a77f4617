"""A batch on a real Dask cluster: a ``dask scheduler`` and a ``dask worker`` started on loopback (ports
chosen free, dashboards on 127.0.0.1:0), the batch sent to them, the report compared with the local one;
both processes are stopped by their process groups at the end, whatever happens."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.conftest import Affray, assert_user_error, run_process

distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed")

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples" / "duel.toml"
DASK = Path(sys.executable).with_name("dask")
STARTUP_S = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(*args: str) -> subprocess.Popen[bytes]:
    """A Dask process in its own process group, its output kept out of the test's."""
    return subprocess.Popen(
        [str(DASK), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the process and everything it started, by its process group."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=20)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a scheduler with one worker, both on 127.0.0.1."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = start(
        "scheduler", "--host", "127.0.0.1", "--port", str(port), "--dashboard-address", "127.0.0.1:0"
    )
    worker = None
    try:
        worker = start(
            "worker",
            address,
            "--host",
            "127.0.0.1",
            "--nthreads",
            "1",
            "--nworkers",
            "1",
            "--dashboard-address",
            "127.0.0.1:0",
        )
        client = distributed.Client(address, timeout=STARTUP_S, set_as_default=False)
        try:
            client.wait_for_workers(1, timeout=STARTUP_S)
        finally:
            client.close()
        yield address
    finally:
        if worker is not None:
            stop(worker)
        stop(scheduler)


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
