"""Fair seeds from the command line: ``affray seed commit``, a scenario's ``[fair_seed]``, and verify."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest

from affray.kernel.fairseed import commitment, derived_seed
from tests.cli.conftest import DUEL, Affray, assert_user_error, rechain
from tests.strategies import read_path

ALICE, REFEREE = "0123456789abcdef" * 2, "fedcba9876543210" * 2


def fair_scenario(tmp_path: Path, reveals: dict[str, str], seed: str = "") -> Path:
    """The duel with its seed from alice's and the referee's secrets."""
    text = re.sub(r"^seed = \d+\n", seed, DUEL.read_text(), flags=re.M)
    commitments = "".join(
        f'{p} = "{commitment(p, s)}"\n' for p, s in (("alice", ALICE), ("referee", REFEREE))
    )
    revealed = "".join(f'{p} = "{s}"\n' for p, s in reveals.items())
    path = tmp_path / "fair.toml"
    path.write_text(f"{text}\n[fair_seed.commitments]\n{commitments}\n[fair_seed.reveals]\n{revealed}")
    return path


BOTH = {"alice": ALICE, "referee": REFEREE}


def test_commit_keeps_the_secret_for_its_owner_alone_and_prints_its_commitment(
    affray: Affray, tmp_path: Path
) -> None:
    kept = tmp_path / "alice.secret"
    result = affray("seed", "commit", "alice", "-o", kept)
    assert result.code == 0, result
    secret = kept.read_text().strip()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert result.out.splitlines()[-1] == f'alice = "{commitment("alice", secret)}"'


def test_commit_never_writes_over_a_secret(affray: Affray, tmp_path: Path) -> None:
    kept = tmp_path / "alice.secret"
    kept.write_text("mine\n")
    assert_user_error(affray("seed", "commit", "alice", "-o", kept), "never written over")
    assert kept.read_text() == "mine\n"


def test_a_party_name_is_a_plain_word(affray: Affray, tmp_path: Path) -> None:
    assert_user_error(affray("seed", "commit", "a b", "-o", tmp_path / "x"), "a party's name")


def test_a_fair_scenario_runs_with_the_seed_the_secrets_give(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "fair.jsonl"
    assert affray("run", fair_scenario(tmp_path, BOTH), "-o", out).code == 0
    assert read_path(out).header.seed == derived_seed(BOTH)


def test_verify_says_whose_secrets_gave_the_seed(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "fair.jsonl"
    affray("run", fair_scenario(tmp_path, BOTH), "-o", out)
    result = affray("verify", out)
    assert result.code == 0
    assert result.out.rstrip().endswith(
        "the seed comes from the secrets of alice, referee, each matching its commitment"
    )


def test_a_changed_reveal_fails_verification_naming_the_party(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "fair.jsonl"
    affray("run", fair_scenario(tmp_path, BOTH), "-o", out)
    lines = out.read_bytes().split(b"\n")[:-2]
    lines[0] = lines[0].replace(ALICE.encode(), ALICE[::-1].encode())
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(rechain(lines))
    result = affray("verify", forged)
    assert result.code == 1
    assert "$.fair_seed.reveals.alice: the secret does not match alice's commitment" in result.out


def test_a_scenario_waiting_for_a_reveal_names_who(affray: Affray, tmp_path: Path) -> None:
    scenario = fair_scenario(tmp_path, {"alice": ALICE})
    assert_user_error(
        affray("run", scenario, "-o", tmp_path / "o.jsonl"), "referee has not revealed a secret yet"
    )


@pytest.mark.parametrize("seed", ["seed = 7\n", 'seed = "x"\n'])
def test_a_seed_other_than_the_secrets_give_is_refused(affray: Affray, tmp_path: Path, seed: str) -> None:
    scenario = fair_scenario(tmp_path, BOTH, seed)
    assert_user_error(
        affray("run", scenario, "-o", tmp_path / "o.jsonl"), "is not the seed the revealed secrets give"
    )
