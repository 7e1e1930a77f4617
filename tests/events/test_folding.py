"""Narrow kinds: a kind cut down to the members its fold reads (affray.events.folding), and a vocabulary's
decoder for readings that only fold."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from affray.events.energion.kinds import AttackResolved, Waited
from affray.events.energion.state import ENERGION, EnergionState
from affray.events.folding import UnknownMember, narrowed
from affray.events.shared import kind_of
from affray.events.state import SHARED
from affray.events.vocabulary import Part, Vocabulary, VocabularyError

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
PARRIED_HIT = next(
    line
    for line in (GOLDEN / "duel.jsonl").read_bytes().splitlines()
    if b'"attack_resolved"' in line and b'"parry":{' in line and b'"damage":{' in line
)
"""A landed blow the defender tried to parry, as the duel's golden log holds it."""


def _members(kind: type[msgspec.Struct]) -> list[str]:
    return [field.name for field in msgspec.structs.fields(kind)]


def test_a_narrow_kind_holds_seq_t_and_the_members_named_in_the_kinds_order() -> None:
    narrow = narrowed(AttackResolved, ("weapon", "attacker"))
    assert _members(narrow) == ["seq", "t", "attacker", "weapon"]


def test_a_narrow_kind_keeps_the_kinds_tag() -> None:
    assert kind_of(narrowed(AttackResolved, ("attacker",))) == "attack_resolved"


def test_a_narrow_kind_cuts_a_record_down_to_the_members_named_in_it() -> None:
    narrow = narrowed(AttackResolved, ("hit.weapon_type", "hit.location"))
    hit = msgspec.structs.fields(narrow)[-1].type
    assert _members(hit) == ["weapon_type", "location"]


def test_a_record_that_may_be_missing_stays_optional() -> None:
    narrow = narrowed(AttackResolved, ("parry.device",))
    event = msgspec.json.decode(b'{"kind":"attack_resolved","seq":4,"parry":null}', type=narrow)
    assert event.parry is None


def test_a_path_naming_no_member_is_refused() -> None:
    with pytest.raises(UnknownMember, match="AttackResolved has no member 'hits'"):
        narrowed(AttackResolved, ("hits.weapon_type",))


def test_a_path_into_a_member_that_is_no_record_is_refused() -> None:
    with pytest.raises(UnknownMember, match="weapon is no record"):
        narrowed(AttackResolved, ("weapon.name",))


def test_a_narrow_decode_reads_the_members_named_as_the_kind_does() -> None:
    narrow = narrowed(AttackResolved, ("attacker", "parry.device", "damage.damage"))
    whole = msgspec.json.decode(PARRIED_HIT, type=AttackResolved)
    event = msgspec.json.decode(PARRIED_HIT, type=narrow)
    assert (event.seq, event.t, event.attacker) == (whole.seq, whole.t, whole.attacker)
    assert event.parry is not None
    assert whole.parry is not None
    assert event.parry.device == whole.parry.device
    assert event.damage is not None
    assert whole.damage is not None
    assert event.damage.damage == whole.damage.damage


def test_a_narrow_decode_checks_the_members_it_reads() -> None:
    narrow = narrowed(AttackResolved, ("damage.damage",))
    damaged = PARRIED_HIT.replace(b'"damage":{"base":', b'"damage":{"damage":"x","base":', 1)
    with pytest.raises(msgspec.ValidationError, match=r"\$\.damage\.damage"):
        msgspec.json.decode(damaged, type=narrow)


def test_a_narrow_decode_skips_the_members_it_does_not_read_unchecked() -> None:
    narrow = narrowed(AttackResolved, ("attacker",))
    odd = PARRIED_HIT.replace(b'"hit":{', b'"hit":{"skill":"not a number",', 1)
    assert msgspec.json.decode(odd, type=narrow).attacker


def test_a_vocabulary_applies_a_narrow_kind_as_its_kind() -> None:
    vocabulary = Vocabulary(EnergionState, SHARED, ENERGION)
    narrow = vocabulary.narrow[AttackResolved]
    assert vocabulary.appliers[narrow] is vocabulary.appliers[AttackResolved]


def test_a_kind_another_part_extends_without_listing_its_reads_is_decoded_whole() -> None:
    extension = Part(name="tally", appliers={}, extends={AttackResolved: lambda state, event: None})
    vocabulary = Vocabulary(EnergionState, SHARED, ENERGION, extension)
    assert AttackResolved not in vocabulary.narrow


def test_the_reads_of_every_applier_of_a_kind_make_its_narrow_kind() -> None:
    extension = Part(
        name="tally",
        appliers={},
        extends={AttackResolved: lambda state, event: None},
        folds={AttackResolved: ("outcome",)},
    )
    narrow = Vocabulary(EnergionState, SHARED, ENERGION, extension).narrow[AttackResolved]
    assert "outcome" in _members(narrow)
    assert "attacker" in _members(narrow)


def test_a_part_listing_the_reads_of_a_kind_it_does_not_apply_is_refused() -> None:
    stray = Part(name="stray", appliers={}, folds={Waited: ("reason",)})
    with pytest.raises(VocabularyError, match="stray: lists the reads of Waited, which it does not apply"):
        _ = Vocabulary(EnergionState, SHARED, ENERGION, stray).narrow


def test_a_part_listing_a_member_its_kind_does_not_have_is_refused() -> None:
    wrong = Part(
        name="wrong", appliers={}, extends={Waited: lambda state, event: None}, folds={Waited: ("why",)}
    )
    with pytest.raises(VocabularyError, match="waited: Waited has no member 'why'"):
        _ = Vocabulary(EnergionState, SHARED, ENERGION, wrong).narrow
