"""Reinforcement-learning environments over affray: ``affray.envs.env(SCENARIO)`` is a PettingZoo AEC
environment (PettingZoo's ``env()`` convention). docs/envs.md is the guide."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from affray import rulesets
from affray.envs.aec import AffrayEnv


def env(
    scenario: str | Path | Any, agents: Sequence[str] | None = None, render_mode: str | None = None
) -> AffrayEnv:
    """An AEC environment of ``scenario`` (a scenario file's path, or a scenario loaded already), its
    ``agents`` (by id; every combatant that acts, by default) played by the caller, the others by their
    scenario's controllers."""
    if isinstance(scenario, str | Path):
        ruleset, loaded = rulesets.load_scenario(Path(scenario))
    else:
        ruleset, loaded = rulesets.ruleset(scenario.ruleset), scenario
    return AffrayEnv(ruleset, loaded, agents, render_mode)


raw_env = env
"""PettingZoo's name for the environment before any wrapper (affray's has none)."""

__all__ = ["AffrayEnv", "env", "raw_env"]
