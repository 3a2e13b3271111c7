"""Dependency aliases: handler signatures read like prose (``service: StoreServiceDep``).

The request's session dependency is the one place that commits (on success) or rolls back;
services and repositories never commit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession

from app.clients.embeddings import Embedder
from app.clients.tokenizer import Tokenizer
from app.core.config import Settings
from app.repositories.api_keys import ApiKeyRepository
from app.repositories.forget import ForgetRepository
from app.repositories.idempotency import IdempotencyRepository
from app.repositories.jobs import JobRepository
from app.repositories.memory.access_log import AccessLogRepository
from app.repositories.memory.context import ContextRepository
from app.repositories.memory.lifecycle import LifecycleRepository
from app.repositories.memory.units import MemoryRepository
from app.repositories.working_memory.transcript import TranscriptRepository
from app.repositories.working_memory.window import WindowStore
from app.services.auth import AuthService, Caller
from app.services.context import ContextService
from app.services.extraction.jobs import ExtractionService
from app.services.extraction.runner import JobRunner
from app.services.idempotency import IdempotencyService
from app.services.lifecycle.catalog import CatalogService
from app.services.lifecycle.forget import ForgetService
from app.services.lifecycle.summarize import SummarizeService, summarizer_for
from app.services.memory.recall import RecallService
from app.services.memory.store import StoreService
from app.services.memory.ttl import AccessTracker
from app.services.working_memory.closure import ClosureService
from app.services.working_memory.window import (
    AfterCommitQueue,
    WorkingMemoryRuntime,
    WorkingMemoryService,
)


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


_bearer = HTTPBearer(auto_error=False, description="An API key: `Authorization: Bearer hs_…`.")
_api_key_header = APIKeyHeader(
    name="X-API-Key", auto_error=False, description="An API key, the same as the bearer token."
)


def get_auth_service(request: Request, session: SessionDep, settings: SettingsDep) -> AuthService:
    return AuthService(
        ApiKeyRepository(session),
        request.app.state.auth,
        settings.auth,
        settings.listen_host,
        settings.default_namespace,
    )


async def get_caller(
    request: Request,
    service: Annotated[AuthService, Depends(get_auth_service)],
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    api_key: Annotated[str | None, Depends(_api_key_header)],
) -> Caller:
    """The authenticated caller (401 `missing_api_key` / `invalid_api_key`, 429
    `rate_limited`). The key comes from `Authorization: Bearer` or `X-API-Key`."""
    key = bearer.credentials if bearer is not None else api_key
    caller = await service.authenticate(key.strip() if key else None)
    request.state.caller = caller
    return caller


def get_namespace(caller: Annotated[Caller, Depends(get_caller)]) -> str:
    """The caller's namespace (tenant): every repository query is scoped by it."""
    return caller.namespace


NamespaceDep = Annotated[str, Depends(get_namespace)]


def get_memory_repo(session: SessionDep) -> MemoryRepository:
    return MemoryRepository(session)


MemoryRepoDep = Annotated[MemoryRepository, Depends(get_memory_repo)]


def get_idempotency_repo(session: SessionDep) -> IdempotencyRepository:
    return IdempotencyRepository(session)


IdempotencyRepoDep = Annotated[IdempotencyRepository, Depends(get_idempotency_repo)]


def llm_configured(request: Request) -> bool:
    """True when the app has an LLM client (unsure pairs are then queued for it)."""
    runtime = getattr(request.app.state, "extraction", None)
    return runtime is not None and runtime.llm is not None


def get_store_service(
    repo: MemoryRepoDep,
    embedder: EmbedderDep,
    settings: SettingsDep,
    reconcile: Annotated[bool, Depends(llm_configured)],
) -> StoreService:
    """The write path; unsure pairs are queued for the LLM when one is configured."""
    return StoreService(
        repo, embedder, settings.dedupe, settings.ttl, settings.conflicts, reconcile=reconcile
    )


def get_recall_service(
    repo: MemoryRepoDep, embedder: EmbedderDep, settings: SettingsDep
) -> RecallService:
    access = AccessTracker(AccessLogRepository(repo.session), settings.ttl)
    return RecallService(repo, embedder, settings.recall, access)


StoreServiceDep = Annotated[StoreService, Depends(get_store_service)]
RecallServiceDep = Annotated[RecallService, Depends(get_recall_service)]


def get_idempotency_service(repo: IdempotencyRepoDep, locks: MemoryRepoDep) -> IdempotencyService:
    return IdempotencyService(repo, locks)


IdempotencyServiceDep = Annotated[IdempotencyService, Depends(get_idempotency_service)]


# ---- memory lifecycle (list, history, corrections, forget, summarize) ----------------------


def get_lifecycle_repo(session: SessionDep) -> LifecycleRepository:
    return LifecycleRepository(session)


LifecycleRepoDep = Annotated[LifecycleRepository, Depends(get_lifecycle_repo)]


def get_catalog_service(
    repo: LifecycleRepoDep, memories: MemoryRepoDep, embedder: EmbedderDep, settings: SettingsDep
) -> CatalogService:
    return CatalogService(repo, memories, embedder, settings.dedupe, settings.conflicts)


CatalogServiceDep = Annotated[CatalogService, Depends(get_catalog_service)]


def get_forget_service(
    request: Request, session: SessionDep, memories: MemoryRepoDep, settings: SettingsDep
) -> ForgetService:
    # Forget-all also deletes the subject's working-memory windows in Redis.
    windows = get_window_store(request, settings)
    return ForgetService(ForgetRepository(session), memories, windows)


ForgetServiceDep = Annotated[ForgetService, Depends(get_forget_service)]


def get_summarize_service(
    request: Request,
    repo: LifecycleRepoDep,
    memories: MemoryRepoDep,
    store: StoreServiceDep,
    settings: SettingsDep,
) -> SummarizeService:
    # The LLM client the extraction runtime holds; None (no LLM configured): offline summaries.
    llm = getattr(getattr(request.app.state, "extraction", None), "llm", None)
    summarizer = summarizer_for(llm, settings.llm.parse_retries)
    return SummarizeService(repo, memories, store, summarizer, settings.lifecycle)


SummarizeServiceDep = Annotated[SummarizeService, Depends(get_summarize_service)]


# --- working memory and /context ---------------------------------------------------------


async def get_after_commit(request: Request) -> AsyncIterator[AfterCommitQueue]:
    """Work that must wait for the request's commit (a Redis write that must never get ahead
    of the transcript). FastAPI exits dependencies in reverse order of entry, so this one,
    entered before the session (it is the first parameter of the services that use it),
    runs its actions after the session dependency has committed; on any error before, they
    are dropped. ``request.state.after_commit_session`` lets it check that order."""
    queue = AfterCommitQueue()
    yield queue
    session = getattr(request.state, "after_commit_session", None)
    if session is not None and session.in_transaction():
        raise RuntimeError("after-commit actions would run before the transaction committed")
    await queue.run()


AfterCommitDep = Annotated[AfterCommitQueue, Depends(get_after_commit, scope="function")]


def get_working_memory_runtime(request: Request) -> WorkingMemoryRuntime:
    """The process-wide tokenizer and query-vector cache."""
    return request.app.state.working_memory  # type: ignore[no-any-return]


WorkingMemoryRuntimeDep = Annotated[WorkingMemoryRuntime, Depends(get_working_memory_runtime)]


def get_tokenizer(runtime: WorkingMemoryRuntimeDep) -> Tokenizer:
    """The process-wide tokenizer (WORKING_MEMORY__ENCODING)."""
    return runtime.tokenizer


TokenizerDep = Annotated[Tokenizer, Depends(get_tokenizer)]


def get_window_store(request: Request, settings: SettingsDep) -> WindowStore:
    wm = settings.working_memory
    runtime: WorkingMemoryRuntime = request.app.state.working_memory
    return WindowStore(
        request.app.state.redis,
        prefix=wm.key_prefix,
        ttl_s=wm.ttl_s,
        max_messages=wm.max_messages,
        max_tokens=wm.max_window_tokens,
        cache=runtime.windows,
    )


WindowStoreDep = Annotated[WindowStore, Depends(get_window_store)]


def get_transcript_repo(session: SessionDep) -> TranscriptRepository:
    return TranscriptRepository(session)


TranscriptRepoDep = Annotated[TranscriptRepository, Depends(get_transcript_repo)]


def get_working_memory_service(
    after_commit: AfterCommitDep,
    request: Request,
    transcript: TranscriptRepoDep,
    window: WindowStoreDep,
    embedder: EmbedderDep,
    runtime: WorkingMemoryRuntimeDep,
    settings: SettingsDep,
) -> WorkingMemoryService:
    request.state.after_commit_session = transcript.session
    return WorkingMemoryService(
        transcript, window, embedder, runtime, settings.working_memory, after_commit
    )


WorkingMemoryServiceDep = Annotated[WorkingMemoryService, Depends(get_working_memory_service)]


def get_context_service(
    working_memory: WorkingMemoryServiceDep,
    recall: RecallServiceDep,
    session: SessionDep,
    tokenizer: TokenizerDep,
    settings: SettingsDep,
) -> ContextService:
    return ContextService(
        working_memory, recall, ContextRepository(session), tokenizer, settings.context
    )


ContextServiceDep = Annotated[ContextService, Depends(get_context_service)]


# ---- extraction (hindsight) --------------------------------------------------------------


def get_job_repo(session: SessionDep) -> JobRepository:
    return JobRepository(session)


JobRepoDep = Annotated[JobRepository, Depends(get_job_repo)]


def get_extraction_service(
    jobs: JobRepoDep, session: SessionDep, settings: SettingsDep
) -> ExtractionService:
    return ExtractionService(
        jobs, TranscriptRepository(session), settings.extraction, settings.worker
    )


ExtractionServiceDep = Annotated[ExtractionService, Depends(get_extraction_service)]


def get_closure_service(
    jobs: JobRepoDep, extraction: ExtractionServiceDep, session: SessionDep, settings: SettingsDep
) -> ClosureService:
    return ClosureService(jobs, TranscriptRepository(session), extraction, settings.closure)


ClosureServiceDep = Annotated[ClosureService, Depends(get_closure_service)]


def get_job_runner(request: Request) -> JobRunner:
    """The process-wide job runner (synchronous extraction)."""
    return request.app.state.extraction.runner  # type: ignore[no-any-return]


JobRunnerDep = Annotated[JobRunner, Depends(get_job_runner)]
