"""The timeline of a fight (replays/timeline.py): lanes, spans, instants and damage points over time,
from the log alone, through each ruleset's markers.

The duel (examples/duel.toml): brenna perceives at once (1d10 = 7 s, the first to see, so the clock
starts), reacts in 1 s and readies her sword in 4.333 s (5.333 s); gorm perceives at 3 s (10 - 7), reacts
in 2 s and readies his axe in 13.333 s (18.333 s). Her first blow (7.333 s) misses, her second (11.666 s)
deals 3.75; gorm's first (18.333 s) is parried; he is out at 54.996 s.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from affray import rulesets
from affray.errors import AffrayError
from affray.events.shared import CombatantOut
from affray.handlers.energion.scenario import decode_scenario
from affray.kernel.timeline import Close, Instant, Span
from affray.replays.timeline import MOST_INVOLVED, Lane, Timeline, _Builder, build, choose_lanes
from tests.strategies import example, example_log, healed_events, log_bytes, read


def timeline_of(name: str) -> Timeline:
    log = read(example_log(name))
    return build(log.events, rulesets.reading(log.header, name), scenario=log.header.scenario, title=name)


@pytest.fixture(scope="module")
def duel() -> Timeline:
    return timeline_of("duel")


def spans(timeline: Timeline, who: str, kind: str) -> list[tuple[int, int | None]]:
    return [(s.start, s.end) for s in timeline.lanes[who].spans if s.kind == kind]


def test_a_lane_per_combatant_in_the_order_they_joined(duel: Timeline) -> None:
    assert [(lane.combatant, lane.side) for lane in duel.lanes.values()] == [
        ("brenna", "ford"),
        ("gorm", "raiders"),
    ]


def test_perception_reaction_and_initiative_are_spans_ending_when_each_is_done(duel: Timeline) -> None:
    # E1: gorm perceives 3 s after the clock starts, reacts in 2 s, readies his axe in 13.333 s (E3)
    assert spans(duel, "gorm", "perception") == [(0, 3000)]
    assert spans(duel, "gorm", "reaction") == [(3000, 5000)]
    assert spans(duel, "gorm", "initiative") == [(5000, 18333)]


def test_an_attack_is_an_instant_with_its_outcome_and_damage(duel: Timeline) -> None:
    first, second = duel.lanes["brenna"].instants[:2]
    assert (first.kind, first.at, first.target, first.damage) == ("miss", 7333, "gorm", None)
    assert (second.kind, second.at, second.target, second.damage) == ("hit", 11666, "gorm", Decimal("3.75"))
    assert [i.kind for i in duel.lanes["brenna"].instants[:3]] == ["miss", "hit", "miss"]


def test_going_out_is_an_instant_and_ends_the_lane(duel: Timeline) -> None:
    gorm = duel.lanes["gorm"]
    assert (gorm.out_at, gorm.instants[-1].kind) == (54996, "out")


def test_damage_points_left_are_noted_at_each_change(duel: Timeline) -> None:
    # gorm: 36, then 36 - 3.75 = 32.25 at 11.666 s
    assert duel.health["gorm"][:2] == [(0, Decimal(36)), (11666, Decimal("32.25"))]
    assert duel.health["gorm"][-1][0] == duel.end == 54996


def test_the_outcome_is_the_logs(duel: Timeline) -> None:
    assert (duel.winner, duel.end_reason) == ("ford", "only side ford still stands")


def test_aiming_lasts_until_the_shot() -> None:
    archers = timeline_of("archers")
    aims = [s for lane in archers.lanes.values() for s in lane.spans if s.kind == "aim"]
    shots = {(i.combatant, i.at) for lane in archers.lanes.values() for i in lane.instants}
    assert aims
    assert all(s.end is not None and (s.combatant, s.end) in shots for s in aims if s.end != archers.end)


def test_a_spell_is_cast_from_its_start_to_its_effect_or_its_loss() -> None:
    # E23: isolde begins at 1 s: 1 + 1 + 6 = 8 s, cast at 9 s; her second spell is lost at 18 s
    mage = timeline_of("mage-duel")
    assert spans(mage, "isolde", "cast")[:2] == [(1000, 9000), (10000, 18000)]
    assert any(i.kind == "lost" and i.at == 18000 for i in mage.lanes["isolde"].instants)


def test_fivestep_rounds_span_every_lane_and_a_hits_damage_joins_its_instant() -> None:
    brawl = timeline_of("bar-brawl")
    assert [r.label for r in brawl.rounds[:3]] == ["R1", "R2", "R3"]
    assert all(r.end is not None and r.end - r.start == 5000 for r in brawl.rounds[:-1])  # F3: 5 s rounds
    hits = [i for lane in brawl.lanes.values() for i in lane.instants if i.kind == "hit"]
    assert hits
    assert all(i.damage is not None for i in hits)


def test_a_close_cuts_short_a_span_still_going() -> None:
    timeline = Timeline(title="")
    timeline.lanes["a"] = Lane("a", "A", "x")
    builder = _Builder(timeline)
    builder.mark(Span(combatant="a", kind="cast", start=1000, end=9000, label="Frost"))
    builder.mark(Close(combatant="a", kind="cast", at=4000))
    assert [(s.start, s.end) for s in timeline.lanes["a"].spans] == [(1000, 4000)]


def test_a_close_cuts_short_only_its_combatants_spans_of_its_kind() -> None:
    timeline = Timeline(title="")
    timeline.lanes["a"] = Lane("a", "A", "x")
    timeline.lanes["b"] = Lane("b", "B", "y")
    builder = _Builder(timeline)
    builder.mark(Span(combatant="a", kind="cast", start=1000, end=9000, label="Frost"))
    builder.mark(Span(combatant="a", kind="action", start=1000, end=9000, label="waits"))
    builder.mark(Span(combatant="b", kind="cast", start=1000, end=9000, label="Fire"))
    builder.mark(Close(combatant="a", kind="cast", at=4000))
    ends = {(lane, s.kind): s.end for lane in "ab" for s in timeline.lanes[lane].spans}
    assert ends == {("a", "cast"): 4000, ("a", "action"): 9000, ("b", "cast"): 9000}


def test_going_out_cuts_short_every_span_of_the_combatant_still_going() -> None:
    timeline = Timeline(title="")
    timeline.lanes["a"] = Lane("a", "A", "x")
    builder = _Builder(timeline)
    builder.mark(Span(combatant="a", kind="cast", start=1000, end=9000, label="Frost"))
    builder.mark(Span(combatant="a", kind="action", start=2000, end=8000, label="waits"))
    builder.mark(Instant(combatant="a", kind="out", at=5000))
    assert [(s.kind, s.end) for s in timeline.lanes["a"].spans] == [("cast", 5000), ("action", 5000)]


def test_an_open_span_closes_when_its_combatant_goes_out() -> None:
    timeline = Timeline(title="")
    timeline.lanes["a"] = Lane("a", "A", "x")
    builder = _Builder(timeline)
    builder.mark(Span(combatant="a", kind="aim", start=1000, end=None))
    builder.mark(Instant(combatant="a", kind="out", at=3000))
    builder.finish(9000)
    assert [(s.start, s.end) for s in timeline.lanes["a"].spans] == [(1000, 3000)]


@pytest.mark.parametrize(
    "name", ["duel", "skirmish", "archers", "mage-duel", "brawl", "robots", "bar-brawl", "firefight"]
)
def test_every_span_of_every_example_lies_within_the_fight(name: str) -> None:
    timeline = timeline_of(name)
    for lane in timeline.lanes.values():
        for span in lane.spans:
            assert span.end is not None
            assert 0 <= span.start <= span.end, span


@pytest.mark.parametrize("name", ["duel", "skirmish", "archers", "brawl", "robots", "firefight"])
def test_every_combatant_out_is_marked_out(name: str) -> None:
    log = read(example_log(name))
    out: set[str] = {e.combatant for e in log.events if isinstance(e, CombatantOut)}
    timeline = timeline_of(name)
    assert {lane.combatant for lane in timeline.lanes.values() if lane.out_at is not None} == out


def test_fivestep_marks_where_each_sub_turn_after_the_first_begins() -> None:
    # F7: the bar brawl cuts each turn into pieces; a sub-turn 2/5 and on is marked, the first is not
    brawl = timeline_of("bar-brawl")
    marked = [i.label for lane in brawl.lanes.values() for i in lane.instants if i.kind == "subturn"]
    assert marked
    assert all(label.startswith("sub-turn ") and not label.startswith("sub-turn 1/") for label in marked)


def test_a_healed_logs_fight_ends_where_the_encounter_did() -> None:
    # robots healed 30 days: the aftermath runs on for days; the fight itself ended at 47 s
    log = read(example_log("robots"))
    healed = build(
        healed_events(example("robots"), 30),
        rulesets.reading(log.header, "robots-healed"),
        scenario=log.header.scenario,
    )
    assert (healed.fight_end(), healed.end > 86_400_000) == (47_000, True)


def lines_of(per_side: int, damage_points: int = 20) -> Timeline:
    """Two lines of ``per_side`` fighters a side, 2 m between neighbours and 1 m between the lines."""
    fighters = [
        f'[[combatants]]\nid = "{side}{i}"\nname = "{side} {i}"\nside = "{side}"\nposition = [{2 * i}, {y}]\n'
        f'damage_points = {damage_points}\nskill = {60 + 5 * i}\nweapons = [{{ name = "Sword, Short" }}]\n'
        for side, y in (("north", 0), ("south", 1))
        for i in range(per_side)
    ]
    text = 'ruleset = "energion"\nseed = 3\nmax_seconds = 3600\n\n' + "\n".join(fighters)
    scenario = decode_scenario(text, "lines.toml")
    log = read(log_bytes(scenario))
    reading = rulesets.reading(log.header, "lines")
    return build(log.events, reading, scenario=log.header.scenario, title="lines")


@pytest.fixture(scope="module")
def lines() -> Timeline:
    return lines_of(7)


def test_each_side_stands_as_many_as_it_has_in_the_fight(duel: Timeline) -> None:
    # gorm, alone for the raiders, is out at 54.996 s; brenna stands to the end
    assert duel.standing("raiders") == [(0, 1), (54996, 0)]
    assert duel.standing("ford") == [(0, 1), (54996, 1)]


def test_a_sides_damage_points_left_are_what_its_combatants_have_above_zero(duel: Timeline) -> None:
    # raiders: gorm alone, 36 at the start, then 32.25 after brenna's first hit; 0 once he is below 0
    raiders = duel.side_health["raiders"]
    assert raiders[:2] == [(0, Decimal(36)), (11666, Decimal("32.25"))]
    assert raiders[-1] == (54996, Decimal(0))
    assert duel.side_health["ford"][-1] == (54996, duel.health["brenna"][-1][1])


def test_a_side_has_one_point_an_instant_however_many_join_or_are_hit_then(lines: Timeline) -> None:
    # seven of 20 damage points a side join at 0 ms, and the first blows land then too: one point
    for points in lines.side_health.values():
        times = [t for t, _ in points[:-1]]  # the last point repeats the end
        assert times == sorted(set(times))
        assert times[0] == 0
        assert points[0][1] <= 140


def test_a_small_fight_has_a_lane_for_everyone(duel: Timeline) -> None:
    choice = choose_lanes(duel)
    assert ([lane.combatant for lane in choice.lanes], choice.why) == (["brenna", "gorm"], "")


def test_a_big_fight_has_lanes_for_the_most_involved_in_the_order_they_joined(lines: Timeline) -> None:
    choice = choose_lanes(lines)
    assert len(choice.lanes) == MOST_INVOLVED < len(lines.lanes)
    order = list(lines.lanes)
    assert [lane.combatant for lane in choice.lanes] == sorted(
        (lane.combatant for lane in choice.lanes), key=order.index
    )
    assert "the 8 most involved of 14 combatants" in choice.why


def test_the_lanes_asked_for_are_drawn_in_the_order_asked(lines: Timeline) -> None:
    choice = choose_lanes(lines, ["south3", "north0", "south3"])
    assert [lane.combatant for lane in choice.lanes] == ["south3", "north0"]
    assert choice.why == "lanes: 2 of 14 combatants, as asked (--only)"


def test_a_lane_asked_for_that_is_not_in_the_log_is_refused(lines: Timeline) -> None:
    with pytest.raises(AffrayError, match="--only: no combatant 'nobody' in the log"):
        choose_lanes(lines, ["north0", "nobody"])


def test_a_fivestep_characters_health_is_its_worst_hurt_vital_part() -> None:
    # firefight.toml: vance goes out with his head (12 points, vital) without function: at 0 % then,
    # where his body's points summed would still show most of 160 left
    log = read(example_log("firefight"))
    drawn = build(log.events, rulesets.reading(log.header, "firefight"), scenario=log.header.scenario)
    out_at = drawn.lanes["vance"].out_at
    assert drawn.measure == "% left of the worst-hurt vital part"
    assert [value for t, value in drawn.health["vance"] if t == out_at][-1] == 0
