"""The score breakdown of a ``POST /recall`` hit (signals, relevance inputs) and the weights
that scored it: wire models (docs/ARCHITECTURE.md, "The life of a /recall")."""

from __future__ import annotations

from pydantic import Field

from app.schemas.common import ResponseModel


class Scores(ResponseModel):
    """Each signal in 0..1 before weighting; ``score`` is their weighted sum."""

    semantic: float
    keyword: float
    recency: float
    confidence: float
    entity: float
    context: float = Field(
        description="Relevance of the unit's session neighbours and of its session (0..1)."
    )
    time: float = Field(
        default=0.0,
        description="1 when the unit happened within the query's time window (`time_hint`); "
        "for a question asking *when* without one, 0.3 when its text carries a date; else 0.",
    )
    answer_type: float = Field(
        default=0.0,
        description='1 when the query asks for a kind of thing ("which cities…") and the unit '
        "names one (Chicago is a city, by WordNet); else 0. Looked at for the best 50 only.",
    )


class RelevanceInputs(ResponseModel):
    """The raw signals `relevance` is computed from (not scaled over the candidates, not
    weighted into `score`)."""

    cosine: float = Field(
        default=0.0,
        description="Raw cosine similarity to the query (clipped at 0; not scaled over the "
        "candidates): an input of `relevance`, not weighted.",
    )
    coverage: float = Field(
        default=0.0,
        description="Share of the query's keyword weight (BM25 idf) the unit holds, 0..1: an "
        "input of `relevance`, not weighted.",
    )
    context_cosine: float = Field(
        default=0.0,
        description="The context signal on raw cosines (best session neighbour and session "
        "best): an input of `relevance`, not weighted.",
    )


class AppliedWeights(ResponseModel):
    """The weights that scored this recall: the profile's, with the request's overrides.
    A hit's score is the sum over signals of weight × signal, so weight × signal / score is
    each signal's share of it."""

    semantic: float
    keyword: float
    recency: float
    confidence: float
    entity: float
    context: float
    time: float
    answer_type: float = 0.0
    recency_lambda: float = Field(description="Recency decay per hour: exp(-λ·hours).")
