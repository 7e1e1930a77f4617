"""The wheel pip builds holds every file affray reads at run time: each package's ``data/*.toml`` tables
(a new ruleset's tables need no line of pyproject.toml), the page's viewer and ``py.typed``, which tells
type checkers that affray (its contract suite, say) is typed.

It builds a wheel as a user's pip would, fetching the build backend from the package index, so it is a
long test (``--thorough``, as .ci/run runs it).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SECONDS = 600


def _shipped() -> set[str]:
    """Every file under affray/ that is not Python source nor bytecode, as a path from the project."""
    return {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "affray").rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    }


def _copy(folder: Path) -> Path:
    """What a wheel is built from, copied into ``folder`` (a build writes beside its sources)."""
    project = folder / "project"
    shutil.copytree(ROOT / "affray", project / "affray", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    return project


@pytest.mark.thorough
def test_the_wheel_holds_every_data_file_of_the_package(tmp_path: Path) -> None:
    """Each table, the viewer and the type marker are in the wheel pip builds."""
    wheels = tmp_path / "wheels"
    command = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        str(_copy(tmp_path)),
        "--no-deps",
        "-q",
        "-w",
        str(wheels),
    ]
    subprocess.run(command, cwd=tmp_path, check=True, capture_output=True, timeout=SECONDS)
    (wheel,) = wheels.glob("affray-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        held = set(archive.namelist())
    assert _shipped() <= held, sorted(_shipped() - held)
    assert any(name.startswith("affray/rules/energion/data/") for name in _shipped())
