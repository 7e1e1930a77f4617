"""Controllers from outside affray as the commands meet them in a log: which combatants of a recorded
scenario are played from outside, and importing the factories a log names from the folder the user gives
(``affray whatif --controllers DIR``). Nothing here imports code unless given that folder."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from affray.errors import AffrayError
from affray.npc.outside import EXTERNAL, factory, is_outside

__all__ = ["EXTERNAL", "import_factories", "played_from_outside"]


def played_from_outside(scenario: Mapping[str, Any]) -> dict[str, str]:
    """The combatants of a scenario as a log's header holds it (its ``combatants``, each with an ``id``
    and a ``controller``) that code outside affray plays, or that are played step by step, and their
    controllers."""
    combatants = scenario.get("combatants")
    return {
        str(c.get("id")): c["controller"]
        for c in (combatants if isinstance(combatants, list) else [])
        if isinstance(c, dict) and isinstance(c.get("controller"), str) and is_outside(c["controller"])
    }


def import_factories(controllers: Iterable[str], folder: Path, flag: str) -> None:
    """Import each factory ``controllers`` name (``external`` has none) from ``folder``, and only from
    there, before anything runs; an error names ``flag``, the option that gave the folder."""
    for controller in sorted(set(controllers) - {EXTERNAL}):
        try:
            factory(controller, folder)
        except AffrayError as exc:
            raise AffrayError(f"{flag} {folder}: {exc}") from None
