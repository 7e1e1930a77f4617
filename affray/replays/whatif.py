"""What if one roll had been different: the scenario of a fight with some of its rolls changed.

A fight is a pure function of its scenario, seed and rolls, so a what-if is its scenario with the changed
rolls entered by stream and draw (``[dice.rolled]``). Every roll before the first change comes out as it
was; every later roll is drawn from its own stream, so a change to one combatant's roll does not shift
another's. The rolls the fight took from a table (``source = "manual"``) stay entered as they were, and
any the new course of the fight asks for beyond them are generated.

A combatant played by code outside affray takes its recorded decisions while the what-if goes as its
parent did (:class:`Following`): its code is run only where the user names the folder it comes from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgspec

from affray.errors import AffrayError, excerpt
from affray.events.base import Event, Roll, actor_field, rolls_in
from affray.events.codec import encode_event
from affray.events.shared import kind_of
from affray.kernel.dice import STREAM_DRAW, parse_expression
from affray.kernel.referee import Effect
from affray.kernel.ruleset import Ruleset

_CHANGE = re.compile(rf"^(?P<roll>{STREAM_DRAW[1:-1]})=(?P<faces>[0-9]+(?:,[0-9]+)*)$")


class RollChange(msgspec.Struct, frozen=True):
    """One roll set to other faces: ``brenna/parry#3=47``, ``gorm/damage#1=3,5``."""

    roll: str
    """Its stream and draw: ``brenna/parry#3``."""
    faces: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.roll}={','.join(map(str, self.faces))}"


def parse_change(text: str) -> RollChange:
    """``STREAM#DRAW=VALUE`` (or ``=F1,F2`` for a roll of several dice) as a RollChange."""
    matched = _CHANGE.match(text.strip())
    if matched is None:
        raise AffrayError(
            f"--set {excerpt(text)!r}: expected STREAM#DRAW=VALUE, such as brenna/parry#3=47 "
            "(or =3,5 for two dice)"
        )
    faces = matched.group("faces").split(",")
    if any(len(face) > 7 for face in faces):
        raise AffrayError(f"--set {excerpt(text)!r}: a face is at most 1,000,000")
    return RollChange(matched.group("roll"), tuple(int(face) for face in faces))


def logged_rolls(events: Iterable[Event]) -> dict[str, tuple[int, Roll]]:
    """Every roll a fight's events record, by stream and draw, with the seq of the event holding it."""
    rolls: dict[str, tuple[int, Roll]] = {}
    for event in events:
        for roll in rolls_in(event):
            rolls[f"{roll.stream}#{roll.draw}"] = (event.seq, roll)
    return rolls


def check_change(change: RollChange, rolls: Mapping[str, tuple[int, Roll]], seq: int | None) -> None:
    """A change must name a roll the fight made (at ``seq``, when given) and fit its dice."""
    if change.roll not in rolls:
        stream = change.roll.partition("#")[0]
        made = sum(1 for seq_roll in rolls.values() if seq_roll[1].stream == stream)
        held = f"{stream} has {made} draw{'s' if made != 1 else ''}" if made else f"no roll on {stream}"
        raise AffrayError(f"--set {change}: the fight made no such roll ({held})")
    at, roll = rolls[change.roll]
    if seq is not None and seq != at:
        raise AffrayError(f"--seq {seq}: {change.roll} is rolled at seq {at}")
    expression = parse_expression(roll.expr)
    if len(change.faces) != expression.count or not all(1 <= f <= expression.sides for f in change.faces):
        dice = f"{expression.count} face{'s' if expression.count > 1 else ''} of 1..{expression.sides}"
        raise AffrayError(f"--set {change}: {change.roll} rolls {roll.expr}, which needs {dice}")


def changed_scenario(
    scenario: dict[str, Any], rolls: Mapping[str, tuple[int, Roll]], changes: Iterable[RollChange]
) -> dict[str, Any]:
    """The scenario (as read from a log's header) with ``changes`` entered, and the rolls the fight took
    from a table kept; every other roll generated from its seed."""
    if not isinstance(scenario.get("dice", {}), dict):
        raise AffrayError("the scenario has no [dice] section affray can enter rolls into")
    entered: dict[str, list[int]] = {
        key: list(roll.faces) for key, (_, roll) in rolls.items() if roll.source == "manual"
    }
    entered.update({change.roll: list(change.faces) for change in changes})
    return with_rolls_entered(scenario, entered)


def with_rolls_entered(scenario: dict[str, Any], rolled: dict[str, list[int]]) -> dict[str, Any]:
    """``scenario`` (a mapping, as ``recorded_mapping`` reads it from a log's header) with ``rolled``
    entered by stream and draw, no stream manual, and every other roll generated from its seed with the
    dice algorithm it names."""
    dice = scenario.get("dice")
    kept = {"algorithm": dice["algorithm"]} if isinstance(dice, dict) and "algorithm" in dice else {}
    return {**scenario, "dice": {"source": "generated", **kept, "manual": [], "rolled": rolled}}


_RULE = re.compile(
    r"^(?P<effect>miss|damage|modifier|leaves)(?:=(?P<value>[+-]?[0-9]{1,5}|[A-Za-z0-9_-]{1,40}))?$"
)


class RulingChange(msgspec.Struct, frozen=True):
    """A referee's ruling added at one event: ``miss``, ``damage=+5``, ``modifier=-10``, ``leaves=gorm``."""

    seq: int
    effect: str
    value: str | None
    reason: str

    def __str__(self) -> str:
        value = f"={self.value}" if self.value is not None else ""
        return f"seq {self.seq}: {self.effect}{value} ({self.reason})"


def parse_ruling(text: str, seq: int | None, reason: str | None) -> RulingChange:
    """``--rule`` as a RulingChange: placed by ``--seq``, with ``--reason``."""
    matched = _RULE.match(text.strip())
    if matched is None:
        raise AffrayError(
            f"--rule {text[:40]!r}: expected miss, damage=POINTS, modifier=POINTS or leaves=COMBATANT"
        )
    effect, value = matched.group("effect"), matched.group("value")
    numeric = effect in ("damage", "modifier")
    if (value is None) == (effect != "miss") or (numeric and not re.fullmatch(r"[+-]?[0-9]+", value or "")):
        wanted = {"miss": "no value", "damage": "=POINTS", "modifier": "=POINTS", "leaves": "=COMBATANT"}
        raise AffrayError(f"--rule {text[:40]!r}: {effect} takes {wanted[effect]}")
    if seq is None:
        raise AffrayError(f"--rule {text[:40]!r}: give --seq N, the event it rules on")
    if not reason or not reason.strip():
        raise AffrayError(f"--rule {text[:40]!r}: give --reason, which the log records with the ruling")
    return RulingChange(seq, effect, value, reason.strip())


_EFFECTS: dict[str, Effect] = {
    "miss": "outcome",
    "damage": "damage",
    "modifier": "modifier",
    "leaves": "leaves",
}


def ruled_scenario(
    scenario: dict[str, Any], events: Iterable[Event], change: RulingChange, rules_on: Mapping[Effect, str]
) -> dict[str, Any]:
    """The scenario with ``change`` among its rulings, keyed to the event at its seq (which must be of the
    kind the ruleset ``rules_on`` for its effect, and is checked to be its combatant's); a combatant that
    leaves does so at that event's time. Later rulings keyed by seq move on by one, past the
    ``ruling_applied`` this one adds."""
    event = next((e for e in events if e.seq == change.seq), None)
    if event is None:
        raise AffrayError(f"--seq {change.seq}: the log has no such event")
    effect = _EFFECTS[change.effect]
    if effect not in rules_on:
        raise AffrayError(f"--rule {change.effect}: this ruleset has no such ruling")
    ruling: dict[str, Any] = {"reason": change.reason}
    if effect == "leaves":
        ruling.update(at=event.t / 1000, combatant=change.value, leaves=True)
    else:
        ruling.update(_on_event(event, change, effect, rules_on))
    kept = [dict(r) for r in scenario.get("rulings", []) if isinstance(r, dict)]
    for earlier in kept:
        if isinstance(earlier.get("seq"), int) and earlier["seq"] > change.seq:
            earlier["seq"] += 1
    return {**scenario, "rulings": [*kept, ruling]}


def _on_event(
    event: Event, change: RulingChange, effect: Effect, rules_on: Mapping[Effect, str]
) -> dict[str, Any]:
    """A ruling's key and effect on the event at its seq, which must be of the kind its effect rules on."""
    kind = kind_of(type(event))
    if kind != rules_on[effect]:
        raise AffrayError(
            f"--seq {change.seq} is a {kind}: a {change.effect} ruling rules on {rules_on[effect]} events"
        )
    actor = actor_field(type(event))
    if actor is None:
        raise AffrayError(f"--seq {change.seq} is a {kind}, which names no combatant a ruling could be on")
    value: Any = "miss" if effect == "outcome" else int(change.value or 0)
    return {"seq": change.seq, "combatant": getattr(event, actor), effect: value}


_INTENT = re.compile(
    r"^(?P<who>[A-Za-z0-9_-]{1,40}):(?P<key>target|controller)=(?P<value>[A-Za-z0-9_,-]{1,200})$"
)


class IntentChange(msgspec.Struct, frozen=True):
    """A combatant played otherwise from one event's time on: ``gorm:target=brenna`` (whom it goes for
    first, several by commas) or ``gorm:controller=tactician`` (who plays it)."""

    seq: int
    combatant: str
    key: str
    value: str
    reason: str

    def __str__(self) -> str:
        why = f" ({self.reason})" if self.reason else ""
        return f"seq {self.seq}: {self.combatant} {self.key}={self.value} from then on{why}"


def parse_intent(text: str, seq: int | None, reason: str | None) -> IntentChange:
    """``--intent`` as an IntentChange, placed by ``--seq``."""
    matched = _INTENT.match(text.strip())
    if matched is None:
        raise AffrayError(
            f"--intent {text[:40]!r}: expected COMBATANT:target=ID[,ID...] or COMBATANT:controller=NAME"
        )
    if seq is None:
        raise AffrayError(f"--intent {text[:40]!r}: give --seq N, the event from whose time it holds")
    return IntentChange(
        seq, matched.group("who"), matched.group("key"), matched.group("value"), (reason or "").strip()
    )


def ordered_scenario(
    scenario: dict[str, Any], events: Iterable[Event], change: IntentChange
) -> dict[str, Any]:
    """The scenario with ``change`` among its standing orders, from the time of the event at its seq."""
    event = next((e for e in events if e.seq == change.seq), None)
    if event is None:
        raise AffrayError(f"--seq {change.seq}: the log has no such event")
    order: dict[str, Any] = {"combatant": change.combatant, "at": event.t / 1000}
    if change.key == "target":
        order["priority_targets"] = [target for target in change.value.split(",") if target]
    else:
        order["controller"] = change.value
    if change.reason:
        order["reason"] = change.reason
    kept = [dict(o) for o in scenario.get("orders", []) if isinstance(o, dict)]
    return {**scenario, "orders": [*kept, order]}


Change = RollChange | RulingChange | IntentChange
"""One change a what-if makes to its parent."""


def scenario_with(
    scenario: dict[str, Any],
    events: Iterable[Event],
    changes: Iterable[Change],
    ruleset: Callable[[], Ruleset[Any, Any]],
) -> dict[str, Any]:
    """A parent's scenario (``scenario``, its fight ``events``) with ``changes`` made as every what-if
    makes them: the rolls entered, then each ruling (on what the parent's ``ruleset()`` rules on), then
    each standing order (where the ruleset takes them). The roll changes are checked against the log's
    rolls by the caller."""
    events = list(events)
    made = list(changes)
    rolled = [change for change in made if isinstance(change, RollChange)]
    scenario = changed_scenario(scenario, logged_rolls(events), rolled)
    for change in made:
        if isinstance(change, RulingChange):
            scenario = ruled_scenario(scenario, events, change, ruleset().rules_on)
        elif isinstance(change, IntentChange):
            if not ruleset().standing_orders:
                raise AffrayError(f"--intent: the {ruleset().name} ruleset takes no standing orders")
            scenario = ordered_scenario(scenario, events, change)
    return scenario


class Following:
    """A what-if's events compared, as they are emitted, with its parent's, until the first that differs:
    there the what-if parts from its parent. ``peek()`` is the parent's event due next while it has not
    (None after), which is where a combatant played from outside finds its recorded decision; also None
    once that event is a combatant's that ``changed`` names (an ``--intent``: the ms from which it is
    played otherwise), at or after that time, since its decisions from then on are new ones."""

    def __init__(self, parent: Iterable[Event], changed: Mapping[str, int]) -> None:
        self._parent = iter(parent)
        self._due = next(self._parent, None)
        self._changed = changed
        self.parted = False

    def __call__(self, simulated: Event) -> None:
        if self.parted:
            return
        if self._due is None or encode_event(self._due, "") != encode_event(simulated, ""):
            self.parted = True
            return
        self._due = next(self._parent, None)

    def peek(self) -> Event | None:
        """The parent's event due next, while the what-if still goes as the parent did."""
        due = self._due
        if self.parted or due is None:
            return None
        who = getattr(due, "combatant", None)
        if isinstance(who, str) and who in self._changed and due.t >= self._changed[who]:
            return None
        return due
