"""A fight as one self-contained HTML page (``affray view``): no network, the log's data embedded.

The page (``viewer.html``, beside this module) has a scrubber over the events and play/pause; a map of
where everyone stands; each combatant's state; the event list with the replay's lines, following the
scrubber; and a click on an event shows its derivation. All of it is worked out here, in Python, from
the same fold as ``affray state``, the same telling as ``affray replay`` and the same explanations as
``affray explain``, so page and commands cannot disagree. Each frame holds only what changed at its event
(the first frame shown holds everyone); the page rebuilds the moments from them, keeping one whole moment
in every 64 frames. The data is embedded as gzip-compressed JSON in base64, which the browser's
own DecompressionStream reads: a fight of 14,000 events and 60 combatants makes a page of a few MB.
"""

from __future__ import annotations

import base64
import gzip
import html
import re
from collections.abc import Sequence
from decimal import Decimal
from importlib import resources
from typing import Any

import msgspec

from affray.colours import SIDE_COLOURS
from affray.errors import escaped, printable
from affray.events.base import Event
from affray.events.codec import LogHeader
from affray.events.shared import kind_of
from affray.kernel.clock import game_time
from affray.kernel.explanation import Step
from affray.kernel.ruleset import Reading
from affray.replays.explain import Explained, explain_all
from affray.replays.export import outcome
from affray.replays.narrate import tell
from affray.replays.show import conditions_now

_ENCODER = msgspec.json.Encoder(decimal_format="number")
DATA_MARK = "/*FIGHT*/"
"""Where the template takes the fight's data."""
IN_A_SCRIPT = [
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("&", "\\u0026"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
]
"""The characters the page's data writes as JSON escapes, so that no text of the log can end the script
element that holds it (``</script>``), open a comment in it (``<!--``, which blanks the page) or be read
as anything but JSON: they only ever occur inside the data's strings, where ``\\u003c`` reads back as
``<``."""


class Combatant(msgspec.Struct, frozen=True, array_like=True):
    """A combatant as the page lists it."""

    id: str
    name: str
    side: str


class Seen(msgspec.Struct, frozen=True, array_like=True):
    """One combatant at one moment: where, its health and what it has left in the ruleset's words (as
    ``affray state`` says them: "27.65/32 DP"; "Bow 19/24 shots; disabled: left leg"), whether it is out,
    what it is doing."""

    x: Decimal
    y: Decimal
    health: str
    left: str
    out: bool
    status: str


class Frame(msgspec.Struct, frozen=True, array_like=True):
    """The moment right after one event: its seq, time, kind, line, and each combatant whose figures
    changed then (its index in ``Fight.combatants`` and how it is now; None: not in the fight)."""

    seq: int
    t: int
    time: str
    kind: str
    told: str
    changed: list[tuple[int, Seen | None]]


class Derivation(msgspec.Struct, frozen=True, array_like=True):
    """An event's derivation as ``affray explain`` gives it, less what the frames already hold (its line,
    and those of the events it rests on): the steps, and the seqs it depends on and is ruled by, each
    with why."""

    steps: list[Step]
    depends_on: list[tuple[int, str]]
    ruled_by: list[tuple[int, str]]

    @classmethod
    def of(cls, explained: Explained) -> Derivation:
        """The derivation of ``explained``."""
        return cls(
            explained.steps,
            [(e.seq, e.why) for e in explained.depends_on],
            [(e.seq, e.why) for e in explained.ruled_by],
        )


class RollChances(msgspec.Struct, frozen=True, array_like=True):
    """One roll as ``affray odds`` found it: the seq of its event, its stream and draw, and each side's
    chance (0 to 1) just before and just after it, the sides in the order of ``Odds.sides``."""

    seq: int
    key: str
    before: list[float]
    after: list[float]


class Odds(msgspec.Struct, frozen=True):
    """Each side's chance to win over the fight (``view --odds``): the sides, the chances before the first
    roll, and each roll; the page draws them under its scrubber and shows a roll's luck with its event."""

    sides: list[str]
    opening: list[float]
    rolls: list[RollChances]


class Fight(msgspec.Struct, frozen=True, omit_defaults=True):
    """Everything the page shows."""

    title: str
    about: str
    outcome: str
    palette: list[str]
    """The sides' colours, in the order sides first appear (affray.colours)."""
    combatants: list[Combatant]
    frames: list[Frame]
    derivations: list[Derivation]
    odds: Odds | None = None
    """Each side's chance to win, when an odds report is given."""


def fight(
    header: LogHeader,
    events: Sequence[Event],
    reading: Reading,
    title: str,
    start: int | None = None,
    end: int | None = None,
) -> Fight:
    """The page's data for a whole log's ``events``; with ``start``/``end`` (ms), only the events
    between them are shown (the first of them with everyone as they are then)."""
    watch = _Watch(reading, reading.ruleset.display.stock(header.scenario))
    frames: list[Frame] = []
    state: Any = None
    ending = ""
    derivations = []
    explained = explain_all(events, reading)
    told = tell(events, reading.vocabulary(), reading.tellers())
    for (event, state, text), why in zip(told, explained, strict=True):
        if state.ended and not ending:
            ending = outcome(state)  # at the encounter's end: an aftermath of healing may follow
        watch.join(state.combatants)
        if (start is not None and event.t < start) or (end is not None and event.t > end):
            continue
        changed = watch.changed(state.combatants, event.t, everyone=not frames)
        frames.append(Frame(event.seq, event.t, game_time(event.t), kind_of(type(event)), text, changed))
        derivations.append(Derivation.of(why))
    about = f"ruleset {header.ruleset} v{header.ruleset_version}, seed {header.seed}"
    if not ending:
        ending = outcome(state) if state is not None else "no events"
    return Fight(title, about, ending, list(SIDE_COLOURS), watch.joined, frames, derivations)


class _Watch:
    """Each combatant as last shown, to tell what changed at an event. A combatant's figures are worked
    out anew (the ruleset's words, its slowest part) only when what they are made of has changed: its
    position, damage points, damage taken, being out, its status, its disabled parts, its uses spent."""

    def __init__(self, reading: Reading, stock: Any) -> None:
        self.display = reading.ruleset.display
        self.modules = reading.modules
        self.stock = stock
        self.joined: list[Combatant] = []
        self.keys: list[tuple[Any, ...] | None] = []
        self.shown: list[Seen | None] = []

    def join(self, combatants: dict[str, Any]) -> None:
        """Note those who joined since (listed in the order they joined)."""
        if len(combatants) > len(self.joined):
            self.joined = [Combatant(c.id, c.name, c.side) for c in combatants.values()]
            grown = len(self.joined) - len(self.shown)
            self.keys += [None] * grown
            self.shown += [None] * grown

    def changed(
        self, combatants: dict[str, Any], now: int, *, everyone: bool
    ) -> list[tuple[int, Seen | None]]:
        """Each combatant that changed since last asked, with how it is now (all of them if ``everyone``)."""
        found: list[tuple[int, Seen | None]] = []
        status_of, keys = self.display.status, self.keys
        for k, listed in enumerate(self.joined):
            c = combatants.get(listed.id)
            if c is None:  # listed before it joined: the page lists everyone who ever joins
                if everyone:
                    found.append((k, None))
                continue
            status = (c.conditions and conditions_now(c, now)) or status_of(c, now)
            key = (
                c.position,
                c.damage_points,
                c.damage_taken,
                c.out,
                status,
                len(getattr(c, "disabled", ())),
                sum(getattr(c, "used", {}).values()),
            )
            if key != keys[k]:
                keys[k] = key
                self.shown[k] = Seen(
                    c.position[0], c.position[1], self.display.left(c), self._left(c), c.out, status
                )
            elif not everyone:
                continue
            found.append((k, self.shown[k]))
        return found

    def _left(self, c: Any) -> str:
        """What it has left beyond its points: what it uses up, and the ruleset's and modules' lines
        (disabled parts, wounds, injuries)."""
        lines = [self.display.supplies(c, self.stock), *self.display.details(c)]
        for module in self.modules:
            lines += module.details(c)
        return "; ".join(line for line in lines if line)


_SHOWN_OR_NOT = re.compile(r"\\(?:\\|u00[01][0-9a-fA-F]|[bfnrt])|[^ -~]+")
"""In JSON text: an escaped backslash (taken whole, so that what follows it is not read as an escape), an
escaped control below U+0020, or a run of characters outside printable ASCII."""
_SHORT = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _shown(found: re.Match[str]) -> str:
    text = found.group()
    if text == "\\\\":
        return text
    if text[0] == "\\":  # a control, which JSON escapes
        char = _SHORT.get(text[1]) or chr(int(text[2:], 16))
        return escaped(char).replace("\\", "\\\\")
    return "".join(c if c.isprintable() else escaped(c).replace("\\", "\\\\") for c in text)


def visible(json: str) -> str:
    """``json`` (JSON text) with each character of its strings that does not print as itself (a control,
    U+202E that turns the text around it) written as its escape made text: the page shows ``\\u202e``, as
    the commands do (``affray.errors.printable``), where it would show the control's effect."""
    if json.isascii() and "\\" not in json and "\x7f" not in json:
        return json  # nothing the pattern finds: printable ASCII, JSON escaping every control below it
    return _SHOWN_OR_NOT.sub(_shown, json)


def data_json(data: Fight) -> str:
    """The page's data as JSON, each string made printable and nothing in it that HTML reads in a
    script."""
    embedded = visible(_ENCODER.encode(data).decode())
    for char, escape in IN_A_SCRIPT:  # str.replace, five times as fast as str.translate here
        embedded = embedded.replace(char, escape)
    return embedded


def page(data: Fight) -> str:
    """The HTML page showing ``data``: its JSON gzip-compressed, in base64 (which holds no character
    HTML reads)."""
    template = resources.files("affray.replays").joinpath("viewer.html").read_text(encoding="utf-8")
    packed = gzip.compress(data_json(data).encode(), compresslevel=6, mtime=0)
    head, _, tail = template.partition(DATA_MARK)
    title = html.escape(printable(data.title))
    return head.replace("{{title}}", title) + base64.b64encode(packed).decode("ascii") + tail
