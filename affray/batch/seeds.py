"""The seed of each run of a batch: derived from the batch's seed and the run's number, so that any run can
be fought again alone (``affray run SCENARIO --seed X``) and no two runs share their dice.

Run ``i`` (from 0) of a batch with seed ``S`` has the seed whose 8 bytes are the first 8 of
BLAKE2b(``"affray-battle-v1:S:i"``, 16-byte digest) read big-endian, with the top bit cleared (a seed is
0 to 2^63 - 1). docs/batch.md says the same.
"""

from __future__ import annotations

import hashlib

SEED_SCHEME = "affray-battle-v1"
"""The name of the derivation, part of what is hashed: a new scheme would give new seeds."""


def run_seed(base: int, index: int) -> int:
    """The seed of run ``index`` of a batch with seed ``base``."""
    digest = hashlib.blake2b(f"{SEED_SCHEME}:{base}:{index}".encode(), digest_size=16).digest()
    return int.from_bytes(digest[:8], "big") & (2**63 - 1)
