"""Every parameter an MCP tool takes, with the description the model reads: when and how
to fill it. Named after the parameter (prefixed by the tool where two tools word it apart)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.mcp.results import Turn

Kind = Literal["fact", "preference", "constraint", "action", "result", "event"]
TimeRange = Literal["last_24_hours", "last_7_days", "last_30_days"]

# --- parameters shared by several tools -------------------------------------------------

UserId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=256,
        description="The id of the person the memory is about, exactly as your application "
        "names them (for example 'user-42'). Always the same id for the same person.",
    ),
]
AgentId = Annotated[
    str | None,
    Field(
        max_length=256,
        description="Your own agent id, only when memories should be kept apart per agent; "
        "leave empty to share memories across agents.",
    ),
]
SessionId = Annotated[
    str | None,
    Field(
        max_length=256,
        description="The current conversation's id, only when the memory belongs to this "
        "session; leave empty otherwise.",
    ),
]

ReviewId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        description="The pair's review_id, as memory_reviews listed it.",
    ),
]
ReviewKind = Annotated[
    Literal["duplicate", "contradiction"] | None,
    Field(
        description="Only pairs that may be the same fact ('duplicate') or only pairs where "
        "one may replace the other ('contradiction'); leave empty for both."
    ),
]
ReviewsHowMany = Annotated[
    int, Field(ge=1, le=50, description="How many pairs to list, newest first (default 10).")
]
PairDecision = Annotated[
    Literal["merge", "supersede", "keep_both"],
    Field(
        description="'merge': both say the same thing; 'supersede': the newer one replaces "
        "the existing one; 'keep_both': two different facts."
    ),
]
MemoryIdParam = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        description="The memory's id, exactly as memory_recall or memory_store returned it.",
    ),
]


# --- per tool ---------------------------------------------------------------------------

WhatToRemember = Annotated[
    str,
    Field(
        min_length=1,
        max_length=2000,
        description="One self-contained sentence worth knowing in a later "
        "conversation, in the user's language, keeping negations and conditions "
        "('The user does NOT eat pork', 'The user prefers window seats on long "
        "flights'). Resolve relative times to dates.",
    ),
]

StoreKind = Annotated[
    Kind | None,
    Field(
        description="fact (true about the world or user), preference (likes, wants), "
        "constraint (must / must not), action (something done), result (an outcome), "
        "event (something that happens at a time). Leave empty to have it read from the "
        "memory's words (an allergy is a constraint; fact when nothing says otherwise)."
    ),
]

StoreWhenItWillMatter = Annotated[
    str | None,
    Field(
        max_length=2000,
        description="The situation in which this should come to mind, written as a "
        "scenario: 'when the user plans a trip' — not a restatement of the memory. "
        "Leave empty if unsure.",
    ),
]

StoreNamedThings = Annotated[
    list[str] | None,
    Field(
        max_length=50,
        description="People, places, products and codes the memory names "
        "(['Alice', 'Shanghai', '600519']); they make later recall exact. Leave out to "
        "have the names read from the memory's words.",
    ),
]

StoreHowSure = Annotated[
    float,
    Field(ge=0, le=1, description="Confidence 0..1: 1 when the user said it plainly."),
]

WhenItHappened = Annotated[
    str | None,
    Field(
        description="ISO 8601 time the memory refers to, with its UTC offset "
        "('2026-03-14T09:00:00Z' or '2026-03-14T17:00:00+08:00'; a time without one is "
        "refused); leave empty for 'now'."
    ),
]

ForgetAfterDays = Annotated[
    float | None,
    Field(
        gt=0,
        description="Only for short-lived things: forget after this many days. "
        "Leave empty to use the default lifetime of its kind.",
    ),
]

WhatAmILookingFor = Annotated[
    str,
    Field(
        min_length=1,
        max_length=2000,
        description="What you need to know, as a question or a situation: 'what "
        "food can't the user eat?', 'the user wants to book a weekend trip'.",
    ),
]

RecallUserId = Annotated[
    str | None,
    Field(
        max_length=256,
        description="The person whose memories to search (give this, agent_id or "
        "session_id: at least one).",
    ),
]

HowManyResults = Annotated[
    int,
    Field(
        ge=1,
        le=100,
        description="How many memories to return, best first. 5 is usually enough; "
        "ask for more when listing ('all the user's allergies').",
    ),
]

RecallTimeRange = Annotated[
    TimeRange | None,
    Field(
        description="Only memories from this recent window; leave empty for all "
        "time (most questions)."
    ),
]

RecallOnlyKinds = Annotated[
    list[Kind] | None,
    Field(description="Only these kinds, e.g. ['constraint'] before acting."),
]

AboutNamedThings = Annotated[
    list[str] | None,
    Field(
        max_length=50,
        description="Only memories naming at least one of these people, places or "
        "codes; leave empty unless you are sure of the exact name.",
    ),
]

IncludeOutdated = Annotated[
    bool,
    Field(
        description="Also return memories replaced by newer ones (for history "
        "questions like 'where did the user live before?'); each is listed after the "
        "memory that replaced it."
    ),
]
Rerank = Annotated[
    Literal["none", "llm"] | None,
    Field(
        description="'llm': the memory server's own LLM puts the best candidates in "
        "order of relevance (more precise, slower; an error where the server has no "
        "LLM). 'none': the fast ranking only. Leave empty for the server's default."
    ),
]

CorrectedText = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=2000,
        description="The corrected memory, as one self-contained sentence; leave "
        "empty to keep the text.",
    ),
]

UpdateWhenItWillMatter = Annotated[
    str | None,
    Field(max_length=2000, description="A new trigger scenario; leave empty to keep."),
]

UpdateNamedThings = Annotated[
    list[str] | None,
    Field(max_length=50, description="Replaces the named things; leave empty to keep."),
]

UpdateHowSure = Annotated[
    float | None, Field(ge=0, le=1, description="New confidence 0..1; empty keeps it.")
]

MarkAs = Annotated[
    Literal["invalid", "archived", "active"] | None,
    Field(
        description="invalid: the memory is wrong (kept for the record, never "
        "recalled); archived: no longer relevant; active: restore one. Leave empty "
        "to keep."
    ),
]

ExtractUserId = Annotated[
    str | None,
    Field(
        max_length=256,
        description="The person the conversation is about (required unless job_id is given).",
    ),
]

Conversation = Annotated[
    list[Turn] | None,
    Field(
        max_length=500,
        description="The finished conversation, oldest message first. Leave empty to "
        "use the transcript the service holds for session_id.",
    ),
]

WaitForResult = Annotated[
    bool,
    Field(
        description="true: wait and return the memories found (slower); false: "
        "return at once with a job_id to check later."
    ),
]

UsersTimeZone = Annotated[
    str,
    Field(
        max_length=64,
        description="The user's IANA time zone ('Europe/Paris'), so 'tomorrow' "
        "becomes the right date.",
    ),
]

JobId = Annotated[
    str | None,
    Field(
        max_length=64,
        description="Only to check on an earlier extraction: its job_id. Leave the "
        "other parameters empty then.",
    ),
]

AboutNamedThing = Annotated[
    str | None,
    Field(
        max_length=200,
        description="Only consolidate memories naming this person, place or thing; "
        "leave empty to consolidate every group of related memories.",
    ),
]

SummarizeTimeRange = Annotated[
    TimeRange | None,
    Field(description="Only memories from this recent window; empty for all time."),
]

SummarizeOnlyKinds = Annotated[
    list[Kind] | None, Field(description="Only memories of these kinds.")
]

AboutWhoOrWhat = Annotated[
    str,
    Field(
        min_length=1,
        max_length=2000,
        description="Who or what you want the full picture of, as a name or a question "
        "naming it: 'Caroline', 'what do we know about Caroline?', 'VS Code'.",
    ),
]

AboutHowMany = Annotated[
    int,
    Field(ge=1, le=100, description="At most this many memories about it, newest kept."),
]
