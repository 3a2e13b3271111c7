"""Time phrases no rule can place on a calendar ("a while back", "a few days ago", "the other
day", "over the holidays", 前几天, 前阵子, 几年前): a unit that tells of them and got no
resolved date is not dated at the time it was said as if that were when it happened (tester
B27); its time anchor is marked unknown (``metadata.time_anchor``, read by ``/context``)."""

from __future__ import annotations

import re

_EN_VAGUE = re.compile(
    r"\b(?:(?:a\s+(?:while|bit|long\s+time|long\s+while)|some\s+time|long|ages|years|months|"
    r"weeks|days|(?:a\s+few|several|some|many|a\s+couple(?:\s+of)?|a\s+number\s+of)\s+"
    r"(?:days|weeks|months|years))\s+(?:ago|back|earlier)"
    r"|the\s+other\s+(?:day|week|night|month)"
    r"|over\s+the\s+(?:holidays|summer|winter|break)"
    r"|(?:last|this\s+past)\s+(?:christmas|easter|thanksgiving|halloween|summer|winter|spring|"
    r"fall|autumn|semester)"
    r"|back\s+in\s+(?:the\s+day|college|school|high\s+school|university)"
    r"|when\s+i\s+was\s+(?:a\s+(?:kid|child|teenager|student)|young|little|younger))\b",
    re.IGNORECASE,
)
_ZH_VAGUE = re.compile(
    r"前几天|前些天|前些日子|前阵子|前段时间|前一阵子?|那阵子|"
    r"几(?:天|周|个星期|个月|年)(?:前|以前|之前)|很久(?:以前|之前)|好久(?:以前|之前)|"
    r"小时候|上学的时候|读书的时候|大学的时候"
)


def vague_time(text: str) -> str | None:
    """The first time phrase of ``text`` that names no date a rule can resolve, else None."""
    m = _EN_VAGUE.search(text) or _ZH_VAGUE.search(text)
    return m.group(0) if m else None
