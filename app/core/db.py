"""Async engine and session factory. Importing this module connects to nothing."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)


def create_engine(url: str, pool_size: int = 10, connect_timeout_s: float = 5.0) -> AsyncEngine:
    """An asyncpg engine for ``url`` (``postgresql+asyncpg://…``; plain ``postgresql://`` is
    rewritten to the asyncpg driver). Pooled connections are pinged before use, so a
    restarted server is reconnected to at the next request; a connection attempt gives up
    after ``connect_timeout_s`` (an unreachable host then answers 503, not a hung request)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        url = "postgresql+asyncpg://" + url.split("://", 1)[1]
    return create_async_engine(
        url,
        pool_size=pool_size,
        max_overflow=pool_size,
        pool_pre_ping=True,
        connect_args={"timeout": connect_timeout_s},
    )


def create_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)


def asyncpg_dsn(url: str) -> str:
    """A SQLAlchemy URL (``postgresql+asyncpg://…``) as a plain libpq DSN for asyncpg (for
    the connections that LISTEN: the job queue, key changes)."""
    for prefix in ("postgresql+asyncpg://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix) :]
    return url
