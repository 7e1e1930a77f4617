"""An outcome laid out as a derivation: what a ruleset's explainer says about one event.

An explainer takes an event, the state right after it and what came before it (a ``History``), and gives
the steps that led to it (each input, modifier, chart row and roll, with its rule id and the arithmetic)
and the earlier events it depends on. ``affray explain`` asks the ruleset's and modules' explainers and
knows none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any, Protocol

import msgspec

from affray.events.base import Event, Roll, rolls_in
from affray.events.sealed import Sealed, is_sealed


class Step(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One line of a derivation: what was worked out, its value, how (the arithmetic or the inputs),
    under which rule, and from what (a chart row and its file, a roll's stream and draw)."""

    what: str
    value: str
    how: str = ""
    rule: str = ""
    source: str = ""


class Because(msgspec.Struct, frozen=True):
    """An earlier event an outcome depends on, and why."""

    seq: int
    why: str


class Explanation(msgspec.Struct, frozen=True, kw_only=True):
    """The steps of a derivation and the earlier events it depends on."""

    steps: list[Step]
    depends_on: list[Because] = msgspec.field(default_factory=list)


class History(Protocol):
    """What came before an event, as an explainer asks for it."""

    def latest(self, kind: str, combatant: str) -> Event | None:
        """The last earlier event of ``kind`` that names ``combatant`` (as its combatant, attacker,
        target, thrower, holder or computer; "" for one that names no one), or None."""
        ...

    def latest_as(self, kind: str, role: str, combatant: str) -> Event | None:
        """The last earlier event of ``kind`` whose field ``role`` is ``combatant``, or None."""
        ...


_ENCODER = msgspec.json.Encoder(decimal_format="number", order="deterministic")

Explainer = Callable[[Any, Any, History], Explanation]
"""``explain(event, state_after, history)``: the derivation of one kind's event."""


def roll_step(what: str, roll: Roll, rule: str = "") -> Step:
    """A roll as a step: its total, its expression and faces, its stream and draw, and its source (its
    total ``sealed`` and its expression alone in a players' copy)."""
    where = f"@{roll.stream}#{roll.draw}" if roll.draw else f"@{roll.stream}"
    if is_sealed(roll.total):
        return Step(what=what, value="sealed", how=roll.expr, rule=rule, source=f"{where}, {roll.source}")
    faces = "+".join(map(str, roll.faces))
    how = f"{roll.expr}: {faces}" if len(roll.faces) > 1 or roll.expr.count("+") else roll.expr
    return Step(what=what, value=str(roll.total), how=how, rule=rule, source=f"{where}, {roll.source}")


def _value(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str | int | Decimal | Sealed):
        return str(value)
    text = _ENCODER.encode(value).decode()
    return text if len(text) <= 60 else f"{text[:57]}..."


def _leaves(value: Any, path: str) -> list[tuple[str, Any]]:
    """A struct's fields, nested ones by their dotted path, rolls kept whole."""
    if isinstance(value, msgspec.Struct) and not isinstance(value, Roll | Sealed):
        return [
            leaf
            for name in value.__struct_fields__
            for leaf in _leaves(getattr(value, name), f"{path}.{name}" if path else name)
        ]
    return [(path, value)]


def rolls_and_fields(event: Event, rule: str = "") -> Explanation:
    """An event shown by its fields, nested ones by path, and the rolls it holds, each under ``rule``: the
    explanation of a kind with no explainer of its own."""
    steps: list[Step] = []
    for path, value in _leaves(event, ""):
        if path in ("seq", "t") or value is msgspec.UNSET:
            continue
        rolls = rolls_in(value)
        if rolls:
            steps += [roll_step(path.replace("_", " "), roll, rule) for roll in rolls]
        else:
            steps.append(Step(what=path.replace("_", " "), value=_value(value), rule=rule))
    return Explanation(steps=steps)


def by_rule(rule: str) -> Explainer:
    """An explainer that shows an event's rolls and fields under ``rule``."""

    def explain(event: Any, state: Any, history: History) -> Explanation:
        return rolls_and_fields(event, rule)

    return explain
