"""``affray view``: a fight as one self-contained HTML page to look at and share."""

from __future__ import annotations

import os
from pathlib import Path

import click

from affray import rulesets
from affray.cli.command import cli, open_log_arg, refuse_overwriting
from affray.errors import AffrayError
from affray.events.reader import read_all
from affray.kernel.fold import FoldError
from affray.replays.page import fight, page


@cli.command()
@click.argument("log", type=click.Path(path_type=Path))
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), required=True, help="The page: an .html file."
)
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
def view(log: Path, output: Path, force: bool) -> None:
    """Write the fight in LOG as one HTML page to OUTPUT: a scrubber and play/pause over the events, a map
    of where everyone stands, each combatant's state, the events told, and each one's derivation on a
    click. The page needs no network; the log's data is in it."""
    if output.suffix.lower() not in (".html", ".htm"):
        raise AffrayError(f"-o {output}: a page ends in .html")
    refuse_overwriting(output, {log: "the log"})
    if output.exists() and not force:
        raise AffrayError(f"-o {output}: the file exists; --force replaces it")
    with open_log_arg(log) as reader:
        whole = read_all(reader)
    problem = whole.problem
    if problem is not None:
        where = "" if "cut short" in problem.message else f"{problem.where()}: "
        raise AffrayError(
            f"{log}: {where}{problem.message}; only a whole log is shown (affray verify tells more)"
        )
    recorded = rulesets.recorded(whole.header, str(log))
    try:
        data = fight(whole.header, whole.events, recorded, str(recorded.scenario.name) or log.stem)
    except FoldError as exc:
        raise AffrayError(f"{log}: {exc} (affray verify tells more)") from None
    text = page(data)
    partial = output.with_name(f".{output.name}.partial")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, output)
    finally:
        partial.unlink(missing_ok=True)
    click.echo(f"{output}: {len(data.frames)} events, {len(text.encode()) / 1024:.0f} KiB")
