"""The five-step system's tables as people look for them (``affray rules fivestep``).

The text names its tables without printing them, so affray ships none: each scenario supplies its own files
under ``[tables]`` (docs/rulesets/fivestep.md gives each one's format; examples/tables/fivestep/ holds
invented example data). What affray can list is which tables there are, their format and what reads them.
"""

from __future__ import annotations

from affray.kernel.tables import RulesTable
from affray.rules.fivestep.damage_tables import DESCRIPTION_TABLE_IDS, ORGAN_TABLE_IDS
from affray.rules.fivestep.usertables import FAMILIES

_USED_BY = {
    "3-1": ("F8", "to hit, procedures 2 and 3: MARKS (or BRAWL) against range -> percent to hit"),
    "3-2": ("F8", "to hit, procedure 3: the adversity modifiers' sum against range -> Percent Against"),
    "3-3": ("F10", "damage, procedure 3: WEP MOD against range -> damage"),
    "3-3.1": ("F12", "organ systems: each body part's factor for each system"),
    "3-3.4": ("F8", "a random hit: d100 -> body part"),
    "3-4.0": ("F9", "grenades: strength and weight -> throwing distance"),
    "3-4.1": ("F9", "grenades: points over BRAWL -> bounces and where it lands"),
    "3-6": ("F7", "action, procedure 2: each action's cost in Agility Points"),
    **{
        table: ("F8", "to hit, procedure 3: conditions and their adversity modifiers")
        for table, family in FAMILIES.items()
        if table.startswith("3-7.")
    },
    **{table: ("F11", "damage descriptions, one table per damage type") for table in DESCRIPTION_TABLE_IDS},
    **{table: ("F12", "organ system damage, one table per system") for table in ORGAN_TABLE_IDS},
}


def _family(table: str) -> str:
    if table in FAMILIES:
        return FAMILIES[table].__name__.removesuffix("Table").lower()
    if table in DESCRIPTION_TABLE_IDS:
        return "description"
    return "organ" if table in ORGAN_TABLE_IDS else {"3-3": "wep mod", "3-3.1": "organ factors"}[table]


def _order(table: str) -> tuple[int, ...]:
    return tuple(int(part) for part in table.replace("-", ".").split("."))


def tables() -> tuple[RulesTable, ...]:
    """The catalogue of the tables a fivestep scenario may supply."""
    return (
        RulesTable(
            name="tables",
            title="The tables a scenario supplies under [tables] (none ship with affray)",
            rules="F5-F12",
            source="the text names them without printing them; docs/rulesets/fivestep.md gives each format",
            columns=("table", "family", "rule", "read by"),
            rows=tuple((table, _family(table), *_USED_BY[table]) for table in sorted(_USED_BY, key=_order)),
        ),
    )
