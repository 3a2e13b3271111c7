"""Which window messages are standing statements of the session, and which are filler
(docs/WORKING_MEMORY.md, "Standing statements first").

A *standing statement* is something the user said that holds for the rest of the session
whatever is asked next: a constraint ("I eat vegan food only", "never book red-eye
flights", 我不吃辣), a preference ("I prefer trains over flights", 我更喜欢坐火车) — both
recognised by the offline extractor's own cue rules (app/services/extraction/rules.py),
clause by clause, questions skipped — or a decision ("we decided to fly on Friday",
"let's go with the second hotel", 我们决定周五出发). *Filler* is a message with no
informative sentence (app/services/extraction/filler.py: "ok", "thanks!", 好的, emoji).
Only the user's messages can be standing statements (the assistant restating one is not
the user saying it). Both are decided once, when a message is appended.
"""

from __future__ import annotations

import re
from typing import Literal

from app.core.text import has_cjk
from app.services.extraction.filler import informative
from app.services.extraction.rules import EN_RULES
from app.services.extraction.rules_zh import ZH_RULES

Standing = Literal["constraint", "preference", "decision"]

_CLAUSE = re.compile(
    r"(?<=[.!?;])\s+|[,，、；;。！？!?\n]+\s*|\s+but\s+|\s+and\s+(?=i\b|we\b)", re.I
)
_EN_QUESTION = re.compile(
    r"^(?:do|does|did|can|could|would|will|should|is|are|was|what|how|why|where|when|which|"
    r"who|shall|may)\b",
    re.I,
)
_EN_DECISION = re.compile(
    r"\b(?:(?:i|we)\s+(?:have\s+|'ve\s+)?(?:decided|agreed|settled|chose|chosen|picked|opted)"
    r"|(?:i|we)\s*'?(?:ll|\s+will)\s+go\s+with|let'?s\s+(?:go\s+with|do|book|take|use|pick|stick\s+with)"
    r"|(?:the\s+)?decision\s+is|(?:it'?s|that'?s)\s+(?:decided|settled|final))\b",
    re.I,
)
_ZH_DECISION = re.compile(
    r"(?:我们|我)(?:已经)?(?:决定|定了|选定|商量好|说好)|就这么定|就选|最终选择|决定了"
)
_TYPES = {"constraint", "preference"}


def _clauses(text: str) -> list[str]:
    return [c.strip() for c in _CLAUSE.split(text) if c and c.strip()]


def _is_question(clause: str) -> bool:
    stripped = clause.rstrip()
    return stripped.endswith(("?", "？")) or (
        not has_cjk(clause) and _EN_QUESTION.match(stripped) is not None
    )


def standing_kind(role: str, content: str) -> Standing | None:
    """The kind of standing statement a message is, or None (not the user's, or none)."""
    if role != "user":
        return None
    # Whole message first (rules span clauses: "I'm allergic to nuts and shellfish"), then
    # each clause that is not a question.
    whole = [] if _is_question(content) else [content]
    texts = [*whole, *(c for c in _clauses(content) if not _is_question(c))]
    kind: Standing | None = None
    for text in texts:
        zh = has_cjk(text)
        for rule in ZH_RULES if zh else EN_RULES:
            if rule.type in _TYPES and rule.pattern.search(text):
                if rule.type == "constraint":
                    return "constraint"  # the strongest kind: no need to look further
                kind = "preference"
        if kind is None and (_ZH_DECISION if zh else _EN_DECISION).search(text):
            kind = "decision"
    return kind


def is_filler(content: str) -> bool:
    """True when no sentence of the message is informative ("ok", "thanks!", 好的, 👍)."""
    return not informative(content)
