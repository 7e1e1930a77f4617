"""``affray redact`` and ``affray reveal``, and the players' copy in every command that reads a log: the
referee's hidden wolf pack of examples/wolves.toml (docs/log-format.md, "Sealed rolls")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.cli.conftest import DUEL, EXAMPLES, Affray, assert_user_error, rechain
from tests.strategies import example_log

WOLVES = EXAMPLES / "wolves.toml"


@pytest.fixture
def referee(tmp_path: Path) -> Path:
    log = tmp_path / "referee.jsonl"
    log.write_bytes(example_log("wolves"))
    return log


@pytest.fixture
def players(affray: Affray, referee: Path) -> Path:
    copy = referee.with_name("players.jsonl")
    result = affray("redact", referee, "-o", copy)
    assert result.code == 0, result
    return copy


def test_redact_says_what_the_copy_withholds(affray: Affray, referee: Path, tmp_path: Path) -> None:
    result = affray("redact", referee, "-o", tmp_path / "players.jsonl")
    assert result.out == (
        f"{tmp_path / 'players.jsonl'}: the players' copy of {referee}: 126 events, 237 values sealed "
        "(streams wolf-*/*), and its fair seed's secrets\n"
    )


def test_the_copy_holds_no_roll_of_a_sealed_stream_nor_the_seed(players: Path, referee: Path) -> None:
    copy = players.read_text()
    seed = json.loads(referee.read_text().splitlines()[0])["seed"]
    assert str(seed) not in copy
    assert '"roller":"wolf-1","source":"generated"' in copy
    assert all('"faces":[' not in line for line in copy.splitlines() if '"roller":"wolf-' in line)


def test_the_players_copy_verifies_and_says_why_it_is_not_re_simulated(affray: Affray, players: Path) -> None:
    result = affray("verify", players)
    assert result.code == 0, result
    first = result.out.splitlines()[0]
    assert first.startswith(f"ok: {players}: a players' copy: 126 events chain and fold (final state ")
    assert first.endswith(
        "237 values of the streams wolf-*/* are sealed, and the fair seed's secrets, so the fight is not "
        f"re-simulated: once the referee's log is out, affray reveal {players} REFEREE-LOG checks every "
        "sealed value and re-simulates it"
    )
    assert result.out.splitlines()[1:] == [
        "  alice's tag: 3648ac463d613cc8c8274c36e59abbf0 (as recorded: the reveal checks it)",
        "  referee's tag: e7dd871706d3f41e0153102afb548fb2 (as recorded: the reveal checks it)",
    ]


def test_the_copy_folds_to_the_state_the_referees_log_does(
    affray: Affray, players: Path, referee: Path
) -> None:
    def final(log: Path) -> str:
        return affray("verify", log).out.split("(final state ")[1][:32]

    assert final(players) == final(referee)


def test_reveal_checks_each_sealed_value_then_re_simulates(
    affray: Affray, players: Path, referee: Path
) -> None:
    result = affray("reveal", players, referee)
    assert result.code == 0, result
    lines = result.out.splitlines()
    assert (
        lines[0] == f"ok: {players}: each of its 241 sealed values is the one {referee} holds, as committed"
    )
    assert lines[1].startswith(f"ok: {referee}: 126 events chain, fold and re-simulate identically")
    assert lines[2:] == [
        "  alice's tag: 3648ac463d613cc8c8274c36e59abbf0",
        "  referee's tag: e7dd871706d3f41e0153102afb548fb2",
    ]


def test_a_sealed_roll_the_referee_changed_after_is_caught_at_its_seq(
    affray: Affray, players: Path, referee: Path
) -> None:
    lines = referee.read_bytes().splitlines()
    seq = next(i for i, line in enumerate(lines) if i and b'"purpose":"hit","roller":"wolf-2"' in line)
    lines[seq] = re.sub(rb'"total":\d+', b'"total":99', lines[seq], count=1)
    forged = referee.with_name("forged.jsonl")
    forged.write_bytes(rechain(lines[:-1]))
    result = affray("reveal", players, forged)
    assert result.code == 1, result
    assert result.out == (
        f"FAILED: {players}: not {forged} redacted: line {seq + 1} (seq {seq}): /hit/roll/total: the value "
        "the referee's log holds is not the one the players' copy committed to (a sealed value was changed)\n"
    )


def test_regress_reads_a_copy_and_skips_it(affray: Affray, players: Path) -> None:
    result = affray("regress", players)
    assert result.code == 0, result
    assert result.out.splitlines() == [
        f"SEALED {players}: line 1 (header): a players' copy: it chains and folds, but its seed and sealed "
        "rolls are withheld, so it is not re-simulated (affray reveal checks it against the referee's log)",
        "1 log: 0 unchanged, 0 changed (0 with another winner), 0 damaged, 0 unreadable, 0 of another "
        "version, 1 players' copy not re-simulated",
    ]


def test_reveal_of_another_fight_names_where_it_differs(
    affray: Affray, players: Path, tmp_path: Path
) -> None:
    scenario, other = tmp_path / "wolves.toml", tmp_path / "other.jsonl"
    scenario.write_text(WOLVES.read_text().replace("max_seconds = 240", "max_seconds = 200"))
    assert affray("run", scenario, "-o", other).code == 0
    result = affray("reveal", players, other)
    assert result.code == 1
    assert result.out.startswith(f"FAILED: {players}: not {other} redacted: line 1 (header): /")


def test_reveal_of_a_log_that_is_no_players_copy_is_refused(affray: Affray, referee: Path) -> None:
    assert_user_error(affray("reveal", referee, referee), "not a players' copy: nothing in it is sealed")


def test_redact_of_a_log_whose_scenario_seals_nothing_is_refused(affray: Affray, tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    assert affray("run", DUEL, "-o", log).code == 0
    result = affray("redact", log, "-o", tmp_path / "players.jsonl")
    assert_user_error(result, "its scenario seals no stream ($.dice.sealed)")
    assert not (tmp_path / "players.jsonl").exists()


def test_redact_of_a_damaged_log_is_refused_and_writes_nothing(affray: Affray, referee: Path) -> None:
    referee.write_bytes(b"\n".join(referee.read_bytes().splitlines()[:40]) + b"\n")
    result = affray("redact", referee, "-o", referee.with_name("players.jsonl"))
    assert_user_error(result, "the log is cut short", "only a whole log is redacted")
    assert sorted(p.name for p in referee.parent.iterdir()) == ["referee.jsonl"]


def test_redact_never_writes_over_a_file_unless_forced(affray: Affray, referee: Path, players: Path) -> None:
    players.write_bytes(b"mine")
    assert_user_error(affray("redact", referee, "-o", players), str(players))
    assert players.read_bytes() == b"mine"
    assert affray("redact", referee, "-o", players, "--force").code == 0


def test_a_copy_of_a_plain_seed_warns_that_guessing_the_seed_unseals(affray: Affray, tmp_path: Path) -> None:
    scenario = tmp_path / "duel.toml"
    scenario.write_text(
        DUEL.read_text().replace("max_seconds = 120", 'max_seconds = 120\n\n[dice]\nsealed = ["gorm/*"]')
    )
    log = tmp_path / "duel.jsonl"
    assert affray("run", scenario, "-o", log).code == 0
    result = affray("redact", log, "-o", tmp_path / "players.jsonl")
    assert result.code == 0
    assert result.err.startswith(
        "warning: the seed is the scenario's own, so whoever guesses it can work out"
    )


@pytest.mark.parametrize(
    "command",
    [
        ["whatif", "{log}", "--set", "maren/hit#1=5", "-o", "{out}"],
        ["odds", "{log}"],
        ["battle", "{log}@10", "--runs", "2"],
    ],
)
def test_a_copy_cannot_be_fought_again(affray: Affray, players: Path, command: list[str]) -> None:
    args = [a.format(log=players, out=players.with_name("w.jsonl")) for a in command]
    result = affray(*args)
    assert result.code == 2, result
    assert (
        "a players' copy withholds its seed and sealed rolls, so its fight cannot be run again" in result.err
    )


def test_replay_says_sealed_where_a_roll_is_withheld(affray: Affray, players: Path) -> None:
    result = affray("replay", players)
    attack = next(line for line in result.out.splitlines() if "#44 " in line)
    assert "roll sealed @wolf-2/hit#1 = quality sealed -> x0.2 of 7.5" in attack
    assert result.out.splitlines()[0].endswith("seed sealed")


def test_explain_lists_what_it_can_and_how_much_is_sealed(affray: Affray, players: Path) -> None:
    result = affray("explain", players, "44", "--json")
    steps = {step["what"]: step["value"] for step in json.loads(result.out)["steps"]}
    assert (steps["sealed"], steps["hit.roll"], steps["hit.quality"], steps["damage.damage"]) == (
        "3",
        "sealed",
        "sealed",
        "1.5",
    )


def test_state_timeline_and_view_read_a_copy(affray: Affray, players: Path) -> None:
    assert affray("state", players, "--at", "10").code == 0
    assert affray("timeline", players, "-o", players.with_suffix(".png")).code == 0
    assert affray("view", players, "-o", players.with_suffix(".html")).code == 0


def test_diff_shows_a_sealed_value_as_sealed(affray: Affray, players: Path, referee: Path) -> None:
    result = affray("diff", referee, players)
    rows = [line.split() for line in result.out.splitlines()]
    assert rows[next(i for i, r in enumerate(rows) if r[:1] == ["perception_roll.total"])][:3] == [
        "perception_roll.total",
        "1",
        "sealed",
    ]


def test_a_signed_referees_log_gives_an_unsigned_copy_and_says_so(
    affray: Affray, referee: Path, tmp_path: Path
) -> None:
    assert affray("keygen", "referee", "-o", tmp_path).code == 0
    assert affray("sign", referee, "--key", tmp_path / "referee.key").code == 0
    copy = tmp_path / "players.jsonl"
    result = affray("redact", referee, "-o", copy)
    assert result.out.splitlines()[1] == (
        f"note: {referee}'s 1 signature(s) hold for it alone and were not copied: sign the copy anew"
    )
    assert b'{"signer":' not in copy.read_bytes()
    assert affray("sign", copy, "--key", tmp_path / "referee.key").code == 0
    assert affray("verify", copy).code == 0
