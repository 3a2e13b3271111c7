"""The second stage of recall (docs/EVAL.md "Rerank"): the configured LLM orders the best
hybrid candidates by relevance to the query, in one call, within what is left of the recall
time budget.

    ranked (hybrid, best first) ──► head = the first rerank_candidates (default 20, max 50)
                                     ├─ cache hit: the cached order, no call
                                     └─ LLM: {"order": [labels]} within the budget left
    result = the head's listed candidates in the LLM's order
             + the head's other candidates in hybrid order
             + the rest of ranked, unchanged

The candidates are ``ranked``'s own, so they are the subject's units only (the recall's
filters chose them). A timeout, an LLM error or an unusable reply leaves the hybrid order and
marks the outcome degraded; it never fails the recall.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime

from app.clients.llm import ChatReply, LLMClient
from app.clients.llm_reply import ReplyParseError
from app.core.config import RecallSettings
from app.core.errors import BadRequestError, ProviderError, ProviderTimeoutError
from app.core.metrics import RERANK, RERANK_SECONDS, RERANK_TOKENS
from app.repositories.memory.units import MemoryRepository
from app.schemas.recall import RecallRequest, RerankMode, RerankStatus
from app.services.recall.rerank_cache import RerankCache
from app.services.recall.rerank_prompt import (
    PROMPT_VERSION,
    build_rerank,
    describe,
    parse_order,
    today,
)
from app.services.recall.scoring import Ranked

log = logging.getLogger(__name__)

# Kept back from the budget for what recall does after this stage (load the top_k units,
# record the access), a few tens of ms at top_k 10 on a loaded machine, so an LLM past the
# budget still gives a took_ms within it at p95.
FINISH_RESERVE_S = 0.030


@dataclass
class RerankOutcome:
    """What the stage did. ``positions``: 1-based place in the LLM's order of each unit it
    listed; ``hybrid_ranks``: 1-based hybrid place of each candidate it was given."""

    status: RerankStatus
    candidates: int
    model: str
    reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    llm_ms: float = 0.0
    positions: dict[uuid.UUID, int] = field(default_factory=dict)
    hybrid_ranks: dict[uuid.UUID, int] = field(default_factory=dict)

    @property
    def degraded(self) -> bool:
        """True when the LLM's order was asked for but not used."""
        return self.status in ("timeout", "error")

    def placement(self, unit_id: uuid.UUID, index: int) -> tuple[int, int | None]:
        """(hybrid rank, rerank position) of the hit at 0-based ``index`` of the answer:
        units past the candidates kept their hybrid place."""
        return self.hybrid_ranks.get(unit_id, index + 1), self.positions.get(unit_id)


def rerank_mode(req: RecallRequest, settings: RecallSettings, available: bool) -> RerankMode:
    """The request's ``rerank``, else the server default. Raises BadRequestError (422)
    for ``llm`` when ``available`` is False (no LLM configured)."""
    mode = req.rerank or settings.rerank
    if mode == "llm" and not available:
        raise BadRequestError(
            "rerank: 'llm' needs an LLM and this server has none configured (LLM__BASE_URL "
            "and LLM__MODEL); send rerank 'none' or leave it out"
        )
    return mode


def reorder(ranked: list[Ranked], n: int, order: list[uuid.UUID]) -> list[Ranked]:
    """``ranked`` with its first ``n`` reordered: the ids of ``order`` that are among them
    first (in that order), then the others of the first ``n`` in hybrid order, then the rest."""
    head, tail = ranked[:n], ranked[n:]
    by_id = {r.id: r for r in head}
    listed = [by_id[i] for i in dict.fromkeys(order) if i in by_id]
    chosen = {r.id for r in listed}
    return listed + [r for r in head if r.id not in chosen] + tail


class LLMReranker:
    """Orders a recall's best candidates with one LLM call; ``cache`` may be None."""

    def __init__(
        self,
        llm: LLMClient,
        repo: MemoryRepository,
        settings: RecallSettings,
        cache: RerankCache | None = None,
    ) -> None:
        self.llm = llm
        self.repo = repo
        self.settings = settings
        self.cache = cache

    async def rerank(
        self,
        namespace: str,
        req: RecallRequest,
        ranked: list[Ranked],
        deadline: float,
        now: datetime,
    ) -> tuple[list[Ranked], RerankOutcome]:
        """``ranked`` reordered by the LLM (see the module docstring) and the outcome.

        ``deadline`` is a ``time.perf_counter()`` instant: the call is cancelled
        ``FINISH_RESERVE_S`` before it. ``now`` is the request's clock (the prompt's day)."""
        n = req.rerank_candidates or self.settings.rerank_candidates
        head = ranked[:n]
        model = self.settings.rerank_model or self.llm.model
        out = RerankOutcome("skipped", len(head), model)
        out.hybrid_ranks = {r.id: k for k, r in enumerate(head, start=1)}
        if len(head) < 2:
            out.reason = "fewer than two candidates: nothing to reorder"
            return self._record(ranked, n, [], out)
        units = {u.id: u for u in await self.repo.get_many(namespace, [r.id for r in head])}
        shown = [(r.id, describe(units[r.id])) for r in head if r.id in units]
        out.candidates = len(shown)
        day = today(now)
        key = RerankCache.key(namespace, model, PROMPT_VERSION, day, req.query, shown)
        cached = self.cache.get(key) if self.cache is not None else None
        if cached is not None:
            out.status = "cached"
            return self._record(ranked, n, list(cached), out)

        remaining = deadline - time.perf_counter() - FINISH_RESERVE_S
        budget_ms = self.settings.budget_ms
        if remaining <= 0:
            out.status = "timeout"
            out.reason = f"no time left of the {budget_ms} ms budget for the LLM"
            return self._record(ranked, n, [], out)
        messages = build_rerank(req.query, [text for _, text in shown], day)
        start = time.perf_counter()
        reply: ChatReply | None = None
        order: list[uuid.UUID] = []
        try:
            async with asyncio.timeout(remaining):
                reply = await self.llm.chat(messages, model=model, json_mode=True, max_retries=0)
            order = [shown[i][0] for i in parse_order(reply.content, len(shown))]
            out.status = "applied"
        except TimeoutError:
            out.status = "timeout"
            out.reason = (
                f"the LLM did not answer within the {remaining * 1000:.0f} ms left of the "
                f"{budget_ms} ms budget"
            )
        except ProviderTimeoutError as exc:  # LLM__TIMEOUT_S is shorter than the budget left
            out.status, out.reason = "timeout", str(exc)
        except ReplyParseError as exc:
            out.status, out.reason = "error", f"the LLM's reply was unusable: {exc}"
        except ProviderError as exc:
            out.status, out.reason = "error", f"the LLM failed: {exc}"
        except Exception as exc:  # an LLM failure never fails the recall
            log.warning("rerank call failed", exc_info=True)
            out.status, out.reason = "error", f"the LLM call failed: {type(exc).__name__}"
        out.llm_ms = (time.perf_counter() - start) * 1000.0
        if reply is not None:
            out.prompt_tokens, out.completion_tokens = reply.prompt_tokens, reply.completion_tokens
        RERANK_SECONDS.labels(out.status).observe(out.llm_ms / 1000.0)
        if out.status == "applied" and self.cache is not None:
            self.cache.put(key, tuple(order))
        return self._record(ranked, n, order, out)

    @staticmethod
    def _record(
        ranked: list[Ranked], n: int, order: list[uuid.UUID], out: RerankOutcome
    ) -> tuple[list[Ranked], RerankOutcome]:
        """Apply ``order``, fill ``out.positions`` and count the outcome in /metrics."""
        listed = [i for i in dict.fromkeys(order) if i in out.hybrid_ranks]
        out.positions = {i: k for k, i in enumerate(listed, start=1)}
        if out.status in ("applied", "cached") and not listed:  # tester hbreak5 F21
            out.reason = "the LLM named no candidate as helpful: the hybrid order is kept"
        RERANK.labels(out.status).inc()
        for kind, count in (("prompt", out.prompt_tokens), ("completion", out.completion_tokens)):
            if count:
                RERANK_TOKENS.labels(kind).inc(count)
        return reorder(ranked, n, listed), out
