"""Naming a log: a file, or ``campaign.sqlite#NAME``; and what a campaign lists as its whole encounters."""

from __future__ import annotations

from pathlib import Path

import pytest

from affray import rulesets, stores
from affray.errors import LogError
from affray.stores import JsonLinesLog, StoredLog
from affray.stores.sqlite import Campaign

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FORMAT_1 = Path(__file__).resolve().parents[1] / "corpus" / "format-1-last"
"""The golden logs in format 1, which chains every line."""


def _import(campaign: Path, name: str, golden: str = "duel") -> None:
    with (GOLDEN / f"{golden}.jsonl").open("rb") as lines:
        stores.write_whole(StoredLog(campaign, name), lines)


@pytest.mark.parametrize("suffix", [".sqlite", ".sqlite3", ".db", ".SQLITE"])
def test_a_campaign_and_a_name_make_a_stored_log(suffix: str) -> None:
    assert stores.place(f"c{suffix}#duel") == StoredLog(Path(f"c{suffix}"), "duel")


def test_a_name_runs_to_the_end_of_the_text_hash_signs_and_all() -> None:
    assert stores.place("c.sqlite#duel#2") == StoredLog(Path("c.sqlite"), "duel#2")


def test_a_hash_sign_in_a_folder_s_name_is_not_the_encounter_s() -> None:
    assert stores.place("C#/c.sqlite#duel") == StoredLog(Path("C#/c.sqlite"), "duel")


@pytest.mark.parametrize("text", ["duel.jsonl", "notes#1.jsonl", "c.sqlite"])
def test_anything_else_is_a_path(text: str) -> None:
    assert stores.place(text) == JsonLinesLog(Path(text))


def test_a_campaign_with_no_name_after_the_hash_sign_is_an_error() -> None:
    with pytest.raises(LogError, match=r"c.sqlite#: name the encounter after the # sign \(c.sqlite#NAME\)"):
        stores.place("c.sqlite#")


def test_a_stored_log_is_shown_as_it_is_named() -> None:
    assert str(StoredLog(Path("runs/c.sqlite"), "duel")) == "runs/c.sqlite#duel"


def test_a_bare_campaign_is_refused_as_a_log_with_the_names_it_holds(tmp_path: Path) -> None:
    campaign = tmp_path / "c.sqlite"
    _import(campaign, "duel")
    _import(campaign, "skirmish", "skirmish")
    with pytest.raises(
        LogError, match=r"a campaign holds many encounters; name one as .*#NAME \(it holds: duel, skirmish\)"
    ):
        JsonLinesLog(campaign).open(rulesets.vocabulary_for)


def test_a_missing_campaign_is_an_error_and_is_not_made(tmp_path: Path) -> None:
    with pytest.raises(LogError):
        StoredLog(tmp_path / "c.sqlite", "duel").open(rulesets.vocabulary_for)
    assert not (tmp_path / "c.sqlite").exists()


def test_exists_looks_for_the_encounter_in_its_campaign(tmp_path: Path) -> None:
    campaign = tmp_path / "c.sqlite"
    assert not StoredLog(campaign, "duel").exists()
    _import(campaign, "duel")
    assert StoredLog(campaign, "duel").exists()
    assert not StoredLog(campaign, "skirmish").exists()


def test_the_file_of_a_stored_log_is_its_campaign() -> None:
    assert StoredLog(Path("c.sqlite"), "duel").file == Path("c.sqlite")
    assert JsonLinesLog(Path("duel.jsonl")).file == Path("duel.jsonl")


def test_whole_encounters_leave_out_partial_and_half_written_ones(tmp_path: Path) -> None:
    campaign = tmp_path / "c.sqlite"
    _import(campaign, "duel")
    with Campaign.open(campaign) as opened:
        output = opened.writer("cut")
        output.write((GOLDEN / "duel.jsonl").read_bytes().splitlines(keepends=True)[0])
        output.keep_partial()
    assert stores.whole_encounters(campaign) == [StoredLog(campaign, "duel")]


def test_a_log_copied_in_that_fails_midway_leaves_nothing(tmp_path: Path) -> None:
    # format 1 chains every line, so the line out of its chain is refused as it comes
    campaign = tmp_path / "c.sqlite"
    lines = (FORMAT_1 / "duel.jsonl").read_bytes().splitlines(keepends=True)
    with pytest.raises(LogError, match="seq 5 does not chain"):
        stores.write_whole(StoredLog(campaign, "duel"), [*lines[:5], lines[7]])  # a line out of its chain
    with Campaign.open(campaign) as opened:
        assert opened.stored() == []


def test_a_log_of_format_2_copied_in_that_fails_at_its_end_line_leaves_nothing(tmp_path: Path) -> None:
    # format 2 chains blocks of lines: lines taken out of the duel's one block are found at its end line
    campaign = tmp_path / "c.sqlite"
    lines = (GOLDEN / "duel.jsonl").read_bytes().splitlines(keepends=True)
    with pytest.raises(LogError, match="does not chain"):
        stores.write_whole(StoredLog(campaign, "duel"), [*lines[:5], *lines[7:]])  # seqs 5 and 6 taken out
    with Campaign.open(campaign) as opened:
        assert opened.stored() == []
