"""``affray view``: a fight as one self-contained HTML page to look at and share."""

from __future__ import annotations

from pathlib import Path

import click

from affray import files, rulesets, stores
from affray.cli.command import LOG, cli, new_output, open_log_arg, refuse_broken
from affray.errors import AffrayError
from affray.events.reader import read_all
from affray.kernel.fold import FoldError
from affray.replays.page import fight, page
from affray.stores import Place


@cli.command()
@click.argument("log", type=LOG)
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), required=True, help="The page: an .html file."
)
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
def view(log: Place, output: Path, force: bool) -> None:
    """Write the fight in LOG as one HTML page to OUTPUT: a scrubber and play/pause over the events, a map
    of where everyone stands, each combatant's state, the events told, and each one's derivation on a
    click. The page needs no network; the log's data is in it."""
    new_output(output, force, {stores.file_of(log): "the log"}, (".html", ".htm"), "a page")
    with open_log_arg(log) as reader:
        whole = read_all(reader)
    refuse_broken(log, whole.problem, "shown")
    recorded = rulesets.recorded(whole.header, str(log))
    try:
        data = fight(whole.header, whole.events, recorded, str(recorded.scenario.name) or log.stem)
    except FoldError as exc:
        raise AffrayError(f"{log}: {exc} (affray verify tells more)") from None
    text = page(data)
    files.write_new(output, text.encode(), force=force, flag="-o")
    click.echo(f"{output}: {len(data.frames)} events, {len(text.encode()) / 1024:.0f} KiB")
