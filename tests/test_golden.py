"""Golden logs: each example, run now, must give its recorded log byte for byte (affray's pytest plugin's
``affray_golden`` fixture); the plugin also collects every golden log as an item that re-simulates it.

The recorded logs live in tests/golden/<example>.jsonl. When a change is meant to alter a fight, rewrite
them with ``pytest tests/test_golden.py tests/golden --affray-update`` and review the diff
(tests/golden/README.md).
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest

from affray.cli import main
from affray.testing.pytest_plugin import Golden

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden"
EXAMPLE_NAMES = sorted(path.stem for path in EXAMPLES.glob("*.toml"))
"""Every example has a golden log of its name."""


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


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_gives_its_golden_log(name: str, tmp_path: Path, affray_golden: Golden) -> None:
    affray_golden.check(_simulate(name, tmp_path), GOLDEN / f"{name}.jsonl")


def test_robots_healed_for_30_days_gives_its_golden_log(tmp_path: Path, affray_golden: Golden) -> None:
    """The aftermath (rules S7, S8) is a regression test too: the healed robots log, byte for byte."""
    fight = tmp_path / "robots.jsonl"
    fight.write_bytes(_simulate("robots", tmp_path))
    healed = tmp_path / "robots-healed.jsonl"
    code, _ = _affray("heal", fight, "--days", "30", "-o", healed)
    assert code == 0
    affray_golden.check(healed.read_bytes(), GOLDEN / "robots-healed.jsonl")
