"""Fair seeds: an encounter seed that no one party chose (docs/log-format.md, "Fair seeds").

Each party (the referee, each player) picks a secret and gives the others only its commitment, a hash of
its name and secret. Once every commitment is in the scenario, each party reveals its secret with a tag
its secret makes over the whole set of commitments; the seed is a hash of every party's name and secret,
so no party could steer it without the others' secrets, no party can change its secret after committing,
and a party added (or dropped) after the reveals changes the set every earlier tag was made over.

Scheme 1, reveals without tags, is still read (older logs hold it): it binds each secret to its
commitment but not the set of parties, so whoever assembles the reveals could add a party of their own.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets as random_secrets
from collections.abc import Mapping
from typing import Annotated, Literal

import msgspec

from affray.errors import ScenarioError

COMMITMENT_DOMAIN = b"affray-seed-commitment-v1"
SEED_DOMAIN = b"affray-seed-v1"
TAG_DOMAIN = b"affray-seed-tag-v2"
PARTY_PATTERN = r"^[A-Za-z0-9_-]{1,40}$"
PARTY_RULE = "a party's name is 1 to 40 ASCII letters, digits, - or _"
SECRET_PATTERN = r"^[0-9a-f]{32,128}$"
SECRET_RULE = "a tagged reveal's secret is 32 to 128 lowercase hex digits, as affray seed commit makes"
TAG_BYTES = 16
Party = Annotated[str, msgspec.Meta(pattern=PARTY_PATTERN)]
Commitment = Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{64}$")]
Secret = Annotated[str, msgspec.Meta(min_length=16, max_length=200)]
"""A secret of scheme 1: any text (read so that older logs verify)."""
StrongSecret = Annotated[str, msgspec.Meta(max_length=200)]
"""A secret of scheme 2, checked by :func:`weakness` (whose message says the rule)."""
Tag = Annotated[str, msgspec.Meta(pattern=rf"^[0-9a-f]{{{2 * TAG_BYTES}}}$")]
Scheme = Literal[1, 2]


class TaggedReveal(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A reveal of scheme 2: the secret, and the tag it makes over every party's commitment."""

    secret: StrongSecret
    tag: Tag


class FairSeed(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A scenario's ``[fair_seed]``: every party's commitment, and the secrets revealed (each with its tag
    in scheme 2; a bare secret in scheme 1)."""

    commitments: Annotated[dict[Party, Commitment], msgspec.Meta(min_length=2)]
    reveals: dict[Party, Secret | TaggedReveal] = msgspec.field(default_factory=dict)

    @property
    def scheme(self) -> Scheme:
        """2 when the reveals carry tags, 1 when they do not (or none is in yet)."""
        return 2 if any(isinstance(r, TaggedReveal) for r in self.reveals.values()) else 1

    def secrets(self) -> dict[str, str]:
        """Each party's revealed secret."""
        return {p: r.secret if isinstance(r, TaggedReveal) else r for p, r in self.reveals.items()}

    def tags(self) -> dict[str, str]:
        """Each party's tag, in order of the parties' names (none in scheme 1)."""
        return {p: r.tag for p, r in sorted(self.reveals.items()) if isinstance(r, TaggedReveal)}


def commitment(party: str, secret: str) -> str:
    """The hex BLAKE2b-256 of the domain, the party's name and its secret, each ended by a zero byte."""
    message = b"%s\x00%s\x00%s\x00" % (COMMITMENT_DOMAIN, party.encode(), secret.encode())
    return hashlib.blake2b(message, digest_size=32).hexdigest()


def tag(secret: str, commitments: Mapping[str, str]) -> str:
    """The tag ``secret`` makes over the set of commitments: HMAC-SHA-256 keyed with the secret, of the
    domain and, in order of the parties' names, each name and commitment ended by a zero byte; its first
    16 bytes, hex."""
    message = TAG_DOMAIN + b"\x00"
    for party in sorted(commitments):
        message += b"%s\x00%s\x00" % (party.encode(), commitments[party].encode())
    return hmac.new(secret.encode(), message, hashlib.sha256).digest()[:TAG_BYTES].hex()


def weakness(secret: str) -> str:
    """Why a secret may hold less than 128 bits of chance, as far as can be told ("" when it does not
    seem to): not 32 to 128 lowercase hex digits, a pattern repeated, or few different digits."""
    if re.fullmatch(SECRET_PATTERN, secret) is None:
        return SECRET_RULE
    size = len(secret)
    if any(secret == (secret[:n] * size)[:size] for n in range(1, size // 2 + 1)):
        return "it is a few digits repeated: not a random secret"
    if len(set(secret)) < 8:
        return f"it uses only {len(set(secret))} different digits: not a random secret"
    return ""


def new_secret() -> str:
    """A secret no one can guess: 32 random hex digits from the operating system (drawn again in the
    rare case that it looks made by hand, so that every check passes)."""
    while True:
        secret = random_secrets.token_hex(16)
        if not weakness(secret):
            return secret


def derived_seed(reveals: Mapping[str, str]) -> int:
    """The seed every revealed secret gives: BLAKE2b-64 of the domain and, in order of the parties'
    names, each name and secret ended by a zero byte, read big-endian and halved to fit 0..2^63-1."""
    message = SEED_DOMAIN + b"\x00"
    for party in sorted(reveals):
        message += b"%s\x00%s\x00" % (party.encode(), reveals[party].encode())
    return int.from_bytes(hashlib.blake2b(message, digest_size=8).digest(), "big") >> 1


def seed_of(fair: FairSeed, source: str) -> int:
    """The seed of a scenario's fair seed; ScenarioError naming the party whose reveal is missing, comes
    from no commitment, does not match its commitment, or (scheme 2) is weak, lacks a tag while others
    have one, or whose tag was not made over this set of commitments."""
    where = f"{source}: $.fair_seed.reveals"
    for party in fair.reveals:
        if party not in fair.commitments:
            raise ScenarioError(f"{where}.{party}: {party} made no commitment")
    missing = [party for party in fair.commitments if party not in fair.reveals]
    if missing:
        raise ScenarioError(f"{where}: {', '.join(missing)} has not revealed a secret yet")
    for party, secret in fair.secrets().items():
        if commitment(party, secret) != fair.commitments[party]:
            raise ScenarioError(f"{where}.{party}: the secret does not match {party}'s commitment")
    if fair.scheme == 2:
        _check_tags(fair, where)
    return derived_seed(fair.secrets())


def _check_tags(fair: FairSeed, where: str) -> None:
    for party, reveal in fair.reveals.items():
        if not isinstance(reveal, TaggedReveal):
            raise ScenarioError(
                f"{where}.{party}: a secret without its tag, where the other reveals have theirs "
                "(affray seed reveal prints both)"
            )
        weak = weakness(reveal.secret)
        if weak:
            raise ScenarioError(f"{where}.{party}.secret: {weak}")
        if not hmac.compare_digest(tag(reveal.secret, fair.commitments), reveal.tag):
            raise ScenarioError(
                f"{where}.{party}.tag: not made over the commitments of {', '.join(sorted(fair.commitments))}"
                f": the set of parties changed after {party} revealed"
            )


def told(fair: FairSeed) -> list[str]:
    """What ``affray verify`` says of a fair seed that holds: whose secrets gave the seed and under which
    scheme, then each party's tag (scheme 2), which that party checks against the one it kept."""
    parties = ", ".join(sorted(fair.commitments))
    said = f"the seed comes from the secrets of {parties}, each matching its commitment"
    if fair.scheme == 1:
        return [f"{said} (fair seed of scheme 1: the set of parties is not bound)"]
    tagged = f"{said} and tagged over all {len(fair.commitments)} (fair seed of scheme 2)"
    return [tagged, *(f"{party}'s tag: {value}" for party, value in fair.tags().items())]


UNBOUND = (
    "fair seed of scheme 1: the set of parties is not bound; reveal with affray seed reveal, which tags each "
    'secret over every party\'s commitment (docs/log-format.md, "Fair seeds")'
)
"""What ``affray run`` warns of a scenario whose reveals carry no tags."""


def unbound(scenario: object) -> bool:
    """Whether a scenario's seed comes from a fair seed of scheme 1, whose set of parties is not bound."""
    fair = getattr(scenario, "fair_seed", None)
    return isinstance(fair, FairSeed) and fair.scheme == 1
