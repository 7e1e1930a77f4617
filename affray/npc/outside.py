"""Controllers from outside affray: user code a scenario names as ``package.module:factory``, or
``external`` for a combatant played step by step by code that runs the fight (the PettingZoo environment).

``factory(seat)`` makes one controller for one combatant and one run; its ``decide(view, legal)`` gets the
ruleset's read-only view and the intents the rules allow now and answers with one intent, a
:class:`Decision` (the intent, its reason and the scores of its options), or None for nothing more. Every
answer is recorded in the log (``intent_chosen``), so a log made this way verifies by taking the recorded
answers, without the controller's code. docs/controllers.md is the protocol for users.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import sys
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from hashlib import blake2b
from importlib.machinery import ModuleSpec, PathFinder
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec

from affray.errors import AffrayError, ControllerError, ScenarioError, excerpt
from affray.events.shared import Score

EXTERNAL = "external"
"""The controller of a combatant played step by step from outside the run (the PettingZoo environment)."""


def seated_outside(scenario: Any, players: Iterable[str]) -> Any:
    """``scenario`` (a scenario Struct whose ``combatants`` have an ``id`` and a ``controller``) with the
    combatants ``players`` names played step by step from outside (``controller = "external"``)."""
    chosen = set(players)
    combatants = [
        msgspec.structs.replace(c, controller=EXTERNAL) if c.id in chosen else c for c in scenario.combatants
    ]
    return msgspec.structs.replace(scenario, combatants=combatants)


def is_outside(controller: str) -> bool:
    """Whether a scenario's ``controller`` is played from outside affray: ``external``, or a factory."""
    return controller == EXTERNAL or ":" in controller


class Seat(msgspec.Struct, frozen=True, kw_only=True):
    """The combatant a factory makes a controller for: its id and side, the controller named, and a seed
    of its own (from the encounter's seed and its id) for a controller that wants reproducible chance."""

    combatant: str
    side: str
    controller: str
    seed: int


def seat_seed(encounter_seed: int, combatant: str) -> int:
    """A controller's own seed: BLAKE2b of ``affray-seat-v1:<encounter seed>:<combatant>``, its first 8
    bytes as a big-endian integer shifted right by one (a non-negative 63-bit integer)."""
    digest = blake2b(f"affray-seat-v1:{encounter_seed}:{combatant}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class Decision:
    """A controller's answer with its workings: the intent (None for nothing more), a reason that
    replaces the intent's own when given, and what it scored its options (recorded in this order)."""

    intent: Any
    reason: str = ""
    scores: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Chosen:
    """An answer as it is recorded: the intent, or None, and the scores."""

    intent: Any
    scores: tuple[Score, ...] = ()


NOTHING = Chosen(None)


def chosen(answer: object, intents: tuple[type, ...], who: str) -> Chosen:
    """A controller's answer checked and made ready to record; ControllerError names ``who`` (the
    controller and its combatant) when it is neither an intent, a Decision nor None."""
    if answer is None:
        return NOTHING
    if isinstance(answer, intents):
        return Chosen(answer)
    if not isinstance(answer, Decision):
        raise ControllerError(f"{who} answered {_quoted(answer)}: not an intent, a Decision or None")
    if answer.intent is None:
        return Chosen(None, _scores(answer.scores, who))
    if not isinstance(answer.intent, intents):
        raise ControllerError(f"{who} decided on {_quoted(answer.intent)}: not an intent")
    intent: Any = answer.intent
    if answer.reason:
        intent = msgspec.structs.replace(intent, reason=answer.reason)
    return Chosen(intent, _scores(answer.scores, who))


def _scores(scores: Mapping[str, float], who: str) -> tuple[Score, ...]:
    scored = []
    for option, score in scores.items():
        if not isinstance(option, str) or isinstance(score, bool) or not isinstance(score, int | float):
            raise ControllerError(f"{who} scored {_quoted(option)} as {_quoted(score)}: want text: number")
        if not math.isfinite(score):
            raise ControllerError(f"{who} scored {option!r} as {score}: a score is a finite number")
        scored.append(Score(option=option, score=float(score)))
    return tuple(scored)


def where_it_failed(exc: BaseException) -> str:
    """Where user code raised ``exc``: its type, message and innermost file and line, on one line."""
    frames = traceback.extract_tb(exc.__traceback__)
    at = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{at}"


def _quoted(value: object) -> str:
    return excerpt(repr(value))


def check_spec(controller: str) -> str:
    """Why ``controller`` is no ``package.module:factory`` ("" when it is one)."""
    module, _, name = controller.partition(":")
    parts = [*module.split("."), *name.split(".")]
    if not all(part.isidentifier() for part in parts):
        return f"{controller!r} is no package.module:factory"
    return ""


def factory(controller: str, folder: Path) -> Callable[[Seat], Any]:
    """The factory ``package.module:factory`` names, its top-level module or package imported from
    ``folder`` only (never from the import path, nor from the current folder unless it is ``folder``),
    and kept for :func:`imported` to give the runs of this process; ControllerError says why it cannot
    be had. A module of that name already imported from elsewhere (the standard library's ``os``,
    affray, another scenario's package of the same name) is refused, never used in its place."""
    module_name, _, name = controller.partition(":")
    resolved: Any = _module(controller, module_name, folder.resolve())
    for part in name.split("."):
        if not hasattr(resolved, part):
            raise ControllerError(f"controller {controller!r}: {module_name} has no {name}")
        resolved = getattr(resolved, part)
    if not callable(resolved):
        raise ControllerError(f"controller {controller!r}: {name} is not callable")
    _IMPORTED[controller] = resolved
    return resolved  # type: ignore[no-any-return]


_IMPORTED: dict[str, Callable[[Seat], Any]] = {}
"""The factories :func:`factory` imported in this process, by the ``controller`` that names them."""


def check_controllers(
    controllers: Sequence[str], own: Sequence[str], source: str, folder: Path | None = None
) -> None:
    """Each combatant's controller is one of the ruleset's ``own``, ``external`` or a
    ``package.module:factory``; with ``folder`` (a scenario read from a file there), each factory is
    imported from that folder, so that one that cannot be is an error at once. Without it (a scenario
    read from a log's header) nothing is imported."""
    for index, controller in enumerate(controllers):
        if controller in own or controller == EXTERNAL:
            continue
        where = f"{source}: $.combatants[{index}].controller"
        if ":" not in controller:
            choices = ", ".join((*own, EXTERNAL))
            raise ScenarioError(
                f"{where}: {excerpt(controller)!r} is none of {choices}, nor a package.module:factory"
            )
        problem = check_spec(controller)
        if problem:
            raise ScenarioError(f"{where}: {problem}")
        if folder is not None:
            try:
                factory(controller, folder)
            except AffrayError as exc:
                raise ScenarioError(f"{where}: {exc}") from None


def imported(controller: str) -> Callable[[Seat], Any]:
    """The factory ``controller`` names, as :func:`factory` imported it from a folder in this process;
    nothing is imported here. ControllerError when it was not: a scenario read from a log's header
    names code that no folder the user named holds."""
    made = _IMPORTED.get(controller)
    if made is None:
        raise ControllerError(
            f"controller {controller!r}: its code was not imported: affray imports a controller only from "
            "the folder of the scenario file that names it, or from the folder whatif --controllers names"
        )
    return made


def _module(controller: str, module_name: str, folder: Path) -> Any:
    """The module ``module_name``, its top-level package loaded from ``folder`` unless loaded from there
    already."""
    top = module_name.partition(".")[0]
    spec = PathFinder.find_spec(top, [str(folder)])
    if spec is None:
        raise ControllerError(
            f"controller {controller!r}: cannot import {module_name}: {folder} holds no module or package "
            f"{top} (a controller is imported from that folder only)"
        )
    loaded = sys.modules.get(top)
    if loaded is None:
        _load(controller, top, spec)
    elif _home(loaded) != folder:
        home = _home(loaded)
        where = f"from {home}" if home is not None else "built into Python"
        raise ControllerError(
            f"controller {controller!r}: a module named {top} is imported already, {where}, so the {top} "
            f"in {folder} cannot be; give your package a name of its own"
        )
    return _imported(controller, module_name)


def _home(module: ModuleType) -> Path | None:
    """The folder a module or package was imported from (None: it is built in, or was made in memory)."""
    places = getattr(module, "__path__", None)
    if places is not None:
        homes = {Path(place).parent.resolve() for place in places}
        return homes.pop() if len(homes) == 1 else None
    file = getattr(module, "__file__", None)
    return Path(file).parent.resolve() if isinstance(file, str) else None


def _load(controller: str, top: str, spec: ModuleSpec) -> None:
    """Load the top-level module or package of ``spec`` as ``top``; a namespace package keeps the one
    folder it was found in as its whole path."""
    namespace = spec.loader is None and spec.submodule_search_locations is not None
    module = importlib.util.module_from_spec(spec)
    if namespace:
        module.__path__ = list(module.__path__)
    sys.modules[top] = module
    try:
        if spec.loader is not None:
            spec.loader.exec_module(module)
    except ImportError as exc:
        sys.modules.pop(top, None)
        raise ControllerError(f"controller {controller!r}: cannot import {top}: {exc}") from None
    except Exception as exc:  # the user's module failed as it was imported
        sys.modules.pop(top, None)
        failed = where_it_failed(exc)
        raise ControllerError(f"controller {controller!r}: importing {top} failed: {failed}") from None
    except BaseException:
        sys.modules.pop(top, None)
        raise


def _imported(controller: str, module_name: str) -> Any:
    """``module_name`` imported, its top-level package loaded already (a module inside it is found in
    the package's own folder)."""
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        raise ControllerError(f"controller {controller!r}: cannot import {module_name}: {exc}") from None
    except Exception as exc:  # the user's module failed as it was imported
        failed = where_it_failed(exc)
        raise ControllerError(
            f"controller {controller!r}: importing {module_name} failed: {failed}"
        ) from None
