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

A *lift* is the user taking a standing statement back ("the 8am rule no longer applies",
"ignore the no-red-eye rule", "forget what I said about early flights", "Just kidding"
opening a message, 那条规定不再适用了): it is pinned like what it lifts, and placed first, so
the window never shows a rule without the message that lifted it (tester hbreak7 H19: the
window kept "Never book before 8am" and dropped the later lift, and /context told the model
the old rule).
"""

from __future__ import annotations

import re
from typing import Literal

from app.core.chinese_script import simplified
from app.core.text import fold_space_runs, has_cjk
from app.services.extraction.filler import informative
from app.services.extraction.retractions import take_back
from app.services.extraction.rules import EN_RULES
from app.services.extraction.rules_zh import ZH_RULES

Standing = Literal["constraint", "preference", "decision", "lift"]

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
_RULE = (
    r"(?:rule|restriction|constraint|limit|requirement|preference|instruction|condition|"
    r"thing|policy)s?"
)
_EN_LIFT = re.compile(
    r"\b(?:no\s+longer\s+appl(?:y|ies)|(?:does|do)\s*(?:n['’]?t|\s+not)\s+apply\s+"
    r"(?:any\s*more|now)|(?:is|are)\s+no\s+longer\s+(?:valid|in\s+effect|needed|necessary|"
    r"required|a\s+thing|the\s+case|true)"
    rf"|{_RULE}\s+(?:is|are|has\s+been|have\s+been)\s+(?:now\s+)?(?:lifted|off|gone|"
    r"cancel+ed|dropped|removed|void|over)"
    r"|(?:ignore|disregard|drop|lift|scrap|cancel|forget(?:\s+about)?|never\s*mind(?:\s+about)?"
    r"|scratch)\s+(?:what\s+i\s+said\s+(?:about|earlier|before)|(?:the|that|my|this|those|"
    rf"these)\s+(?:[\w'’-]+\s+){{0,4}}?{_RULE}\b))",
    re.I,
)
_ZH_LIFT = re.compile(
    r"不再适用|不适用了|(?:规定|限制|要求|规矩|条件)(?:已经|现在)?(?:取消|作废|不算|解除|不用管)"
    r"|取消(?:了)?(?:之前|刚才|那条|这条|那个|这个)?(?:的)?(?:规定|限制|要求)"
    r"|(?:忘了|忽略|别管|不用管)(?:我)?(?:之前|刚才)说的|不算数了"
)


def _clauses(text: str) -> list[str]:
    return [c.strip() for c in _CLAUSE.split(text) if c and c.strip()]


def _is_question(clause: str) -> bool:
    stripped = clause.rstrip()
    return stripped.endswith(("?", "？")) or (
        not has_cjk(clause) and _EN_QUESTION.match(stripped) is not None
    )


def standing_kind(role: str, content: str) -> Standing | None:
    """The kind of standing statement a message is, or None (not the user's, or none). Runs
    of whitespace are read folded, as the extractor reads them (:func:`fold_space_runs`)."""
    if role != "user":
        return None
    content = simplified(fold_space_runs(content))  # 我們決定 read as 我们决定
    # Whole message first (rules span clauses: "I'm allergic to nuts and shellfish"), then
    # each clause that is not a question.
    whole = [] if _is_question(content) else [content]
    # each clause once: "sorry, " 14,000 times read 14,000 clauses against every rule (>5 s)
    texts = list(dict.fromkeys([*whole, *(c for c in _clauses(content) if not _is_question(c))]))
    if take_back(content)[1] or any(
        (_ZH_LIFT if has_cjk(t) else _EN_LIFT).search(t) for t in texts
    ):
        return "lift"
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
    return not informative(simplified(fold_space_runs(content)))
