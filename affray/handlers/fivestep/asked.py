"""A declaration asked of a character played from outside affray (rule F7), step by step, at the instant
it declares: each time it is offered the steps the rules allow after those it has declared
(:mod:`.legal`), until it declares nothing more. Each answer is recorded (``step_chosen``), so a log
re-simulates without the controller's code; a step the rules do not allow is refused and ends the
declaration."""

from __future__ import annotations

import functools
from collections.abc import Generator, Mapping
from typing import Any

from affray.events.fivestep.kinds import StepChosen
from affray.events.fivestep.steps import Step
from affray.events.shared import ActionRefused
from affray.handlers.fivestep.fighters import Fighter
from affray.handlers.fivestep.host import Arena, FivestepHost
from affray.handlers.fivestep.legal import MOST_STEPS, allowed, legal, menu
from affray.handlers.outside import Offer, Outside, Reply
from affray.npc.fivestep.controllers import TurnView
from affray.npc.outside import Chosen


def menu_for(fighters: Mapping[str, Fighter], character: str) -> tuple[Step | None, ...]:
    """The :func:`.legal.menu` of ``character`` against the characters of the other sides, in file
    order."""
    fighter = fighters[character]
    return menu(fighter, [f.id for f in fighters.values() if f.spec.side != fighter.spec.side])


def asked_steps(
    encounter: Arena, battle: FivestepHost, fighter: Fighter, view: TurnView, player: Outside
) -> Generator[Any, Any, list[Step]]:
    """The steps ``player`` declares for ``fighter`` now, asked one at a time (an answer awaited from
    outside the run is yielded for)."""
    decisions = battle.decisions[fighter.id]
    offered = menu_for(battle.fighters, fighter.id)
    steps: list[Step] = []
    while len(steps) < MOST_STEPS:
        so_far = tuple(steps)
        offer = Offer(lambda: view, functools.partial(legal, view, offered, so_far))
        asked = decisions.ask(encounter, fighter.id, offer)
        made: Chosen = (yield asked) if isinstance(asked, Reply) else asked
        step = made.intent
        encounter.emit(
            StepChosen(combatant=fighter.id, controller=player.name, step=step, scores=made.scores)
        )
        if step is None:
            break
        if not allowed(view, offered, so_far, step):
            reason = "not a step the rules allow now (the points, shots and reach left, or borrowing)"
            encounter.emit(ActionRefused(combatant=fighter.id, action=step.words(), reason=reason))
            break
        steps.append(step)
    return steps
