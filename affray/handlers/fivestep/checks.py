"""What a fivestep scenario is checked for at load, before anything is simulated: the tables its procedures,
options and weapons read (rules F7-F12), and the special_damage module's weapon types (S9). Each problem is
one error naming the table and the field."""

from __future__ import annotations

from affray.errors import AffrayError, ScenarioError, TableError, excerpt
from affray.handlers.fivestep.scenario import FivestepScenario
from affray.handlers.fivestep.strike import special_type
from affray.handlers.special_damage.module import SpecialDamageModule
from affray.rules.fivestep.tableset import TableSet
from affray.rules.fivestep.usertables import MissingTable, missing_table, require


def _require(tables: TableSet, table: str, why: str, where: str) -> None:
    try:
        require(tables.user, table, why)
    except MissingTable as exc:
        raise MissingTable(f"{where}: {exc}") from None


def check_tables(scenario: FivestepScenario, tables: TableSet) -> None:
    """Every table the chosen procedures and options read must be supplied, and hold what the scenario
    names: a missing or wrong one is an error now, naming the table and the field, not in a fight."""
    _check_to_hit(scenario, tables)
    _check_exoskeletons(scenario, tables)
    if scenario.options.locate_hits == "random":
        _require(tables, "3-3.4", "options.locate_hits = random", "$.options.locate_hits")
    if scenario.procedures.action == 2:
        _require(tables, "3-6", "procedure 2 for action", "$.procedures.action")
    if scenario.procedures.damage == 3 and tables.damage.wep_mod_table is None:
        raise missing_table("3-3", "$.procedures.damage: procedure 3 for damage")
    _check_grenades(scenario, tables)
    _check_random_hits(scenario, tables)
    _check_organ_rows(scenario, tables)
    _check_poisons(scenario, tables)


def _check_to_hit(scenario: FivestepScenario, tables: TableSet) -> None:
    """Rule F8: procedures 2 and 3 read Table 3-1; procedure 3 also Tables 3-2, 3-3.4 and the adversity
    tables of the conditions named."""
    to_hit = scenario.procedures.to_hit
    if to_hit >= 2:
        _require(tables, "3-1", f"procedure {to_hit} to hit", "$.procedures.to_hit")
    if to_hit != 3:
        return
    _require(tables, "3-2", "procedure 3 to hit", "$.procedures.to_hit")
    _require(tables, "3-3.4", "procedure 3 to hit (random hits)", "$.procedures.to_hit")
    adversity = scenario.adversity
    conditions = {f"$.adversity.always[{n}]": c for n, c in enumerate(adversity.always)}
    for field in ("attacker_moved", "target_moved"):
        moved = getattr(adversity, field)
        if moved is not None:
            conditions[f"$.adversity.{field}"] = moved
    for where, condition in conditions.items():
        _require(tables, condition.table, "an adversity condition", where)
        try:
            require(tables.user, condition.table, "").named(condition.condition)
        except AffrayError as exc:
            raise ScenarioError(f"{where}: {exc}") from None


def _check_exoskeletons(scenario: FivestepScenario, tables: TableSet) -> None:
    """Rule F11: an exoskeleton reads bone first, so every description table must name its bone layer."""
    exoskeletons = [c.id for c in scenario.combatants if c.exoskeleton]
    if not exoskeletons:
        return
    for table in tables.damage.descriptions:
        if table.bone_layer is None:
            raise TableError(
                f"{table.source}: Table {table.table} names no bone_layer, which {exoskeletons[0]} "
                "(an exoskeleton) needs to read bone first (rule F11) - at `$.bone_layer`"
            )


def _check_grenades(scenario: FivestepScenario, tables: TableSet) -> None:
    """Rule F9: a grenade reads Tables 3-4.0 (distance), 3-4.1 (bounce) and 3-3.4 (where the blast hits)."""
    grenades = [
        f"$.combatants[{i}].weapons[{n}]"
        for i, c in enumerate(scenario.combatants)
        for n, w in enumerate(c.weapons)
        if w.combat == "grenade"
    ]
    if grenades:
        for name in ("3-4.0", "3-4.1", "3-3.4"):
            _require(tables, name, "a grenade", grenades[0])


def _check_random_hits(scenario: FivestepScenario, tables: TableSet) -> None:
    """Every part Table 3-3.4 can land on is a part of every body."""
    if "3-3.4" not in tables.user:
        return
    location = require(tables.user, "3-3.4", "")
    for body, parts in scenario.bodies.items():
        names = {p.name.casefold() for p in parts}
        for row in location.row:
            if row.part.casefold() not in names:
                raise TableError(
                    f"{location.source}: part {excerpt(row.part)!r} of Table 3-3.4 is not a part of body "
                    f"{excerpt(body)!r} ($.bodies.{excerpt(body)})"
                )


def _check_poisons(scenario: FivestepScenario, tables: TableSet) -> None:
    """Rule F12: a poison needs Table 3-3 for its WEP MOD, Table 3-3.1 and the organ table of every
    system it affects."""
    damage = tables.damage
    for i, c in enumerate(scenario.combatants):
        for n, weapon in enumerate(c.weapons):
            if weapon.poison is None:
                continue
            where = f"$.combatants[{i}].weapons[{n}].poison"
            try:
                damage.wep_mod().row(weapon.poison.wep_mod)
                damage.factors()
                for system in weapon.poison.systems:
                    damage.organ(system)
            except AffrayError as exc:
                raise TableError(f"{where}: {exc}") from None


def check_special_types(scenario: FivestepScenario, special: SpecialDamageModule) -> None:
    """Every weapon has a Table 2 weapon type for the special_damage module (rule S9)."""
    for i, c in enumerate(scenario.combatants):
        for n, weapon in enumerate(c.weapons):
            where = f"$.combatants[{i}].weapons[{n}].special_type"
            kind = special_type(weapon)
            if kind is None:
                raise ScenarioError(
                    f"{where}: the special_damage module needs this weapon's Table 2 type "
                    '(such as "Projectile rifle" or "Beam rifle or pistol")'
                )
            try:
                special.weapons.named(kind)
            except AffrayError as exc:
                raise ScenarioError(f"{where}: {exc}") from None


def _check_organ_rows(scenario: FivestepScenario, tables: TableSet) -> None:
    """Rule F12: with organ tables supplied, every body part must have its row on Table 3-3.1."""
    damage = tables.damage
    if damage.factor_table is None or not damage.organ_tables:
        return
    for body, parts in scenario.bodies.items():
        for number, part in enumerate(parts):
            try:
                damage.factor_table.row(part.organ_row or part.name)
            except TableError as exc:
                raise TableError(f"$.bodies.{body}[{number}]: {exc} (set its organ_row)") from None
