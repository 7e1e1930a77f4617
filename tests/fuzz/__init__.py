"""The fuzz suite: mutated scenarios, tables and logs fed to the ``affray`` command in-process."""
