"""The five-step combat system (seed 000): pure rules and the user-supplied tables they read.

- :mod:`.dice`: "1:100sd" notation (F13).
- :mod:`.sequence`: sides, surprise, primary attack, the step order, turns, time and Agility Points (F2-F7).
- :mod:`.hitting`: reach, percent to hit and grenades (F1, F8, F9).
- :mod:`.usertables`: the data format and loader of the tables F5-F9 read (3-1, 3-2, 3-3.4, 3-4.0, 3-4.1,
  3-6, 3-7.x), and :func:`~.usertables.require`.
- :mod:`.damage`, :mod:`.damage_tables`: damage (F10-F12) and its tables.

The text names tables it does not print: they are user-supplied data (docs/rulesets/fivestep.md).
"""
