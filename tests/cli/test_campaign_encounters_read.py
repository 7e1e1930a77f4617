"""whatif, heal and lineage read a campaign's encounter as every other reading command does (issue 24, item
11), and write a log file; a what-if records such a parent as ``campaign.sqlite#NAME``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import EXAMPLES, Affray


@pytest.fixture
def campaign(affray: Affray, tmp_path: Path) -> Path:
    held = tmp_path / "c.sqlite"
    assert affray("run", EXAMPLES / "duel.toml", "-o", held, "--encounter", "ford").code == 0
    return held


@pytest.fixture
def what_if(affray: Affray, campaign: Path, tmp_path: Path) -> Path:
    out = tmp_path / "w.jsonl"
    result = affray("whatif", f"{campaign}#ford", "--seq", "12", "--rule", "miss", "--reason", "x", "-o", out)
    assert result.code == 0, result
    return out


def test_a_what_if_starts_from_a_campaigns_encounter(what_if: Path) -> None:
    assert what_if.read_bytes().startswith(b'{"format":"affray-log"')
    assert b'"parent":{"log":"c.sqlite#ford"' in what_if.read_bytes().split(b"\n", 1)[0]


def test_its_lineage_leads_back_to_the_encounter(affray: Affray, what_if: Path, campaign: Path) -> None:
    result = affray("lineage", what_if)
    assert result.code == 0, result
    assert result.out.splitlines()[1].startswith(f"  from {campaign.parent / 'c.sqlite'}#ford (end ")


def test_it_verifies_against_the_encounter_it_was_made_from(affray: Affray, what_if: Path) -> None:
    result = affray("verify", what_if)
    assert result.code == 0, result
    assert "#ford with exactly the changes it declares" in result.out


def test_a_what_if_whose_encounter_is_gone_says_so(affray: Affray, what_if: Path, campaign: Path) -> None:
    campaign.unlink()
    result = affray("lineage", what_if)
    assert result.code == 0, result
    assert "not found" in result.out


def test_an_encounter_is_healed_into_a_log_file(affray: Affray, campaign: Path, tmp_path: Path) -> None:
    assert affray("run", EXAMPLES / "robots.toml", "-o", campaign, "--encounter", "robots").code == 0
    healed = tmp_path / "h.jsonl"
    result = affray("heal", f"{campaign}#robots", "--days", "30", "-o", healed)
    assert result.code == 0, result
    assert affray("verify", healed).code == 0


def test_lineage_of_an_encounter_names_it(affray: Affray, campaign: Path) -> None:
    result = affray("lineage", f"{campaign}#ford")
    assert result.out.startswith(f"{campaign}#ford (end ")
    assert result.out.rstrip().endswith("the original fight")
