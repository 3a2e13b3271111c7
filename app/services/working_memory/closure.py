"""Task closure (docs/EXTRACTION.md): when a session's task is over, its transcript is extracted.

Three signals, over the messages no extraction job has taken yet:

- ``tool_terminal`` — a message's metadata says a tool chain reached a terminal state:
  ``{"terminal": true}``, or ``tool_chain_state`` / ``tool_state`` (or, on a tool message,
  ``status``) in ``CLOSURE__TERMINAL_STATES`` ("completed", "failed", …);
- ``user_confirmed`` — the newest user message is a confirmation: one of
  ``CLOSURE__CONFIRMATION_PHRASES`` ("ok", "thanks", "great", "好的", "可以", "谢谢", "行"…),
  alone or opening/closing a short message without a question or a negation ("thanks,
  that's great" yes; "ok but also check X?" and "不行" no);
- ``silence`` — nothing was appended for ``CLOSURE__SILENCE_S`` (default 300 s), found by
  the worker's periodic scan.

Two of three close the task; ``POST /working_memory/{id}/close`` always does, and so does
``idle`` — nothing appended for ``CLOSURE__IDLE_S`` (default 1800 s; 0: never) to messages
that hold a user turn: a chat that ends with the agent's answer and no confirmation (most do)
would otherwise never be remembered (tester finding C5). Closing submits the session's new
messages for extraction once (see ExtractionService.submit_session).
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.chinese_script import simplified
from app.core.config import ClosureSettings
from app.core.errors import BadRequestError, ConflictError
from app.core.text import has_cjk
from app.repositories.jobs import JobRepository, SessionMark
from app.repositories.working_memory.transcript import TranscriptRepository
from app.services.extraction.jobs import ExtractionService, Scope, Submitted
from app.services.extraction.zones import transcript_zone
from app.services.session_owner import check_scope

log = logging.getLogger(__name__)

TOOL_TERMINAL = "tool_terminal"
USER_CONFIRMED = "user_confirmed"
SILENCE = "silence"
IDLE = "idle"
EXPLICIT = "explicit"

_NEGATION = re.compile(r"\b(?:not|no|don't|dont|never|but|wait)\b|不|没|别|但|等")
_SHORT_WORDS = 6
_SHORT_CJK = 6


def _fold(text: str) -> str:
    text = simplified(unicodedata.normalize("NFKC", text)).casefold()  # 謝謝 is 谢谢
    text = "".join(ch if unicodedata.category(ch)[0] in "LNZ" or ch == "'" else " " for ch in text)
    return re.sub(r"\s+", " ", text).strip()


def is_confirmation(text: str, phrases: Iterable[str]) -> bool:
    """True when ``text`` is a confirmation (see the module docstring)."""
    if "?" in text or "？" in text:
        return False
    folded = _fold(text)
    if not folded:
        return False
    compact = folded.replace(" ", "") if has_cjk(folded) else folded
    folded_phrases = sorted({_fold(p) for p in phrases if p.strip()}, key=len, reverse=True)
    if compact in folded_phrases or folded in folded_phrases:
        return True
    short = (
        len(compact) <= _SHORT_CJK + 4 if has_cjk(compact) else len(folded.split()) <= _SHORT_WORDS
    )
    if not short:
        return False
    for phrase in folded_phrases:
        p = phrase.replace(" ", "") if has_cjk(phrase) else phrase
        subject = compact if has_cjk(phrase) else folded
        if has_cjk(phrase):
            hit = subject.startswith(p) or subject.endswith(p)
        else:
            hit = bool(
                re.match(rf"{re.escape(p)}\b", subject) or re.search(rf"\b{re.escape(p)}$", subject)
            )
        if hit:
            rest = subject.replace(p, " ", 1)
            if not _NEGATION.search(rest):
                return True
    return False


def _field(message: Any, name: str) -> Any:
    if isinstance(message, Mapping):
        return message.get(name)
    if name == "metadata":
        return getattr(message, "metadata_", None) or getattr(message, "metadata", None)
    return getattr(message, name, None)


def is_tool_terminal(message: Any, terminal_states: Iterable[str]) -> bool:
    """True when the message's metadata marks the end of a tool chain."""
    meta = _field(message, "metadata") or {}
    if not isinstance(meta, Mapping):
        return False
    if meta.get("terminal") is True or meta.get("tool_chain_terminal") is True:
        return True
    states = {s.casefold() for s in terminal_states}
    for key in ("tool_chain_state", "tool_state"):
        value = meta.get(key)
        if isinstance(value, str) and value.casefold() in states:
            return True
    status = meta.get("status")
    return (
        _field(message, "role") == "tool"
        and isinstance(status, str)
        and status.casefold() in states
    )


def closure_signals(
    messages: list[Any],
    settings: ClosureSettings,
    *,
    now: datetime | None = None,
    last_activity: datetime | None = None,
) -> set[str]:
    """The closure signals present in ``messages`` (the not yet extracted ones, oldest
    first). ``silence`` and ``idle`` need ``now`` and the time of the last activity
    (default: the newest message's ``created_at``); ``idle`` also a user turn."""
    signals: set[str] = set()
    if any(is_tool_terminal(m, settings.terminal_states) for m in messages):
        signals.add(TOOL_TERMINAL)
    user_turns = [m for m in messages if _field(m, "role") == "user"]
    if user_turns and is_confirmation(
        str(_field(user_turns[-1], "content")), settings.confirmation_phrases
    ):
        signals.add(USER_CONFIRMED)
    if now is not None:
        last = last_activity
        if last is None and messages:
            last = _field(messages[-1], "created_at")
        if isinstance(last, datetime):
            quiet = now - last
            if quiet >= timedelta(seconds=settings.silence_s):
                signals.add(SILENCE)
            if settings.idle_s > 0 and user_turns and quiet >= timedelta(seconds=settings.idle_s):
                signals.add(IDLE)
    return signals


def session_timezone(messages: list[Any]) -> str:
    """The zone relative dates of a task closed without a ``timezone`` resolve in: the
    newest IANA zone a message's metadata names, else the newest message's
    ``metadata.utc_offset`` as "UTC+08:00", else UTC (tester B20;
    :func:`app.services.extraction.zones.transcript_zone`)."""
    return transcript_zone(messages)


def closes_task(signals: set[str]) -> bool:
    """Two of the three signals, an explicit close, or ``idle``."""
    if EXPLICIT in signals or IDLE in signals:
        return True
    return len(signals & {TOOL_TERMINAL, USER_CONFIRMED, SILENCE}) >= 2


@dataclass(frozen=True)
class CloseResult:
    """Whether the task closed, with which signals, and the extraction job."""

    closed: bool
    signals: set[str]
    submitted: Submitted | None


class ClosureService:
    """Evaluates closure signals and submits extractions; collaborators passed in."""

    def __init__(
        self,
        jobs: JobRepository,
        transcripts: TranscriptRepository,
        extraction: ExtractionService,
        settings: ClosureSettings,
    ) -> None:
        self.jobs = jobs
        self.transcripts = transcripts
        self.extraction = extraction
        self.settings = settings

    async def _pending(self, namespace: str, session_id: str) -> tuple[list[Any], Any]:
        session = await self.transcripts.get_session(namespace, session_id)
        if session is None:
            return [], None
        last = await self.jobs.last_extracted_seq(namespace, session_id, session.created_at)
        rows = await self.transcripts.list_transcript(namespace, session_id, after_seq=last)
        return rows, session

    async def close(
        self,
        namespace: str,
        session_id: str,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        task_id: str | None = None,
        timezone: str | None = None,
        now: datetime | None = None,
        scope_user: str | None = None,
    ) -> CloseResult:
        """Close the session's task explicitly and submit its new messages for extraction
        (idempotent). The subject is ``user_id`` or the session's own. An unknown session is
        an empty one (docs/WORKING_MEMORY.md, "Unknown sessions"): nothing to close, no job.
        Raises BadRequestError when no user is known, NotFoundError when the session's owner
        is another user than ``scope_user`` (a request's ``?user_id=``) or ``user_id``
        (session_owner.py), ConflictError when ``user_id`` and ``scope_user`` differ."""
        session = await self.transcripts.get_session(namespace, session_id)
        if session is None:
            return CloseResult(False, {EXPLICIT}, None)
        check_scope(session_id, session.user_id, scope_user)
        check_scope(session_id, session.user_id, user_id)
        if scope_user is not None and user_id is not None and user_id != scope_user:
            raise ConflictError(
                f"the body's user_id {user_id!r} is not the request's user_id {scope_user!r}: "
                "nothing was closed"
            )
        subject = user_id or session.user_id
        if subject is None:
            raise BadRequestError("the session has no user_id: give one in the body")
        rows, _ = await self._pending(namespace, session_id)
        found = closure_signals(rows, self.settings) | {EXPLICIT}
        scope = Scope(namespace, subject, agent_id, session_id, task_id)
        submitted = await self.extraction.submit_session(
            scope,
            timezone=timezone or session_timezone(rows),
            now=now,
            trigger="close",
            signals=sorted(found),
        )
        return CloseResult(submitted is not None, found, submitted)

    async def evaluate(
        self, namespace: str, session_id: str, *, now: datetime | None = None
    ) -> CloseResult:
        """Close the session's task if two signals hold (``silence`` only when ``now`` is
        given). The hook working memory calls after an append, and the silence scan."""
        rows, session = await self._pending(namespace, session_id)
        if not rows or session is None:
            return CloseResult(False, set(), None)
        signals = closure_signals(
            rows, self.settings, now=now, last_activity=session.updated_at if now else None
        )
        if not closes_task(signals) or not session.user_id:
            return CloseResult(False, signals, None)
        scope = Scope(namespace, session.user_id, session_id=session_id)
        submitted = await self.extraction.submit_session(
            scope,
            timezone=session_timezone(rows),
            now=None,
            trigger="signals",
            signals=sorted(signals),
        )
        if submitted is not None and submitted.created:
            log.info("session %s closed by %s: job %s", session_id, sorted(signals),
                     submitted.job.id)  # fmt: skip
        return CloseResult(submitted is not None, signals, submitted)

    async def after_append(
        self,
        namespace: str,
        session_id: str,
        messages: list[Any] | None = None,
        *,
        owner_changed: bool = True,
    ) -> CloseResult:
        """Hook for working memory, in the append's transaction: closes the task when the
        new messages bring a second signal (tool chain ended + user confirmed).

        Given the appended ``messages``: when none of them is a terminal tool message or a
        confirming user turn and the session's owner did not change, the signals cannot
        have become sufficient (the previous append's evaluation saw the same or more), so
        nothing is read."""
        if messages is not None and not owner_changed and not self._brings_signal(messages):
            return CloseResult(False, set(), None)
        return await self.evaluate(namespace, session_id)

    def _brings_signal(self, messages: list[Any]) -> bool:
        """Whether appending ``messages`` can add a closure signal."""
        s = self.settings
        if any(is_tool_terminal(m, s.terminal_states) for m in messages):
            return True
        users = [m for m in messages if _field(m, "role") == "user"]
        return bool(users) and is_confirmation(
            str(_field(users[-1], "content")), s.confirmation_phrases
        )

    async def silent_sessions(
        self, before: datetime, after: datetime, limit: int
    ) -> list[SessionMark]:
        """Sessions silent since before ``before`` (last append after ``after``, the scan's
        cursor) with messages no job has taken yet, oldest first, at most ``limit``."""
        return await self.jobs.silent_sessions(before, after, limit)


class SilenceScanner:
    """Finds sessions that fell silent and closes their task when a second signal holds,
    or when they stayed silent for ``CLOSURE__IDLE_S``.

    Each scan looks at sessions whose last append lies between its cursor and
    ``now - CLOSURE__SILENCE_S``, so every session is evaluated about once per silence (a
    new append moves it back into view); a second cursor does the same at
    ``now - CLOSURE__IDLE_S``."""

    def __init__(
        self,
        session_factory: async_sessionmaker[AsyncSession],
        closure_service: Callable[[AsyncSession], ClosureService],
        settings: ClosureSettings,
    ) -> None:
        self.session_factory = session_factory
        self.closure_service = closure_service
        self.settings = settings
        start = datetime.now(UTC) - timedelta(days=1)
        self.cursor = start - timedelta(seconds=settings.silence_s)
        self.idle_cursor = start - timedelta(seconds=settings.idle_s)

    async def scan(self, now: datetime | None = None, limit: int = 200) -> int:
        """One scan; returns how many sessions it closed."""
        now = now or datetime.now(UTC)
        closed, self.cursor = await self._pass(now, self.settings.silence_s, self.cursor, limit)
        if self.settings.idle_s > 0:
            idle, self.idle_cursor = await self._pass(
                now, self.settings.idle_s, self.idle_cursor, limit
            )
            closed += idle
        return closed

    async def _pass(
        self, now: datetime, quiet_s: float, cursor: datetime, limit: int
    ) -> tuple[int, datetime]:
        """Evaluate the sessions quiet for ``quiet_s`` whose last append is after ``cursor``;
        returns how many closed and the cursor moved past them."""
        before = now - timedelta(seconds=quiet_s)
        async with self.session_factory() as session, session.begin():
            marks = await self.closure_service(session).silent_sessions(before, cursor, limit)
        closed = 0
        for mark in marks:  # one transaction per session, owned here
            async with self.session_factory() as session, session.begin():
                result = await self.closure_service(session).evaluate(
                    mark.namespace, mark.session_id, now=now
                )
            closed += int(result.submitted is not None and result.submitted.created)
            cursor = max(cursor, mark.updated_at)
        if len(marks) < limit:
            cursor = max(cursor, before - timedelta(seconds=1))
        return closed, cursor
