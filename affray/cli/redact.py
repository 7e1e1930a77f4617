"""``affray redact`` and ``affray reveal``: the players' copy of a referee's log, its sealed rolls each
replaced by a commitment, and the check, once the referee's log is out, that every sealed value is the one
committed and the fight re-simulates (docs/log-format.md, "Sealed rolls")."""

from __future__ import annotations

import sys

import click

from affray import rulesets, stores
from affray.cli.command import LOG, open_log_arg, refuse_overwriting, tell_notes
from affray.cli.group import EXIT_VERIFY_FAILED, cli, short_help_of
from affray.cli.terminal import one_line
from affray.cli.verify import tell_verdict
from affray.errors import AffrayError, LogError
from affray.events.codec import LogWriter
from affray.events.reader import LogReader
from affray.events.sealed import Sealing, sealed_values
from affray.replays.redact import Seal, copy_difference, referees_seed
from affray.replays.verify import verify
from affray.stores import LogStore


def _whole(reader: LogReader, log: LogStore) -> None:
    """Raise LogError when ``reader`` stopped at a problem: only a whole log is redacted."""
    problem = reader.problem
    if problem is not None:
        why = f"{problem.where()}: {problem.message}"
        raise LogError(f"{log}: {why}; only a whole log is redacted (affray verify tells more)")


def _seal(reader: LogReader, log: LogStore) -> Seal:
    """How the referee's log at ``log`` is sealed; its scenario is first loaded as its ruleset loads a
    file (a damaged one, or a fair seed that does not hold, is one error)."""
    referees_seed(reader.header, str(log))
    rulesets.recorded(reader.header, str(log))
    return Seal(reader.header, reader.vocabulary, str(log))


def _written(writer: LogWriter, reader: LogReader, seal: Seal) -> int:
    """Write the players' copy of what ``reader`` reads; the number of values sealed in its events."""
    count = 0
    for event in reader:
        copied = seal.event(event)
        count += sealed_values(copied)
        writer.write(copied)
    return count


@cli.command(name="redact", short_help=short_help_of("redact"))
@click.argument("log", type=LOG)
@click.option(
    "-o", "--output", type=LOG, required=True, help="The players' copy to write: a log file, or a campaign."
)
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
def redact_command(log: LogStore, output: LogStore, force: bool) -> None:
    """Write the players' copy of LOG, a referee's log whose scenario seals streams ([dice] sealed).

    In the copy each roll of a sealed stream (its faces and total), every field that would reveal one
    (a hit's quality), the seed and what it comes from (a fair seed's secrets, rolls entered for sealed
    streams) are each replaced by a commitment, a salted hash. What the rolls caused (a hit, the damage)
    stays in the clear. The copy has its own hash chain and verifies (chain, canonical form, fold);
    replay, state, timeline, view and diff read it and say "sealed" where a value is withheld. Once the
    referee publishes LOG, ``affray reveal COPY LOG`` checks each commitment and re-simulates the fight.

    LOG must be whole. Its signatures do not hold for the copy and are not copied: sign the copy anew.
    """
    refuse_overwriting(output.file, {log.file: "the referee's log"})
    with open_log_arg(log) as reader:
        seal = _seal(reader, log)
        header = seal.header(reader.header, reader.vocabulary.versions)
        writer = stores.log_writer(output, header, replace=force)
        try:
            tell_notes(writer.notices())
            count = _written(writer, reader, seal)
            _whole(reader, log)
        except BaseException:  # a damaged log, an interruption: no copy, not even a partial one
            writer.discard()
            raise
        writer.close()
        tell_notes(writer.notices())
        events, signed = reader.count, len(reader.signatures)
    _tell_copied(log, output, seal, events, count, signed)


def _tell_copied(log: LogStore, output: LogStore, seal: Seal, events: int, count: int, signed: int) -> None:
    """What ``redact`` made, and what the players should know of it."""
    streams = ", ".join(seal.streams)
    seed = "its fair seed's secrets" if seal.fair else "its seed"
    click.echo(
        one_line(
            f"{output}: the players' copy of {log}: {events} events, {count} values sealed "
            f"(streams {streams}), and {seed}"
        )
    )
    if signed:
        click.echo(
            one_line(
                f"note: {log}'s {signed} signature(s) hold for it alone and were not copied: sign the "
                "copy anew"
            )
        )
    if not seal.fair:
        click.echo(
            "warning: the seed is the scenario's own, so whoever guesses it can work out every sealed roll; "
            'a fair seed (affray seed) keeps them sealed (docs/log-format.md, "Sealed rolls")',
            err=True,
        )


@cli.command(name="reveal", short_help=short_help_of("reveal"))
@click.argument("copy", type=LOG)
@click.argument("log", type=LOG)
@click.pass_context
def reveal_command(ctx: click.Context, copy: LogStore, log: LogStore) -> None:
    """Check a players' copy COPY against LOG, the referee's log it was made from, once the referee
    publishes it: every sealed value of COPY must be the one LOG holds, as committed, and everything else
    the same; then LOG is verified, its fight re-simulated.

    Exit 0 when both hold; 1 when a sealed value or anything else differs (named by its line, seq and
    field: a value the referee changed after the copy was made is caught there), or either log is damaged;
    3 when LOG is whole but this affray simulates it otherwise (as verify).
    """
    with open_log_arg(copy, canonical=True) as players, open_log_arg(log) as referee:
        if not isinstance(players.header.sealed, Sealing):
            raise AffrayError(
                f"{copy}: not a players' copy: nothing in it is sealed (affray redact makes one)"
            )
        seal = _seal(referee, log)
        difference, sealed = copy_difference(players, referee, seal)
    if difference:
        click.echo(one_line(f"FAILED: {copy}: not {log} redacted: {difference}"))
        sys.exit(EXIT_VERIFY_FAILED)
    click.echo(
        one_line(f"ok: {copy}: each of its {sealed} sealed values is the one {log} holds, as committed")
    )
    with open_log_arg(log, canonical=True) as reader:
        verdict = verify(reader, lambda: rulesets.recorded(reader.header, str(log)), trace=ctx.obj["verbose"])
    status = tell_verdict(log, reader.header, verdict)
    if status:
        sys.exit(status)
