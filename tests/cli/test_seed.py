"""Fair seeds from the command line: ``affray seed commit``, a scenario's ``[fair_seed]``, and verify."""

from __future__ import annotations

import contextlib
import io
import os
import re
import stat
import tomllib
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from affray.kernel.fairseed import FairSeed, commitment, derived_seed, tag
from tests.cli.conftest import DUEL, Affray, assert_user_error, call_main, rechain
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


def test_verify_says_whose_secrets_gave_an_untagged_seed_and_that_the_set_is_not_bound(
    affray: Affray, tmp_path: Path
) -> None:
    out = tmp_path / "fair.jsonl"
    affray("run", fair_scenario(tmp_path, BOTH), "-o", out)
    result = affray("verify", out)
    assert result.code == 0
    assert result.out.rstrip().endswith(
        "the seed comes from the secrets of alice, referee, each matching its commitment "
        "(fair seed of scheme 1: the set of parties is not bound)"
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


def test_a_scenario_of_untagged_reveals_runs_with_a_warning(affray: Affray, tmp_path: Path) -> None:
    result = affray("run", fair_scenario(tmp_path, BOTH), "-o", tmp_path / "fair.jsonl")
    assert result.code == 0
    assert result.err_lines == [
        f"warning: {tmp_path / 'fair.toml'}: fair seed of scheme 1: the set of parties is not bound; "
        "reveal with affray seed reveal, which tags each secret over every party's commitment "
        '(docs/log-format.md, "Fair seeds")'
    ]


# -- party names: one rule, whatever the command ------------------------------------------------------


@pytest.mark.parametrize("name", ["émile", "a b", "x" * 41, "", "a\x1b[2Jb", 'a"b', "a=b", "a.b"])
def test_a_party_name_outside_the_rule_is_one_error_line(affray: Affray, tmp_path: Path, name: str) -> None:
    assert_user_error(
        affray("seed", "commit", name, "-o", tmp_path / "x.secret"),
        "a party's name is 1 to 40 ASCII letters, digits, - or _",
    )
    assert not (tmp_path / "x.secret").exists()


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(min_size=0, max_size=45))
def test_commit_prints_valid_toml_or_one_error_line(
    affray: Affray, tmp_path_factory: pytest.TempPathFactory, name: str
) -> None:
    folder = tmp_path_factory.mktemp("commit")
    result = affray("seed", "commit", "-o", folder / "s.secret", "--", name)  # "--": a name may start "-"
    if result.code == 2:
        assert_user_error(result, "a party's name")
        return
    assert result.code == 0, result
    parsed = tomllib.loads(result.out.splitlines()[-1])
    secret = (folder / "s.secret").read_text().strip()
    assert parsed == {name: commitment(name, secret)}
    # and the scenario's tables take the same names (beside another party's: a fair seed has two or more)
    other = "b" if name != "b" else "c"
    msgspec.convert({"commitments": {name: parsed[name], other: parsed[name]}}, FairSeed)


# -- seed reveal: a reveal tagged over every commitment ------------------------------------------------


def committed_scenario(tmp_path: Path, parties: list[str]) -> Path:
    """Each party's secret made by ``seed commit`` in tmp_path, and the duel with their commitments."""
    lines = []
    for party in parties:
        out = call(["seed", "commit", party, "-o", tmp_path / f"{party}.secret"])
        lines.append(out.splitlines()[-1])
    text = re.sub(r"^seed = \d+\n", "", DUEL.read_text(), flags=re.M)
    path = tmp_path / "fair.toml"
    path.write_text(f"{text}\n[fair_seed.commitments]\n" + "\n".join(lines) + "\n")
    return path


def call(args: list[str | Path]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert call_main(args) == 0
    return out.getvalue()


def reveal_line(affray: Affray, tmp_path: Path, party: str, scenario: Path) -> str:
    result = affray(
        "seed",
        "reveal",
        party,
        "--scenario",
        scenario,
        "--secret",
        tmp_path / f"{party}.secret",
        "--tag",
        tmp_path / f"{party}.tag",
    )
    assert result.code == 0, result
    return result.out.splitlines()[-1]


def with_reveals(scenario: Path, lines: list[str]) -> None:
    scenario.write_text(scenario.read_text() + "\n[fair_seed.reveals]\n" + "\n".join(lines) + "\n")


def test_reveal_prints_the_secret_and_its_tag_over_every_commitment_and_keeps_the_tag(
    affray: Affray, tmp_path: Path
) -> None:
    scenario = committed_scenario(tmp_path, ["alice", "referee"])
    result = affray(
        "seed",
        "reveal",
        "alice",
        "--scenario",
        scenario,
        "--secret",
        tmp_path / "alice.secret",
        "--tag",
        tmp_path / "alice.tag",
    )
    assert result.code == 0, result
    secret = (tmp_path / "alice.secret").read_text().strip()
    commitments = tomllib.loads(scenario.read_text())["fair_seed"]["commitments"]
    assert (
        result.out.splitlines()[0]
        == "alice's secret, tagged over the commitments of 2 parties: alice, referee"
    )
    assert tomllib.loads(result.out.splitlines()[-1]) == {
        "alice": {"secret": secret, "tag": tag(secret, commitments)}
    }
    assert (tmp_path / "alice.tag").read_text() == f"{tag(secret, commitments)}\n"


def test_a_fair_seed_of_tagged_reveals_runs_and_verify_shows_each_tag(affray: Affray, tmp_path: Path) -> None:
    scenario = committed_scenario(tmp_path, ["alice", "referee"])
    with_reveals(scenario, [reveal_line(affray, tmp_path, p, scenario) for p in ("alice", "referee")])
    out = tmp_path / "fair.jsonl"
    ran = affray("run", scenario, "-o", out)
    assert ran.code == 0, ran
    assert ran.err == ""
    lines = affray("verify", out).out.splitlines()
    assert lines[0].endswith("each matching its commitment and tagged over all 2 (fair seed of scheme 2)")
    kept = {p: (tmp_path / f"{p}.tag").read_text().strip() for p in ("alice", "referee")}
    assert lines[1:] == [f"  alice's tag: {kept['alice']}", f"  referee's tag: {kept['referee']}"]


def test_a_party_added_after_the_reveals_is_refused_naming_whose_tag_it_breaks(
    affray: Affray, tmp_path: Path
) -> None:
    # the attack: alice and bob revealed; whoever assembles the scenario adds zz, with a
    # commitment and a reveal he may try until the dice suit him
    scenario = committed_scenario(tmp_path, ["alice", "bob"])
    honest = [reveal_line(affray, tmp_path, p, scenario) for p in ("alice", "bob")]
    zz = "5e0c1b7a9d3f2e4c6b8a0d1f3e5c7b9a"
    text = scenario.read_text().replace(
        "[fair_seed.commitments]\n", f'[fair_seed.commitments]\nzz = "{commitment("zz", zz)}"\n'
    )
    scenario.write_text(text)
    commitments = tomllib.loads(text)["fair_seed"]["commitments"]
    with_reveals(scenario, [*honest, f'zz = {{ secret = "{zz}", tag = "{tag(zz, commitments)}" }}'])
    assert_user_error(
        affray("run", scenario, "-o", tmp_path / "o.jsonl"),
        "$.fair_seed.reveals.alice.tag: not made over the commitments of alice, bob, zz",
    )


def test_reveal_refuses_a_second_reveal_over_another_set(affray: Affray, tmp_path: Path) -> None:
    scenario = committed_scenario(tmp_path, ["alice", "referee"])
    reveal_line(affray, tmp_path, "alice", scenario)
    reveal_line(affray, tmp_path, "alice", scenario)  # the same set again: the same tag
    scenario.write_text(scenario.read_text() + f'zz = "{"0" * 64}"\n')
    result = affray(
        "seed",
        "reveal",
        "alice",
        "--scenario",
        scenario,
        "--secret",
        tmp_path / "alice.secret",
        "--tag",
        tmp_path / "alice.tag",
    )
    assert_user_error(result, "holds the tag of a reveal over another set of commitments")


def test_reveal_refuses_a_secret_that_is_not_the_partys(affray: Affray, tmp_path: Path) -> None:
    scenario = committed_scenario(tmp_path, ["alice", "referee"])
    result = affray(
        "seed", "reveal", "alice", "--scenario", scenario, "--secret", tmp_path / "referee.secret"
    )
    assert_user_error(result, "this secret does not match alice's commitment")


def test_reveal_names_a_party_without_a_commitment(affray: Affray, tmp_path: Path) -> None:
    scenario = committed_scenario(tmp_path, ["alice", "referee"])
    result = affray("seed", "reveal", "bob", "--scenario", scenario, "--secret", tmp_path / "alice.secret")
    assert_user_error(result, "no commitment of bob (it holds alice, referee)")


def test_reveal_refuses_a_weak_hand_made_secret(affray: Affray, tmp_path: Path) -> None:
    weak = "0123456789abcdef" * 2
    (tmp_path / "alice.secret").write_text(weak + "\n")
    scenario = tmp_path / "fair.toml"
    scenario.write_text(
        f'[fair_seed.commitments]\nalice = "{commitment("alice", weak)}"\nbob = "{"0" * 64}"\n'
    )
    result = affray("seed", "reveal", "alice", "--scenario", scenario, "--secret", tmp_path / "alice.secret")
    assert_user_error(result, "a few digits repeated")
    assert not (tmp_path / "alice.tag").exists()


@pytest.mark.parametrize("made", [os.mkfifo, lambda p: p.mkdir()], ids=["fifo", "folder"])
def test_reveal_never_reads_a_secret_that_is_not_a_regular_file(
    affray: Affray, tmp_path: Path, made: Callable[[Path], None]
) -> None:
    scenario = committed_scenario(tmp_path, ["alice", "referee"])
    fifo = tmp_path / "other.secret"
    made(fifo)
    result = affray("seed", "reveal", "alice", "--scenario", scenario, "--secret", fifo)
    assert_user_error(result, f"{fifo}: is a")


def test_reveal_refuses_a_secret_file_too_large(affray: Affray, tmp_path: Path) -> None:
    scenario = committed_scenario(tmp_path, ["alice", "referee"])
    big = tmp_path / "big.secret"
    big.write_bytes(b"0" * 2000)
    result = affray("seed", "reveal", "alice", "--scenario", scenario, "--secret", big)
    assert_user_error(result, "larger than 1 KiB, the most a secret file may hold")
