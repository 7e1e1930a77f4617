"""The special_damage tables as people read them (``affray rules special_damage``): Tables 1 to 4, the
effects lists, and the healing and repair times, as the packaged tables hold them."""

from __future__ import annotations

from collections.abc import Sequence

from affray.kernel.tables import Cell, RulesTable
from affray.rules.special_damage.recovery import HealingTime, load_healing, load_repair
from affray.rules.special_damage.tables import (
    DamageTable,
    Effect,
    LivingRow,
    RobotRow,
    load_living,
    load_modifiers,
    load_robots,
    load_weapon_modifiers,
)

AS_PRINTED = "seed 001 (special damage), as printed"


def _listed(items: Sequence[str]) -> str | None:
    return ", ".join(items) or None


def _modifiers() -> RulesTable:
    return RulesTable(
        name="modifiers",
        title="Table 1: modifiers to the special damage roll",
        rules="S9",
        source=AS_PRINTED,
        columns=("reason", "modifier", "per", "max", "applies to", "footnote"),
        rows=tuple(
            (m.reason, m.modifier, m.per, m.max, _listed(m.applies_to), m.footnote or None)
            for m in load_modifiers().modifiers
        ),
    )


def _weapon_types() -> RulesTable:
    return RulesTable(
        name="weapon-types",
        title="Table 2: weapon types (a weapon's special_type)",
        rules="S9",
        source=AS_PRINTED,
        columns=("name", "modifier", "examples", "only", "counts as", "footnote"),
        rows=tuple(
            (w.name, w.modifier, _listed(w.examples), _listed(w.only), w.counts_as, w.footnote or None)
            for w in load_weapon_modifiers().weapons
        ),
    )


def _roll(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def _living(table: DamageTable[LivingRow]) -> RulesTable:
    return RulesTable(
        name="living",
        title="Table 3: special damage to living beings",
        rules="S3, S7",
        source=AS_PRINTED,
        columns=("damage", "roll", "stamina", "equipment", "effect", "side", "heals as"),
        rows=tuple(
            (r.damage, _roll(r.low, r.high), r.stamina, r.equipment, r.effect, r.side, r.heals_as)
            for r in table.rows
        ),
    )


def _robots(table: DamageTable[RobotRow]) -> RulesTable:
    return RulesTable(
        name="robots",
        title="Table 4: special damage to robots",
        rules="S5, S8",
        source=AS_PRINTED,
        columns=("damage", "roll", "stamina", "equipment", "effect", "repair", "joints"),
        rows=tuple(
            (r.damage, _roll(r.low, r.high), r.stamina, r.equipment, r.effect, r.repair, r.joints)
            for r in table.rows
        ),
    )


def _effects(name: str, title: str, effects: Sequence[Effect]) -> RulesTable:
    return RulesTable(
        name=name,
        title=title,
        rules="S4, S5",
        source=AS_PRINTED,
        columns=("name", "text"),
        rows=tuple((e.name, e.text) for e in effects),
    )


def _time(time: HealingTime | None) -> Cell:
    if time is None:
        return None
    costs = [f"{time.cost_per_day} Cr a day"] if time.cost_per_day else []
    costs += [f"{time.flat_cost} Cr"] if time.flat_cost else []
    after = " after Stamina" if time.after_stamina else ""
    return "; ".join([f"{time.dice} {time.unit}{after}", *costs])


def _healing() -> RulesTable:
    return RulesTable(
        name="healing",
        title="Healing times by kind of damage",
        rules="S7",
        source=AS_PRINTED,
        columns=("kind", "time", "treatment", "otherwise", "same as"),
        rows=tuple(
            (k.name, _time(k.time), k.treatment, _time(k.otherwise), k.same_as) for k in load_healing().kinds
        ),
    )


def _repair() -> RulesTable:
    table = load_repair()
    return RulesTable(
        name="repair",
        title=f"Robot repair times (plus {table.per_joint_minutes} min a damaged joint)",
        rules="S8",
        source=AS_PRINTED,
        columns=("kind", "time", "text"),
        rows=tuple((k.name, f"{k.dice} minutes", k.text) for k in table.kinds),
    )


def tables() -> tuple[RulesTable, ...]:
    """The special_damage module's tables, in the text's order."""
    living, robots = load_living(), load_robots()
    return (
        _modifiers(),
        _weapon_types(),
        _living(living),
        _effects("living-effects", "Special damage effects on living beings", living.effects),
        _robots(robots),
        _effects("robot-effects", "Special damage effects on robots", robots.effects),
        _healing(),
        _repair(),
    )
