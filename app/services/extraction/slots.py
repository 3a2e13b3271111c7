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
_ZH_OWN_SLOT = re.compile(rf"(?:^|(?<=[，,。！？；;!?\s]))(?=(?:{_ZH_SLOTS})(?!的|[，。！？]))")


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


def rewritten(text: str) -> str:
    """``text`` with a change of rent or pay written as the amount it now is (module
    docstring); as it is when it says no such change."""
    if has_cjk(text):
        return _ZH_AMOUNT_LE.sub(r"\1", _ZH_CHANGE.sub(r"\1现在", owned_slots(text)))
    return _EN_CHANGE.sub(r"\1 is now", text)


def states_amount(text: str, *, zh: bool) -> bool:
    """``text`` says what the speaker's rent, salary or mortgage is (or went up or down to)."""
    return (_ZH_AMOUNT if zh else _EN_AMOUNT).search(text.strip()) is not None


def owned_slots(text: str) -> str:
    """``text`` with 我的 before a pay or rent that opens a Chinese clause with no owner."""
    return _ZH_OWN_SLOT.sub("我的", text) if has_cjk(text) else text
