"""Matching the names people type against the names a table prints."""

from __future__ import annotations

from affray.names import close_names, name_key

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
