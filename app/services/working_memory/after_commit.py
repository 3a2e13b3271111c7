"""Work that must wait for the request's transaction to commit: a Redis write that must
never get ahead of the transcript (app/services/working_memory/window.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol


class AfterCommit(Protocol):
    """Where the service leaves work that must wait for the request's transaction to
    commit (the caller runs it, in order, after the commit)."""

    def add(self, action: Callable[[], Awaitable[object]]) -> None: ...


class AfterCommitQueue:
    """A concrete :class:`AfterCommit`: actions run in order by :meth:`run`, which the
    request's dependency calls once the transaction has committed."""

    def __init__(self) -> None:
        self._actions: list[Callable[[], Awaitable[object]]] = []

    def add(self, action: Callable[[], Awaitable[object]]) -> None:
        """Queue an action."""
        self._actions.append(action)

    async def run(self) -> None:
        """Run the queued actions, in order; the first failure stops the rest."""
        actions, self._actions = self._actions, []
        for action in actions:
            await action()
