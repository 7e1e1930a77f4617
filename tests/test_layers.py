"""The package's layering, read from its imports (``TYPE_CHECKING`` ones included): which layer may import
which, no shared module naming a ruleset, and no import cycle (docs/extending.md, "The layers"); and, read
from its string constants, no module naming the event kinds of a ruleset or module it is not part of."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from affray import rulesets
from affray.events import shared
from affray.events.base import Event
from affray.events.shared import kind_of
from affray.events.vocabulary import Part
from affray.rulesets import BUILT_IN_MODULES, BUILT_IN_RULESETS

PACKAGE = Path(__file__).resolve().parent.parent / "affray"
RULESETS = (*BUILT_IN_RULESETS, *BUILT_IN_MODULES)
"""The built-in rulesets and modules: each has a package under events, handlers, npc and rulesets."""
LAYERED = ("events", "handlers", "npc", "rulesets", "rules")
MAY_IMPORT = {
    "rules": {"rules"},
    "events": {"events"},
    "kernel": {"events", "kernel"},
    "handlers": {"events", "kernel", "rules", "npc", "handlers"},
    "npc": {"events", "kernel", "rules", "npc"},
    "replays": {"events", "kernel", "replays"},
    "batch": {"events", "kernel", "rulesets", "batch"},
    "stores": {"events", "stores"},
    "cli": {"events", "kernel", "replays", "rulesets", "batch", "stores", "cli"},
    "envs": {"events", "kernel", "npc", "replays", "rulesets", "batch", "envs"},
    # the contract suite (testing/contract.py) checks the kernel's interfaces and affray odds' sums itself
    "testing": {"events", "kernel", "replays", "rulesets", "batch", "stores", "cli", "testing"},
    "rulesets": {"events", "kernel", "rules", "npc", "handlers", "replays", "rulesets"},
}
"""Which layers each layer's modules may import (besides the top: ``affray``, its errors and names)."""
HOSTED = {"energion": {"special_damage"}, "fivestep": {"special_damage"}}
"""Host rulesets know the modules they carry: their battles build them, their states hold theirs."""


def _name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, set[str]]:
    """Every module of the package and the affray modules it imports, whether at run time or for typing."""
    found: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        name = _name(path)
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                imported.add(node.module)
                imported.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
        found[name] = imported - {name}  # ``from package import submodule`` in its __init__ is no cycle
    return {name: {i for i in imported if i in found} for name, imported in found.items()}


def layer(module: str) -> str:
    """The layer a module belongs to: ``kernel``, ``events``, ..., ``cli``; ``top`` for the shared base
    (affray, affray.errors, affray.files, affray.names, affray.colours, affray.drawing,
    affray.stops, affray.process)."""
    parts = module.split(".")
    top = ("errors", "files", "names", "colours", "drawing", "stops", "process", "__main__")
    if len(parts) == 1 or parts[1] in top:
        return "top"
    return parts[1]


def ruleset_of(module: str) -> str | None:
    """The ruleset or module whose package holds ``module`` (None for a shared module)."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] in LAYERED and parts[2] in RULESETS:
        return parts[2]
    return None


SHARED = sorted(
    m
    for m in modules()
    if ruleset_of(m) is None and layer(m) in ("kernel", "events", "replays", "cli", "envs", "testing")
)


def test_the_package_is_read() -> None:
    assert {"affray.kernel.encounter", "affray.events.energion.kinds", "affray.cli"} <= modules().keys()


@pytest.mark.parametrize("module", SHARED)
def test_a_shared_module_imports_no_ruleset(module: str) -> None:
    named = sorted(i for i in modules()[module] if ruleset_of(i) is not None)
    assert not named, f"{module} imports {named}"


@pytest.mark.parametrize("module", sorted(modules()))
def test_each_layer_imports_only_the_layers_below_it(module: str) -> None:
    own = layer(module)
    if own == "top":
        return
    allowed = MAY_IMPORT[own] | {"top"}
    wrong = sorted(i for i in modules()[module] if layer(i) not in allowed)
    assert not wrong, f"{module} ({own}) imports {wrong}"


@pytest.mark.parametrize("module", sorted(m for m in modules() if ruleset_of(m) is not None))
def test_a_ruleset_imports_no_other_ruleset_but_the_modules_it_carries(module: str) -> None:
    own = ruleset_of(module)
    assert own is not None
    others = {ruleset_of(i) for i in modules()[module]} - {None, own}
    assert others <= HOSTED.get(own, set()), f"{module} imports {sorted(others)}"  # type: ignore[type-var]


def _cycle() -> list[str] | None:
    """An import cycle among the package's modules, if there is one (depth-first search)."""
    graph = modules()
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_there_is_no_import_cycle() -> None:
    cycle = _cycle()
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    monkeypatch.setattr(__import__(__name__, fromlist=["modules"]), "modules", lambda: fake)
    assert _cycle() == ["a", "b", "c", "a"]


# --- kinds named as strings -----------------------------------------------------------------------


def _shared(kind: type[Event]) -> bool:
    """A shared kind (affray/events/shared.py), or a ruleset's own of one (its ``combatant_joined``)."""
    return any(base.__module__ == shared.__name__ for base in kind.__mro__)


def _names(part: Part) -> set[str]:
    """The kinds a part defines that are not shared, by name, and the former names they are read under."""
    return {kind_of(kind) for kind in part.appliers if not _shared(kind)} | set(part.aliases)


@cache
def kind_owners() -> dict[str, set[str]]:
    """Each kind of the built-in rulesets and modules, by name, with the rulesets or modules that define it
    (their vocabularies as the registry gives them); not the shared kinds, which are everyone's, nor a kind
    named as a ruleset or module is (special_damage), whose name is read as the module's."""
    owners: dict[str, set[str]] = {}
    for name in BUILT_IN_RULESETS:
        for part in rulesets.ruleset(name).vocabularies.parts:
            for kind in _names(part):
                owners.setdefault(kind, set()).add(name)
    for name in BUILT_IN_MODULES:
        for kind in _names(rulesets.module(name).part):
            owners.setdefault(kind, set()).add(name)
    return {kind: owned for kind, owned in owners.items() if kind not in RULESETS}


@cache
def strings() -> dict[str, list[tuple[int, str]]]:
    """Every module of the package and the string constants in its source (f-strings' text included), each
    with its line."""
    return {
        _name(path): [
            (node.lineno, node.value)
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        ]
        for path in PACKAGE.rglob("*.py")
    }


def named_kinds(module: str) -> list[tuple[int, str]]:
    """The kinds ``module`` names as strings that are not its own ruleset's, nor those of the modules its
    ruleset carries (a host adapts its events to theirs, as it imports them)."""
    own = ruleset_of(module)
    mine = {own, *HOSTED.get(own or "", set())} - {None}
    owners = kind_owners()
    return [(line, text) for line, text in strings()[module] if text in owners and not owners[text] & mine]


def test_the_kinds_are_collected() -> None:
    owners = kind_owners()
    assert owners["attack_resolved"] == {"energion"}
    assert owners["to_hit_resolved"] == {"fivestep"}
    assert owners["equipment_lost"] == {"special_damage"}
    assert "moved" not in owners
    assert "combatant_joined" not in owners


@pytest.mark.parametrize("module", sorted(strings()))
def test_a_module_names_no_kind_of_a_ruleset_it_is_not_part_of(module: str) -> None:
    named = named_kinds(module)
    assert not named, f"{module} names {', '.join(f'{kind!r} (line {line})' for line, kind in named)}"


def test_a_kind_named_in_another_rulesets_module_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = {"affray.rulesets.special_damage.fake": [(3, "attack_resolved"), (4, "special_damage")]}
    monkeypatch.setattr(__import__(__name__, fromlist=["strings"]), "strings", lambda: fake)
    assert named_kinds("affray.rulesets.special_damage.fake") == [(3, "attack_resolved")]
