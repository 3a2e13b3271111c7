"""Run Alembic migrations programmatically (``hindsight migrate``, embedded start-up, tests).

Call from synchronous code (or a worker thread): Alembic's env runs its own event loop.
"""

from __future__ import annotations

from pathlib import Path

from alembic.config import Config

from alembic import command

ROOT = Path(__file__).resolve().parents[2]


def alembic_config(url: str) -> Config:
    """An Alembic config for ``url`` that finds this project's migration scripts."""
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "alembic"))
    cfg.attributes["url"] = url
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    """Migrate the database at ``url`` to ``revision`` (default: the newest)."""
    command.upgrade(alembic_config(url), revision)
