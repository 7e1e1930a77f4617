"""A PettingZoo AEC environment over the kernel: the combatants chosen as agents are played step by step.

The encounter runs on its own clock; when an agent's process comes to a decision, the run pauses and that
agent is selected. Its action is an index into its menu of intents (fixed for the scenario); the
observation carries an ``action_mask`` of the intents the rules allow now. Each decision is recorded as
an ``intent_chosen`` event, so every episode is an ordinary affray log (:meth:`AffrayEnv.log`) that
``affray verify`` re-simulates. docs/envs.md describes rewards, observations and seeding.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import gymnasium
import msgspec
import numpy as np
from pettingzoo import AECEnv

from affray import rulesets
from affray.batch.seeds import run_seed
from affray.errors import ScenarioError
from affray.events.codec import encode_log
from affray.events.shared import TIME_LIMIT
from affray.kernel.encounter import Encounter
from affray.kernel.ruleset import Questions, Reading, Ruleset, SteppedBattle
from affray.npc.outside import Decision
from affray.replays.narrate import tell

WIN, LOSS = 1.0, -1.0
"""The reward of an agent whose side wins, and of one that is out or whose side loses."""


class AffrayEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """An affray encounter as an agent-environment-cycle game; made by :func:`affray.envs.env`."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "affray_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: Ruleset[Any, Any],
        scenario: Any,
        players: Sequence[str] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if ruleset.seating is None:
            why = ruleset.unseated or "it offers no seating"
            raise ScenarioError(
                f"ruleset {ruleset.name}: its combatants cannot be played from outside: {why}"
            )
        self._ruleset, self._seating = ruleset, ruleset.seating
        playable = self._seating.players(scenario)
        chosen = tuple(players) if players is not None else playable
        unknown = [p for p in chosen if p not in playable]
        if unknown or not chosen:
            raise ScenarioError(f"agents: {', '.join(unknown) or 'none'}: choose among {', '.join(playable)}")
        self._scenario = self._seating.seated(scenario, chosen)
        self._base_seed = int(scenario.seed)
        self._episodes = 0
        self.render_mode = render_mode
        self.possible_agents = list(chosen)
        battle = self._battle(self._scenario)
        self._menus = {a: self._seating.menu(battle, a) for a in chosen}
        size = len(self._seating.observe(self._scenario, _empty_state(battle, self._scenario), chosen[0], 0))
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(-np.inf, np.inf, (size,), np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (len(self._menus[a]),), np.int8),
                }
            )
            for a in chosen
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(len(self._menus[a])) for a in chosen}
        self._encounter: Encounter[Any] | None = None
        self._told = 0

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The agent's observation: its numbers and the mask of its legal actions."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """An index into the agent's menu of intents (:meth:`intents`)."""
        return self.action_spaces[agent]

    def intents(self, agent: str) -> tuple[Any, ...]:
        """The agent's menu: action ``i`` is intent ``intents(agent)[i]``."""
        return self._menus[agent]

    def _battle(self, scenario: Any) -> SteppedBattle:
        battle: SteppedBattle = self._ruleset.battle(scenario)  # type: ignore[assignment]
        return battle

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode: with ``seed``, the encounter's seed; without, the next of the scenario's
        ``affray battle`` seeds (run 0, 1, ... of its own seed), so that any episode can be re-made."""
        self._seed = seed if seed is not None else run_seed(self._base_seed, self._episodes)
        self._episodes += 1
        self._scenario_now = msgspec.structs.replace(self._scenario, seed=self._seed)
        battle = self._battle(self._scenario_now)
        self._questions: Questions = battle.step_outside()
        self._encounter = battle.start(keep_log=True)
        self._running = battle
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._told = 0
        self._advance()

    def _advance(self) -> None:
        """Run until an agent is asked or the encounter ends, then settle rewards and who is done."""
        encounter = self._encounter
        assert encounter is not None
        while self._questions.waiting is None and not encounter.finished.processed:
            if encounter.peek() == float("inf"):
                break
            encounter.step()
        ended = encounter.finished.processed or self._questions.waiting is None
        if ended:
            self._running.close(encounter)
        self._settle(encounter, ended)
        waiting = self._questions.waiting
        if waiting is not None:
            self.agent_selection = waiting[0]
        self._deads_step_first()

    def _settle(self, encounter: Encounter[Any], ended: bool) -> None:
        state = encounter.state
        timed_out = state.winner is None and (state.end_reason or "").startswith(TIME_LIMIT)
        for agent in self.agents:
            if self.terminations[agent] or self.truncations[agent]:
                continue
            me = state.combatants.get(agent)
            if me is None:  # its side has not joined (a five-step side may join late)
                self.truncations[agent] = ended
                continue
            if me.out:
                self.rewards[agent] = LOSS
                self.terminations[agent] = True
            elif ended:
                won = state.winner == me.side
                self.rewards[agent] = WIN if won else LOSS if state.winner else 0.0
                self.terminations[agent] = not timed_out
                self.truncations[agent] = timed_out
        self._accumulate_rewards()
        if not self.agents or self._questions.waiting is None:
            self.agent_selection = self.agents[0] if self.agents else ""

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's numbers now and the mask of the intents the rules allow it now (all 0 unless it
        is the one asked)."""
        encounter = self._encounter
        assert encounter is not None
        seen = self._seating.observe(self._scenario_now, encounter.state, agent, int(encounter.now))
        mask = np.zeros(len(self._menus[agent]), np.int8)
        waiting = self._questions.waiting
        if waiting is not None and waiting[0] == agent:
            legal = set(waiting[1].legal())
            mask[:] = [intent in legal for intent in self._menus[agent]]
        return {"observation": np.asarray(seen, np.float32), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Answer the selected agent's decision with intent number ``action`` of its menu (the rules
        refuse one they do not allow now, as they would any controller's); a done agent steps with None."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not 0 <= int(action) < len(self._menus[agent]):
            raise ValueError(f"{agent}: action {action!r} is not in 0..{len(self._menus[agent]) - 1}")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        intent = self._menus[agent][int(action)]
        self._questions.answer(Decision(intent, reason=f"action {int(action)}"))
        self._advance()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the events since the last render, told one per line."""
        if self.render_mode != "ansi" or self._encounter is None:
            return None
        reading = Reading(self._ruleset, tuple(rulesets.modules_of(self._scenario_now)))
        events = self._encounter.log
        told = [t.text for t in tell(events, reading.vocabulary(), reading.tellers())][self._told :]
        self._told = len(events)
        return "\n".join(told)

    def log(self) -> bytes:
        """The episode so far as an affray log (JSON Lines, chained): it verifies once the episode ends."""
        assert self._encounter is not None
        return encode_log(rulesets.header(self._ruleset, self._scenario_now), self._encounter.log)

    def write_log(self, path: Path) -> None:
        """Write :meth:`log` to ``path`` (a new file: an existing one is not overwritten)."""
        with Path(path).open("xb") as out:
            out.write(self.log())

    def close(self) -> None:
        """Nothing is held open between episodes."""
        self._encounter = None


def _empty_state(battle: SteppedBattle, scenario: Any) -> Any:
    """The state once every combatant has joined (to size the observation)."""
    battle.step_outside()
    return battle.start(keep_log=False).state
