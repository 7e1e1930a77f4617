"""Comparing this copy of affray with an older commit, as whole processes run in turn on one machine.

``checkout(rev)`` extracts the commit's files (``git archive``, the repository untouched) into a new
temporary folder; ``in_turn`` runs the same measuring code under each copy in turn (``PYTHONPATH`` first),
``repeat`` times, and keeps each copy's median. A ratio of two medians taken this way cancels most of a
shared machine's drift. ``compile_bytecode`` readies the affray a whole process imports, as an installed
one is. Imported by the scripts beside it.
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ISSUE_BASELINE = "77b77bf"
"""The commit whose figures issue 23 quotes as "today" (the speed goals are multiples of it)."""


_COMPILE = (
    "import affray, compileall, pathlib; "
    "compileall.compile_dir(pathlib.Path(affray.__file__).parent, quiet=1)"
)


def compile_bytecode(env: Mapping[str, str] | None = None) -> None:
    """Compile the bytecode of the affray that a process started with ``env`` imports, as an installed
    affray's is once it has run: where it is not (a checkout run with ``PYTHONDONTWRITEBYTECODE`` set, as
    some containers do), every whole process measured would compile each of its modules anew, some
    0.15-0.2 s of a command's time."""
    subprocess.run([sys.executable, "-c", _COMPILE], env=env, cwd=ROOT / "benchmarks", check=True)


@contextlib.contextmanager
def checkout(rev: str) -> Iterator[Path]:
    """The files of commit ``rev`` in a new temporary folder, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="affray-baseline-") as folder:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", rev], capture_output=True, check=False
        )
        if archive.returncode != 0:
            raise SystemExit(f"error: --baseline {rev}: {archive.stderr.decode(errors='replace').strip()}")
        with tempfile.TemporaryFile() as tar:
            tar.write(archive.stdout)
            tar.seek(0)
            with tarfile.open(fileobj=tar) as files:
                files.extractall(folder, filter="data")
        compile_bytecode(dict(os.environ, PYTHONPATH=folder))
        yield Path(folder)


def measured(code: str, args: Sequence[str], copy: Path) -> dict[str, Any]:
    """Run ``code`` (a script printing one JSON object) with ``copy`` first on the import path; the
    copy's affray is the one imported (checked)."""
    env = dict(os.environ, PYTHONPATH=str(copy))
    # run in the copy's own folder: ``python -c`` puts the current folder first on the import path
    done = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, cwd=copy, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"error: measuring under {copy} failed:\n{done.stderr.strip()}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if not Path(result.get("from", "")).is_relative_to(copy):
        raise SystemExit(f"error: measuring {copy} imported affray from {result.get('from')}")
    return result


def in_turn(
    code: str, args: Sequence[str], copies: dict[str, Path], repeat: int, figure: str
) -> dict[str, float]:
    """Each copy's median of ``figure`` over ``repeat`` rounds, the copies run in turn in each round."""
    seen: dict[str, list[float]] = {name: [] for name in copies}
    for _ in range(repeat):
        for name, copy in copies.items():
            seen[name].append(float(measured(code, args, copy)[figure]))
    return {name: statistics.median(values) for name, values in seen.items()}
