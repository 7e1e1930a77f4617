"""The special_damage module (seed 001): special damage over Energion or fivestep, rules S1-S10, with
healing and robot repair on the long clock after a fight (``affray heal``).

docs/rulesets/special_damage.md says how it maps onto each host and lists its rulings.
"""

from __future__ import annotations

from affray.events.special_damage.state import SPECIAL_DAMAGE
from affray.handlers.special_damage.aftermath import run_aftermath, started_by, summary
from affray.kernel.ruleset import Aftermath, Module, package_data
from affray.rulesets.special_damage.display import details
from affray.rulesets.special_damage.explanation import EXPLAINERS
from affray.rulesets.special_damage.marks import MARKERS
from affray.rulesets.special_damage.narration import TELLERS
from affray.rulesets.special_damage.tables import tables

MODULE = Module(
    name="special_damage",
    version="4",
    description="wounds, robot damage, computers' programs and lost equipment; healing and repair",
    part=SPECIAL_DAMAGE,
    tellers=TELLERS,
    explainers=EXPLAINERS,
    details=details,
    aftermath=Aftermath(started_by=started_by, run=run_aftermath, summary=summary),
    tables=tables,
    markers=MARKERS,
    data=package_data("affray.rules.special_damage"),
)
"""The special_damage module."""
