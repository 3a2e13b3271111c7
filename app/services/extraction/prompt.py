"""The extraction prompt (docs/EXTRACTION.md): current time, time zone and subject id; keep
only what changes the agent's later behaviour; ``query`` as a trigger scenario (a good and a bad
example); negations and conditions kept; the source's language; values that stand alone (what
a short answer answers, one event per time, no "Reminder:" lead-ins, the user's name in the
entities); no secrets nor requests to forget; a JSON object out."""

from __future__ import annotations

import json
from datetime import datetime

from app.clients.llm import ChatMessage
from app.services.extraction.dates import local_now
from app.services.extraction.units import ExtractionContext, Turn

SYSTEM = """You distil long-term memory for an AI agent from a finished conversation.

Subject (the user the memories are about): {user_id}. When several people speak as "user",
each message names its speaker ("user Caroline"): write their memories about them by name.
Current time: {now_local} ({weekday}), time zone {timezone}. Resolve every relative time
("tomorrow", "next Friday", "下周五", "明天") to an absolute date in this time zone; weeks start
on Monday, so "next Friday"/"下周五" is the Friday of next week.

Keep ONLY what would change how the agent behaves in a LATER session with this user:
preferences and dislikes, constraints (allergies, "never", "must", 不要, 必须), stable facts about
the user (where they live, work, family), plans with a date, and outcomes worth remembering.
Skip small talk, one-off requests already handled, and anything the assistant said that the
user did not confirm. Most conversations yield 0-5 memories; an empty list is a fine answer.
Never keep secrets (card numbers, security codes, passwords, PINs, one-time codes, keys, id
numbers, door/alarm/garage/safe access codes; "[withheld: …]" marks one already taken out) nor
a request to forget something.

Each memory:
- "type": one of "fact", "preference", "constraint", "action", "result", "event"
  (a plan or appointment is an "event" with "occurred_at").
- "value": ONE self-contained sentence (at most 200 characters) about the subject, in the
  third person. Keep negations and conditions exactly ("The user does NOT want X",
  "If it rains, the user prefers Y"). Write it in the language the user used (Chinese
  source -> Chinese value, e.g. "用户对花生过敏。").
  Each value must stand alone, read without the conversation: name what it is about even
  when only the question said it ("Is your passport still valid?" / "Yes, it expires on 14
  March 2027." -> "The user's passport expires on 2027-03-14.", never "Yes, it expires…").
- One event per memory: a message telling of events at two different times (a meeting next
  week and a bug fixed yesterday) gives two memories, each with its own "occurred_at".
- A reminder or aside ("Reminder:", "FYI", "Just a reminder", "顺便说一下", "提醒一下") is
  written as the plain fact, without the lead-in: restating a fact must not read as news.
- When the conversation gives the user's name, put it in "entities" of every memory about
  the user; the memory stating the name is one fact, the others keep their own content.
- "query": the trigger scenario - WHEN this memory should come to mind, written as a
  situation, in the same language as the value.
    good: "When the user asks for restaurant or recipe suggestions"
    bad:  "User is allergic to peanuts" (a restatement, not a situation)
- "entities": named things (people, places, organisations, products, codes like "600519").
- "confidence": 0.0-1.0, how clearly the user stated it (explicit statement 0.9+, implied
  0.6-0.8, guess below 0.6).
- "occurred_at": the time anchor as an ISO date or datetime (for events and dated facts),
  otherwise null.
- "source_turns": the [n] numbers of the messages it came from.

Answer with a JSON object and nothing else:
{{"memories": [{{"type": "...", "value": "...", "query": "...", "entities": ["..."],
"confidence": 0.9, "occurred_at": null, "source_turns": [0]}}]}}"""

PREFILTER = """Does this conversation contain anything about the user worth remembering in a
later session (preferences, constraints, facts about the user, plans with a date)? Answer with
a JSON object and nothing else: {"worth_extracting": true} or {"worth_extracting": false}."""

REPAIR = """Your previous reply could not be used: {error}. Reply again with ONLY the JSON
object {{"memories": [...]}} following the schema; no prose, no code fences."""


def render_transcript(turns: list[Turn], max_chars: int = 4000) -> str:
    """One line per message: ``[n] role [name] (time): content`` (long messages cut)."""
    lines = []
    for turn in turns:
        content = turn.content if len(turn.content) <= max_chars else turn.content[:max_chars] + "…"
        when = f" ({turn.created_at.isoformat(timespec='minutes')})" if turn.created_at else ""
        meta = ""
        if turn.role == "tool" and turn.metadata:
            meta = " " + json.dumps(turn.metadata, ensure_ascii=False)[:200]
        who = f"{turn.role} {turn.name}" if turn.name else turn.role
        lines.append(f"[{turn.index}] {who}{when}{meta}: {content}")
    return "\n".join(lines)


def build_messages(turns: list[Turn], ctx: ExtractionContext) -> list[ChatMessage]:
    """The chat messages asking for the units of ``turns``."""
    now: datetime = local_now(ctx.now, ctx.timezone)
    system = SYSTEM.format(
        user_id=ctx.user_id,
        now_local=now.isoformat(timespec="minutes"),
        weekday=now.strftime("%A"),
        timezone=ctx.timezone,
    )
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": _earlier(ctx) + "Conversation:\n" + render_transcript(turns)},
    ]


def _earlier(ctx: ExtractionContext) -> str:
    """The messages before this slice of a long transcript, marked as context only."""
    if not ctx.preceding:
        return ""
    return (
        "Earlier messages (context only; their memories were already taken, do not repeat "
        "them):\n" + render_transcript(list(ctx.preceding), 1000) + "\n\n"
    )


def build_prefilter(turns: list[Turn]) -> list[ChatMessage]:
    """The cheap model's yes/no question."""
    return [
        {"role": "system", "content": PREFILTER},
        {"role": "user", "content": "Conversation:\n" + render_transcript(turns, 1000)},
    ]


def repair_messages(previous: list[ChatMessage], reply: str, error: str) -> list[ChatMessage]:
    """``previous`` plus the bad reply and a request to answer again."""
    return [
        *previous,
        {"role": "assistant", "content": reply[:4000]},
        {"role": "user", "content": REPAIR.format(error=error)},
    ]
