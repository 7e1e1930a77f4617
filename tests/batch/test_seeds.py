"""The seed of each run of a batch (batch/seeds.py)."""

from __future__ import annotations

import hashlib

from affray.batch.seeds import run_seed


def test_a_runs_seed_is_blake2b_of_the_scheme_the_batch_seed_and_its_number() -> None:
    digest = hashlib.blake2b(b"affray-battle-v1:1130:0", digest_size=16).digest()
    assert run_seed(1130, 0) == int.from_bytes(digest[:8], "big") & (2**63 - 1)


def test_runs_of_one_batch_have_different_seeds() -> None:
    seeds = {run_seed(7, i) for i in range(10_000)}
    assert len(seeds) == 10_000


def test_the_same_batch_seed_and_number_give_the_same_seed() -> None:
    assert run_seed(7, 41) == run_seed(7, 41) != run_seed(8, 41)


def test_a_seed_fits_a_scenarios_seed() -> None:
    assert all(0 <= run_seed(2**63 - 1, i) <= 2**63 - 1 for i in range(100))
