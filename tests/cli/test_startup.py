"""Starting ``affray``: the command group imports a command's module only when that command runs
(affray/cli/group.py), so ``affray --help`` and ``affray run`` load what they use and no more. Whole-process
times are measured by benchmarks/startup.py, never here."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

import affray.cli
from affray.cli.group import COMMANDS, cli

ROOT = Path(__file__).resolve().parents[2]
LOADED = """
import sys
from affray.cli import main
sys.argv = ["affray", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(" ".join(sorted(sys.modules)), file=sys.stderr)
"""
HEAVY = ("matplotlib", "pyarrow", "rich", "dask", "pettingzoo", "numpy", "sqlite3", "structlog")


def loaded(*args: str | Path) -> set[str]:
    """The modules a fresh process has imported once ``affray *args`` is done."""
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return set(done.stderr.split())


def test_help_lists_every_command_and_imports_none_of_them() -> None:
    modules = loaded("--help")
    assert not {f"affray.cli.{module}" for module, _ in COMMANDS.values()} & modules
    assert "affray.rulesets" not in modules


def test_a_run_of_a_scenario_imports_no_picture_table_or_campaign_library(tmp_path: Path) -> None:
    modules = loaded("run", ROOT / "examples" / "duel.toml", "-o", tmp_path / "duel.jsonl")
    assert (tmp_path / "duel.jsonl").exists()
    assert [name for name in HEAVY if name in modules] == []
    assert "affray.cli.run" in modules
    assert "affray.cli.battle" not in modules


def test_every_command_is_listed_with_its_own_short_help() -> None:
    for module in pkgutil.iter_modules(affray.cli.__path__):
        importlib.import_module(f"affray.cli.{module.name}")
    assert sorted(cli.commands) == sorted(COMMANDS)
    for name, (module, said) in COMMANDS.items():
        command = cli.commands[name]
        assert command.short_help == said
        assert command.callback is not None
        assert command.callback.__module__ == f"affray.cli.{module}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_is_found_by_its_name(name: str) -> None:
    with click.Context(cli) as ctx:
        assert cli.get_command(ctx, name) is cli.commands[name]


@pytest.mark.parametrize("command", [("replay",), ("state",), ("explain", "12")])
def test_a_command_that_only_reads_a_log_imports_no_simulation_engine(command: tuple[str, ...]) -> None:
    modules = loaded(command[0], ROOT / "tests" / "golden" / "duel.jsonl", *command[1:])
    assert f"affray.cli.{COMMANDS[command[0]][0]}" in modules
    assert "simpy" not in modules
