"""The special damage add-on (seed 001): rules S1-S10.

- :mod:`.tables`: Tables 1-4 and the effects lists as data (S3, S4, S5, S9), with the mapping rulings.
- :mod:`.rolls`: the chance to score, the type roll, lost equipment and computer damage (S1, S2, S3, S6).
- :mod:`.recovery`: healing times and robot repair (S7, S8).
- :mod:`.movement`: movement penalties and the turn length (S4, S5).

S10 (the referee may alter damage) is a record-keeping rule: it has no formula here.
"""
