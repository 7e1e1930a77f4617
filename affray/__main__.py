"""``python -m affray`` runs the ``affray`` command.

``python -m`` puts the current folder first on the import path. affray takes it off before it imports
anything more, so that no file in the folder a command is run in (a stranger's log and what came with it,
say) stands in for a module affray imports later, its own lazily imported libraries included.
"""

import sys
from pathlib import Path

if sys.path and Path(sys.path[0] or ".").resolve() == Path.cwd().resolve():
    del sys.path[0]

from affray.cli import main  # after the current folder is off the import path

main()
