"""The players' copy of a referee's log (affray.replays.redact): what it withholds, that it folds as the
referee's log does, and that a copy is told from a log that is not its source."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.errors import LogError
from affray.events.reader import LogFile, read_bytes
from affray.events.sealed import Sealed
from affray.kernel.fold import digest, fold
from affray.replays.redact import Seal, copy_difference, players_copy
from affray.replays.verify import fold_only
from affray.rulesets import vocabulary_for
from tests.strategies import any_example, example_log, log_bytes, read, rechain, scenarios


def _scenario(log: LogFile) -> Any:
    return msgspec.json.decode(log.header.scenario)


def _copy_of(data: bytes) -> LogFile:
    return read_bytes(players_copy(read(data)), vocabulary_for, canonical=True)


def _sealing(scenario: Any, streams: list[str]) -> Any:
    return msgspec.structs.replace(scenario, dice=msgspec.structs.replace(scenario.dice, sealed=streams))


def test_a_log_whose_scenario_seals_nothing_is_not_redacted() -> None:
    log = read(example_log("duel"))
    with pytest.raises(LogError, match=r"its scenario seals no stream \(\$\.dice\.sealed\)"):
        Seal(log.header, log.vocabulary, "duel.jsonl")


def test_a_players_copy_is_not_redacted_again() -> None:
    copy = _copy_of(example_log("wolves"))
    with pytest.raises(LogError, match="it is a players' copy already"):
        Seal(copy.header, copy.vocabulary, "players.jsonl")


def test_the_copys_header_withholds_the_seed_and_the_fair_seeds_secrets_but_not_the_tags() -> None:
    copy = _copy_of(example_log("wolves"))
    reveals = _scenario(copy)["fair_seed"]["reveals"]
    assert isinstance(copy.header.seed, Sealed)
    assert [sorted(reveal) for reveal in reveals.values()] == [["secret", "tag"], ["secret", "tag"]]
    assert all(set(reveal["secret"]) == {"sealed"} for reveal in reveals.values())
    assert reveals["alice"]["tag"] == "3648ac463d613cc8c8274c36e59abbf0"


def test_a_roll_entered_for_a_sealed_stream_is_withheld_and_one_for_another_is_not() -> None:
    scenario = _sealing(any_example("duel"), ["gorm/*"])
    rolled = {"gorm/hit#1": 7, "brenna/hit#1": 93}
    scenario = msgspec.structs.replace(scenario, dice=msgspec.structs.replace(scenario.dice, rolled=rolled))
    entered = _scenario(_copy_of(log_bytes(scenario)))["dice"]["rolled"]
    assert (set(entered["gorm/hit#1"]), entered["brenna/hit#1"]) == ({"sealed"}, 93)


def test_a_what_if_that_changes_a_sealed_roll_is_not_redacted() -> None:
    log = read(example_log("wolves"))
    what_if = msgspec.structs.replace(log.header, changes=["wolf-2/hit#1=3"])
    with pytest.raises(LogError, match=r"a what-if that changes a sealed roll \(wolf-2/hit#1=3\)"):
        Seal(log.header, log.vocabulary, "w.jsonl").header(what_if, log.vocabulary.versions)


def test_redacting_twice_gives_one_copy_byte_for_byte() -> None:
    log = read(example_log("wolves"))
    assert players_copy(log) == players_copy(log)


def test_the_copy_folds_to_the_state_the_referees_log_folds_to() -> None:
    referee = read(example_log("wolves"))
    copy = _copy_of(example_log("wolves"))
    assert digest(fold(copy.events, copy.vocabulary)) == digest(fold(referee.events, referee.vocabulary))


def test_a_copy_is_its_referees_log_redacted() -> None:
    referee = read(example_log("wolves"))
    difference, sealed = copy_difference(
        _copy_of(example_log("wolves")), referee, Seal(referee.header, referee.vocabulary, "r")
    )
    assert (difference, sealed) == ("", 241)


def test_a_sealed_value_changed_in_the_referees_log_is_caught_at_its_seq() -> None:
    lines = example_log("wolves").splitlines()
    seq = next(
        i for i, line in enumerate(lines) if b'"roller":"wolf-2"' in line and b'"purpose":"hit"' in line
    )
    total = lines[seq].split(b'"total":')[1].split(b",")[0]
    lines[seq] = lines[seq].replace(b'"total":' + total + b",", b'"total":99,', 1)
    changed = read(rechain(lines))
    difference, _ = copy_difference(
        _copy_of(example_log("wolves")), changed, Seal(changed.header, changed.vocabulary, "r")
    )
    assert difference == (
        f"line {seq + 1} (seq {seq}): /hit/roll/total: the value the referee's log holds is not the one the "
        "players' copy committed to (a sealed value was changed)"
    )


def test_another_fight_is_told_from_the_copys_own_at_the_header() -> None:
    other = log_bytes(msgspec.structs.replace(any_example("wolves"), max_seconds=200))
    referee = read(other)
    difference, _ = copy_difference(
        _copy_of(example_log("wolves")), referee, Seal(referee.header, referee.vocabulary, "r")
    )
    assert difference.startswith(
        "line 1 (header): /scenario/max_seconds: the players' copy holds 240, the referee's log 200"
    )


@given(
    scenario=scenarios(),
    streams=st.lists(
        st.sampled_from(["*", "c0/*", "*/hit", "c1/perception", "c2/*", "*/type"]), min_size=1, max_size=3
    ),
)
def test_any_fights_copy_verifies_and_folds_as_its_source_does(scenario: Any, streams: list[str]) -> None:
    data = log_bytes(_sealing(scenario, streams))
    copy = _copy_of(data)
    referee = read(data)
    verdict = fold_only(copy)
    assert verdict.ok, verdict.message
    assert verdict.final_digest == digest(fold(referee.events, referee.vocabulary))
    assert copy_difference(copy, referee, Seal(referee.header, referee.vocabulary, "r"))[0] == ""
