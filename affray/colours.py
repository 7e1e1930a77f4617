"""The colours sides are drawn in, in the order sides first appear: the timeline, the page, a batch's
plots and a sweep's curve all give a side the same colour."""

from __future__ import annotations

SIDE_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
"""matplotlib's first eight "tab10" colours."""
