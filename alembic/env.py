"""Alembic environment: async engine; the URL comes from ``config.attributes["url"]``
(set by app.core.migrate) or ``sqlalchemy.url`` or DATABASE_URL."""

from __future__ import annotations

import asyncio
import os

import pgvector.sqlalchemy
from sqlalchemy.ext.asyncio import create_async_engine

from alembic import context
from app.models import Base

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    url = config.attributes.get("url") or config.get_main_option("sqlalchemy.url")
    url = url or os.environ.get("DATABASE_URL")
    if not url:
        raise RuntimeError("no database URL: set DATABASE_URL or use `hindsight migrate`")
    if url.startswith(("postgresql://", "postgres://")):
        url = "postgresql+asyncpg://" + url.split("://", 1)[1]
    return url


def _include_object(obj, name, type_, reflected, compare_to):  # type: ignore[no-untyped-def]
    # pgqueuer's tables belong to the queue library (migration 0003 installs them); the
    # subject indexes to the worker (app.repositories.recall.subject_indexes, PREFIX).
    if type_ == "index" and reflected and str(name).startswith("ix_mu_subject_"):
        return False
    return not (type_ == "table" and reflected and str(name).startswith("pgqueuer"))


def _render_item(type_, obj, autogen_context):  # type: ignore[no-untyped-def]
    vector_types = (pgvector.sqlalchemy.Vector, pgvector.sqlalchemy.HALFVEC)
    if type_ == "type" and isinstance(obj, vector_types):
        autogen_context.imports.add("import pgvector.sqlalchemy")
        return f"pgvector.sqlalchemy.{type(obj).__name__}({obj.dim})"
    return False


def _do_run(connection) -> None:  # type: ignore[no-untyped-def]
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        include_object=_include_object,
        render_item=_render_item,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    engine = create_async_engine(_url())
    async with engine.connect() as connection:
        await connection.run_sync(_do_run)
        await connection.commit()
    await engine.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _do_run(connection)
    else:
        asyncio.run(_run_async())


run_migrations_online()
