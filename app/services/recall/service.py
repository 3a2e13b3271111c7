"""Recall: narrow by scope and filters, gather candidates, score them (app.services.recall.scoring)
and return the best ``top_k`` within a time budget (docs/ARCHITECTURE.md).

Query-side details measured on LoCoMo (docs/EVAL.md): the question is embedded
with the E5 *query* role, and the names of entities the subject's units know are removed from
the text before embedding (e5-small's cosine is dominated by names) while a structured entity
signal rewards units that name them. Keyword relevance is BM25 over the query's stemmed tokens
(OR semantics), and a unit's session neighbours lend it context (app.services.recall.scoring).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from app.clients.embeddings import Embedder
from app.core.chinese_script import simplified
from app.core.config import RecallSettings
from app.core.text import query_tokens, stems
from app.repositories.memory.filters import UnitFilters
from app.repositories.recall.repository import Candidates, RecallRepository
from app.repositories.recall.sql import DATED_TSQUERY, RecalledUnit
from app.schemas.recall import RecallRequest
from app.services.memory.filters import request_filters
from app.services.memory.pairs.decision import Thresholds
from app.services.memory.ttl import AccessTracker
from app.services.recall import answer_type, food, list_questions, other_kind
from app.services.recall.access import Access
from app.services.recall.collapse import MARGIN, collapse, head_of, pair_floor
from app.services.recall.expansion import Hop, Outcome, expand, named_via
from app.services.recall.history import after_successors
from app.services.recall.other_language import with_other_language
from app.services.recall.query_embeddings import QueryEmbeddingCache, strip_names
from app.services.recall.rerank import LLMReranker, RerankOutcome, rerank_mode
from app.services.recall.scoring import SIGNALS, Ranked, Weighting, profile_weights, rank
from app.services.recall.subjects import SubjectCache, scope_key
from app.services.recall.time_hint import TimeHint, asks_when, day_words, find_time_hint, query_zone
from app.services.stages import StageClock

MAX_KEYWORD_TERMS = 32


@dataclass
class RecallResult:
    """Ranked hits (unit + score + breakdown), the weights that scored them, whether the
    budget cut work short, and time: in total and per stage (``stages_ms``, milliseconds,
    in the order they ran; a stage that did not run is absent)."""

    weighting: Weighting
    hits: list[tuple[RecalledUnit, Ranked]] = field(default_factory=list)
    degraded: bool = False
    took_ms: float = 0.0
    rerank: RerankOutcome | None = None  # the second stage, when it ran
    time_hint: TimeHint | None = None  # the query's time phrase, when it names one
    best_relevance: float | None = None  # the best candidate's relevance (before cuts)
    expansion: Outcome | None = None  # (status, added, reason)
    duplicates: dict[uuid.UUID, list[uuid.UUID]] = field(default_factory=dict)  # collapse
    stages_ms: dict[str, float] = field(default_factory=dict)
    # The embedding model's own time within ``embed`` (ms; None when no model call ran: a
    # cached query embedding, or an embedder that does not report it).
    embed_model_ms: float | None = None
    # The access the caller logs after the answer (``defer_access``); None: logged or not.
    access: Access | None = None


def _weighting(req: RecallRequest, settings: RecallSettings) -> Weighting:
    base = profile_weights(req.profile, settings)
    if req.weights is None:
        return base
    overrides = req.weights.model_dump(exclude_none=True)
    lam = overrides.pop("recency_lambda", base.recency_lambda)
    return Weighting({**base.weights, **{k: v for k, v in overrides.items() if k in SIGNALS}}, lam)


def _entity_candidates(tokens: list[str]) -> list[str]:
    """Single tokens and adjacent pairs of the query ("new york"), case-folded."""
    pairs = (f"{a} {b}" for a, b in zip(tokens, tokens[1:], strict=False))
    return list(dict.fromkeys([*tokens, *pairs]))


@dataclass
class _Plan:
    """What :meth:`RecallService._plan` decided for one recall (see there)."""

    f: UnitFilters
    key: str  # the subject cache's key of ``f``
    cap: int  # RECALL__EXACT_SCAN_LIMIT
    exact: bool  # every unit matching ``f`` is a candidate
    autocommit: bool  # the exact path with a cached profile: no transaction round trips
    entities: list[str]  # the query's entity candidates (tokens and adjacent pairs)
    keyword_text: str  # the tokens BM25 looks at
    known: list[str]  # the entity candidates predicted to name a known entity
    skip: frozenset[str]  # lexemes that bring no keyword candidates (large subjects)
    pair: frozenset[str]  # lexemes that bring keyword candidates only in pairs
    asked: str  # the question in simplified characters (app.core.chinese_script)
    time_hint: TimeHint | None = None  # the query's time phrase as a window
    embedding: np.ndarray | None = None  # the query embedding (set by _find)
    asks_when: bool = False  # the query asks for a time ("when…", "什么时候")
    kind: answer_type.AnswerType | None = None  # what a "which X" question asks for


class RecallService:
    """Hybrid recall over one namespace; collaborators are passed in. ``embeddings`` and
    ``subjects`` are the process's caches (None: no caching). ``defer_access``: the caller
    logs the access (``RecallResult.access``) after the answer (app.services.recall.access)."""

    def __init__(
        self,
        repo: RecallRepository,
        embedder: Embedder,
        settings: RecallSettings,
        access: AccessTracker | None = None,
        reranker: LLMReranker | None = None,
        embeddings: QueryEmbeddingCache | None = None,
        subjects: SubjectCache | None = None,
        pairs: Thresholds | None = None,
        defer_access: bool = False,
    ):
        self.repo = repo
        self.defer_access = defer_access
        self.embedder = embedder
        self.settings = settings
        # The access log (services/memory/ttl.py); None records nothing.
        self.access = access
        # The optional second stage (services/memory/rerank.py); None without an LLM.
        self.reranker = reranker
        self.embeddings = embeddings or QueryEmbeddingCache(0)
        self.subjects = subjects or SubjectCache(0, 0)
        self.pairs = pairs or Thresholds()  # the pair decision's, for the duplicate collapse

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

        Stages (``stages_ms``): ``profile`` / ``known`` (only when the subject cache has no
        answer), ``embed`` (the query embedding; ~0 when cached; the model's own part of it
        is ``embed_model_ms``), ``candidates`` (the one statement: candidates and their
        signals), ``score`` (ranking in Python), ``rerank`` (when asked for), ``collapse``
        (one statement: the head's answer columns and close pairs; then the duplicate
        collapse and the diversity step), ``access`` (the access log) unless
        ``record_access=false`` or ``defer_access`` (then ``RecallResult.access``).

        Within ``budget_ms``: if the query embedding is not ready in time, the answer is
        ranked without the semantic signal and marked ``degraded``; so is an answer whose
        rerank stage timed out or failed (hybrid order). BadRequestError (422) for
        ``rerank: llm`` without an LLM.
        """
        start = time.perf_counter()
        rerank_mode(req, self.settings, self.reranker is not None)  # a 422 before any work
        budget = self.settings.budget_ms / 1000.0
        now = req.now or wall_now
        f = self.filters(namespace, req, now, wall_now)
        result = RecallResult(_weighting(req, self.settings))
        clock = StageClock(result.stages_ms)

        plan = await self._plan(req, f, clock)
        if result.weighting.weights.get("time", 0.0) > 0:
            plan.time_hint = find_time_hint(req.query, now, query_zone(req.timezone, req.now))
            plan.asks_when = plan.time_hint is None and asks_when(plan.asked)
            plan.keyword_text += day_words(plan.time_hint)  # the day as units write it
        result.time_hint = plan.time_hint
        timed = plan.time_hint is not None or plan.asks_when  # "What has Tim read?": less context
        result.weighting = list_questions.weighting(req, result.weighting, timed)
        if result.weighting.weights.get("answer_type", 0.0) > 0:  # "which cities…"
            plan.kind = answer_type.answer_type(plan.asked)
        found = await self._find(req, plan, start + budget, result, clock)
        result.hits = await self._rank(
            namespace, req, found, result, start + budget, now, wall_now, clock, plan
        )
        result.took_ms = (time.perf_counter() - start) * 1000.0
        if result.took_ms > self.settings.budget_ms:
            result.degraded = True
        return result

    async def _plan(self, req: RecallRequest, f: UnitFilters, clock: StageClock) -> _Plan:
        """How to look for candidates: the subject's size class (exact scan or candidate
        sources), the names predicted known, and for large subjects the keyword lexemes to
        skip or to count only in pairs. Stages ``profile`` and ``known`` when the subject
        cache has no answer."""
        tokens, asked = query_tokens(req.query), simplified(req.query)  # 過敏 and 过敏
        entities = _entity_candidates(tokens)
        keyword_text = with_other_language(food.with_terms(tokens[:MAX_KEYWORD_TERMS], asked))
        key, cap = scope_key(f), self.settings.exact_scan_limit
        profile = self.subjects.profile(key, cap)
        # The exact path's statements need no transaction: each its own (no BEGIN, COMMIT
        # round trips), unless the session has already begun one (RecallRepository.connect).
        autocommit = profile is not None
        if profile is None:
            profile = await self.repo.subject_profile(f, cap)
            self.subjects.put_profile(key, cap, profile)
            clock.mark("profile")
        exact = profile.count <= cap
        known = await self._predict_known(f, key, entities, profile.entity_keys, clock)
        skip: frozenset[str] = frozenset()
        pair: frozenset[str] = frozenset()
        if not exact:  # names come in through the entity source; common words cost only
            skip = stems(" ".join(known)) | await self.repo.common_lexemes(
                self.settings.keyword_candidate_max_share
            )
            # mid-frequency words bring keyword candidates only in pairs (the GIN index
            # finds those without visiting each unit holding one of them)
            pair = await self.repo.common_lexemes(self.settings.keyword_single_max_share)
        return _Plan(f, key, cap, exact, autocommit and exact, entities, keyword_text, known, skip,
                     pair, asked)  # fmt: skip

    async def _find(
        self,
        req: RecallRequest,
        plan: _Plan,
        deadline: float,
        result: RecallResult,
        clock: StageClock,
    ) -> Candidates:
        """Embed the query (names predicted known stripped) and run the candidates
        statement; stages ``embed`` and ``candidates``.

        The restart: ``plan.known`` is a prediction from the subject cache. When the
        statement reports other known names, the cache is corrected and, if the embedded
        text, the keyword skip list or (large subjects) the entity source depended on them,
        the two steps run once more with the right names — a stale cache costs time, never
        a different answer."""
        f, key, cap, exact, autocommit = plan.f, plan.key, plan.cap, plan.exact, plan.autocommit
        entities, keyword_text = plan.entities, plan.keyword_text
        known, skip, pair = plan.known, plan.skip, plan.pair
        for _attempt in range(2):
            # The connection checkout (pool ping, BEGIN) overlaps the model call.
            embed_task = asyncio.create_task(
                self._embed(strip_names(req.query, known), deadline, result)
            )
            try:
                await self.repo.connect(autocommit=autocommit)
            except BaseException:
                embed_task.cancel()
                raise
            embedding = await embed_task
            plan.embedding = embedding
            clock.mark("embed")
            found = await self.repo.candidates(
                f,
                embedding,
                keyword_text,
                entities,
                exact=exact,
                per_source=max(self.settings.min_candidates, 4 * req.top_k),
                ef_search=max(self.settings.hnsw_ef_search, 4 * req.top_k),
                keyword_skip=sorted(skip),
                keyword_pair=sorted(pair - skip),
                entity_names=known,
                dated=DATED_TSQUERY if plan.asks_when else None,
                values=plan.kind is not None,  # the texts the answer-type signal reads
            )
            clock.mark("candidates")
            self.subjects.read(key, cap, found.columns.size if exact else None)
            if not found.columns.size or set(found.known) == set(known):
                break
            # Stale cached names (someone new): remember them; start over if what ran used them.
            self.subjects.put_known(key, entities, found.known)
            if exact:
                self.subjects.forget(key, cap)
            new_skip = skip
            if not exact:
                new_skip = stems(" ".join(found.known)) | (skip - stems(" ".join(known)))
            redo = (
                new_skip != skip
                or strip_names(req.query, found.known) != strip_names(req.query, known)
                # the entity source looked only for the names predicted known
                or (not exact and not set(found.known) <= set(known))
            )
            known, skip = found.known, new_skip
            if not redo:
                break
        return found

    async def _predict_known(
        self,
        f: UnitFilters,
        key: str,
        entities: list[str],
        subject_keys: frozenset[str] | None,
        clock: StageClock,
    ) -> list[str]:
        """Which entity candidates name a known entity: from the small subject's names, else
        from the cache, with one probe for the words it does not hold (then cached)."""
        if subject_keys is not None:
            return [e for e in entities if e in subject_keys]
        cached, missing = self.subjects.known_part(key, entities)
        if not missing:
            return cached
        found = await self.repo.known_entities(f, missing)
        self.subjects.put_known(key, missing, found)
        clock.mark("known")
        return [e for e in entities if e in cached or e in found]

    async def _embed(self, text: str, deadline: float, result: RecallResult) -> np.ndarray | None:
        """The query embedding (cached or computed), or None — and ``result.degraded`` —
        when it is not ready by ``deadline`` (a ``time.perf_counter()`` instant). The model's
        own time of the call, when it reports one, is added to ``result.embed_model_ms``."""
        try:
            vector, model_ms = await asyncio.wait_for(
                self.embeddings.embed_query_timed(self.embedder, text),
                max(0.001, deadline - time.perf_counter()),
            )
        except TimeoutError:
            result.degraded = True
            return None
        if model_ms is not None:
            result.embed_model_ms = (result.embed_model_ms or 0.0) + model_ms
        return vector

    async def _rank(
        self,
        namespace: str,
        req: RecallRequest,
        found: Candidates,
        result: RecallResult,
        deadline: float,
        now: datetime,
        wall_now: datetime,
        clock: StageClock,
        plan: _Plan,
    ) -> list[tuple[RecalledUnit, Ranked]]:
        """Score, filter by ``min_score``, rerank or diversify, cut to ``top_k`` (one statement:
        the head's answer columns and close pairs), then log the access at ``wall_now``."""
        rerank = rerank_mode(req, self.settings, self.reranker is not None)
        # Only the best that can reach the answer become result objects: the rerank head, or
        # the collapse's (``top_k`` + MARGIN; ``min_score`` keeps a prefix of the ranking).
        keep = req.top_k + MARGIN
        if rerank == "llm":
            keep = max(keep, req.rerank_candidates or self.settings.rerank_candidates)
        window = (plan.time_hint.start, plan.time_hint.end) if plan.time_hint else None
        kind, weight = plan.kind, result.weighting.weights.get("answer_type", 0.0)
        head = max(keep, answer_type.HEAD) if kind is not None else keep
        ranked = rank(found.columns, result.weighting, now, head, window, plan.asks_when)
        clock.mark("score")
        if not req.expand or plan.exact:
            result.expansion = ("off" if not req.expand else "not_needed", 0, None)
        else:
            ranked, result.expansion = await expand(
                self.repo.session,
                self.settings,
                Hop(
                    plan.f, plan.embedding, plan.keyword_text, plan.entities, window, plan.asks_when
                ),
                found,
                ranked,
                result.weighting,
                req.top_k,
                (deadline, now, head),
                clock,
            )
        if kind is not None:
            ranked = await answer_type.apply(self.repo, ranked, kind, weight, keep, found.values)
            clock.mark("answer_type")
        result.best_relevance = max((r.relevance for r in ranked), default=None)
        if req.min_score is not None:
            ranked = [r for r in ranked if r.score >= req.min_score]
        if req.min_relevance is not None:
            ranked = [r for r in ranked if r.relevance >= req.min_relevance]
        clock.mark("score")
        if rerank == "llm" and self.reranker is not None:  # second stage, before the cut
            ranked, result.rerank = await self.reranker.rerank(
                namespace, req, ranked, deadline, now
            )
            result.degraded |= result.rerank.degraded
            clock.mark("rerank")
        diverse = result.rerank is None  # an LLM's order stands: no diversity step
        top = head_of(ranked, req.top_k)
        units, pairs = await self.repo.head([r.id for r in top], pair_floor(self.pairs, diverse))
        top = after_successors(top, units, req.include_superseded)  # history after its successor
        top = other_kind.reorder(top, units, plan.asked) if diverse else top  # dog before cat
        best, result.duplicates = collapse(top, pairs, req.top_k, self.pairs, diverse, units)
        clock.mark("collapse")
        best = [r for r in best if r.id in units]
        if req.record_access and self.access is not None and best:
            access = Access([r.id for r in best], wall_now, self.access.extend_to(wall_now))
            if self.defer_access:
                result.access = access  # the caller logs it after the answer
            else:
                await self.repo.record_access(access.ids, access.at, access.extend_to)
                clock.mark("access")
        names = set(plan.entities)
        return [(units[r.id], named_via(r, units[r.id], names)) for r in best]
