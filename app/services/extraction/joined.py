"""Two statements about different things joined by "and" in one sentence are two units
(tester D3, docs/EXTRACTION.md "Clauses joined by and"): "My door code is 4417 and my sister
Jane lives in Oslo." → "My door code is 4417." and "My sister Jane lives in Oslo.", so that a
later "Jane moved to Bergen" supersedes only the second. Chinese alike: 我的储物柜号码是4417，
我妹妹住在奥斯陆。 A single fact's "and" is left alone ("I like tea and coffee", "My wife and I
moved to Oslo": no statement before "and"), and so is a second clause that points back at the
first ("… and my kids loved it")."""

from __future__ import annotations

import re

# "and my sister Jane lives …", "and our gym is …": a possessed subject, then its verb.
_EN_CUT = re.compile(
    r",?\s+and\s+(?=(?:my|our)\s+(?:[\w'-]+\s+){0,3}?"
    r"(?:is|are|was|were|has|have|had|lives|works|goes|starts|opens|closes|costs|moved|"
    r"turns|turned|studies|plays|owns|runs|'s)\b)",
    re.IGNORECASE,
)
# A statement before "and": a subject and a verb ("My door code is 4417", "I work at Acme").
_EN_STATEMENT = re.compile(
    r"^(?:i(?:'m|'ve|'d)?\s+\w+|(?:my|our)\b.*?\b(?:is|are|was|were|has|have|had|'s|\w+s|\w+ed))\b",
    re.IGNORECASE,
)
_EN_BACK = re.compile(r"\b(?:it|that|this|them|there|they|he|she|him|her|those|these)\b",
                      re.IGNORECASE)  # fmt: skip

_ZH_KIN = (
    r"妹妹|姐姐|哥哥|弟弟|妈妈|爸爸|母亲|父亲|老婆|老公|妻子|丈夫|儿子|女儿|孩子|朋友|男朋友|女朋友"
)
_ZH_CUT = re.compile(rf"(?:[，,]\s*(?:而且|并且|还有|另外)?|而且|并且|和)(?=我(?:的|{_ZH_KIN}))")
_ZH_STATEMENT = re.compile(rf"^我(?:的|{_ZH_KIN}).*?(?:是|在|住|有|叫|要|会|\d)")
_ZH_BACK = re.compile(r"[它他她这那]")


def split_joined(text: str, zh: bool) -> list[str]:
    """``text`` cut where "and" / a comma joins two statements with subjects of their own
    (module docstring); ``[text]`` when there is no such cut."""
    pieces: list[str] = []
    current: list[str] = []  # the sentences around a cut stay with its pieces
    for sentence in re.split(r"(?<=[.!?。！？])\s*", text):
        if not sentence.strip():
            continue
        cut = _cut(sentence.strip(), zh)
        current.append(cut[0])
        if len(cut) > 1:
            pieces.append(("" if zh else " ").join(current))
            pieces += cut[1:-1]
            current = [cut[-1]]
    if not pieces:
        return [text]
    return [*pieces, ("" if zh else " ").join(current)]


def _cut(sentence: str, zh: bool) -> list[str]:
    cut, statement, back = (
        (_ZH_CUT, _ZH_STATEMENT, _ZH_BACK) if zh else (_EN_CUT, _EN_STATEMENT, _EN_BACK)
    )
    m = cut.search(sentence)
    if m is None:
        return [sentence]
    left, right = sentence[: m.start()].strip(), sentence[m.end() :].strip()
    if not statement.match(left) or back.search(right):
        return [sentence]
    end = "。" if zh else "."
    if not left.endswith((".", "!", "?", "。", "！", "？")):
        left += end
    right = right if zh else right[:1].upper() + right[1:]
    return [left, *_cut(right, zh)]
