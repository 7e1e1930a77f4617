"""``affray seed commit`` and ``affray seed reveal``: a party's secret, its commitment, and its reveal tagged
over every party's commitment, for a fair seed (kernel/fairseed.py)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import click
import msgspec

from affray.cli.group import cli, short_help_of
from affray.errors import AffrayError, ScenarioError, printable, read_user_file
from affray.kernel.fairseed import PARTY_PATTERN, PARTY_RULE, FairSeed, commitment, new_secret, tag, weakness
from affray.kernel.scenario import parse_toml, path_first

SECRET_FILE_LIMIT = 1024
"""The most bytes of a secret file ``seed reveal`` reads (a secret is at most 128 hex digits)."""


@cli.group(short_help=short_help_of("seed"))
def seed() -> None:
    """Fair seeds: each party commits to a secret; the seed comes from every revealed secret."""


def _checked_party(party: str) -> str:
    if re.fullmatch(PARTY_PATTERN, party) is None:
        raise AffrayError(f"{printable(repr(party))[:60]}: {PARTY_RULE}")
    return party


def _create(path: Path, text: str, mode: int, what: str) -> None:
    """Write ``text`` into a new file at ``path`` (never one that exists, nor through a link)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    except FileExistsError:
        raise AffrayError(f"{path}: already exists; {what} is never written over") from None
    except (OSError, ValueError) as exc:
        raise AffrayError(f"{path}: cannot write: {getattr(exc, 'strerror', None) or exc}") from None
    with os.fdopen(fd, "w") as kept:
        kept.write(text)


@seed.command()
@click.argument("party")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="Where to keep the secret (default: PARTY.secret).",
)
def commit(party: str, output: Path | None) -> None:
    """Make PARTY's secret, keep it in a file only its owner can read, and print its commitment for the
    scenario's [fair_seed.commitments]. Once every party's commitment is in the scenario, reveal the secret
    with ``affray seed reveal``."""
    _checked_party(party)
    path = output or Path(f"{party}.secret")
    secret = new_secret()
    _create(path, f"{secret}\n", 0o600, "a secret")
    click.echo(f"{party}'s secret is in {path}: show it to no one until every party has committed")
    click.echo("its commitment, for the scenario's [fair_seed.commitments]:")
    click.echo(f'{party} = "{commitment(party, secret)}"')


def _commitments(scenario: Path) -> dict[str, str]:
    """The scenario's ``[fair_seed.commitments]``, checked."""
    raw: Any = parse_toml(read_user_file(scenario, ScenarioError, "a scenario file"), str(scenario))
    fair = raw.get("fair_seed") if isinstance(raw, dict) else None
    if not isinstance(fair, dict) or "commitments" not in fair:
        raise ScenarioError(f"{scenario}: $.fair_seed.commitments: the scenario has no commitments yet")
    try:
        return dict(msgspec.convert({"commitments": fair["commitments"]}, FairSeed).commitments)
    except msgspec.ValidationError as exc:
        raise ScenarioError(f"{scenario}: {path_first(str(exc)).replace('$', '$.fair_seed', 1)}") from None


def _secret(path: Path) -> str:
    data = read_user_file(path, AffrayError, "a secret file", limit=SECRET_FILE_LIMIT)
    try:
        return data.decode().strip()
    except UnicodeDecodeError:
        raise AffrayError(f"{path}: not a secret (not UTF-8 text)") from None


def _keep_tag(path: Path, value: str) -> None:
    """Keep the tag in a new file; a tag kept before must be the same one (a second reveal over another
    set of commitments would let whoever saw the secret choose theirs)."""
    if not os.path.lexists(path):
        _create(path, f"{value}\n", 0o644, "a tag")
        return
    kept = read_user_file(path, AffrayError, "a tag file", limit=SECRET_FILE_LIMIT).decode(errors="replace")
    if kept.strip() != value:
        raise AffrayError(
            f"{path}: holds the tag of a reveal over another set of commitments; a secret is revealed once: "
            "commit a new one (affray seed commit PARTY -o NEW.secret)"
        )


@seed.command()
@click.argument("party")
@click.option(
    "--scenario",
    type=click.Path(path_type=Path),
    required=True,
    help="The scenario holding every party's commitment.",
)
@click.option(
    "--secret",
    "secret_file",
    type=click.Path(path_type=Path),
    help="The file holding PARTY's secret (default: PARTY.secret).",
)
@click.option(
    "--tag",
    "tag_file",
    type=click.Path(path_type=Path),
    help="Where to keep the tag (default: PARTY.tag).",
)
def reveal(party: str, scenario: Path, secret_file: Path | None, tag_file: Path | None) -> None:
    """Print PARTY's reveal for the scenario's [fair_seed.reveals]: its secret and the tag the secret makes
    over every party's commitment in SCENARIO, and keep the tag in a file. The fight's log must show that
    tag (``affray verify`` lists each party's), or the set of parties was changed after PARTY revealed."""
    _checked_party(party)
    path = secret_file or Path(f"{party}.secret")
    commitments = _commitments(scenario)
    secret = _secret(path)
    if party not in commitments:
        held = ", ".join(sorted(commitments))
        raise ScenarioError(
            f"{scenario}: $.fair_seed.commitments: no commitment of {party} (it holds {held})"
        )
    if commitment(party, secret) != commitments[party]:
        raise AffrayError(f"{path}: this secret does not match {party}'s commitment in {scenario}")
    weak = weakness(secret)
    if weak:
        raise AffrayError(f"{path}: {weak}; commit a new one (affray seed commit {party})")
    value = tag(secret, commitments)
    kept = tag_file or Path(f"{party}.tag")
    _keep_tag(kept, value)
    parties = ", ".join(sorted(commitments))
    click.echo(f"{party}'s secret, tagged over the commitments of {len(commitments)} parties: {parties}")
    click.echo("reveal it only if these are every party and no one else")
    click.echo(
        f"its tag is kept in {kept}: `affray verify` of the fight's log must say \"{party}'s tag: {value}\""
    )
    click.echo("its reveal, for the scenario's [fair_seed.reveals]:")
    click.echo(f'{party} = {{ secret = "{secret}", tag = "{value}" }}')
