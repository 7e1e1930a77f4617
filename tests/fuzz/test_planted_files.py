"""Things planted where a command writes: at every name a writing command could touch (its output, the
output's lock, the names its partial log is kept under, and the fixed temporary names affray once used), a
link to a file outside, a dangling link, a hard link to a file outside, a fifo, or nothing; then the command
runs, with or without ``--force``.

What must hold whatever was planted: the contract (exit 0 or one ``error:`` line and 2, nothing escapes
``main``, no hang on a fifo: the harness bounds each call); no file outside the output's own name changes
(the victims keep their bytes, a dangling link's target is never made, every planted name other than the
output is as it was planted); what has the output's name after a success is a regular file (or the fifo
a log was written into); after a refusal it is as planted; and nothing new is left beside it but partial
logs (``NAME.partial``, ``NAME.partial-2``, ...), no temporary file.

25 cases under the quick profile, 1000 under ``--hypothesis-profile=long``.
"""

from __future__ import annotations

import atexit
import dataclasses
import fnmatch
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from hypothesis import event, given
from hypothesis import strategies as st

from affray.files import partial_names
from tests.fuzz.harness import EXAMPLES, Mutant, Outcome, affray, assert_contract, report

DUEL = EXAMPLES / "duel.toml"
PRECIOUS = b"precious, and not affray's\n"
PLANTS = ("nothing", "a link", "a dangling link", "a hard link", "a fifo")


@dataclass(frozen=True)
class Writer:
    """A writing command: its arguments (given the inputs' folder and the output's), the output's name,
    and the other names beside it that it could touch."""

    name: str
    output: str
    args: Callable[[Path, Path], list[str | os.PathLike[str]]]
    extra: tuple[str, ...] = ()
    made: tuple[str, ...] = ()
    """Patterns of the other files the command writes beside the output (in a folder it fills)."""

    def names(self) -> list[str]:
        """Every name a stranger could plant at: the output, its lock, two partial names, the extras."""
        partials = list(partial_names(self.output))[:2]
        return [self.output, f".{self.output}.lock", *partials, *self.extra]


def _changed_golden(folder: Path) -> Path:
    from tests.cli.test_regress import one_point_for_brenna

    golden = folder / "fight.jsonl"
    shutil.copy(EXAMPLES.parent / "tests" / "golden" / "duel.jsonl", golden)
    one_point_for_brenna(golden)
    return golden


@cache
def inputs() -> Path:
    """The commands' inputs, made once: the duel's log and a campaign holding it."""
    folder = Path(tempfile.mkdtemp(prefix="affray-planted-"))
    atexit.register(shutil.rmtree, folder, True)
    made = affray("run", DUEL, "-o", folder / "duel.jsonl")
    assert made.status == 0, made
    assert affray("import", folder / "duel.jsonl", "-o", folder / "c.sqlite").status == 0
    return folder


WRITERS = (
    Writer(
        "run",
        "fight.jsonl",
        lambda i, o: ["run", DUEL, "-o", o / "fight.jsonl"],
        (".fight.jsonl.partial.jsonl",),
    ),
    Writer(
        "view",
        "page.html",
        lambda i, o: ["view", i / "duel.jsonl", "-o", o / "page.html"],
        (".page.html.partial.html",),
    ),
    Writer(
        "junit",
        "report.xml",
        lambda i, o: ["regress", i / "duel.jsonl", "--junit", o / "report.xml"],
        (".report.xml.partial.xml",),
    ),
    Writer(
        "battle",
        "res.csv",
        lambda i, o: ["battle", DUEL, "--runs", "2", "-o", o / "res.csv"],
        (".res.csv.partial",),
    ),
    Writer(
        "timeline",
        "fight.png",
        lambda i, o: ["timeline", i / "duel.jsonl", "-o", o / "fight.png"],
        (".fight.png.partial.png",),
    ),
    Writer(
        "plots",
        "wins.png",
        lambda i, o: ["battle", DUEL, "--runs", "2", "--plots", o],
        (".wins.png.partial",),
        ("time.png", "damage.png"),
    ),
    Writer(
        "keep-logs",
        "kept.txt",
        lambda i, o: ["battle", DUEL, "--runs", "2", "--keep-logs", "1", "--logs", o],
        (".kept.txt.partial",),
        ("run-*.jsonl",),
    ),
    Writer(
        "export",
        "duel.jsonl",
        lambda i, o: ["export", f"{i / 'c.sqlite'}#duel", "-o", o / "duel.jsonl"],
        (".duel.jsonl.partial.jsonl",),
    ),
    Writer(
        "regress --update",
        "fight.jsonl",
        lambda i, o: ["regress", "--update", _changed_golden(o)],
        (".fight.jsonl.partial.jsonl",),
    ),
)
"""The commands tried. ``regress --update`` rewrites its input, so nothing is planted at its output."""


def _plant(path: Path, plant: str, victims: Path) -> None:
    victim = victims / f"victim-{path.name}"
    if plant == "nothing":
        return
    if plant == "a fifo":
        os.mkfifo(path)
        return
    victim.write_bytes(PRECIOUS)
    if plant == "a link":
        path.symlink_to(victim)
    elif plant == "a dangling link":
        victim.unlink()
        path.symlink_to(victim)
    else:
        os.link(victim, path)


def _looks(path: Path) -> tuple[object, ...] | None:
    """What has the name ``path`` (not followed), as far as planting goes."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(found.st_mode):
        return ("link", os.readlink(path))
    return (stat.S_IFMT(found.st_mode), found.st_ino)


def _broken(
    writer: Writer,
    out: Path,
    victims: Path,
    planted: Mapping[str, str],
    before: Mapping[str, object],
    ran: Outcome,
) -> str:
    """What is wrong after the command ran ("" when all holds)."""
    for name, plant in planted.items():
        victim = victims / f"victim-{name}"
        if plant == "a dangling link" and victim.exists():
            return f"the dangling link at {name} was followed: {victim.name} was made"
        if plant in ("a link", "a hard link") and victim.read_bytes() != PRECIOUS:
            return f"{victim.name}, which {plant} at {name} reaches, changed"
        if name != writer.output and _looks(out / name) != before[name]:
            return f"{name}, planted beside the output, changed"
    target = _looks(out / writer.output)
    if ran.status != 0 and writer.name != "regress --update" and target != before[writer.output]:
        return "refused, yet the output changed"
    if ran.status == 0 and target is not None and target[0] not in (stat.S_IFREG, stat.S_IFIFO):
        return f"exit 0, and the output is {target[0]!r}, not a file"
    allowed = {*writer.names(), *partial_names(writer.output)}
    stray = sorted(
        name
        for name in set(os.listdir(out)) - allowed
        if not any(fnmatch.fnmatchcase(name, made) for made in writer.made)
    )
    return f"left beside the output: {', '.join(stray)}" if stray else ""


SAID_BESIDE = re.compile(r"\d[\d,]*/[\d,]+ (runs|logs)|plot: |logs: ")
"""The lines battle and regress print on stderr besides notes: progress, the plots and logs written."""


def _without_side_lines(ran: Outcome) -> Outcome:
    """``ran`` without the lines of ``SAID_BESIDE``."""
    kept = [line for line in ran.err_lines if not SAID_BESIDE.match(line)]
    return dataclasses.replace(ran, err="".join(f"{line}\n" for line in kept))


@given(
    writer=st.sampled_from(WRITERS),
    force=st.booleans(),
    plants=st.lists(st.one_of(st.just("nothing"), st.sampled_from(PLANTS)), min_size=5, max_size=5),
)
def test_nothing_planted_beside_an_output_is_written_through(
    writer: Writer, force: bool, plants: list[str]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        out, victims = Path(folder) / "out", Path(folder) / "victims"
        out.mkdir()
        victims.mkdir()
        args = writer.args(inputs(), out)  # makes regress's golden before anything is planted
        names = writer.names()
        planted = dict(zip(names, plants, strict=True))
        if writer.name == "regress --update":
            planted[writer.output] = "nothing"  # its output is its input
        for name, plant in planted.items():
            _plant(out / name, plant, victims)
        before = {name: _looks(out / name) for name in names}
        ran = affray(*args, *(["--force"] if force else []))
        event(f"{writer.name}: exit {ran.status}")
        mutant = Mutant(writer.name, ", ".join(f"{p} at {n}" for n, p in planted.items()), "planted")
        assert_contract(mutant, _without_side_lines(ran), (0, 2))
        problem = _broken(writer, out, victims, planted, before, ran)
        assert not problem, report(mutant, ran, problem)
