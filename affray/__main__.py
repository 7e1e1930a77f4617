"""``python -m affray`` runs the ``affray`` command."""

from affray.cli import main

main()
