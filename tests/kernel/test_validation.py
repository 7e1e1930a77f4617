"""A scenario's validation errors told with what was expected: choices, the field meant, where a key goes."""

from __future__ import annotations

from typing import Literal

import msgspec
import msgspec.inspect as mi

from affray.kernel.scenario import Section
from affray.kernel.validation import explain, type_at


class Fighter(Section, frozen=True, kw_only=True):
    id: str
    controller: Literal["nearest", "tactician"] = "nearest"
    places: list[Literal["head", "chest"]] = msgspec.field(default_factory=list)


class Options(Section, frozen=True, kw_only=True):
    hit_locations: bool = False


class Battle(Section, frozen=True, kw_only=True):
    seed: int
    max_seconds: int = 600
    options: Options = Options()
    combatants: list[Fighter] = msgspec.field(default_factory=list)


def test_the_type_at_a_path_follows_fields_and_items() -> None:
    assert isinstance(type_at(Battle, "$.combatants[3].controller"), mi.LiteralType)
    assert type_at(Battle, "$.combatants[0].nothing") is None


def test_a_bad_enum_value_lists_the_choices() -> None:
    assert explain(Battle, "Invalid enum value 'tactical'", "$.combatants[0].controller") == (
        "; expected one of 'nearest', 'tactician'"
    )
    assert explain(Battle, "Invalid enum value 'leg'", "$.combatants[0].places[1]").endswith(
        "'chest', 'head'"
    )


def test_a_misspelt_field_names_the_field_meant() -> None:
    assert (
        explain(Battle, "Object contains unknown field `max_second`", "$") == "; did you mean `max_seconds`?"
    )


def test_a_top_level_key_inside_an_array_of_tables_says_to_move_it_above() -> None:
    hint = explain(Battle, "Object contains unknown field `max_seconds`", "$.combatants[1]")
    assert hint.endswith("`max_seconds` belongs at the top of the file, above the first [[combatants]]")


def test_a_section_key_inside_an_array_of_tables_names_its_section() -> None:
    hint = explain(Battle, "Object contains unknown field `hit_locations`", "$.combatants[0]")
    assert hint.endswith("`hit_locations` belongs under [options], not after [[combatants]]")


def test_an_unknown_field_like_no_other_gets_no_hint() -> None:
    assert explain(Battle, "Object contains unknown field `zzz`", "$.combatants[0]") == ""
    assert explain(Battle, "Expected `int`, got `str`", "$.seed") == ""
