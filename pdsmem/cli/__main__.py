"""``python -m pdsmem.cli`` runs the command line."""

from pdsmem.cli import main

main()
