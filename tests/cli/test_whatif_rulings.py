"""``affray whatif LOG --seq N --rule EFFECT --reason TEXT``: a referee's ruling added to a recorded fight."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import msgspec
import pytest

from affray.events.energion.kinds import AttackResolved
from affray.events.shared import CombatantOut, RulingApplied
from tests.cli.conftest import Affray, assert_user_error
from tests.strategies import read_path

# In the duel gorm's one blow that lands (seq 25) hits brenna for 10.875: quality 92 - 40 - 7 = 45, x0.5 of
# 21.75 (E6, E7); her parry roll 90 fails against 25% (E5). Ruled a miss, she takes nothing at seq 25.
REASON = "the axe could not reach over the buckler"


def _ruled(affray: Affray, duel_log: Path, *rule: str) -> Path:
    out = duel_log.parent / "ruled.jsonl"
    result = affray("whatif", duel_log, "--seq", "25", *rule, "--reason", REASON, "-o", out)
    assert result.code == 0, result
    return out


def test_a_miss_ruling_makes_the_hit_a_miss_followed_by_its_record(affray: Affray, duel_log: Path) -> None:
    events = read_path(_ruled(affray, duel_log, "--rule", "miss")).events
    ruled, record = events[24], events[25]
    assert isinstance(ruled, AttackResolved)
    assert isinstance(record, RulingApplied)
    assert (ruled.seq, ruled.outcome, ruled.damage, ruled.hit.ruled_miss) == (25, "miss", None, True)
    assert (record.rules_on, record.reason) == (25, REASON)


def test_a_ruled_what_if_verifies(affray: Affray, duel_log: Path) -> None:
    assert affray("verify", _ruled(affray, duel_log, "--rule", "miss")).code == 0


def test_the_ruling_is_in_the_childs_scenario_with_gorm_as_its_combatant(
    affray: Affray, duel_log: Path
) -> None:
    header = read_path(_ruled(affray, duel_log, "--rule", "damage=+5")).header
    rulings = msgspec.json.decode(header.scenario)["rulings"]
    assert rulings == [{"reason": REASON, "seq": 25, "combatant": "gorm", "damage": 5}]
    assert header.changes == [f"seq 25: damage=+5 ({REASON})"]


def test_a_damage_ruling_adds_its_points_to_the_blow(affray: Affray, duel_log: Path) -> None:
    # 10.875 + 5 = 15.875 (E7's damage, then the ruling)
    ruled = read_path(_ruled(affray, duel_log, "--rule", "damage=+5")).events[24]
    assert isinstance(ruled, AttackResolved)
    assert ruled.damage is not None
    assert (ruled.damage.damage, ruled.damage.ruled_points) == (Decimal("15.875"), Decimal(5))


def test_a_leaves_ruling_takes_the_combatant_out_at_that_events_time(affray: Affray, duel_log: Path) -> None:
    events = read_path(_ruled(affray, duel_log, "--rule", "leaves=gorm")).events
    out = next(e for e in events if isinstance(e, CombatantOut))
    assert (out.t, out.combatant, out.reason) == (44334, "gorm", f"the referee's ruling: {REASON}")


def test_a_later_ruling_keyed_by_seq_moves_on_past_an_earlier_ones_record(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    # brenna's blow at seq 20 (7.5 damage) is ruled first; in the child gorm's blow is then at seq 26
    first = tmp_path / "first.jsonl"
    assert (
        affray("whatif", duel_log, "--seq", "20", "--rule", "damage=1", "--reason", "r", "-o", first).code
        == 0
    )
    second = tmp_path / "second.jsonl"
    result = affray("whatif", first, "--seq", "26", "--rule", "miss", "--reason", REASON, "-o", second)
    assert result.code == 0, result
    assert affray("verify", second).code == 0


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        pytest.param(
            ("--seq", "3", "--rule", "miss"), "--seq 3 is a perceived: a miss ruling rules on", id="kind"
        ),
        pytest.param(("--seq", "999", "--rule", "miss"), "--seq 999: the log has no such event", id="seq"),
        pytest.param(("--rule", "miss"), "give --seq N", id="no-seq"),
        pytest.param(("--seq", "25", "--rule", "damage"), "damage takes =POINTS", id="no-value"),
        pytest.param(("--seq", "25", "--rule", "miss=3"), "miss takes no value", id="extra-value"),
        pytest.param(("--seq", "25", "--rule", "win"), "expected miss, damage=POINTS", id="effect"),
        pytest.param(("--seq", "25", "--rule", "leaves=nobody"), "no combatant 'nobody'", id="who"),
    ],
)
def test_a_bad_ruling_is_one_error_line_and_writes_nothing(
    affray: Affray, duel_log: Path, tmp_path: Path, arguments: tuple[str, ...], said: str
) -> None:
    out = tmp_path / "out.jsonl"
    assert_user_error(affray("whatif", duel_log, *arguments, "--reason", "r", "-o", out), said)
    assert not list(tmp_path.glob("out.jsonl*"))


def test_a_ruling_needs_its_reason(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    result = affray("whatif", duel_log, "--seq", "25", "--rule", "miss", "-o", tmp_path / "out.jsonl")
    assert_user_error(result, "give --reason")


def test_a_reason_without_a_ruling_is_an_error(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    result = affray(
        "whatif", duel_log, "--set", "brenna/hit#2=5", "--reason", "r", "-o", tmp_path / "o.jsonl"
    )
    assert_user_error(result, "--reason goes with --rule")
