"""``affray verify``: chain, canonical form, fold and re-simulation, as the log is read."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import click
import msgspec

from affray import rulesets
from affray.cli.command import LOG, find_parent, open_log_arg
from affray.cli.group import EXIT_CHANGED, EXIT_VERIFY_FAILED, cli, short_help_of
from affray.cli.signatures import Checked, check_signatures, trusted_keys
from affray.cli.terminal import echo_lines, one_line
from affray.errors import AffrayError, LogError, excerpt, printable
from affray.events.codec import MAX_LINE_BYTES, LogHeader
from affray.events.reader import LogProblem, LogReader
from affray.events.sealed import Sealing
from affray.events.signature import SIGNATURE_PREFIX
from affray.kernel.fairseed import FairSeed, told
from affray.replays.lineage import parent_link
from affray.replays.verify import Verdict, fold_only, verify
from affray.stores import LogStore


def _holds_events(path: LogStore) -> bool:
    """Whether the line after an unreadable first line is an event line: a log whose header was damaged."""
    try:
        with path.open_bytes() as stream:
            first = stream.readline(1 << 16)
            while first and not first.endswith(b"\n"):
                first = stream.readline(1 << 16)
            second = stream.readline(MAX_LINE_BYTES)
    except (OSError, AffrayError):
        return False
    return second.startswith(b'{"kind":') and b'"prev":"' in second


def _fair(header: LogHeader) -> list[str]:
    """What a fair seed that holds says (kernel/fairseed.py, ``told``); nothing for a plain seed."""
    fair = msgspec.json.decode(header.scenario).get("fair_seed")
    return told(msgspec.convert(fair, FairSeed)) if isinstance(fair, dict) else []


def _other_version(header: LogHeader) -> bool:
    """Whether the log was made under another version of its ruleset than this affray simulates."""
    try:
        return header.ruleset_version != rulesets.ruleset(header.ruleset).version
    except AffrayError:
        return False


@cli.command(name="verify", short_help=short_help_of("verify"))
@click.argument("log", type=LOG)
@click.option(
    "--trust",
    type=click.Path(path_type=Path),
    multiple=True,
    metavar="FILE.pub",
    help="A public key (NAME.pub, as affray keygen makes it) whose signatures are trusted; repeatable. "
    "Every signer's key must then be one of them, and the log must be signed.",
)
@click.option(
    "--require",
    type=click.Path(path_type=Path),
    multiple=True,
    metavar="FILE.pub",
    help="A public key that must have signed the log (trusted too, with --trust); repeatable. A "
    "signature line removed is then caught.",
)
@click.pass_context
def verify_command(
    ctx: click.Context, log: LogStore, trust: tuple[Path, ...], require: tuple[Path, ...]
) -> None:
    """Check LOG's hash chain, fold it, re-simulate its scenario and compare event by event.

    Exit 0 when everything holds; 1 when the log is damaged or was edited (its chain, its lines or its
    fold break), naming the first bad seq; 3 when the log is whole but this affray simulates it otherwise
    (a rule or a table changed since it was made, or it was made under another ruleset version), naming
    the first seq that differs.

    A what-if is checked against its parent too when the parent is where it names it: it must be the
    parent with exactly the changes it declares (or it fails, exit 1); otherwise the ok line says the link
    is unchecked. A fair seed's ok line shows each party's tag, for each party to check.

    Each signature after the end line (affray sign) is named with its signer and key, and whether it
    holds: one that does not (the log was changed or extended after it was signed) fails, exit 1. With
    --trust, a signer whose key is none of the trusted keys fails too, and so does a log not signed; with
    --require, a key that has not signed it (its line removed, say) fails too. The signatures of a log
    damaged before them are not checked: a line after the FAILED one names their signers.
    """
    required = trusted_keys(require)
    trusted = {**trusted_keys(trust), **required} if trust else None
    try:
        reader = open_log_arg(log, canonical=True)
    except LogError as exc:
        if not _holds_events(log):
            raise
        why = re.sub(r"^line 1(?: \(header\))?:? ", "", str(exc).removeprefix(f"{log}: "))
        click.echo(one_line(f"FAILED: {log}: line 1 (header): {why}"))
        echo_lines(_unchecked_signatures(log, trust, require))
        sys.exit(EXIT_VERIFY_FAILED)
    if _other_version(reader.header):
        # a log of another ruleset version need not be in today's canonical form: its chain is checked
        reader.close()
        reader = open_log_arg(log)
    copy = isinstance(reader.header.sealed, Sealing)
    with reader:
        if copy:
            verdict = fold_only(reader)
        else:
            verdict = verify(
                reader, lambda: rulesets.recorded(reader.header, str(log)), trace=ctx.obj["verbose"]
            )
    if reader.damaged_signature is not None:
        damaged = reader.damaged_signature
        raise LogError(f"{log}: {damaged.where()}: {damaged.message}")
    signed = _signatures(log, reader, trusted, required)
    status = _tell_copy(log, reader.header, verdict) if copy else tell_verdict(log, reader.header, verdict)
    echo_lines(signed.lines)
    if not verdict.ok and _stopped_before_the_end(reader.problem, reader.ended):
        echo_lines(_unchecked_signatures(log, trust, require))
    if signed.failed:
        status = EXIT_VERIFY_FAILED
    if status:
        sys.exit(status)


def _signatures(
    log: LogStore, reader: LogReader, trusted: dict[bytes, str] | None, required: dict[bytes, str]
) -> Checked:
    """What is said of the log's signatures; the cryptography library is loaded only for a signed log or
    for --trust and --require."""
    if not reader.signatures and trusted is None and not required:
        return Checked()
    return check_signatures(str(log), reader, trusted, first_line=reader.count + 3, required=required)


def _stopped_before_the_end(problem: LogProblem | None, ended: bool) -> bool:
    """Whether the reading of a log that failed stopped at or before its end line, short of its signature
    lines: it did not end, and its problem, if any, is no line after the end line's (those are named at a
    later line than their seq's: docs/log-format.md, "What a reader checks")."""
    return not ended and (problem is None or problem.line == problem.seq + 1)


_TAIL_BYTES = 1 << 16
"""The most of a damaged log's end that is read for its signature lines, whatever the file's size: 64 KiB,
63 of the longest a reader takes (1,024 bytes and a newline), 250 to 340 as affray writes them."""


class _Signer(msgspec.Struct):
    signer: str


def _trailing_signature_lines(log: LogStore) -> tuple[list[bytes], bool]:
    """The lines beginning ``{"signer":`` that end a log file, read from its last ``_TAIL_BYTES`` at most,
    and whether more may come before them (they fill what was read). None for a campaign's encounter,
    whose signature lines are stored apart (its stream gives them only after its every line), nor for a
    file that cannot be read."""
    if log.own_file is None:
        return [], False
    try:
        with log.open_bytes() as stream:
            start = max(0, stream.seek(0, os.SEEK_END) - _TAIL_BYTES)
            stream.seek(start)
            tail = stream.read(_TAIL_BYTES)
    except (OSError, AffrayError):
        return [], False
    lines = tail.removesuffix(b"\n").split(b"\n")[1 if start else 0 :]  # a line begun before the tail
    found: list[bytes] = []
    for line in reversed(lines):
        if not line.startswith(SIGNATURE_PREFIX):
            return found[::-1], False
        found.append(line)
    return found[::-1], start > 0


def _signer(line: bytes) -> str | None:
    """The signer a signature line names, escaped for the terminal; None when it names none."""
    try:
        return excerpt(printable(msgspec.json.decode(line, type=_Signer).signer))
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None


_SHOWN_SIGNERS = 8
"""The most signers named in the line that says a damaged log's signatures were not checked."""


def _signers(lines: list[bytes], more: bool) -> str:
    """The signers ``lines`` name, in order and escaped for the terminal, ``_SHOWN_SIGNERS`` at most and
    then how many more; and how many lines name none that can be read."""
    signers = [_signer(line) for line in lines]
    names = [name for name in signers if name is not None]
    said = names[:_SHOWN_SIGNERS]
    if more or len(names) > _SHOWN_SIGNERS:
        said.append("and more" if more else f"and {len(names) - _SHOWN_SIGNERS} more")
    unread = len(signers) - len(names)
    if unread:
        said.append(f"{unread} whose signer cannot be read")
    return ", ".join(said)


def _unchecked_signatures(log: LogStore, trust: tuple[Path, ...], require: tuple[Path, ...]) -> list[str]:
    """For a log file damaged before its signature lines, a line saying it was signed, by whom, and that
    neither its signatures nor ``--trust`` and ``--require`` were checked; nothing for a file that ends
    in none."""
    lines, more = _trailing_signature_lines(log)
    if not lines:
        return []
    counted = f"{'at least ' if more else ''}{len(lines)} signature line{'' if len(lines) == 1 else 's'}"
    options = " and ".join(name for name, given in (("--trust", trust), ("--require", require)) if given)
    so = f"; so {options} {'are' if ' and ' in options else 'is'} not checked either" if options else ""
    return [
        f"signatures: {counted} ({_signers(lines, more)}) not checked: the log is damaged before them, "
        f"and a signature vouches only for a log that is whole up to its end line{so}"
    ]


def tell_verdict(log: LogStore, header: LogHeader, verdict: Verdict) -> int:
    """The verdict's line; the exit status it makes."""
    if verdict.ok:
        return _tell_ok(log, header, verdict)
    where = f"{verdict.where}: " if verdict.where else ""
    if verdict.finding == "damaged":
        click.echo(one_line(f"FAILED: {log}: {where}{verdict.message}"))
        return EXIT_VERIFY_FAILED
    click.echo(
        one_line(f"{SAID[verdict.finding]}: {log}: {where}{verdict.message}; {WHOLE[verdict.finding]}")
    )
    return EXIT_CHANGED


def _tell_ok(log: LogStore, header: LogHeader, verdict: Verdict) -> int:
    """The ok line, with what a fair seed or a what-if's parent adds to it; 1 when the log is a what-if
    that is not its parent with exactly the changes it declares (then FAILED instead), else 0."""
    fair = _fair(header)
    parent = _parent(log, header)
    if parent is None:
        return EXIT_VERIFY_FAILED
    added = "".join(f"; {said}" for said in [*fair[:1], *parent[:1]])
    click.echo(
        f"ok: {log}: {verdict.events} events chain, fold and re-simulate identically "
        f"(final state {verdict.final_digest}){added}"
    )
    for line in fair[1:]:
        click.echo(f"  {line}")
    return 0


def _tell_copy(log: LogStore, header: LogHeader, verdict: Verdict) -> int:
    """A players' copy's line: what was checked, and why its fight is not re-simulated; the exit status."""
    if not verdict.ok:
        click.echo(one_line(f"FAILED: {log}: {verdict.where}: {verdict.message}"))
        return EXIT_VERIFY_FAILED
    streams = header.sealed.streams if isinstance(header.sealed, Sealing) else []
    tags = _recorded_tags(header)
    seed = "the fair seed's secrets" if tags is not None else "the seed"
    click.echo(
        one_line(
            f"ok: {log}: a players' copy: {verdict.events} events chain and fold (final state "
            f"{verdict.final_digest}); {verdict.sealed} values of the streams {', '.join(streams)} are "
            f"sealed, and {seed}, so the fight is not re-simulated: once the referee's log is out, affray "
            f"reveal {log} REFEREE-LOG checks every sealed value and re-simulates it"
        )
    )
    for party, tag in (tags or {}).items():
        click.echo(one_line(f"  {party}'s tag: {tag} (as recorded: the reveal checks it)"))
    return 0


def _recorded_tags(header: LogHeader) -> dict[str, str] | None:
    """Each fair-seed party's tag as a players' copy records it, in order of the names (its secrets are
    sealed, so the tags cannot be checked here); None when the scenario has no fair seed."""
    try:
        fair = msgspec.json.decode(header.scenario, type=_FairOfACopy).fair_seed
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None
    if fair is None:
        return None
    return {
        party: reveal.tag
        for party, reveal in sorted(fair.reveals.items())
        if isinstance(reveal, _Reveal) and reveal.tag
    }


class _Reveal(msgspec.Struct):
    tag: str = ""


class _Fair(msgspec.Struct):
    reveals: dict[str, _Reveal | str] = {}


class _FairOfACopy(msgspec.Struct):
    fair_seed: _Fair | None = None


def _parent(log: LogStore, header: LogHeader) -> list[str] | None:
    """What is known of a what-if's parent (replays/lineage.py); FAILED and None when the what-if is not
    its parent with exactly the changes it declares."""
    if header.parent is msgspec.UNSET:
        return []
    link = parent_link(log, header, open_log_arg, rulesets.recorded, find_parent)
    if link.state == "holds":
        return [f"made from {link.shown} with exactly the changes it declares"]
    if link.state == "unchecked":
        return [f"the link to its parent {link.shown} is unchecked: {link.why}"]
    click.echo(
        f"FAILED: {log}: line 1 (header): not made from its parent {link.shown} as it says: {link.why}"
    )
    return None


SAID = {"changed": "CHANGED", "other_version": "OTHER VERSION"}
"""How verify names a whole log that this affray does not re-simulate identically."""
WHOLE = {
    "changed": (
        "its chain and lines are whole: a rule or a table changed since it was made "
        "(or an edit was re-chained)"
    ),
    "other_version": "its chain and lines are whole, and it folds",
}
"""What verify says of such a log beside its first difference."""
