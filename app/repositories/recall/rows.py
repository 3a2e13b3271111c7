"""The rows of recall's candidates statement as Python values: their raw signals as columns
(:class:`ScoreColumns`, what app.services.recall.scoring ranks; a :class:`CandidateScore` per
unit only when asked for) and the entity names found (:class:`Candidates`), for
app.repositories.recall.repository."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cached_property
from typing import Any, NamedTuple, overload

from app.repositories.recall.sql import KEY_SEPARATOR

# The term_freqs of every candidate that contains no query lexeme (read-only by contract).
_NO_TERMS: Mapping[str, int] = {}


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def from_micros(us: int) -> datetime:
    """The UTC datetime ``us`` microseconds after the Unix epoch (what asyncpg decodes a
    ``timestamptz`` to: the same value, the same ``tzinfo``)."""
    return EPOCH + timedelta(microseconds=us)


class MicroTimes(Sequence[datetime]):
    """The candidates' ``occurred_at`` as the exact path's statement sends them: microseconds
    since the Unix epoch (``micros``, a ``bigint`` each: asyncpg decodes 680 of them in a
    fraction of the ~0.5 ms that as many ``timestamptz`` cost). Read as datetimes, each one
    converted when read (:func:`from_micros`); app.services.recall.sessions.Times reads
    ``micros`` itself."""

    __slots__ = ("micros",)

    def __init__(self, micros: Sequence[int]) -> None:
        self.micros = micros

    def __len__(self) -> int:
        return len(self.micros)

    @overload
    def __getitem__(self, i: int) -> datetime: ...

    @overload
    def __getitem__(self, i: slice) -> list[datetime]: ...

    def __getitem__(self, i: int | slice) -> datetime | list[datetime]:
        if isinstance(i, slice):
            return [from_micros(us) for us in self.micros[i]]
        return from_micros(self.micros[i])

    def __iter__(self) -> Iterator[datetime]:
        return map(from_micros, self.micros)


class CandidateScore(NamedTuple):
    """Raw signals of one candidate, before normalisation and weighting.

    ``term_freqs``: occurrences of each query lexeme in the unit's keyword index (only the
    lexemes it contains; empty when it matches none); ``length``: the unit's number of
    distinct lexemes (BM25's document length). ``session_id`` and ``occurred_at`` place the
    unit among its session's units for the context signal. ``dated``: the unit's text carries
    a date word (None when the recall did not ask, see ``sql.DATED_TSQUERY``).

    A named tuple, not a frozen dataclass (its ``__init__`` cost ~10 µs against ~1 µs); a
    recall ranks :class:`ScoreColumns`, not these.
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


@dataclass(frozen=True, slots=True)
class ScoreColumns:
    """The candidates' raw signals as columns: one sequence per :class:`CandidateScore`
    field, in candidate order (what ranking reads, app.services.recall.scoring; building a
    CandidateScore per unit cost ~0.7 µs each, ~0.5 ms for LoCoMo's 680 candidates)."""

    id: Sequence[uuid.UUID]
    semantic_value: Sequence[float]
    semantic_query: Sequence[float]
    term_freqs: Sequence[Mapping[str, int]]
    length: Sequence[int]
    entity_match: Sequence[bool]
    session_id: Sequence[str | None]
    occurred_at: Sequence[datetime]
    confidence: Sequence[float]
    dated: Sequence[bool | None]

    @property
    def size(self) -> int:
        """How many candidates."""
        return len(self.id)

    def fields(self) -> tuple[Sequence[Any], ...]:
        """The columns, in CandidateScore's field order."""
        return (
            self.id,
            self.semantic_value,
            self.semantic_query,
            self.term_freqs,
            self.length,
            self.entity_match,
            self.session_id,
            self.occurred_at,
            self.confidence,
            self.dated,
        )

    def scores(self) -> list[CandidateScore]:
        """One CandidateScore per candidate, in order."""
        return [CandidateScore._make(values) for values in zip(*self.fields(), strict=True)]

    def __add__(self, other: ScoreColumns) -> ScoreColumns:
        """These candidates, then ``other``'s."""
        a, b = self.fields(), other.fields()
        return ScoreColumns(*(list(x) + list(y) for x, y in zip(a, b, strict=True)))

    @classmethod
    def of(cls, scores: Sequence[CandidateScore]) -> ScoreColumns:
        """The columns of ``scores``."""
        if not scores:
            return cls(*([] for _ in CandidateScore._fields))
        return cls(*zip(*scores, strict=True))


@dataclass
class Candidates:
    """What :meth:`RecallRepository.candidates` found: the raw signals (``columns``; as
    CandidateScores, ``scores``, built when first asked for) and which of the entity
    candidates name an entity of a unit matching the filters (in the order given);
    ``values``: each candidate's value by id, when the statement was asked to read them
    (what the answer-type signal reads; None: not read)."""

    columns: ScoreColumns = field(default_factory=lambda: ScoreColumns.of([]))
    known: list[str] = field(default_factory=list)
    values: dict[uuid.UUID, str] | None = None

    @cached_property
    def scores(self) -> list[CandidateScore]:
        """The candidates as CandidateScores, in order."""
        return self.columns.scores()


def candidates_of(
    rows: Sequence[Any], ents: list[str], predicted: list[str] | None = None, values: bool = False
) -> Candidates:
    """The Candidates of the candidates statement's rows (either path); ``predicted``: the
    known names the statement was told to expect (its ``_known`` is NULL when they are
    right); ``values``: the rows carry ``_value`` before ``_known`` (``Candidates.values``)."""
    if not rows:
        return Candidates(ScoreColumns.of([]), [], {} if values else None)
    # The rows transposed in the statement's column order (SCORING_COLUMNS, then the
    # signals), no object per unit. No conversions: asyncpg already returns float (double
    # precision: the similarities, ``confidence``), int (``length``), bool (``&&``;
    # entity_keys is NOT NULL) and lists (text[]). A unit matching no query lexeme (most of
    # them) shares one empty mapping.
    cols = list(zip(*rows, strict=True))
    ids, session_id, occurred_at, confidence, sv, sq, hits, dl, ent, dated = cols[:10]
    fromkeys, none = dict.fromkeys, _NO_TERMS
    tfs = [fromkeys(h, 1) if h else none for h in hits]
    columns = ScoreColumns(ids, sv, sq, tfs, dl, ent, session_id, occurred_at, confidence, dated)
    # The known names are the same on every row (one scalar sub-query), NULL when predicted.
    found = cols[-1][0]
    found_known = set(predicted or ()) if found is None else set(found)
    texts = dict(zip(ids, cols[10], strict=True)) if values else None
    return Candidates(columns, [k for k in ents if k in found_known], texts)


def candidates_of_columns(row: Sequence[Any], ents: list[str], values: bool = False) -> Candidates:
    """:func:`candidates_of` for the statement's rows as one row of arrays (the exact path,
    ``exact.as_columns``): the same columns, in the same order; ``occurred_at`` in
    microseconds since the epoch (:class:`MicroTimes`); ``_hits`` one string per
    unit, its lexemes joined by a space; ``_known`` the entity keys of the units naming an
    entity candidate, joined by ``sql.KEY_SEPARATOR`` (NULL: none), of which the known names
    are those in ``ents``."""
    ids = row[0]
    if not ids:
        return Candidates(ScoreColumns.of([]), [], {} if values else None)
    session_id, micros, confidence, sv, sq, hits, dl, ent, dated = row[1:10]
    fromkeys, none = dict.fromkeys, _NO_TERMS
    tfs = [fromkeys(h.split(" "), 1) if h else none for h in hits]
    occurred_at = MicroTimes(micros)
    columns = ScoreColumns(ids, sv, sq, tfs, dl, ent, session_id, occurred_at, confidence, dated)
    keys = row[-1]
    found_known = set(keys.split(KEY_SEPARATOR)) if keys else set()
    texts = dict(zip(ids, row[10], strict=True)) if values else None
    return Candidates(columns, [k for k in ents if k in found_known], texts)
