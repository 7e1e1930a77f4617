"""A change to affray's own tables, caught by ``affray regress`` over the golden logs, then accepted.

A copy of the installed ``affray`` package, with the long sword's damage raised from 18 to 19 in its
weapons table, is put first on ``PYTHONPATH``; ``affray regress`` (as a real process) over a copy of the
golden logs then names exactly the fights with a long sword in them (the duel, the mage duel and the
skirmish) as CHANGED, each at its first long-sword hit, with exit 1. ``--update`` rewrites them under
the new table (exit 0), and a third run finds every log unchanged. A golden log edited by hand is
DAMAGED, never CHANGED.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import affray

GOLDEN = Path(__file__).resolve().parent / "golden"
FORMAT_1 = Path(__file__).resolve().parent / "corpus" / "format-1-last"
"""The golden logs in format 1, which chains every line."""
N = len(list(GOLDEN.glob("*.jsonl")))
FIRST_DIVERGENT = {"duel": 12, "mage-duel": 37, "skirmish": 29}
"""The fights with a long sword in them, and the seq of each one's first long-sword hit."""
BASE = "damage.base: recorded 18, simulated 19"


def _with_long_sword_damage(table: Path, damage: int) -> None:
    """Set "Sword, Long"'s ``damage`` in the weapons table at ``table``, nothing else."""
    text = table.read_text()
    start = text.index('name = "Sword, Long"\n')
    end = text.find("[[", start)
    entry = text[start : end if end != -1 else len(text)]
    assert entry.count("\ndamage = 18\n") == 1, entry
    table.write_text(
        text[:start] + entry.replace("\ndamage = 18\n", f"\ndamage = {damage}\n") + text[start + len(entry) :]
    )


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding a copy of the installed affray package whose long sword does 19 damage."""
    root = tmp_path_factory.mktemp("package") / "scratch"
    shutil.copytree(
        Path(affray.__file__).parent, root / "affray", ignore=shutil.ignore_patterns("__pycache__")
    )
    _with_long_sword_damage(root / "affray" / "rules" / "energion" / "data" / "weapons.toml", 19)
    return root


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    """A copy of the golden logs."""
    copy = tmp_path / "golden"
    shutil.copytree(GOLDEN, copy, ignore=shutil.ignore_patterns("*.md"))
    return copy


def _python(scratch: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(scratch)},
        cwd=cwd,
        timeout=300,
        check=False,
    )


def _regress(scratch: Path, cwd: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return _python(scratch, cwd, "-m", "affray", "regress", *map(str, args))


def _changed(stdout: str) -> dict[str, str]:
    """The CHANGED lines of a report, by the stem of the log each names."""
    lines = [line for line in stdout.splitlines() if line.startswith("CHANGED ")]
    found = {Path(line.removeprefix("CHANGED ").split(": ", 1)[0]).stem: line for line in lines}
    assert len(found) == len(lines)
    return found


def _summary(stdout: str) -> str:
    return stdout.splitlines()[-1]


def test_the_scratch_package_is_the_one_imported(scratch: Path, tmp_path: Path) -> None:
    found = _python(scratch, tmp_path, "-c", "import affray; print(affray.__file__)")
    assert found.returncode == 0, found
    assert Path(found.stdout.strip()).resolve() == (scratch / "affray" / "__init__.py").resolve()
    table = scratch / "affray" / "rules" / "energion" / "data" / "weapons.toml"
    original = Path(affray.__file__).parent / "rules" / "energion" / "data" / "weapons.toml"
    assert table.read_text() != original.read_text()


@pytest.mark.thorough  # a long test: .ci/run runs it after the quick suite
def test_a_changed_table_is_caught_then_accepted(scratch: Path, golden: Path, tmp_path: Path) -> None:
    first = _regress(scratch, tmp_path, golden)
    assert first.returncode == 1, first
    assert "Traceback" not in first.stderr
    changed = _changed(first.stdout)
    assert sorted(changed) == sorted(FIRST_DIVERGENT)
    for name, seq in FIRST_DIVERGENT.items():
        line = changed[name]
        assert re.search(
            rf": line {seq + 1} \(seq {seq}\): differs from the re-simulation: attack_resolved ", line
        ), line
        assert BASE in line, line
        assert "; the outcome: " in line, line
    assert not [
        line for line in first.stdout.splitlines() if re.match(r"(DAMAGED|UNREADABLE|OTHER VERSION) ", line)
    ]
    assert _summary(first.stdout) == (
        f"{N} logs: {N - 3} unchanged, 3 changed (0 with another winner), 0 damaged, 0 unreadable, "
        "0 of another version"
    )
    # the header pins name the cause: every Energion golden was made with the old weapons.toml
    energion = sum(1 for p in golden.glob("*.jsonl") if b'"ruleset":"energion"' in p.read_bytes()[:200])
    assert (
        f"energion/weapons.toml changed: 3 of {energion} fights made with it end differently"
        in first.stdout.splitlines()
    )
    assert all(
        line.endswith("; changed since it was made: energion/weapons.toml") for line in changed.values()
    )

    as_json = _regress(scratch, tmp_path, golden, "--json")
    assert as_json.returncode == 1, as_json
    rows = {Path(row["path"]).stem: row for row in json.loads(as_json.stdout)}
    assert len(rows) == N
    assert {name for name, row in rows.items() if row["sort"] != "unchanged"} == set(FIRST_DIVERGENT)
    for name, seq in FIRST_DIVERGENT.items():
        row = rows[name]
        assert (row["sort"], row["seq"], row["winner_changed"], row["updated"]) == (
            "changed",
            seq,
            False,
            False,
        )
        assert row["fields"][0] == {"path": "damage.base", "a": 18, "b": 19}
        assert BASE in row["message"]

    before = {p.name: p.read_bytes() for p in golden.glob("*.jsonl")}
    update = _regress(scratch, tmp_path, golden, "--update")
    assert update.returncode == 0, update
    assert sorted(_changed(update.stdout)) == sorted(FIRST_DIVERGENT)
    assert all(line.endswith("; rewritten under today's rules") for line in _changed(update.stdout).values())
    assert _summary(update.stdout).endswith("; 3 rewritten under today's rules")
    after = {p.name: p.read_bytes() for p in golden.glob("*.jsonl")}
    assert {name for name in before if before[name] != after[name]} == {f"{n}.jsonl" for n in FIRST_DIVERGENT}

    third = _regress(scratch, tmp_path, golden)
    assert third.returncode == 0, third
    assert third.stdout.splitlines() == [
        f"{N} logs: {N} unchanged, 0 changed (0 with another winner), 0 damaged, 0 unreadable, "
        "0 of another version"
    ]
    assert f"{N} unchanged" in third.stdout


@pytest.mark.parametrize("version", [1, 2], ids=["format-1", "format-2"])
@pytest.mark.parametrize(
    ("name", "index"),
    [("duel", 5), ("duel", 20), ("brawl", 10)],
    ids=["before-the-change", "after-the-change", "a-fight-without-a-long-sword"],
)
def test_a_hand_edited_golden_is_damaged_not_changed(
    scratch: Path, golden: Path, tmp_path: Path, name: str, index: int, version: int
) -> None:
    log = golden / f"{name}.jsonl"
    if version == 1:
        log.write_bytes((FORMAT_1 / f"{name}.jsonl").read_bytes())
    lines = log.read_bytes().split(b"\n")
    lines[index], count = re.subn(rb'"t":(\d+)', lambda m: b'"t":%d' % (int(m[1]) + 1), lines[index], count=1)
    assert count == 1
    log.write_bytes(b"\n".join(lines))
    before = log.read_bytes()

    result = _regress(scratch, tmp_path, golden, "--update")
    assert result.returncode == 1, result
    damaged = [line for line in result.stdout.splitlines() if line.startswith("DAMAGED ")]
    assert len(damaged) == 1, result.stdout
    assert damaged[0].startswith(f"DAMAGED {log}: "), damaged[0]
    if version == 1:
        # format 1 chains every line: the line edited is named, after the first long-sword hit's difference
        # when it comes after it ("...; and line L ...")
        assert f"line {index + 1} (seq {index}): this line was changed" in damaged[0], damaged[0]
    else:
        # format 2 chains blocks of lines: the block holding the edit is named, after the first line of it
        # that differs from the re-simulation (the long-sword hit, when it comes before the edit)
        first = min(index, FIRST_DIVERGENT.get(name, index))
        assert damaged[0].startswith(
            f"DAMAGED {log}: line {first + 1} (seq {first}): differs from the re-simulation: "
        ), damaged[0]
        events = len(lines) - 3  # the header, the end line and the empty text after the last newline aside
        assert damaged[0].endswith(
            f"; and line 2 (seq 1): lines 2 to {events + 1} (seqs 1 to {events}) were changed: their hash no "
            "longer matches the prev that the end line records"
        ), damaged[0]
    assert name not in _changed(result.stdout)
    assert log.read_bytes() == before
    assert ", 1 damaged, " in _summary(result.stdout)
