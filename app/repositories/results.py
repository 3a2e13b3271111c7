"""What a statement's result tells beyond its rows: :func:`rowcount` of an UPDATE or DELETE."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy.engine import CursorResult, Result


def rowcount(result: Result[Any]) -> int:
    """The rows an UPDATE or DELETE matched. ``AsyncSession.execute`` is annotated to return
    a ``Result`` whatever the statement; for DML it is the ``CursorResult`` that counts them."""
    return cast("CursorResult[Any]", result).rowcount
