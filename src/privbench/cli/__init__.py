"""The ``privbench`` command line (``privbench.cli:main``), one module per command group.

:mod:`~privbench.cli.main` assembles the groups; :mod:`~privbench.cli.options` defines
every shared option once; :mod:`~privbench.cli.runs` is the one dispatch of the eval and
grade commands of every benchmark; the other modules declare one command group each.
"""

from privbench.cli.main import app, main

__all__ = ["app", "main"]
