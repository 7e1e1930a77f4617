"""The Energion charts as people read them (``affray rules energion``): the names scenarios use, and
every figure beside them, as the packaged tables hold them."""

from __future__ import annotations

from affray.kernel.tables import Cell, RulesTable
from affray.rules.energion.close_combat import load_grappling
from affray.rules.energion.locations import load_hit_locations
from affray.rules.energion.tables import EnergionTables, Weapon, load_tables

AS_PRINTED = "seed 002 (Energion), as printed"
RANGE_BANDS = ("PTB", "SHT", "MED", "LNG", "EXT")


WEAPON_COLUMNS = (
    "name",
    "class",
    "type",
    "hands",
    "mechanical",
    "initiative",
    "speed",
    *RANGE_BANDS,
    "damage",
    "parry",
    "note",
)


def _weapon_row(w: Weapon) -> tuple[Cell, ...]:
    ranged = (w.name, w.training_class, w.type, w.hands, w.mechanical, w.initiative, w.speed, *w.ranges)
    return (*ranged, w.damage, w.parry, w.note or None)


def _weapons(charts: EnergionTables) -> RulesTable:
    return RulesTable(
        name="weapons",
        title="Weapon chart (the names of a scenario's weapons)",
        rules="E2, E3, E8, E10",
        source=AS_PRINTED,
        columns=WEAPON_COLUMNS,
        rows=tuple(_weapon_row(w) for cls in charts.classes for w in cls.weapons),
    )


def _classes(charts: EnergionTables) -> RulesTable:
    return RulesTable(
        name="classes",
        title="Weapon training classes (a weapon's class) and their training costs",
        rules="E10, E12",
        source=AS_PRINTED,
        columns=("name", "training cost", "weapons"),
        rows=tuple((c.name, c.training_cost, ", ".join(w.name for w in c.weapons)) for c in charts.classes),
    )


def _armor(charts: EnergionTables) -> RulesTable:
    types = sorted(charts.weapon_types)
    return RulesTable(
        name="armor",
        title="Armor chart: values against weapon types 1 to 17",
        rules="E9, E11",
        source=AS_PRINTED,
        columns=("name", *(f"vs {n}" for n in types), "weight", "encumbrance", "damage", "maneuver"),
        rows=tuple(
            (a.name, *a.values, a.weight, a.encumbrance_factor, a.damage, a.maneuver_factor)
            for a in charts.armor.values()
        ),
    )


def _weapon_types(charts: EnergionTables) -> RulesTable:
    return RulesTable(
        name="weapon-types",
        title="Weapon types (the armor chart's columns)",
        rules="E11",
        source=AS_PRINTED,
        columns=("name", "number", "note"),
        rows=tuple((t.name, t.number, t.note or None) for t in charts.weapon_types.values()),
    )


def _shields(charts: EnergionTables) -> RulesTable:
    return RulesTable(
        name="shields",
        title=f"Shields (with force_field = true, a size's parry at speed {charts.force_field_shield_speed})",
        rules="E5",
        source=AS_PRINTED,
        columns=("name", "parry", "speed"),
        rows=tuple((s.name, s.parry, s.speed) for s in charts.shields.values()),
    )


def _grapples() -> RulesTable:
    return RulesTable(
        name="grapples",
        title="Grappling procedures (a combatant's grapples)",
        rules="E15",
        source=AS_PRINTED,
        columns=("name", "armor", "damage", "effects", "avoidance", "modifier", "recovery s", "note"),
        rows=tuple(
            (
                p.name,
                p.armor,
                p.damage,
                " ".join(p.effects) or None,
                p.avoidance,
                p.modifier,
                p.recovery_seconds,
                p.note or None,
            )
            for p in load_grappling().procedures
        ),
    )


def _hit_locations() -> RulesTable:
    chart = load_hit_locations()
    return RulesTable(
        name="hit-locations",
        title=f"Hit locations (with hit_locations = true; a joint's share is {chart.joint_share_percent} %)",
        rules="E20, E22",
        source=AS_PRINTED,
        columns=("name", "low", "high", "share %", "disabled"),
        rows=tuple((h.name, h.low, h.high, h.share_percent, h.disabled) for h in chart.locations),
    )


def tables() -> tuple[RulesTable, ...]:
    """The Energion charts, weapons first."""
    charts = load_tables()
    return (
        _weapons(charts),
        _classes(charts),
        _armor(charts),
        _weapon_types(charts),
        _shields(charts),
        _grapples(),
        _hit_locations(),
    )
