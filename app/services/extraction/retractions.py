"""What a speaker takes back or corrects, read before extraction (tester B10), English and
Chinese:

- **a retraction** ("Just kidding!", "jk", "I was joking", 开玩笑的, 逗你的) takes back the
  sentence before it: "I'm allergic to peanuts. Just kidding!" makes no allergy; opening a
  message ("Just kidding, I'm still at Acme."), it takes back the speaker's previous message
  (:func:`take_back`);
- **a correction** ("my birthday is March 3 — sorry, March 13", "I live in Boston, I mean
  Cambridge", 我的生日是3月3日，不对，是3月13日) keeps the corrected words only: the new date
  replaces the last date before it, else the new words replace as many words (Chinese: the
  last word) before it, else a whole new clause replaces the old one (:func:`corrected`);
- **a bare negative answer** to "Do you have any X?" ("No.", "None.", "No allergies.", 没有)
  is the statement "I don't have any X." / 我没有X。 (:func:`negative_answer`): a negative
  standing fact ("The user has no allergies.") that a food agent needs.
"""

from __future__ import annotations

import re
from datetime import datetime

import rjieba

from app.core.text import has_cjk
from app.services.extraction.dates import find_dates

_EN_RETRACT = re.compile(
    r"^\W*(?:(?:haha|lol|ha)\W+)?(?:(?:just|only)\s+(?:kidding|joking|messing\s+with\s+you)|"
    r"j/?k|kidding|i(?:'m|\s+am|\s+was)\s+(?:just\s+)?(?:kidding|joking))\b[\s!.,:;…-]*",
    re.IGNORECASE,
)
_ZH_RETRACT = re.compile(
    r"^\W*(?:(?:哈哈+|嘿嘿)\W*)?(?:我?(?:是)?(?:在)?(?:开玩笑的?|开个玩笑|逗你的?|骗你的|说着玩的?))[\s！!。，,～~…]*"
)
_EN_SENTENCE = re.compile(r"(?<=[.!?…])\s+")
_ZH_SENTENCE = re.compile(r"(?<=[。！？!?～~…，,])")

# "X — sorry, I mean Y", "X — no wait, Y", "X, correction: Y": Y corrects X; "X — sorry, Y" and
# "X, I mean Y" only when Y is a date, a number or a name ("It was great, I mean really great",
# "I was late, sorry, the traffic…" correct nothing).
_EN_CORRECTION = re.compile(
    r"\s*(?:[,;–—-]+\s*|\.\s+|\s+)(?:(no\s+wait|wait,?\s+no|correction|scratch\s+that|"
    r"i\s+meant)|(?:oh\s+)?(?:sorry|oops)|i\s+mean)\s*[,:]?\s+(?:(i\s+mean|i\s+meant)\b,?\s*)?(?=\S)",
    re.IGNORECASE,
)
_ZH_CORRECTION = re.compile(r"[，,、\s]*(?:不对|说错了|我是说|哦不|啊不)[，,、\s]*(应该是|是)?")
_EN_WEAK_FIX = re.compile(r"^(?:\d[\w:.]*|[A-Z][\w'’-]*)(?:\s+[\w:.'’-]+){0,2}$")
_EN_CLAUSE_START = re.compile(r"^(?:i|i'm|i've|my|we|our)\b", re.IGNORECASE)
_FIXED_NOW = datetime(2000, 1, 1)  # spans only: any clock finds the same phrases


def take_back(text: str) -> tuple[str, bool]:
    """``text`` without its retractions and the sentences they take back, and whether the
    message opens with one (then it takes back the speaker's previous message)."""
    zh = has_cjk(text)
    pattern = _ZH_RETRACT if zh else _EN_RETRACT
    parts = [p for p in (_ZH_SENTENCE if zh else _EN_SENTENCE).split(text) if p.strip()]
    kept: list[str] = []
    opens = False
    for part in parts:
        m = pattern.match(part)
        if m is None:
            kept.append(part)
            continue
        if kept:
            kept.pop()  # the sentence it takes back
        else:
            opens = True
        rest = part[m.end() :].strip()
        if rest:
            kept.append(rest[:1].upper() + rest[1:] if not zh else rest)
    if len(kept) == len(parts) and not opens:
        return text, False
    joined = ("" if zh else " ").join(p.strip() for p in kept).strip()
    return joined.rstrip("，,") if zh else joined, opens


def corrected(text: str) -> str:
    """``text`` with each "X — sorry, Y" correction applied (module docstring)."""
    zh = has_cjk(text)
    m = (_ZH_CORRECTION if zh else _EN_CORRECTION).search(text)
    if m is None or m.start() == 0:
        return text
    old, new = text[: m.start()], text[m.end() :]
    end = re.search(r"[.!?。！？]|$", new)
    assert end is not None
    fix, after = new[: end.start()].strip(), new[end.start() :]
    if not fix or not re.search(r"\w", fix) or re.search(r"[.!?。！？]", old[-1:]):
        return text
    new_dates, old_dates = find_dates(fix, _FIXED_NOW), find_dates(old, _FIXED_NOW)
    if new_dates and old_dates:
        last = old_dates[-1]
        return corrected(old[: last.start] + fix + old[last.end :] + after)
    if zh:
        words = list(rjieba.cut(old))
        if m.group(1) is None or len(fix) > 10 or len(words) < 2:
            return text
        return corrected("".join(words[:-1]) + fix + after)
    strong = m.group(1) or m.group(2)
    if strong and _EN_CLAUSE_START.match(fix):  # "…, I mean I live in Cambridge"
        return corrected(fix[:1].upper() + fix[1:] + after)
    if not strong and not _EN_WEAK_FIX.match(fix):
        return text
    words, count = old.split(), len(fix.split())
    if count >= len(words):
        return text
    return corrected(" ".join(words[:-count] + [fix]) + after)


_EN_ANY = re.compile(r"(?:\b(?:do|have)\s+you\s+(?:got\s+|have\s+)?|^\W*)any\s+([a-z][a-z ]{1,40}?)"
                     r"\s*(?:\?|$)", re.IGNORECASE)  # fmt: skip
_EN_NONE = re.compile(r"^\W*(?:no|nope|none|nah|not\s+really)(?:\s+(\w+(?:\s+\w+)?))?\W*$",
                      re.IGNORECASE)  # fmt: skip
_ZH_ANY = re.compile(r"(?:有没有|有)(?:什么|任何)?([^？?，,。吗嘛]{1,10}?)(?:吗|嘛)?[？?]?$")
_ZH_NONE = re.compile(r"^\W*(?:没有|没|无)(?:任何)?([^，。！？,.!?]{0,10}?)[。！!.]*$")


def negative_answer(text: str, question: str) -> str | None:
    """A bare "No." / "None." / "No allergies." / 没有。 after "Do you have any X?" / 你有什么X吗？
    as "I don't have any X." / 我没有X。; None for anything else."""
    if has_cjk(question):
        asked, said = _ZH_ANY.search(question), _ZH_NONE.match(text.strip())
        if asked is None or said is None:
            return None
        thing = said.group(1) or asked.group(1)
        return f"我没有{thing}。" if thing and thing not in ("了", "的") else None
    asked, said = _EN_ANY.search(question), _EN_NONE.match(text.strip())
    if asked is None or said is None:
        return None
    thing = said.group(1) if said.group(1) and said.group(1).lower() != "thanks" else asked.group(1)
    return f"I don't have any {thing.strip()}."
