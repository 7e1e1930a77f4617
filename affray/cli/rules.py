"""``affray rules``: the rulesets' and modules' charts and tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from affray import rulesets
from affray.cli.group import cli, short_help_of
from affray.cli.terminal import echo_lines, one_line
from affray.errors import AffrayError, excerpt
from affray.kernel.ruleset import Module, Ruleset
from affray.kernel.tables import TABLE_ENCODER, RulesTable, table_record, table_summary
from affray.names import name_key


def _owners() -> list[Ruleset[Any, Any] | Module]:
    return [
        *(rulesets.ruleset(name) for name in rulesets.ruleset_names()),
        *(rulesets.module(name) for name in rulesets.module_names()),
    ]


def _owner(name: str) -> Ruleset[Any, Any] | Module:
    owners = {owner.name: owner for owner in _owners()}
    if name not in owners:
        raise AffrayError(f"no ruleset or module {excerpt(name)!r}; there are: {', '.join(owners)}")
    return owners[name]


def _rules(table: RulesTable) -> str:
    return f"rules {table.rules}" if "," in table.rules or "-" in table.rules else f"rule {table.rules}"


def _catalogue(owners: Sequence[Ruleset[Any, Any] | Module], as_json: bool) -> None:
    if as_json:
        listed = [
            {
                "name": owner.name,
                "kind": "ruleset" if isinstance(owner, Ruleset) else "module",
                "version": owner.version,
                "description": owner.description,
                "tables": [table_summary(table) for table in owner.tables()],
            }
            for owner in owners
        ]
        click.echo(TABLE_ENCODER.encode(listed).decode())
        return
    for owner in owners:
        kind = "ruleset" if isinstance(owner, Ruleset) else "module"
        click.echo(f"{owner.name} ({kind} v{owner.version}): {owner.description}")
        for table in owner.tables():
            click.echo(
                one_line(f"  {table.name:<15} {table.title} ({len(table.rows)} rows; {_rules(table)})")
            )
    click.echo(
        "affray rules NAME TABLE shows a table; affray rules NAME TABLE ENTRY the rows named like ENTRY"
    )


def _show_tables(owner: Ruleset[Any, Any] | Module, shown: Sequence[RulesTable], as_json: bool) -> None:
    if as_json:
        click.echo(TABLE_ENCODER.encode([table_record(owner.name, table) for table in shown]).decode())
        return
    for index, table in enumerate(shown):
        if index:
            click.echo("")
        click.echo(one_line(f"{owner.name} {table.name}: {table.title} ({_rules(table)}; {table.source})"))
        echo_lines(table.lines())


def _entries(query: str, tables: Sequence[RulesTable]) -> list[RulesTable]:
    matched = [table.matching(query) for table in tables]
    return [table for table in matched if table.rows]


@cli.command(short_help=short_help_of("rules"))
@click.argument("name", required=False)
@click.argument("table", required=False)
@click.argument("entry", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def rules(name: str | None, table: str | None, entry: str | None, as_json: bool) -> None:
    """List the rulesets' and modules' tables, show one (TABLE), or the rows named like ENTRY.

    A TABLE that is no table's name is looked up as an entry in every table of NAME: affray rules
    energion Longbow shows the long bows of the weapon chart.
    """
    if name is None:
        _catalogue(_owners(), as_json)
        return
    owner = _owner(name)
    tables = list(owner.tables())
    if table is None:
        _catalogue([owner], as_json)
        return
    named = {name_key(t.name): t for t in tables}
    chosen = named.get(name_key(table))
    listing = ", ".join(t.name for t in tables) or "none"
    if chosen is None:
        entries = _entries(table, tables) if entry is None else []
        if not entries:
            raise AffrayError(f"{owner.name}: no table or entry {excerpt(table)!r}; its tables: {listing}")
        _show_tables(owner, entries, as_json)
        return
    if entry is None:
        _show_tables(owner, [chosen], as_json)
        return
    entries = _entries(entry, [chosen])
    if not entries:
        raise AffrayError(
            f"{owner.name} {chosen.name}: nothing is named like {excerpt(entry)!r} "
            f"(affray rules {owner.name} {chosen.name} lists every row)"
        )
    _show_tables(owner, entries, as_json)
