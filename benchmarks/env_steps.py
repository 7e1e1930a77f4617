"""PettingZoo steps per second: random legal actions on the examples, this copy against an older commit.

Each copy plays ``--steps`` agent steps of ``affray.envs.env(EXAMPLE)`` with actions sampled from the
observation's action mask (the loop of docs/envs.md; episodes reset as they end, seeds 1, 2, ...) in a
fresh process, the copies taken in turn ``--repeat`` times; the medians are compared.

    python benchmarks/env_steps.py [--baseline REV] [--steps N] [--repeat R] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys

from baseline import ISSUE_BASELINE, ROOT, checkout, in_turn

SCENARIOS = ("duel", "skirmish")
_MEASURE = """
import json, sys, time
import numpy as np
from affray.envs import env
game, wanted = env(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(0)
def play(steps):
    seed, done = 1, 0
    while done < steps:
        game.reset(seed=seed)
        seed += 1
        for agent in game.agent_iter():
            observation, reward, terminated, truncated, info = game.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(rng.choice(legal)) if len(legal) else None
            game.step(action)
            done += 1
            if done >= steps:
                break
play(wanted // 10)
started = time.perf_counter()
play(wanted)
import affray
print(json.dumps({"from": affray.__file__, "per_s": wanted / (time.perf_counter() - started)}))
"""


def main() -> int:
    """Parse the options, measure both copies in turn, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--baseline", default=ISSUE_BASELINE, help=f"the older commit (default {ISSUE_BASELINE})"
    )
    parser.add_argument(
        "--steps", type=int, default=20000, help="agent steps per measurement (default 20000)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the median counts (default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = {}
    with checkout(args.baseline) as old:
        copies = {"now": ROOT, "baseline": old}
        for name in SCENARIOS:
            scenario = str(ROOT / "examples" / f"{name}.toml")
            rates = in_turn(_MEASURE, [scenario, str(args.steps)], copies, args.repeat, "per_s")
            figures[name] = {**rates, "ratio": rates["now"] / rates["baseline"]}
    if args.json:
        print(json.dumps({"baseline": args.baseline, "figures": figures}))
        return 0
    print(
        f"env_steps: PettingZoo agent steps/s, random legal actions, median of {args.repeat}, "
        f"against {args.baseline}"
    )
    for name, f in figures.items():
        print(f"  {name:<9} now {f['now']:8,.0f}/s  baseline {f['baseline']:8,.0f}/s  x{f['ratio']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
