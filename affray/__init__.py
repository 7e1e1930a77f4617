"""affray: an event-sourced simulation kernel for tabletop RPG combat."""

__version__ = "0.1.0"
