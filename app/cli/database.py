"""The database a command works on: DATABASE_URL, or the embedded server."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from app.core.config import get_settings

if TYPE_CHECKING:  # `hindsight mcp` loads this package and must not load database code
    from app.core.embedded_pg import EmbeddedPostgres


def database_url() -> tuple[str, EmbeddedPostgres | None]:
    """The configured DATABASE_URL, or a started and migrated embedded server's URL and the
    server (the caller stops it)."""
    # Imported here: `hindsight mcp` loads this package and must not load database code.
    from app.core import embedded_pg, migrate

    settings = get_settings()
    if settings.database_url:
        return settings.database_url, None
    server = embedded_pg.start(settings.data_dir)
    typer.echo(f"embedded PostgreSQL + pgvector in {server.pgdata}", err=True)
    migrate.upgrade(server.url)
    return server.url, server
