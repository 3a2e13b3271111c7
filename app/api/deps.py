"""Dependency aliases: handler signatures read like prose (``service: StoreServiceDep``).

The request's session dependency is the one place that commits (on success) or rolls back;
services and repositories never commit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.clients.embeddings import Embedder
from app.core.config import Settings
from app.repositories.idempotency import IdempotencyRepository
from app.repositories.memory import MemoryRepository
from app.services.idempotency import IdempotencyService
from app.services.recall import RecallService
from app.services.store import StoreService


def get_settings_dep(request: Request) -> Settings:
    """The settings the app was created with."""
    return request.app.state.settings  # type: ignore[no-any-return]


def get_embedder(request: Request) -> Embedder:
    """The process-wide embedding model."""
    return request.app.state.embedder  # type: ignore[no-any-return]


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    """One transaction per request: committed when the handler returns, rolled back on error."""
    async with request.app.state.session_factory() as session, session.begin():
        yield session


SettingsDep = Annotated[Settings, Depends(get_settings_dep)]
EmbedderDep = Annotated[Embedder, Depends(get_embedder)]
SessionDep = Annotated[AsyncSession, Depends(get_session, scope="function")]


def get_namespace(settings: SettingsDep) -> str:
    """The caller's namespace (tenant). Until API keys exist, the configured default."""
    return settings.default_namespace


NamespaceDep = Annotated[str, Depends(get_namespace)]


def get_memory_repo(session: SessionDep) -> MemoryRepository:
    return MemoryRepository(session)


MemoryRepoDep = Annotated[MemoryRepository, Depends(get_memory_repo)]


def get_idempotency_repo(session: SessionDep) -> IdempotencyRepository:
    return IdempotencyRepository(session)


IdempotencyRepoDep = Annotated[IdempotencyRepository, Depends(get_idempotency_repo)]


def get_store_service(
    repo: MemoryRepoDep, embedder: EmbedderDep, settings: SettingsDep
) -> StoreService:
    return StoreService(repo, embedder, settings.dedupe)


def get_recall_service(
    repo: MemoryRepoDep, embedder: EmbedderDep, settings: SettingsDep
) -> RecallService:
    return RecallService(repo, embedder, settings.recall)


StoreServiceDep = Annotated[StoreService, Depends(get_store_service)]
RecallServiceDep = Annotated[RecallService, Depends(get_recall_service)]


def get_idempotency_service(repo: IdempotencyRepoDep, locks: MemoryRepoDep) -> IdempotencyService:
    return IdempotencyService(repo, locks)


IdempotencyServiceDep = Annotated[IdempotencyService, Depends(get_idempotency_service)]
