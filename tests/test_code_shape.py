"""The shape the developers' guide asks of affray's code, held: no function above cyclomatic complexity 15
as radon counts it (which, unlike ruff's C901, counts ``and``/``or``, conditional expressions and the
branches of comprehensions) or longer than 60 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from radon.complexity import cc_visit
from radon.visitors import Function

PACKAGE = Path(__file__).resolve().parents[1] / "affray"
MOST_COMPLEX = 15
LONGEST_LINES = 60
SOURCES = sorted(PACKAGE.rglob("*.py"))


def _name(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


@pytest.mark.parametrize("path", SOURCES, ids=_name)
def test_no_function_is_more_complex_than_15(path: Path) -> None:
    blocks = cc_visit(path.read_text())
    functions = [b for b in blocks if isinstance(b, Function)]
    functions += [m for b in blocks if not isinstance(b, Function) for m in b.methods]
    over = [f"{f.fullname} ({f.complexity})" for f in functions if f.complexity > MOST_COMPLEX]
    assert not over


def _lines(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """How many lines a function takes, its signature and docstring included."""
    return (function.end_lineno or function.lineno) - function.lineno + 1


@pytest.mark.parametrize("path", SOURCES, ids=_name)
def test_no_function_is_longer_than_60_lines(path: Path) -> None:
    tree = ast.parse(path.read_text())
    defined = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    over = [f"{n.name} ({_lines(n)})" for n in defined if _lines(n) > LONGEST_LINES]
    assert not over
