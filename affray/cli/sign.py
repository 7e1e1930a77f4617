"""``affray keygen`` and ``affray sign``: a key pair to sign logs with, and a signature appended to a log
(docs/log-format.md, "Signatures"); ``affray verify`` checks them."""

from __future__ import annotations

from pathlib import Path

import click

from affray.cli import keys
from affray.cli.command import LOG
from affray.cli.group import cli, short_help_of
from affray.cli.signatures import sign_log
from affray.errors import SigningError, printable
from affray.events.signature import is_name
from affray.stores import LogStore


@cli.command(name="keygen", short_help=short_help_of("keygen"))
@click.argument("name")
@click.option(
    "-o",
    "--output",
    "folder",
    type=click.Path(path_type=Path),
    default=Path("."),
    show_default=True,
    help="The folder to write NAME.key and NAME.pub in.",
)
def keygen_command(name: str, folder: Path) -> None:
    """Make an Ed25519 key pair for NAME: the private key in DIR/NAME.key (PKCS#8 PEM, readable by you
    alone: keep it secret) and the public key in DIR/NAME.pub (one OpenSSH line: give it to those who
    check your signatures, for ``affray verify --trust``).

    NAME is 1 to 64 letters, digits, '_', '-' or '.', beginning with a letter or a digit. A file that
    already has either name is never written over: exit 2.
    """
    private, public, key = keys.make_pair(name, folder)
    click.echo(f"made: {printable(str(private))} (private: keep it secret)")
    click.echo(f"made: {printable(str(public))} (public: {keys.described(key)})")


def _signer(key_file: Path, name: str | None) -> str:
    """The name to sign under: ``--name``, else the key file's name without ``.key``."""
    if name is not None:
        return name
    signer = key_file.name.removesuffix(keys.PRIVATE_SUFFIX)
    if not is_name(signer):
        raise SigningError(
            f"--key {printable(str(key_file))}: its file name makes no signer's name; give one with --name"
        )
    return signer


@cli.command(name="sign", short_help=short_help_of("sign"))
@click.argument("log", type=LOG)
@click.option(
    "--key",
    "key_file",
    type=click.Path(path_type=Path),
    required=True,
    help="The private key to sign with (NAME.key, as affray keygen makes it).",
)
@click.option(
    "--name",
    default=None,
    help="The name to sign under (default: the key file's name without .key).",
)
def sign_command(log: LogStore, key_file: Path, name: str | None) -> None:
    """Sign LOG: append a line after its end line that says who signed it, with which public key, and
    the signature over the log's end hash (which the hash chain makes a hash of the whole log).

    LOG (a log file, or a campaign's encounter, campaign.sqlite#NAME) must be whole (its chain holds to
    its end line); several signers may each sign it. A signed file is written beside LOG and moved onto
    it, and a campaign stores the line in one transaction, so a failure leaves LOG as it was. ``affray
    verify`` checks each signature; a log changed or extended after it was signed no longer matches it.
    """
    signer = _signer(key_file, name)
    key = sign_log(log, key_file, signer)
    click.echo(f"signed: {printable(str(log))} by {signer} ({keys.described(key)})")
