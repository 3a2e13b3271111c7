"""Hybrid recall scoring (DESIGN §7): each signal scaled to 0..1, then a weighted sum.

    score = w_s·semantic + w_k·keyword + w_r·recency + w_c·confidence + w_e·entity

- semantic: the better of value and scenario (``query``) cosine similarity, min-max scaled
  over this recall's candidates (DESIGN §7.1: min-max fusion beat RRF k=60 on LoCoMo);
- keyword: ``ts_rank`` divided by the best candidate's;
- recency: exp(-λ·hours since occurred_at), λ per hour (0.01 → half weight at ~70 h);
- confidence: the unit's own 0..1;
- entity: 1 when the unit names an entity the query names (DESIGN §7.1: +0.03 recall@10).
"""

from __future__ import annotations

import math
import uuid
from dataclasses import dataclass
from datetime import datetime

from app.core.config import RecallSettings
from app.repositories.memory import CandidateScore

SIGNALS = ("semantic", "keyword", "recency", "confidence", "entity")

# The seeds' original weights (DESIGN §7): recency-heavy, for short-lived tasks.
SHORT_TERM = {"semantic": 0.5, "keyword": 0.2, "recency": 0.2, "confidence": 0.1, "entity": 0.0}


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
        },
        settings.recency_lambda,
    )


@dataclass(frozen=True)
class Ranked:
    """One scored candidate."""

    id: uuid.UUID
    score: float
    scores: dict[str, float]


def recency(occurred_at: datetime, now: datetime, lam: float) -> float:
    """exp(-λ·hours since ``occurred_at``); events in the future of ``now`` count as now."""
    hours = max(0.0, (now - occurred_at).total_seconds() / 3600.0)
    return math.exp(-lam * hours)


def _minmax(values: list[float]) -> list[float]:
    if not values:
        return []
    lo, hi = min(values), max(values)
    if hi - lo < 1e-9:
        return [1.0 if hi > 0 else 0.0 for _ in values]
    return [(v - lo) / (hi - lo) for v in values]


def rank(candidates: list[CandidateScore], weighting: Weighting, now: datetime) -> list[Ranked]:
    """Score every candidate and sort best first (ties: newer first, then id)."""
    semantic = _minmax([max(c.semantic_value, c.semantic_query) for c in candidates])
    kw_max = max((c.keyword for c in candidates), default=0.0)
    w = weighting.weights
    ranked: list[Ranked] = []
    for c, sem in zip(candidates, semantic, strict=True):
        scores = {
            "semantic": sem,
            "keyword": c.keyword / kw_max if kw_max > 0 else 0.0,
            "recency": recency(c.occurred_at, now, weighting.recency_lambda),
            "confidence": c.confidence,
            "entity": 1.0 if c.entity_match else 0.0,
        }
        total = sum(w[s] * scores[s] for s in SIGNALS)
        ranked.append(Ranked(c.id, total, scores))
    order = {c.id: c.occurred_at for c in candidates}
    ranked.sort(key=lambda r: (-r.score, -order[r.id].timestamp(), str(r.id)))
    return ranked
