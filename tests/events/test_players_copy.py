"""Reading a players' copy (affray.events.players_copy): its sealed values put in place as stand-ins, and
held to exactly what the copy must withhold."""

from __future__ import annotations

import functools

import pytest

from affray.events.reader import LogFile, read_bytes
from affray.events.sealed import Sealed, is_sealed
from affray.replays.redact import players_copy
from affray.rulesets import vocabulary_for
from tests.strategies import example_log, rechain

STAND_IN = b'{"sealed":"' + b"0" * 64 + b'"}'


def read(data: bytes, *, canonical: bool = False) -> LogFile:
    return read_bytes(data, vocabulary_for, canonical=canonical)


@functools.cache
def _copy() -> bytes:
    return players_copy(read(example_log("wolves")))


def _edited(seq: int, old: bytes, new: bytes) -> LogFile:
    lines = _copy().splitlines()
    assert old in lines[seq]
    lines[seq] = lines[seq].replace(old, new, 1)
    return read(rechain(lines))


def _first_attack_by_a_wolf() -> int:
    return next(
        i
        for i, line in enumerate(_copy().splitlines())
        if line.startswith(b'{"kind":"attack_resolved"') and b'"attacker":"wolf-' in line
    )


def test_a_sealed_roll_reads_as_a_roll_whose_faces_and_total_are_withheld() -> None:
    copy = read(_copy(), canonical=True)
    assert copy.problem is None
    joined = next(e for e in copy.events if getattr(e, "combatant", "") == "wolf-1")
    roll = joined.perception_roll  # type: ignore[attr-defined]
    assert (roll.stream, roll.draw, is_sealed(roll.faces), is_sealed(roll.total)) == (
        "wolf-1/perception",
        1,
        True,
        True,
    )


def test_a_roll_of_a_stream_not_sealed_is_in_the_clear() -> None:
    copy = read(_copy())
    joined = next(e for e in copy.events if getattr(e, "combatant", "") == "maren")
    assert joined.perception_roll.total == 2  # type: ignore[attr-defined]


def test_the_seed_is_withheld_in_the_header() -> None:
    assert isinstance(read(_copy()).header.seed, Sealed)


def test_a_value_in_the_clear_sealed_by_hand_is_not_a_valid_event() -> None:
    seq = _first_attack_by_a_wolf()
    copy = _edited(seq, b'"outcome":"', b'"weapon_type":' + STAND_IN + b',"outcome":"')
    assert copy.problem is not None
    assert copy.problem.seq == seq
    assert "/weapon_type is sealed, but it is neither a roll of a sealed stream nor" in copy.problem.message


def test_a_sealed_streams_roll_put_in_the_clear_is_not_a_valid_event() -> None:
    seq = _first_attack_by_a_wolf()
    line = _copy().splitlines()[seq]
    total = line[line.index(b'"total":{') : line.index(b'"total":{') + len(b'"total":') + len(STAND_IN)]
    copy = _edited(seq, total, b'"total":38')
    assert copy.problem is not None
    assert copy.problem.seq == seq
    assert (
        "/hit/roll/total is not sealed, but it belongs to a roll of a sealed stream" in copy.problem.message
    )


def test_a_stand_in_that_is_no_commitment_is_not_a_valid_event() -> None:
    seq = _first_attack_by_a_wolf()
    line = _copy().splitlines()[seq]
    start = line.index(b'"total":{"sealed":"') + len(b'"total":{"sealed":"')
    copy = _edited(seq, line[start : start + 64], b"X" * 64)
    assert copy.problem is not None
    assert "is not a commitment (64 lower-case hex digits)" in copy.problem.message


def test_a_header_whose_seed_is_sealed_but_that_says_nothing_of_sealing_is_refused() -> None:
    lines = _copy().splitlines()
    at = lines[0].index(b',"sealed":{"scheme"')
    header = lines[0][:at] + b"}"
    with pytest.raises(
        Exception, match="the seed is sealed, but the header does not say what the log withholds"
    ):
        read(rechain([header, *lines[1:]]))


def test_a_stand_in_written_otherwise_is_not_canonical() -> None:
    seq = _first_attack_by_a_wolf()
    lines = _copy().splitlines()
    lines[seq] = lines[seq].replace(b'"total":{"sealed":"', b'"total":{ "sealed":"', 1)
    copy = read(rechain(lines), canonical=True)
    assert copy.problem is not None
    assert (copy.problem.seq, "is not written as affray writes it" in copy.problem.message) == (seq, True)
