"""What the special_damage module reads of its host's log (rules S1, S9, S10), whatever the host.

A special damage rides on a hit of the host's: its explanation finds that hit among the host's events,
reads the chance its roll was made under, and cites the rulings that seat the module on the host. The
module names no host kind and imports no host: each host ruleset hands over a :class:`SpecialDamageHost`
from its own package (``affray/rulesets/<host>/special_damage.py``) with :func:`carried_by`, as it defines
its Ruleset. An explanation is given the host's state (the fold of its log) and knows the host by its type;
a host that handed over none is read as :data:`UNKNOWN_HOST`, citing no one's rulings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple

from affray.events.base import Event


class HostRulings(NamedTuple):
    """The rulings by which the add-on sits on one host (docs/rulesets/special_damage.md), as cited."""

    level: str
    """How the skill level of S1 is read from the host's skill."""
    roll: str
    """The host's hit roll, which is S1's roll."""
    stamina: str
    """Where the extra Stamina damage goes (S3, S5)."""
    table_1: str
    """The ruling under which a Table 1 row is read from the fight (S9)."""
    reaction_speed: str
    """How the target's RS is worked out for its check (Table 1, S9)."""
    table_2: str
    """The ruling under which a weapon's Table 2 type is given (S9)."""


def no_chance(hit: Event) -> Decimal | None:
    """The chance of a hit event that holds none."""
    return None


def no_reason(hit: Event) -> str | None:
    """A hit event that gives a special damage nothing beyond its roll and chance."""
    return None


@dataclass(frozen=True)
class SpecialDamageHost:
    """A host ruleset as the special_damage module's explanations read it."""

    ruleset: str
    """The host's name."""
    state: type[Any]
    """The type of the host's encounter state: an explanation knows its host by the state it is given."""
    rulings: HostRulings
    """What to cite for each step the host settles."""
    hit_kinds: tuple[str, ...] = ()
    """The kinds of the host's events of one hit that may score special damage (S1), in the order it emits
    them."""
    hit_chance: Callable[[Event], Decimal | None] = no_chance
    """The chance the hit roll of one of those events was made under (S1), or None if it holds none."""
    hit_reason: Callable[[Event], str | None] = no_reason
    """Why a special damage rests on one of those events, where it gives more than the hit's roll and
    chance (the part that takes the Stamina, say); None for the roll and chance."""


UNKNOWN_HOST = SpecialDamageHost(
    ruleset="",
    state=object,
    rulings=HostRulings(
        level="the host's skill level",
        roll="the host's hit roll",
        stamina="as the host deals damage",
        table_1="as the host's fight gives it",
        reaction_speed="the host's Reaction Speed",
        table_2="the weapon's type",
    ),
)
"""A host that handed the module nothing: no hit kinds to find, no rulings of its own to cite."""

_HOSTS: dict[type[Any], SpecialDamageHost] = {}


def carried_by(host: SpecialDamageHost) -> None:
    """Make ``host`` known to the module's explanations: a host's package calls this beside its Ruleset
    (a later call for the same state replaces it)."""
    _HOSTS[host.state] = host


def host_of(state: object) -> SpecialDamageHost:
    """The host whose encounter state ``state`` is (of its type or a base of it), or UNKNOWN_HOST."""
    return next((_HOSTS[kind] for kind in type(state).__mro__ if kind in _HOSTS), UNKNOWN_HOST)
