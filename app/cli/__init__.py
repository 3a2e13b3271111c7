"""The ``hindsight`` command line (typer)."""
