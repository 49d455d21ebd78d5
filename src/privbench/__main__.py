"""``python -m privbench`` runs the command line."""

from privbench.cli import main

main()
