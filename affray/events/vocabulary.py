"""A vocabulary: the event kinds one log may hold, how each changes the state, and how lines decode.

A vocabulary is put together from parts: the kinds every ruleset shares (``affray.events.state.SHARED``),
a ruleset's own, and those of the modules a scenario turns on. Each part names the kinds it defines
with the function that applies each to the state, and may extend kinds that other parts define (a
ruleset's extra bookkeeping on ``moved``, say): an extension runs after the defining part's applier.
Composing checks that every kind has exactly one definition and one name, so a kind without an applier
is an error when the vocabulary is built, not a surprise in a replay.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, Protocol, TypeVar, Union

import msgspec

from affray.events.base import Event
from affray.events.folding import UnknownMember, narrowed
from affray.events.sealed import Revealer
from affray.events.shared import kind_of


class Folded(Protocol):
    """What the fold itself keeps on any state: the last event's seq and time, and the field's version."""

    seq: int
    t: int
    field_version: int


S = TypeVar("S", bound=Folded)
Applier = Callable[[Any, Any], None]
"""``applier(state, event)``: change ``state`` in place to what ``event`` establishes."""
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
"""Turns a record of one version of a kind into a record of the next version."""


class VocabularyError(Exception):
    """Parts that do not make a vocabulary: a kind defined twice, a name used twice, an extension of a kind
    no part defines. A programming error in a ruleset, raised when its vocabulary is built."""


@dataclass(frozen=True)
class Part:
    """The kinds one ruleset or module contributes to a vocabulary, and what they do to the state."""

    name: str
    appliers: Mapping[type[Event], Applier]
    """The kinds this part defines, each with the function that applies it."""
    extends: Mapping[type[Event], Applier] = field(default_factory=dict)
    """More work for kinds that other parts define, run after their own applier."""
    upcasters: Mapping[tuple[str, int], Upcaster] = field(default_factory=dict)
    """``(kind, from_version) -> upcaster`` for this part's kinds recorded under older versions."""
    aliases: Mapping[str, str] = field(default_factory=dict)
    """``former name -> kind`` for this part's kinds that were renamed: a log that names the former reads
    as the kind. A rename keeps the kind's version; its upcasters go by the kind's name of today."""
    folds: Mapping[type[Event], tuple[str, ...]] = field(default_factory=dict)
    """For kinds this part applies or extends, the members its applier reads, as dotted paths
    (``"hit.ranged.mode"``): a kind whose every applier lists them is decoded with those alone by a
    reading that only folds (``Vocabulary.fold_decoder``, affray.events.folding)."""
    revealers: Mapping[type[Event], Revealer] = field(default_factory=dict)
    """For kinds (this part's or another's) with a field beyond a roll's own that would reveal the roll
    (a hit's quality), the function naming those fields: a players' copy withholds them with the rolls
    of sealed streams (affray.events.sealed)."""


def _chain(first: Applier, then: Applier) -> Applier:
    def both(state: Any, event: Any) -> None:
        first(state, event)
        then(state, event)

    return both


def _field_moved(state: Folded, event: Event) -> None:
    state.field_version += 1


def _check_aliases(aliases: Mapping[str, str], owners: Mapping[str, str]) -> None:
    for former, kind in aliases.items():
        if kind not in owners:
            raise VocabularyError(f"alias {former!r} names {kind!r}, which no part defines")
        if former in owners:
            raise VocabularyError(f"alias {former!r} is the name of a kind {owners[former]} defines")


def _check_field_movers(kinds: tuple[type[Event], ...]) -> None:
    """Every kind that moves the field names the combatant it moves (``Event.MOVES_THE_FIELD``)."""
    for kind in kinds:
        if kind.MOVES_THE_FIELD and "combatant" not in kind.__struct_fields__:
            raise VocabularyError(f"{kind_of(kind)} moves the field but names no combatant it moves")


def _narrow_kinds(parts: tuple[Part, ...]) -> dict[type[Event], type[Event]]:
    """Each kind whose every applier, in ``parts``, lists the members it reads, with its narrow kind."""
    reads: dict[type[Event], list[str]] = {}
    unlisted: set[type[Event]] = set()
    for part in parts:
        applied = {*part.appliers, *part.extends}
        for kind in part.folds.keys() - applied:
            raise VocabularyError(f"{part.name}: lists the reads of {kind.__name__}, which it does not apply")
        for kind in applied:
            if kind in part.folds:
                reads.setdefault(kind, []).extend(part.folds[kind])
            else:
                unlisted.add(kind)
    narrow = {}
    for kind, paths in reads.items():
        try:
            cut = narrowed(kind, dict.fromkeys(paths))
        except UnknownMember as exc:
            raise VocabularyError(f"{kind_of(kind)}: {exc}") from None
        if kind not in unlisted:
            narrow[kind] = cut
    return narrow


class Vocabulary(Generic[S]):
    """The kinds a log may hold, in a fixed order, with the fold that applies them to a fresh state."""

    def __init__(self, new_state: Callable[[], S], *parts: Part) -> None:
        self.new_state = new_state
        self.parts = parts
        appliers: dict[type[Event], Applier] = {}
        owners: dict[str, str] = {}
        upcasters: dict[tuple[str, int], Upcaster] = {}
        aliases: dict[str, str] = {}
        revealers: dict[type[Event], list[Revealer]] = {}
        for part in parts:
            for kind, applier in part.appliers.items():
                name = kind_of(kind)
                if name in owners:
                    raise VocabularyError(f"{part.name}: kind {name!r} is already defined by {owners[name]}")
                owners[name] = part.name
                appliers[kind] = _chain(applier, _field_moved) if kind.MOVES_THE_FIELD else applier
            upcasters.update(part.upcasters)
            aliases.update(part.aliases)
            for kind, revealer in part.revealers.items():
                revealers.setdefault(kind, []).append(revealer)
        for part in parts:
            for kind, extra in part.extends.items():
                if kind not in appliers:
                    raise VocabularyError(f"{part.name}: extends {kind.__name__}, which no part defines")
                appliers[kind] = _chain(appliers[kind], extra)
        self.kinds: tuple[type[Event], ...] = tuple(appliers)
        _check_field_movers(self.kinds)
        _check_aliases(aliases, owners)
        self.appliers = appliers
        self.upcasters = upcasters
        self.aliases = aliases
        self.revealers: dict[type[Event], tuple[Revealer, ...]] = {k: tuple(r) for k, r in revealers.items()}
        """Each kind's revealers, from every part that names some."""
        self.versions: dict[str, int] = {kind_of(k): k.VERSION for k in self.kinds}
        self.union: Any = Union[self.kinds]  # noqa: UP007 - a union built at run time
        self.decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(self.union)

    @cached_property
    def narrow(self) -> dict[type[Event], type[Event]]:
        """Each kind whose every applier lists the members it reads, with its narrow kind, which ``apply``
        takes as the kind (made when first asked for: a run that reads no log for folding does without)."""
        narrow = _narrow_kinds(self.parts)
        for kind, cut in narrow.items():
            self.appliers[cut] = self.appliers[kind]
        return narrow

    @cached_property
    def fold_decoder(self) -> msgspec.json.Decoder[Any]:
        """The decoder of a reading that only folds: each kind's narrow kind where it has one."""
        read = tuple(self.narrow.get(kind, kind) for kind in self.kinds)
        return msgspec.json.Decoder(Union[read])  # noqa: UP007 - a union built at run time

    def apply(self, state: S, event: Event) -> S:
        """Apply one event to ``state`` (in place) and return it."""
        self.appliers[type(event)](state, event)
        state.seq = event.seq
        state.t = event.t
        return state

    def __contains__(self, kind: object) -> bool:
        return kind in self.appliers

    @property
    def name(self) -> str:
        """Its parts' names: ``shared + energion + special_damage``."""
        return " + ".join(part.name for part in self.parts)

    def __repr__(self) -> str:
        return f"Vocabulary({self.name}: {len(self.kinds)} kinds)"


class Vocabularies(Generic[S]):
    """A ruleset's vocabularies: its own parts, with the parts of whichever modules a scenario turns on.

    ``vocabularies(["special_damage"])`` composes (once per set of modules) the ruleset's parts and, for
    each module in name order, that module's parts.
    """

    def __init__(
        self, new_state: Callable[[], S], parts: tuple[Part, ...], modules: Mapping[str, tuple[Part, ...]]
    ) -> None:
        self.new_state = new_state
        self.parts = parts
        self.modules = dict(modules)
        self._made: dict[frozenset[str], Vocabulary[S]] = {}

    def __call__(self, modules: Collection[str] = ()) -> Vocabulary[S]:
        key = frozenset(modules)
        made = self._made.get(key)
        if made is None:
            unknown = sorted(key - self.modules.keys())
            if unknown:
                raise VocabularyError(f"no module {unknown[0]!r} here (known: {', '.join(self.modules)})")
            parts = [*self.parts]
            for name in sorted(key):
                parts.extend(self.modules[name])
            made = self._made[key] = Vocabulary(self.new_state, *parts)
        return made
