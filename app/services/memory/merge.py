"""Merging a restatement into the unit that already holds the fact: the one implementation
used by the write path (``/store``, extraction, distillation, consolidation), by corrections
(a ``PATCH`` that makes a unit a duplicate of another) and by the reconciliation job.

Whether two units are the same memory is decided by the pair decision
(:func:`app.services.memory.pairs.plan.plan`, pure); :func:`decide_against` and
:func:`first_duplicate` put it to a unit's neighbours. This module then says what the
survivor keeps: its id and value; its confidence raised by noisy-OR (two independent
confirmations: 1-(1-a)(1-b)), ``last_confirmed_at`` refreshed, ``merge_count`` bumped, and
references, entities, sources and a missing trigger scenario carried over
(:func:`merge_into`); a restatement worded otherwise is kept in ``metadata["restated_as"]``
(the last ten), so a wrong merge loses no accepted text. A stored unit merged into another
(:func:`absorb`) becomes ``merged`` with ``merged_into`` = the survivor: kept for history,
its id resolves to the survivor.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

import numpy as np

from app.core.config import ConflictSettings, DedupeSettings
from app.core.text import entity_keys, search_text, value_hash
from app.core.vocabulary import UnitStatus
from app.models import MemoryUnit
from app.repositories.memory.units import Neighbour
from app.schemas.limits import json_bytes
from app.schemas.memory import MemoryCreate
from app.services.memory.pairs import lexical
from app.services.memory.pairs.decision import Thresholds
from app.services.memory.pairs.inferred import as_decided, decided_keys, inferred_fields
from app.services.memory.pairs.plan import Candidate, Plan, other_occurrence, plan
from app.services.memory.resolution import candidate_gate, said_at


def thresholds(dedupe: DedupeSettings, conflicts: ConflictSettings, model: str) -> Thresholds:
    """The pair decision's zones for an embedding model: the candidate gate
    (``CONFLICTS__MIN_COSINE_BY_MODEL``), ``DEDUPE__MERGE_P``, ``DEDUPE__UNSURE_P`` and the
    review band (``DEDUPE__REVIEW_COSINE_BY_MODEL``)."""
    return Thresholds(
        candidate_cosine=candidate_gate(conflicts, model),
        merge_p=dedupe.merge_p,
        unsure_p=dedupe.unsure_p,
        review_cosine=dedupe.review_cosine_by_model.get(model, dedupe.review_cosine),
    )


def decide_against(
    value: str,
    type_: str,
    keys: Iterable[str],
    neighbours: Sequence[Neighbour],
    limits: Thresholds,
    max_unsure: int,
    occurred_at: datetime | None = None,
    said: datetime | None = None,
    inferred: frozenset[str] = frozenset(),
) -> Plan:
    """The pair decision of ``value`` (of ``type_``, with its case-folded entity ``keys``)
    against ``neighbours``; the plan's indexes point into ``neighbours``. ``occurred_at``:
    when the new unit's event happened, if its writer said (two events on different days
    are two occurrences, :func:`~app.services.memory.pairs.plan.plan`); ``said``: when it was
    said, if before now (a neighbour said later is decided in the order said: tester H17).
    ``inferred``: the new unit's fields the service read from its value (``type``,
    ``entities``: :mod:`app.services.extraction.store_inferred`), as a neighbour's
    ``metadata.inferred`` says of its own: an inferred type other than an event decides no
    pair (two wordings of one fact are read as a constraint and a fact), inferred entities
    rule no merge out (Google / 谷歌): :func:`~app.services.memory.pairs.inferred.as_decided`,
    the rule recall's duplicate collapse applies too."""
    keys = frozenset(keys)
    candidates = []
    for n in neighbours:
        seen = as_decided(type_, keys, inferred, n.unit.type, n.unit.entity_keys,
                          inferred_fields(n.unit.metadata_))  # fmt: skip
        candidates.append(
            Candidate(
                n.unit.value,
                seen.other_type,
                seen.other_keys,
                n.cosine,
                occurrence_day(n.unit.occurred_at),
                said is not None and said_at(n.unit) > said,
            )
        )
    day = occurrence_day(occurred_at)
    own = decided_keys(keys, inferred)
    return plan(value, type_, own, candidates, limits, max_unsure, day)


def another_occurrence(type_: str, occurred_at: datetime | None, unit: MemoryUnit) -> bool:
    """The same words as ``unit`` on another day: another occurrence of an event (tester
    hbreak6 G28: a second migraine was merged into the first)."""
    days = occurrence_day(occurred_at), occurrence_day(unit.occurred_at)
    return other_occurrence(type_, days[0], unit.type, days[1])


def occurrence_day(at: datetime | None) -> date | None:
    """The UTC calendar day of ``at`` (None for None)."""
    return None if at is None else at.astimezone(UTC).date()


def first_duplicate(
    value: str,
    type_: str,
    keys: Iterable[str],
    neighbours: Sequence[Neighbour],
    limits: Thresholds,
    inferred: frozenset[str] = frozenset(),
) -> MemoryUnit | None:
    """The neighbour the pair decision says ``value`` restates (a ``merge``), or None;
    ``inferred``: the fields of the unit read from its value (:func:`decide_against`)."""
    decided = decide_against(value, type_, keys, neighbours, limits, 0, inferred=inferred)
    return None if decided.merge_into is None else neighbours[decided.merge_into].unit


def noisy_or(a: float, b: float) -> float:
    """Confidence of a fact confirmed twice by independent sources: 1-(1-a)(1-b), at most 1."""
    return min(1.0, 1.0 - (1.0 - a) * (1.0 - b))


@dataclass(frozen=True)
class Restatement:
    """What a restatement brings to the unit it merges into.

    ``query_embedding`` is adopted with ``query`` when the survivor has no query;
    ``source`` (with ``metadata``) is recorded in the survivor's ``metadata["sources"]``
    when given; ``fixed_expiry``: the expiry the restatement's writer gave (``ttl_days`` /
    ``expires_at``), None when it gave none; ``sessions`` (the restatement's session and those
    merged into it) in the survivor's ``sessions`` when other than its own."""

    confidence: float
    raw_ref: Sequence[str] = ()
    entities: Sequence[str] = ()
    query: str | None = None
    query_embedding: Any = None
    source: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    fixed_expiry: datetime | None = None
    sessions: Sequence[str | None] = ()
    value: str | None = None


# Restatements worded otherwise than the survivor kept in its ``metadata["restated_as"]``
# (the newest last): a merge the pair decision got wrong loses no accepted text (tester D31).
RESTATED_KEPT = 10


def merge_into(survivor: MemoryUnit, restatement: Restatement, now: datetime) -> None:
    """Fold ``restatement`` into ``survivor`` (mutated in place): confidence by noisy-OR,
    confirmed and updated now, one more merge, raw references, entities and sessions united
    (order kept, no repeats), the query adopted when the survivor has none, the keyword text
    rebuilt. An expiry the restatement's writer gave applies when it is later than the
    survivor's (a merge never shortens a unit's life; a unit that never expires stays so),
    and is then the writer's (``expiry_fixed``: recalls do not extend it). Tester finding
    C4: it was dropped, so a fact pinned again with ``ttl_days: 3650`` still expired on its
    old date."""
    r = restatement
    fixed, current = r.fixed_expiry, survivor.expires_at
    if fixed is not None and current is not None and current < fixed:
        survivor.expires_at = fixed
        survivor.expiry_fixed = True
    survivor.confidence = noisy_or(survivor.confidence, r.confidence)
    survivor.last_confirmed_at = now
    survivor.updated_at = now
    survivor.merge_count = (survivor.merge_count or 0) + 1
    survivor.raw_ref = list(dict.fromkeys([*survivor.raw_ref, *r.raw_ref]))
    survivor.entities = list(dict.fromkeys([*survivor.entities, *r.entities]))
    survivor.entity_keys = entity_keys(survivor.entities)
    carried = [s for s in r.sessions if s and s != survivor.session_id]
    if carried:  # what another session said stays findable by its session (C15)
        survivor.sessions = list(dict.fromkeys([*(survivor.sessions or []), *carried]))
    if r.query and not survivor.query:
        survivor.query = r.query
        if r.query_embedding is not None:
            survivor.query_embedding = r.query_embedding
    if r.source is not None:
        known = survivor.metadata_.get("sources", [survivor.source])
        sources = list(dict.fromkeys([*known, r.source]))
        merged = {**r.metadata, **survivor.metadata_, "sources": sources}
        if json_bytes(merged) > MERGED_METADATA_BYTES:  # tester hbreak9 K8: 7.2 MB by merges
            merged = {**survivor.metadata_, "sources": sources}
        survivor.metadata_ = merged
    if r.value is not None and r.value != survivor.value:
        said = [v for v in survivor.metadata_.get("restated_as", []) if v != r.value]
        survivor.metadata_ = {
            **survivor.metadata_,
            "restated_as": [*said, r.value][-RESTATED_KEPT:],
        }
    survivor.search_text = search_text(survivor.value, survivor.query, " ".join(survivor.entities))


MERGED_METADATA_BYTES = 16_384
"""A restatement's metadata keys join the survivor's only while the whole stays within this
many bytes of compact JSON (the default ``LIMITS__METADATA_BYTES`` of one ``/store`` unit):
merges never grow a unit's metadata without bound."""


def adds_things(value: str, survivor_value: str) -> bool:
    """Whether a restatement's ``value`` names a thing (a noun, a name, a number) that the
    survivor's words do not, while the survivor's name none that ``value`` lacks: "allergic
    to cats and dogs" restating "allergic to cats", 用户在医院当护士 restating 用户是护士 — or
    says every content word the survivor does and more: a qualifier ("The user's rent is
    $2,000 a month after tax" restating "… a month", tester K16: the merge kept the bare
    amount). The pair decision merges such a pair (one thing added, :class:`.pairs.decision.
    Thresholds` ``align_things``); the survivor then takes the richer words
    (:func:`adopt_wording`)."""
    a = lexical.align(value, survivor_value)
    return (a.things_a > 0 and a.things_b == 0) or (bool(a.unmatched_a) and not a.unmatched_b)


def adopt_wording(survivor: MemoryUnit, value: str, vector: Any, now: datetime) -> None:
    """The survivor of a merge takes ``value`` (its embedding ``vector``) as its words, the
    words it had kept in ``metadata["restated_as"]`` (tester hbreak8 H26: "The user is
    allergic to cats and dogs." merged into "… to cats." kept the dogs only there, and recall
    never said them). Its id, history and confidence are the survivor's."""
    kept = [
        v for v in survivor.metadata_.get("restated_as", []) if v not in (value, survivor.value)
    ]
    survivor.metadata_ = {
        **survivor.metadata_,
        "restated_as": [*kept, survivor.value][-RESTATED_KEPT:],
    }
    survivor.value = value
    survivor.value_hash = value_hash(value)
    survivor.value_embedding = vector
    survivor.updated_at = now
    survivor.search_text = search_text(survivor.value, survivor.query, " ".join(survivor.entities))


def absorb(survivor: MemoryUnit, unit: MemoryUnit, now: datetime, reason: str) -> None:
    """Merge the stored ``unit`` into ``survivor`` (both mutated in place): ``unit`` becomes
    ``merged`` with ``merged_into`` = the survivor and ``metadata["merged"]`` saying why
    (``reason``: ``correction``, ``llm:<pair reason>``)."""
    restatement = Restatement(
        unit.confidence,
        unit.raw_ref,
        unit.entities,
        unit.query,
        unit.query_embedding,
        source=unit.source,
        metadata={k: v for k, v in unit.metadata_.items() if k != "sources"},
        sessions=(unit.session_id, *(unit.sessions or ())),
    )
    merge_into(survivor, restatement, now)
    unit.status = UnitStatus.MERGED
    unit.merged_into = survivor.id
    unit.updated_at = now
    merged = {"into": str(survivor.id), "reason": reason, "at": now.isoformat()}
    unit.metadata_ = {**unit.metadata_, "merged": merged}


def restatement_of(
    item: MemoryCreate, query_vector: np.ndarray | None, now: datetime
) -> Restatement:
    """What an input unit brings to the unit it restates (its query with that vector, and
    the expiry its writer gave: ``expires_at``, or ``ttl_days`` from ``now``)."""
    fixed = item.expires_at
    if fixed is None and item.ttl_days is not None:
        fixed = now + timedelta(days=item.ttl_days)
    return Restatement(
        item.confidence,
        item.raw_ref or [],
        item.entities,
        item.query,
        query_vector,
        source=item.source,
        metadata=item.metadata,
        fixed_expiry=fixed,
        sessions=(item.session_id,),
        value=item.value,
    )
