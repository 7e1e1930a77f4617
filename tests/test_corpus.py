"""Old logs are read forever: every log of tests/corpus chains, replays and gives its state; those of a
ruleset version this affray still simulates re-simulate identically too (a rules fix bumps the ruleset's
version, and re-simulation of older logs of it ends there).

See tests/corpus/README.md for what each folder holds and how it differs from today's logs.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from affray import rulesets
from affray.cli import main
from tests.strategies import read_path

CORPUS = Path(__file__).resolve().parent / "corpus"
LOGS = sorted(CORPUS.glob("*/*.jsonl"))


def _current(path: Path) -> bool:
    header = read_path(path).header
    return header.ruleset_version == rulesets.ruleset(header.ruleset).version


def _affray(*args: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main([os.fspath(a) for a in args])
        except SystemExit as exc:
            return (exc.code if isinstance(exc.code, int) else 1), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def _name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def test_the_corpus_holds_a_log_of_every_example() -> None:
    examples = {p.stem for p in (CORPUS.parent.parent / "examples").glob("*.toml")}
    assert examples <= {p.stem for p in CORPUS.glob("*/*.jsonl")}


@pytest.mark.parametrize("log", LOGS, ids=_name)
def test_an_old_log_replays_every_event(log: Path) -> None:
    code, out, err = _affray("replay", log)
    assert code == 0, err
    assert not err
    events = len(log.read_bytes().splitlines()) - 2
    assert len(out.splitlines()) == events + 1


@pytest.mark.parametrize("log", LOGS, ids=_name)
def test_an_old_log_gives_its_final_state(log: Path) -> None:
    code, out, err = _affray("state", log, "--json")
    assert code == 0, err
    state = json.loads(out)
    assert state["ended"] is True
    assert state["seq"] == len(log.read_bytes().splitlines()) - 2


@pytest.mark.parametrize("log", LOGS, ids=_name)
def test_an_old_log_chains_whole(log: Path) -> None:
    read = read_path(log)
    assert (read.problem, read.ended) == (None, True)


@pytest.mark.parametrize("log", LOGS, ids=_name)
def test_verify_re_simulates_an_old_log_or_names_its_older_ruleset_version(log: Path) -> None:
    """A log of the ruleset version this affray simulates re-simulates identically; one of an older version
    is reported as such (exit 3), its chain and fold checked, never as a failure. A players' copy is
    folded, never re-simulated, whatever its version."""
    code, out, _ = _affray("verify", log)
    if _current(log) or b'"sealed":{"scheme"' in log.read_bytes().split(b"\n", 1)[0]:  # a copy: folded only
        assert (code, out[:4]) == (0, "ok: "), out
        return
    header = read_path(log).header
    assert code == 3, out
    assert f"made under {header.ruleset} version {header.ruleset_version}; this affray simulates" in out


def test_an_old_players_copy_is_still_its_referees_log_redacted() -> None:
    """The sealed values of a players' copy are checked against its referee's log however old both are;
    the referee's log re-simulates while its ruleset version is current."""
    folder = CORPUS / "format-1-sealed"
    referee = folder / "wolves.jsonl"
    code, out, _ = _affray("reveal", folder / "wolves-players.jsonl", referee)
    assert out.startswith(f"ok: {folder / 'wolves-players.jsonl'}: each of its 244 sealed values"), out
    assert code == (0 if _current(referee) else 3), out
