"""The event vocabulary: frozen, keyword-only Structs tagged with stable snake_case kinds."""

from __future__ import annotations

import inspect
import re
import typing

import msgspec
import pytest

from affray.events.base import Event, Roll, actor_field, named_fields
from affray.events.energion.kinds import AttackResolved, CombatantJoined, Perceived
from affray.events.energion.state import vocabulary
from affray.events.shared import CombatantOut, EncounterEnded, kind_of
from tests.strategies import all_kinds

EVENT_KINDS = sorted(all_kinds(), key=lambda kind: f"{kind.__module__}.{kind.__name__}")
KINDS = pytest.mark.parametrize(
    "kind", EVENT_KINDS, ids=lambda kind: f"{kind.__module__.split('.')[2]}.{kind_of(kind)}"
)


@KINDS
def test_every_kind_is_tagged_with_a_snake_case_name(kind: type[Event]) -> None:
    assert re.fullmatch(r"[a-z]+(_[a-z]+)*", kind_of(kind))


def test_kind_tags_are_unique_within_each_vocabulary() -> None:
    kinds = vocabulary(["special_damage"]).kinds
    tags = [kind_of(kind) for kind in kinds]
    assert len(tags) == len(set(tags))


def test_kind_of_gives_the_tag_written_in_the_log() -> None:
    assert kind_of(AttackResolved) == "attack_resolved"


def test_the_tagged_union_lists_exactly_the_vocabularys_kinds() -> None:
    energion = vocabulary(["special_damage"])
    assert set(typing.get_args(energion.union)) == set(energion.kinds)


@KINDS
def test_every_kind_is_an_event_tagged_in_the_kind_field(kind: type[Event]) -> None:
    assert issubclass(kind, Event)
    assert kind.__struct_config__.tag_field == "kind"


@KINDS
def test_every_kind_is_frozen_and_keyword_only(kind: type[Event]) -> None:
    parameters = inspect.signature(kind).parameters.values()
    assert kind.__struct_config__.frozen
    assert {p.kind for p in parameters} == {inspect.Parameter.KEYWORD_ONLY}


def test_an_event_cannot_be_changed_after_it_is_built() -> None:
    event = CombatantOut(combatant="gorm", reason="damage points at 0")
    with pytest.raises(AttributeError):
        event.reason = "changed"  # type: ignore[misc]


def test_an_event_cannot_be_built_from_positional_arguments() -> None:
    with pytest.raises(TypeError):
        CombatantOut(1, 0, "gorm", "damage points at 0")  # type: ignore[call-arg]


@KINDS
def test_every_kind_has_a_positive_integer_version(kind: type[Event]) -> None:
    assert isinstance(kind.VERSION, int)
    assert kind.VERSION >= 1


def test_an_event_leaves_seq_and_t_at_zero_until_it_is_emitted() -> None:
    event = Perceived(combatant="brenna", after_ms=0)
    assert (event.seq, event.t) == (0, 0)


def test_an_events_json_starts_with_kind_seq_and_t() -> None:
    event = Perceived(seq=3, t=1500, combatant="brenna", after_ms=1500)
    assert msgspec.json.encode(event).startswith(b'{"kind":"perceived","seq":3,"t":1500,')


def test_a_roll_is_generated_unless_it_says_otherwise() -> None:
    roll = Roll(expr="1d10", faces=(4,), total=4, purpose="perception", roller="gorm")
    assert roll.source == "generated"


def test_a_roll_from_another_source_is_refused_on_decoding() -> None:
    line = b'{"expr":"1d10","faces":[4],"total":4,"purpose":"p","roller":"r","source":"loaded"}'
    with pytest.raises(msgspec.ValidationError, match="source"):
        msgspec.json.decode(line, type=Roll)


def test_a_decimal_field_decodes_to_the_exact_decimal_written() -> None:
    line = (
        b'{"kind":"combatant_joined","seq":1,"t":0,"combatant":"a","name":"A","side":"x",'
        b'"damage_points":18.750,"position":[0.000,1.5],"weapon":"Staff","armor":"Cloth","shield":null}'
    )
    event = msgspec.json.decode(line, type=vocabulary().union)
    assert isinstance(event, CombatantJoined)
    assert (str(event.damage_points), str(event.position[0])) == ("18.750", "0.000")


def test_an_attack_names_its_attacker_as_the_actor_and_its_target_as_well() -> None:
    assert (named_fields(AttackResolved), actor_field(AttackResolved)) == (("attacker", "target"), "attacker")


def test_a_kind_that_names_no_combatant_has_no_actor() -> None:
    assert (named_fields(EncounterEnded), actor_field(EncounterEnded)) == ((), None)


@KINDS
def test_every_field_that_holds_a_combatants_id_says_so(kind: type[Event]) -> None:
    """A field named for a combatant (attacker, target, ...) and holding a string is typed ActorId or
    CombatantId, so that explain and whatif find the combatants an event is about; a kind naming any has
    exactly one actor unless it only names whom a referee ruled on."""
    named_by_name = {
        f.name
        for f in msgspec.structs.fields(kind)
        if f.name in {"combatant", "attacker", "target", "thrower", "holder", "computer"} and f.type is str
    }
    assert named_by_name == set()
    if named_fields(kind) and kind_of(kind) != "referee_ruling":
        assert actor_field(kind) in named_fields(kind)
