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
import math
import sys
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from hashlib import blake2b
from pathlib import Path
from typing import Any

import msgspec

from affray.errors import ControllerError, excerpt
from affray.events.shared import Score

EXTERNAL = "external"
"""The controller of a combatant played step by step from outside the run (the PettingZoo environment)."""


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
    found = []
    for option, score in scores.items():
        if not isinstance(option, str) or isinstance(score, bool) or not isinstance(score, int | float):
            raise ControllerError(f"{who} scored {_quoted(option)} as {_quoted(score)}: want text: number")
        if not math.isfinite(score):
            raise ControllerError(f"{who} scored {option!r} as {score}: a score is a finite number")
        found.append(Score(option=option, score=float(score)))
    return tuple(found)


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


def factory(controller: str, folder: Path | None = None) -> Callable[[Seat], Any]:
    """The factory ``package.module:factory`` names, imported from ``folder`` (the folder of the scenario
    file that names it, put at the front of the import path), else from the import path, else from the
    current directory; ControllerError says why it cannot be had."""
    module_name, _, name = controller.partition(":")
    if folder is not None:
        _on_path(str(folder.resolve()), first=True)
    try:
        found: Any = _imported(controller, module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name.partition(".")[0] or str(Path.cwd()) in sys.path:
            raise _unimportable(controller, module_name, exc, folder) from None
        _on_path(str(Path.cwd()), first=False)
        try:
            found = _imported(controller, module_name)
        except ImportError as again:
            raise _unimportable(controller, module_name, again, folder) from None
    except ImportError as exc:
        raise _unimportable(controller, module_name, exc, folder) from None
    for part in name.split("."):
        if not hasattr(found, part):
            raise ControllerError(f"controller {controller!r}: {module_name} has no {name}")
        found = getattr(found, part)
    if not callable(found):
        raise ControllerError(f"controller {controller!r}: {name} is not callable")
    return found  # type: ignore[no-any-return]


def _on_path(folder: str, *, first: bool) -> None:
    if folder not in sys.path:
        sys.path.insert(0, folder) if first else sys.path.append(folder)


def _imported(controller: str, module_name: str) -> Any:
    try:
        return importlib.import_module(module_name)
    except ImportError:
        raise
    except Exception as exc:  # the user's module failed as it was imported
        failed = where_it_failed(exc)
        raise ControllerError(
            f"controller {controller!r}: importing {module_name} failed: {failed}"
        ) from None


def _unimportable(
    controller: str, module_name: str, exc: ImportError, folder: Path | None
) -> ControllerError:
    places = [str(folder.resolve())] if folder is not None else []
    places += ["the import path", str(Path.cwd())]
    return ControllerError(
        f"controller {controller!r}: cannot import {module_name}: {exc} (looked in {', '.join(places)})"
    )
