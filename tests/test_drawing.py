"""affray/drawing.py: every text is drawn as its characters, never as matplotlib's math text."""

from __future__ import annotations

import io

import matplotlib

from affray.drawing import plain_pyplot


def test_a_label_with_dollar_signs_is_drawn_as_written() -> None:
    # "$5^$" is math text to matplotlib: an unfinished superscript, a ValueError when drawn
    with plain_pyplot() as pyplot:
        figure, axes = pyplot.subplots()
        axes.set_title("Price $5^$ deal")
        axes.set_yticks([0], ["$\\frac{1}{0}$"])
        svg = io.BytesIO()
        figure.savefig(svg, format="svg")
        pyplot.close(figure)
    assert b"Price $5^$ deal" in svg.getvalue()


def test_the_settings_of_the_caller_are_left_as_they_were() -> None:
    before = matplotlib.rcParams["text.parse_math"]
    with plain_pyplot():
        assert matplotlib.rcParams["text.parse_math"] is False
    assert matplotlib.rcParams["text.parse_math"] == before
