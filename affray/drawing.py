"""How affray draws: matplotlib's pyplot on the Agg backend (no screen needed), with every text drawn as
written. matplotlib reads ``$...$`` in any label as math text, so a combatant named ``Price $5^$ deal``
stopped a picture with a ValueError; names come from files, so none is ever parsed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def plain_pyplot() -> Iterator[Any]:
    """pyplot, for drawing and saving a figure inside the ``with`` block (tick labels and legends are made
    as the figure is saved, so saving belongs inside too), with no text parsed as math."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    with matplotlib.rc_context({"text.parse_math": False, "text.usetex": False}):
        yield pyplot
