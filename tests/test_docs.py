"""The scenario documentation names every field a scenario may hold, and says which are required."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import msgspec.inspect as mi
import pytest

from affray.handlers.energion.scenario import (
    Combatant,
    EnergionOptions,
    EnergionScenario,
    Spell,
    WeaponCarried,
)
from affray.handlers.fivestep.scenario import Character, FivestepScenario

DOCS = Path(__file__).resolve().parent.parent / "docs"
SCENARIO_FORMAT = (DOCS / "scenario-format.md").read_text()
FIVESTEP = (DOCS / "rulesets" / "fivestep.md").read_text()


def _named(name: str, text: str) -> bool:
    """Whether ``text`` names the field as a key, a table or an array of tables."""
    return any(f"`{form}`" in text for form in (name, f"[{name}]", f"[[{name}]]"))


def _fields(kind: type[msgspec.Struct]) -> list[mi.Field]:
    info = mi.type_info(kind)
    assert isinstance(info, mi.StructType)
    return list(info.fields)


@pytest.mark.parametrize("kind", [EnergionScenario, Combatant, WeaponCarried, Spell, EnergionOptions])
def test_every_energion_field_is_in_the_scenario_format(kind: type[msgspec.Struct]) -> None:
    missing = [f.encode_name for f in _fields(kind) if not _named(f.encode_name, SCENARIO_FORMAT)]
    assert not missing


@pytest.mark.parametrize("kind", [FivestepScenario, Character])
def test_every_fivestep_field_is_in_its_page(kind: type[msgspec.Struct]) -> None:
    missing = [f.encode_name for f in _fields(kind) if not _named(f.encode_name, FIVESTEP)]
    assert not missing


def test_the_fivestep_page_names_every_required_character_field_as_required() -> None:
    said = re.search(r"`\[\[combatants\]\]`: (.*?) are required", FIVESTEP, re.S)
    assert said is not None
    required = {f.encode_name for f in _fields(Character) if f.required}
    assert set(re.findall(r"`(\w+)`", said.group(1))) == required


@pytest.mark.parametrize("kind", [EnergionScenario, Combatant, WeaponCarried, Spell])
def test_the_scenario_format_marks_every_required_energion_field(kind: type[msgspec.Struct]) -> None:
    rows = re.findall(r"^\| `\[*(\w+)\]*` \| [^|]* \| ([^|]*) \|", SCENARIO_FORMAT, re.M)
    marked = {name for name, default in rows if default.strip().startswith("required")}
    required = {f.encode_name for f in _fields(kind) if f.required}
    assert required <= marked
