"""``POST /recall`` wire models (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, field_validator, model_validator

from app.core.vocabulary import MemoryType
from app.schemas.common import (
    SUPERSEDED_HISTORY,
    AwareDatetime,
    Identifier,
    OffsetDatetime,
    RequestModel,
    ResponseModel,
    VisibleText,
)
from app.schemas.limits import MaxValue
from app.schemas.memory import MemoryRead
from app.schemas.recall_scores import AppliedWeights, RelevanceInputs, Scores

TimeRange = Literal["last_24_hours", "last_7_days", "last_30_days"]
Profile = Literal["long_term", "short_term"]
RerankMode = Literal["none", "llm"]
RerankStatus = Literal["applied", "cached", "timeout", "error", "skipped"]


class Weights(RequestModel):
    """Per-request weight overrides; omitted signals keep the profile's weight."""

    semantic: float | None = Field(default=None, ge=0, le=10)
    keyword: float | None = Field(default=None, ge=0, le=10)
    recency: float | None = Field(default=None, ge=0, le=10)
    confidence: float | None = Field(default=None, ge=0, le=10)
    entity: float | None = Field(default=None, ge=0, le=10)
    context: float | None = Field(
        default=None,
        ge=0,
        le=10,
        description="Relevance of the unit's neighbours in its session and of the session.",
    )
    time: float | None = Field(
        default=None,
        ge=0,
        le=10,
        description="The query's time window (`time_hint`): units that happened in it; for a "
        "question asking *when*, units whose text carries a date.",
    )
    answer_type: float | None = Field(
        default=None,
        ge=0,
        le=10,
        description='What the query asks for ("which cities…", "哪些城市"): units that name one '
        "(Chicago), among the best 50.",
    )
    recency_lambda: float | None = Field(
        default=None, ge=0, le=10, description="Recency decay per hour: exp(-λ·hours)."
    )


class RecallRequest(RequestModel):
    """What to recall and for whom: give at least one of `user_id`, `agent_id` or
    `session_id` (each optional alone; none of them is a 422)."""

    query: Annotated[VisibleText, Field(max_length=2000)] = Field(
        description="What the agent is looking for, in natural language."
    )
    user_id: Identifier | None = None
    agent_id: Identifier | None = Field(
        default=None,
        description="Only this agent's units. With `user_id`: that user's units stored with "
        "this agent, not the user's units of other agents nor those stored without an agent "
        "(recall once without `agent_id` for everything the user said). Alone: the agent's "
        "units of **every user** of the namespace — an agent that serves several users must "
        "pass `user_id` too, or its prompt gets other users' memories (the MCP server pins "
        "one user per caller: docs/MCP.md).",
    )
    session_id: Identifier | None = Field(
        default=None,
        description="Only units holding what this session said: its own, and those of "
        "other sessions that its statements were merged into (a restatement).",
    )
    types: list[MemoryType] | None = Field(
        default=None,
        min_length=1,
        description="Only these unit types (at least one; leave it out for every type).",
    )
    entities: list[Annotated[VisibleText, Field(max_length=200)]] | None = Field(
        default=None,
        min_length=1,
        max_length=50,
        description="Only units naming at least one of these (leave it out for any).",
    )
    time_range: TimeRange | None = Field(
        default=None, description="Only units whose occurred_at lies in this window before now."
    )
    since: AwareDatetime | None = Field(default=None, description="occurred_at ≥ since.")
    until: AwareDatetime | None = Field(default=None, description="occurred_at < until.")
    top_k: Annotated[int, MaxValue("recall_top_k")] = Field(
        default=5, ge=1, description="How many units to return."
    )
    min_score: float | None = Field(default=None, ge=0, description="Drop hits scoring below.")
    min_relevance: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="Drop hits whose `relevance` is below (0..1; not set: no cut). A cut "
        "drops answers too (LoCoMo dev, cross-validated): at 0.005 the evidence of 2% of the "
        "answerable questions that had it in their top 10, at 0.03 (the `best_relevance` "
        "line) 20%, at 0.1 44%: leave it unset when the hits feed an answer (docs/EVAL.md, "
        '"Relevance").',
    )
    profile: Profile = Field(
        default="long_term",
        description="`long_term` (default, measured on LoCoMo: relevance and conversational "
        "context, recency only a tie-breaker) or `short_term` (the seeds' weights "
        "semantic/keyword/recency/confidence 0.5/0.2/0.2/0.1, for short-lived tasks).",
    )
    weights: Weights | None = Field(default=None, description="Override single weights.")
    now: AwareDatetime | None = Field(
        default=None,
        description="The clock for recency, time_range and the query's time phrases "
        "(replays, evaluation).",
    )
    timezone: Annotated[str, Field(min_length=1, max_length=64)] | None = Field(
        default=None,
        description="The subject's IANA time zone (`Asia/Shanghai`), in which the query's "
        'time phrases ("last May", "yesterday", "上个月") are read; default: the offset of '
        "`now` when given, else UTC. An unknown zone is a 422.",
    )
    include_superseded: bool = Field(default=False, description=SUPERSEDED_HISTORY)
    include_archived: bool = False
    as_of: OffsetDatetime | None = Field(
        default=None,
        description="Valid time: only the units true at this moment (ISO 8601 with a UTC "
        "offset, else 422): `valid_from <= as_of < valid_to`. A value superseded later is "
        "returned, one that became true after it is not (superseded units count without "
        "`include_superseded`).",
    )
    expand: bool = Field(
        default=True,
        description="Large subjects (above `RECALL__EXACT_SCAN_LIMIT` units): after the first "
        "stage, also score the units of the best hits' sessions and those naming their "
        "entities (`via` says so). Small subjects score every unit anyway.",
    )
    record_access: bool = Field(
        default=True,
        description="Count this recall as an access of the units returned (access log, "
        "`last_accessed_at`, TTL extension of units whose expiry was not given by "
        "`ttl_days` / `expires_at`). `false` for inspection and evaluation: nothing is "
        "written.",
    )
    rerank: RerankMode | None = Field(
        default=None,
        description="Second stage after hybrid scoring. `llm`: the configured LLM orders the "
        "best `rerank_candidates` by relevance to `query` in one call (422 when the server "
        "has no LLM); `none`: hybrid order only. Omitted: the server default "
        "(`RECALL__RERANK`, `none` unless configured).",
    )
    rerank_candidates: int | None = Field(
        default=None,
        ge=1,
        le=50,
        description="How many of the best hybrid candidates the LLM orders (omitted: "
        "`RECALL__RERANK_CANDIDATES`, default 20).",
    )

    @model_validator(mode="after")
    def _needs_subject(self) -> RecallRequest:
        if not (self.user_id or self.agent_id or self.session_id):
            raise ValueError("give at least one of user_id, agent_id, session_id")
        if self.since and self.until and self.since >= self.until:
            raise ValueError("since must be before until")
        return self

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str | None) -> str | None:
        # A field's own check, so the error is located at `timezone`, not at the whole body
        # (tester finding T15).
        if value is not None:
            try:
                ZoneInfo(value)
            except (ZoneInfoNotFoundError, ValueError) as exc:
                raise ValueError(f"unknown IANA time zone {value!r} (e.g. Europe/Paris)") from exc
        return value


class RecallHit(MemoryRead):
    """A recalled unit with its score, the score's breakdown and the stage that placed it."""

    score: float = Field(
        description="The hybrid score (`scores` weighted, summed; less `redundancy` for a hit "
        "nearly repeating a better-placed hit's value; a superseded hit's at most its "
        "successor's; one naming only another thing of the query's kind, in the other "
        "language, at most the hits naming it): orders this answer's hits, its scale set by "
        "the other candidates. 0 to the applied `weights`' sum: 1.35 with `long_term`'s "
        "defaults (six signals sum to 1; `time`, `answer_type` on top when called for), 1 "
        "with `short_term`. `relevance` is the 0..1 figure."
    )
    relevance: float = Field(
        description="How likely this unit holds what the query asks for, 0..1, from its own "
        "raw signals (cosine, keyword coverage, entity match, context; a logistic model "
        'calibrated on LoCoMo dev, docs/EVAL.md "Relevance"): comparable across queries, '
        "independent of the other candidates."
    )
    scores: Scores
    relevance_inputs: RelevanceInputs = Field(
        description='What `relevance` was computed from (docs/EVAL.md "Relevance").'
    )
    via: str = Field(
        default="direct",
        description="What brought the hit into the list: `direct` (its own match with the "
        "query), `session` (mostly its session: a neighbour or session-mate matched the query "
        "better, the context signal; or, large subjects, reached through a best hit's "
        "session) or `entity NAME` (mostly naming an entity the query names; or, large "
        "subjects, reached through an entity of a best hit).",
    )
    hybrid_rank: int = Field(description="1-based position in the hybrid order.")
    duplicates: list[uuid.UUID] = Field(
        default_factory=list,
        description="Units the pair decision calls the same fact as this one (docs/DEDUPE.md), "
        "collapsed into this hit so the answer holds each fact once; best-ranked first. "
        "They are not returned as hits of their own.",
    )
    redundancy: float = Field(
        default=0.0,
        description="What the diversity step took off this hit's score because its value "
        "nearly repeats a better-placed hit's (`redundant_with`): 1.0 × (value cosine − 0.9) "
        "for the most similar one; `score` is already reduced by it. 0 for most hits and "
        'after an LLM rerank (docs/EVAL.md "Diversity of the final list").',
    )
    redundant_with: uuid.UUID | None = Field(
        default=None,
        description="The better-placed hit whose value this one nearly repeats (the cause of "
        "`redundancy`); null when `redundancy` is 0.",
    )
    replaced_by: uuid.UUID | None = Field(
        default=None,
        description="Another agent's newer unit of the same user that changes what this one "
        'says ("moved to Munich" told to one agent, "lives in Berlin" to another: a '
        "`replaces` link, docs/DEDUPE.md); this hit is listed right after it and is stale. "
        "Set when both are among the ranked candidates; null otherwise.",
    )
    rerank_position: int | None = Field(
        default=None,
        description="1-based position in the LLM's order when the rerank stage placed this "
        "hit; null when the hybrid order placed it (no rerank, or the LLM left it out).",
    )


class RerankInfo(ResponseModel):
    """What the rerank stage did, and what its LLM call cost."""

    status: RerankStatus = Field(
        description="applied: the LLM's order; cached: the order of an earlier call for the "
        "same query and candidates (no call); timeout: the LLM had not answered within the "
        "time budget left, hybrid order; error: the LLM failed or its reply was unusable, "
        "hybrid order; skipped: under two candidates, no call."
    )
    reason: str | None = Field(default=None, description="Why not applied; or the LLM named none.")
    candidates: int = Field(description="Candidates given to the LLM.")
    model: str
    prompt_tokens: int | None = Field(
        default=None, description="Prompt tokens the provider counted (null: none reported)."
    )
    completion_tokens: int | None = Field(
        default=None, description="Reply tokens the provider counted (null: none reported)."
    )
    llm_ms: float = Field(description="Wall time of the LLM call (0 when none was made).")


class TimeHint(ResponseModel):
    """The time phrase read in the query and the window it means, in the subject's time
    zone (`timezone`), relative to `now`: a signal (`scores.time`), not a filter."""

    phrase: str = Field(description="The phrase as written in the query.")
    start: datetime = Field(description="Start of the window (inclusive).")
    end: datetime = Field(description="End of the window (exclusive).")
    unit: Literal["day", "week", "weekend", "month", "year"] = Field(
        description="The phrase's granularity."
    )


class ExpansionInfo(ResponseModel):
    """What the expansion stage did."""

    status: Literal["applied", "skipped", "not_needed", "off"] = Field(
        description="applied: the best hits' sessions and entities were followed; skipped: "
        "too little of the time budget was left (`reason`); not_needed: every unit of the "
        "subject was scored already (small subject); off: `expand: false`."
    )
    added: int = Field(default=0, description="Units the stage brought in.")
    reason: str | None = None


class RecallResponse(ResponseModel):
    """Ranked units, best first."""

    memories: list[RecallHit]
    weights: AppliedWeights = Field(description="The weights applied (profile + overrides).")
    degraded: bool = Field(
        description="True when the time budget cut work short, or the rerank stage was asked "
        "for but its order could not be used (`rerank.reason` says why)."
    )
    took_ms: float = Field(description="Wall time of the recall in the service (ms).")
    stages_ms: dict[str, float] = Field(
        default_factory=dict,
        description="Where `took_ms` went, per stage in the order they ran (ms): `profile` "
        "and `known` (subject lookups, only when not cached), `embed` (the query embedding; "
        "~0 when the same text was embedded before), `candidates` (the one SQL statement that "
        "gathers and scores candidates), `score` (ranking), `expand` (large subjects: the "
        "second hop's statement and ranking again), `rerank` (when asked for), `collapse` "
        "(one statement: the answer columns of the best candidates and their close pairs; "
        "then the duplicate collapse). The access log (unless `record_access: false`) is "
        "written after the answer is sent, outside `took_ms`. "
        "The same figures are in the `Server-Timing` header.",
    )
    embed_model_ms: float | None = Field(
        default=None,
        description="The embedding model's own time within `stages_ms.embed` (ms): the "
        "encoding alone, without the wait for the model, the thread hand-off and the "
        "connection checkout that overlaps it. Null when the model did not run (a cached "
        "query embedding) or does not report its time (an OpenAI-compatible endpoint). Also "
        "in the `Server-Timing` header as `embed_model`.",
    )
    rerank: RerankInfo | None = Field(
        default=None, description="The rerank stage; null when it did not run."
    )
    expansion: ExpansionInfo | None = Field(
        default=None, description="The expansion stage (multi-hop): whether it ran."
    )
    best_relevance: float | None = Field(
        default=None,
        description="The highest `relevance` among the best `top_k` by hybrid score, before "
        "the `min_score` / `min_relevance` cuts. Below 0.03: nothing relevant found (on LoCoMo "
        "dev, cross-validated: right for 56% of the questions so flagged, catching 19% of the "
        "unanswerable ones and 4.7% of the answerable). Null without candidates.",
    )
    time_hint: TimeHint | None = Field(
        default=None,
        description='The time phrase read in the query ("in May 2023", "last week", '
        '"去年", "2023年5月") as a window; null when the query names no time.',
    )
