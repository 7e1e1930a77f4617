"""Energion's kinds across versions: ``perceived`` and ``reacted`` of version 1 are upcast, and
``hold_damage`` reads as ``hold_damage_dealt`` (docs/log-format.md, "Versions, upcasters and former
names"). The old logs are the corpus's, as earlier affrays wrote them."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from affray.errors import LogError
from affray.events.codec import encode_log
from affray.events.energion.kinds import HoldDamageDealt, Perceived, Reacted
from affray.events.energion.state import ENERGION, EnergionState
from affray.events.state import SHARED
from affray.events.vocabulary import Part, Vocabulary, VocabularyError
from tests.strategies import log_lines, read, read_path, rechain

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
GOLDEN = Path(__file__).resolve().parents[2] / "golden"
DICE_V1 = CORPUS / "format-1-dice-v1"
EARLY_DUEL = CORPUS / "format-1-early" / "duel.jsonl"
PINNED_BRAWL = CORPUS / "format-1-pins" / "brawl.jsonl"


def _records(path: Path, kind: str) -> list[dict[str, object]]:
    """The raw JSON of the lines of ``kind``, as the file holds them."""
    lines = path.read_bytes().splitlines()[1:-1]
    return [record for record in map(json.loads, lines) if record["kind"] == kind]


def test_a_version_1_perceived_roll_reads_as_the_perception_roll() -> None:
    recorded = [record["roll"]["total"] for record in _records(EARLY_DUEL, "perceived")]  # type: ignore[index]
    events = [e for e in read_path(EARLY_DUEL).events if isinstance(e, Perceived)]
    assert [e.perception_roll.total for e in events if e.perception_roll] == recorded == [1, 8]


def test_a_version_1_reacted_roll_reads_as_the_reaction_roll() -> None:
    lines = log_lines(EARLY_DUEL.read_bytes())
    roll = b'{"expr":"1d4","faces":[3],"total":3,"purpose":"reaction","roller":"brenna","source":"generated"}'
    lines[4] = lines[4].replace(b'"roll":null', b'"roll":' + roll)
    reacted = next(e for e in read(rechain(lines)).events if isinstance(e, Reacted))
    assert reacted.reaction_roll is not None
    assert reacted.reaction_roll.total == 3


def test_a_version_2_reacted_line_leaves_out_its_defaults() -> None:
    line = next(
        line
        for line in log_lines((GOLDEN / "duel.jsonl").read_bytes())
        if line.startswith(b'{"kind":"reacted"')
    )
    assert b'"prepared"' not in line
    assert b'"roll"' not in line


def test_hold_damage_under_its_former_name_reads_as_hold_damage_dealt() -> None:
    recorded = [record["seq"] for record in _records(PINNED_BRAWL, "hold_damage")]
    events = read_path(PINNED_BRAWL).events
    assert [e.seq for e in events if isinstance(e, HoldDamageDealt)] == recorded
    assert recorded


def test_an_old_log_read_through_upcasters_and_aliases_writes_out_as_todays_log() -> None:
    # format-1-pins/brawl.jsonl is the fight rolled with blake2b-ctr-v1, written before perceived and
    # reacted were version 2 and hold_damage was renamed: read, its events are those of the same fight
    # written by today's kinds, the last golden log rolled with v1 (format-1-dice-v1/brawl.jsonl)
    v1_golden = DICE_V1 / "brawl.jsonl"
    golden = read_path(v1_golden)
    old = read_path(PINNED_BRAWL)
    assert encode_log(golden.header, old.events) == v1_golden.read_bytes()


def test_a_line_under_a_former_name_is_refused_in_a_log_whose_header_has_todays() -> None:
    lines = log_lines((GOLDEN / "brawl.jsonl").read_bytes())
    at = next(i for i, line in enumerate(lines) if b'"kind":"hold_damage_dealt"' in line)
    lines[at] = lines[at].replace(b'"hold_damage_dealt"', b'"hold_damage"')
    problem = read(rechain(lines)).problem
    assert problem is not None
    assert (problem.seq, problem.message) == (
        at,
        "unknown event kind 'hold_damage' (not a kind of shared + energion)",
    )


def test_a_header_listing_a_former_name_newer_than_today_is_refused() -> None:
    data = PINNED_BRAWL.read_bytes()
    newer = data.replace(b'"hold_damage":1', b'"hold_damage":2', 1)
    with pytest.raises(LogError, match="line 1: hold_damage version 2 is newer than this affray"):
        read(newer)


def test_energion_names_its_former_kinds() -> None:
    vocabulary = Vocabulary(EnergionState, SHARED, ENERGION)
    assert vocabulary.aliases == {"hold_damage": "hold_damage_dealt"}


def test_an_alias_of_a_kind_no_part_defines_is_refused() -> None:
    stray = Part(name="stray", appliers={}, aliases={"old": "nowhere"})
    with pytest.raises(VocabularyError, match="alias 'old' names 'nowhere', which no part defines"):
        Vocabulary(EnergionState, SHARED, ENERGION, stray)


def test_an_alias_that_is_a_kind_of_today_is_refused() -> None:
    stray = Part(name="stray", appliers={}, aliases={"moved": "hold_damage_dealt"})
    with pytest.raises(VocabularyError, match="alias 'moved' is the name of a kind shared defines"):
        Vocabulary(EnergionState, SHARED, ENERGION, stray)


def test_the_upcasters_leave_a_version_1_line_without_its_roll_as_it_was() -> None:
    upcaster = ENERGION.upcasters[("perceived", 1)]
    record = {"kind": "perceived", "seq": 3, "combatant": "a", "after_ms": 0}
    assert upcaster(dict(record)) == record
    assert msgspec.convert(record, Perceived) == Perceived(seq=3, combatant="a", after_ms=0)
