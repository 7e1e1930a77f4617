"""What-if scenarios: a change named by stream and draw, checked against the fight, entered in its dice."""

from __future__ import annotations

import msgspec
import pytest

from affray.errors import AffrayError
from affray.events.base import Roll
from affray.replays.whatif import (
    Following,
    RollChange,
    changed_scenario,
    check_change,
    logged_rolls,
    parse_change,
)
from tests.strategies import example_log, read

DUEL = read(example_log("duel")).events


def roll(stream: str, draw: int, faces: tuple[int, ...], source: str = "generated") -> Roll:
    roller, purpose = stream.split("/")
    expr = f"{len(faces)}d10" if len(faces) > 1 else "1d100"
    return Roll(
        expr=expr, faces=faces, total=sum(faces), purpose=purpose, roller=roller, source=source, draw=draw
    )  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("brenna/parry#3=47", RollChange("brenna/parry#3", (47,))),
        ("gorm/damage#1=3,5", RollChange("gorm/damage#1", (3, 5))),
        ("ford/to hit#2=40", RollChange("ford/to hit#2", (40,))),
    ],
)
def test_a_change_names_a_stream_a_draw_and_its_faces(text: str, change: RollChange) -> None:
    assert (parse_change(text), str(parse_change(text))) == (change, text)


@pytest.mark.parametrize(
    "text", ["brenna/parry=47", "brenna/parry#0=4", "brenna/parry#3=", "x#1=2", "a/b#1=12345678"]
)
def test_a_malformed_change_is_refused(text: str) -> None:
    with pytest.raises(AffrayError, match="--set"):
        parse_change(text)


def test_every_roll_of_a_fight_is_found_with_the_seq_that_holds_it() -> None:
    rolls = logged_rolls(DUEL)
    seq, hit = rolls["brenna/hit#2"]
    assert (seq, hit.total) == (12, 52)


def test_a_change_must_fit_the_dice_it_replaces() -> None:
    rolls = {"gorm/damage#1": (9, roll("gorm/damage", 1, (3, 5)))}
    check_change(RollChange("gorm/damage#1", (10, 1)), rolls, None)
    with pytest.raises(AffrayError, match=r"rolls 2d10, which needs 2 faces of 1\.\.10"):
        check_change(RollChange("gorm/damage#1", (11, 1)), rolls, None)


def test_the_changed_scenario_enters_the_change_and_keeps_the_rolls_made_at_the_table() -> None:
    rolls = {
        "brenna/hit#1": (5, roll("brenna/hit", 1, (41,), source="manual")),
        "gorm/hit#1": (6, roll("gorm/hit", 1, (7,))),
    }
    scenario = {
        "seed": 1,
        "dice": {"source": "generated", "manual": ["brenna/*"], "rolled": {"brenna/hit#1": 41}},
    }
    changed = changed_scenario(scenario, rolls, [RollChange("gorm/hit#1", (90,))])
    assert changed["dice"] == {
        "source": "generated",
        "manual": [],
        "rolled": {"brenna/hit#1": [41], "gorm/hit#1": [90]},
    }
    assert changed["seed"] == 1


# --- Following: where a what-if parts from its parent ---------------------------------------------------


def test_following_gives_the_parents_next_event_while_the_what_if_goes_as_it_did() -> None:
    following = Following(DUEL, {})
    for event in DUEL[:10]:
        assert following.peek() == event
        following(event)
    assert (following.peek(), following.parted) == (DUEL[10], False)


def test_following_parts_at_the_first_event_that_differs_and_gives_nothing_after() -> None:
    following = Following(DUEL, {})
    for event in DUEL[:5]:
        following(event)
    following(msgspec.structs.replace(DUEL[5], t=DUEL[5].t + 1))
    assert following.parted
    for event in DUEL[6:]:
        following(event)
        assert following.peek() is None


def test_following_gives_nothing_once_the_parent_has_ended() -> None:
    following = Following(DUEL[:3], {})
    for event in DUEL[:3]:
        following(event)
    assert (following.peek(), following.parted) == (None, False)
    following(DUEL[3])
    assert following.parted


def test_following_hides_a_changed_combatants_events_from_its_time_on() -> None:
    """An --intent changes what the combatant sees from its time: its decisions from then are new ones."""
    at = next(e for e in DUEL if getattr(e, "combatant", None) == "brenna" and e.t > 0)
    following = Following(DUEL, {"brenna": at.t})
    for event in DUEL[: at.seq - 1]:
        assert following.peek() == event
        following(event)
    assert following.peek() is None
    assert not following.parted
