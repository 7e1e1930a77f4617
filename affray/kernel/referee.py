"""The referee's rulings on the clock: a scenario's rulings applied where the rules decide what they overrule.

A ruling names what it rules on, by one of two keys:

- ``seq``: the event at that seq, as the log the scenario makes numbers it (counting the
  ``ruling_applied`` of every ruling that takes effect before it), optionally checked to be
  ``combatant``'s;
- ``at`` and ``combatant``: that combatant's first outcome of the ruling's kind at or after ``at``
  seconds; a ``modifier`` with ``until`` applies to every one of them before ``until``.

and one effect: ``outcome = "miss"`` (a hit is a miss), ``damage`` (points added to a blow that lands,
or taken off it), ``modifier`` (points added to the chance to hit) or ``leaves`` (the combatant leaves
the fight at ``at``). The host ruleset's handlers ask :class:`Referee` for the rulings due at the
points where they decide an outcome, apply them in their own terms, emit the outcome and then have each
ruling recorded as a :class:`RulingApplied` event right after it, with its reason. The scenario holds
the rulings, so a log's re-simulation (``affray verify``) applies them again. A ruling that finds
nothing to rule on is an error of the scenario: :class:`Referee` says which ruling and why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal, Protocol

from affray.errors import ScenarioError, excerpt
from affray.events.base import Event
from affray.events.shared import RulingApplied, kind_of
from affray.kernel.clock import game_time, to_ms

if TYPE_CHECKING:
    from affray.kernel.encounter import Encounter

Effect = Literal["outcome", "damage", "modifier", "leaves"]
EFFECTS: tuple[Effect, ...] = ("outcome", "damage", "modifier", "leaves")


class RulingTerms(Protocol):
    """What a scenario's ruling says, whatever the ruleset (its struct may say more: special damage's S10)."""

    @property
    def seq(self) -> int | None: ...
    @property
    def at(self) -> float | None: ...
    @property
    def until(self) -> float | None: ...
    @property
    def combatant(self) -> str | None: ...
    @property
    def outcome(self) -> str | None: ...
    @property
    def damage(self) -> int | None: ...
    @property
    def modifier(self) -> int | None: ...
    @property
    def leaves(self) -> bool: ...
    @property
    def reason(self) -> str: ...


class RulingError(ScenarioError):
    """A ruling that cannot be applied: it rules on nothing, or on what its effect does not apply to."""


def effect_of(ruling: RulingTerms) -> Effect | None:
    """The one effect a ruling has, or None for a ruling that has none of these (special damage's)."""
    effects = [effect for effect in EFFECTS if _has(ruling, effect)]
    return effects[0] if len(effects) == 1 else None


def _has(ruling: RulingTerms, effect: Effect) -> bool:
    return bool(ruling.leaves) if effect == "leaves" else getattr(ruling, effect) is not None


def check_terms(ruling: RulingTerms, combatants: Sequence[str], where: str) -> None:
    """A ruling names one key and one effect that go together, and combatants that exist (at load)."""
    effects = [effect for effect in EFFECTS if _has(ruling, effect)]
    if len(effects) != 1:
        raise ScenarioError(
            f"{where}: a ruling has one effect of outcome, damage, modifier or leaves "
            f"({'none' if not effects else ' and '.join(effects)} given)"
        )
    effect = effects[0]
    _check_key(ruling, combatants, where)
    if effect == "leaves" and ruling.at is None:
        raise ScenarioError(f"{where}: a combatant leaves the fight at a time: give at, not seq")
    if ruling.until is not None:
        if effect != "modifier" or ruling.at is None:
            raise ScenarioError(f"{where}.until: only a modifier at a time lasts until a time")
        if ruling.until <= ruling.at:
            raise ScenarioError(f"{where}.until: {ruling.until} s is not after at ({ruling.at} s)")
    if not ruling.reason.strip():
        raise ScenarioError(f"{where}.reason: a ruling says why")


def _check_key(ruling: RulingTerms, combatants: Sequence[str], where: str) -> None:
    """A ruling is keyed to a seq, or to a time and a combatant that exists."""
    if (ruling.seq is None) == (ruling.at is None):
        raise ScenarioError(f"{where}: a ruling names seq or at (with combatant), not both or neither")
    if ruling.at is not None and ruling.combatant is None:
        raise ScenarioError(f"{where}.combatant: a ruling at a time names whose outcome it rules on")
    if ruling.combatant is not None and ruling.combatant not in combatants:
        raise ScenarioError(f"{where}.combatant: no combatant {excerpt(ruling.combatant)!r}")


class Referee:
    """The rulings of one encounter: which are due where, recording each, and what none applied to.

    ``rules_on`` names, for each effect, the kind of event it overrules in this ruleset (for errors);
    ``where`` is the rulings' path in the scenario. It is also a sink (``referee.see``): a seq-keyed
    ruling whose seq is emitted without it having applied is an error there and then.
    """

    def __init__(
        self, rulings: Sequence[RulingTerms], rules_on: Mapping[Effect, str], where: str = "$.rulings"
    ) -> None:
        self._rules_on = rules_on
        self._where = where
        self._rulings: dict[int, RulingTerms] = {}
        self._effects: dict[int, Effect] = {}
        for number, ruling in enumerate(rulings):
            effect = effect_of(ruling)
            if effect is not None:
                self._rulings[number], self._effects[number] = ruling, effect
        self._due = {n for n, effect in self._effects.items() if effect != "leaves"}
        self._applied: set[int] = set()
        self._claimed: set[int] = set()
        """Seq-keyed rulings handed to a handler: it records them or refuses them."""

    def __bool__(self) -> bool:
        return bool(self._rulings)

    def leaving(self) -> list[tuple[int, RulingTerms]]:
        """The ``leaves`` rulings, by number: the host takes each combatant out at its time."""
        return [(n, self._rulings[n]) for n, effect in self._effects.items() if effect == "leaves"]

    def due(self, encounter: Encounter[Any], combatant: str, effect: Effect) -> list[tuple[int, RulingTerms]]:
        """The rulings of ``effect`` on ``combatant``'s outcome that is emitted next: keyed to the next
        seq, or to a time now reached. The caller applies those that take effect and ``record``\\ s them."""
        if not self._due:
            return []
        following, now = encounter.count + 1, int(encounter.now)
        due_now = [
            (number, self._rulings[number])
            for number in sorted(self._due)
            if self._effects[number] == effect and _due(self._rulings[number], combatant, following, now)
        ]
        self._claimed.update(number for number, ruling in due_now if ruling.seq is not None)
        return due_now

    def record(self, encounter: Encounter[Any], number: int, combatant: str, effect: str) -> None:
        """Ruling ``number`` took effect on the event just emitted (or on the one that the rulings just
        recorded rule on): a ``ruling_applied`` right after it says so. A modifier lasting until a time
        stays due for the outcomes after."""
        ruling, ruled = self._rulings[number], encounter.last
        assert ruled is not None
        rules_on = ruled.rules_on if isinstance(ruled, RulingApplied) else ruled.seq
        self._applied.add(number)
        if ruling.until is None:
            self._due.discard(number)
        encounter.emit(
            RulingApplied(
                combatant=combatant, ruling=number, rules_on=rules_on, effect=effect, reason=ruling.reason
            )
        )

    def refuse(self, number: int, why: str) -> RulingError:
        """The error for ruling ``number``, which cannot take effect on what it is keyed to."""
        return RulingError(f"{self._where}[{number}]: {why}")

    def see(self, event: Event) -> None:
        """A sink: a seq-keyed ruling's seq passing without it is an error naming what was there."""
        for number in self._due:
            ruling = self._rulings[number]
            if ruling.seq == event.seq and number not in self._claimed:
                effect = self._effects[number]
                whose = f" by {ruling.combatant}" if ruling.combatant else ""
                raise self.refuse(
                    number,
                    f"seq {event.seq} is {_a(kind_of(type(event)))}, not what {_a(effect)} ruling rules on "
                    f"({_a(self._rules_on[effect])}{whose})",
                )

    def unapplied(self, end_ms: int, last_seq: int) -> RulingError | None:
        """The error for the first ruling that never took effect, once the encounter is over."""
        for number, ruling in self._rulings.items():
            if number in self._applied:
                continue
            effect = self._effects[number]
            if ruling.seq is not None:
                return self.refuse(number, f"the fight ended at seq {last_seq}, before seq {ruling.seq}")
            ended = f"the fight ended at {game_time(end_ms)}"
            if effect == "leaves":
                return self.refuse(number, f"{ended}, before {ruling.combatant} could leave at {ruling.at} s")
            window = (
                f"between {ruling.at} s and {ruling.until} s"
                if ruling.until
                else f"at or after {ruling.at} s"
            )
            return self.refuse(
                number, f"{ruling.combatant} had no {self._rules_on[effect]} {window} to rule on ({ended})"
            )
        return None


def moment(seconds: float) -> int:
    """A ruling's time, in seconds as the scenario writes it, on the millisecond clock."""
    return to_ms(Decimal(str(seconds)))


def _due(ruling: RulingTerms, combatant: str, following: int, now: int) -> bool:
    if ruling.combatant is not None and ruling.combatant != combatant:
        return False
    if ruling.seq is not None:
        return ruling.seq == following
    assert ruling.at is not None
    if now < moment(ruling.at):
        return False
    return ruling.until is None or now < moment(ruling.until)


def _a(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"
