"""The page's data (affray.replays.page): embedded so that no text of the log is read as HTML."""

from __future__ import annotations

import base64
import gzip
import json
import re
from decimal import Decimal

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from affray import rulesets
from affray.errors import printable
from affray.replays.page import Combatant, Fight, Frame, Seen, data_json, fight, page, visible
from tests.strategies import example_log, read

HOSTILE = "</script><!-- <script> & \u2028\u2029 > \u001b[2J \u202e \\u001b \\\u001b\U000e0001"


def _fight(text: str) -> Fight:
    seen = Seen(Decimal(0), Decimal("1.5"), text, text, False, text)
    frame = Frame(1, 0, "0.000 s", "joined", text, [(0, seen)])
    return Fight(text, text, text, ["#000"], [Combatant("a", text, "s")], [frame], [], [])


def _embedded(html: str) -> str:
    found = re.search(r'<script id="fight" type="application/octet-stream">(.*?)</script>', html, re.S)
    assert found is not None
    return found[1]


def test_the_page_holds_its_data_gzip_compressed_in_base64() -> None:
    data = _fight(HOSTILE)
    embedded = _embedded(page(data))
    assert re.fullmatch(r"[A-Za-z0-9+/]+=*", embedded)
    assert gzip.decompress(base64.b64decode(embedded)).decode() == data_json(data)


def test_the_data_holds_nothing_html_reads_in_a_script() -> None:
    assert not set("<>&\u2028\u2029") & set(data_json(_fight(HOSTILE)))


def test_the_data_reads_back_with_each_string_made_printable() -> None:
    data = json.loads(data_json(_fight(HOSTILE)))
    shown = printable(HOSTILE)
    assert data["title"] == data["combatants"][0][1] == data["frames"][0][4] == shown
    assert data["frames"][0][5][0][0] == 0
    assert data["frames"][0][5][0][1][:2] == [0, 1.5]


def test_the_title_is_escaped_for_html() -> None:
    assert "<title>&lt;/script&gt;&lt;!-- &lt;script&gt; &amp; " in page(_fight(HOSTILE))


@given(st.text())
def test_any_string_of_the_data_reads_back_made_printable(text: str) -> None:
    assert json.loads(visible(msgspec.json.encode([text, {text: text}]).decode())) == [
        printable(text),
        {printable(text): printable(text)},
    ]


def _archers_at_the_end() -> dict[str, Seen]:
    """Each archers.toml combatant as the page last shows it."""
    log = read(example_log("archers"))
    data = fight(log.header, log.events, rulesets.recorded(log.header, "archers"), "archers")
    last: dict[str, Seen] = {}
    for frame in data.frames:
        for k, seen in frame.changed:
            if seen is not None:
                last[data.combatants[k].id] = seen
    return last


def test_the_left_column_shows_what_is_used_up_and_health_the_damage_points() -> None:
    # archers.toml: wren's long bow has 24 arrows; the health column is what `affray state` shows
    wren = _archers_at_the_end()["wren"]
    assert re.fullmatch(r"Bow, Self, Long \d+/24 shots", wren.left)
    assert re.fullmatch(r"[\d.]+/28 DP", wren.health)


def test_the_shots_left_count_down_with_each_shot() -> None:
    log = read(example_log("archers"))
    bow = ("wren", "Bow, Self, Long")
    shots = sum(1 for e in log.events if (getattr(e, "attacker", ""), getattr(e, "weapon", "")) == bow)
    assert _archers_at_the_end()["wren"].left == f"Bow, Self, Long {24 - shots}/24 shots"
