"""The registry of rulesets and modules: the one place that names the built-in ones.

Every tool asks here for the ruleset of a scenario or a log (``ruleset(name)``) and works against the
:class:`~affray.kernel.ruleset.Ruleset` it gets. Built-in rulesets and modules are imported when first
asked for; others come from installed packages through the ``affray.rulesets`` and ``affray.modules``
entry-point groups (each entry point names a ``Ruleset`` or ``Module`` value), or from ``register`` (tests,
scripts). docs/extending.md tells how to write one.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from affray.errors import (
    AffrayError,
    LogError,
    ScenarioError,
    excerpt,
    open_user_file,
    printable,
    read_user_file,
)
from affray.events.codec import LogHeader
from affray.events.sealed import Sealing
from affray.events.vocabulary import Vocabulary
from affray.kernel.fairseed import FairSeed, seed_of
from affray.kernel.ruleset import Module, Reading, Recorded, Ruleset
from affray.kernel.scenario import parse_toml, path_first, recorded_mapping

BUILT_IN_RULESETS = {"energion": "affray.rulesets.energion", "fivestep": "affray.rulesets.fivestep"}
BUILT_IN_MODULES = {"special_damage": "affray.rulesets.special_damage"}
RULESET_GROUP = "affray.rulesets"
MODULE_GROUP = "affray.modules"

_rulesets: dict[str, Ruleset[Any, Any]] = {}
_modules: dict[str, Module] = {}


class _Modules(msgspec.Struct):
    """The one field of a header's scenario that the vocabulary depends on."""

    modules: list[str] = msgspec.field(default_factory=list)


class UnknownRuleset(AffrayError):
    """A ruleset or module that is neither built in, installed nor registered."""


def register(item: Ruleset[Any, Any] | Module) -> None:
    """Make a ruleset or module known by its name (a later registration of the same name replaces it)."""
    if isinstance(item, Ruleset):
        _rulesets[item.name] = item
    else:
        _modules[item.name] = item


def unregister(name: str) -> None:
    """Forget a registered ruleset or module (tests register their own and forget them after)."""
    _rulesets.pop(name, None)
    _modules.pop(name, None)


def _installed(group: str) -> dict[str, Any]:
    """The entry points of ``group`` (importlib.metadata, a tenth of affray's start-up, loads only here)."""
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=group)}


def ruleset_names() -> list[str]:
    """Every ruleset affray can run now: built in, installed or registered."""
    return sorted({*BUILT_IN_RULESETS, *_installed(RULESET_GROUP), *_rulesets})


def module_names() -> list[str]:
    """Every module affray can carry now: built in, installed or registered."""
    return sorted({*BUILT_IN_MODULES, *_installed(MODULE_GROUP), *_modules})


def _find(name: str, known: dict[str, Any], built_in: Mapping[str, str], group: str, kind: type) -> Any:
    plugin = known.get(name)
    if plugin is not None:
        return plugin
    if name in built_in:
        plugin = getattr(importlib.import_module(built_in[name]), kind.__name__.upper())
    else:
        point = _installed(group).get(name)
        if point is not None:
            plugin = point.load()
    if plugin is None:
        return None
    if not isinstance(plugin, kind):
        raise UnknownRuleset(f"{name}: the entry point of {group} does not name a {kind.__name__}")
    known[name] = plugin
    return plugin


def ruleset(name: str) -> Ruleset[Any, Any]:
    """The ruleset called ``name``; UnknownRuleset (a user error) lists the ones there are."""
    loaded: Ruleset[Any, Any] | None = _find(name, _rulesets, BUILT_IN_RULESETS, RULESET_GROUP, Ruleset)
    if loaded is None:
        raise UnknownRuleset(f"no ruleset {excerpt(name)!r} (installed: {', '.join(ruleset_names())})")
    return loaded


def module(name: str) -> Module:
    """The module called ``name``."""
    loaded: Module | None = _find(name, _modules, BUILT_IN_MODULES, MODULE_GROUP, Module)
    if loaded is None:
        raise UnknownRuleset(f"no module {excerpt(name)!r} is installed")
    return loaded


def modules_of(scenario: Any) -> list[Module]:
    """The modules a loaded scenario turns on."""
    return [module(name) for name in scenario.modules]


def header(ruleset: Ruleset[Any, Any], scenario: Any) -> LogHeader:
    """The header of a log of ``scenario``, pinning the modules it turns on and every data file used."""
    return ruleset.header(scenario, modules_of(scenario))


def _ruleset_of(raw: object, source: str) -> Ruleset[Any, Any]:
    name = raw.get("ruleset") if isinstance(raw, dict) else None
    if not isinstance(name, str):
        names = ", ".join(map(repr, ruleset_names()))
        raise ScenarioError(f"{source}: $.ruleset: name the ruleset, one of {names}")
    try:
        return ruleset(name)
    except UnknownRuleset as exc:
        raise ScenarioError(f"{source}: $.ruleset: {exc}") from None


def with_fair_seed(raw: Any, source: str) -> Any:
    """A scenario mapping whose ``[fair_seed]`` gives its seed: the seed the revealed secrets derive, put
    in when ``seed`` is left out (kernel/fairseed.py); ScenarioError when the secrets do not hold or the
    scenario's own seed is another."""
    if not isinstance(raw, dict) or "fair_seed" not in raw:
        return raw
    try:
        fair = msgspec.convert(raw["fair_seed"], FairSeed)
    except msgspec.ValidationError as exc:
        raise ScenarioError(f"{source}: {path_first(str(exc)).replace('$', '$.fair_seed', 1)}") from None
    seed = seed_of(fair, source)
    given = raw.get("seed", seed)
    if given != seed:
        raise ScenarioError(
            f"{source}: $.seed: {excerpt(repr(given))} is not the seed the revealed secrets give ({seed}); "
            "leave seed out"
        )
    return {**raw, "seed": seed}


LOG_START = b'{"format":"affray-log"'
"""How every affray log begins."""


def load_scenario(path: Path) -> tuple[Ruleset[Any, Any], Any]:
    """Read the scenario file at ``path`` under its ruleset (files it names are read from its folder); a
    log given for a scenario is refused as one, however large."""
    with open_user_file(path, ScenarioError, "a scenario file") as file:
        if file.read(len(LOG_START)) == LOG_START:
            raise ScenarioError(
                f"{printable(str(path))}: is an affray log, not a scenario: `affray replay` tells it, "
                "`affray verify` checks it"
            )
    raw = parse_toml(read_user_file(path, ScenarioError, "a scenario file"), str(path))
    return load_mapping(raw, str(path), path.parent)


def load_mapping(raw: Any, source: str, folder: Path | None) -> tuple[Ruleset[Any, Any], Any]:
    """A scenario's mapping (as a file's TOML gives it) loaded under its ruleset; errors name ``source``."""
    chosen = _ruleset_of(raw, source)
    return chosen, chosen.load(with_fair_seed(raw, source), source, folder)


def recorded(header: LogHeader, source: str) -> Recorded:
    """The ruleset, scenario and modules a log's header records, the scenario checked as a file would be."""
    where = f"{source}: line 1 (header)"
    if isinstance(header.sealed, Sealing):
        raise LogError(
            f"{where}: a players' copy withholds its seed and sealed rolls, so its fight cannot be run "
            "again; the referee's log can (affray reveal)"
        )
    try:
        raw = recorded_mapping(header)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise LogError(f"{where}: the scenario is damaged ({exc})") from None
    chosen = _header_ruleset(header, where)
    scenario = chosen.load(with_fair_seed(raw, where), f"{where} scenario", None)
    return Recorded(
        ruleset=chosen, modules=tuple(modules_of(scenario)), scenario=scenario, source=f"{where} scenario"
    )


def _header_ruleset(header: LogHeader, where: str) -> Ruleset[Any, Any]:
    try:
        return ruleset(header.ruleset)
    except UnknownRuleset as exc:
        raise LogError(f"{where}: {exc}") from None


def reading(header: LogHeader, source: str) -> Reading:
    """The ruleset and modules a log's header names: all that reading, telling and showing it needs (the
    scenario itself is not checked: a log is read even when today's rules would refuse its scenario)."""
    where = f"{source}: line 1 (header)"
    chosen = _header_ruleset(header, where)
    try:
        modules: Sequence[str] = msgspec.json.decode(header.scenario, type=_Modules).modules
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
        raise LogError(f"{where}: the scenario's modules cannot be read ({exc})") from None
    unknown = sorted(set(modules) - set(chosen.modules))
    if unknown:
        raise LogError(f"{where}: ruleset {chosen.name} has no module {excerpt(unknown[0])!r}")
    modules_on = tuple(module(name) for name in modules)
    return Reading(ruleset=chosen, modules=modules_on, sealed=isinstance(header.sealed, Sealing))


def vocabulary_for(header: LogHeader, source: str) -> Vocabulary[Any]:
    """The vocabulary a log is read with: its ruleset's, with the modules its scenario turns on."""
    return reading(header, source).vocabulary()
