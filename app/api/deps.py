"""Dependency aliases: handler signatures read like prose (``service: StoreServiceDep``).

Services come from the composition root (``app/services/wiring.py``) bound to the request's
session. That session dependency is the one place that commits the request's transaction
(on success) or rolls it back; services and repositories never commit. The one request that
runs more transactions is ``POST /extract?wait=true``: the job runner owns those (submit,
claim, write), exactly as for a job the worker runs (docs/ARCHITECTURE.md, "Transactions").

Dependencies that do no I/O are ``async def`` all the same: FastAPI runs a plain ``def``
dependency in its thread pool, one hand-off per dependency per request, which costs more
than the work itself on a loaded machine.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession

from app.clients.model_runtime import EMBEDDING_CALLER
from app.clients.tokenizer import Tokenizer
from app.core.config import Settings
from app.core.errors import InvalidApiKeyError
from app.services.auth import AuthService, Caller
from app.services.context import ContextService
from app.services.embedding_budget import EmbeddingBudget
from app.services.entities.profiles import EntityService
from app.services.extraction.jobs import ExtractionService
from app.services.extraction.runner import JobRunner
from app.services.idempotency import IdempotencyService
from app.services.lifecycle.catalog import CatalogService
from app.services.lifecycle.forget import ForgetService
from app.services.lifecycle.summarize import SummarizeService
from app.services.memory.reviews import ReviewService
from app.services.memory.store import StoreService
from app.services.overview import OverviewService
from app.services.recall.access import AccessLog
from app.services.recall.service import RecallService
from app.services.session_owner import SessionOwners
from app.services.wiring import Resources, Services
from app.services.working_memory.after_commit import AfterCommitQueue
from app.services.working_memory.closure import ClosureService
from app.services.working_memory.window import WorkingMemoryService


async def get_settings_dep(request: Request) -> Settings:
    """The settings the app was created with."""
    resources: Resources = request.app.state.resources
    return resources.settings


SettingsDep = Annotated[Settings, Depends(get_settings_dep)]


async def get_resources(request: Request, settings: SettingsDep) -> Resources:
    """The process-wide resources the app built at start-up, with the request's settings
    (the same object unless a test overrides ``get_settings_dep``)."""
    resources: Resources = request.app.state.resources
    return resources if resources.settings is settings else replace(resources, settings=settings)


ResourcesDep = Annotated[Resources, Depends(get_resources)]


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    """One transaction per request: committed when the handler returns, rolled back on error
    (a recall of a small subject runs its statements in autocommit: RecallRepository.connect)."""
    async with request.app.state.session_factory() as session, session.begin():
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session, scope="function")]


async def get_services(resources: ResourcesDep, session: SessionDep) -> Services:
    """The services of this request's transaction (``app/services/wiring.py``)."""
    return Services(resources, session)


ServicesDep = Annotated[Services, Depends(get_services)]


_bearer = HTTPBearer(auto_error=False, description="An API key: `Authorization: Bearer hs_…`.")
_api_key_header = APIKeyHeader(
    name="X-API-Key", auto_error=False, description="An API key, the same as the bearer token."
)


async def get_auth_service(services: ServicesDep) -> AuthService:
    return services.auth()


async def get_caller(
    request: Request,
    service: Annotated[AuthService, Depends(get_auth_service)],
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    api_key: Annotated[str | None, Depends(_api_key_header)],
) -> Caller:
    """The authenticated caller (401 `missing_api_key` / `invalid_api_key`, 429
    `rate_limited`). The key comes from `Authorization: Bearer` or `X-API-Key`; both with
    two different keys is a 401 `invalid_api_key` (a proxy's key and the app's would act in
    a namespace nobody chose; tester D13)."""
    if bearer is not None and api_key is not None and bearer.credentials.strip() != api_key.strip():
        raise InvalidApiKeyError(
            "two different API keys were sent (`Authorization: Bearer` and `X-API-Key`): send one"
        )
    key = bearer.credentials if bearer is not None else api_key
    caller = await service.authenticate(key.strip() if key else None)
    request.state.caller = caller
    return caller


CallerDep = Annotated[Caller, Depends(get_caller)]


async def get_embedding_budget(
    request: Request, caller: CallerDep, resources: ResourcesDep
) -> AsyncIterator[EmbeddingBudget]:
    """The request's embedding budget (app/services/embedding_budget.py), holding one of its
    caller's concurrent slots until the answer is sent (429 `rate_limited` when all are
    taken). The caller is the API key (its visible prefix), or the client's address when
    keys are off; the embedder's fair queuing orders chunks by it."""
    address = request.client.host if request.client else "unknown"
    identity = f"key:{caller.key_prefix}" if caller.key_prefix else f"address:{address}"
    EMBEDDING_CALLER.set(identity)
    tokens = resources.model_tokens
    assert tokens is not None, "the API process counts model tokens"
    budget = EmbeddingBudget(
        tokens, resources.settings.limits, resources.embedding_admission, identity
    )
    if resources.embedding_admission is None:
        yield budget
        return
    async with resources.embedding_admission.slot(identity):
        yield budget


EmbeddingBudgetDep = Annotated[EmbeddingBudget, Depends(get_embedding_budget)]


async def get_namespace(caller: CallerDep) -> str:
    """The caller's namespace (tenant): every repository query is scoped by it."""
    return caller.namespace


NamespaceDep = Annotated[str, Depends(get_namespace)]


async def get_store_service(services: ServicesDep) -> StoreService:
    """The write path (``POST /store``) of this request's transaction."""
    return services.store()


async def get_session_owners(services: ServicesDep) -> SessionOwners:
    """The session-owner check of ``/store`` (this request's transaction)."""
    return services.session_owners()


async def get_recall_service(services: ServicesDep) -> RecallService:
    """Recall of this request's transaction; it leaves the access log to the router, which
    writes it after the answer (:func:`get_access_log`)."""
    return services.recall(defer_access=True)


async def get_access_log(request: Request) -> AccessLog:
    """The process's writer of recalls' access logs (after the answer, in batches)."""
    access_log: AccessLog = request.app.state.access_log
    return access_log


async def get_idempotency_service(services: ServicesDep) -> IdempotencyService:
    """``Idempotency-Key`` records of this request's transaction."""
    return services.idempotency()


async def get_catalog_service(services: ServicesDep) -> CatalogService:
    """Listing, reading, updating units and their history (``/memories``)."""
    return services.catalog()


async def get_review_service(services: ServicesDep) -> ReviewService:
    """Pair reviews: list, read, decide (``/reviews``)."""
    return services.reviews_service()


async def get_forget_service(services: ServicesDep) -> ForgetService:
    """Forgetting a unit or a whole subject (``DELETE /memories/{id}``, ``DELETE /memories``)."""
    return services.forget()


async def get_summarize_service(services: ServicesDep) -> SummarizeService:
    """``POST /summarize`` of this request's transaction."""
    return services.summarize()


StoreServiceDep = Annotated[StoreService, Depends(get_store_service)]
SessionOwnersDep = Annotated[SessionOwners, Depends(get_session_owners)]
RecallServiceDep = Annotated[RecallService, Depends(get_recall_service)]
AccessLogDep = Annotated[AccessLog, Depends(get_access_log)]
IdempotencyServiceDep = Annotated[IdempotencyService, Depends(get_idempotency_service)]
CatalogServiceDep = Annotated[CatalogService, Depends(get_catalog_service)]
ForgetServiceDep = Annotated[ForgetService, Depends(get_forget_service)]
ReviewServiceDep = Annotated[ReviewService, Depends(get_review_service)]
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


async def get_tokenizer(resources: ResourcesDep) -> Tokenizer:
    """The process-wide tokenizer (WORKING_MEMORY__ENCODING)."""
    runtime = resources.working_memory
    assert runtime is not None
    return runtime.tokenizer


TokenizerDep = Annotated[Tokenizer, Depends(get_tokenizer)]


async def get_working_memory_service(
    after_commit: AfterCommitDep, request: Request, services: ServicesDep
) -> WorkingMemoryService:
    """Working-memory windows; records the session whose commit the after-commit queue
    waits for."""
    request.state.after_commit_session = services.session
    return services.working_memory(after_commit)


WorkingMemoryServiceDep = Annotated[WorkingMemoryService, Depends(get_working_memory_service)]


async def get_context_service(
    working_memory: WorkingMemoryServiceDep, services: ServicesDep, tokenizer: TokenizerDep
) -> ContextService:
    """``/context``: working memory and long-term recall in one token budget."""
    return services.context(working_memory, tokenizer)


ContextServiceDep = Annotated[ContextService, Depends(get_context_service)]


# ---- extraction (hindsight) --------------------------------------------------------------


async def get_extraction_service(services: ServicesDep) -> ExtractionService:
    """Extraction jobs (``/extract``) of this request's transaction."""
    return services.extraction()


async def get_closure_service(services: ServicesDep) -> ClosureService:
    """Closing a working-memory session (``POST /working_memory/{id}/close``)."""
    return services.closure()


ExtractionServiceDep = Annotated[ExtractionService, Depends(get_extraction_service)]
ClosureServiceDep = Annotated[ClosureService, Depends(get_closure_service)]


async def get_job_runner(request: Request) -> JobRunner:
    """The process-wide job runner (synchronous extraction)."""
    runner: JobRunner = request.app.state.extraction.runner
    return runner


JobRunnerDep = Annotated[JobRunner, Depends(get_job_runner)]


# ---- overview (/stats, /subjects) ---------------------------------------------------------


async def get_overview_service(services: ServicesDep) -> OverviewService:
    """``/stats`` and ``/subjects``."""
    return services.overview()


OverviewServiceDep = Annotated[OverviewService, Depends(get_overview_service)]


# ---- the entity graph (/entities) ---------------------------------------------------------


def get_entity_service(services: ServicesDep) -> EntityService:
    return services.entities()


EntityServiceDep = Annotated[EntityService, Depends(get_entity_service)]
