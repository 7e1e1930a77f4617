"""Random agents in the PettingZoo environment: a few episodes of a scenario, each one an affray log.

Run it:    python examples/random_agents.py examples/skirmish.toml --episodes 3 --logs episodes/
Check one: affray verify episodes/episode-0.jsonl

Every agent takes a random legal action (sampled under its ``action_mask``); the logs it writes verify
like any fight's, and ``affray replay`` tells them.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from affray.envs import env


def play(scenario: Path, episodes: int, logs: Path | None, seed: int) -> None:
    """Play ``episodes`` episodes with random agents and print each one's outcome."""
    game = env(scenario)
    for episode in range(episodes):
        game.reset(seed=seed + episode)
        for i, agent in enumerate(game.possible_agents):
            game.action_space(agent).seed(seed + episode * 100 + i)
        totals = dict.fromkeys(game.possible_agents, 0.0)
        for agent in game.agent_iter():
            observation, reward, terminated, truncated, _ = game.last()
            totals[agent] += reward
            action = (
                None
                if terminated or truncated
                else game.action_space(agent).sample(observation["action_mask"])
            )
            game.step(action)
        print(f"episode {episode} (seed {seed + episode}): rewards {totals}")
        if logs is not None:
            logs.mkdir(parents=True, exist_ok=True)
            game.write_log(logs / f"episode-{episode}.jsonl")
    game.close()


def main() -> None:
    """Read the command line and play."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", type=Path)
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--logs", type=Path, help="write each episode's log into this folder")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    play(arguments.scenario, arguments.episodes, arguments.logs, arguments.seed)


if __name__ == "__main__":
    main()
