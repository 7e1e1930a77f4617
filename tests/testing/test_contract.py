"""The contract suite (affray.testing.contract) as a third party runs it: the toy of tests/toy made a
project of its own, its ruleset declared through the ``affray.rulesets`` entry point as docs/extending.md
tells, installed beside its sources (setuptools writes its metadata, as an editable install does), and
that project's own pytest run from its folder on the one small test file docs/extending.md shows."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from affray.testing.contract import RulesetContract

TOY = Path(__file__).resolve().parents[1] / "toy"
PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "affray-toy"
version = "1.0"
dependencies = ["affray"]

[project.entry-points."affray.rulesets"]
toy = "affray_toy:RULESET"

[tool.pytest.ini_options]
testpaths = ["tests"]
filterwarnings = ["error"]
"""
DOCS = Path(__file__).resolve().parents[2] / "docs" / "extending.md"
CONTRACT_TEST = next(
    block
    for block in re.findall(r"^```python\n(.*?)^```", DOCS.read_text(), re.M | re.S)
    if "RulesetContract" in block
)
"""The project's one test file: docs/extending.md's example of running the contract suite."""
SECONDS = 120
"""The most each step may take (the whole is a few seconds)."""


def _project(folder: Path) -> Path:
    """The toy laid out as a project: ``src/affray_toy`` (its imports renamed), ``tests/`` with the
    duel and the one test file, its pyproject.toml."""
    package = folder / "src" / "affray_toy"
    package.mkdir(parents=True)
    for module in TOY.glob("*.py"):
        (package / module.name).write_text(module.read_text().replace("tests.toy", "affray_toy"))
    tests = folder / "tests"
    tests.mkdir()
    (tests / "duel.toml").write_text((TOY / "duel.toml").read_text())
    (tests / "test_contract.py").write_text(CONTRACT_TEST)
    (folder / "pyproject.toml").write_text(PYPROJECT)
    return folder


def _run(command: list[str], folder: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=SECONDS)


pytestmark = pytest.mark.thorough
"""A long test (a project's own pytest run from its folder): .ci/run runs it after the quick suite."""


@pytest.fixture(scope="module")
def projects_pytest(tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess[str]:
    """The toy project's ``python -m pytest -v``, the project installed beside its sources: setuptools
    writes its metadata, entry point included, into ``src`` (no wheel is built: building one needs the
    ``wheel`` package, which an offline machine may lack), and ``src`` is on the path."""
    folder = _project(tmp_path_factory.mktemp("affray-toy"))
    env = {
        **os.environ,
        "PYTHONPATH": str(folder / "src"),
        "XDG_CACHE_HOME": str(folder / "cache"),
        "PYTEST_ADDOPTS": "",
    }
    metadata = [sys.executable, "-c", "import setuptools; setuptools.setup()", "egg_info", "-e", "src"]
    written = _run(metadata, folder, env)
    assert written.returncode == 0, written.stderr
    return _run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider"], folder, env)


def test_the_projects_own_pytest_passes(projects_pytest: subprocess.CompletedProcess[str]) -> None:
    assert projects_pytest.returncode == 0, projects_pytest.stdout[-3000:] + projects_pytest.stderr


def test_every_check_of_the_contract_is_collected_for_the_toy(
    projects_pytest: subprocess.CompletedProcess[str],
) -> None:
    ran = set(re.findall(r"^tests/test_contract\.py::TestToy::(test_\w+)", projects_pytest.stdout, re.M))
    assert ran == {name for name in dir(RulesetContract) if name.startswith("test_")}
