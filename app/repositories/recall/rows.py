"""The rows of recall's candidates statement as Python values: one :class:`CandidateScore`
per unit (the raw signals app.services.recall.scoring ranks) and the entity names found
(:class:`Candidates`), for app.repositories.recall.repository."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

# The term_freqs of every candidate that contains no query lexeme (read-only by contract).
_NO_TERMS: Mapping[str, int] = {}


class CandidateScore(NamedTuple):
    """Raw signals of one candidate, before normalisation and weighting.

    ``term_freqs``: occurrences of each query lexeme in the unit's keyword index (only the
    lexemes it contains; empty when it matches none); ``length``: the unit's number of
    distinct lexemes (BM25's document length). ``session_id`` and ``occurred_at`` place the
    unit among its session's units for the context signal. ``dated``: the unit's text carries
    a date word (None when the recall did not ask, see ``sql.DATED_TSQUERY``).

    A named tuple, not a frozen dataclass: one is built per candidate, and a frozen
    dataclass's ``__init__`` cost ~10 µs against ~1 µs (600 candidates: ~5 ms of a recall on a
    loaded 2-core machine).
    """

    id: uuid.UUID
    semantic_value: float
    semantic_query: float
    term_freqs: Mapping[str, int]
    length: int
    entity_match: bool
    session_id: str | None
    occurred_at: datetime
    confidence: float
    dated: bool | None = None


# CandidateScore's fields in order: what _candidates builds one from (type-checked; tuple.__new__
# itself runs no Python code per candidate).
_ScoreFields = tuple[
    uuid.UUID,
    float,
    float,
    Mapping[str, int],
    int,
    bool,
    str | None,
    datetime,
    float,
    bool | None,
]
_new_score: Callable[[type[CandidateScore], _ScoreFields], CandidateScore] = tuple.__new__


@dataclass
class Candidates:
    """What :meth:`RecallRepository.candidates` found: the raw signals and which of the
    entity candidates name an entity of a unit matching the filters (in the order given);
    ``values``: each candidate's value by id, when the statement was asked to read them
    (what the answer-type signal reads; None: not read)."""

    scores: list[CandidateScore] = field(default_factory=list)
    known: list[str] = field(default_factory=list)
    values: dict[uuid.UUID, str] | None = None


def candidates_of(
    rows: Sequence[Any], ents: list[str], predicted: list[str] | None = None, values: bool = False
) -> Candidates:
    """The Candidates of the candidates statement's rows (either path); ``predicted``: the
    known names the statement was told to expect (its ``_known`` is NULL when they are
    right); ``values``: the rows carry ``_value`` before ``_known`` (``Candidates.values``)."""
    # The rows unpacked in the statement's column order (SCORING_COLUMNS, then the signals),
    # each CandidateScore built from its fields' tuple (``tuple.__new__``: no Python-level
    # ``__new__`` per candidate; the NamedTuple's own costs ~0.4 ms more per 600 candidates on
    # the loaded 2-core machine). No conversions: asyncpg already returns float (double
    # precision: the similarities, ``confidence``), int (``length``), bool (``&&``;
    # entity_keys is NOT NULL) and lists (text[]). A unit matching no query lexeme (most of
    # them) shares one empty mapping.
    new, fromkeys, none = _new_score, dict.fromkeys, _NO_TERMS
    scores = [
        new(
            CandidateScore,
            (
                unit_id,
                sv,
                sq,
                fromkeys(hits, 1) if hits else none,
                dl,
                ent,
                session_id,
                occurred_at,
                confidence,
                dated,
            ),
        )
        for (
            unit_id,
            session_id,
            occurred_at,
            confidence,
            sv,
            sq,
            hits,
            dl,
            ent,
            dated,
            *_,
        ) in rows
    ]
    # The known names are the same on every row (one scalar sub-query), NULL when predicted.
    found = rows[0][-1] if rows else ()
    found_known = set(predicted or ()) if found is None else set(found)
    texts = {row[0]: row[10] for row in rows} if values else None
    return Candidates(scores, [k for k in ents if k in found_known], texts)
