"""Errors a user can cause: each says where the problem is and what was expected."""

from __future__ import annotations

from pathlib import Path


class AffrayError(Exception):
    """Base of every error caused by input: a scenario, a log, a table or the command line."""


class ScenarioError(AffrayError):
    """A scenario file that cannot be read, parsed or validated."""


class TableError(AffrayError):
    """A rules table (packaged or user-supplied) that is malformed."""


class UnknownTableEntry(AffrayError):
    """A name (weapon, armor, shield) that the rules tables do not list."""


class LogError(AffrayError):
    """A log file that is not an affray log, or is damaged beyond reading."""


class DiceExhausted(AffrayError):
    """A manual dice source ran out of the rolls a referee supplied, or a roll does not fit its die."""

    def __init__(self, problem: str, when: str = "") -> None:
        super().__init__(problem, when)
        self.problem = problem
        self.when = when

    def __str__(self) -> str:
        when = f", wanted {self.when}" if self.when else ""
        return f"$.dice.rolls: {self.problem}{when}"

    def during(self, when: str) -> DiceExhausted:
        """The same problem, saying when in the fight the roll was wanted."""
        return DiceExhausted(self.problem, when)


def read_user_file(path: Path, error: type[AffrayError], kind: str) -> bytes:
    """The bytes of a file the user named; a missing or unreadable one raises ``error`` naming it."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except IsADirectoryError:
        raise error(f"{path}: is a directory, not {kind}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror}") from None
