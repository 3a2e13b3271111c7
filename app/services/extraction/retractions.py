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
- **"I meant X, not Y"** in the message after (tester E15: "I'm allergic to cats." / "Wait, I
  meant dogs, not cats."; 我说的是狗，不是猫) rewrites the speaker's previous message, Y for X,
  and makes no unit of its own (:func:`meant_instead`);
- **a bare negative answer** to "Do you have any X?" ("No.", "None.", "No allergies.", 没有)
  is the statement "I don't have any X." / 我没有X。 (:func:`negative_answer`): a negative
  standing fact ("The user has no allergies.") that a food agent needs.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

import rjieba

from app.core.text import has_cjk
from app.services.extraction.dates import find_dates
from app.services.extraction.parts import parts
from app.services.extraction.scripts import Scripts
from app.services.extraction.units import Turn

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
# Linear in the text: a match starts only where a run of its leading whitespace and dashes
# starts (the leftmost match always does), and no "\s*" stands before a "\s+" — "tea", 1,994
# spaces and "end" took seconds to search (scripts/fuzz_cpu.py).
_EN_CORRECTION = re.compile(
    r"(?<!\s)(?!(?<=[,;–—-])[,;–—-])(?:\s*[,;–—-]+\s*|\s*\.\s+|\s+)(?:(no\s+wait|wait,?\s+no|"
    r"correction|scratch\s+that|i\s+meant|(?:actually,?\s+)?no,?\s+(?:sorry|wait)|actually,?\s+no)"
    r"|(?:oh\s+)?(?:sorry|oops)|i\s+mean)"
    r"(?:\s*[,:])?\s+(?:(i\s+mean|i\s+meant)\b,?\s*)?(?=\S)",
    re.IGNORECASE,
)
_ZH_CORRECTION = re.compile(
    r"(?<![。，,、\s])[。，,、\s]*(?:(?:不对|(?:我)?说错了|我是说|哦不|啊不)[，,、\s]*)+(应该是|是)?"
)
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


def _zh_heads(fix: str) -> list[str]:
    """The fix's first word, then its first character: where it may restate the old words."""
    words = [w for w in rjieba.cut(fix) if w.strip()]
    return [w for w in dict.fromkeys(words[:1] + [fix[:1]]) if w and w not in "我你他她它的了是"]


# "I'm not allergic to shellfish at all, only to shrimp." (tester hbreak5 F1: the shrimp
# allergy was lost): two statements, the denial and the allergy.
_EN_NOT_BUT = re.compile(
    r"\b(I\s*(?:'m|\s+am))\s+not\s+(allergic|intolerant|sensitive)\s+to\s+([^,.;!?]+?)"
    r"(?:\s+at\s+all)?\s*,?\s+(?:only|just|but(?:\s+only)?|rather)\s+(?:to\s+)?([^,.;!?]+)",
    re.IGNORECASE,
)
_ZH_NOT_BUT = re.compile(
    r"我(?:并)?不是对([^，,。！？]{1,12})过敏[，,]\s*(?:我)?(?:只|而是|是|只是)对([^，,。！？]{1,12})过敏"
)


def _not_but(text: str) -> str:
    text = _EN_NOT_BUT.sub(lambda m: f"{m[1]} not {m[2]} to {m[3]}. {m[1]} {m[2]} to {m[4]}", text)
    return _ZH_NOT_BUT.sub(lambda m: f"我对{m[1]}不过敏。我对{m[2]}过敏", text)


def corrected(text: str) -> str:
    """``text`` with each "X — sorry, Y" correction applied (module docstring), one at a
    time from the first until one does not apply; "not allergic to X, only to Y" as two
    statements. A message longer than ``CORRECTION_PART_CHARS`` is corrected part by part
    (sentences, :func:`~app.services.extraction.parts.parts`): a correction reads the text
    before it, and 100,000 characters read whole took minutes."""
    return "".join(_corrected(part) for part in parts(text, CORRECTION_PART_CHARS, _OPENS))


# A correction reaches back this far at most (a message within it is read whole).
CORRECTION_PART_CHARS = 2000
# A sentence that may open with a correction of the one before ("… Boston. Sorry, Cambridge."):
# kept in the same part (a superset of the cues of the correction patterns).
_OPENS = re.compile(
    r"\W{0,4}(?:no|wait|correction|scratch|i\s+mean|actually|oh|sorry|oops|不对|我?说错|我是说|哦不|啊不)",
    re.IGNORECASE,
)


def _corrected(text: str) -> str:
    for _ in range(2 * len(text) + 2):  # each step takes out its cue (a bound, no hang)
        text = _not_but(text)
        step = _correction(text)
        if step is None:
            break
        text = step
    return text


def _correction(text: str) -> str | None:
    """``text`` with its first correction applied (:func:`corrected`); None when the first
    does not apply. (A loop, not recursion: a message of 5,000 corrections is valid.)"""
    zh = has_cjk(text)
    m = (_ZH_CORRECTION if zh else _EN_CORRECTION).search(text)
    if m is None or m.start() == 0:
        return None
    old, new = text[: m.start()], text[m.end() :]
    end = re.search(r"[.!?。！？]|$", new)
    assert end is not None
    fix, after = new[: end.start()].strip(), new[end.start() :]
    if not fix or not re.search(r"\w", fix) or re.search(r"[.!?。！？]", old[-1:]):
        return None
    # the text before is read for dates only when the fix is one (a date replaces a date)
    old_dates = find_dates(old, _FIXED_NOW) if find_dates(fix, _FIXED_NOW) else []
    if old_dates:
        last = old_dates[-1]
        return old[: last.start] + fix + old[last.end :] + after
    if zh:
        old = old.rstrip("。")
        words = list(rjieba.cut(old))
        # "我对猫过敏。不对，是对狗过敏": the fix restates from a word of the old ("对…")
        start = next((old.rfind(w) for w in _zh_heads(fix) if old.rfind(w) > 0), -1)
        if start > 0 and len(fix) <= 20:
            return old[:start] + fix + after
        if m.group(1) is None or len(fix) > 10 or len(words) < 2:
            return None
        return "".join(words[:-1]) + fix + after
    strong = m.group(1) or m.group(2)
    if strong and _EN_CLAUSE_START.match(fix):  # "…, I mean I live in Cambridge"
        return fix[:1].upper() + fix[1:] + after
    if not strong and not _EN_WEAK_FIX.match(fix):
        return None
    words, count = old.split(), len(fix.split())
    if count >= len(words):
        return None
    return " ".join(words[:-count] + [fix]) + after


_EN_ANY = re.compile(r"(?:\b(?:do|have)\s+you\s+(?:got\s+|have\s+)?|^\W*)any\s+([a-z][a-z ]{1,40}?)"
                     r"\s*(?:\?|$)", re.IGNORECASE)  # fmt: skip
# "No.", "No allergies.", "Nope, none." (tester H20: it was a bare unit), "No, none at all."
_EN_NONE = re.compile(r"^\W*(?:(?:no|nope|none|nah|not\s+really|not\s+one|zero)\b[\s,!.]*)+"
                      r"(?:at\s+all\b)?(?:\s*(?<!\w)(\w+(?:\s+\w+)?))?\W*$",
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


# … and "Actually April, not May" (tester G1: the correction made no unit and the May trip
# stayed), 其实是四月，不是五月, 不对，是四月，不是五月.
_EN_MEANT = re.compile(
    r"^\W*(?:(?:wait|sorry|oops|oh|no|actually|hmm)\b[\s,!.:;–—-]*)*(?:i\s+meant\s+|"
    r"(?<=actually)[\s,!.:;–—-]*(?:it(?:['’]s|\s+is|\s+was)\s+)?)(?P<new>[^,.;!?]{1,40}?)"
    r"\s*,?\s+(?:and\s+)?not\s+(?P<old>[^,.;!?]{1,40}?)[\s.!]*$",
    re.IGNORECASE,
)
_ZH_MEANT = re.compile(
    r"^\W*(?:(?:等等|等一下|不对|抱歉|哦)[，,\s]*)*(?:(?:我)?(?:是)?(?:说的|想说的|指的)是|"
    r"(?:其实|实际上|不对)[，,\s]*是?)(?P<new>[^，。！？,!?]{1,12}?)"
    r"[，,]\s*(?:而)?不是(?P<old>[^，。！？,!?]{1,12}?)[。！!]*$"
)

_BARE = re.compile(r"\bmeant\b|说的|想说|指的")
_CLAUSE = re.compile(r"(?:\S+\s+){3}|(?:i|we|my|our|you|he|she|they)\b|我|用户", re.IGNORECASE)


def meant_instead(turns: list[Turn]) -> list[Turn]:
    """``turns`` with each "I meant X, not Y" / 我说的是X，不是Y applied to the same speaker's
    previous message that holds Y (Y replaced by X), the correcting message taken out; a
    correction that finds no Y is left as said. Traditional characters are read as
    simplified (:mod:`app.services.extraction.scripts`), the turns kept in their own."""
    scripts = Scripts(turns)
    out: list[Turn] = []
    for turn in scripts.read(turns):
        m = (_ZH_MEANT if has_cjk(turn.content) else _EN_MEANT).match(turn.content.strip())
        if m is not None and _BARE.search(turn.content) is None and _CLAUSE.match(m["new"]):
            m = None  # "Actually I love cats, not dogs": a statement, no word to swap
        if turn.role == "user" and m is not None:
            mine = [i for i, t in enumerate(out) if t.role == "user" and t.name == turn.name]
            fixed = (
                _swap(out[mine[-1]].content, m["old"].strip(), m["new"].strip()) if mine else None
            )
            if fixed is not None and out[mine[-1]].index < 0 <= turn.index:
                out.append(replace(turn, content=fixed))  # the message it corrects was an
                continue  # earlier job's (context only): the correction restates it (G1)
            if fixed is not None:
                out[mine[-1]] = replace(out[mine[-1]], content=fixed)
                continue
        out.append(turn)
    return [scripts.turn(t) for t in out]


def _swap(text: str, old: str, new: str) -> str | None:
    """``text`` with its last ``old`` (a whole word in English) replaced by ``new``; None
    when ``text`` does not hold ``old``."""
    if has_cjk(old):
        at = text.rfind(old)
        return None if at < 0 else text[:at] + new + text[at + len(old) :]
    found = list(re.finditer(rf"\b{re.escape(old)}\b", text, re.IGNORECASE))
    if not found:
        return None
    last = found[-1]
    return text[: last.start()] + new + text[last.end() :]
