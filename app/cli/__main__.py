"""``python -m app.cli``: the ``hindsight`` command."""

from app.cli.main import main

main()
