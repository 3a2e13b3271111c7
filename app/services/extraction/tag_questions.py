"""A tag question the assistant puts about the one who answers ("So you are vegan and live in
Austin, right?", "You are still vegetarian, right?", 你是素食者，对吧？) and the bare yes or
no that answers it (tester E26, B6 for the yes), English and Chinese: with the answer, the
question's statement is the answerer's own, in their first person —

- a yes confirms it: "Yes." → "I am vegan and live in Austin." (the extractor then reads
  each part: two units);
- a no denies it: "No." → "I am not vegetarian."; a no that says the state ended ("No, not
  anymore.", "no longer"; a question with "still"; 已经不吃了, 不再) → "I am no longer
  vegetarian." / 我不再吃素。, which supersedes the stored state when written after it. A no
  to a statement of two parts ("vegan and live in Austin") denies no part in particular, and
  a past one ("you moved to Boston") is not negated here: no statement (None).

A lead-in before "you" ("So", "And", "Just to confirm") is no part of the statement. A yes
may be said several ways in a row, in either language ("Correct.", "Yep, that's right", "Yes,
that's correct.", 对的, 没错, 对，没错; tester F36: :func:`says_yes`).
"""

from __future__ import annotations

import re

from app.services.extraction.about_other import about_addressee, reported

# One or more ways of saying yes, in a row ("Yep, that's right", "Correct, yes.", tester F36).
_EN_YES_WORD = (
    r"(?:yes|yeah|yep|yup|yes\s+indeed|uh-huh|mm-hmm|right|correct|exactly|indeed|absolutely|"
    r"definitely|certainly|of\s+course|sure|true|spot\s+on|you\s+got\s+it|"
    r"(?:that['’]?s|that\s+is|it['’]?s|it\s+is|you['’]re|you\s+are)\s+(?:right|correct|true)|"
    r"(?:yes|yeah|yep|yup),?\s+i\s+(?:am|do|have|was|did|will|can))"
)
_EN_YES = re.compile(rf"^\W*{_EN_YES_WORD}(?:[\s,;.!—–-]+{_EN_YES_WORD})*\W*$", re.IGNORECASE)
_EN_NO = re.compile(
    r"^\W*(?:(?:no|nope|nah|not\s+any\s?more|no\s+longer|not\s+really|not\s+at\s+all|"
    r"i\s*['’]?m\s+not|i\s+am\s+not|i\s+(?:don['’]t|do\s+not)|i\s+quit|i\s+stopped)\b[\s,!.]*)+$",
    re.IGNORECASE,
)
_EN_ENDED = re.compile(r"\b(?:any\s?more|no\s+longer|quit|stopped|gave\s+(?:it\s+)?up)\b", re.I)
_ZH_YES_WORD = (
    r"(?:是的|是啊|是呀|是|对的|对啊|对呀|对|没错儿?|嗯嗯|嗯|确实|就是|是这样的?|正是|当然)"
)
_ZH_YES = re.compile(rf"^\W*{_ZH_YES_WORD}(?:[，,、。！!～~\s]*{_ZH_YES_WORD})*\W*$")
_ZH_NO = re.compile(
    r"^\W*(?:不是|不对|不|没有|没)(?:[，,、\s]*(?:已经|现在)?(?:不再|不|没)[\u4e00-\u9fff]{0,2}了?)?"
    r"[。！!～~\s]*$"
)
_EN_TAG = re.compile(
    r"\s*,?\s*(?:right|correct|is\s+that\s+right|isn't\s+it|didn't\s+you|don't\s+you|"
    r"aren't\s+you|weren't\s+you|haven't\s+you|no)\s*\?\s*$",
    re.IGNORECASE,
)
_ZH_TAG = re.compile(r"[，,]?\s*(?:对吧|是吧|对吗|是吗|对不对|是不是|没错吧)[？?]?\s*$")
_EN_LEAD = re.compile(
    r"^\W*(?:(?:so|and|oh|ok|okay|alright|great|got\s+it|just\s+to\s+(?:confirm|check)|"
    r"to\s+confirm|let\s+me\s+(?:confirm|check)|quick\s+check)\b[\s,:;–—-]*)+(?=you)",
    re.IGNORECASE,
)
_ZH_LEAD = re.compile(r"^(?:那|那么|所以|好的|确认一下|我确认一下)[，,\s]*(?=你|您)")
_EN_YOU_AS_I = (
    (r"\byou're\b|\byou\s+are\b", "I am"),
    (r"\byou\s+were\b", "I was"),
    (r"\byou've\b", "I've"),
    (r"\byou'll\b", "I'll"),
    (r"\byour\b", "my"),
    (r"\byourself\b", "myself"),
    (r"\byou\b", "I"),
)
_EN_STILL = re.compile(r"\s+(?:still|always)\b", re.IGNORECASE)
_ZH_STILL = re.compile(r"(?<=[我])(?:还是|还|仍然|依然|一直|仍)")


def says_yes(answer: str) -> bool:
    """Whether ``answer`` is only a yes, said one or more ways ("Correct.", "Yep, that's
    right", 对，没错), in English or Chinese."""
    said = answer.strip()
    return (_ZH_YES if re.search(r"[\u4e00-\u9fff]", said) else _EN_YES).match(said) is not None


def confirmed(answer: str, question: str) -> str | None:
    """The statement a bare yes or no makes of a tag question about the one who answers (the
    module docstring), in their first person; else None."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", question))
    said = answer.strip()
    yes = says_yes(said)  # either language: "对的" to an English question is a yes
    if not yes and (_ZH_NO if zh else _EN_NO).match(said) is None:
        return None
    tag = (_ZH_TAG if zh else _EN_TAG).search(question)
    if tag is None:
        return None
    statement = (_ZH_LEAD if zh else _EN_LEAD).sub("", question[: tag.start()].strip())
    statement, _ = reported(statement, zh)
    if not about_addressee(statement, zh):
        return None
    if zh:
        mine = statement.replace("您", "我").replace("你", "我").rstrip("，,")
        if yes:
            return _ZH_STILL.sub("", mine).removesuffix("的") + "。"
        ended = re.search(r"已经|不再|了", said) or _ZH_STILL.search(mine)
        return _zh_denied(mine, bool(ended))
    for pattern, first in _EN_YOU_AS_I:
        statement = re.sub(pattern, first, statement, flags=re.IGNORECASE)
    if yes:  # "still" adds nothing the confirmation keeps ("I am vegetarian": a constraint)
        statement = _EN_STILL.sub("", statement)
        return statement[:1].upper() + statement[1:] + "."
    ended = _EN_ENDED.search(said) or re.search(r"\bstill\b", statement, re.IGNORECASE)
    return _en_denied(statement, bool(ended))


def _en_denied(mine: str, ended: bool) -> str | None:
    """ "I am still vegetarian" denied: "I am no longer vegetarian." (``ended``) or "I am not
    vegetarian."; None for two parts or a past."""
    if re.search(r"\s(?:and|or)\s|,", mine):
        return None
    mine = _EN_STILL.sub("", mine)
    m = re.match(r"^I\s+(am|was|have|'ve|will|'ll|can)\s+(\w+)(.*)$", mine)
    if m is not None:
        aux, word, rest = m.groups()
        if aux in ("have", "'ve") and not re.search(r"(?:ed|en|wn)$", word):
            return f"I {'no longer' if ended else 'do not'} have {word}{rest}."
        aux = {"'ve": "have", "'ll": "will"}.get(aux, aux)
        return f"I {aux} {'no longer' if ended else 'not'} {word}{rest}."
    m = re.match(r"^I\s+([a-z]+)\b(.*)$", mine)
    if m is None or re.search(r"(?:ed)$", m.group(1)):
        return None  # "you moved to Boston": a past, not negated here
    verb, rest = m.groups()
    return f"I {'no longer' if ended else 'do not'} {verb}{rest}."


def _zh_denied(mine: str, ended: bool) -> str | None:
    """我还是吃素的 denied: 我不再吃素。 (``ended``) or 我不吃素。; None for two parts."""
    if re.search(r"[，,、]|和|并且", mine) or not mine.startswith("我"):
        return None
    rest = _ZH_STILL.sub("", mine)[1:].removesuffix("的").removesuffix("了")
    if rest.startswith("有"):
        return f"我{'不再' if ended else '没'}{rest}。"
    return f"我{'不再' if ended else '不'}{rest}。"
