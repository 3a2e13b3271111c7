"""What a speaker says about the person they address (tester B6): in a group chat, "You told
me you moved to Boston in May" or "Congrats on the new job at Acme!" said by Maria to Jon
is about Jon, and was dropped ("Congrats…" read as cheering) or written as Maria's own news.
Such a sentence becomes a unit about the person addressed, with a lower confidence: it is
only the other speaker's word. English and Chinese.

- :func:`reported`: "You told me (that) …", "You said …", 你说过…, 你告诉我… → what they told;
- :func:`about_addressee`: a statement whose subject is "you" / 你 and that says nothing of
  the speaker ("You moved to Boston in May!");
- :func:`congratulated`: "Congrats on X" / "Congratulations on X" / 恭喜你X / 祝贺你X → X;
- a yes or no to "You moved to Boston in May, right?" (你五月搬到了波士顿，对吧？) is the
  answerer's own statement: :mod:`app.services.extraction.tag_questions`.
"""

from __future__ import annotations

import re

# Confidence of a unit that rests on another speaker's word about the person addressed; one
# they report the person said themselves ("You told me…") a little more.
OTHERS_WORD = 0.65
REPORTED_WORD = 0.7

_EN_REPORTED = re.compile(
    r"^\W*(?:so\s+|oh\s+|wait,?\s+|hey,?\s+)?you\s+(?:told\s+me|said|mentioned|wrote|texted\s+me)"
    r"(?:\s+(?:before|earlier|last\s+time|once))?(?:\s+that)?\s*,?\s+(?=you\b|your\b)",
    re.IGNORECASE,
)
_ZH_REPORTED = re.compile(
    r"^\W*(?:你(?:之前|上次|以前)?(?:说过|说|告诉过我|告诉我|跟我说过|提到过|提过))[，,：:\s]*"
)
_EN_YOU_FIRST = re.compile(r"^\W*(?:you|your|you're|you've|you'll)\b", re.IGNORECASE)
_EN_ME = re.compile(r"\b(?:i|i'm|i've|i'll|i'd|me|my|mine|we|us|our)\b", re.IGNORECASE)
_EN_CONGRATS = re.compile(
    r"(?:^|(?<=[.!?]\s))\W*(?:big\s+|huge\s+)?(?:congrats|congratulations|kudos)\s+(?:again\s+)?"
    r"on\s+([^.!?]{3,120})",
    re.IGNORECASE,
)
_ZH_CONGRATS = re.compile(r"(?:恭喜|祝贺)(?:你|您)([^。！？!?]{2,40})")


def reported(text: str, zh: bool) -> tuple[str, bool]:
    """``text`` without a lead-in that reports what the person addressed said ("You told me
    you moved…" → "you moved…"), and whether there was one."""
    m = (_ZH_REPORTED if zh else _EN_REPORTED).match(text)
    if m is None:
        return text, False
    rest = text[m.end() :]
    return (rest if zh else rest[:1].lower() + rest[1:]), True


def about_addressee(text: str, zh: bool) -> bool:
    """``text`` states something about the person addressed and nothing about the speaker."""
    if zh:
        return text.lstrip().startswith(("你", "您")) and "我" not in text
    return _EN_YOU_FIRST.match(text) is not None and _EN_ME.search(text) is None


def congratulated(text: str, zh: bool) -> str | None:
    """What the person addressed is congratulated on ("the new job at Acme", 在阿里巴巴找到新
    工作), else None."""
    m = (_ZH_CONGRATS if zh else _EN_CONGRATS).search(text)
    if m is None:
        return None
    what = re.split(r",\s*(?:I|I'll|I'm|we|and\s+I)\b|\s+[-–—]\s+", m.group(1))[0]
    what = re.sub(r",\s*[A-Z][a-z]+\W*$", "", what).strip(" ,，")  # "…, Gina!"
    return what or None


def congrats_value(who: str, addressee: str, what: str, zh: bool) -> str:
    """The unit of a congratulation: "Jon was congratulated by Maria on the new job at Acme."
    / 小李在阿里巴巴找到新工作，小王表示祝贺。"""
    if zh:
        return f"{addressee}{what}，{who}表示祝贺。"
    what = re.sub(r"\byou're\b", f"{addressee} is", what, flags=re.IGNORECASE)
    what = re.sub(r"\byou've\b", f"{addressee} has", what, flags=re.IGNORECASE)
    what = re.sub(r"\byour\b", f"{addressee}'s", what, flags=re.IGNORECASE)
    what = re.sub(r"\byou\b", addressee, what, flags=re.IGNORECASE)
    return f"{addressee} was congratulated by {who} on {what}."
