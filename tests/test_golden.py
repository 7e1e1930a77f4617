"""Golden logs: each example, re-simulated now, must give its recorded log byte for byte.

The recorded logs live in tests/golden/<example>.jsonl. When a change is meant to alter a fight, rewrite
them with ``AFFRAY_REGENERATE_GOLDEN=1 pytest tests/test_golden.py`` and review the diff
(tests/golden/README.md).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from affray.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden"
EXAMPLE_NAMES = [
    "duel",
    "skirmish",
    "archers",
    "mage-duel",
    "brawl",
    "robots",
    "bar-brawl",
    "firefight",
    "ambush",
]
REGENERATE = os.environ.get("AFFRAY_REGENERATE_GOLDEN") == "1"
HOW_TO_REGENERATE = (
    "if the change is intended, regenerate with: AFFRAY_REGENERATE_GOLDEN=1 pytest tests/test_golden.py "
    "(see tests/golden/README.md) and review the diff"
)


def _affray(*args: str | Path) -> tuple[int, str]:
    """Run the ``affray`` command in-process; its exit code and stdout."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            main([os.fspath(a) for a in args])
        except SystemExit as exc:
            return (exc.code if isinstance(exc.code, int) else 1), out.getvalue()
    return 0, out.getvalue()


def _simulate(name: str, tmp_path: Path) -> bytes:
    """The example's log as ``affray run`` writes it today."""
    out = tmp_path / f"{name}.jsonl"
    code, _ = _affray("run", EXAMPLES / f"{name}.toml", "-o", out)
    assert code == 0, f"affray run examples/{name}.toml failed"
    return out.read_bytes()


def _fields_that_differ(old_line: bytes, new_line: bytes) -> str:
    """The top-level JSON members two lines disagree on, ``prev`` aside (it differs after any change)."""
    try:
        old, new = json.loads(old_line, parse_float=str), json.loads(new_line, parse_float=str)
    except ValueError:
        return "the recorded line is not JSON"
    keys = sorted(k for k in old.keys() | new.keys() if k != "prev" and old.get(k) != new.get(k))
    shown = "; ".join(f"{k}: recorded {old.get(k)!r}, simulated {new.get(k)!r}" for k in keys[:3])
    return shown or "only the chain hash differs"


def describe_difference(golden: bytes, fresh: bytes) -> str:
    """Where two logs first differ: a header field, the first differing seq and its fields, or the end."""
    old_lines, new_lines = golden.split(b"\n"), fresh.split(b"\n")
    pairs = zip(old_lines, new_lines, strict=False)
    index = next((i for i, (a, b) in enumerate(pairs) if a != b), min(len(old_lines), len(new_lines)))
    if index >= min(len(old_lines), len(new_lines)):
        return f"one log is longer: {len(old_lines)} lines recorded, {len(new_lines)} simulated"
    old, new = old_lines[index], new_lines[index]
    if index == 0:
        return f"the header differs in {_fields_that_differ(old, new)}"
    if old.startswith(b'{"end":') or new.startswith(b'{"end":'):
        return f"line {index + 1} differs (the end line: one log holds more events)"
    return f"first differing seq {index}: {_fields_that_differ(old, new)}"


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_re_simulates_to_its_golden_log(name: str, tmp_path: Path) -> None:
    fresh = _simulate(name, tmp_path)
    golden_path = GOLDEN / f"{name}.jsonl"
    if REGENERATE:
        golden_path.write_bytes(fresh)
        pytest.skip(f"regenerated {golden_path.relative_to(ROOT)}")
    assert golden_path.exists(), f"{golden_path.relative_to(ROOT)} is missing; {HOW_TO_REGENERATE}"
    golden = golden_path.read_bytes()
    if fresh != golden:
        pytest.fail(
            f"examples/{name}.toml no longer gives {golden_path.relative_to(ROOT)}: "
            f"{describe_difference(golden, fresh)}; {HOW_TO_REGENERATE}",
            pytrace=False,
        )


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_golden_log_passes_affray_verify(name: str) -> None:
    golden_path = GOLDEN / f"{name}.jsonl"
    assert golden_path.exists(), f"{golden_path.relative_to(ROOT)} is missing; {HOW_TO_REGENERATE}"
    code, out = _affray("verify", golden_path)
    assert code == 0, out
    assert out.startswith("ok: ")


def test_difference_names_the_first_differing_seq(tmp_path: Path) -> None:
    """The failure message of the golden test points at the first seq that changed."""
    fresh = _simulate("duel", tmp_path)
    lines = fresh.split(b"\n")
    lines[7] = lines[7].replace(b'"t":', b'"t":1', 1)
    assert describe_difference(b"\n".join(lines), fresh).startswith("first differing seq 7: t: recorded 1")


def test_robots_healed_for_30_days_gives_its_golden_log(tmp_path: Path) -> None:
    """The aftermath (rules S7, S8) is a regression test too: the healed robots log, byte for byte."""
    fight = tmp_path / "robots.jsonl"
    fight.write_bytes(_simulate("robots", tmp_path))
    healed = tmp_path / "robots-healed.jsonl"
    code, _ = _affray("heal", fight, "--days", "30", "-o", healed)
    assert code == 0
    golden_path = GOLDEN / "robots-healed.jsonl"
    if REGENERATE:
        golden_path.write_bytes(healed.read_bytes())
        pytest.skip(f"regenerated {golden_path.relative_to(ROOT)}")
    assert healed.read_bytes() == golden_path.read_bytes(), describe_difference(
        golden_path.read_bytes(), healed.read_bytes()
    )
    code, out = _affray("verify", golden_path)
    assert code == 0, out
