"""``affray seed commit``: a party's secret and its commitment, for a fair seed (kernel/fairseed.py)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from affray.cli.command import cli
from affray.errors import AffrayError
from affray.kernel.fairseed import commitment, new_secret


@cli.group()
def seed() -> None:
    """Fair seeds: each party commits to a secret; the seed comes from every revealed secret."""


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
    scenario's [fair_seed.commitments]. Reveal the secret (in [fair_seed.reveals]) only once every party's
    commitment is in the scenario."""
    if not party.replace("-", "").replace("_", "").isalnum() or len(party) > 40:
        raise AffrayError(f"{party!r}: a party's name is 1 to 40 letters, digits, - or _")
    path = output or Path(f"{party}.secret")
    secret = new_secret()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise AffrayError(f"{path}: already exists; a secret is never written over") from None
    except OSError as exc:
        raise AffrayError(f"{path}: cannot write: {exc.strerror}") from None
    with os.fdopen(fd, "w") as kept:
        kept.write(f"{secret}\n")
    click.echo(f"{party}'s secret is in {path}: show it to no one until every party has committed")
    click.echo("its commitment, for the scenario's [fair_seed.commitments]:")
    click.echo(f'{party} = "{commitment(party, secret)}"')
