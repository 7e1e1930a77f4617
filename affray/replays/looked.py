"""The combatants of a state being folded, noting those an event's applier looked up: a reading that
shows what changed at each event (the page's frames, the timeline's health) looks at those alone."""

from __future__ import annotations

from typing import Any


class Looked(dict[str, Any]):
    """A state's combatants, noting which were looked up since ``fresh()``: an applier changes a combatant
    only through them (docs/extending.md), so the others are as they were."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.everyone = False

    def fresh(self) -> tuple[set[str], bool]:
        """The ids looked up since last asked, and whether every combatant was (by ``values``, say)."""
        looked = self.ids, self.everyone
        self.ids, self.everyone = set(), False
        return looked

    def __getitem__(self, key: str) -> Any:
        self.ids.add(key)
        return super().__getitem__(key)

    def __setitem__(self, key: str, value: Any) -> None:
        self.ids.add(key)
        super().__setitem__(key, value)

    def get(self, key: str, default: Any = None) -> Any:
        """The combatant ``key``, noted as looked up."""
        self.ids.add(key)
        return super().get(key, default)

    def values(self) -> Any:
        """Every combatant, each noted as looked up."""
        self.everyone = True
        return super().values()

    def items(self) -> Any:
        """Every combatant with its id, each noted as looked up."""
        self.everyone = True
        return super().items()
