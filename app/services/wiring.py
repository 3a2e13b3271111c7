"""The composition root: every service is built here, from the process's shared resources
and the session of one transaction. The API's dependencies (``app/api/deps.py``), the worker,
the CLI and the extraction runner all build their services through :class:`Services`, so a
service's collaborators are chosen in one place (see docs/ARCHITECTURE.md, "Wiring").

``Services`` never opens, commits or rolls back a transaction: whoever opened the session
owns it (the request dependency, the job runner, a scheduled task, a CLI command).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property

from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clients.embeddings import Embedder
from app.clients.llm import LLMClient
from app.clients.model_tokens import ModelTokens
from app.clients.tokenizer import Tokenizer
from app.core.config import Settings
from app.repositories.api_keys import ApiKeyRepository
from app.repositories.entities.read import EntityGraphReader
from app.repositories.entities.write import EntityGraphWriter
from app.repositories.forget import ForgetRepository
from app.repositories.idempotency import IdempotencyRepository
from app.repositories.jobs import JobRepository
from app.repositories.memory.access_log import AccessLogRepository
from app.repositories.memory.context import ContextRepository
from app.repositories.memory.elsewhere import ElsewhereRepository
from app.repositories.memory.lifecycle import LifecycleRepository
from app.repositories.memory.reviews import PairReviewRepository
from app.repositories.memory.units import MemoryRepository
from app.repositories.overview import OverviewRepository
from app.repositories.recall.repository import RecallRepository
from app.repositories.recall.subject_indexes import SubjectIndexRepository
from app.repositories.working_memory.transcript import TranscriptRepository
from app.repositories.working_memory.window import WindowStore
from app.services.auth import AuthService, AuthState, KeyAdminService
from app.services.context import ContextService
from app.services.embedding_budget import EmbeddingAdmission
from app.services.entities.profiles import EntityService
from app.services.entities.upkeep import EntityGraphKeeper
from app.services.extraction.jobs import ExtractionService
from app.services.extraction.runner import JobRunner
from app.services.idempotency import IdempotencyService
from app.services.lifecycle.catalog import CatalogService
from app.services.lifecycle.distill import DistillService, distiller_for
from app.services.lifecycle.forget import ForgetService
from app.services.lifecycle.summarize import SummarizeService, summarizer_for
from app.services.memory.conflict_judge import LLMPairJudge
from app.services.memory.link_backfill import BackfillReport, backfill_links
from app.services.memory.merge import thresholds
from app.services.memory.reconcile import ReconcileRunner
from app.services.memory.reviews import ReviewService
from app.services.memory.store import StoreService
from app.services.memory.ttl import AccessTracker, Archiver
from app.services.overview import OverviewService
from app.services.recall.caches import RecallCaches
from app.services.recall.rerank import LLMReranker
from app.services.recall.service import RecallService
from app.services.recall.subject_indexes import SubjectIndexer
from app.services.session_owner import SessionOwners
from app.services.working_memory.after_commit import AfterCommit
from app.services.working_memory.closure import ClosureService
from app.services.working_memory.window import WorkingMemoryRuntime, WorkingMemoryService


@dataclass(frozen=True)
class Resources:
    """What one process builds once and every transaction shares.

    ``embedder`` is None only where nothing embeds (the ``hindsight keys`` command);
    ``llm`` is None when no LLM is configured (offline extraction, distillation and
    summaries; unsure pairs then stay pending for review instead of being reconciled).
    ``redis``, ``working_memory`` and ``auth`` exist in the API process only;
    ``recall`` holds every per-process cache of recall (``RecallCaches``); the default keeps
    nothing, so each recall computes everything afresh."""

    settings: Settings
    embedder: Embedder | None = None
    llm: LLMClient | None = None
    redis: Redis | None = None
    working_memory: WorkingMemoryRuntime | None = None
    auth: AuthState | None = None
    recall: RecallCaches = field(default_factory=RecallCaches.disabled)
    # The embedding model's tokens and the per-caller admission of embedding work (the API
    # process only; app/services/embedding_budget.py).
    model_tokens: ModelTokens | None = None
    embedding_admission: EmbeddingAdmission | None = None

    def need_embedder(self) -> Embedder:
        """The embedder (RuntimeError when this process has none: a wiring bug)."""
        if self.embedder is None:
            raise RuntimeError("this process was built without an embedder")
        return self.embedder

    def need_redis(self) -> Redis:
        """The working memory's Redis (RuntimeError when this process has none: a wiring
        bug)."""
        if self.redis is None:
            raise RuntimeError("this process was built without Redis")
        return self.redis


class Services:
    """The services of one transaction. Repositories are made once per ``Services`` (they
    all share ``session``); each service method builds a new service."""

    def __init__(self, resources: Resources, session: AsyncSession) -> None:
        self.resources = resources
        self.settings = resources.settings
        self.session = session

    # ---- repositories of this transaction -------------------------------------------------

    @cached_property
    def memories(self) -> MemoryRepository:
        return MemoryRepository(self.session)

    @cached_property
    def lifecycle(self) -> LifecycleRepository:
        return LifecycleRepository(self.session)

    @cached_property
    def reviews(self) -> PairReviewRepository:
        return PairReviewRepository(self.session)

    @cached_property
    def jobs(self) -> JobRepository:
        return JobRepository(self.session)

    @cached_property
    def transcripts(self) -> TranscriptRepository:
        return TranscriptRepository(self.session)

    @cached_property
    def graph(self) -> EntityGraphKeeper:
        return EntityGraphKeeper(EntityGraphWriter(self.session))

    # ---- services ---------------------------------------------------------------------------

    def auth(self) -> AuthService:
        """API-key authentication (API process: needs ``resources.auth``)."""
        assert self.resources.auth is not None, "auth state exists in the API process only"
        s = self.settings
        return AuthService(
            ApiKeyRepository(self.session),
            self.resources.auth,
            s.auth,
            s.listen_host,
            s.default_namespace,
        )

    def key_admin(self) -> KeyAdminService:
        return KeyAdminService(ApiKeyRepository(self.session))

    def store(self) -> StoreService:
        """The write path of ``/store``, extraction, distillation and consolidation. With an
        LLM (and ``CONFLICTS__USE_LLM``) unsure pairs are queued for the reconciliation job
        in the caller's transaction; without, they stay pending for review."""
        s = self.settings
        embedder = self.resources.need_embedder()
        reconcile = self.resources.llm is not None
        return StoreService(
            self.memories,
            self.reviews,
            embedder,
            s.dedupe,
            s.ttl,
            s.conflicts,
            reconcile,
            graph=self.graph,
        )

    def recall(self, defer_access: bool = False) -> RecallService:
        """Recall of this transaction; ``defer_access``: the caller writes the access log
        (``RecallResult.access``, app.services.recall.access) after the answer."""
        access = AccessTracker(self.settings.ttl)
        embedder = self.resources.need_embedder()
        s, llm = self.settings, self.resources.llm
        reranker = None
        if llm is not None:  # `rerank: llm` is a 422 without one
            reranker = LLMReranker(llm, self.memories, s.recall, self.resources.recall.rerank)
        caches = self.resources.recall
        return RecallService(
            RecallRepository(self.session, caches.statements),
            embedder,
            s.recall,
            access,
            reranker,
            embeddings=caches.query_embeddings,
            subjects=caches.subjects,
            pairs=thresholds(s.dedupe, s.conflicts, embedder.model),
            defer_access=defer_access,
        )

    def idempotency(self) -> IdempotencyService:
        return IdempotencyService(IdempotencyRepository(self.session), self.memories)

    def catalog(self) -> CatalogService:
        embedder = self.resources.need_embedder()
        s = self.settings
        return CatalogService(
            self.lifecycle,
            self.memories,
            self.reviews,
            embedder,
            s.dedupe,
            s.conflicts,
            graph=self.graph,
        )

    def reviews_service(self) -> ReviewService:
        """Pair reviews worked by people and the sweep of old ones."""
        return ReviewService(self.reviews, self.memories, self.settings.conflicts, self.graph)

    def entities(self) -> EntityService:
        """The entity graph's reads: a subject's entities, one entity's profile."""
        return EntityService(EntityGraphReader(self.session))

    def overview(self) -> OverviewService:
        return OverviewService(OverviewRepository(self.session))

    def forget(self) -> ForgetService:
        """Hard deletes; forgetting a subject also clears its windows when Redis is here."""
        windows = self.window_store() if self.resources.redis is not None else None
        return ForgetService(ForgetRepository(self.session), self.memories, windows)

    def summarize(self) -> SummarizeService:
        s = self.settings
        summarizer = summarizer_for(
            self.resources.llm,
            s.llm.parse_retries,
            self.resources.model_tokens,
            s.limits.text_tokens,
        )
        store = self.store()
        return SummarizeService(
            self.lifecycle,
            self.memories,
            store,
            summarizer,
            s.lifecycle,
            self.resources.model_tokens,
        )

    def distill(self) -> DistillService:
        s = self.settings
        distiller = distiller_for(self.resources.llm, s.lifecycle, s.llm.parse_retries)
        return DistillService(self.lifecycle, self.store(), distiller, s.lifecycle)

    def subject_indexer(self) -> SubjectIndexer:
        """The sweep of subject indexes (on a session that has begun no transaction)."""
        return SubjectIndexer(SubjectIndexRepository(self.session), self.settings.recall)

    async def backfill_links(self, now: datetime) -> BackfillReport:
        """One run of the link backfill (app.services.memory.link_backfill) in this
        transaction: ``LIFECYCLE__LINK_BACKFILL_BATCH`` units at most."""
        s = self.settings
        model = self.resources.need_embedder().model
        return await backfill_links(
            ElsewhereRepository(self.session),
            model,
            thresholds(s.dedupe, s.conflicts, model),
            now,
            s.lifecycle.link_backfill_batch,
        )

    def archiver(self) -> Archiver:
        s = self.settings
        return Archiver(
            self.lifecycle,
            AccessLogRepository(self.session),
            s.ttl,
            s.lifecycle,
            IdempotencyRepository(self.session),
        )

    def window_store(self) -> WindowStore:
        """The hot windows in Redis (API process)."""
        wm, runtime = self.settings.working_memory, self.resources.working_memory
        assert runtime is not None, "working memory exists in the API process only"
        return WindowStore(
            self.resources.need_redis(),
            prefix=wm.key_prefix,
            ttl_s=wm.ttl_s,
            max_messages=wm.max_messages,
            max_tokens=wm.max_window_tokens,
            cache=runtime.windows,
        )

    def working_memory(self, after_commit: AfterCommit) -> WorkingMemoryService:
        """``after_commit`` runs the Redis writes once this transaction has committed."""
        runtime = self.resources.working_memory
        assert runtime is not None, "working memory exists in the API process only"
        return WorkingMemoryService(
            self.transcripts,
            self.window_store(),
            self.resources.need_embedder(),
            runtime,
            self.settings.working_memory,
            after_commit,
        )

    def session_owners(self) -> SessionOwners:
        """The owner check of writes that name a working-memory session."""
        return SessionOwners(self.transcripts)

    def context(self, working_memory: WorkingMemoryService, tokenizer: Tokenizer) -> ContextService:
        repo = ContextRepository(self.session)
        return ContextService(working_memory, self.recall(), repo, tokenizer, self.settings.context)

    def extraction(self) -> ExtractionService:
        s = self.settings
        return ExtractionService(self.jobs, self.transcripts, s.extraction, s.worker)

    def closure(self) -> ClosureService:
        return ClosureService(self.jobs, self.transcripts, self.extraction(), self.settings.closure)


ServicesFor = Callable[[AsyncSession], Services]


def services_for(resources: Resources) -> ServicesFor:
    """``session → Services``: what the runner and the scheduled tasks build services with."""

    def make(session: AsyncSession) -> Services:
        return Services(resources, session)

    return make


def job_runner(
    resources: Resources, session_factory: async_sessionmaker[AsyncSession]
) -> JobRunner:
    """The extraction job runner of a process (the worker's, and the API's for
    ``POST /extract?wait=true``)."""
    return JobRunner(session_factory, services_for(resources), resources.settings, resources.llm)


def reconcile_runner(
    resources: Resources, session_factory: async_sessionmaker[AsyncSession]
) -> ReconcileRunner | None:
    """The reconciliation job runner of a process (the worker's), asking the process's LLM;
    None without an LLM or with ``CONFLICTS__USE_LLM`` off (no pair is queued then)."""
    if resources.llm is None or not resources.settings.conflicts.use_llm:
        return None
    return ReconcileRunner(session_factory, LLMPairJudge(resources.llm), resources.settings)
