"""Matching the names people type (a weapon, an armor, a table) against the names a table prints."""

from __future__ import annotations

import bisect
import difflib
import itertools
import re
from collections.abc import Iterable, Sequence

MAX_CLOSE_MATCHES = 8
"""How many close matches an error message offers."""
LENGTH_MARGIN = 32
"""How much longer than the longest name a query may be and still get close matches: a longer one (a
megabyte of a name, say) is none of them, and is not searched."""
MAX_NAME_SEARCHED = 100
"""The longest name the search compares: a longer one in a table (a scenario's own, say) is never offered,
and a query longer than this and ``LENGTH_MARGIN`` gets no close matches, whatever the table holds."""
MAX_CANDIDATES = 10_000
"""How many names the search compares a query with at most: the first so many of a table."""
MAX_SPELLED_ALIKE = 1_000
"""How many of those names the search for spellings alike (difflib's, slower) compares at most."""


def name_key(name: str) -> str:
    """The form names are compared in: case and surrounding spaces ignored."""
    return name.strip().casefold()


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.casefold())


def _starts_a_word(part: str, vocabulary: Sequence[str]) -> bool:
    """Whether a word of ``vocabulary`` (sorted) begins with ``part``: the first word not before it does,
    if any does."""
    at = bisect.bisect_left(vocabulary, part)
    return at < len(vocabulary) and vocabulary[at].startswith(part)


def _split(word: str, vocabulary: Sequence[str]) -> list[str] | None:
    """``word`` as the table's words run together ("longbow" -> long, bow); the last may be begun only.

    The longest first word wins; each end of ``word`` is tried once (``splits``), so the search takes
    at most a number of steps of the order of the square of its length."""
    splits: dict[int, list[str] | None] = {}
    for start in range(len(word) - 1, -1, -1):  # from the end, so that each rest is known when needed
        rest = word[start:]
        words = [rest] if _starts_a_word(rest, vocabulary) else None
        for end in range(len(word) - 1, start, -1):
            if words is not None:
                break
            if _is_word(word[start:end], vocabulary) and splits[end] is not None:
                words = [word[start:end], *(splits[end] or [])]
        splits[start] = words
    return splits.get(0)


def _is_word(part: str, vocabulary: Sequence[str]) -> bool:
    at = bisect.bisect_left(vocabulary, part)
    return at < len(vocabulary) and vocabulary[at] == part


def _holds(part: str, words: list[str]) -> bool:
    return any(word.startswith(part) for word in words) or (
        part.endswith("s") and any(word.startswith(part[:-1]) for word in words)
    )


def close_names(query: str, names: Iterable[str], limit: int | None = MAX_CLOSE_MATCHES) -> list[str]:
    """The names someone typing ``query`` most likely means, in the table's order, then by likeness.

    The names that hold each of its words, a word matching a name's word it begins ("Mace" finds
    "Mace, Small" and "Mace, 2 Handed") and a run-together word read as the table's words it is made of
    ("Longbow" finds "Bow, Self, Long"); when none does, the names spelled nearly alike ("Rapeir" finds
    "Rapier").
    """
    listed = [
        name
        for name in dict.fromkeys(itertools.islice(names, MAX_CANDIDATES))
        if len(name) <= MAX_NAME_SEARCHED
    ]
    if not listed or len(query) > max(map(len, listed)) + LENGTH_MARGIN:
        return []
    names = _holding_the_words(query, listed) or _spelled_alike(query, listed)
    return names if limit is None else names[:limit]


def _holding_the_words(query: str, listed: list[str]) -> list[str]:
    """The names that hold each word of ``query`` (a run-together word read as the names' words)."""
    worded = {name: _words(name) for name in listed}
    vocabulary = sorted({word for words in worded.values() for word in words})
    wanted = [part for word in _words(query) for part in (_split(word, vocabulary) or [word])]
    if not wanted:
        return []
    return [name for name in listed if all(_holds(part, worded[name]) for part in wanted)]


def _spelled_alike(query: str, listed: list[str]) -> list[str]:
    """The first names of ``listed`` spelled nearly as ``query`` is, by likeness."""
    keys = {name_key(name): name for name in listed[:MAX_SPELLED_ALIKE]}
    return [keys[key] for key in difflib.get_close_matches(name_key(query), list(keys), n=len(keys) or 1)]
