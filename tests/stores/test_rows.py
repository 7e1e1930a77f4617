"""Every value read from a campaign is checked in SQL before it is fetched: a row a stranger made (a value of
another type, too long, not UTF-8) is one error naming its encounter and what is wrong, never a TypeError
or a value loaded whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from affray.errors import LogError
from affray.stores.sqlite import Campaign
from tests.stores.campaigns import DUEL, GOLDEN, write
from tests.stores.hostile import loosened

SKIRMISH = (GOLDEN / "skirmish.jsonl").read_bytes()
NOT_WRITTEN = "; affray did not write it so"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """``c.sqlite`` holding the golden duel and skirmish as encounters ``duel`` (id 1) and ``skirmish``
    (id 2), closed."""
    made = tmp_path / "c.sqlite"
    with Campaign.open(made, create=True) as campaign:
        for name, data in (("duel", DUEL), ("skirmish", SKIRMISH)):
            write(campaign, name, data)
    return made


def spoil(path: Path, statement: str) -> None:
    with loosened(path) as db:
        db.execute(statement)


def listed(path: Path) -> list[str]:
    with Campaign.open(path, read_only=True) as campaign:
        return [stored.name for stored in campaign.stored()]


def read(path: Path, name: str) -> bytes:
    with Campaign.open(path, read_only=True) as campaign, campaign.read(name) as stream:
        return stream.read()


NAMES = {
    "an integer": ("7", "its name is stored as an integer, not as text"),
    "a blob": ("CAST('skirmish' AS BLOB)", "its name is stored as bytes (a blob), not as text"),
    "a real number": ("2.5", "its name is stored as a real number, not as text"),
    "too long": (
        "'" + "x" * 241 + "'",
        "its name is 241 characters long, longer than the 240 characters a stored name may have",
    ),
    "not UTF-8": ("CAST(x'ff61' AS TEXT)", "its name is not UTF-8 text"),
    "longer than SQLite may load": (
        "CAST(zeroblob(9000000) AS TEXT)",
        "its name is longer than the 240 characters a stored name may have",
    ),
}


@pytest.mark.parametrize("how", sorted(NAMES))
def test_a_name_that_is_not_one_affray_stores_stops_a_listing_naming_its_encounter_by_id(
    path: Path, how: str
) -> None:
    value, problem = NAMES[how]
    spoil(path, f"UPDATE encounters SET name = {value} WHERE id = 2")
    with pytest.raises(LogError) as refused:
        listed(path)
    assert str(refused.value) == f"{path}: the encounter of id 2: {problem}{NOT_WRITTEN}"


def test_a_missing_encounter_s_error_lists_names_checked(path: Path) -> None:
    spoil(path, "UPDATE encounters SET name = 7 WHERE id = 2")
    with pytest.raises(LogError, match=r"the encounter of id 2: its name is stored as an integer"):
        read(path, "skirmish")


HEADERS = {
    "text": ("CAST(header AS TEXT)", "its header is stored as text, not as bytes (a blob)"),
    "an integer": ("1", "its header is stored as an integer, not as bytes (a blob)"),
    "50 MB of zeros": (
        "zeroblob(50000000)",
        "its header is 50,000,000 bytes long, longer than the 4,194,304 bytes a log line may hold",
    ),
}


@pytest.mark.parametrize("how", sorted(HEADERS))
def test_a_header_that_is_not_one_affray_stores_is_an_error_naming_the_encounter(
    path: Path, how: str
) -> None:
    value, problem = HEADERS[how]
    spoil(path, f"UPDATE encounters SET header = {value} WHERE id = 1")
    with pytest.raises(LogError) as refused:
        read(path, "duel")
    assert str(refused.value) == f"{path}#duel: {problem}{NOT_WRITTEN}"
    assert read(path, "skirmish") == SKIRMISH


def test_an_end_line_held_as_text_is_an_error(path: Path) -> None:
    spoil(path, "UPDATE encounters SET end_line = CAST(end_line AS TEXT) WHERE id = 1")
    with pytest.raises(LogError, match=r"#duel: its end line is stored as text, not as bytes"):
        read(path, "duel")


@pytest.mark.parametrize(
    ("value", "problem"),
    [("2.5", "stored as a real number, not as an integer"), ("'27'", "stored as text, not as an integer")],
)
def test_a_count_of_events_that_is_no_integer_stops_a_listing(path: Path, value: str, problem: str) -> None:
    spoil(path, f"UPDATE encounters SET events = {value} WHERE id = 1")
    with pytest.raises(LogError) as refused:
        listed(path)
    assert str(refused.value) == f"{path}#duel: its count of events is {problem}{NOT_WRITTEN}"


LINES = {
    "text": ("CAST(line AS TEXT)", "seq 3: its line is stored as text, not as bytes (a blob)"),
    "an integer": ("3", "seq 3: its line is stored as an integer, not as bytes (a blob)"),
    "too long": (
        "zeroblob(5000000)",
        "seq 3: its line is 5,000,000 bytes long, longer than the 4,194,304 bytes a log line may hold",
    ),
    "text longer than SQLite may load": (
        "CAST(zeroblob(9000000) AS TEXT)",
        "seq 3: its line is stored as text, not as bytes (a blob)",
    ),
}


@pytest.mark.parametrize("how", sorted(LINES))
def test_a_line_that_is_not_one_affray_stores_is_an_error_before_a_line_is_read(path: Path, how: str) -> None:
    value, problem = LINES[how]
    spoil(path, f"UPDATE events SET line = {value} WHERE encounter = 1 AND seq = 3")
    with Campaign.open(path, read_only=True) as campaign, pytest.raises(LogError) as refused:
        campaign.read("duel")
    assert str(refused.value) == f"{path}#duel: {problem}{NOT_WRITTEN}"


def test_a_seq_that_is_no_integer_is_an_error(path: Path) -> None:
    spoil(path, "UPDATE events SET seq = 'three' WHERE encounter = 1 AND seq = 3")
    with pytest.raises(LogError, match=r"#duel: a seq is stored as text, not as an integer; affray did not"):
        read(path, "duel")


def test_a_writer_appending_to_an_encounter_of_a_hostile_row_is_refused(path: Path) -> None:
    header = DUEL.splitlines()[0]
    with Campaign.open(path) as campaign:
        campaign.append("cut", 0, header)
    spoil(path, "UPDATE encounters SET last_hash = x'00' WHERE name = 'cut'")
    with Campaign.open(path) as campaign, pytest.raises(LogError) as refused:
        campaign.append("cut", 1, DUEL.splitlines()[1])
    assert str(refused.value) == (
        f"{path}#cut: its last chain hash is stored as bytes (a blob), not as text{NOT_WRITTEN}"
    )
