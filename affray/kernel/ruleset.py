"""What a ruleset and a module are to affray: the interface every tool is written against.

A ruleset is a :class:`Ruleset` value: its name and version, its vocabularies (the event kinds its logs
hold, and how each changes its state), how it reads a scenario, the battle that simulates one, how its
events are told and its state shown, and the modules it can carry. A module (an add-on riding on a host
ruleset, such as special_damage) is a :class:`Module`: its kinds' tellers, what it adds to the state
display, and an :class:`Aftermath` if the clock can run on after a fight. ``affray.rulesets`` holds the
registry; docs/extending.md shows how to write one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import msgspec

from affray import __version__
from affray.errors import AffrayError, ScenarioError
from affray.events.base import Event
from affray.events.codec import ENCODER, LogHeader, Pins
from affray.events.shared import CombatantJoined, kind_of
from affray.events.state import SHARED
from affray.events.vocabulary import Folded, Part, Vocabularies, Vocabulary
from affray.kernel.dice import DICE_ALGORITHM, Algorithm
from affray.kernel.explanation import Explainer
from affray.kernel.referee import Effect
from affray.kernel.scenario import Dice
from affray.kernel.tables import RulesTable
from affray.kernel.timeline import Marker

if TYPE_CHECKING:
    from affray.kernel.encounter import Encounter, EventSink

Teller = Callable[[Any, Any], str]
"""``teller(event, state)``: one line telling ``event``, read against the state right after it."""


def no_data() -> Mapping[str, bytes]:
    """The data files of a ruleset or module that has none."""
    return {}


@cache
def package_data(package: str) -> Callable[[], Mapping[str, bytes]]:
    """The data files (``*.toml``) of ``package``'s ``data`` folder, by name, read once per process: a
    ruleset's or module's charts and tables as shipped."""

    @cache
    def read() -> Mapping[str, bytes]:
        folder = files(package) / "data"
        return {
            f.name: f.read_bytes()
            for f in sorted(folder.iterdir(), key=lambda f: f.name)
            if f.name.endswith(".toml")
        }

    return read


def digest_of(data: bytes) -> str:
    """A data file's pin: BLAKE2b, 16 bytes, hex."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@cache
def _pins_of(data: Callable[[], Mapping[str, bytes]], owner: str) -> dict[str, str]:
    """The pins of ``owner``'s data files, worked out once per process (the files are read once)."""
    return {f"{owner}/{name}": digest_of(raw) for name, raw in data().items()}


def no_tables() -> tuple[RulesTable, ...]:
    """The tables of a ruleset or module that lists none."""
    return ()


def no_files(scenario: Any) -> tuple[str, ...]:
    """The files a scenario names of a ruleset whose scenarios name none."""
    return ()


class Scenario(Protocol):
    """What every ruleset's scenario has: the ruleset, the seed, a name and the modules it turns on."""

    @property
    def ruleset(self) -> str:
        """The ruleset's name."""
        ...

    @property
    def seed(self) -> int:
        """The encounter seed the dice are drawn from."""
        ...

    @property
    def name(self) -> str:
        """A name for people ("" for none)."""
        ...

    @property
    def modules(self) -> Sequence[str]:
        """The modules it turns on, by name."""
        ...


class Battle(Protocol):
    """A scenario made ready to simulate under its ruleset."""

    @property
    def scenario(self) -> Any:
        """The scenario it simulates (a :class:`Scenario`)."""
        ...

    def run(
        self, sinks: Iterable[EventSink] = (), *, trace: bool = False, keep_log: bool = True
    ) -> Encounter[Any]:
        """Simulate the encounter to its end and return it, with its state and (``keep_log``) its log;
        ``sinks`` see every event as it is emitted, ``trace`` logs the kernel's steps."""
        ...

    def notices(self) -> list[str]:
        """Things a user should know about this scenario (example data in use, say); one line each."""
        ...

    def replay_decisions(self, recorded: Callable[[], Event | None], *, strict: bool = False) -> None:
        """Take the decisions of combatants played from outside affray from a log being re-simulated
        (``recorded()`` is its next event not yet compared) rather than from their controllers, never
        importing their code; a ruleset whose combatants are all played by its own controllers has
        nothing to take. A decision not recorded next is nothing more (the comparison then finds where
        the log differs) or, ``strict``, a ControllerError naming the combatant (a what-if past its
        change)."""
        ...


class Questions(Protocol):
    """The decisions a run stepped from outside waits for (handlers/outside.py's Stepped)."""

    @property
    def waiting(self) -> tuple[str, Any] | None:
        """The combatant asked and what it is offered (``view()``, ``legal()``), or None."""
        ...

    def answer(self, answer: object) -> None:
        """Answer the waiting question with an intent, a Decision or None, and let the run go on."""
        ...


class SteppedBattle(Battle, Protocol):
    """A battle that can be run a step at a time, its ``external`` combatants answered between steps."""

    def start(
        self, sinks: Iterable[EventSink] = (), *, trace: bool = False, keep_log: bool = True
    ) -> Encounter[Any]:
        """The encounter made ready to run, at 0 ms: step it with its ``step()``."""
        ...

    def close(self, encounter: Encounter[Any]) -> None:
        """What a run checks once its encounter has finished (every ruling took effect)."""
        ...

    def step_outside(self) -> Questions:
        """Have the ``external`` combatants' decisions given between steps; call before ``start``."""
        ...


class Seating(Protocol):
    """How a ruleset's combatants are played step by step from outside affray (affray.envs): who can be,
    the fixed menu of intents each is offered, and the numbers it observes."""

    def players(self, scenario: Any) -> tuple[str, ...]:
        """The combatants that act (and so can be played), in file order."""
        ...

    def seated(self, scenario: Any, players: Sequence[str]) -> Any:
        """``scenario`` with ``players`` played from outside (controller ``external``)."""
        ...

    def menu(self, battle: Any, combatant: str) -> tuple[Any, ...]:
        """Every intent ``combatant`` may be offered in ``battle``, in a fixed order: its actions."""
        ...

    def observe(self, scenario: Any, state: Any, combatant: str, now: int) -> list[float]:
        """What ``combatant`` observes at ``now``: as many numbers, in the same order, at every step."""
        ...


ScenarioT = TypeVar("ScenarioT", bound=Scenario)
"""A ruleset's scenario type."""
StateT = TypeVar("StateT", bound=Folded)
"""A ruleset's encounter state type."""
Shape = TypeVar("Shape")


def read_stock(scenario: msgspec.Raw, shape: type[Shape]) -> Shape | None:
    """A log header's ``scenario`` (JSON) read as ``shape`` (a Struct of the few fields a display wants,
    the others ignored), or None where it does not read as one: a log is shown whatever its scenario."""
    try:
        return msgspec.json.decode(scenario, type=shape)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None


class StateDisplay(Protocol):
    """How a ruleset shows its state in ``affray state``, beyond the columns every ruleset has."""

    def overview(self, state: Any) -> list[str]:
        """Lines about the encounter as a whole (the round and the order, say), under the first line."""
        ...

    def status(self, combatant: Any) -> str:
        """What the combatant is doing (its status column), from its state alone: a status that runs
        out with time is a condition (``CombatantState.conditions``), which the tools show."""
        ...

    def target(self, combatant: Any) -> str | None:
        """Whom it is after, if the ruleset keeps a target."""
        ...

    def details(self, combatant: Any) -> list[str]:
        """Further lines about the combatant (wounds, disabled locations)."""
        ...

    def left(self, combatant: Any) -> str:
        """What it has left, in the ruleset's words, for the state's "left" column ("27.65/32 DP")."""
        ...

    def stock(self, scenario: msgspec.Raw) -> Any:
        """What each combatant brought that the state does not hold (shots, throws, which parts are vital),
        read from a log header's scenario (its JSON); nothing, never an error, where it cannot be read."""
        ...

    def supplies(self, combatant: Any, stock: Any) -> str:
        """What it has left beyond its points, in the ruleset's words ("Bow 19/24 shots"), or ""."""
        ...

    health_name: str
    """What ``health`` measures, for a picture's axis ("damage points left")."""

    def health(self, combatant: Any, stock: Any) -> tuple[Decimal, Decimal]:
        """How much of it is left, in the measure that puts it out, and of how much (damage points left of
        all; the points left in its worst-hurt vital part)."""
        ...

    def harm(self, combatant: Any) -> str:
        """What the fight did to it, in the ruleset's words, for ``affray run``'s summary."""
        ...


@dataclass(frozen=True)
class Aftermath:
    """A module's continuation of a fight's clock (healing and repair, say), run by ``affray heal``."""

    started_by: Callable[[Event], int | None]
    """The days of an aftermath that ``event`` begins, or None when it begins none."""
    run: Callable[[Encounter[Any], Any, int], None]
    """``run(encounter, battle, days)``: continue a finished fight for ``days``, emitting its events."""
    summary: Callable[[Sequence[Event]], str]
    """A line about what the aftermath's events did (for ``affray heal``)."""


@dataclass(frozen=True)
class Module:
    """An add-on that rides on host rulesets: its kinds' tellers, its state lines, its aftermath."""

    name: str
    version: str
    description: str
    part: Part
    """Its kinds (each host composes this part, and its own extensions, into its vocabularies)."""
    tellers: Mapping[type[Event], Teller]
    details: Callable[[Any], list[str]]
    """Lines about a combatant for ``affray state`` (its injuries and losses)."""
    aftermath: Aftermath | None = None
    explainers: Mapping[type[Event], Explainer] = field(default_factory=dict)
    """The derivations of its kinds' events (``affray explain``); a kind without one is shown by its
    rolls and fields."""
    tables: Callable[[], Sequence[RulesTable]] = no_tables
    """Its tables as people read them (``affray rules``), read when first asked for."""
    markers: Mapping[type[Event], Marker] = field(default_factory=dict)
    """The marks its kinds' events leave on the clock (``affray timeline``, ``affray view``)."""
    data: Callable[[], Mapping[str, bytes]] = no_data
    """Its data files as shipped, by name (``package_data``): pinned by digest in each log's header."""

    def __post_init__(self) -> None:
        _check_tellers(self.name, self.part.appliers, self.tellers)


@dataclass(frozen=True)
class Ruleset(Generic[ScenarioT, StateT]):
    """A ruleset: everything affray's tools need from it, and nothing they need to know about it. Its
    scenarios are ``ScenarioT``, its states ``StateT``; a tool written for every ruleset holds a
    ``Ruleset[Any, Any]``."""

    name: str
    version: str
    """Bumped by any change that makes an old log of this ruleset re-simulate differently."""
    description: str
    vocabularies: Vocabularies[StateT]
    """Its vocabulary for each set of modules a scenario turns on."""
    load: Callable[[Mapping[str, Any], str, Path | None], ScenarioT]
    """``load(raw, source, folder)``: a scenario from a TOML file's mapping (``folder`` is the file's, for
    files it names) or a log header's (``folder`` None); errors are ScenarioError naming ``source``."""
    battle: Callable[[ScenarioT], Battle]
    """The battle that simulates a loaded scenario."""
    tellers: Mapping[type[Event], Teller]
    """A teller for each of its own kinds (the shared kinds are told by affray)."""
    display: StateDisplay
    modules: tuple[str, ...] = field(default=())
    """The modules it can carry, by name."""
    tables: Callable[[], Sequence[RulesTable]] = no_tables
    """Its tables as people read them (``affray rules``): the charts whose names scenarios use."""
    files: Callable[[ScenarioT], Sequence[str]] = no_files
    """``files(scenario)``: the files a loaded scenario was read from besides itself (its own tables, say),
    as it names them, relative to its folder."""
    explainers: Mapping[type[Event], Explainer] = field(default_factory=dict)
    """The derivations of its kinds' events (``affray explain``); a kind without one is shown by its
    rolls and fields."""
    markers: Mapping[type[Event], Marker] = field(default_factory=dict)
    """The marks its kinds' events leave on the clock (kernel/timeline.py): a kind without one leaves
    none."""
    rules_on: Mapping[Effect, str] = field(default_factory=dict)
    """The kind of event each effect of a referee's ruling rules on (kernel/referee.py); a ruleset
    without rulings lists none."""
    data: Callable[[], Mapping[str, bytes]] = no_data
    """Its data files as shipped, by name (``package_data``): pinned by digest in each log's header."""
    standing_orders: bool = False
    """Whether its scenarios take standing orders (an ``orders`` section, affray/handlers/orders.py):
    ``whatif --intent`` writes a combatant played otherwise from a point on there."""
    in_rounds: bool = False
    """Whether it fights in rounds, its events carrying the round's number in ``round`` (the markdown
    export's sections are then its rounds, else spans of game time)."""
    seating: Seating | None = None
    """How its combatants are played step by step from outside (affray.envs); None when they cannot
    be, and then its ``battle`` need not be a :class:`SteppedBattle`."""
    unseated: str = ""
    """Without ``seating``, why its combatants cannot be played from outside, in one line (the contract
    suite asks for it; affray.envs says it)."""

    def __post_init__(self) -> None:
        own = [kind for part in self.vocabularies.parts if part is not SHARED for kind in part.appliers]
        _check_tellers(self.name, own, self.tellers)
        unknown = set(self.modules) ^ set(self.vocabularies.modules)
        if unknown:
            raise ValueError(
                f"ruleset {self.name}: modules {sorted(unknown)} are not those of its vocabularies"
            )

    def vocabulary(self, modules: Sequence[str] = ()) -> Vocabulary[StateT]:
        """Its vocabulary with ``modules``."""
        return self.vocabularies(modules)

    def header(self, scenario: ScenarioT, modules: Sequence[Module] = ()) -> LogHeader:
        """The header of a log of ``scenario`` under this ruleset, pinning the ``modules`` it turns on and
        every data file of theirs and the ruleset's."""
        data = dict(_pins_of(self.data, self.name))
        for module in modules:
            data.update(_pins_of(module.data, module.name))
        algorithm, written = _dice_written(scenario)
        return LogHeader(
            pins=Pins(modules={m.name: m.version for m in modules}, data=data),
            affray_version=__version__,
            ruleset=self.name,
            ruleset_version=self.version,
            dice=algorithm,
            seed=scenario.seed,
            event_versions=dict(self.vocabulary(scenario.modules).versions),
            scenario=msgspec.Raw(ENCODER.encode(written)),
        )


def _dice_written(scenario: Scenario) -> tuple[Algorithm, Any]:
    """The dice algorithm of ``scenario`` and the scenario as a header writes it: its dice without the
    algorithm, which the header names in its own ``dice`` (a scenario without a :class:`Dice` table
    rolls with the default algorithm and is written as it is)."""
    dice = getattr(scenario, "dice", None)
    if not isinstance(dice, Dice) or not isinstance(scenario, msgspec.Struct):
        return DICE_ALGORITHM, scenario
    return dice.drawn_with, msgspec.structs.replace(scenario, dice=dice.recorded())


@dataclass(frozen=True)
class Reading:
    """What a log is read with: its ruleset and the modules its scenario turns on."""

    ruleset: Ruleset[Any, Any]
    modules: tuple[Module, ...]
    sealed: bool = field(default=False, kw_only=True)
    """Whether the log is a players' copy, whose events may withhold values (affray.events.sealed)."""

    def vocabulary(self) -> Vocabulary[Any]:
        """The kinds the log may hold."""
        return self.ruleset.vocabulary([module.name for module in self.modules])

    def tellers(self) -> dict[type[Event], Teller]:
        """The tellers of the ruleset's kinds and its modules'."""
        told = dict(self.ruleset.tellers)
        for module in self.modules:
            told.update(module.tellers)
        return told

    def explainers(self) -> dict[type[Event], Explainer]:
        """The explainers of the ruleset's kinds and its modules'."""
        explainers = dict(self.ruleset.explainers)
        for module in self.modules:
            explainers.update(module.explainers)
        return explainers

    def markers(self) -> dict[type[Event], Marker]:
        """The markers of the ruleset's kinds and its modules'."""
        markers = dict(self.ruleset.markers)
        for module in self.modules:
            markers.update(module.markers)
        return markers


@dataclass(frozen=True)
class Recorded(Reading):
    """What a log's header says was simulated: the ruleset and modules, and the scenario itself."""

    scenario: Any
    source: str = ""
    """Where the scenario was read (``LOG: line 1 (header) scenario``), for an error in making its battle."""

    def battle(self) -> Battle:
        """The scenario made ready to simulate again; a ScenarioError names ``source`` when it cannot be."""
        try:
            return self.ruleset.battle(self.scenario)
        except AffrayError as exc:
            if not self.source:
                raise
            raise ScenarioError(f"{self.source}: {exc}") from None


def _check_tellers(owner: str, kinds: Iterable[type[Event]], tellers: Mapping[type[Event], Teller]) -> None:
    """Every kind is told: a kind without a teller is an error when the ruleset or module is defined."""
    untold = [kind_of(kind) for kind in kinds if kind not in tellers and not _abstract(kind)]
    if untold:
        raise ValueError(f"{owner}: no teller for {', '.join(untold)}")


def _abstract(kind: type[Event]) -> bool:
    return kind is CombatantJoined
