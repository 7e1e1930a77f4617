"""``affray view LOG -o PAGE``: the fight as one self-contained HTML page (the page itself is tested in
Chromium: tests/cli/test_view_in_chromium.py)."""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import Affray, assert_user_error
from tests.strategies import example_log, read


def test_the_page_is_written_and_its_size_said(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "duel.html"
    result = affray("view", duel_log, "-o", out)
    assert result.code == 0, result
    assert re.fullmatch(rf"{re.escape(str(out))}: 31 events, \d+ KiB", result.out.strip())
    assert out.read_text().startswith("<!doctype html>")


def test_the_page_names_nothing_on_the_network(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "duel.html"
    assert affray("view", duel_log, "-o", out).code == 0
    assert re.findall(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", out.read_text()) == []


def test_the_embedded_data_cannot_close_its_script(affray: Affray, tmp_path: Path) -> None:
    # a scenario named with a closing script tag: the data is embedded with "<" written as "\u003c"
    duel = (Path(__file__).resolve().parents[2] / "examples" / "duel.toml").read_text()
    scenario = tmp_path / "odd.toml"
    scenario.write_text(duel.replace('name = "Duel at the ford"', 'name = "</script><!-- x"'))
    log, out = tmp_path / "odd.jsonl", tmp_path / "odd.html"
    assert affray("run", scenario, "-o", log).code == 0
    assert affray("view", log, "-o", out).code == 0
    page = out.read_text()
    assert page.count("</script>") == 2  # the data's and the page's own
    assert "&lt;/script&gt;&lt;!-- x - affray" in page  # the title, escaped


def test_an_existing_page_is_kept_without_force(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "duel.html"
    out.write_text("mine")
    assert_user_error(affray("view", duel_log, "-o", out), "the file exists; --force replaces it")
    assert out.read_text() == "mine"
    assert affray("view", duel_log, "-o", out, "--force").code == 0


def test_a_cut_log_is_refused_and_no_page_written(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(duel_log.read_bytes().splitlines(keepends=True)[:-3]))
    out = tmp_path / "cut.html"
    assert_user_error(affray("view", cut, "-o", out), "cut.jsonl", "only a whole log is shown")
    assert not out.exists()


@pytest.mark.parametrize("name", ["duel.htm.txt", "duel.png"])
def test_a_page_ends_in_html(affray: Affray, duel_log: Path, tmp_path: Path, name: str) -> None:
    assert_user_error(affray("view", duel_log, "-o", tmp_path / name), "a page ends in .html")


def test_a_page_that_cannot_be_written_is_one_error_line(affray: Affray, duel_log: Path) -> None:
    assert_user_error(affray("view", duel_log, "-o", "/proc/x.html"), "-o /proc/x.html: cannot write it")


def test_a_stretch_with_no_event_is_one_error_line(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "empty.html"
    assert_user_error(
        affray("view", duel_log, "-o", out, "--from", "100", "--to", "200"),
        "no event between --from and --to (the log runs to 54.996 s)",
    )
    assert not out.exists()


def test_a_stretch_that_ends_before_it_begins_is_one_error_line(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    assert_user_error(
        affray("view", duel_log, "-o", tmp_path / "x.html", "--from", "30", "--to", "20"),
        "--to 20 is not after --from 30",
    )


# --- --odds: each side's chance to win under the scrubber, the luck of each roll with its event ---------


def page_data(page: Path) -> dict[str, Any]:
    """The fight's data a page embeds (gzip-compressed JSON in base64)."""
    embedded = page.read_text().split('<script id="fight" type="application/octet-stream">')[1]
    return dict(json.loads(gzip.decompress(base64.b64decode(embedded.split("</script>")[0]))))


def test_odds_are_embedded_side_by_side_with_each_roll(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    odds, out = tmp_path / "odds.json", tmp_path / "duel.html"
    assert affray("odds", duel_log, "--within", "10", "-o", odds).code == 0
    assert affray("view", duel_log, "-o", out, "--odds", odds).code == 0
    report, shown = json.loads(odds.read_text()), page_data(out)["odds"]
    assert shown["sides"] == report["sides"] == ["ford", "raiders"]
    assert shown["opening"] == [report["opening"]["sides"][side]["chance"] for side in shown["sides"]]
    first = report["rolls"][0]
    assert shown["rolls"][0] == [
        first["roll"]["seq"],
        first["roll"]["key"],
        [first["before"]["sides"][side]["chance"] for side in shown["sides"]],
        [first["after"]["sides"][side]["chance"] for side in shown["sides"]],
    ]
    assert len(shown["rolls"]) == len(report["rolls"])


def test_a_page_without_odds_holds_none(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "duel.html"
    assert affray("view", duel_log, "-o", out).code == 0
    assert "odds" not in page_data(out)


def test_odds_of_another_log_are_one_error_line_and_no_page(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    other, odds = tmp_path / "other.jsonl", tmp_path / "odds.json"
    assert (
        affray(
            "run", Path(__file__).resolve().parents[2] / "examples" / "duel.toml", "--seed", "9", "-o", other
        ).code
        == 0
    )
    assert affray("odds", other, "--within", "10", "-o", odds).code == 0
    assert_user_error(
        affray("view", duel_log, "-o", tmp_path / "p.html", "--odds", odds), "the odds of another log"
    )
    assert not (tmp_path / "p.html").exists()


def test_odds_without_a_file_are_worked_out_for_the_page(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    out = tmp_path / "duel.html"
    assert affray("view", duel_log, "--odds", "-o", out).code == 0
    assert page_data(out)["odds"]["sides"] == ["ford", "raiders"]


def test_a_long_logs_page_keeps_its_snapshots_and_a_stretch_is_drawn_from_them_as_from_the_start(
    affray: Affray, long_log: Path, tmp_path: Path, resumed: list[int]
) -> None:
    first, again = tmp_path / "first.html", tmp_path / "again.html"
    assert affray("view", long_log, "-o", first, "--from", "30").code == 0
    resumed.clear()
    assert affray("view", long_log, "-o", again, "--from", "30").code == 0
    assert again.read_bytes() == first.read_bytes()
    before = [e.seq for e in read(example_log("skirmish")).events if e.seq % 16 == 0 and e.t < 30_000]
    assert resumed == [before[-1]]
