"""The employer from now on, told as a new job (:func:`employer`): "I started a new job at
Siemens as an engineer" (tester C8: the employer expired with the event after 30 days), "I
switched jobs, I'm at Stripe now", 我跳槽到字节了 (tester D26), and a job left for another
(tester K20: "I left Google and started at Stripe last week", "I started working at Stripe",
我离开了阿里，加入了腾讯 were events only, and "The user works at Google." stayed current). The
fact is written about the speaker ("The user now works at Stripe.", 用户现在在腾讯工作。), so
that the pair decision reads another value of the employer slot and supersedes the old one.
English and Chinese; pure."""

from __future__ import annotations

import re

_CAPS = r"(?-i:[A-Z])[\w&.'’-]*(?:\s+(?-i:[A-Z])[\w&.'’-]*)*"
_NAME = f"({_CAPS})"
_EN_NEW_JOB = re.compile(
    r"\bI\s*(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:started|began|got|landed|"
    r"accepted|taken|took)\s+(?:a\s+|my\s+)?(?:new\s+)?(?:job|position|role)\s+(?:at|with)\s+"
    r"([A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*)*)(?:\s+as\s+(?:an?\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*)?))?"
    r"(?=[.,;!?]|\s+(?:and|but|so|last|this|yesterday|today|on|in|since)\b|$)"
)
_ZH_NEW_JOB = re.compile(
    r"(?:换了?|找到了?|开始了?)(?:新|一份|份)?(?:新)?工作[^。！？]{0,8}?[，,]\s*(?:我)?(?:现在|目前)?在"
    r"([^，。！？,.!?]{1,12}?)(?:上班|工作)?(?=[，。！？,.!?]|$)|入职了?([^，。！？,.!?]{1,12})"
)
# A job changed with no "new job at" (tester D26): "I switched jobs, I'm at Stripe now", "I
# changed jobs and joined Stripe", 我跳槽到字节了 — the employer from now on.
_EN_SWITCHED = re.compile(
    r"\bI\s*(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:switched|changed)\s+"
    r"(?:jobs?|employers?|companies)\b[^.!?]*?(?:\bI\s*(?:'m|\s+am)\s+(?:now\s+)?(?:at|with)|"
    r"\b(?:joined|to)|\bI\s+(?:now\s+)?work\s+(?:at|for))\s+" + _NAME + r"(?=[.,;!?]|\s|$)",
    re.IGNORECASE,
)
_ZH_SWITCHED = re.compile(r"跳槽(?:到|去)了?([^，。！？,.!?了啦]{1,12})")
# An employer left for another (K20): "I left Google and started at Stripe", "I quit Acme to
# join Stripe", "I left Google. I'm at Stripe now."; or a start at one ("I started working at
# Stripe", not at a school: "I started at Harvard" is no employer).
_EN_LEFT_FOR = re.compile(
    r"\bI\s*(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:left|quit)\s+"
    + _CAPS
    + r"\b[^!?]{0,40}?(?:\b(?:started|start|began|joined|join)\s+(?:working\s+|work\s+)?"
    r"(?:at\s+|for\s+|with\s+)?|\bI\s*(?:'m|\s+am)\s+(?:now\s+)?(?:at|with)\s+)" + _NAME,
    re.IGNORECASE,
)
_EN_STARTED_AT = re.compile(
    r"\bI\s*(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:started|began)\s+"
    r"(?:working\s+|work\s+|a\s+job\s+)?(?:at|for|with)\s+" + _NAME,
    re.IGNORECASE,
)
_SCHOOL = re.compile(r"\b(?:University|College|School|Academy|Institute|High|Harvard|MIT)\b")
_ZH_LEFT_FOR = re.compile(
    r"(?:离开|离职|辞职|辞掉|从[^，。！？]{1,12}?离职)[^。！？]{0,12}?(?:加入|去)了?"
    r"([^，。！？,.!?了]{1,12})"
)


def employer(text: str, who: str, *, zh: bool) -> tuple[str, str] | None:
    """The lasting fact in a new job ("The user works at Siemens as an engineer.",
    用户现在在腾讯工作。), written about ``who``, and the employer it names; None when ``text``
    starts no job."""
    if zh:
        z = _ZH_NEW_JOB.search(text)
        if z is not None:
            name = z.group(1) or z.group(2)
        elif (s := _ZH_SWITCHED.search(text) or _ZH_LEFT_FOR.search(text)) is not None:
            name = s.group(1)  # 我跳槽到字节了 (tester D26), 离开了阿里，加入了腾讯 (K20)
        else:
            return None
        return f"{who}现在在{name}工作。", name
    subject = who[:1].upper() + who[1:]
    m = _EN_NEW_JOB.search(text)
    if m is not None:
        name = m.group(1).rstrip(".")
        article = "an" if (m.group(2) or "")[:1] in "aeiou" else "a"
        role = f" as {article} {m.group(2)}" if m.group(2) else ""
        return f"{subject} works at {name}{role}.", name  # "Google.""
    for pattern in (_EN_SWITCHED, _EN_LEFT_FOR, _EN_STARTED_AT):
        if (s := pattern.search(text)) is not None and not _SCHOOL.search(s.group(1)):
            name = s.group(1).rstrip(".")
            return f"{subject} now works at {name}.", name
    return None
