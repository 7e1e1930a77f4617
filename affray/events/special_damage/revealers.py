"""The special_damage module's fields that reveal a roll beyond the roll itself, which a players' copy
withholds with the rolls of sealed streams (affray.events.sealed)."""

from __future__ import annotations

from collections.abc import Iterator

from affray.events.sealed import Revealer
from affray.events.special_damage.kinds import SpecialDamage


def revealers(hit_purpose: str) -> dict[type, Revealer]:
    """The module's revealers under a host whose to-hit rolls are on the streams ``ATTACKER/hit_purpose``."""

    def special(event: SpecialDamage) -> Iterator[tuple[str, str]]:
        """S1: the host's to-hit roll, copied; S2: the type roll's total with its modifiers."""
        yield "/hit_roll", f"{event.attacker}/{hit_purpose}"
        yield "/total", event.type_roll.stream

    return {SpecialDamage: special}
