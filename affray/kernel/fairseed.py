"""Fair seeds: an encounter seed that no one party chose (docs/log-format.md, "Fair seeds").

Each party (the referee, each player) picks a secret and gives the others only its commitment, a hash of
its name and secret. Once every commitment is in the scenario, each party reveals its secret; the seed is
a hash of every party's name and secret, so no party could steer it without the others' secrets, and no
party can change its secret after committing.
"""

from __future__ import annotations

import hashlib
import secrets as random_secrets
from typing import Annotated

import msgspec

from affray.errors import ScenarioError

COMMITMENT_DOMAIN = b"affray-seed-commitment-v1"
SEED_DOMAIN = b"affray-seed-v1"
Party = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,40}$")]
Commitment = Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{64}$")]
Secret = Annotated[str, msgspec.Meta(min_length=16, max_length=200)]


class FairSeed(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A scenario's ``[fair_seed]``: every party's commitment, and the secrets revealed."""

    commitments: Annotated[dict[Party, Commitment], msgspec.Meta(min_length=2)]
    reveals: dict[Party, Secret] = msgspec.field(default_factory=dict)


def commitment(party: str, secret: str) -> str:
    """The hex BLAKE2b-256 of the domain, the party's name and its secret, each ended by a zero byte."""
    message = b"%s\x00%s\x00%s\x00" % (COMMITMENT_DOMAIN, party.encode(), secret.encode())
    return hashlib.blake2b(message, digest_size=32).hexdigest()


def new_secret() -> str:
    """A secret no one can guess: 32 random hex digits from the operating system."""
    return random_secrets.token_hex(16)


def derived_seed(reveals: dict[str, str]) -> int:
    """The seed every revealed secret gives: BLAKE2b-64 of the domain and, in order of the parties'
    names, each name and secret ended by a zero byte, read big-endian and halved to fit 0..2^63-1."""
    message = SEED_DOMAIN + b"\x00"
    for party in sorted(reveals):
        message += b"%s\x00%s\x00" % (party.encode(), reveals[party].encode())
    return int.from_bytes(hashlib.blake2b(message, digest_size=8).digest(), "big") >> 1


def seed_of(fair: FairSeed, source: str) -> int:
    """The seed of a scenario's fair seed; ScenarioError naming the party whose reveal is missing, comes
    from no commitment, or does not match its commitment."""
    where = f"{source}: $.fair_seed.reveals"
    for party in fair.reveals:
        if party not in fair.commitments:
            raise ScenarioError(f"{where}.{party}: {party} made no commitment")
    missing = [party for party in fair.commitments if party not in fair.reveals]
    if missing:
        raise ScenarioError(f"{where}: {', '.join(missing)} has not revealed a secret yet")
    for party, secret in fair.reveals.items():
        if commitment(party, secret) != fair.commitments[party]:
            raise ScenarioError(f"{where}.{party}: the secret does not match {party}'s commitment")
    return derived_seed(dict(fair.reveals))
