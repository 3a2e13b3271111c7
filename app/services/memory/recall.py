"""Recall: narrow by scope and filters, gather candidates, score them (app.services.memory.scoring)
and return the best ``top_k`` within a time budget (docs/ARCHITECTURE.md).

Query-side details measured on LoCoMo (docs/EVAL.md): the question is embedded
with the E5 *query* role, and the names of entities the subject's units know are removed from
the text before embedding (e5-small's cosine is dominated by names) while a structured entity
signal rewards units that name them. Keyword relevance is BM25 over the query's stemmed tokens
(OR semantics), and a unit's session neighbours lend it context (app.services.memory.scoring).
"""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from app.clients.embeddings import Embedder
from app.core.config import RecallSettings
from app.core.text import stems, tokenize, tsquery_or
from app.models import MemoryUnit
from app.repositories.memory.filters import UnitFilters
from app.repositories.memory.units import MemoryRepository
from app.schemas.recall import RecallRequest
from app.services.memory.filters import request_filters
from app.services.memory.rerank import LLMReranker, RerankOutcome, rerank_mode
from app.services.memory.scoring import SIGNALS, Ranked, Weighting, profile_weights, rank
from app.services.memory.ttl import AccessTracker

MAX_KEYWORD_TERMS = 32


@dataclass
class RecallResult:
    """Ranked hits (unit + score + breakdown), the weights that scored them, whether the
    budget cut work short, and time."""

    weighting: Weighting
    hits: list[tuple[MemoryUnit, Ranked]] = field(default_factory=list)
    degraded: bool = False
    took_ms: float = 0.0
    rerank: RerankOutcome | None = None  # the second stage, when it ran


def _weighting(req: RecallRequest, settings: RecallSettings) -> Weighting:
    base = profile_weights(req.profile, settings)
    if req.weights is None:
        return base
    overrides = req.weights.model_dump(exclude_none=True)
    lam = overrides.pop("recency_lambda", base.recency_lambda)
    return Weighting({**base.weights, **{k: v for k, v in overrides.items() if k in SIGNALS}}, lam)


def _entity_candidates(query: str) -> list[str]:
    """Single tokens and adjacent pairs of the query ("new york"), case-folded."""
    toks = tokenize(query)
    return list(dict.fromkeys([*toks, *(f"{a} {b}" for a, b in zip(toks, toks[1:], strict=False))]))


def _strip_names(query: str, names: list[str]) -> str:
    stripped = query
    for name in sorted(names, key=len, reverse=True):
        stripped = re.sub(rf"(?i)(?<!\w){re.escape(name)}(?:['’]s)?(?!\w)", " ", stripped)
    stripped = re.sub(r"\s+", " ", stripped).strip()
    return stripped if len(tokenize(stripped)) > 0 else query


class RecallService:
    """Hybrid recall over one namespace; collaborators are passed in."""

    def __init__(
        self,
        repo: MemoryRepository,
        embedder: Embedder,
        settings: RecallSettings,
        access: AccessTracker | None = None,
        reranker: LLMReranker | None = None,
    ):
        self.repo = repo
        self.embedder = embedder
        self.settings = settings
        # Access log + expiry extension (services/memory/ttl.py); else only last_accessed_at.
        self.access = access
        # The optional second stage (services/memory/rerank.py); None without an LLM.
        self.reranker = reranker

    def filters(
        self, namespace: str, req: RecallRequest, now: datetime, wall_now: datetime | None = None
    ) -> UnitFilters:
        """The SQL filters of a request; ``time_range`` ends at ``now`` (the request's clock).
        A unit expired by either clock is left out: a replay with a past ``now`` must not bring
        back units that have already expired by the real clock ``wall_now``."""
        return request_filters(
            namespace,
            req,
            now,
            now=max(now, wall_now) if wall_now else now,
            include_expired=req.include_archived,
        )

    async def recall(self, namespace: str, req: RecallRequest, wall_now: datetime) -> RecallResult:
        """Rank the subject's units for ``req.query``.

        Within ``budget_ms``: if the query embedding is not ready in time, the answer is
        ranked without the semantic signal and marked ``degraded``; so is an answer whose
        rerank stage timed out or failed (hybrid order). BadRequestError (422) for
        ``rerank: llm`` without an LLM.
        """
        start = time.perf_counter()
        rerank = rerank_mode(req, self.settings, self.reranker is not None)
        budget = self.settings.budget_ms / 1000.0
        now = req.now or wall_now
        f = self.filters(namespace, req, now, wall_now)
        result = RecallResult(_weighting(req, self.settings))

        known = await self.repo.known_entities(f, _entity_candidates(req.query))
        # The model embeds in a worker thread while the next statements run.
        embedding_task = asyncio.create_task(
            self.embedder.embed_queries([_strip_names(req.query, known)])
        )
        try:
            # BM25 looks at the first MAX_KEYWORD_TERMS tokens (each is a lookup per unit).
            lexemes = await self.repo.keyword_lexemes(
                " ".join(tokenize(req.query)[:MAX_KEYWORD_TERMS])
            )
            exact = await self.repo.count(f, self.settings.exact_scan_limit) <= (
                self.settings.exact_scan_limit
            )
            candidate_lexemes: list[str] | None = None
            if not exact:  # names come in through the entity source; common words cost only
                skip = stems(" ".join(known)) | await self.repo.common_lexemes(
                    self.settings.keyword_candidate_max_share
                )
                candidate_lexemes = [x for x in lexemes if x not in skip]
        except BaseException:
            embedding_task.cancel()
            raise
        embedding: np.ndarray | None = None
        try:
            remaining = max(0.001, budget - (time.perf_counter() - start))
            async with asyncio.timeout(remaining):
                embedding = (await embedding_task)[0]
        except TimeoutError:
            result.degraded = True
        candidates = await self.repo.score_candidates(
            f,
            embedding,
            tsquery_or(req.query),
            known,
            exact=exact,
            per_source=max(self.settings.min_candidates, 4 * req.top_k),
            ef_search=max(self.settings.hnsw_ef_search, 4 * req.top_k),
            query_lexemes=lexemes,
            candidate_lexemes=candidate_lexemes,
        )
        ranked = rank(candidates, result.weighting, now)
        if req.min_score is not None:
            ranked = [r for r in ranked if r.score >= req.min_score]
        if rerank == "llm" and self.reranker is not None:  # second stage, before the cut
            ranked, result.rerank = await self.reranker.rerank(
                namespace, req, ranked, start + budget, now
            )
            result.degraded |= result.rerank.degraded
        ranked = ranked[: req.top_k]
        units = await self.repo.get_many(namespace, [r.id for r in ranked])
        by_id: dict[uuid.UUID, MemoryUnit] = {u.id: u for u in units}
        result.hits = [(by_id[r.id], r) for r in ranked if r.id in by_id]
        # record_access=false (an inspection, an evaluation) writes nothing.
        if req.record_access and self.access is not None:  # log, last_accessed_at, TTL
            await self.access.record([r.id for r in ranked], wall_now)
        elif req.record_access:
            await self.repo.touch_accessed([r.id for r in ranked], wall_now)
        result.took_ms = (time.perf_counter() - start) * 1000.0
        if result.took_ms > self.settings.budget_ms:
            result.degraded = True
        return result
