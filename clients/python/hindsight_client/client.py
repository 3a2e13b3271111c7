"""``Hindsight`` (sync) and ``AsyncHindsight`` (asyncio): one method per API operation.

Arguments are the API's own field names (docs/API.md); ``None`` leaves a field to the
server's default. Answers are the pydantic models of ``hindsight_client.models``; error
answers raise the ``hindsight_client.errors`` class of their ``code``.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import httpx

from hindsight_client import _operations as ops
from hindsight_client import errors
from hindsight_client import models as m
from hindsight_client._base import _Base
from hindsight_client._operations import Call

DONE = {"succeeded", "failed"}


class Hindsight(_Base):
    """A synchronous client. ``Hindsight(base_url, api_key)``; both default to the
    ``HINDSIGHT_URL`` / ``HINDSIGHT_API_KEY`` environment variables, then
    ``http://127.0.0.1:8000`` and no key. ``timeout`` in seconds (or an ``httpx.Timeout``),
    ``retries`` a :class:`~hindsight_client.RetryPolicy`. Use as a context manager or call
    :meth:`close`."""

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        transport: httpx.BaseTransport | None = None,
        **options: Any,
    ) -> None:
        super().__init__(base_url, api_key, **options)
        self._http = httpx.Client(
            base_url=self.base_url,
            headers=self.headers,
            timeout=self.timeout,
            transport=self._transport(transport or httpx.HTTPTransport()),
        )

    def __enter__(self) -> Hindsight:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _send(self, call: Call[ops.T], idempotency_key: str | None = None) -> ops.T:
        try:
            response = self._http.request(
                call.method,
                call.path,
                params=call.params or None,
                json=call.json,
                headers=self._headers(call, idempotency_key),
            )
        except httpx.TransportError as exc:
            raise errors.from_transport(exc, self.base_url) from exc
        return self._result(call, response)

    # --- health ------------------------------------------------------------------------
    def health(self) -> dict[str, str]:
        """``GET /health``: liveness."""
        return self._send(ops.health())

    def ready(self) -> Any:
        """``GET /ready``: PostgreSQL and Redis answer (503 otherwise)."""
        return self._send(ops.ready())

    def metrics(self) -> str:
        """``GET /metrics``: Prometheus text."""
        return self._send(ops.metrics())

    # --- memory units ------------------------------------------------------------------
    def store(
        self,
        memories: Sequence[m.MemoryCreate | dict[str, Any]],
        *,
        idempotency_key: str | None = None,
        split: bool = True,
    ) -> m.StoreResponse:
        """``POST /store``: 1..100 units a request (``split``: more are sent as parts of 100);
        each result says created, merged, superseded or conflict, in the order given. One
        Idempotency-Key (given or made) covers every retry of the call.

        ``split``: a batch over the service's model-token budget per request
        (``LIMITS__REQUEST_TOKENS``; the 422 lists each unit's tokens) is sent again as
        consecutive parts that fit, each with the key ``KEY-i``, and the results are joined;
        a part that fails raises, and the parts before it stay stored (the same call again,
        with the same key, replays them): the error's ``written`` holds their joined results
        (None when none was stored). A unit repeating an earlier unit's value is counted as
        the service counts it: once per request. ``split=False`` raises the 422 as it is.
        Raises :class:`~hindsight_client.errors.InvalidRequestError` for a unit alone over
        the budget."""
        items, key = list(memories), idempotency_key or uuid.uuid4().hex
        try:
            return self._send(ops.store(items), key)
        except errors.InvalidRequestError as exc:
            parts = ops.token_parts(items, exc.errors) if split else None
            if parts is None:
                raise
        answers: list[m.StoreResponse] = []
        for i, part in enumerate(parts):
            try:
                answers.append(self.store(part, idempotency_key=f"{key}-{i}"))
            except errors.HindsightError as exc:
                ops.partly_written(exc, answers, ops.join_stores)
                raise
        return ops.join_stores(answers)

    def recall(
        self,
        query: str,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        top_k: int | None = None,
        types: Sequence[str] | None = None,
        entities: Sequence[str] | None = None,
        **options: Any,
    ) -> m.RecallResponse:
        """``POST /recall``: the best units for ``query`` (give a subject). ``options``: any
        other RecallRequest field (time_range, since, until, min_score, profile, weights,
        now, include_superseded, include_archived, record_access, rerank, …)."""
        fields = dict(user_id=user_id, agent_id=agent_id, session_id=session_id, top_k=top_k,
                      types=types, entities=entities, **options)  # fmt: skip
        return self._send(ops.recall(query, fields))

    def list_memories(self, **filters: Any) -> m.MemoryPage:
        """``GET /memories``: one page (``limit``, ``cursor``) of the filtered units."""
        return self._send(ops.list_memories(filters))

    def iter_memories(self, **filters: Any) -> Iterator[m.MemoryRead]:
        """Every unit the filters select, following ``next_cursor`` page after page."""
        cursor = filters.pop("cursor", None)
        while True:
            page = self.list_memories(**filters, cursor=cursor)
            yield from page.memories
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    def list_reviews(self, **filters: Any) -> m.ReviewPage:
        """``GET /reviews``: one page of pair reviews (``user_id``, ``agent_id``, ``status``
        open|decided|all, ``kind`` duplicate|contradiction, ``min_age_days``,
        ``max_age_days``, ``limit``, ``cursor``)."""
        return self._send(ops.list_reviews(filters))

    def get_review(self, review_id: str, *, user_id: str | None = None) -> m.ReviewRead:
        """``GET /reviews/{id}``: one pair review with both units; ``user_id``: only if the
        pair is that user's (another user's is a NotFoundError, as an unknown id)."""
        return self._send(ops.get_review(review_id, user_id))

    def decide_review(
        self, review_id: str, action: str, *, user_id: str | None = None
    ) -> m.ReviewDecided:
        """``POST /reviews/{id}``: ``merge``, ``supersede`` or ``keep_both`` (the same
        decision again changes nothing; ConflictError when decided otherwise); ``user_id``:
        only if the pair is that user's (else NotFoundError, nothing changes)."""
        return self._send(ops.decide_review(review_id, action, user_id))

    def get_memory(self, memory_id: str, *, user_id: str | None = None) -> m.MemoryDetail:
        """``GET /memories/{id}`` (a merged-away id resolves to the unit it joined)."""
        return self._send(ops.get_memory(memory_id, user_id))

    def update_memory(
        self,
        memory_id: str,
        *,
        user_id: str | None = None,
        idempotency_key: str | None = None,
        **fields: Any,
    ) -> m.UpdateResult:
        """``PATCH /memories/{id}``: correct value, query, entities, confidence, type, …;
        ``expires_at=None`` pins the unit (it never expires), ``ttl_days=N`` sets N days;
        ``user_id``: only if the unit is that user's (else NotFoundError, nothing changes)."""
        return self._send(ops.update_memory(memory_id, fields, user_id), idempotency_key)

    def forget_memory(
        self, memory_id: str, *, user_id: str | None = None, parts: str | None = None
    ) -> m.ForgetReceipt:
        """``DELETE /memories/{id}``: forget one unit for real; ``user_id``: only if it is
        that user's (else NotFoundError, nothing is forgotten). A digest (``/summarize``)
        gives back the units it consolidated (``restored``); ``parts="forget"`` forgets
        them too."""
        return self._send(ops.forget_memory(memory_id, user_id, parts))

    def memory_history(self, memory_id: str, *, user_id: str | None = None) -> m.MemoryHistory:
        """``GET /memories/{id}/history``: the supersede chain, oldest first; ``user_id``:
        only if the unit is that user's (else NotFoundError)."""
        return self._send(ops.memory_history(memory_id, user_id))

    def forget_subject(
        self, *, user_id: str | None = None, agent_id: str | None = None
    ) -> m.ForgetReceipt:
        """``DELETE /memories?user_id=…``: everything of a subject, with a receipt."""
        return self._send(ops.forget_subject(user_id, agent_id))

    def summarize(self, user_id: str, **fields: Any) -> m.SummarizeResponse:
        """``POST /summarize``: consolidate a subject's units by entity."""
        return self._send(ops.summarize({"user_id": user_id, **fields}))

    # --- overview ------------------------------------------------------------------------
    def list_subjects(self, **params: Any) -> m.SubjectPage:
        """``GET /subjects``: one page of users, agents or sessions (``kind``)."""
        return self._send(ops.list_subjects(params))

    def iter_subjects(self, **params: Any) -> Iterator[m.SubjectRead]:
        """Every subject, following ``next_cursor``."""
        cursor = params.pop("cursor", None)
        while True:
            page = self.list_subjects(**params, cursor=cursor)
            yield from page.subjects
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    def stats(self, *, user_id: str | None = None, agent_id: str | None = None) -> m.StatsResponse:
        """``GET /stats``: counts, and which namespace the key opens."""
        return self._send(ops.stats(user_id, agent_id))

    # --- working memory --------------------------------------------------------------------
    def append(
        self,
        session_id: str,
        messages: Sequence[m.MessageCreate | dict[str, Any]],
        *,
        split: bool = True,
        user_id: str | None = None,
    ) -> m.AppendResponse:
        """``POST /working_memory/{session_id}/messages``: 1..100 messages a request
        (``split``: more are sent as consecutive appends of 100).

        ``split``: an append whose messages' embedding windows are over the service's
        model-token budget per request (``LIMITS__REQUEST_TOKENS``; the 422 lists each
        message's window tokens) is sent again as consecutive appends that fit, in order, and
        the answers are joined (seqs, tokens, ``embedded_first_window``; ``session`` after the
        last); each part holds as many messages as fit, a text repeated in the append counted
        once per part, as the service counts it. Not atomic: a part that fails raises, and the
        parts before it stay appended; the error's ``written`` is their joined answer (their
        ``seqs``; None when none was appended), so append only the rest again.
        ``split=False`` raises the 422 as it is. ``user_id``: only if the session is not
        another user's (else NotFoundError, nothing appended)."""
        items = list(messages)
        try:
            return self._send(ops.append(session_id, items, user_id))
        except errors.InvalidRequestError as exc:
            parts = ops.token_parts(items, exc.errors, "content") if split else None
            if parts is None:
                raise
        answers: list[m.AppendResponse] = []
        for part in parts:
            try:
                answers.append(self.append(session_id, part, user_id=user_id))
            except errors.HindsightError as exc:
                ops.partly_written(exc, answers, ops.join_appends)
                raise
        return ops.join_appends(answers)

    def window(
        self,
        session_id: str,
        *,
        query: str | None = None,
        max_tokens: int | None = None,
        include_omitted: bool | None = None,
        user_id: str | None = None,
    ) -> m.WindowResponse:
        """``GET /working_memory/{session_id}``: the window for ``query`` within a budget;
        ``user_id``: only if the session is not another user's (else NotFoundError)."""
        params = dict(query=query, max_tokens=max_tokens, include_omitted=include_omitted)
        params["user_id"] = user_id
        return self._send(ops.window(session_id, params))

    def clear_window(
        self, session_id: str, *, purge: bool | None = None, user_id: str | None = None
    ) -> m.ClearResponse:
        """``DELETE /working_memory/{session_id}`` (``purge``: the transcript too; ``user_id``:
        only if the session is not another user's, else NotFoundError)."""
        return self._send(ops.clear_window(session_id, purge, user_id))

    def close_session(self, session_id: str, **fields: Any) -> m.CloseResponse:
        """``POST /working_memory/{session_id}/close``: queue hindsight extraction (once);
        ``user_id``, the subject, is the session's scope too (another user's session is a
        NotFoundError)."""
        return self._send(ops.close_session(session_id, fields))

    # --- extraction --------------------------------------------------------------------------
    def extract(self, *, wait: bool | None = None, **fields: Any) -> m.ExtractJobRead:
        """``POST /extract``: a transcript or session → units (``wait``: answer when done)."""
        return self._send(ops.extract(fields, wait))

    def extraction_job(self, job_id: str, *, user_id: str | None = None) -> m.ExtractJobRead:
        """``GET /extract/{job_id}``; ``user_id``: only if the job is that user's (another
        user's job is a NotFoundError, as an unknown id)."""
        return self._send(ops.extraction_job(job_id, user_id))

    def list_extraction_jobs(self, **params: Any) -> m.JobPage:
        """``GET /extract``: one page of jobs."""
        return self._send(ops.list_extraction_jobs(params))

    def iter_extraction_jobs(self, **params: Any) -> Iterator[m.ExtractJobRead]:
        """Every job the filters select, following ``next_cursor``."""
        cursor = params.pop("cursor", None)
        while True:
            page = self.list_extraction_jobs(**params, cursor=cursor)
            yield from page.jobs
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    def retry_extraction_job(self, job_id: str, *, user_id: str | None = None) -> m.ExtractJobRead:
        """``POST /extract/{job_id}/retry`` (a failed job); ``user_id``: only if the job is
        that user's (else NotFoundError, nothing is queued)."""
        return self._send(ops.retry_extraction_job(job_id, user_id))

    def wait_for_job(
        self,
        job_id: str,
        *,
        user_id: str | None = None,
        timeout_s: float = 60.0,
        poll_s: float = 0.5,
    ) -> m.ExtractJobRead:
        """Poll a job until it succeeded or failed; TimeoutError_ after ``timeout_s``;
        ``user_id`` as in :meth:`extraction_job`."""
        deadline = time.monotonic() + timeout_s
        while True:
            job = self.extraction_job(job_id, user_id=user_id)
            if job.status in DONE:
                return job
            if time.monotonic() > deadline:
                raise errors.TimeoutError_(f"job {job_id} still {job.status} after {timeout_s} s")
            time.sleep(poll_s)

    # --- entities ------------------------------------------------------------------------
    def list_entities(self, **params: Any) -> m.EntityPage:
        """``GET /entities``: one page of a subject's entities (``mentioned_in``: a question's)."""
        return self._send(ops.list_entities(params))

    def entity(self, name: str, **params: Any) -> m.EntityProfile:
        """``GET /entities/{name}``: aliases, units in time order, neighbours by weight."""
        return self._send(ops.entity(name, params))

    # --- context -------------------------------------------------------------------------------
    def context(
        self,
        user_id: str,
        *,
        session_id: str | None = None,
        query: str | None = None,
        max_tokens: int | None = None,
        agent_id: str | None = None,
    ) -> m.ContextResponse:
        """``GET /context``: a ready system-prompt block for a turn."""
        params = dict(
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
            query=query,
            max_tokens=max_tokens,
        )
        return self._send(ops.context(params))


class AsyncHindsight(_Base):
    """The asyncio client: the same methods as :class:`Hindsight`, awaited (``iter_*`` are
    async iterators). ``async with AsyncHindsight(...) as api`` or ``await api.aclose()``."""

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        **options: Any,
    ) -> None:
        super().__init__(base_url, api_key, **options)
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            headers=self.headers,
            timeout=self.timeout,
            transport=self._transport(transport or httpx.AsyncHTTPTransport()),
        )

    async def __aenter__(self) -> AsyncHindsight:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _send(self, call: Call[ops.T], idempotency_key: str | None = None) -> ops.T:
        try:
            response = await self._http.request(
                call.method,
                call.path,
                params=call.params or None,
                json=call.json,
                headers=self._headers(call, idempotency_key),
            )
        except httpx.TransportError as exc:
            raise errors.from_transport(exc, self.base_url) from exc
        return self._result(call, response)

    async def health(self) -> dict[str, str]:
        return await self._send(ops.health())

    async def ready(self) -> Any:
        return await self._send(ops.ready())

    async def metrics(self) -> str:
        return await self._send(ops.metrics())

    async def store(
        self,
        memories: Sequence[m.MemoryCreate | dict[str, Any]],
        *,
        idempotency_key: str | None = None,
        split: bool = True,
    ) -> m.StoreResponse:
        """As :meth:`Hindsight.store` (``split`` included)."""
        items, key = list(memories), idempotency_key or uuid.uuid4().hex
        try:
            return await self._send(ops.store(items), key)
        except errors.InvalidRequestError as exc:
            parts = ops.token_parts(items, exc.errors) if split else None
            if parts is None:
                raise
        answers: list[m.StoreResponse] = []
        for i, part in enumerate(parts):
            try:
                answers.append(await self.store(part, idempotency_key=f"{key}-{i}"))
            except errors.HindsightError as exc:
                ops.partly_written(exc, answers, ops.join_stores)
                raise
        return ops.join_stores(answers)

    async def recall(
        self,
        query: str,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        top_k: int | None = None,
        types: Sequence[str] | None = None,
        entities: Sequence[str] | None = None,
        **options: Any,
    ) -> m.RecallResponse:
        fields = dict(user_id=user_id, agent_id=agent_id, session_id=session_id, top_k=top_k,
                      types=types, entities=entities, **options)  # fmt: skip
        return await self._send(ops.recall(query, fields))

    async def list_memories(self, **filters: Any) -> m.MemoryPage:
        return await self._send(ops.list_memories(filters))

    async def iter_memories(self, **filters: Any) -> AsyncIterator[m.MemoryRead]:
        cursor = filters.pop("cursor", None)
        while True:
            page = await self.list_memories(**filters, cursor=cursor)
            for unit in page.memories:
                yield unit
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    async def list_reviews(self, **filters: Any) -> m.ReviewPage:
        return await self._send(ops.list_reviews(filters))

    async def get_review(self, review_id: str, *, user_id: str | None = None) -> m.ReviewRead:
        return await self._send(ops.get_review(review_id, user_id))

    async def decide_review(
        self, review_id: str, action: str, *, user_id: str | None = None
    ) -> m.ReviewDecided:
        return await self._send(ops.decide_review(review_id, action, user_id))

    async def get_memory(self, memory_id: str, *, user_id: str | None = None) -> m.MemoryDetail:
        return await self._send(ops.get_memory(memory_id, user_id))

    async def update_memory(
        self,
        memory_id: str,
        *,
        user_id: str | None = None,
        idempotency_key: str | None = None,
        **fields: Any,
    ) -> m.UpdateResult:
        return await self._send(ops.update_memory(memory_id, fields, user_id), idempotency_key)

    async def forget_memory(
        self, memory_id: str, *, user_id: str | None = None, parts: str | None = None
    ) -> m.ForgetReceipt:
        return await self._send(ops.forget_memory(memory_id, user_id, parts))

    async def memory_history(
        self, memory_id: str, *, user_id: str | None = None
    ) -> m.MemoryHistory:
        return await self._send(ops.memory_history(memory_id, user_id))

    async def forget_subject(
        self, *, user_id: str | None = None, agent_id: str | None = None
    ) -> m.ForgetReceipt:
        return await self._send(ops.forget_subject(user_id, agent_id))

    async def summarize(self, user_id: str, **fields: Any) -> m.SummarizeResponse:
        return await self._send(ops.summarize({"user_id": user_id, **fields}))

    async def list_subjects(self, **params: Any) -> m.SubjectPage:
        return await self._send(ops.list_subjects(params))

    async def iter_subjects(self, **params: Any) -> AsyncIterator[m.SubjectRead]:
        cursor = params.pop("cursor", None)
        while True:
            page = await self.list_subjects(**params, cursor=cursor)
            for subject in page.subjects:
                yield subject
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    async def stats(
        self, *, user_id: str | None = None, agent_id: str | None = None
    ) -> m.StatsResponse:
        return await self._send(ops.stats(user_id, agent_id))

    async def append(
        self,
        session_id: str,
        messages: Sequence[m.MessageCreate | dict[str, Any]],
        *,
        split: bool = True,
        user_id: str | None = None,
    ) -> m.AppendResponse:
        """As :meth:`Hindsight.append` (``split`` included)."""
        items = list(messages)
        try:
            return await self._send(ops.append(session_id, items, user_id))
        except errors.InvalidRequestError as exc:
            parts = ops.token_parts(items, exc.errors, "content") if split else None
            if parts is None:
                raise
        answers: list[m.AppendResponse] = []
        for part in parts:
            try:
                answers.append(await self.append(session_id, part, user_id=user_id))
            except errors.HindsightError as exc:
                ops.partly_written(exc, answers, ops.join_appends)
                raise
        return ops.join_appends(answers)

    async def window(
        self,
        session_id: str,
        *,
        query: str | None = None,
        max_tokens: int | None = None,
        include_omitted: bool | None = None,
        user_id: str | None = None,
    ) -> m.WindowResponse:
        params = dict(query=query, max_tokens=max_tokens, include_omitted=include_omitted)
        params["user_id"] = user_id
        return await self._send(ops.window(session_id, params))

    async def clear_window(
        self, session_id: str, *, purge: bool | None = None, user_id: str | None = None
    ) -> m.ClearResponse:
        return await self._send(ops.clear_window(session_id, purge, user_id))

    async def close_session(self, session_id: str, **fields: Any) -> m.CloseResponse:
        return await self._send(ops.close_session(session_id, fields))

    async def extract(self, *, wait: bool | None = None, **fields: Any) -> m.ExtractJobRead:
        return await self._send(ops.extract(fields, wait))

    async def extraction_job(self, job_id: str, *, user_id: str | None = None) -> m.ExtractJobRead:
        return await self._send(ops.extraction_job(job_id, user_id))

    async def list_extraction_jobs(self, **params: Any) -> m.JobPage:
        return await self._send(ops.list_extraction_jobs(params))

    async def iter_extraction_jobs(self, **params: Any) -> AsyncIterator[m.ExtractJobRead]:
        cursor = params.pop("cursor", None)
        while True:
            page = await self.list_extraction_jobs(**params, cursor=cursor)
            for job in page.jobs:
                yield job
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    async def retry_extraction_job(
        self, job_id: str, *, user_id: str | None = None
    ) -> m.ExtractJobRead:
        return await self._send(ops.retry_extraction_job(job_id, user_id))

    async def wait_for_job(
        self,
        job_id: str,
        *,
        user_id: str | None = None,
        timeout_s: float = 60.0,
        poll_s: float = 0.5,
    ) -> m.ExtractJobRead:
        deadline = time.monotonic() + timeout_s
        while True:
            job = await self.extraction_job(job_id, user_id=user_id)
            if job.status in DONE:
                return job
            if time.monotonic() > deadline:
                raise errors.TimeoutError_(f"job {job_id} still {job.status} after {timeout_s} s")
            await asyncio.sleep(poll_s)

    async def list_entities(self, **params: Any) -> m.EntityPage:
        return await self._send(ops.list_entities(params))

    async def entity(self, name: str, **params: Any) -> m.EntityProfile:
        return await self._send(ops.entity(name, params))

    async def context(
        self,
        user_id: str,
        *,
        session_id: str | None = None,
        query: str | None = None,
        max_tokens: int | None = None,
        agent_id: str | None = None,
    ) -> m.ContextResponse:
        params = dict(
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
            query=query,
            max_tokens=max_tokens,
        )
        return await self._send(ops.context(params))
