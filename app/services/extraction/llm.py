"""Extraction by an LLM: optional cheap-model pre-filter, then the main model, its reply
parsed as untrusted input with a bounded number of repair requests, its units made to stand
alone (:mod:`app.services.extraction.polish`)."""

from __future__ import annotations

import logging

from app.clients.llm import LLMClient
from app.clients.llm_reply import ReplyParseError, parse_json_object
from app.core.config import LLMSettings
from app.core.errors import HindsightError, ProviderError
from app.services.extraction.parse import parse_reply
from app.services.extraction.polish import polish
from app.services.extraction.prompt import build_messages, build_prefilter, repair_messages
from app.services.extraction.units import Extraction, ExtractionContext, Turn

log = logging.getLogger(__name__)


class BadReplyError(ProviderError):
    """The LLM's replies were not usable JSON after every repair request."""

    code, title = "provider_bad_reply", "Upstream provider gave an unusable reply"


class LLMExtractor:
    """Units from an OpenAI-compatible chat model (docs/EXTRACTION.md)."""

    def __init__(self, client: LLMClient, settings: LLMSettings) -> None:
        self.client = client
        self.settings = settings
        self.name = f"llm:{settings.model}"

    async def worth_extracting(self, turns: list[Turn]) -> bool:
        """The pre-filter's answer; True when there is no pre-filter or it fails (the main
        model then decides)."""
        if not self.settings.prefilter_model:
            return True
        try:
            reply = await self.client.complete(
                build_prefilter(turns), model=self.settings.prefilter_model
            )
            return bool(parse_json_object(reply).get("worth_extracting", True))
        except (HindsightError, ReplyParseError) as exc:
            log.warning("pre-filter failed, asking the main model: %s", exc)
            return True

    async def extract(self, turns: list[Turn], ctx: ExtractionContext) -> Extraction:
        """Validated units. Raises ProviderError / ProviderTimeoutError from the client and
        BadReplyError when ``1 + parse_retries`` replies were all unusable."""
        if not await self.worth_extracting(turns):
            return Extraction()
        messages = build_messages(turns, ctx)
        error = ""
        for _ in range(self.settings.parse_retries + 1):
            reply = await self.client.complete(messages)
            try:
                parsed = parse_reply(reply)
            except ReplyParseError as exc:
                error = str(exc)
                log.info("unusable LLM reply (%s); asking again", error)
                messages = repair_messages(build_messages(turns, ctx), reply, error)
                continue
            valid = {t.index for t in turns}
            for unit in parsed.units:  # turn numbers the model invented are dropped
                unit.source_turns = [i for i in unit.source_turns if i in valid]
            return Extraction(polish(parsed.units, turns, ctx), parsed.rejected)
        raise BadReplyError(
            f"LLM reply unusable after {self.settings.parse_retries + 1} tries: {error}"
        )
