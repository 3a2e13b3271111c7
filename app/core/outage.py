"""Which exceptions mean "a datastore is unreachable right now" (answer 503 and let the
client retry) rather than a bug (500).

PostgreSQL going away shows up as refused or reset connections (``OSError``), asyncpg's
connection errors and server shutdown notices (SQLSTATE class 08 and 57P01-57P03), and
SQLAlchemy marking a connection invalidated or running out of pool time; Redis as redis-py's
``ConnectionError``, ``TimeoutError`` or ``BusyLoadingError``. The whole ``__cause__`` /
``__context__`` chain is looked at, since each layer wraps the one below, and the members of an
exception group.
"""

from __future__ import annotations

import asyncpg
import sqlalchemy.exc
from redis import exceptions as redis_errors

_PG_CONNECTION_ERRORS = (
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.ConnectionFailureError,  # SQLSTATE 08xxx
    asyncpg.exceptions.CannotConnectNowError,  # 57P03 starting up / shutting down
    asyncpg.exceptions.AdminShutdownError,  # 57P01 terminated by the administrator
    asyncpg.exceptions.CrashShutdownError,  # 57P02
    asyncpg.exceptions.TooManyConnectionsError,  # 53300
    asyncpg.exceptions.InterfaceError,  # "connection is closed"
    # A prepared statement whose table changed type under it (a migration beside running
    # replicas): the connection's statement cache drops it, so a retry succeeds.
    asyncpg.exceptions.InvalidCachedStatementError,
)
_REDIS_ERRORS = (
    redis_errors.ConnectionError,
    redis_errors.TimeoutError,
    redis_errors.BusyLoadingError,
)


# Exception types a datastore client raises (what an error handler registers for).
DATASTORE_ERRORS: tuple[type[Exception], ...] = (
    sqlalchemy.exc.SQLAlchemyError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    redis_errors.RedisError,
    OSError,
)


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc``, its causes and contexts, and the members of exception groups (a task group's
    failures), each once; at most 50."""
    seen: list[BaseException] = []
    todo: list[BaseException] = [exc]
    while todo and len(seen) < 50:
        current = todo.pop(0)
        if any(current is s for s in seen):
            continue
        seen.append(current)
        if isinstance(current, BaseExceptionGroup):
            todo.extend(current.exceptions)
        link = current.__cause__ or current.__context__
        if link is not None:
            todo.append(link)
    return seen


def outage_of(exc: BaseException) -> str | None:
    """``"PostgreSQL"`` or ``"Redis"`` when ``exc`` says that store is unreachable, else
    None."""
    for link in _chain(exc):
        if isinstance(link, _REDIS_ERRORS):
            return "Redis"
        if isinstance(link, sqlalchemy.exc.DBAPIError) and link.connection_invalidated:
            return "PostgreSQL"
        if isinstance(link, sqlalchemy.exc.TimeoutError):  # no pooled connection in time
            return "PostgreSQL"
        if isinstance(link, (*_PG_CONNECTION_ERRORS, OSError)):
            return "PostgreSQL"
    return None
