"""Async engine and session factory. Importing this module connects to nothing."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
from sqlalchemy import event, exc
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

# A pooled connection idle for longer than this is pinged at checkout (a round trip); one
# used more recently is only checked locally (below).
PING_AFTER_IDLE_S = 10.0
_CHECKED_IN_AT = "hindsight_checked_in_at"


def create_engine(url: str, pool_size: int = 10, connect_timeout_s: float = 5.0) -> AsyncEngine:
    """An asyncpg engine for ``url`` (``postgresql+asyncpg://…``; plain ``postgresql://`` is
    rewritten to the asyncpg driver). A connection attempt gives up after
    ``connect_timeout_s`` (an unreachable host then answers 503, not a hung request).

    Liveness at checkout (:func:`_check_alive`), so a restarted server is reconnected to at
    the next request: a pooled connection that asyncpg saw closed (a server shutdown or
    restart closes the socket, which asyncpg notices while the connection idles) is replaced,
    and one idle for more than ``PING_AFTER_IDLE_S`` is pinged first (replaced when the ping
    fails). It replaced SQLAlchemy's ``pool_pre_ping``, which pinged at every checkout with
    BEGIN, ``;``, ROLLBACK: three round trips and about a millisecond of the server's CPU per
    request."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        url = "postgresql+asyncpg://" + url.split("://", 1)[1]
    engine = create_async_engine(
        url,
        pool_size=pool_size,
        max_overflow=pool_size,
        connect_args={"timeout": connect_timeout_s},
    )
    event.listen(engine.sync_engine.pool, "checkout", _check_alive)
    event.listen(engine.sync_engine.pool, "checkin", _checked_in)
    return engine


def _check_alive(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    """Pool ``checkout`` hook: raise DisconnectionError (the pool then replaces the
    connection, up to twice) when the driver connection is closed, or when it idled longer
    than ``PING_AFTER_IDLE_S`` and a ping fails. Runs inside SQLAlchemy's greenlet, so the
    adapted connection's blocking ``ping`` may be called."""
    is_closed = getattr(dbapi_connection.driver_connection, "is_closed", None)
    if is_closed is not None and is_closed():
        raise exc.DisconnectionError("connection closed by the server")
    since = record.info.get(_CHECKED_IN_AT)
    # Another driver (no is_closed): pinged at every reuse, as pool_pre_ping did.
    if since is not None and (is_closed is None or time.monotonic() - since > PING_AFTER_IDLE_S):
        try:
            dbapi_connection.ping()
        except Exception as error:
            raise exc.DisconnectionError("ping failed") from error


def _checked_in(_dbapi_connection: Any, record: Any) -> None:
    """Pool ``checkin`` hook: when the connection went back to the pool (monotonic s)."""
    if record is not None:
        record.info[_CHECKED_IN_AT] = time.monotonic()


@asynccontextmanager
async def driver_of(conn: AsyncConnection) -> AsyncIterator[asyncpg.Connection]:
    """``conn``'s asyncpg connection, for statements run by the driver itself (no execution
    layer), with the disconnect handling SQLAlchemy's layer would have given them.

    SQLAlchemy calls an error a disconnect when the asyncpg connection is closed after it,
    whatever its type, invalidates the connection (the pool replaces it) and raises it with
    ``connection_invalidated`` (``app.core.outage``: 503). The driver's own calls skipped
    that: a backend terminated just before one (PostgreSQL stopping under traffic) could
    surface as asyncpg's ``InternalClientError`` ("cannot switch to state 12; another
    operation (2) is in progress"), an unknown type, so a 500, on a connection still pooled.
    Here such an error, or one that leaves the protocol in an unknown state
    (``InternalClientError``, ``InterfaceError``), invalidates the connection and is raised
    as ``OperationalError`` with ``connection_invalidated``; any other (a query error) is
    raised as asyncpg's."""
    driver = (await conn.get_raw_connection()).driver_connection
    if driver is None:  # a checked-out connection always has its asyncpg connection
        raise RuntimeError("the connection has no asyncpg connection")
    try:
        yield driver
    except exc.SQLAlchemyError:  # a statement through SQLAlchemy's layer: handled there
        raise
    except Exception as error:
        broken = isinstance(error, (asyncpg.InternalClientError, asyncpg.InterfaceError))
        if not (broken or driver.is_closed()):
            raise
        await conn.invalidate(error)
        raise exc.OperationalError(None, None, error, connection_invalidated=True) from error


async def driver_fetch(conn: AsyncConnection, sql: str, params: Sequence[Any]) -> list[Any]:
    """``sql`` fetched by asyncpg itself on ``conn``'s connection (records, not Rows: no
    execution layer); a lost connection is handled as :func:`driver_of` says."""
    async with driver_of(conn) as driver:
        return list(await driver.fetch(sql, *params))


def create_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)


def has_connection(session: AsyncSession) -> bool:
    """Whether ``session`` has checked out its connection already (a first statement ran, or
    ``session.connection()`` was called): execution options given to ``session.connection``
    apply only before that."""
    transaction = session.sync_session.get_transaction()
    return transaction is not None and bool(transaction._connections)  # noqa: SLF001


def asyncpg_dsn(url: str) -> str:
    """A SQLAlchemy URL (``postgresql+asyncpg://…``) as a plain libpq DSN for asyncpg (for
    the connections that LISTEN: the job queue, key changes)."""
    for prefix in ("postgresql+asyncpg://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix) :]
    return url
