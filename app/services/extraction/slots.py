"""What the speaker pays or earns — rent, salary, mortgage; 房租, 月薪, 工资 — is one value of
one slot, a fact whatever the tense: "My rent went up to $2,100." / 房租涨到一万四了 says the rent
*is* $2,100 now (it was a 30-day event, or a constraint for its "up to $", beside the stored
"The user's rent is $1,800 a month." it only flagged, tester of the four-session life).

A Chinese clause that opens with such a slot and no owner (我搬到深圳了，房租一个月一万二;
我在腾讯上班，月薪两万五) is the speaker's: it is read as 我的房租…, so that it is a statement
about the speaker of its own once the clause before it is held by a typed unit
(:mod:`app.services.extraction.held`).

A change of the amount is written as the amount it now is (:func:`rewritten`), in the words
the stored value has, so that the pair decision reads another value of the same slot
(``values_changed``) and supersedes it: "My rent went up to $2,100 a month." → "My rent is now
$2,100 a month."; 房租涨到一个月一万四了 → 我的房租现在一个月一万四; a 了 after the amount goes
(我现在月薪三万了 → 我现在月薪三万)."""

from __future__ import annotations

import re

from app.core.text import has_cjk

_ZH_SLOTS = r"房租|租金|月薪|年薪|工资|薪水|底薪|月收入|年收入|收入|房贷"
_EN_AMOUNT = re.compile(
    r"^\W*(?:and\s+|also\s+|so\s+)?my\s+(?:monthly\s+|annual\s+|yearly\s+|new\s+|base\s+)?"
    r"(?:rent|salary|pay|paycheck|income|mortgage(?:\s+payment)?|wage|hourly\s+rate)\b"
    r"(?=[^.!?]*(?:[$€£¥]\s?\d|\d[\d,.]*\s*(?:k|grand|dollars|euros|pounds|yuan|an\s+hour)\b))",
    re.IGNORECASE,
)
_ZH_AMOUNT = re.compile(rf"(?:我的?|^)(?:现在|目前)?(?:的)?(?:{_ZH_SLOTS})")
_ZH_OWN_SLOT = re.compile(
    rf"(?:^|(?<=[，,。！？；;!?\s]))(?=(现在|目前)?(?:{_ZH_SLOTS})(?!的|[，。！？]))"
)


_EN_SLOT_WORDS = r"rent|salary|pay|paycheck|income|mortgage(?:\s+payment)?|wage|hourly\s+rate"
_EN_CHANGE = re.compile(
    rf"\b(my\s+(?:monthly\s+|annual\s+|yearly\s+|base\s+)?(?:{_EN_SLOT_WORDS}))\s+"
    r"(?:has\s+|just\s+|finally\s+)*(?:(?:went|gone|goes)\s+(?:up|down)|rose|risen|increased|"
    r"decreased|dropped|fell|fallen|jumped|climbed|was\s+(?:raised|cut|lowered|increased))\s+to\b",
    re.IGNORECASE,
)
_ZH_CHANGE = re.compile(rf"((?:{_ZH_SLOTS}))(?:又|也)?(?:涨|降|加|减|提|调|升)(?:了)?(?:到|至)")
_ZH_AMOUNT_LE = re.compile(
    rf"((?:{_ZH_SLOTS})[^，。！？,]{{0,10}}?[\d一二三四五六七八九十百千万两])了(?=[。！!，,]|$)"
)


# What the speaker earns, said with a verb (tester K20: "I make $80,000 a year" was an event):
# the salary ("a year", "a month") or the pay ("an hour", "a week") it is.
_EN_AMOUNT_PER = r"(?:[$€£¥]\s?\d[\d,.]*\s*k?|\d[\d,.]*\s*(?:k|grand|dollars|euros|pounds|yuan))"
_EN_EARN = re.compile(
    r"\bI\s*(?:'m|\s+am)?\s+(?:now\s+|currently\s+)?(?:make|makes|making|earn|earning|get\s+paid|"
    rf"take\s+home)\s+(?:about\s+|around\s+|roughly\s+)?({_EN_AMOUNT_PER})\s+(?:a|an|per)\s+"
    r"(year|month|hour|week)\b",
    re.IGNORECASE,
)
# A pay or rent told after a comma or "and" ("I got a raise, my salary is now $90,000."): a
# sentence of its own, so that the event keeps the raise and the fact the amount.
_EN_SLOT_CLAUSE = re.compile(
    r"(?<=\w)\s*(?:[,;]\s*(?:and\s+|so\s+)?|\s+and\s+(?:so\s+)?)(?=my\s+(?:monthly\s+|annual\s+|"
    rf"yearly\s+|new\s+|base\s+)?(?:{_EN_SLOT_WORDS})\s+(?:is|went|has|was|rose|jumped)\b"
    rf"[^.!?]*{_EN_AMOUNT_PER})",
    re.IGNORECASE,
)

# A raise told with the amount it gave: the amount, now (one unit; "用户涨工资了。" beside it
# was asked about as a possible duplicate of the new salary).
_ZH_RAISE = re.compile(
    rf"我?(?:涨工资|加薪|涨薪|涨了工资|加了薪)了[，,]\s*(?:我的?)?(?:现在|目前)?的?({_ZH_SLOTS})"
    r"(?:是|涨到了?|变成了?)?(?=[^，。！？]{0,4}?[\d一二三四五六七八九十两])"
)
_ZH_SLOT_CLAUSE = re.compile(
    rf"[，,](?=我的?(?:现在|目前)?的?(?:{_ZH_SLOTS})[^，。！？]{{0,12}}?[\d一二三四五六七八九十百千万两])"
)


def _earned(m: re.Match[str]) -> str:
    per = m.group(2).lower()
    what = "salary" if per in ("year", "month") else "pay"
    return f"my {what} is {m.group(1).strip()} {'an' if per == 'hour' else 'a'} {per}"


def rewritten(text: str) -> str:
    """``text`` with a change of rent or pay written as the amount it now is, what the speaker
    earns as their salary or pay, and such an amount told after a comma as a sentence of its
    own (module docstring); as it is when it says no such thing."""
    if has_cjk(text):
        text = _ZH_RAISE.sub(r"我的\1现在", text)  # 我涨工资了，现在月薪两万五 (K20)
        text = _ZH_AMOUNT_LE.sub(r"\1", _ZH_CHANGE.sub(r"\1现在", owned_slots(text)))
        return _ZH_SLOT_CLAUSE.sub("。", text)  # 我涨工资了，现在月薪两万五 (K20)
    text = _EN_EARN.sub(_earned, text)
    text = re.sub(r"(^|[.!?]\s+)my\b", r"\1My", text)  # "My salary is …" opens its sentence
    return _EN_SLOT_CLAUSE.sub(". ", _EN_CHANGE.sub(r"\1 is now", text))


def states_amount(text: str, *, zh: bool) -> bool:
    """``text`` says what the speaker's rent, salary or mortgage is (or went up or down to)."""
    return (_ZH_AMOUNT if zh else _EN_AMOUNT).search(text.strip()) is not None


def owned_slots(text: str) -> str:
    """``text`` with 我的 before a pay or rent that opens a Chinese clause with no owner."""
    if not has_cjk(text):
        return text
    return _ZH_OWN_SLOT.sub(lambda m: "我" if m.group(1) else "我的", text)  # 现在月薪 → 我现在月薪
