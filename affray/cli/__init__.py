"""The ``affray`` command: run scenarios, replay and inspect logs, verify them.

Each command is a module of this package; ``main`` is the console script's entry point."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
from typing import NoReturn

import click

from affray import stops
from affray.cli.group import COMMANDS, EXIT_USER_ERROR, cli
from affray.cli.terminal import guard_streams
from affray.errors import QUOTE_LIMIT, AffrayError, excerpt, printable

__all__ = ["cli", "main"]


_QUOTED = re.compile(rf"(?<!\w)'([^']{{{QUOTE_LIMIT + 1},}})'(?!\w)")
"""A value click quotes: between quotes that no letter touches, so that the text between two quoted values
is not taken for one."""
_NUMBER = re.compile(rf"\d{{{QUOTE_LIMIT + 1},}}")


def _quoted_briefly(message: str) -> str:
    """click's message with every value it quotes, and every long number, cut to what an error quotes."""
    message = _QUOTED.sub(lambda match: repr(excerpt(match.group(1))), message)
    return _NUMBER.sub(lambda match: excerpt(match.group()), message)


def _stopped(exc: KeyboardInterrupt) -> NoReturn:
    """One line for a stopped command, then exit with 128 + the signal's number. A closed terminal
    (SIGHUP) may take stderr with it: what cannot be written is not written."""
    detail = f"; {exc}" if str(exc) else ""
    with contextlib.suppress(OSError):
        click.echo(f"{stops.said()}{detail}", err=True)
    if stops.stopped_by() == signal.SIGHUP:  # nothing is left to flush to
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.dup2(devnull, sys.stderr.fileno())
    sys.exit(stops.exit_status())


def main(argv: list[str] | None = None) -> None:
    """Entry point: one ``error:`` line and exit 2 for any user error, never a traceback; what a file holds
    reaches the terminal as text only (affray.cli.terminal); Ctrl-C, a kill and a closed terminal stop a
    command cleanly (affray.stops), and the signals are handled as before once it returns."""
    guard_streams()
    restore = stops.catch_stops()
    try:
        _command(list(sys.argv[1:] if argv is None else argv))
    finally:
        restore()


def _command(args: list[str]) -> None:
    if not args:
        commands = ", ".join(sorted(COMMANDS))
        click.echo(
            f"error: no command given; the commands are {commands} (affray --help tells more)", err=True
        )
        sys.exit(EXIT_USER_ERROR)
    try:
        with cli.make_context("affray", args) as ctx:
            cli.invoke(ctx)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except AffrayError as exc:
        click.echo(f"error: {printable(str(exc))}", err=True)
        sys.exit(EXIT_USER_ERROR)
    except click.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
        click.echo(f"error: {_quoted_briefly(exc.format_message())}{hint}", err=True)
        sys.exit(EXIT_USER_ERROR)
    except click.ClickException as exc:
        click.echo(f"error: {_quoted_briefly(exc.format_message())}", err=True)
        sys.exit(EXIT_USER_ERROR)
    except click.Abort:
        click.echo("error: aborted", err=True)
        sys.exit(EXIT_USER_ERROR)
    except KeyboardInterrupt as exc:
        _stopped(exc)
    except BrokenPipeError:
        # The reader went away (``affray replay LOG | head``): not an error. Point stdout at devnull so
        # the interpreter's final flush does not complain.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except OSError as exc:
        # a file the user named that the system refuses (a name too long, a folder that is a file) and
        # that no command's own check caught: still one line
        where = f"{printable(str(exc.filename))}: " if exc.filename else ""
        click.echo(f"error: {where}{exc.strerror or exc}", err=True)
        sys.exit(EXIT_USER_ERROR)
