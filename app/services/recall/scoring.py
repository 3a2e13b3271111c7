"""Hybrid recall scoring (docs/ARCHITECTURE.md): each signal scaled to 0..1, then a weighted sum.

    score = w_s·semantic + w_k·keyword + w_r·recency + w_c·confidence + w_e·entity
            + w_x·context

- semantic: the better of value and scenario (``query``) cosine similarity, min-max scaled
  over this recall's candidates (min-max fusion beat RRF k=60 on LoCoMo:
  docs/ARCHITECTURE.md#design-figures);
- keyword: Okapi BM25 over the candidates (idf and average length from the candidates, which
  for a subject scored exactly are all its units; a query term counts as present or absent),
  divided by the best candidate's;
- recency: exp(-λ·hours since occurred_at), λ per hour (0.01 → half weight at ~70 h);
- confidence: the unit's own 0..1;
- entity: 1 when the unit names an entity the query names (+0.03 recall@10,
  docs/ARCHITECTURE.md#design-figures);
- context: how relevant the unit's surroundings are — the mean of (a) the better of the
  previous and the next unit of its session and (b) the best unit of its session, where a
  unit's relevance is its semantic and keyword mix ``(w_s·semantic + w_k·keyword)/(w_s+w_k)``.
  A short reply ("Yes, last Friday!") carries little text of its own; its topic is in the
  turn before it and in the rest of the conversation (neighbouring-turn context +0.05,
  docs/ARCHITECTURE.md#design-figures). A unit without a session, or alone in it, is its
  own context.

Sessions are ordered by (occurred_at, id): ids are UUIDv7, so units stored in one batch with
the same time keep their input order. For subjects above the exact-scan limit only the
candidates are known, so "neighbour" means the adjacent candidate of the same session.
"""

from __future__ import annotations

import heapq
import math
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from app.core.config import RecallSettings
from app.repositories.recall.repository import CandidateScore
from app.services.recall import relevance as calibrated

SIGNALS = ("semantic", "keyword", "recency", "confidence", "entity", "context", "time")

# The time signal of a unit whose text carries a date word, for a question asking *when*
# without naming a time (x weight_time 0.2 = 0.06; measured alone, 0.02-0.05 was best).
DATED_VALUE = 0.3

# The seeds' original weights (docs/ARCHITECTURE.md): recency-heavy, for short-lived tasks.
SHORT_TERM = {
    "semantic": 0.5,
    "keyword": 0.2,
    "recency": 0.2,
    "confidence": 0.1,
    "entity": 0.0,
    "context": 0.0,
    "time": 0.0,
}

# Okapi BM25 parameters: the customary k1 = 1.2, b = 0.75 (Robertson & Zaragoza, "The
# Probabilistic Relevance Framework: BM25 and Beyond", 2009). Other values moved LoCoMo
# recall@10 by at most 0.004 with the other signals on (docs/EVAL.md).
BM25_K1 = 1.2
BM25_B = 0.75


@dataclass(frozen=True)
class Weighting:
    """Weights per signal and the recency decay per hour."""

    weights: dict[str, float]
    recency_lambda: float


def profile_weights(profile: str, settings: RecallSettings) -> Weighting:
    """The weights of a named profile: ``long_term`` (the shipped defaults, from settings)
    or ``short_term`` (the seeds' weights)."""
    if profile == "short_term":
        return Weighting(dict(SHORT_TERM), settings.recency_lambda)
    return Weighting(
        {
            "semantic": settings.weight_semantic,
            "keyword": settings.weight_keyword,
            "recency": settings.weight_recency,
            "confidence": settings.weight_confidence,
            "entity": settings.weight_entity,
            "context": settings.weight_context,
            "time": settings.weight_time,
        },
        settings.recency_lambda,
    )


@dataclass(frozen=True)
class Ranked:
    """One scored candidate."""

    id: uuid.UUID
    score: float
    scores: dict[str, float]
    relevance: float = 0.0  # app.services.recall.relevance
    # What brought it into the list (:func:`via`): "direct", "session" or "entity".
    via: str = "direct"
    # The raw inputs of ``relevance`` (cosine, coverage, context_cosine).
    raw: dict[str, float] = field(default_factory=dict)
    # What the diversity step (app.services.recall.collapse.diversify) took off ``score``
    # for nearly repeating a better-placed hit, and that hit.
    redundancy: float = 0.0
    redundant_with: uuid.UUID | None = None


def recency(occurred_at: datetime, now: datetime, lam: float) -> float:
    """exp(-λ·hours since ``occurred_at``); events in the future of ``now`` count as now."""
    hours = max(0.0, (now - occurred_at).total_seconds() / 3600.0)
    return math.exp(-lam * hours)


def idf(candidates: list[CandidateScore]) -> dict[str, float]:
    """BM25's inverse document frequency of each query lexeme some candidate holds."""
    n = len(candidates)
    df = Counter(lexeme for c in candidates if c.term_freqs for lexeme in c.term_freqs)
    return {lex: math.log(1.0 + (n - d + 0.5) / (d + 0.5)) for lex, d in df.items()}


def bm25(candidates: list[CandidateScore], idfs: dict[str, float] | None = None) -> list[float]:
    """Okapi BM25 of each candidate for the query whose lexeme counts it carries
    (``term_freqs``), with document frequencies, N and the average length taken over
    ``candidates``; 0 for a candidate that matches no query lexeme. ``idfs``: :func:`idf` of
    ``candidates`` when already computed."""
    n = len(candidates)
    if n == 0:
        return []
    avg_len = sum(max(1, c.length) for c in candidates) / n
    weights = idfs if idfs is not None else idf(candidates)
    k1_plus = BM25_K1 + 1.0
    scores = [0.0] * n
    # Most candidates of a recall hold no query lexeme (a small subject's units are all
    # candidates; a large one's come mostly from the vector sources): only the others count.
    for i, c in enumerate(candidates):
        if c.term_freqs:
            norm = BM25_K1 * (1.0 - BM25_B + BM25_B * max(1, c.length) / avg_len)
            scores[i] = sum(
                weights[lex] * tf * k1_plus / (tf + norm) for lex, tf in c.term_freqs.items()
            )
    return scores


def context(candidates: list[CandidateScore], relevance: list[float]) -> list[float]:
    """Per candidate: mean of its best neighbour's relevance (previous or next unit of the
    same session, in (occurred_at, id) order) and its session's best relevance; a candidate
    without a session is its own context, and one without neighbours its own neighbour."""
    out = list(relevance)
    sessions: dict[str, list[int]] = {}
    for i, c in enumerate(candidates):
        if c.session_id is not None:
            sessions.setdefault(c.session_id, []).append(i)
    for members in sessions.values():
        if len(members) == 1:  # its own neighbour and its session's best
            i = members[0]
            out[i] = 0.5 * relevance[i] + 0.5 * relevance[i]
            continue
        members.sort(key=lambda i: (candidates[i].occurred_at, candidates[i].id))
        rel = [relevance[i] for i in members]
        best = max(rel)
        last = len(members) - 1
        for pos, i in enumerate(members):
            if pos == 0:
                near = rel[1]
            elif pos == last:
                near = rel[pos - 1]
            else:
                a, b = rel[pos - 1], rel[pos + 1]
                near = a if a >= b else b
            out[i] = 0.5 * near + 0.5 * best
    return out


def _minmax(values: list[float]) -> list[float]:
    if not values:
        return []
    lo, hi = min(values), max(values)
    if hi - lo < 1e-9:
        return [1.0 if hi > 0 else 0.0 for _ in values]
    return [(v - lo) / (hi - lo) for v in values]


def time_signal(
    c: CandidateScore, window: tuple[datetime, datetime] | None, asks_when: bool
) -> float:
    """1 when the unit happened within the query's time ``window`` ([start, end)); without a
    window, for a question asking *when*, DATED_VALUE when its text carries a date word;
    else 0. A signal, never a filter: a question's date is often approximate."""
    if window is not None:
        return 1.0 if window[0] <= c.occurred_at < window[1] else 0.0
    if asks_when and c.dated:
        return DATED_VALUE
    return 0.0


def rank(
    candidates: list[CandidateScore],
    weighting: Weighting,
    now: datetime,
    limit: int | None = None,
    window: tuple[datetime, datetime] | None = None,
    asks_when: bool = False,
) -> list[Ranked]:
    """Score every candidate and sort best first (ties: newer first, then id); with
    ``limit``, only the best ``limit`` are returned (the same as the first ``limit`` of the
    full list: every candidate is still scored, only the result objects are spared).
    ``window`` / ``asks_when``: the query's time window and whether it asks *when* (the
    time signal, :func:`time_signal`)."""
    w = weighting.weights
    raw_cosine = [max(c.semantic_value, c.semantic_query) for c in candidates]
    semantic = _minmax(raw_cosine)
    cosine = [x if x > 0.0 else 0.0 for x in raw_cosine]  # relevance's, clipped at 0
    idfs = idf(candidates)
    idf_total = sum(idfs.values())
    raw_keyword = bm25(candidates, idfs)
    kw_max = max(raw_keyword, default=0.0)
    keyword = [k / kw_max if kw_max > 0 else 0.0 for k in raw_keyword]
    mix = w["semantic"] + w["keyword"]
    relevance = [
        (w["semantic"] * s + w["keyword"] * k) / mix if mix > 0 else 0.0
        for s, k in zip(semantic, keyword, strict=True)
    ]
    ctx = context(candidates, relevance)
    lam = weighting.recency_lambda
    ws, wk, wr, wc, we, wx, wt = (w.get(name, 0.0) for name in SIGNALS)
    rec = [recency(c.occurred_at, now, lam) for c in candidates]
    if window is not None or asks_when:
        tim = [time_signal(c, window, asks_when) for c in candidates]
    else:
        tim = [0.0] * len(candidates)
    # The weighted sum in SIGNALS order, added left to right as sum() over SIGNALS would.
    totals = [
        ws * semantic[i]
        + wk * keyword[i]
        + wr * rec[i]
        + wc * c.confidence
        + we * (1.0 if c.entity_match else 0.0)
        + wx * ctx[i]
        + wt * tim[i]
        for i, c in enumerate(candidates)
    ]
    ranked: list[Ranked] = []
    best = _best_first(candidates, totals, limit)
    ctx_cos = context(candidates, cosine) if best else []
    # Whether the query names an entity of the subject (some candidate names it): only then
    # does a unit that does not name it count against its relevance.
    named = any(c.entity_match for c in candidates) if best else False
    for i in best:
        c = candidates[i]
        cov = (
            sum(idfs[lex] for lex in c.term_freqs) / idf_total
            if c.term_freqs and idf_total > 0
            else 0.0
        )
        scores = {
            "semantic": semantic[i],
            "keyword": keyword[i],
            "recency": rec[i],
            "confidence": c.confidence,
            "entity": 1.0 if c.entity_match else 0.0,
            "context": ctx[i],
            "time": tim[i],
        }
        raw = {"cosine": cosine[i], "coverage": cov, "context_cosine": ctx_cos[i]}
        rel = calibrated.relevance(cosine[i], cov, c.entity_match if named else None, ctx_cos[i])
        own = ws * semantic[i] + wk * keyword[i]
        how = via(own, wx * ctx[i] if ctx[i] > relevance[i] else 0.0, we * scores["entity"])
        ranked.append(Ranked(c.id, totals[i], scores, rel, how, raw))
    return ranked


def via(own: float, session: float, entity: float) -> str:
    """What brought a hit into the list, from the weighted contributions to its score: its
    own match with the query (semantic + keyword: ``direct``), its session (the context
    signal, counted only when a neighbour or session-mate matched better than the unit
    itself: ``session``) or naming an entity the query names (``entity``) — the largest."""
    if session > own and session >= entity:
        return "session"
    if entity > own:
        return "entity"
    return "direct"


def _best_first(
    candidates: list[CandidateScore], totals: list[float], limit: int | None
) -> list[int]:
    """Indexes of the best ``limit`` (all when None) by total, ties newer first, then by id.

    The full key (a timestamp and the id as text) is built only for the candidates that can
    reach the cut: those with a total at least the ``limit``-th best (~1 µs a key saved per
    other candidate)."""
    n = len(candidates)
    if limit is not None and 0 < limit < n:
        floor = heapq.nlargest(limit, totals)[-1]
        pool = [i for i in range(n) if totals[i] >= floor]
    else:
        pool = list(range(n))
    pool.sort(
        key=lambda i: (-totals[i], -candidates[i].occurred_at.timestamp(), str(candidates[i].id))
    )
    return pool if limit is None else pool[:limit]
