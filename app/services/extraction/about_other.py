"""What a speaker says about the person they address (tester B6): in a group chat, "You told
me you moved to Boston in May" or "Congrats on the new job at Acme!" said by Maria to Jon
is about Jon, and was dropped ("Congrats…" read as cheering) or written as Maria's own news.
Such a sentence becomes a unit about the person addressed, with a lower confidence: it is
only the other speaker's word. English and Chinese.

- :func:`reported`: "You told me (that) …", "You said …", 你说过…, 你告诉我… → what they told;
- :func:`about_addressee`: a statement whose subject is "you" / 你 and that says nothing of
  the speaker ("You moved to Boston in May!");
- :func:`congratulated`: "Congrats on X" / "Congratulations on X" / 恭喜你X / 祝贺你X → X;
- :func:`confirmed`: "Yes." to "You moved to Boston in May, right?" (你五月搬到了波士顿，对吧？)
  is the answerer's own "I moved to Boston in May." (我五月搬到了波士顿。).
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


_EN_YES = re.compile(
    r"^\W*(?:yes|yeah|yep|yup|right|correct|exactly|indeed|that's\s+right|that's\s+correct|"
    r"sure|true)\W*$",
    re.IGNORECASE,
)
_ZH_YES = re.compile(r"^\W*(?:是的|是啊|是|对|对的|对啊|没错|嗯|嗯嗯|确实)\W*$")
_EN_TAG = re.compile(
    r"\s*,?\s*(?:right|correct|is\s+that\s+right|isn't\s+it|didn't\s+you|don't\s+you|"
    r"aren't\s+you|weren't\s+you|haven't\s+you|no)\s*\?\s*$",
    re.IGNORECASE,
)
_ZH_TAG = re.compile(r"[，,]?\s*(?:对吧|是吧|对吗|是吗|对不对|是不是|没错吧)[？?]?\s*$")
_EN_YOU_AS_I = (
    (r"\byou're\b|\byou\s+are\b", "I am"),
    (r"\byou\s+were\b", "I was"),
    (r"\byou've\b", "I've"),
    (r"\byou'll\b", "I'll"),
    (r"\byour\b", "my"),
    (r"\byourself\b", "myself"),
    (r"\byou\b", "I"),
)


def confirmed(answer: str, question: str) -> str | None:
    """The statement a bare "Yes." / 对 confirms: a question that states something about the
    one who answers, with a tag ("…, right?", 对吧？), in their own first person; else None."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", question))
    if not (_ZH_YES if zh else _EN_YES).match(answer.strip()):
        return None
    tag = (_ZH_TAG if zh else _EN_TAG).search(question)
    if tag is None:
        return None
    statement, _ = reported(question[: tag.start()].strip(), zh)
    if not about_addressee(statement, zh):
        return None
    if zh:
        return statement.replace("您", "我").replace("你", "我").rstrip("，,") + "。"
    for pattern, mine in _EN_YOU_AS_I:
        statement = re.sub(pattern, mine, statement, flags=re.IGNORECASE)
    return statement[:1].upper() + statement[1:] + "."
