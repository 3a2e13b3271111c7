"""A request to remember is the statement it carries (tester hbreak6 G3): "Can you remember
that I'm allergic to penicillin?", "Could you note that…?", "Please keep in mind that…",
你能记住我对花生过敏吗？ — asked as a question they made no unit; "Please remember that…" kept
the request in the value. "Can you remember my sister's name?" asks the assistant to recall
and is left as it is. Used by :func:`app.services.extraction.standalone.strip_lead_ins`."""

from __future__ import annotations

import re

from app.core.text import has_cjk

# "Can you remember that I'm allergic to penicillin?", "Could you note that…?", "Please keep
# in mind that…": a request to remember is the statement it carries, not a question (tester
# hbreak6 G3: it made no unit; "Please remember that…" stayed in the value). "Can you
# remember my sister's name?" asks the assistant to recall: no "that", no "I" after.
EN_REMEMBER = re.compile(
    r"(?:^|(?<=[.!?]\s))(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+"
    r"|may\s+i\s+ask\s+you\s+to\s+|i\s+(?:want|need|would\s+like|['’]d\s+like)\s+you\s+to\s+)"
    r"(?:remember|note|keep\s+in\s+mind|bear\s+in\s+mind|make\s+a\s+note|take\s+note)"
    r"(?:\s+(?:of\s+)?(?:the\s+fact\s+)?that\s+|\s+(?=I['’\s]))([^?.!]+)[?.!]",
    re.IGNORECASE,
)
ZH_REMEMBER = re.compile(
    r"(?<!别)(?<!不要)(?<!不用)(?<!勿)(?:你|您)?(?:能不能|能|可以|可不可以|请)?(?:帮我)?"
    r"(?:记住|记下|记一下|记着)(?:一下)?[，,]?(我[^？?。！!]*?)(?:吗|好吗|可以吗|好不好)?[？?。！!]"
)
# "你能提醒我周日给妈妈打电话吗？": a request to be reminded (standalone.strip_lead_ins).
ZH_REMIND = re.compile(
    r"(?:你|您)?(?:能不能|能|可以|可不可以)?(?:帮我)?(提醒我[^？?。]*?)(?:吗|好吗|可以吗|好不好)?[？?]"
)


def carried(text: str) -> str:
    """``text`` with each request to remember replaced by what it asks to remember."""
    if has_cjk(text):
        return ZH_REMEMBER.sub(lambda m: m.group(1) + "。", text)
    return EN_REMEMBER.sub(lambda m: m.group(1)[:1].upper() + m.group(1)[1:] + ".", text)
