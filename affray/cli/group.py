"""The ``affray`` command group, which imports a command's module only when that command runs.

``COMMANDS`` names each command's module and says in one line what it does: ``affray --help`` lists them
from it without importing any, and each command takes its ``short_help`` from it (``short_help_of``), so the
list and the commands cannot disagree. Starting ``affray run`` then loads what ``run`` uses and no more.
"""

from __future__ import annotations

import importlib
import sys

import click

from affray import __version__

EXIT_USER_ERROR = 2
EXIT_VERIFY_FAILED = 1
EXIT_CHANGED = 3
"""``affray verify``: the log is whole, but this affray's rules and tables simulate it otherwise (or it
was made under another ruleset version); 1 is a log damaged or edited."""
EXIT_DIFFERENT = 1
"""``affray diff``: the logs differ (as diff(1) exits)."""

COMMANDS: dict[str, tuple[str, str]] = {
    "adjudicate": ("adjudicate", "Referee a fight at a real table, the rolls typed in."),
    "battle": ("battle", "Fight a scenario, or a recorded fight on from a point, many times."),
    "diff": ("diff", "Compare two logs: headers, first difference, outcomes."),
    "encounters": ("campaign", "List the encounters of a campaign."),
    "explain": ("explain", "Explain one event of a log: every input and rule."),
    "export": ("campaign", "Write a campaign's encounter to a log file."),
    "heal": ("run", "Continue a log's clock past the fight: healing, repair."),
    "import": ("campaign", "Copy whole log files into a campaign."),
    "keygen": ("sign", "Make a key pair to sign logs with."),
    "odds": ("odds", "Each side's chance to win at every roll of a log; the luck of each."),
    "lineage": ("whatif", "Show the chain of what-ifs back to the first fight."),
    "redact": ("redact", "Write the players' copy of a log: sealed rolls withheld."),
    "regress": ("regress", "Re-simulate recorded logs; report what changed."),
    "replay": ("tell", "Tell the fight in a log, one line per event."),
    "reveal": ("redact", "Check a players' copy against the referee's log; re-simulate."),
    "rules": ("rules", "List and show the rulesets' tables."),
    "run": ("run", "Simulate a scenario and write its log."),
    "seed": ("seed", "Fair seeds: commit to secrets, reveal, check."),
    "sign": ("sign", "Sign a log: who recorded it, and that it is unchanged since."),
    "state": ("tell", "Show every combatant's state at a moment."),
    "timeline": ("timeline", "Draw the fight on its clock (PNG, SVG, PDF)."),
    "verify": ("verify", "Check a log: chain, fold, re-simulation, signatures."),
    "view": ("view", "Write the fight as one HTML page to share."),
    "whatif": ("whatif", "Fight a log again with some rolls or rulings changed."),
}
"""Each command: the module of affray.cli it is in, and what it does in one line."""


def short_help_of(name: str) -> str:
    """The one line ``name`` is listed with (its ``short_help``)."""
    return COMMANDS[name][1]


class LazyGroup(click.Group):
    """A group whose commands are imported the first time they are asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, sorted, none imported."""
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, its module imported (which registers it) if not yet."""
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(f"affray.cli.{COMMANDS[cmd_name][0]}")
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands with their one line each, from ``COMMANDS`` alone."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, short_help_of(name)) for name in self.list_commands(ctx)])


def _configure_logging(verbose: bool) -> None:
    """structlog to stderr: the kernel's steps at debug level with ``--verbose``, else warnings only.
    Only ``--verbose`` runs log anything, so only they import structlog (a tenth of a second to start)."""
    import logging

    import structlog

    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.dev.ConsoleRenderer(colors=False),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.DEBUG if verbose else logging.WARNING),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="affray")
@click.option(
    "-v",
    "--verbose",
    is_flag=True,
    help="Log the kernel's steps (seq, game time, kind) to stderr while simulating: run, heal, verify.",
)
@click.pass_context
def cli(ctx: click.Context, verbose: bool) -> None:
    """affray: simulate, record, replay and verify tabletop combat."""
    if verbose:
        _configure_logging(verbose)
    ctx.obj = {"verbose": verbose}
