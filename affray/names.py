"""Matching the names people type (a weapon, an armor, a table) against the names a table prints."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

MAX_CLOSE_MATCHES = 8
"""How many close matches an error message offers."""


def name_key(name: str) -> str:
    """The form names are compared in: case and surrounding spaces ignored."""
    return name.strip().casefold()


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.casefold())


def _starts_a_word(part: str, vocabulary: Iterable[str]) -> bool:
    return any(word.startswith(part) for word in vocabulary)


def _split(word: str, vocabulary: frozenset[str]) -> list[str] | None:
    """``word`` as the table's words run together ("longbow" -> long, bow); the last may be begun only."""
    if _starts_a_word(word, vocabulary):
        return [word]
    for end in range(len(word) - 1, 0, -1):
        if word[:end] in vocabulary:
            rest = _split(word[end:], vocabulary)
            if rest is not None:
                return [word[:end], *rest]
    return None


def _holds(part: str, words: list[str]) -> bool:
    return _starts_a_word(part, words) or (part.endswith("s") and _starts_a_word(part[:-1], words))


def close_names(query: str, names: Iterable[str], limit: int | None = MAX_CLOSE_MATCHES) -> list[str]:
    """The names someone typing ``query`` most likely means, in the table's order, then by likeness.

    The names that hold each of its words, a word matching a name's word it begins ("Mace" finds
    "Mace, Small" and "Mace, 2 Handed") and a run-together word read as the table's words it is made of
    ("Longbow" finds "Bow, Self, Long"); when none does, the names spelled nearly alike ("Rapeir" finds
    "Rapier").
    """
    listed = list(dict.fromkeys(names))
    worded = {name: _words(name) for name in listed}
    vocabulary = frozenset(word for words in worded.values() for word in words)
    wanted = [part for word in _words(query) for part in (_split(word, vocabulary) or [word])]
    found = [name for name in listed if wanted and all(_holds(part, worded[name]) for part in wanted)]
    if not found:
        keys = {name_key(name): name for name in listed}
        found = [
            keys[key] for key in difflib.get_close_matches(name_key(query), list(keys), n=len(keys) or 1)
        ]
    return found if limit is None else found[:limit]
