"""Matching the names people type against the names a table prints."""

from __future__ import annotations

import pytest

from affray import names
from affray.names import LENGTH_MARGIN, MAX_CANDIDATES, close_names, name_key

MACES = ["Mace, Small", "Mace, Large", "Mace, 2 Handed", "Lance"]
BOWS = ["Bow, Self, Short", "Bow, Self, Long", "Bow, Compound, Long", "Crossbow, Heavy", "Sword, Long"]


def test_names_compare_without_case_or_surrounding_spaces() -> None:
    assert name_key("  Sword, LONG ") == name_key("sword, long")


def test_a_word_finds_every_name_holding_it_in_table_order() -> None:
    assert close_names("Mace", MACES) == ["Mace, Small", "Mace, Large", "Mace, 2 Handed"]


def test_a_run_together_word_is_read_as_the_tables_words() -> None:
    # "longbow" = "long" + "bow": both words of "Bow, Self, Long", not "bow" of "Crossbow"
    assert close_names("Longbow", BOWS) == ["Bow, Self, Long", "Bow, Compound, Long"]


def test_a_word_matches_the_words_it_begins() -> None:
    assert close_names("comp", BOWS) == ["Bow, Compound, Long"]


def test_a_plural_finds_the_singular() -> None:
    assert close_names("bows", BOWS) == ["Bow, Self, Short", "Bow, Self, Long", "Bow, Compound, Long"]


def test_a_misspelling_finds_names_spelled_alike() -> None:
    assert close_names("Lnace", MACES) == ["Lance"]


def test_nothing_alike_finds_nothing() -> None:
    assert close_names("zzz", MACES) == []
    assert close_names("Mace", []) == []


def test_the_limit_cuts_the_list() -> None:
    assert close_names("mace", MACES, limit=2) == ["Mace, Small", "Mace, Large"]


def test_a_name_far_longer_than_any_listed_is_not_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    searched: list[str] = []
    monkeypatch.setattr(names, "_words", lambda text: searched.append(text) or [])
    longest = max(map(len, BOWS))
    assert close_names("x" * 1_000_000, BOWS) == []
    assert close_names("x" * (longest + LENGTH_MARGIN + 1), BOWS) == []
    assert searched == []
    close_names("x" * (longest + LENGTH_MARGIN), BOWS)
    assert searched != []


def test_a_run_together_word_tries_each_of_its_ends_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # "a" * 20 + "b" against a, aa, aaa, aaaa: every way of cutting the a's fails at the b; trying each
    # way anew took some 2**19 steps (and a few more a's, hours)
    begun: list[str] = []
    starts_a_word = names._starts_a_word
    monkeypatch.setattr(
        names, "_starts_a_word", lambda part, words: begun.append(part) or starts_a_word(part, words)
    )
    word = "a" * 20 + "b"
    assert close_names(word, ["a", "aa", "aaa", "aaaa"]) == []
    assert len(begun) <= 2 * len(word)  # once per end of the word, and for each name of the table


def test_only_the_first_names_of_a_huge_table_are_compared() -> None:
    table = [f"Sword {n}" for n in range(MAX_CANDIDATES)] + ["Rapier"]
    assert close_names("Rapier", table) == []
    assert close_names("Sword 3", table, limit=1) == ["Sword 3"]
