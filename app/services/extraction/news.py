"""News lead-ins: the words that announce news before saying it ("Big news: I moved to
Boston", "Guess what, …", "Quick update — …", 告诉你个大消息，…, 跟你说，…, 好消息！…). They are
no part of what is told: a unit kept them ("Big news: the user moved to Boston, …") and then
neither compared with the stored home nor read well alone. Taken off the sentence they open
(:func:`without_news`, called by :func:`app.services.extraction.standalone.strip_lead_ins`
before the typed rules and the events read the message)."""

from __future__ import annotations

import re

_START = r"(?:^|(?<=[.!?。！？]\s)|(?<=[.!?]\s\s)|(?<=[。！？\n]))"

_EN_NEWS = re.compile(
    _START + r"\s*(?:(?:so\s*,?\s+)?guess\s+what(?:\s+happened)?"
    r"|(?:some\s+|(?:i\s+(?:have|got)|i've\s+got)\s+(?:some\s+)?)?(?:big|great|good|exciting|huge|"
    r"happy|sad|bad)\s+news|(?:a\s+)?(?:quick|small|little|short|life|big)\s+update|update|news\s+flash"
    r"|you(?:'ll|\s+will)\s+never\s+(?:believe|guess)(?:\s+what)?)"
    r"(?:\s*(?:[:,;–—!.?-]|…)+\s*|(?<=what)\s+(?=(?:i|my|we|our)\b))",
    re.IGNORECASE,
)
_ZH_NEWS = re.compile(
    _START + r"\s*(?:(?:我)?(?:告诉|跟|和)(?:你|您)(?:说)?(?:个|一个)?(?:大|好|坏)?(?:消息|事儿?)?"
    r"|(?:有个|一个)?(?:大|好|坏|重大)消息(?:来了)?|(?:你)?猜(?:猜)?怎么着|更新一下|近况更新)"
    r"(?:[：:，,、！!。…—\s]+)"
)


def without_news(text: str) -> str:
    """``text`` without the news lead-ins that open its sentences (module docstring);
    unchanged when nothing would be left."""
    out = _ZH_NEWS.sub("", _EN_NEWS.sub("", text)).strip()
    if not out or not re.search(r"\w", out):
        return text
    return out
