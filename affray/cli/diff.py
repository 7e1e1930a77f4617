"""``affray diff``: where two logs part, field by field, and how their outcomes differ."""

from __future__ import annotations

import sys

import click

from affray.cli.command import LOG, open_log_arg, warn_if_broken
from affray.cli.group import EXIT_DIFFERENT, cli, short_help_of
from affray.cli.terminal import echo_lines, one_line
from affray.errors import AffrayError
from affray.events.codec import ENCODER, LogHeader
from affray.replays.diff import diff_logs, tell_diff
from affray.stores import LogStore


def named(header: LogHeader, which: str, path: LogStore) -> str:
    """The line that names a compared log: ``A: duel.jsonl (ruleset energion v3, seed 1130)``."""
    return f"{which}: {path} (ruleset {header.ruleset} v{header.ruleset_version}, seed {header.seed})"


@cli.command(short_help=short_help_of("diff"))
@click.argument("a", type=LOG)
@click.argument("b", type=LOG)
@click.option("--json", "as_json", is_flag=True, help="Print the differences as JSON.")
def diff(a: LogStore, b: LogStore, as_json: bool) -> None:
    """Compare logs A and B: how their headers differ, the first seq at which their events part (the two
    events side by side, the fields that differ), and how their outcomes differ.

    Exit 0 when they are the same, 1 when they differ. Both must be logs of one ruleset; they may differ
    in anything else (scenario, seed, rules or tables).
    """
    with open_log_arg(a) as left, open_log_arg(b) as right:
        if left.header.ruleset != right.header.ruleset:
            raise AffrayError(
                f"{a} is a log of {left.header.ruleset} and {b} one of {right.header.ruleset}: "
                "diff compares logs of one ruleset"
            )
        comparison = diff_logs(left, right, (str(a), str(b)))
        warn_if_broken(left, a, "compared")
        warn_if_broken(right, b, "compared")
    if as_json:
        record = {
            "a": str(a),
            "b": str(b),
            "same": comparison.same,
            "header": comparison.header,
            "parting": comparison.parting,
            "outcome": {"a": comparison.a, "b": comparison.b},
        }
        click.echo(ENCODER.encode(record).decode())
    else:
        click.echo(one_line(named(left.header, "A", a)))
        click.echo(one_line(named(right.header, "B", b)))
        echo_lines(tell_diff(comparison, "A", "B"))
    if not comparison.same:
        sys.exit(EXIT_DIFFERENT)
