"""``python -m affray`` and the ``affray`` command.

``python -m`` puts the current folder first on the import path. affray takes it off before it imports
anything more, so that no file in the folder a command is run in (a stranger's log and what came with it,
say) stands in for a module affray imports later, its own lazily imported libraries included.

Ctrl-C, a kill and a closed terminal are caught (affray.stops) before the commands are imported, which
takes a noticeable part of a second: a stop while they load ends the command with its one line too.
"""

import sys
from pathlib import Path

if __name__ == "__main__" and sys.path and Path(sys.path[0] or ".").resolve() == Path.cwd().resolve():
    del sys.path[0]

from affray import process, stops  # after the current folder is off the import path


def main() -> None:
    """Run the ``affray`` command."""
    process.run_as_affrays_own()
    stops.catch_stops()
    try:
        from affray.cli import main as command
    except KeyboardInterrupt:
        stops.stopped_while_loading()
    command()


if __name__ == "__main__":
    main()
