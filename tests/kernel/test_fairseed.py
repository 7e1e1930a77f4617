"""Fair seeds (docs/log-format.md, "Fair seeds"): commitments, reveals and the seed they derive."""

from __future__ import annotations

import hashlib

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.errors import ScenarioError
from affray.kernel.fairseed import FairSeed, commitment, derived_seed, new_secret, seed_of

ALICE, REFEREE = "a" * 32, "b" * 32


def fair(reveals: dict[str, str]) -> FairSeed:
    return FairSeed(
        commitments={"alice": commitment("alice", ALICE), "referee": commitment("referee", REFEREE)},
        reveals=reveals,
    )


def test_a_commitment_hashes_the_domain_the_party_and_the_secret() -> None:
    by_hand = hashlib.blake2b(
        b"affray-seed-commitment-v1\x00alice\x00" + ALICE.encode() + b"\x00", digest_size=32
    )
    assert commitment("alice", ALICE) == by_hand.hexdigest()


def test_the_seed_hashes_every_party_and_secret_in_the_order_of_their_names() -> None:
    message = (
        b"affray-seed-v1\x00alice\x00" + ALICE.encode() + b"\x00referee\x00" + REFEREE.encode() + b"\x00"
    )
    by_hand = int.from_bytes(hashlib.blake2b(message, digest_size=8).digest(), "big") >> 1
    assert derived_seed({"referee": REFEREE, "alice": ALICE}) == by_hand


@given(st.text(min_size=16, max_size=40), st.text(min_size=16, max_size=40))
def test_a_seed_fits_a_scenario_seed(first: str, second: str) -> None:
    assert 0 <= derived_seed({"a": first, "b": second}) < 2**63


def test_no_party_alone_chooses_the_seed() -> None:
    # changing either secret changes the seed
    seeds = {derived_seed({"alice": a, "referee": r}) for a in (ALICE, "c" * 32) for r in (REFEREE, "d" * 32)}
    assert len(seeds) == 4


def test_revealed_secrets_that_match_their_commitments_give_the_seed() -> None:
    assert seed_of(fair({"alice": ALICE, "referee": REFEREE}), "f.toml") == derived_seed(
        {"alice": ALICE, "referee": REFEREE}
    )


def test_a_secret_that_does_not_match_its_commitment_names_the_party() -> None:
    with pytest.raises(
        ScenarioError, match=r"\$\.fair_seed\.reveals\.alice: the secret does not match alice's"
    ):
        seed_of(fair({"alice": "c" * 32, "referee": REFEREE}), "f.toml")


def test_a_party_yet_to_reveal_is_named() -> None:
    with pytest.raises(ScenarioError, match="referee has not revealed a secret yet"):
        seed_of(fair({"alice": ALICE}), "f.toml")


def test_a_reveal_without_a_commitment_is_refused() -> None:
    with pytest.raises(ScenarioError, match="mallory made no commitment"):
        seed_of(fair({"alice": ALICE, "referee": REFEREE, "mallory": "e" * 32}), "f.toml")


def test_a_fair_seed_needs_two_parties() -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"commitments": {"alice": commitment("alice", ALICE)}}, FairSeed)


def test_a_new_secret_is_32_hex_digits_and_never_the_same() -> None:
    secrets = {new_secret() for _ in range(20)}
    assert len(secrets) == 20
    assert all(len(s) == 32 and int(s, 16) >= 0 for s in secrets)
