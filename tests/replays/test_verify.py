"""Verification: the chain as read, the fold, and a re-simulation compared event by event.

Each tampering is named at the first bad seq: the seq of the line that was edited, inserted, deleted,
duplicated or moved, the first missing seq of a cut log, or 0 (the header) for an edited header. A log whose
chain was recomputed after an edit is caught by the re-simulation, at the first seq that differs.
"""

from __future__ import annotations

import io
import re
from decimal import Decimal
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray import rulesets
from affray.errors import LogError
from affray.events.base import Event
from affray.events.codec import encode_event, encode_header, encode_log
from affray.events.energion.kinds import AttackResolved, Perceived
from affray.events.reader import LogReader
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import EnergionScenario
from affray.kernel.fold import digest
from affray.replays.verify import Comparison, Mismatch, Verdict, verify
from tests.strategies import (
    BLOCK,
    chain_hash,
    example,
    example_log,
    join_lines,
    log_bytes,
    log_lines,
    read,
    rechain,
    scenarios,
)
from tests.strategies import verdict as verdict_of

DUEL = example_log("duel")
LINES = log_lines(DUEL)  # LINES[k] holds seq k; LINES[0] is the header, LINES[-1] the end line
EVENTS = read(DUEL).events
N = len(EVENTS)
FORMAT_1_DUEL = (Path(__file__).resolve().parents[1] / "corpus" / "format-1-last" / "duel.jsonl").read_bytes()


def first_hit() -> tuple[AttackResolved, Decimal]:
    """The first attack that did damage, and its damage."""
    for e in EVENTS:
        if isinstance(e, AttackResolved) and e.damage is not None:
            return e, e.damage.damage
    raise AssertionError("the duel has no hit")


FIRST_HIT, FIRST_DAMAGE = first_hit()


def verdict(data: bytes) -> Verdict:
    return verdict_of(read(data, "duel.jsonl"), "duel.jsonl")


def more_damage(event: AttackResolved) -> AttackResolved:
    assert event.damage is not None
    damage = msgspec.structs.replace(event.damage, damage=event.damage.damage + 1)
    return msgspec.structs.replace(event, damage=damage)


def replaced(seq: int, event: Event) -> list[Event]:
    return [event if e.seq == seq else e for e in EVENTS]


# -- fresh logs --------------------------------------------------------------------------------------


def test_verify_is_ok_on_a_fresh_log() -> None:
    result = verdict(DUEL)
    assert (result.ok, result.events, result.seq, result.message) == (True, N, None, "")


def test_verify_reports_the_digest_of_the_live_final_state() -> None:
    encounter = EnergionBattle(example("duel")).run()
    assert verdict(DUEL).final_digest == digest(encounter.state)


@given(scenarios())
def test_verify_is_ok_on_the_fresh_log_of_any_scenario(scenario: EnergionScenario) -> None:
    assert verdict_of(read(log_bytes(scenario))).ok


# -- tampering the chain finds -----------------------------------------------------------------------


def test_an_edited_value_is_named_at_its_own_seq() -> None:
    seq = FIRST_HIT.seq
    lines = list(LINES)
    lines[seq] = encode_event(more_damage(FIRST_HIT), chain_hash(LINES[seq - 1]))  # same prev, new damage
    result = verdict(join_lines(lines))
    assert (result.ok, result.seq) == (False, seq)


def test_an_inserted_line_is_named_at_its_position() -> None:
    lines = [*LINES[:8], LINES[3], *LINES[8:]]  # a copy of seq 3 between seq 7 and seq 8
    assert (verdict(join_lines(lines)).ok, verdict(join_lines(lines)).seq) == (False, 8)


def test_an_inserted_line_chained_to_its_predecessor_is_named_at_its_position() -> None:
    forged = encode_event(msgspec.structs.replace(EVENTS[2], seq=8, t=EVENTS[6].t), chain_hash(LINES[7]))
    lines = [*LINES[:8], forged, *LINES[8:]]
    result = verdict(join_lines(lines))
    assert (result.ok, result.seq) == (False, 8)


def test_a_deleted_line_is_named_at_its_seq() -> None:
    lines = [*LINES[:7], *LINES[8:]]
    result = verdict(join_lines(lines))
    assert (result.ok, result.seq) == (False, 7)


def test_a_duplicated_line_is_named_at_the_copy() -> None:
    lines = [*LINES[:8], LINES[7], *LINES[8:]]
    result = verdict(join_lines(lines))
    assert (result.ok, result.seq) == (False, 8)


def test_two_swapped_lines_are_named_at_the_first() -> None:
    lines = list(LINES)
    lines[8], lines[9] = lines[9], lines[8]
    result = verdict(join_lines(lines))
    assert (result.ok, result.seq) == (False, 8)


def test_a_deleted_last_event_is_named_at_its_seq() -> None:
    lines = [*LINES[:N], LINES[-1]]
    result = verdict(join_lines(lines))
    assert (result.ok, result.seq) == (False, N)


def test_a_log_cut_at_a_line_boundary_names_the_first_missing_seq() -> None:
    result = verdict(join_lines(LINES[:13]))
    assert (result.ok, result.seq, result.events) == (False, 13, 12)
    assert result.message.endswith("cut short: no end line after seq 12")


def test_a_log_cut_mid_line_names_the_partial_seq() -> None:
    cut = len(join_lines(LINES[:13])) + len(LINES[13]) // 2
    result = verdict(DUEL[:cut])
    assert (result.ok, result.seq, result.events) == (False, 13, 12)
    assert result.message.endswith("cut short: a partial line after seq 12")


def test_a_log_missing_its_end_line_names_the_seq_after_the_last() -> None:
    result = verdict(join_lines(LINES[:-1]))
    assert (result.ok, result.seq) == (False, N + 1)
    assert result.message.endswith(f"cut short: no end line after seq {N}")


def test_an_edited_header_is_named_as_the_header() -> None:
    header = read(DUEL).header
    lines = [encode_header(msgspec.structs.replace(header, affray_version="0.0.1")), *LINES[1:]]
    result = verdict(join_lines(lines))
    assert (result.ok, result.seq, result.where) == (False, 0, "line 1 (header)")


def _byte_changed(data: st.DataObject, log: bytes) -> tuple[bytes, int]:
    """``log`` with one byte changed, and the seq of the line that holds it (0 for the header, N + 1 for the
    end line)."""
    position = data.draw(st.integers(min_value=0, max_value=len(log) - 1), label="position")
    value = data.draw(st.integers(min_value=0, max_value=255).filter(lambda v: v != log[position]))
    return log[:position] + bytes([value]) + log[position + 1 :], log[:position].count(b"\n")


def _verdict_of_changed(changed: bytes) -> Verdict | None:
    """The verdict of the changed log as read (not held to its canonical form); None when it is no log."""
    try:
        log = read(changed)
    except LogError:
        return None
    result = verdict_of(log, "changed.jsonl")
    assert not result.ok
    assert result.seq is not None
    return result


@given(st.data())
def test_a_single_byte_change_to_a_format_1_log_fails_at_its_line_or_a_neighbour(data: st.DataObject) -> None:
    changed, line_seq = _byte_changed(data, FORMAT_1_DUEL)
    result = _verdict_of_changed(changed)
    assert result is None or abs(result.seq - line_seq) <= 1


@given(st.data())
def test_a_single_byte_change_fails_at_its_line_a_neighbour_or_its_blocks_first_line(
    data: st.DataObject,
) -> None:
    # format 2: a change that still decodes to the same event (a member's name spoilt where the member is at
    # its default, say) is found only by its block's hash, named at the block's first line
    changed, line_seq = _byte_changed(data, DUEL)
    result = _verdict_of_changed(changed)
    block_first = (min(max(line_seq, 1), N) - 1) // BLOCK * BLOCK + 1
    assert result is None or abs(result.seq - line_seq) <= 1 or result.seq == block_first


# -- tampering with the chain recomputed: the re-simulation finds it ---------------------------------


def test_an_edit_hidden_by_a_recomputed_chain_is_named_by_the_re_simulation() -> None:
    tampered = encode_log(read(DUEL).header, replaced(FIRST_HIT.seq, more_damage(FIRST_HIT)))
    assert read(tampered).problem is None
    result = verdict(tampered)
    assert (result.ok, result.seq) == (False, FIRST_HIT.seq)
    recorded, simulated = FIRST_DAMAGE + 1, FIRST_DAMAGE
    assert result.message == (
        f"differs from the re-simulation: attack_resolved damage.damage: recorded {recorded}, "
        f"simulated {simulated}"
    )


def test_a_rehashed_line_by_line_edit_is_named_by_the_re_simulation() -> None:
    seq = FIRST_HIT.seq
    old, new = b'"damage":%s}' % str(FIRST_DAMAGE).encode(), b'"damage":99}'
    lines = list(LINES)
    assert lines[seq].count(old) == 1
    lines[seq] = lines[seq].replace(old, new)
    result = verdict(rechain(lines))
    assert (result.ok, result.seq) == (False, seq)


def test_a_header_scenario_edit_hidden_by_a_recomputed_chain_is_named_at_the_first_changed_event() -> None:
    lines = list(LINES)
    assert lines[0].count(b'"skill":70,') == 1
    lines[0] = lines[0].replace(b'"skill":70,', b'"skill":20,')  # brenna's skill
    first = next(e for e in EVENTS if isinstance(e, AttackResolved) and e.attacker == "brenna")
    result = verdict(rechain(lines))
    assert (result.ok, result.seq) == (False, first.seq)


def test_an_event_the_fold_cannot_apply_is_named() -> None:
    event = next(e for e in EVENTS if isinstance(e, Perceived))
    stranger = msgspec.structs.replace(event, combatant="nobody")
    result = verdict(encode_log(read(DUEL).header, replaced(event.seq, stranger)))
    assert (result.ok, result.seq) == (False, event.seq)
    assert result.message.startswith("cannot be folded")
    assert "nobody" in result.message


def test_an_event_appended_with_a_recomputed_chain_is_named() -> None:
    extra = msgspec.structs.replace(EVENTS[-1], seq=N + 1)
    result = verdict(encode_log(read(DUEL).header, [*EVENTS, extra]))
    assert (result.ok, result.seq) == (False, N + 1)
    assert result.message == f"the re-simulation ends at seq {N}; the log goes on"


def test_a_log_shortened_with_a_recomputed_chain_is_named_at_the_first_missing_seq() -> None:
    result = verdict(encode_log(read(DUEL).header, EVENTS[:20]))
    assert (result.ok, result.seq) == (False, 21)
    assert result.message == f"the log stops at seq 20; the re-simulation goes on to seq {N}"


def test_a_comparison_of_identical_runs_finds_nothing() -> None:
    comparison = Comparison(EVENTS)
    for event in EVENTS:
        comparison(event)
    comparison.finish()
    assert (comparison.compared, comparison.simulated) == (N, N)


def test_a_comparison_raises_at_the_first_event_that_differs() -> None:
    comparison = Comparison(replaced(FIRST_HIT.seq, more_damage(FIRST_HIT)))
    for event in EVENTS[: FIRST_HIT.seq - 1]:
        comparison(event)
    with pytest.raises(Mismatch) as found:
        comparison(FIRST_HIT)
    assert (found.value.seq, found.value.where) == (
        FIRST_HIT.seq,
        f"line {FIRST_HIT.seq + 1} (seq {FIRST_HIT.seq})",
    )


def test_a_log_read_as_it_goes_gets_the_verdict_of_one_read_whole() -> None:
    tampered = encode_log(read(DUEL).header, replaced(FIRST_HIT.seq, more_damage(FIRST_HIT)))
    streamed = verify(
        LogReader(io.BytesIO(tampered), rulesets.vocabulary_for),
        lambda: rulesets.recorded(read(DUEL).header, "duel.jsonl"),
    )
    assert streamed == verdict(tampered)


# -- the header's own claims -------------------------------------------------------------------------


def rechained_header(old: bytes, new: bytes) -> bytes:
    lines = list(LINES)
    assert lines[0].count(old) == 1
    lines[0] = lines[0].replace(old, new)
    return rechain(lines)


def test_verify_refuses_a_header_whose_seed_is_not_its_scenarios_seed() -> None:
    top_level_seed = b',"seed":1130,"event_versions"'
    assert not verdict(rechained_header(top_level_seed, b',"seed":1131,"event_versions"')).ok


def test_verify_refuses_a_header_naming_another_dice_algorithm() -> None:
    assert not verdict(rechained_header(b'"dice":"blake2b-ctr-v2"', b'"dice":"mt19937"')).ok


def test_verify_refuses_a_header_naming_another_ruleset() -> None:
    energion = b'"ruleset":"energion","ruleset_version":"7"'
    assert not verdict(rechained_header(energion, b'"ruleset":"fivestep","ruleset_version":"9"')).ok


def test_a_header_disagreement_quotes_at_most_a_few_dozen_characters() -> None:
    energion = b'"ruleset":"energion","ruleset_version":"7"'
    long = b'"ruleset":"energion","ruleset_version":"%s"' % (b"9" * 10_000)
    result = verdict(rechained_header(energion, long))
    assert (result.ok, result.where) == (False, "line 1 (header)")
    assert "9" * 41 not in result.message


def test_a_log_made_under_another_module_version_is_of_another_version() -> None:
    """The header pins each module's version: a robots log claiming special_damage version 3 is not
    re-simulated by this affray's version 4 (re-chained, so its chain holds)."""
    lines = log_lines(example_log("robots"))
    pinned = b'"modules":{"special_damage":"%s"}' % rulesets.module("special_damage").version.encode()
    assert lines[0].count(pinned) == 1
    lines[0] = lines[0].replace(pinned, b'"modules":{"special_damage":"3"}')
    found = verdict_of(read(rechain(lines[:-1]), "robots.jsonl"), "robots.jsonl")
    assert (found.ok, found.finding, found.where) == (False, "other_version", "line 1 (header)")
    assert "special_damage module version 3" in found.message


def test_a_data_file_pinned_otherwise_alone_does_not_fail_verify() -> None:
    """A digest that differs from today's file is information for regress; the re-simulation decides."""
    lines = log_lines(example_log("duel"))
    lines[0] = re.sub(
        rb'"energion/armor.toml":"[0-9a-f]{32}"', b'"energion/armor.toml":"' + b"0" * 32 + b'"', lines[0]
    )
    assert verdict_of(read(rechain(lines[:-1]), "duel.jsonl"), "duel.jsonl").ok
