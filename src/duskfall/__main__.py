"""``python -m duskfall``."""

from duskfall.cli import main

main()
