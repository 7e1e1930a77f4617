"""The referee's rulings in a host ruleset's scenario (``[[rulings]]``), and putting them on its clock.

One list holds both forms: a general ruling (:mod:`affray.kernel.referee`: keyed by ``seq`` or by ``at``
and ``combatant``, with one effect) and special damage's (rule S10: keyed by ``target`` and ``nth``,
altering that special damage). Fields are listed in the order logs have always recorded them.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol

import msgspec

from affray.errors import ScenarioError
from affray.handlers.shared import check_end, put_out_only
from affray.kernel.referee import Referee, RulingTerms, check_terms, moment
from affray.kernel.scenario import Section

if TYPE_CHECKING:
    from affray.kernel.encounter import Encounter

Points = Annotated[int, msgspec.Meta(ge=-10000, le=10000)]
Moment = Annotated[float, msgspec.Meta(ge=0, le=86400)]


class Ruling(Section, frozen=True, kw_only=True, omit_defaults=True):
    """A referee's ruling, recorded with its reason: special damage's (S10, ``target``) or a general one."""

    target: str | None = None
    """Rule S10: whose special damage it alters."""
    nth: Annotated[int, msgspec.Meta(ge=1)] = 1
    """Rule S10: which special damage to the target it alters: the first, the second, ..."""
    replace_with: str | None = None
    """Rule S10: a damage of the same table (e.g. "Leg wound") instead of the one rolled."""
    stamina: Annotated[int, msgspec.Meta(ge=0, le=10000)] | None = None
    """Rule S10: the extra Stamina damage instead of the table's (at most a combatant's damage points)."""
    reason: str
    seq: Annotated[int, msgspec.Meta(ge=1)] | None = None
    """The event it rules on, as the log this scenario makes numbers it (with the ``ruling_applied`` of
    every ruling that takes effect before it)."""
    at: Moment | None = None
    """Or ``combatant``'s first outcome at or after this many seconds (for ``leaves``: when it leaves)."""
    until: Moment | None = None
    """A modifier at ``at`` lasts for every outcome before this time."""
    combatant: str | None = None
    """Whose outcome it rules on (with ``seq``, a check that it is theirs)."""
    outcome: Literal["miss"] | None = None
    """The hit is a miss, whatever its rolls."""
    damage: Points | None = None
    """Points added to the damage of a blow that lands (negative: taken off it, down to 0)."""
    modifier: Annotated[int, msgspec.Meta(ge=-300, le=300)] | None = None
    """Points added to the chance to hit."""
    leaves: bool = False
    """The combatant leaves the fight at ``at``."""

    def special(self) -> bool:
        """Whether it is special damage's ruling (S10)."""
        return self.target is not None


def check_rulings(rulings: Sequence[Ruling], combatants: Sequence[str], source: str) -> None:
    """Each general ruling names one key and one effect that go together (special damage's are checked
    with the module, ``check_special``)."""
    for number, ruling in enumerate(rulings):
        where = f"{source}: $.rulings[{number}]"
        if ruling.special():
            general = [name for name in _GENERAL if _given(ruling, name)]
            if general:
                raise ScenarioError(
                    f"{where}: a ruling on special damage (target) has no {' or '.join(general)}"
                )
            continue
        if ruling.replace_with is not None or ruling.stamina is not None:
            raise ScenarioError(f"{where}.target: a ruling on special damage names whose (target)")
        check_terms(ruling, combatants, where)


_GENERAL = ("seq", "at", "until", "combatant", "outcome", "damage", "modifier", "leaves")


def _given(ruling: Ruling, name: str) -> bool:
    """Whether the scenario gave the general field ``name`` (a 0 is given; ``leaves`` is when true)."""
    return ruling.leaves if name == "leaves" else getattr(ruling, name) is not None


def on_the_clock(encounter: Encounter[Any], referee: Referee) -> None:
    """Before the run: the referee watches the seqs its rulings are keyed to, and each combatant that a
    ruling takes out of the fight leaves at its time."""
    if not referee:
        return
    encounter.sinks.insert(0, referee.see)
    for number, ruling in referee.leaving():
        encounter.process(_leave(encounter, referee, number, ruling))


class SpecialRulings(Protocol):
    """What a run's end asks of the special_damage module (its ``SpecialDamageModule``)."""

    def unused(self, state: Any) -> str | None:
        """Its rulings (S10) never used in the fight that left ``state``, in words (None: all were)."""
        ...


def after_the_run(encounter: Encounter[Any], referee: Referee, special: SpecialRulings | None = None) -> None:
    """After the run: a general ruling that never took effect is an error of the scenario; special
    damage's (S10) never used are a warning (``Encounter.warnings``), as another seed or a what-if may
    well not give a target that special damage."""
    last = encounter.last
    problem = referee.unapplied(int(encounter.now), last.seq if last else 0)
    if problem is not None:
        raise problem
    unused = special.unused(encounter.state) if special is not None else None
    if unused is not None:
        encounter.warnings.append(unused)


def _leave(
    encounter: Encounter[Any], referee: Referee, number: int, ruling: RulingTerms
) -> Generator[Any, Any, None]:
    """The combatant is out at the ruling's time, unless the fight is over by then."""
    assert ruling.at is not None
    assert ruling.combatant is not None
    yield encounter.timeout(moment(ruling.at))
    who = ruling.combatant
    if encounter.state.ended:
        return
    if who not in encounter.state.combatants:
        raise referee.refuse(number, f"{who} has not joined the fight at {ruling.at} s")
    if encounter.state.combatants[who].out:
        raise referee.refuse(number, f"{who} is already out at {ruling.at} s")
    put_out_only(encounter, who, f"the referee's ruling: {ruling.reason}")
    referee.record(encounter, number, who, "leaves the fight")
    check_end(encounter)
