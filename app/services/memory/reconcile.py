"""The reconciliation job: the LLM decides a pair the write path was unsure of, after the
``/store`` answer (docs/DEDUPE.md). One queue entry (pgqueuer, the extraction queue) per
pair review, enqueued in the store's transaction.

Exactly once, also across restarts and two workers:

1. claim: ``pending`` → ``running``, ``attempts += 1`` and a lease, committed (the attempt
   number fences the write); a second worker finds the review running and backs off until
   the lease ends (a killed worker's lease runs out and the queue hands the entry out again);
2. ask the LLM, outside any transaction, renewing the lease meanwhile;
3. apply, in ONE transaction under the subject's lock: re-read the review (still ours?) and
   both units (still active?), then merge / supersede / flag / keep apart, and mark the review
   ``decided`` with the verdict — so a crash before the commit applies nothing and the next
   run starts over, and a second run finds the review decided and does nothing. A flag
   (both kept, their order unclear) opens a review of kind ``contradiction`` for a person.

A pair whose units changed meanwhile (merged, superseded, forgotten) is closed as ``stale``.
An LLM failure retries with backoff; after ``WORKER__MAX_ATTEMPTS`` the review goes back to
``pending`` (listed by ``GET /memories?review=pending``) with the error kept. A ``same`` on a
guarded pair (a negation, other values, swapped roles) never merges.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.config import Settings
from app.core.errors import HindsightError
from app.core.vocabulary import ReviewStatus, UnitStatus
from app.models import MemoryUnit, PairReview
from app.repositories.entities.write import EntityGraphWriter
from app.repositories.memory.reviews import PairReviewRepository
from app.repositories.memory.units import MemoryRepository, Subject
from app.services.entities.upkeep import EntityGraphKeeper
from app.services.memory.conflict_judge import PairJudge
from app.services.memory.merge import absorb
from app.services.memory.pairs.decision import PairDecision
from app.services.memory.pairs.objects import merge_loses_fact
from app.services.memory.pairs.verdicts import Verdict, reconciled
from app.services.memory.resolution import conflict_review, fit_backfill, resolve

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReconcileResult:
    """How one run ended: the review's ``status`` (``decided``, ``pending``, ``running`` by
    another worker, ``missing``), the ``action`` applied, and ``retry_in`` seconds when the
    queue should hand the entry out again."""

    status: str
    action: str | None = None
    retry_in: float | None = None


class ReconcileRunner:
    """Runs reconciliation jobs; used by the worker."""

    def __init__(
        self,
        session_factory: async_sessionmaker[AsyncSession],
        judge: PairJudge,
        settings: Settings,
    ) -> None:
        self.session_factory = session_factory
        self.judge = judge
        self.settings = settings

    async def run_once(self, review_id: uuid.UUID) -> ReconcileResult:
        """One attempt (see the module docstring). Never raises for an LLM failure."""
        lease = self.settings.worker.lease_s
        async with self.session_factory() as session, session.begin():
            reviews = PairReviewRepository(session)
            review = await reviews.claim(review_id, lease)
            current = None if review is not None else await reviews.lock(review_id)
            if review is not None:
                units = MemoryRepository(session)
                new = await units.get(review.namespace, review.unit_id)
                old = await units.get(review.namespace, review.candidate_id)
                values = (new.value, old.value) if new and old else None
        if review is None:
            if current is None or current.status != ReviewStatus.RUNNING:
                return ReconcileResult(current.status if current else "missing")
            left = 1.0
            if current.lease_until is not None:
                left = (current.lease_until - datetime.now(UTC)).total_seconds() + 0.5
            return ReconcileResult(ReviewStatus.RUNNING, retry_in=max(0.5, left))
        if values is None:
            return await self._apply(review, None)
        keeper = asyncio.create_task(self._keep_lease(review.id, review.attempts))
        try:
            verdict = await self.judge.judge(*values)
        except HindsightError as exc:
            return await self._failed(review, f"{exc.code}: {exc}")
        except asyncio.CancelledError:
            # A shutdown cancelled this attempt: hand the review back now rather than when
            # the lease runs out (nothing was applied: the apply is one transaction).
            await asyncio.shield(self._release(review.id, review.attempts))
            raise
        finally:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
        if verdict is None:
            return await self._failed(review, "the LLM's answer was not same/contradicts/unrelated")
        return await self._apply(review, verdict)

    async def _keep_lease(self, review_id: uuid.UUID, attempt: int) -> None:
        """Renew the lease while the LLM answers (a slow answer is not a dead worker)."""
        lease = self.settings.worker.lease_s
        while True:
            await asyncio.sleep(lease / 3)
            try:
                async with self.session_factory() as session, session.begin():
                    if not await PairReviewRepository(session).renew_lease(
                        review_id, attempt, lease
                    ):
                        return  # another runner took over; our write will be refused
            except Exception:  # noqa: BLE001 - a missed renewal is retried next tick
                log.warning("could not renew the lease of review %s", review_id, exc_info=True)

    async def _release(self, review_id: uuid.UUID, attempt: int) -> None:
        try:
            async with self.session_factory() as session, session.begin():
                await PairReviewRepository(session).release(review_id, attempt)
        except Exception:  # noqa: BLE001 - the lease then simply runs out
            log.warning("could not release the lease of review %s", review_id, exc_info=True)

    async def _apply(self, claimed: PairReview, verdict: Verdict | None) -> ReconcileResult:
        now = datetime.now(UTC)
        async with self.session_factory() as session, session.begin():
            units, reviews = MemoryRepository(session), PairReviewRepository(session)
            subject = Subject(claimed.namespace, claimed.user_id, claimed.agent_id)
            await units.lock_subject(subject)  # the store's lock: no write of this subject races
            review = await reviews.lock(claimed.id)
            if review is None:
                return ReconcileResult("missing")
            if review.status != ReviewStatus.RUNNING or review.attempts != claimed.attempts:
                return ReconcileResult(review.status)  # another run took over or finished
            new = await units.get(review.namespace, review.unit_id)
            old = await units.get(review.namespace, review.candidate_id)
            review.verdict = verdict
            review.decided_at = now
            review.lease_until = None
            review.status = ReviewStatus.DECIDED
            if (
                new is None
                or old is None
                or new.status != UnitStatus.ACTIVE
                or old.status != UnitStatus.ACTIVE
            ):
                review.action = "stale"
                review.decided_by = "system"
                return ReconcileResult(ReviewStatus.DECIDED, "stale")
            action = reconciled(_decision(review), verdict)
            if action == "merge" and merge_loses_fact(new.value, old.value) is not None:
                action = "distinct"  # a review opened before the guard (tester F19)
            review.decided_by = "llm"
            review.action = await self._act(action, new, old, review, now, session)
            log.info(
                "reconcile %s: %s (verdict %s, %s)",
                review.id,
                review.action,
                verdict,
                review.reason,
            )
            return ReconcileResult(ReviewStatus.DECIDED, review.action)

    async def _act(
        self,
        action: str,
        new: MemoryUnit,
        old: MemoryUnit,
        review: PairReview,
        now: datetime,
        session: AsyncSession,
    ) -> str:
        audit = {"review": str(review.id), "verdict": review.verdict, "at": now.isoformat()}
        if action == "merge":
            absorb(old, new, now, reason=f"llm:{review.reason}")
            await session.flush()  # the survivor's entities, before its links
            await EntityGraphKeeper(EntityGraphWriter(session)).written([old])
            await PairReviewRepository(session).close_open_of([new.id], now, keep=review.id)
            return "merge"
        if action == "contradicts":
            outcome = resolve(new, old, self.settings.conflicts, now, f"llm:{review.reason}")
            if new.superseded_by == old.id:  # a backfill: its place in old's chain
                subject = Subject(new.namespace, new.user_id, new.agent_id)
                chain = await MemoryRepository(session).predecessors(subject, old.id)
                fit_backfill(new, old, chain)
            gone = [u.id for u in (new, old) if u.status != UnitStatus.ACTIVE]
            reviews = PairReviewRepository(session)
            await reviews.close_open_of(gone, now, keep=review.id)
            if outcome == "conflict":  # both kept, order unclear: a person decides (B16)
                reviews.add(conflict_review(new, old, review.cosine, f"llm:{review.reason}"))
            return outcome  # superseded | conflict
        new.metadata_ = {**new.metadata_, "reconciled": {**audit, "distinct_from": str(old.id)}}
        return "distinct"

    async def _failed(self, claimed: PairReview, error: str) -> ReconcileResult:
        """Record a failed attempt: retry later, or back to ``pending`` for review."""
        worker = self.settings.worker
        async with self.session_factory() as session, session.begin():
            review = await PairReviewRepository(session).lock(claimed.id)
            if (
                review is None
                or review.status != ReviewStatus.RUNNING
                or review.attempts != claimed.attempts
            ):
                return ReconcileResult(review.status if review else "missing")
            review.error = error
            review.lease_until = None
            review.status = ReviewStatus.PENDING
            if review.attempts >= worker.max_attempts:
                log.warning("reconcile %s: giving up after %d attempts: %s", review.id,
                            review.attempts, error)  # fmt: skip
                return ReconcileResult(ReviewStatus.PENDING)
            delay = min(worker.backoff_max_s, worker.backoff_initial_s * 2 ** (review.attempts - 1))
            return ReconcileResult(ReviewStatus.PENDING, retry_in=delay)


def _decision(review: PairReview) -> PairDecision:
    return PairDecision("unsure", review.reason, review.p_same, review.merge_allowed)
