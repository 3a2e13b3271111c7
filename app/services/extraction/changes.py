"""A change of state said without "no longer" (tester D26): "I sold my car", "We broke up",
"Just one cat now", "We got divorced" (tester F3), 我把车卖了, 我们分手了, 我们离婚了,
现在只有一只猫了 — the event says what happened, and this module writes the state it leaves
as a fact of its own, in words the pair decision can set against the old state
(docs/DEDUPE.md): "The user no longer owns a car." (a negation of "The user owns a car."),
"The user is no longer in a relationship." (flagged against "The user is dating Sam.",
:mod:`app.services.memory.pairs.rules`), "The user is now divorced." (ends "The user is
married to Tom.", :mod:`app.services.memory.pairs.endings`), "The user has just one cat now."
(another value of "The user has two cats."); a partner from now on, "The user is dating
Alex." (another value of "The user's boyfriend is named Tom.", tester K4). A job changed is
:func:`app.services.extraction.new_jobs.employer`'s. English and Chinese; pure."""

from __future__ import annotations

import re

from app.core.text import has_cjk

_THINGS_EN = r"car|bike|motorbike|motorcycle|scooter|house|flat|apartment|condo|boat|truck|van"
_EN_SOLD = re.compile(
    rf"\bI\s*(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|recently\s+)?(?:sold|gave\s+away|got\s+rid\s+of)"
    rf"\s+(?:my|our)\s+(?:old\s+)?({_THINGS_EN})\b",
    re.IGNORECASE,
)
_THINGS_ZH = r"车|汽车|摩托车|自行车|房子|房"
_ZH_SOLD = re.compile(
    rf"我(?:们)?(?:已经|刚|刚刚|最近)?(?:把(?:我的)?({_THINGS_ZH})卖了|卖(?:掉)?了(?:我的)?({_THINGS_ZH}))"
)
_EN_BROKE_UP = re.compile(
    r"^\W*(?:so\s+|well,?\s+|yeah,?\s+)?(?:we|i)\s*(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?"
    r"(?:broke\s+up|split\s+up|separated|called\s+it\s+quits)\b",
    re.IGNORECASE | re.MULTILINE,
)
_ZH_BROKE_UP = re.compile(r"(?:^|[。！？，,])\s*我(?:们)?(?:已经|刚|刚刚)?分手了")
# A marriage ended, said of "we" (tester F3: "We got divorced." made no unit at all).
_EN_DIVORCED = re.compile(
    r"^\W*(?:so\s+|well,?\s+|yeah,?\s+)?we\s*(?:'re|\s+are|'ve|\s+have)?\s+"
    r"(?:just\s+|finally\s+|now\s+|officially\s+)*(?:(getting)\s+|got\s+|been\s+)?divorced\b",
    re.IGNORECASE | re.MULTILINE,
)
_ZH_DIVORCED = re.compile(r"(?:^|[。！？，,])\s*我们(?:已经|刚|刚刚|终于)?离(?:了)?婚了")
_PETS_EN = r"dog|cat|kid|child|rabbit|parrot|hamster|fish|horse|turtle"
_EN_JUST_NOW = re.compile(
    rf"(?:^|[.!?]\s+)(?:(?:it's|it\s+is|we're\s+down\s+to|I'm\s+down\s+to|down\s+to)\s+)?"
    rf"(?:just|only)\s+(one|two|three|four|five|\d+)\s+((?:{_PETS_EN})s?|children)\s+now\b",
    re.IGNORECASE,
)
_ZH_JUST_NOW = re.compile(
    r"现在(?:只有|只剩下?|就)(一|两|二|三|四|五|\d+)(只|条|个)(猫|狗|孩子|兔子|鹦鹉)"
)

# A partner from now on (tester K4, K5: "I'm dating Alex now" and 现在在和小李交往 after a
# breakup were one 30-day event; "The user's boyfriend is named Tom." stayed current): the
# relation as a fact the pair decision reads as another value of the partner slot
# (:mod:`app.services.memory.pairs.partners`). A marriage is typed a fact of its own
# (:mod:`app.services.extraction.lasting`); "We got married!", too short for an event, is one.
_NAME = r"((?-i:[A-Z])[\w'’-]*(?:\s+(?-i:[A-Z])[\w'’-]*){0,2})"
_NOT_TITLE = r"(?!(?:Dr|Mr|Mrs|Ms|Prof|Doctor)\b)"
_EN_DATING = re.compile(
    r"\bI\s*(?:'m|\s+am)\s+(?:now\s+|currently\s+)?(?:(dating|going\s+out\s+with|in\s+a\s+"
    rf"relationship\s+with)\s+{_NOT_TITLE}{_NAME}(?=\s+(?:now|these\s+days)\b|\s*[.,;!]|\s*$)|"
    rf"(seeing)\s+{_NOT_TITLE}{_NAME}(?=\s+(?:now|these\s+days)\b))",
    re.IGNORECASE,
)
_EN_WED = re.compile(
    r"^\W*(?:so\s+|well,?\s+|yeah,?\s+)?(?:I|we)\s*(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|"
    r"officially\s+)?got\s+married\W*$",
    re.IGNORECASE,
)
_ZH_DATING = re.compile(
    r"(?:我|^|[，,])((?:现在|目前)?)(?:正)?在(?:和|跟)([^\s，。,.！？!?的了]{1,6}?)(?:交往|约会|谈恋爱)"
)

# A new partner told after a breakup in one sentence ("…broke up, and I'm dating Alex now",
# 我和男朋友小王分手了，现在在和小李交往): a sentence of its own, so that the event keeps the
# breakup and the fact the partner (one unit held both, and the two were asked about).
_EN_DATING_CLAUSE = re.compile(
    r"\s*[,;]\s*(?:and\s+|but\s+|so\s+)?(?=I\s*(?:'m|\s+am)\s+(?:now\s+)?(?:dating|seeing|going\s+out|"
    r"in\s+a\s+relationship)\b)",
    re.IGNORECASE,
)
_ZH_DATING_CLAUSE = re.compile(
    r"[，,]\s*(?:我)?(?=(?:现在|目前)?(?:正)?在(?:和|跟)[^\s，。！？的了]{1,6}?(?:交往|约会|谈恋爱))"
)


def partner_clauses(text: str) -> str:
    """``text`` with a new partner told after a comma made a sentence of its own (above)."""
    if has_cjk(text):
        return _ZH_DATING_CLAUSE.sub("。我", text)
    return _EN_DATING_CLAUSE.sub(". ", text)


def _partner(text: str, who: str, *, zh: bool) -> str | None:
    """The relation a message says the speaker is in from now on ("The user is dating Alex.",
    用户现在在和小李交往。, "The user got married."), None when it says none."""
    if zh:
        m = _ZH_DATING.search(text)
        return f"{who}{m.group(1)}在和{m.group(2)}交往。" if m else None
    subject = who[:1].upper() + who[1:]
    if (m := _EN_DATING.search(text)) is not None:
        verb = re.sub(r"\s+", " ", (m.group(1) or m.group(3)).casefold())
        return f"{subject} is {verb} {m.group(2) or m.group(4)}."
    return f"{subject} got married." if _EN_WED.search(text) else None


def state_changes(text: str, who: str, *, zh: bool) -> list[str]:
    """The states a message's changes leave, about ``who`` (module docstring); [] when it
    says no such change."""
    out: list[str] = []
    if zh:
        if (m := _ZH_SOLD.search(text)) is not None:
            thing = m.group(1) or m.group(2)
            out.append(f"{who}不再有{'车' if thing == '汽车' else thing}了。")
        if _ZH_BROKE_UP.search(text):
            out.append(f"{who}不再在谈恋爱了。")
        if _ZH_DIVORCED.search(text):
            out.append(f"{who}离婚了。")
        if (m := _ZH_JUST_NOW.search(text)) is not None:
            out.append(f"{who}现在只有{m.group(1)}{m.group(2)}{m.group(3)}。")
        return [*out, *filter(None, [_partner(text, who, zh=True)])]
    subject = who[:1].upper() + who[1:]
    if (m := _EN_SOLD.search(text)) is not None:
        out.append(f"{subject} no longer owns a {m.group(1).lower()}.")
    if _EN_BROKE_UP.search(text):
        out.append(f"{subject} is no longer in a relationship.")
    if (m := _EN_DIVORCED.search(text)) is not None:
        out.append(f"{subject} is {'getting' if m.group(1) else 'now'} divorced.")
    if (m := _EN_JUST_NOW.search(text)) is not None:
        out.append(f"{subject} has just {m.group(1).lower()} {m.group(2).lower()} now.")
    return [*out, *filter(None, [_partner(text, who, zh=False)])]
