"""Settings of sessions: working memory, context assembly, the LLM, extraction and closure signals.

Each class is one ``PREFIX__`` group of :class:`app.core.config.Settings`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, SecretStr


class WorkingMemorySettings(BaseModel):
    """The per-session hot window in Redis (docs/WORKING_MEMORY.md) and its ranking."""

    # Every Redis key starts with this (tests isolate with a prefix of their own).
    key_prefix: str = "hindsight:"
    # Idle TTL of a session's window, refreshed on every append (docs/WORKING_MEMORY.md: 1 h).
    ttl_s: int = Field(default=3600, ge=1)
    # Hard caps of one window: past either, the oldest messages leave Redis (never the
    # transcript). The newest message always stays.
    max_messages: int = Field(default=500, ge=1, le=100000)
    max_window_tokens: int = Field(default=200000, ge=1)
    # Tokenizer encoding (bundled BPE files, nothing downloaded): o200k_base or cl100k_base.
    encoding: Literal["o200k_base", "cl100k_base"] = "o200k_base"
    # Budget of a window read when the request gives no max_tokens.
    default_max_tokens: int = Field(default=4000, ge=1)
    # Share of max_tokens left free for the model's answer (docs/WORKING_MEMORY.md: 20%).
    headroom: float = Field(default=0.2, ge=0, lt=1)
    # Tokens a chat message costs beyond its content: 3 framing + 1 role (OpenAI cookbook,
    # "How to count tokens with tiktoken").
    message_overhead_tokens: int = Field(default=4, ge=0, le=100)
    # Ranking weights (renormalised over the signals in use; relevance needs a query).
    weight_relevance: float = Field(default=0.5, ge=0)
    weight_recency: float = Field(default=0.3, ge=0)
    weight_density: float = Field(default=0.2, ge=0)
    # Recency = 0.5 ** (messages newer than this one / half life).
    recency_half_life: float = Field(default=20, gt=0)
    # Decoded windows kept per process (LRU, by session), reused while the window's version
    # in Redis is unchanged; 0 disables.
    window_cache_sessions: int = Field(default=64, ge=0)
    # An append answers without waiting for its messages' embeddings; a background task per
    # process embeds them after, in batches of at most this many messages.
    embed_batch: int = Field(default=8, ge=1, le=1000)
    # A read ranking by relevance embeds itself what its budget (LIMITS__REQUEST_TOKENS less
    # its query) allows, newest first, and waits at most this long in all (one deadline per
    # request) for the messages past it that task still has queued or in progress (it takes
    # them first); those still without a vector then are ranked without relevance.
    # 2000: on 2 cores a read right after a 39-turn import waits ~1.4 s for the background to
    # embed what its appends paid for (docs/WORKING_MEMORY.md, the LoCoMo replay).
    embed_wait_ms: int = Field(default=2000, ge=0, le=60000)


class ContextSettings(BaseModel):
    """``GET /context``: how its token budget is split between its parts."""

    # Shares of the usable budget (max_tokens minus headroom); what a part leaves unused
    # passes to the next part in the order preferences -> memories -> window.
    share_preferences: float = Field(default=0.2, ge=0)
    share_memories: float = Field(default=0.3, ge=0)
    share_window: float = Field(default=0.5, ge=0)
    # Recalled units asked from /recall, and standing units looked at (constraints first,
    # then the strongest preferences).
    top_k: int = Field(default=8, ge=1, le=100)
    max_preferences: int = Field(default=10, ge=0, le=100)


class LLMSettings(BaseModel):
    """An OpenAI-compatible chat-completions endpoint for extraction (docs/EXTRACTION.md). Unset
    base URL or model: no LLM, the offline extractor runs instead."""

    base_url: str = ""
    api_key: SecretStr = SecretStr("")
    model: str = ""
    # Optional cheaper model asked first whether a transcript holds anything worth keeping.
    prefilter_model: str = ""
    timeout_s: float = Field(default=60.0, gt=0)
    connect_timeout_s: float = Field(default=5.0, gt=0)
    # HTTP-level retries of one call (5xx, 429, transport errors, timeouts).
    max_retries: int = Field(default=2, ge=0, le=10)
    # Re-asks when a reply is not valid JSON of the unit schema.
    parse_retries: int = Field(default=2, ge=0, le=10)
    # Send response_format={"type": "json_object"} (turn off for servers that reject it).
    json_mode: bool = True
    temperature: float = Field(default=0.0, ge=0, le=2)
    max_tokens: int = Field(default=2000, ge=64, le=32000)

    @property
    def configured(self) -> bool:
        """True when an LLM endpoint and model are set."""
        return bool(self.base_url.strip() and self.model.strip())


class ExtractionSettings(BaseModel):
    """Hindsight extraction (docs/EXTRACTION.md)."""

    # Units below this confidence are dropped (the seeds' 0.6, docs/EXTRACTION.md).
    min_confidence: float = Field(default=0.6, ge=0, le=1)
    # Largest transcript of one job (messages): a session's longer pending part is cut into
    # one job per part, oldest first; a transcript given to /extract keeps its newest.
    max_messages: int = Field(default=5000, ge=1, le=100_000)
    # Content tokens per slice of a transcript (one LLM call each; offline, one pass each).
    window_tokens: int = Field(default=6000, ge=100, le=1_000_000)
    # `POST /extract?wait=true` waits at most this long (seconds), then answers 202.
    wait_timeout_s: float = Field(default=300, gt=0)
    # Unfinished jobs (queued, running, retrying) one namespace may have before `POST /extract`
    # of a transcript is a 429: one caller cannot queue hours of extraction ahead of others.
    max_pending_per_namespace: int = Field(default=20, ge=1, le=100_000)
    # With an LLM configured: a job whose last attempt the LLM failed (error, timeout, no
    # usable reply) runs the offline extractor instead of failing; the job keeps the LLM's
    # error in `error_history` (`"fallback": "offline"`) and names `extractor: offline`.
    offline_fallback: bool = False
    # Pair reviews one job may open (possible duplicates and contradictions, across its store
    # batches, in unit order); the pairs beyond are left alone and the job's unit entries say
    # how many (`reason`). DEDUPE__MAX_REVIEWS_PER_UNIT bounds each unit as well.
    max_reviews_per_job: int = Field(default=20, ge=0, le=10_000)
    # Units one job may keep per user message of its transcript (tester hbreak7 H11: an LLM
    # answered 300 units for 2 messages); beyond, the highest-confidence ones are kept and the
    # job's unit entries say the others were dropped (`reason`).
    max_units_per_message: int = Field(default=20, ge=1, le=1000)


class ClosureSettings(BaseModel):
    """Task closure: two of three signals close a task (docs/EXTRACTION.md)."""

    # Seconds without a new message after which a session counts as silent.
    silence_s: float = Field(default=300, gt=0)
    # Seconds without a new message after which silence alone closes a task that holds a user
    # message (most chats end with the agent's answer and no "thanks"); 0: never, two signals
    # are needed.
    idle_s: float = Field(default=1800, ge=0)
    # Seconds between the worker's scans for silent sessions; 0 disables the scan.
    scan_interval_s: float = Field(default=30, ge=0)
    # A user message that is (or ends with) one of these confirms the task; case-insensitive.
    confirmation_phrases: list[str] = Field(
        default_factory=lambda: [
            "ok", "okay", "thanks", "thank you", "thx", "great", "perfect", "got it",
            "sounds good", "looks good", "done", "that works", "all good", "cool",
            "好的", "好", "可以", "谢谢", "多谢", "行", "没问题", "好了", "完美", "收到", "明白了",
        ]
    )  # fmt: skip
    # Message metadata `tool_chain_state` (or `tool_state`) values that end a tool chain.
    terminal_states: list[str] = Field(
        default_factory=lambda: ["completed", "succeeded", "success", "done", "failed",
                                 "cancelled", "canceled", "error", "finished"]
    )  # fmt: skip
