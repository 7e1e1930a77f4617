"""Sealed values (affray.events.sealed): the commitments of the page's scheme, the pointers to what a
players' copy withholds, and the stand-in that reads ``sealed``."""

from __future__ import annotations

import hashlib
import hmac
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.events.base import Roll, rolls_at
from affray.events.energion.kinds import AttackResolved, HitDerivation
from affray.events.energion.revealers import REVEALERS
from affray.events.sealed import (
    Sealed,
    commitment,
    pointer_of,
    replaced,
    salt,
    sealed_values,
    sealing_key,
    segments_of,
    stand_ins,
    stream_matcher,
    value_at,
    withheld,
)

SECRETS = {"referee": "8f2e61b0c4d7a9e35b1c0f6d2a9e7b48", "alice": "3d5c0a6e9b1f47c28e0d93a1b6f5c274"}


def _roll(roller: str, total: int = 38) -> Roll:
    return Roll(expr="1d100", faces=(total,), total=total, purpose="hit", roller=roller, draw=1)


def _attack(roller: str = "wolf-2") -> AttackResolved:
    hit = HitDerivation(
        skill=Decimal(62),
        bonus=Decimal("8.75"),
        bonus_kind="melee",
        hit_chance=Decimal("70.75"),
        armor="Cloth",
        weapon_type=17,
        armor_value=8,
        shield_bonus=0,
        roll=_roll(roller),
        quality=Decimal("24.75"),
    )
    return AttackResolved(
        seq=20, t=3000, attacker=roller, target="tobin", weapon="Hand", hit=hit, outcome="miss"
    )


def test_the_key_hashes_the_seed_then_each_party_and_secret_in_order_of_the_names() -> None:
    # "affray-seal-key-v1" 0 "42" 0 "alice" 0 SECRET 0 "referee" 0 SECRET 0, BLAKE2b-256
    message = b"affray-seal-key-v1\x0042\x00alice\x00%s\x00referee\x00%s\x00" % (
        SECRETS["alice"].encode(),
        SECRETS["referee"].encode(),
    )
    assert sealing_key(42, SECRETS) == hashlib.blake2b(message, digest_size=32).digest()


def test_a_seed_of_the_scenarios_own_is_the_key_alone() -> None:
    expected = hashlib.blake2b(b"affray-seal-key-v1\x001130\x00", digest_size=32).digest()
    assert sealing_key(1130, {}) == expected


def test_a_salt_is_the_first_16_bytes_of_the_hmac_of_the_line_and_pointer() -> None:
    key = sealing_key(42, {})
    mac = hmac.new(key, b"affray-seal-salt-v1\x0020\x00/hit/roll/faces\x00", hashlib.sha256).digest()
    assert salt(key, 20, "/hit/roll/faces") == mac[:16].hex()


def test_a_commitment_hashes_the_label_line_pointer_salt_and_value() -> None:
    salted = "00112233445566778899aabbccddeeff"
    message = b"affray-seal-v1\x0020\x00/hit/roll/faces\x00%s\x00[38]" % salted.encode()
    assert (
        commitment(salted, 20, "/hit/roll/faces", b"[38]")
        == hashlib.blake2b(message, digest_size=32).hexdigest()
    )


def test_one_value_commits_otherwise_on_another_line_or_at_another_pointer() -> None:
    key = sealing_key(42, {})
    made = {
        commitment(salt(key, seq, pointer), seq, pointer, b"38")
        for seq, pointer in [(20, "/hit/roll/total"), (21, "/hit/roll/total"), (20, "/hit/quality")]
    }
    assert len(made) == 3


@given(st.lists(st.text(min_size=0, max_size=8) | st.integers(min_value=0, max_value=99), max_size=5))
def test_a_pointer_reads_back_as_its_names(names: list[str | int]) -> None:
    assert segments_of(pointer_of(names)) == [str(name) for name in names]


def test_a_pointer_escapes_slash_and_tilde_as_rfc_6901_does() -> None:
    assert pointer_of(["dice", "rolled", "wolf/hit#1", "a~b"]) == "/dice/rolled/wolf~1hit#1/a~0b"


def test_a_sealed_value_reads_sealed_however_it_is_formatted() -> None:
    value = Sealed("ab" * 32)
    assert (str(value), f"{value:.1f}", f"{value:>8}") == ("sealed", "sealed", "sealed")


def test_a_sealed_value_is_written_as_an_object_of_its_commitment() -> None:
    assert msgspec.json.encode(Sealed("ab" * 32)) == b'{"sealed":"%s"}' % (b"ab" * 32)


def test_a_sealed_value_cannot_be_computed_with() -> None:
    with pytest.raises(TypeError):
        _ = Sealed("ab" * 32) + 1  # type: ignore[operator]


def test_every_roll_is_found_with_where_it_is() -> None:
    assert [(at, roll.stream) for at, roll in rolls_at(_attack())] == [(("hit", "roll"), "wolf-2/hit")]


def test_a_sealed_streams_roll_withholds_its_faces_total_and_what_reveals_it() -> None:
    # E6: the quality is 70.75 - 8 - 38 = 24.75, so it gives the roll away
    event = _attack()
    sealed = withheld(event, stream_matcher(["wolf-*/*"]), [REVEALERS[AttackResolved]])
    assert sealed == ["/hit/roll/faces", "/hit/roll/total", "/hit/quality"]


def test_a_roll_of_another_stream_withholds_nothing() -> None:
    assert withheld(_attack("maren"), stream_matcher(["wolf-*/*"]), [REVEALERS[AttackResolved]]) == []


def test_a_value_replaced_deep_in_an_event_leaves_the_rest_as_it_was() -> None:
    event = _attack()
    changed = replaced(event, ["hit", "roll", "total"], Sealed("cd" * 32))
    assert value_at(changed, ["hit", "roll", "total"]) == Sealed("cd" * 32)
    assert value_at(changed, ["hit", "roll", "faces"]) == (38,)
    assert event.hit.roll.total == 38
    assert sealed_values(changed) == 1


def test_a_value_in_a_tuple_is_replaced_by_its_index() -> None:
    assert replaced((1, (2, 3)), ["1", "0"], 9) == (1, (9, 3))


def test_stand_ins_are_found_in_a_decoded_line_and_only_they() -> None:
    record = {"a": {"sealed": "x"}, "b": [{"sealed": "y", "more": 1}, {"sealed": "z"}], "c": 3}
    assert list(stand_ins(record)) == [(("a",), "x"), (("b", "1"), "z")]


def _page_section() -> str:
    page = (Path(__file__).resolve().parents[2] / "docs" / "log-format.md").read_text()
    return page[page.index("## Sealed rolls") : page.index("## What-ifs and their parents")]


def test_the_pages_python_makes_the_commitment_of_its_worked_example() -> None:
    section = _page_section()
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    made: dict[str, Any] = {}
    exec(code.group(1), made)  # the page's own code, checked as a reader in another language would use it
    key = made["key"](4751919573177038156, SECRETS)
    assert key.hex() in section
    assert made["commitment"](key, 20, "/hit/roll/total", b"38") in section


def test_the_pages_worked_example_is_the_line_affray_writes() -> None:
    copy = Path(__file__).resolve().parents[1] / "corpus" / "format-1-sealed" / "wolves-players.jsonl"
    line = copy.read_bytes().splitlines()[20]
    key = sealing_key(4751919573177038156, SECRETS)
    made = commitment(salt(key, 20, "/hit/roll/total"), 20, "/hit/roll/total", b"38")
    assert b'"total":{"sealed":"%s"}' % made.encode() in line
    assert f'"total":{{"sealed":"{made}"}}' in _page_section()
