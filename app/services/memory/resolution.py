"""What a contradiction does on the write path: the newer unit supersedes the older one, or
both stay active flagged as conflicting when their order is unclear (docs/DEDUPE.md).

A contradiction is resolved by time (:func:`resolve`): the newer unit supersedes the older
(status ``superseded``, ``superseded_by``; kept for history) when their ``occurred_at`` are
more than ``CONFLICTS__ORDER_WINDOW_S`` apart or the new one says it is a change ("moved",
"now", "no longer", "anymore", "cancelled", "搬到", "现在", "不再", "改", "取消", or ends the
old state with a verb of its own: "quit smoking", "got divorced", 退休了, names the user's
partner from now on: "is dating Alex", "got married to Sam", 在和小李交往, tells a birth
against the count of children, "had our third baby", or calls a contact
value the new one: "The user's new email is …", 新邮箱) and was said after it
(:func:`said_at`: "moved to Bergen last month" is anchored last month) — two changes each
dated by its statement are ordered by those dates ("moved to Lisbon in 2023" told after "in
March 2025 I moved to Madrid" is the older, tester G9; a plan's day is no such time: two plans
are ordered by when they were said, tester G1) —, and a plan
moved or called off always (tester E25: the cancellation is dated before the plan's day); a
pair decided in the order said (a neighbour said after the new unit,
:data:`.pairs.plan.SAID_BEFORE`) is ordered as if the neighbour had arrived last (tester
hbreak7 H17); a
new unit that describes an older state (a backfill) is the superseded one, fitted into the
chain by event time (:func:`fit_backfill`); otherwise both stay active, each listing the other in
``conflicts_with``, and the pair becomes a review of kind ``contradiction``
(:func:`conflict_review`) that a person decides (``POST /reviews/{id}``: ``supersede`` the older,
or ``keep_both``; either ends the link). The older unit's confidence is multiplied by
``CONFLICTS__CONTRADICTED_CONFIDENCE_FACTOR``.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Literal

import uuid_utils.compat as uuid7

from app.core.config import ConflictSettings
from app.core.valid_time import said_moment
from app.core.valid_time import valid_from as core_valid_from
from app.core.vocabulary import ReviewStatus, UnitStatus
from app.models import MemoryUnit, PairReview
from app.services.memory.pairs import contacts
from app.services.memory.pairs.children import REASON as BIRTH
from app.services.memory.pairs.endings import REASON as STATE_ENDED
from app.services.memory.pairs.partners import REASON as PARTNER
from app.services.memory.pairs.plan import SAID_BEFORE
from app.services.memory.pairs.rules import says_change

# The pair decision's reasons for a plan changed: moved to another day, or called off.
PLAN_CHANGES = frozenset({"event_moved", "event_cancelled"})
# What a contradiction did: the older unit superseded, or both kept as a conflict.
Resolution = Literal["superseded", "conflict"]


def candidate_gate(settings: ConflictSettings, model: str) -> float:
    """The cosine similarity below which a neighbour is never judged, for an embedding
    model (``CONFLICTS__MIN_COSINE_BY_MODEL``, else ``CONFLICTS__MIN_COSINE``)."""
    return settings.min_cosine_by_model.get(model, settings.min_cosine)


def order(
    new: MemoryUnit, old: MemoryUnit, settings: ConflictSettings, reason: str
) -> Literal["newer", "older", "unclear"]:
    """Which of two contradicting units holds now: ``new`` (it supersedes ``old``), ``old``
    (``new`` is a backfill) or ``unclear`` (:func:`resolve` keeps both as a ``conflict``).
    A pair decided in the order said (``old`` said after ``new``: :data:`.pairs.plan.SAID_BEFORE`)
    is ordered as if ``old`` had arrived last (tester hbreak7 H17)."""
    if reason.startswith(SAID_BEFORE):
        turned = order(old, new, settings, reason.removeprefix(SAID_BEFORE))
        return "older" if turned == "newer" else "newer" if turned == "older" else "unclear"
    gap = (new.occurred_at - old.occurred_at).total_seconds()
    # A change is ordered by when it was said: "moved to Bergen last month", said after "lives
    # in Oslo", happened before it was said (tester F22), and still replaces it.
    said_gap = (said_at(new) - said_at(old)).total_seconds()
    # A plan moved or called off is changed by the statement, dated before the plan's own day
    # ("The dentist appointment got cancelled" after "… on Friday", tester E25): no backfill.
    planned = reason in PLAN_CHANGES
    # A state ended ("quit smoking", "got divorced", tester F3) says the change itself.
    change = _says_change(new) or reason.startswith(STATE_ENDED) or planned  # H5: "pushed"
    change = change or (reason.startswith("slot_differs") and contacts.says_new(new.value))
    change = change or reason == BIRTH  # "had our third baby" against "have two kids"
    change = change or reason == PARTNER  # "is dating Alex", "got married to Sam" (K4, K5)
    if _to_come(new) and _to_come(old) and said_gap > 0:
        return "newer"  # two plans: the later word holds ("trip in May 2027", then April, G1)
    if _to_come(new) or _to_come(old):  # a plan's day is no time it began
        gap = said_gap
    if -gap > settings.order_window_s and not planned and _dated(new) and _dated(old):
        return "older"  # two dated changes: "moved to Lisbon in 2023" after "… 2025" (G9)
    if gap > settings.order_window_s or ((gap >= 0 or said_gap >= 0 or planned) and change):
        return "newer"
    return "older" if -gap > settings.order_window_s else "unclear"


# Words of a change the pair decision's cue list does not hold: a job left or joined, a
# promotion, what one became (a new contact value: contacts.says_new). Tester hbreak7 H1: "left
# Alibaba last week and joined Tencent" was ordered by its event's day, buried by the old job.
_MORE_CHANGE = re.compile(
    r"\b(?:left|joined|quit|promoted|became)\b|离职|辞职|入职|跳槽|升职|换了", re.IGNORECASE
)


def _says_change(unit: MemoryUnit) -> bool:
    """``unit`` says it is a change: in its value, or its message did (extraction's
    ``metadata.says_change``: "Actually no, … coffee now", tester H6)."""
    if says_change(unit.value) or _MORE_CHANGE.search(unit.value):
        return True
    return unit.metadata_.get("says_change") is True


def resolve(
    new: MemoryUnit, old: MemoryUnit, settings: ConflictSettings, now: datetime, reason: str
) -> Resolution:
    """Record that ``new`` contradicts ``old`` (both mutated in place); returns
    ``superseded`` or ``conflict`` (see the module docstring)."""
    factor = settings.contradicted_confidence_factor
    audit = {"reason": reason, "at": now.isoformat()}
    which = order(new, old, settings, reason)
    if which == "newer":
        supersede(new, old, factor, now, reason)
        return "superseded"
    if which == "older":  # the new unit describes an older state (a backfill)
        new.status = UnitStatus.SUPERSEDED
        new.superseded_by = old.id
        new.valid_to = old.occurred_at
        new.confidence = round(new.confidence * factor, 4)
        new.metadata_ = {**new.metadata_, "superseded": {**audit, "by": str(old.id)}}
        return "superseded"
    new.conflicts_with = [*new.conflicts_with, old.id]
    old.conflicts_with = [*old.conflicts_with, new.id]
    old.confidence = round(old.confidence * factor, 4)
    old.updated_at = now
    return "conflict"


def pending_review(
    unit: MemoryUnit,
    candidate: MemoryUnit,
    cosine: float,
    *,
    reason: str,
    p_same: float,
    merge_allowed: bool,
) -> PairReview:
    """A pending :class:`PairReview` of the new ``unit`` against its neighbour ``candidate``
    (value cosine ``cosine``; ``reason`` cut to the column's 64 characters; ``p_same`` the
    decision's probability of a duplicate, 0-1)."""
    return PairReview(
        id=uuid7.uuid7(),
        namespace=unit.namespace,
        user_id=unit.user_id,
        agent_id=unit.agent_id,
        unit_id=unit.id,
        candidate_id=candidate.id,
        cosine=round(cosine, 6),
        reason=reason[:64],
        p_same=round(p_same, 6),
        merge_allowed=merge_allowed,
        status=ReviewStatus.PENDING,
        attempts=0,
    )


def conflict_review(new: MemoryUnit, old: MemoryUnit, cosine: float, reason: str) -> PairReview:
    """The pending review of a contradiction :func:`resolve` kept as a ``conflict`` (tester
    B16: nobody could decide it): kind ``contradiction`` (a merge is ruled out), for a person,
    never the LLM's queue — the LLM already said, or the rules did, that the two contradict;
    what is unknown is which holds now."""
    return pending_review(new, old, cosine, reason=reason, p_same=0.0, merge_allowed=False)


def unlink_conflict(a: MemoryUnit, b: MemoryUnit) -> None:
    """End the ``conflicts_with`` link between ``a`` and ``b`` (both mutated; no-op when
    none): their pair was decided."""
    if b.id in a.conflicts_with:
        a.conflicts_with = [i for i in a.conflicts_with if i != b.id]
    if a.id in b.conflicts_with:
        b.conflicts_with = [i for i in b.conflicts_with if i != a.id]


def fit_backfill(
    unit: MemoryUnit, head: MemoryUnit, chain: Sequence[MemoryUnit]
) -> list[MemoryUnit]:
    """A backfilled ``unit`` (superseded by ``head``, which happened later) in the supersede
    chain of ``head`` (``chain``: the units ``head`` superseded, directly or not), so that at
    any instant at most one version is valid: ``unit`` is true until the next version in event
    time (not always ``head``: "lived in Hangzhou" in March arriving after January's
    Shanghai and June's Beijing ends in June, but Shanghai now ends in March), and the
    version that was true when ``unit`` happened ends there. Returns the chain units changed."""
    start = unit.occurred_at
    later = [u.occurred_at for u in (*chain, head) if u.id != unit.id and u.occurred_at > start]
    unit.valid_to = min(later, default=head.occurred_at)
    changed = []
    for u in chain:
        if u.id != unit.id and u.occurred_at <= start and u.valid_to and u.valid_to > start:
            u.valid_to = start
            changed.append(u)
    return changed


def said_at(unit: MemoryUnit) -> datetime:
    """When ``unit`` was said: ``metadata.said_at`` (an extracted unit anchored at another
    time, "moved to Bergen last month"), else its ``occurred_at``."""
    return said_moment(unit.metadata_) or unit.occurred_at


def _dated(unit: MemoryUnit) -> bool:
    """Whether ``unit``'s ``occurred_at`` is the time its statement names, not when it was said
    (an extracted unit anchored elsewhere: ``metadata.said_at``)."""
    return bool(unit.metadata_) and isinstance(unit.metadata_.get("said_at"), str)


def _to_come(unit: MemoryUnit) -> bool:
    """Whether ``unit`` happens after it was said (a plan: "The user's trip is in May 2027")."""
    return _dated(unit) and unit.occurred_at > said_at(unit)


def valid_from(unit: MemoryUnit) -> datetime:
    """When ``unit`` became true: the earliest of its ``occurred_at``, its ``created_at`` and
    when it was said (a plan or a date to come holds, as a statement, from when it was said;
    :mod:`app.core.valid_time`, the repository's ``valid_from_clause``, which ``as_of``
    reads)."""
    return core_valid_from(unit.occurred_at, unit.created_at, unit.metadata_)


def supersede(new: MemoryUnit, old: MemoryUnit, factor: float, now: datetime, reason: str) -> None:
    """``new`` replaces ``old`` (both mutated in place): ``old`` becomes ``superseded`` by it,
    true until ``new`` became true (:func:`valid_from`: "the flight moved to Friday", said on
    Monday, ends the Thursday flight on Monday, so that ``as_of`` any instant shows one
    version), its confidence multiplied by ``factor``; kept for history
    (``GET /memories/{id}/history``)."""
    audit = {"reason": reason, "at": now.isoformat()}
    old.status = UnitStatus.SUPERSEDED
    old.superseded_by = new.id
    old.valid_to = max(valid_from(new), valid_from(old))  # true until its successor was
    outlive(new, old)
    old.confidence = round(old.confidence * factor, 4)
    old.updated_at = now
    old.metadata_ = {**old.metadata_, "superseded": {**audit, "by": str(new.id)}}
    new.metadata_ = {**new.metadata_, "supersedes": _ids(new.metadata_, "supersedes", old.id)}


def outlive(new: MemoryUnit, old: MemoryUnit) -> None:
    """The successor lives at least as long as what it superseded (tester finding C17: "quit
    Deloitte and joined Spotify", a 30-day event, superseded the 180-day "works at
    Deloitte"; a month later the user had no employer at all). Its expiry becomes the later
    of the two (none: never), unless its writer fixed it (``expiry_fixed``)."""
    if new.expiry_fixed or new.expires_at is None:
        return
    if old.expires_at is None or old.expires_at > new.expires_at:
        new.expires_at = old.expires_at


def _ids(metadata: dict[str, object], key: str, add: uuid.UUID) -> list[str]:
    existing = metadata.get(key)
    ids = [str(x) for x in existing] if isinstance(existing, list) else []
    return [*ids, str(add)]
