"""Hybrid recall scoring (docs/ARCHITECTURE.md): each signal scaled to 0..1, then a weighted sum.

    score = w_s·semantic + w_k·keyword + w_r·recency + w_c·confidence + w_e·entity
            + w_x·context + w_t·time + w_a·answer_type

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
- time: 1 when the unit happened in the query's time window (``time_signal``);
- answer_type: 0 here; 1 for a hit of the head that names the kind of thing the query asks
  for, set after ranking (app.services.recall.answer_type: it reads the hits' text).

Sessions are ordered by (occurred_at, id): ids are UUIDv7, so units stored in one batch with
the same time keep their input order. For subjects above the exact-scan limit only the
candidates are known, so "neighbour" means the adjacent candidate of the same session.
"""

from __future__ import annotations

import math
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import chain
from operator import methodcaller

import numpy as np

from app.core.config import RecallSettings
from app.repositories.recall.repository import CandidateScore
from app.repositories.recall.rows import ScoreColumns
from app.services.recall import relevance as calibrated
from app.services.recall.sessions import Sessions, Times

SIGNALS = (
    "semantic",
    "keyword",
    "recency",
    "confidence",
    "entity",
    "context",
    "time",
    "answer_type",
)

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
    "answer_type": 0.0,
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
            "answer_type": settings.weight_answer_type,
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
    # Another write subject's newer unit that changed what this one says (a ``replaces``
    # link among the head's units: app.services.recall.replaced).
    replaced_by: uuid.UUID | None = None


def recency(occurred_at: datetime, now: datetime, lam: float) -> float:
    """exp(-λ·hours since ``occurred_at``); events in the future of ``now`` count as now."""
    hours = max(0.0, (now - occurred_at).total_seconds() / 3600.0)
    return math.exp(-lam * hours)


def idf(candidates: list[CandidateScore]) -> dict[str, float]:
    """BM25's inverse document frequency of each query lexeme some candidate holds."""
    return _idf(len(candidates), [c.term_freqs for c in candidates])


def _idf(n: int, term_freqs: Sequence[Mapping[str, int]]) -> dict[str, float]:
    # A unit's lexemes, each counted once (keys of its mapping), in order of first appearance.
    df = Counter(chain.from_iterable(filter(None, term_freqs)))
    return {lex: math.log(1.0 + (n - d + 0.5) / (d + 0.5)) for lex, d in df.items()}


def bm25(candidates: list[CandidateScore], idfs: dict[str, float] | None = None) -> list[float]:
    """Okapi BM25 of each candidate for the query whose lexeme counts it carries
    (``term_freqs``), with document frequencies, N and the average length taken over
    ``candidates``; 0 for a candidate that matches no query lexeme. ``idfs``: :func:`idf` of
    ``candidates`` when already computed."""
    tfs = [c.term_freqs for c in candidates]
    weights = idfs if idfs is not None else _idf(len(tfs), tfs)
    lengths = np.fromiter((c.length for c in candidates), np.int64, len(candidates))
    out: list[float] = _bm25(tfs, lengths, weights).tolist()
    return out


def _bm25(
    term_freqs: Sequence[Mapping[str, int]], lengths: np.ndarray, weights: dict[str, float]
) -> np.ndarray:
    """:func:`bm25` over columns. Each candidate's terms are added in the order of its
    mapping, as ``sum()`` over them would (the same bits), one term position at a time."""
    n = len(term_freqs)
    scores = np.zeros(n)
    if n == 0:
        return scores
    avg_len = int(np.maximum(lengths, 1).sum()) / n
    # Most candidates of a recall hold no query lexeme (a small subject's units are all
    # candidates; a large one's come mostly from the vector sources): only the others count.
    held = np.flatnonzero(np.fromiter(map(bool, term_freqs), bool, n))
    if not len(held):
        return scores
    maps = [term_freqs[i] for i in held.tolist()]
    counts = np.fromiter(map(len, maps), np.int64, len(maps))
    owner = np.repeat(held, counts)
    idf_w = np.array([weights[lex] for lex in chain.from_iterable(maps)])
    tf = np.fromiter(chain.from_iterable(map(_VALUES, maps)), np.int64, len(owner))
    # position of each term within its candidate's mapping
    at = np.arange(len(owner)) - np.repeat(np.cumsum(counts) - counts, counts)
    norm = BM25_K1 * (1.0 - BM25_B + BM25_B * np.maximum(lengths[owner], 1) / avg_len)
    terms = idf_w * tf * (BM25_K1 + 1.0) / (tf + norm)
    for k in range(int(counts.max())):
        pick = at == k
        scores[owner[pick]] += terms[pick]
    return scores


_VALUES = methodcaller("values")


def context(candidates: list[CandidateScore], relevance: list[float]) -> list[float]:
    """Per candidate: mean of its best neighbour's relevance (previous or next unit of the
    same session, in (occurred_at, id) order) and its session's best relevance; a candidate
    without a session is its own context, and one without neighbours its own neighbour."""
    layout = Sessions(
        [c.session_id for c in candidates],
        Times([c.occurred_at for c in candidates]),
        [c.id for c in candidates],
    )
    out: list[float] = layout.context(np.asarray(relevance, dtype=float)).tolist()
    return out


def _minmax(values: np.ndarray) -> np.ndarray:
    if not len(values):
        return values
    lo, hi = float(values.min()), float(values.max())
    if hi - lo < 1e-9:
        return np.full(len(values), 1.0 if hi > 0 else 0.0)
    return (values - lo) / (hi - lo)


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
    candidates: Sequence[CandidateScore] | ScoreColumns,
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
    time signal, :func:`time_signal`). ``candidates``: CandidateScores or their columns
    (what the candidates statement gives: the same ranking).

    Vectorised over the candidates (numpy), with the same operations in the same order as
    the per-candidate definitions above (:func:`recency`, :func:`bm25`, :func:`context`,
    :func:`time_signal`): the same scores, bit for bit. Transcendental functions (exp, log)
    stay Python's ``math``, once per distinct time or lexeme."""
    cols = candidates if isinstance(candidates, ScoreColumns) else ScoreColumns.of(candidates)
    n = cols.size
    if n == 0:
        return []
    ids, sv, sq, tfs, lengths, ents, sessions, occurred, conf, dated = cols.fields()
    w = weighting.weights
    value, scenario = np.array(sv, dtype=float), np.array(sq, dtype=float)
    raw_cosine = np.where(scenario > value, scenario, value)  # max(value, scenario)
    semantic = _minmax(raw_cosine)
    cosine = np.where(raw_cosine > 0.0, raw_cosine, 0.0)  # relevance's, clipped at 0
    idfs = _idf(n, tfs)
    idf_total = sum(idfs.values())
    raw_keyword = _bm25(tfs, np.array(lengths, dtype=np.int64), idfs)
    kw_max = float(raw_keyword.max())
    keyword = raw_keyword / kw_max if kw_max > 0 else np.zeros(n)
    mix = w["semantic"] + w["keyword"]
    relevance = (w["semantic"] * semantic + w["keyword"] * keyword) / mix if mix > 0 else None
    when = Times(occurred)
    layout = Sessions(sessions, when, ids)
    ctx = layout.context(relevance if relevance is not None else np.zeros(n))
    lam = weighting.recency_lambda
    ws, wk, wr, wc, we, wx, wt = (w.get(name, 0.0) for name in SIGNALS[:7])
    rec = when.each(lambda t: recency(t, now, lam))
    if window is not None:
        tim = when.each(lambda t: 1.0 if window[0] <= t < window[1] else 0.0)
    elif asks_when:
        tim = np.where(np.fromiter(map(bool, dated), bool, n), DATED_VALUE, 0.0)
    else:
        tim = np.zeros(n)
    entity = np.fromiter(map(bool, ents), bool, n)
    # The weighted sum in SIGNALS order, added left to right as sum() over SIGNALS would.
    totals = (
        ws * semantic
        + wk * keyword
        + wr * rec
        + wc * np.array(conf, dtype=float)
        + we * entity.astype(float)
        + wx * ctx
        + wt * tim
    )
    best = _best_first(ids, occurred, totals, limit)
    ctx_cos = layout.context(cosine)
    # Whether the query names an entity of the subject (some candidate names it): only then
    # does a unit that does not name it count against its relevance.
    named = bool(entity.any())
    ranked: list[Ranked] = []
    for i in best:
        terms, entity_match = tfs[i], ents[i]
        cov = sum(idfs[lex] for lex in terms) / idf_total if terms and idf_total > 0 else 0.0
        s_i, k_i, x_i, cos_i = (
            float(semantic[i]),
            float(keyword[i]),
            float(ctx[i]),
            float(cosine[i]),
        )
        scores = {
            "semantic": s_i,
            "keyword": k_i,
            "recency": float(rec[i]),
            "confidence": conf[i],
            "entity": 1.0 if entity_match else 0.0,
            "context": x_i,
            "time": float(tim[i]),
            "answer_type": 0.0,  # set by app.services.recall.answer_type, for the head only
        }
        raw = {"cosine": cos_i, "coverage": cov, "context_cosine": float(ctx_cos[i])}
        rel = calibrated.relevance(
            cos_i, cov, entity_match if named else None, raw["context_cosine"]
        )
        own = ws * s_i + wk * k_i
        rel_i = float(relevance[i]) if relevance is not None else 0.0
        how = via(own, wx * x_i if x_i > rel_i else 0.0, we * scores["entity"])
        ranked.append(Ranked(ids[i], float(totals[i]), scores, rel, how, raw))
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
    ids: Sequence[uuid.UUID],
    occurred: Sequence[datetime],
    totals: np.ndarray,
    limit: int | None,
) -> list[int]:
    """Indexes of the best ``limit`` (all when None) by total, ties newer first, then by id.

    The full key (a timestamp and the id as text) is built only for the candidates that can
    reach the cut: those with a total at least the ``limit``-th best (~1 µs a key saved per
    other candidate)."""
    n = len(ids)
    if limit is not None and 0 < limit < n:
        floor = np.partition(totals, n - limit)[n - limit]  # the limit-th best
        pool = np.flatnonzero(totals >= floor).tolist()
    else:
        pool = list(range(n))
    total = totals.tolist()
    pool.sort(key=lambda i: (-total[i], -occurred[i].timestamp(), str(ids[i])))
    return pool if limit is None else pool[:limit]
