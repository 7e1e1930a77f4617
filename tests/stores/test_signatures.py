"""A campaign keeps each encounter's signature lines after its end line (schema version 2), reads them back
byte for byte, and upgrades a campaign of schema version 1 when a signature is first stored in it."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from affray.errors import LogError
from affray.events.signature import encode_signature
from affray.stores import schema
from affray.stores.sqlite import Campaign
from tests.stores.hostile import loosened
from tests.stores.test_sqlite import DUEL, read, write

ALICE = encode_signature("alice", bytes(32), bytes(64))
BOB = encode_signature("bob", bytes(range(32)), bytes(range(64)))
END = len(DUEL.splitlines()) - 1
"""The seq of the duel's end line (the header is seq 0)."""


def _signed(*signatures: bytes) -> bytes:
    return DUEL + b"".join(line + b"\n" for line in signatures)


def _version(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as db:
        (version,) = db.execute("PRAGMA user_version").fetchone()
    return int(version)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "campaign.sqlite"


@pytest.fixture
def campaign(path: Path) -> Iterator[Campaign]:
    with Campaign.open(path, create=True) as opened:
        yield opened


@pytest.fixture
def schema_1(path: Path) -> Path:
    """A campaign of schema version 1, as affray made them before signatures were kept."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.executescript(schema.script(1))
        db.execute("PRAGMA journal_mode=WAL")
    return path


def test_a_signed_log_reads_back_byte_for_byte(campaign: Campaign) -> None:
    write(campaign, "duel", _signed(ALICE, BOB))
    assert read(campaign, "duel") == _signed(ALICE, BOB)


def test_a_signature_line_comes_only_after_the_end_line(campaign: Campaign) -> None:
    output = campaign.writer("duel")
    output.write(DUEL.splitlines(keepends=True)[0])
    with pytest.raises(LogError, match="seq 1 does not chain"):
        output.write(ALICE + b"\n")


def test_a_damaged_signature_line_is_refused(campaign: Campaign) -> None:
    write(campaign, "duel", DUEL)
    damaged = ALICE.replace(b'"alice"', b'"al ice"')
    with pytest.raises(LogError, match=f"the signature line at seq {END + 1} is damaged: its signer"):
        campaign.append("duel", END + 1, damaged)


def test_a_signature_stored_again_changes_nothing_and_another_in_its_place_is_refused(
    campaign: Campaign,
) -> None:
    write(campaign, "duel", _signed(ALICE))
    assert campaign.append("duel", END + 1, ALICE) is False
    with pytest.raises(LogError, match=f"seq {END + 1} already holds another line"):
        campaign.append("duel", END + 1, BOB)


def test_a_gap_after_the_signatures_is_refused(campaign: Campaign) -> None:
    write(campaign, "duel", _signed(ALICE))
    with pytest.raises(LogError, match="would leave a gap after its 1 signature lines"):
        campaign.append("duel", END + 3, BOB)


def test_removing_an_encounter_removes_its_signatures(campaign: Campaign, path: Path) -> None:
    write(campaign, "duel", _signed(ALICE, BOB))
    campaign.delete("duel")
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT count(*) FROM signatures").fetchone() == (0,)


def test_a_campaign_of_schema_1_is_read_and_written_as_it_is(schema_1: Path) -> None:
    with Campaign.open(schema_1) as campaign:
        write(campaign, "duel", DUEL)
        assert read(campaign, "duel") == DUEL
    assert _version(schema_1) == 1


def test_the_first_signature_makes_a_campaign_of_schema_1_one_of_schema_2(schema_1: Path) -> None:
    with Campaign.open(schema_1) as campaign:
        write(campaign, "duel", _signed(ALICE))
    assert _version(schema_1) == 2
    with Campaign.open(schema_1, read_only=True) as campaign:  # its schema is exactly version 2's
        assert read(campaign, "duel") == _signed(ALICE)


def test_a_signature_line_stored_as_another_does_not_read(campaign: Campaign, path: Path) -> None:
    write(campaign, "duel", _signed(ALICE))
    with loosened(path) as db:
        db.execute("UPDATE signatures SET line = CAST(line AS TEXT)")
    with pytest.raises(LogError, match="signature 1: its signature line is stored as text"):
        read(campaign, "duel")
