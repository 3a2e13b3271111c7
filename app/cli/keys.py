"""``hindsight keys create|list|revoke``: API keys that map callers to namespaces.

Works against DATABASE_URL, or the embedded server (joined if ``hindsight serve`` is running).
A new key is printed once on stdout and never stored; only its SHA-256 is.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from app.cli.database import database_url
from app.core.config import get_settings
from app.core.identifiers import identifier_problem

if TYPE_CHECKING:
    from app.services.auth import KeyAdminService

T = TypeVar("T")
keys_cli = typer.Typer(help="Create, list and revoke API keys.", no_args_is_help=True)


def _run(action: Callable[[KeyAdminService], Awaitable[T]]) -> T:
    """Run ``action`` in one committed transaction on the configured database."""
    # Imported here: `hindsight mcp` shares this CLI package and must not load database code.
    from app.core.db import create_engine, create_session_factory
    from app.services.wiring import Resources, Services

    url, server = database_url()
    resources = Resources(get_settings())

    async def go() -> T:
        engine = create_engine(url, pool_size=1)
        try:
            async with create_session_factory(engine)() as session, session.begin():
                return await action(Services(resources, session).key_admin())
        finally:
            await engine.dispose()

    try:
        return asyncio.run(go())
    finally:
        if server is not None:
            server.stop()


def active_keys(url: str) -> int:
    """How many unrevoked API keys the database at ``url`` holds (``hindsight serve``'s
    start-up message)."""
    from app.core.db import create_engine, create_session_factory
    from app.services.wiring import Resources, Services

    async def go() -> int:
        engine = create_engine(url, pool_size=1)
        try:
            async with create_session_factory(engine)() as session, session.begin():
                admin = Services(Resources(get_settings()), session).key_admin()
                return len(await admin.list_keys())
        finally:
            await engine.dispose()

    return asyncio.run(go())


def _row(key: Any) -> dict[str, Any]:
    return {
        "id": str(key.id),
        "prefix": key.prefix,
        "namespace": key.namespace,
        "name": key.name,
        "created_at": key.created_at.isoformat() if key.created_at else None,
        "revoked_at": key.revoked_at.isoformat() if key.revoked_at else None,
    }


@keys_cli.command("create")
def create(
    namespace: str = typer.Option(..., "--namespace", "-n", help="Namespace (tenant) of the key."),
    name: str | None = typer.Option(None, help="A label to recognise the key by."),
) -> None:
    """Create a key for NAMESPACE and print it once (stdout); only its hash is stored."""
    if not namespace.strip() or len(namespace) > 128:
        raise typer.BadParameter("give 1..128 characters", param_hint="--namespace")
    problem = identifier_problem(namespace)
    if problem is not None:
        raise typer.BadParameter(problem, param_hint="--namespace")
    created = _run(lambda svc: svc.create(namespace, name))
    typer.echo(
        f"created key {created.row.prefix}… (id {created.row.id}) for namespace "
        f"{namespace!r}; it is shown only this once",
        err=True,
    )
    typer.echo(created.key)


@keys_cli.command("list")
def list_keys(
    namespace: str | None = typer.Option(None, "--namespace", "-n", help="Only this namespace."),
    include_revoked: bool = typer.Option(False, "--all", help="Include revoked keys."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per line."),
) -> None:
    """List keys (prefix, namespace, name, dates; never the key itself)."""
    rows = [_row(k) for k in _run(lambda svc: svc.list_keys(namespace, include_revoked))]
    if as_json:
        for row in rows:
            typer.echo(json.dumps(row))
        return
    if not rows:
        typer.echo("no keys", err=True)
        return
    for row in rows:
        state = f"revoked {row['revoked_at']}" if row["revoked_at"] else "active"
        typer.echo(
            f"{row['id']}  {row['prefix']}…  {row['namespace']}  "
            f"{row['name'] or '-'}  created {row['created_at']}  {state}"
        )


@keys_cli.command("revoke")
def revoke(
    key: str = typer.Argument(..., help="The key's id or its visible prefix (hs_xxxxxxxx)."),
) -> None:
    """Revoke a key. Running APIs refuse it within AUTH__CACHE_TTL_S seconds."""
    revoked = _run(lambda svc: svc.revoke(key, datetime.now(UTC)))
    if not revoked:
        typer.echo(f"no active key with id or prefix {key!r}", err=True)
        raise typer.Exit(1)
    for row in revoked:
        typer.echo(f"revoked {row.prefix}… (id {row.id}, namespace {row.namespace!r})")
