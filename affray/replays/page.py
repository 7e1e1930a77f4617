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
from collections.abc import Iterable, Sequence
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
from affray.kernel.ruleset import Module, Reading, StateDisplay
from affray.replays.explain import Explained, Explaining, Read, explain_each, with_rulings
from affray.replays.export import outcome
from affray.replays.looked import Looked
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
    and those of the events it rests on): its steps, as indexes into the fight's ``steps`` (a long fight
    repeats most of them), and the seqs it depends on and is ruled by, each with why."""

    steps: list[int]
    depends_on: list[tuple[int, str]]
    ruled_by: list[tuple[int, str]]


class _Steps:
    """The steps of every derivation, each kept once: its index is where a derivation names it."""

    def __init__(self) -> None:
        self.index: dict[Step, int] = {}

    def derivation(self, explained: Explained) -> Derivation:
        """The derivation of ``explained``, its steps noted."""
        index = self.index
        return Derivation(
            [index.setdefault(step, len(index)) for step in explained.steps],
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
    steps: list[Step]
    """Every step of the derivations, once."""
    derivations: list[Derivation]
    odds: Odds | None = None
    """Each side's chance to win, when an odds report is given."""


def fight(
    header: LogHeader,
    events: Iterable[Event],
    reading: Reading,
    title: str,
    start: int | None = None,
    end: int | None = None,
    explaining: Explaining | None = None,
) -> Fight:
    """The page's data for a whole log's ``events``; with ``start``/``end`` (ms), only the events
    between them are shown (the first of them with everyone as they are then). The events are read from
    the start, or from where ``explaining`` was left (a snapshot before ``start``)."""
    framing = _Framing(_Watch(reading, reading.ruleset.display.stock(header.scenario)), start, end)
    explaining = Explaining(reading) if explaining is None else explaining
    framing.looked.update(explaining.state.combatants)
    explaining.state.combatants = framing.looked
    steps = _Steps()
    derivations = [
        steps.derivation(why)
        for why in with_rulings(map(framing.frame, explain_each(events, explaining, framing.shows_event)))
        if framing.shows(why.t)
    ]
    about = f"ruleset {header.ruleset} v{header.ruleset_version}, seed {header.seed}"
    joined = framing.watch.joined
    return Fight(
        title,
        about,
        framing.ending(),
        list(SIDE_COLOURS),
        joined,
        framing.frames,
        list(steps.index),
        derivations,
    )


class _Framing:
    """The frames of the events shown, made as the events are read (one reading folds, tells and
    explains them), and the fight's outcome."""

    def __init__(self, watch: _Watch, start: int | None, end: int | None) -> None:
        self.watch = watch
        self.start = start
        self.end = end
        self.frames: list[Frame] = []
        self.state: Any = None
        self.outcome = ""
        self.looked = Looked()
        """The combatants of the state folded, noting those looked up."""

    def shows(self, t: int) -> bool:
        """Whether an event at ``t`` (ms) is shown."""
        return (self.start is None or t >= self.start) and (self.end is None or t <= self.end)

    def shows_event(self, event: Event) -> bool:
        """Whether ``event`` is shown."""
        return self.shows(event.t)

    def frame(self, read: Read) -> Read:
        """Note the event just read, with its frame when it is shown."""
        event, state, why = read
        self.state = state
        if state.ended and not self.outcome:
            self.outcome = outcome(state)  # at the encounter's end: an aftermath of healing may follow
        self.watch.join(state.combatants)
        ids, everyone = self.looked.fresh()
        if self.shows(event.t):
            looked = None if everyone or not self.frames else ids
            changed = self.watch.changed(state.combatants, event.t, looked)
            kind = kind_of(type(event))
            self.frames.append(Frame(event.seq, event.t, game_time(event.t), kind, why.told, changed))
        return read

    def ending(self) -> str:
        """How the fight ended ("no events" when there were none)."""
        if self.outcome:
            return self.outcome
        return outcome(self.state) if self.state is not None else "no events"


class _Watch:
    """Each combatant as last shown, to tell what changed at an event. A combatant is looked at only when
    the event's applier or teller looked it up, or it has conditions (which run out with time)."""

    def __init__(self, reading: Reading, stock: Any) -> None:
        self.display = reading.ruleset.display
        self.modules = reading.modules
        self.stock = stock
        self.joined: list[Combatant] = []
        self.index: dict[str, int] = {}
        self.shown: list[Seen | None] = []
        self.timed: set[int] = set()
        """Those with conditions, looked at whatever the event."""

    def join(self, combatants: dict[str, Any]) -> None:
        """Note those who joined since (listed in the order they joined)."""
        if len(combatants) > len(self.joined):
            self.joined = [Combatant(c.id, c.name, c.side) for c in dict.values(combatants)]
            self.index = {listed.id: k for k, listed in enumerate(self.joined)}
            self.shown += [None] * (len(self.joined) - len(self.shown))

    def changed(
        self, combatants: dict[str, Any], now: int, looked: Iterable[str] | None
    ) -> list[tuple[int, Seen | None]]:
        """Each combatant that changed since last asked, with how it is now, of those ``looked`` up (by
        id) and those with conditions; with ``looked`` None, every combatant, changed or not."""
        if looked is None:
            return [(k, self._now(combatants, k, now)) for k in range(len(self.joined))]
        changed: list[tuple[int, Seen | None]] = []
        index = self.index
        for k in sorted({index[i] for i in looked if i in index} | self.timed):
            before = self.shown[k]
            if (after := self._now(combatants, k, now)) != before:
                changed.append((k, after))
        return changed

    def _now(self, combatants: dict[str, Any], k: int, now: int) -> Seen | None:
        """How combatant ``k`` is shown now (None before it joins)."""
        c = dict.get(combatants, self.joined[k].id)
        if c is None:  # listed before it joined: the page lists everyone who ever joins
            return None
        if c.conditions:
            self.timed.add(k)
        else:
            self.timed.discard(k)
        self.shown[k] = seen(c, now, self.display, self.modules, self.stock)
        return self.shown[k]


def seen(c: Any, now: int, display: StateDisplay, modules: Sequence[Module], stock: Any) -> Seen:
    """How the page shows combatant ``c`` at ``now``: where it stands, its points, what it has left beyond
    them (what it uses up, the ruleset's and modules' lines: disabled parts, wounds, injuries), whether it
    is out, and its status."""
    status = (c.conditions and conditions_now(c, now)) or display.status(c)
    lines = [display.supplies(c, stock), *display.details(c)]
    for module in modules:
        lines += module.details(c)
    left = "; ".join(line for line in lines if line)
    return Seen(c.position[0], c.position[1], display.left(c), left, c.out, status)


_SHOWN_OR_NOT = re.compile(r"\\(?:\\|u00[01][0-9a-fA-F]|[bfnrt])|[^ -~]+")
"""In JSON text: an escaped backslash (taken whole, so that what follows it is not read as an escape), an
escaped control below U+0020, or a run of characters outside printable ASCII."""
_SHORT = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _shown(match: re.Match[str]) -> str:
    text = match.group()
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


COMPRESS_LEVEL = 3
"""gzip's level for the page's data: the 60-fighter fight's 6.8 MB of JSON compress in 0.09 s at 3, 0.21 s
at 6, to a page a quarter larger (benchmarks/README.md)."""


def page(data: Fight) -> str:
    """The HTML page showing ``data``: its JSON gzip-compressed, in base64 (which holds no character
    HTML reads)."""
    template = resources.files("affray.replays").joinpath("viewer.html").read_text(encoding="utf-8")
    packed = gzip.compress(data_json(data).encode(), compresslevel=COMPRESS_LEVEL, mtime=0)
    head, _, tail = template.partition(DATA_MARK)
    title = html.escape(printable(data.title))
    return head.replace("{{title}}", title) + base64.b64encode(packed).decode("ascii") + tail
