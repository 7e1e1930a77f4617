"""``affray verify``: chain, canonical form, fold and re-simulation, as the log is read."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click
import msgspec

from affray import rulesets
from affray.cli.command import EXIT_VERIFY_FAILED, cli, open_log_arg
from affray.errors import LogError
from affray.events.codec import MAX_LINE_BYTES, LogHeader
from affray.replays.verify import verify


def _holds_events(path: Path) -> bool:
    """Whether the line after an unreadable first line is an event line: a log whose header was damaged."""
    try:
        with path.open("rb") as stream:
            first = stream.readline(1 << 16)
            while first and not first.endswith(b"\n"):
                first = stream.readline(1 << 16)
            second = stream.readline(MAX_LINE_BYTES)
    except OSError:
        return False
    return second.startswith(b'{"kind":') and b'"prev":"' in second


def _fair(header: LogHeader) -> str:
    """Who gave a fair seed its secrets, each checked against its commitment ("" for a plain seed)."""
    fair = msgspec.json.decode(header.scenario).get("fair_seed")
    if not isinstance(fair, dict):
        return ""
    parties = sorted(fair.get("commitments", {}))
    return f"; the seed comes from the secrets of {', '.join(parties)}, each matching its commitment"


@cli.command(name="verify")
@click.argument("log", type=click.Path(path_type=Path))
@click.pass_context
def verify_command(ctx: click.Context, log: Path) -> None:
    """Check LOG's hash chain, fold it, re-simulate its scenario and compare event by event.

    Exit 0 when everything holds, 1 naming the first seq that breaks or differs.
    """
    try:
        reader = open_log_arg(log, canonical=True)
    except LogError as exc:
        if not _holds_events(log):
            raise
        why = re.sub(r"^line 1(?: \(header\))?:? ", "", str(exc).removeprefix(f"{log}: "))
        click.echo(f"FAILED: {log}: line 1 (header): {why}")
        sys.exit(EXIT_VERIFY_FAILED)
    with reader:
        verdict = verify(reader, lambda: rulesets.recorded(reader.header, str(log)), trace=ctx.obj["verbose"])
    if verdict.ok:
        click.echo(
            f"ok: {log}: {verdict.events} events chain, fold and re-simulate identically "
            f"(final state {verdict.final_digest}){_fair(reader.header)}"
        )
        return
    where = f"{verdict.where}: " if verdict.where else ""
    click.echo(f"FAILED: {log}: {where}{verdict.message}")
    sys.exit(EXIT_VERIFY_FAILED)
