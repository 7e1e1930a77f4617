"""``affray timeline LOG -o PICTURE``: the fight drawn on its clock, in PNG, SVG or PDF."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import ROOT, Affray, assert_user_error

MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".svg": b"<?xml", ".pdf": b"%PDF"}


@pytest.mark.parametrize("suffix", sorted(MAGIC))
def test_the_picture_is_written_in_the_format_its_suffix_names(
    affray: Affray, duel_log: Path, tmp_path: Path, suffix: str
) -> None:
    out = tmp_path / f"duel{suffix}"
    result = affray("timeline", duel_log, "-o", out)
    assert result.code == 0, result
    assert out.read_bytes().startswith(MAGIC[suffix])
    assert result.out.strip() == f"{out}: 2 lanes, 54.996 s"


def test_a_stretch_of_the_fight_is_drawn_with_from_and_to(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    # from 20 s to 30 s: the seconds are ticked every 2 s, and only the damage labels of the blows in the
    # stretch are drawn (brenna's 1.875 at 24.665 s; not her 3.75 at 11.666 s)
    out = tmp_path / "middle.svg"
    assert affray("timeline", duel_log, "-o", out, "--from", "20", "--to", "30").code == 0
    text = out.read_text()
    assert "<!-- 24 -->" in text
    assert "<!-- 40 -->" not in text
    assert ("<!-- 1.875 -->" in text, "<!-- 3.75 -->" in text) == (True, False)


def test_an_existing_picture_is_kept_without_force(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "duel.png"
    out.write_bytes(b"mine")
    assert_user_error(affray("timeline", duel_log, "-o", out), "the file exists; --force replaces it")
    assert out.read_bytes() == b"mine"
    assert affray("timeline", duel_log, "-o", out, "--force").code == 0
    assert out.read_bytes().startswith(MAGIC[".png"])


def test_a_cut_log_is_refused_and_nothing_is_drawn(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(duel_log.read_bytes().splitlines(keepends=True)[:-3]))
    out = tmp_path / "cut.png"
    assert_user_error(affray("timeline", cut, "-o", out), "cut.jsonl", "only a whole log is drawn")
    assert list(tmp_path.glob("*.png")) == []


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        pytest.param(("-o", "duel.gif"), "a picture ends in .png, .svg, .pdf", id="suffix"),
        pytest.param(
            ("-o", "duel.png", "--from", "30", "--to", "20"), "--to 20 is not after --from 30", id="window"
        ),
    ],
)
def test_a_bad_request_is_one_error_line(
    affray: Affray, duel_log: Path, tmp_path: Path, arguments: tuple[str, ...], said: str
) -> None:
    moved = [str(tmp_path / a) if a.startswith("duel.") else a for a in arguments]
    assert_user_error(affray("timeline", duel_log, *moved), said)
    assert [p for p in tmp_path.iterdir() if p.suffix != ".jsonl"] == []


def test_a_picture_that_cannot_be_written_is_one_error_line(affray: Affray, duel_log: Path) -> None:
    assert_user_error(affray("timeline", duel_log, "-o", "/proc/x.png"), "-o /proc/x.png: cannot write it")


def test_names_with_dollar_signs_are_drawn_as_written(affray: Affray, tmp_path: Path) -> None:
    # matplotlib took "$5^$" for math text and stopped with a ValueError (exit 1)
    scenario = tmp_path / "price.toml"
    duel = (Path(__file__).resolve().parents[2] / "examples" / "duel.toml").read_text()
    scenario.write_text(duel.replace('"Gorm the Axeman"', '"Price $5^$ deal"'))
    log, out = tmp_path / "price.jsonl", tmp_path / "price.svg"
    assert affray("run", scenario, "-o", log).code == 0
    result = affray("timeline", log, "-o", out)
    assert result.code == 0, result
    assert "Price $5^$ deal" in out.read_text()


def test_only_draws_the_lanes_asked_for(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "gorm.svg"
    result = affray("timeline", duel_log, "-o", out, "--only", "gorm")
    assert result.code == 0, result
    assert result.out.strip() == f"{out}: 1 of 2 lanes, 54.996 s"
    text = out.read_text()
    assert ("Gorm the Axeman (raiders)" in text, "Brenna of the Ford (ford)" in text) == (True, False)


def test_a_lane_asked_for_that_is_not_in_the_log_is_one_error_line(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    out = tmp_path / "nobody.png"
    assert_user_error(
        affray("timeline", duel_log, "-o", out, "--only", "gorm,nobody"),
        "--only: no combatant 'nobody' in the log (it holds brenna, gorm)",
    )
    assert not out.exists()


def test_a_stretch_drawn_is_said_with_the_fights_length(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    out = tmp_path / "middle.png"
    result = affray("timeline", duel_log, "-o", out, "--from", "20", "--to", "30")
    assert result.out.strip() == f"{out}: 2 lanes, from 20.000 s to 30.000 s of 54.996 s"


# --- --odds: each side's chance to win, from a report of affray odds --------------------------------


@pytest.fixture
def odds_file(affray: Affray, duel_log: Path, tmp_path: Path) -> Path:
    report = tmp_path / "odds.json"
    assert affray("odds", duel_log, "--within", "10", "-o", report).code == 0
    return report


def test_odds_add_a_panel_of_each_sides_chance_to_win(
    affray: Affray, duel_log: Path, odds_file: Path, tmp_path: Path
) -> None:
    plain, with_odds = tmp_path / "plain.svg", tmp_path / "odds.svg"
    assert affray("timeline", duel_log, "-o", plain).code == 0
    assert affray("timeline", duel_log, "-o", with_odds, "--odds", odds_file).code == 0
    assert "chance to win (%)" not in plain.read_text()
    assert "chance to win (%)" in with_odds.read_text()


def test_odds_of_another_log_are_one_error_line(
    affray: Affray, duel_log: Path, odds_file: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other.jsonl"
    assert affray("run", ROOT / "examples" / "duel.toml", "--seed", "5", "-o", other).code == 0
    result = affray("timeline", other, "-o", tmp_path / "t.png", "--odds", odds_file)
    assert_user_error(result, f"--odds {odds_file}: the odds of another log")
    assert not (tmp_path / "t.png").exists()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (b"not json", "not a report of affray odds"),
        (b'{"name": "x"}', "not a report of affray odds"),
    ],
)
def test_a_file_that_is_no_odds_report_is_one_error_line(
    affray: Affray, duel_log: Path, tmp_path: Path, text: bytes, said: str
) -> None:
    report = tmp_path / "odds.json"
    report.write_bytes(text)
    assert_user_error(affray("timeline", duel_log, "-o", tmp_path / "t.png", "--odds", report), said)


def test_odds_with_chances_beyond_certain_are_one_error_line(
    affray: Affray, duel_log: Path, odds_file: Path, tmp_path: Path
) -> None:
    forged = tmp_path / "forged.json"
    forged.write_text(odds_file.read_text().replace('"chance":1.0', '"chance":7.0', 1))
    result = affray("timeline", duel_log, "-o", tmp_path / "t.png", "--odds", forged)
    assert_user_error(result, "its chances are not those of a report of affray odds")


def test_an_odds_file_too_large_is_refused_unread(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(65 << 20)  # sparse: its size is checked before a byte is read
    assert_user_error(
        affray("timeline", duel_log, "-o", tmp_path / "t.png", "--odds", huge), "larger than 64 MiB"
    )


def test_odds_without_a_file_are_worked_out_and_drawn(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "odds.svg"
    result = affray("timeline", duel_log, "--odds", "-o", out)
    assert result.code == 0, result
    assert "chance to win (%)" in out.read_text()


def test_odds_of_a_fight_played_by_code_of_ones_own_must_be_given_as_a_file(
    affray: Affray, tmp_path: Path
) -> None:
    result = affray(
        "timeline", ROOT / "tests" / "golden" / "ambush.jsonl", "--odds", "-o", tmp_path / "a.png"
    )
    assert_user_error(result, "played by code of your own", "affray odds LOG --controllers DIR -o FILE")
