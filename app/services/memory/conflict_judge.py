"""The LLM's answer for a pair the local decision was unsure about: is the NEW unit the same
memory as the OLD one, does it contradict it, or are the two unrelated? Asked only by the
reconciliation job, after the ``/store`` answer (:mod:`app.services.memory.reconcile`)."""

from __future__ import annotations

import logging
from typing import Protocol

from app.clients.llm import LLMClient
from app.clients.llm_reply import ReplyParseError, parse_json_object
from app.services.memory.conflict_prompt import build_judge
from app.services.memory.pairs.verdicts import Verdict

log = logging.getLogger(__name__)

VERDICTS: tuple[Verdict, ...] = ("same", "contradicts", "unrelated")


class PairJudge(Protocol):
    """Something that answers same / contradicts / unrelated for a pair (an LLM)."""

    async def judge(self, new_value: str, old_value: str) -> Verdict | None:
        """The verdict; None when the answer was unusable. Provider failures raise
        (``ProviderError`` / ``ProviderTimeoutError``) so the caller can try again."""
        ...


class LLMPairJudge:
    """One chat call per pair with the prompt of :mod:`app.services.memory.conflict_prompt`."""

    def __init__(self, client: LLMClient) -> None:
        self.client = client

    async def judge(self, new_value: str, old_value: str) -> Verdict | None:
        """The LLM's verdict; None for a reply that is not one of :data:`VERDICTS`."""
        reply = await self.client.complete(build_judge(new_value, old_value))
        try:
            verdict = str(parse_json_object(reply).get("verdict", "")).strip().lower()
        except ReplyParseError as exc:
            log.warning("pair judge: unusable reply: %s", exc)
            return None
        return next((v for v in VERDICTS if v == verdict), None)
