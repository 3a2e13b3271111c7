""" "None but X" said as its exception (tester hbreak6 G35): "I don't have any allergies except
penicillin." became "The user has no allergies." — and superseded the stored penicillin
allergy; 我除了青霉素以外没有别的过敏 became a meaningless constraint. The exception is the fact:
the sentence is read as "I'm allergic to penicillin." / 我对青霉素过敏; "I eat everything except
pork." / 我什么都吃，就是不吃香菜 as "I don't eat pork." / 我不吃香菜 (a constraint, not a 30-day
event). Offline extractor, before the message is read."""

from __future__ import annotations

import re
from functools import partial

_BUT = r"\s*,?\s*(?:except(?:\s+for)?|apart\s+from|other\s+than|besides|but(?:\s+for)?)\s+"
_THING = r"(?:to\s+)?([^.!?;:,]+?)\s*(?=[.!?;:]|,\s*(?:and|but)\b|$)"
_EN = (
    (re.compile(
        r"\b(?:I\s+(?:don['’]t|do\s+not)\s+have\s+any|I\s+have\s+no|I\s+got\s+no|no)\s+(?:other\s+)?"
        r"(?:known\s+)?(?:food\s+|drug\s+|medication\s+)?allerg(?:y|ies)" + _BUT + _THING,
        re.IGNORECASE), "I'm allergic to {}"),
    (re.compile(
        r"\bI['’]?m\s+not\s+allergic\s+to\s+anything" + _BUT + _THING, re.IGNORECASE),
     "I'm allergic to {}"),
    (re.compile(
        r"\bI\s+(eat|drink)\s+(?:everything|anything)" + _BUT + _THING, re.IGNORECASE),
     "I don't {} {}"),
)  # fmt: skip
_ZH_ALLERGY = re.compile(
    r"(我)?除了(?:对)?([^，,。！？!?、]{1,12}?)(?:以外|之外)?[，,]?\s*(?:我)?(?:没有|没)(?:别的|其他的?|其它的?)?"
    r"(?:过敏|过敏的东西|过敏源)"
)
_ZH_EAT = re.compile(
    r"(我)?(?:什么都|啥都|都)吃[，,]?\s*(?:就是|但是|但|只是|只)?不吃([^，,。！？!?]{1,12})"
)


def rewritten(text: str) -> str:
    """``text`` with "no X except Y" read as its exception (see the module docstring)."""
    for pattern, form in _EN:
        text = pattern.sub(partial(_en, form=form), text)
    text = _ZH_ALLERGY.sub(lambda m: f"{m.group(1) or '我'}对{m.group(2)}过敏", text)
    return _ZH_EAT.sub(lambda m: f"{m.group(1) or '我'}不吃{m.group(2)}", text)


def _en(m: re.Match[str], *, form: str) -> str:
    groups = [g for g in m.groups() if g is not None]
    out = form.format(*groups)
    return out[:1].upper() + out[1:] if m.start() == 0 else out
