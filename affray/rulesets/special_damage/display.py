"""What ``affray state`` shows of the special_damage module: injuries and what they do (rules S4, S5),
equipment, weapons and programs lost, alarms raised (S3, S6)."""

from __future__ import annotations

from affray.events.special_damage.kinds import Injury
from affray.events.special_damage.state import Carrier
from affray.replays.telling import number


def _effects(injury: Injury) -> list[str]:
    effects = [
        f"{injury.to_hit:+d} to hit" if injury.to_hit else "",
        f"{number(injury.movement)} m/s" if injury.movement else "",
        f"at most {number(injury.movement_max)} m/s" if injury.movement_max is not None else "",
        "cannot move" if injury.cannot_move else "",
        f"{injury.skills:+d}% skills" if injury.skills else "",
        f"{injury.int_log:+d} INT/LOG" if injury.int_log else "",
        f"{injury.dex_rs:+d} DEX/RS" if injury.dex_rs else "",
        f"{injury.carry_kg:+d} kg carried" if injury.carry_kg else "",
        f"{injury.malfunction_chance}% malfunction" if injury.malfunction_chance else "",
        f"{injury.repair_penalty:+d}% to repair" if injury.repair_penalty else "",
    ]
    return [effect for effect in effects if effect]


def details(c: Carrier) -> list[str]:
    """One line per injury with its effects, then what it lost."""
    special = c.special
    lines = []
    for injury in special.injuries:
        listed = ", ".join(_effects(injury))
        lines.append(f"injury: {injury.name}" + (f" ({listed})" if listed else ""))
    if special.lost:
        lines.append("lost: " + ", ".join(f"{units} {name}" for name, units in special.lost.items()))
    if special.destroyed_weapons:
        lines.append("weapons destroyed: " + ", ".join(special.destroyed_weapons))
    if special.programs_lost:
        lines.append("programs lost: " + ", ".join(special.programs_lost))
    if special.alarms:
        lines.append("alarms raised: " + ", ".join(special.alarms))
    return lines
