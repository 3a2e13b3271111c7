"""Two more lasting states a new statement ends with a verb of its own (issue 28, beside
:mod:`.endings`): an illness or condition recovered from ("recovered from asthma", 小时候有哮喘，
现在已经好了 against "has asthma", 用户有哮喘) and a group left ("has left the fantasy
literature forum", 退出了读书会 against "is a member of a fantasy literature forum",
是读书会的成员). :func:`recovered` and :func:`left_group` read one pair in one language;
:func:`.endings.ended` checks the holder, negations and moods first. Pure."""

from __future__ import annotations

import re

from app.core import text

_EN_RECOVERED = re.compile(
    r"\b(?:recovered\s+(?:fully\s+)?from|got\s+over|(?:is|was|been|got)\s+cured\s+of|beat|"
    r"(?:is|was)\s+free\s+of)\s+(?:the\s+user['’]s\s+|his\s+|her\s+|their\s+|my\s+|the\s+|an?\s+)?"
    r"(?P<what>[a-z-]+(?:\s+[a-z-]+)?)",
    re.IGNORECASE,
)
_ZH_RECOVERED = re.compile(
    r"(?:有|患有|得了|得过)(?P<what>[\u4e00-\u9fff]{2,6}?)[，,]?\s*(?:现在|如今|后来)?"
    r"(?:已经|都|终于|基本|早就)?(?:好了|痊愈|治好了|康复了)"
)
_EN_HAS = re.compile(r"\b(?:has|have|had|suffers?\s+from|lives?\s+with)\b", re.IGNORECASE)
_ZH_HAS = re.compile(r"有|患")


def recovered(new: str, old: str, zh_new: bool, zh_old: bool) -> bool:
    """``new`` says its holder recovered from what ``old`` says the holder has (one language;
    the condition's words named in ``old`` after "has", "suffers from", 有 or 患)."""
    if zh_new != zh_old:
        return False
    if zh_new:
        m = _ZH_RECOVERED.search(new)
        if m is None:
            return False
        at = old.find(m.group("what"))
        return at > 0 and _ZH_HAS.search(old[:at]) is not None
    m = _EN_RECOVERED.search(new)
    h = _EN_HAS.search(old)
    if m is None or h is None:
        return False
    wanted = text.stems(m.group("what"))
    return bool(wanted) and wanted <= text.stems(old[h.end() :])


_GROUP_EN = r"member|members|membership|part|belongs?"
_EN_MEMBER = re.compile(rf"\b(?:{_GROUP_EN})\s+(?:of|to|in)\b|\bjoined\b", re.IGNORECASE)
_EN_LEFT = re.compile(
    r"\b(?:left|quit|dropped\s+out\s+of|withdrew\s+from|resigned\s+from|cancell?ed\s+"
    r"(?:his|her|their|my|the\s+user['’]s)\s+membership\s+(?:of|in|at))\s+"
    r"(?:the|his|her|their|my|our)\s+(?P<what>(?:[\w-]+\s+){0,3}?[a-z-]+)\b",
    re.IGNORECASE,
)
_ZH_MEMBER = re.compile(r"成员|会员|一员|加入了?")
_ZH_LEFT = re.compile(r"退出了?(?P<what>[^，。,.！!]{2,10}?)(?=[，。,.！!]|$|了)")


def left_group(new: str, old: str, zh_new: bool, zh_old: bool) -> bool:
    """``new`` says its holder left a group ``old`` says the holder is a member of or joined
    (one language; every word of the group ``new`` names also in ``old``): "has left the
    fantasy literature forum" / "is a member of a fantasy literature forum"."""
    if zh_new != zh_old:
        return False
    if zh_new:
        m = _ZH_LEFT.search(new)
        return m is not None and m.group("what") in old and _ZH_MEMBER.search(old) is not None
    m = _EN_LEFT.search(new)
    if m is None or _EN_MEMBER.search(old) is None:
        return False
    wanted = text.stems(m.group("what"))
    return bool(wanted) and wanted <= text.stems(old)
