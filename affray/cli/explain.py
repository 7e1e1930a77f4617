"""``affray explain``: one event of a log laid out as a derivation, with what it depends on."""

from __future__ import annotations

import click

from affray import rulesets
from affray.cli.command import LOG, open_log_arg, warn_if_broken
from affray.cli.group import cli, short_help_of
from affray.cli.terminal import one_line
from affray.errors import AffrayError
from affray.events.codec import ENCODER
from affray.kernel.fold import FoldError
from affray.replays.explain import explain as explain_event
from affray.replays.explain import tell_explained
from affray.stores import Place


@cli.command(short_help=short_help_of("explain"))
@click.argument("log", type=LOG)
@click.argument("seq", type=click.IntRange(min=1))
@click.option("--json", "as_json", is_flag=True, help="Print the derivation as JSON.")
def explain(log: Place, seq: int, as_json: bool) -> None:
    """Explain event SEQ of LOG: each input, modifier, chart row and roll behind it, with its rule id and
    the arithmetic, and the earlier events it depends on. The log is read no further than SEQ."""
    with open_log_arg(log) as reader:
        reading = rulesets.reading(reader.header, str(log))
        try:
            found = explain_event(reader, seq, reading)
        except FoldError as exc:
            raise AffrayError(f"{log}: {exc} (affray verify tells more)") from None
        if found is None:
            warn_if_broken(reader, log, "read")
            raise AffrayError(f"{log}: no seq {seq}: the log holds seq 1 to {reader.count}")
    if as_json:
        click.echo(ENCODER.encode(found).decode())
        return
    for line in tell_explained(found):
        click.echo(one_line(line))
