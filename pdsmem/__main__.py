"""``python -m pdsmem`` runs the command line."""

from pdsmem.cli import main

main()
