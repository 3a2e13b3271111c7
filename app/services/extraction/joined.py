"""Two statements about different things joined by "and" in one sentence are two units
(tester D3, docs/EXTRACTION.md "Clauses joined by and"): "My door code is 4417 and my sister
Jane lives in Oslo." → "My door code is 4417." and "My sister Jane lives in Oslo.", so that a
later "Jane moved to Bergen" supersedes only the second. Chinese alike: 我的储物柜号码是4417，
我妹妹住在奥斯陆。 A single fact's "and" is left alone ("I like tea and coffee", "My wife and I
moved to Oslo": no statement before "and"), and so is a second clause that points back at the
first ("… and my kids loved it").

Sentences about different people are two units too (tester D32: "I live in Chicago, my
parents moved to Florida" kept the user's home and the parents' move in one unit, and a later
pair decision read the move as the user's): a comma, "but", "while", "whereas" or ";" before
"my parents / my friend Sam / our kids …" and its verb is a cut (after a statement), and so is
a new sentence whose subject is another person than the one before ("I live in Chicago. My
sister lives in Denver.", 我住在北京。我爸妈住在上海。) unless it points back ("… They love
it."). Chinese: 我住在北京，我父母搬到了上海 (a relative or 朋友 after 我, or 我的); and the
speaker again after a statement of a state (我女朋友是医生，我现在月薪两万五), not in a tale of
what happened."""

from __future__ import annotations

import re

_EN_VERB = (
    r"(?:is|are|was|were|has|have|had|lives|works|goes|starts|opens|closes|costs|moved|"
    r"turns|turned|studies|plays|owns|runs|'s)\b"
)
# People a possessive names as the subject of a clause of their own (tester D32).
_EN_PERSON = (
    r"(?:parents?|mom|mum|dad|mother|father|sister|brother|siblings?|wife|husband|partner|"
    r"spouse|son|daughter|kids?|children|child|baby|boyfriend|girlfriend|fianc[ée]e?|"
    r"(?:best\s+)?friends?|boss|colleagues?|co-?workers?|roommates?|neighbou?rs?|"
    r"grand(?:ma|pa|mother|father|parents?|son|daughter|kids?|children)|aunt|uncle|cousins?|"
    r"in-laws|family|folks|nephew|niece|step(?:mom|dad|mother|father|son|daughter))"
)
# A plural subject's verb ("my parents live", "my kids love"), a past, or "just" before one.
_EN_PERSON_VERB = (
    rf"(?:{_EN_VERB}|live|work|go|went|love|loves|like|likes|got|gets|came|left|just|also|"
    r"recently|still|now|finally|\w+ed)\b"
)
# A clause whose subject is a relative a possessive names, with its verb ("my parents moved",
# "my friend Sam lives"): the text it opens is about that person (clauses.py cuts there too).
EN_PERSON_CLAUSE = (
    rf"(?:my|our)\s+(?:(?:older|younger|little|big|best|late|elder)\s+)?{_EN_PERSON}"
    rf"(?:\s+(?-i:[A-Z])[\w'-]+)?\s+{_EN_PERSON_VERB}"
)
# "and my sister Jane lives …", "and our gym is …": a possessed subject, then its verb; a
# comma, "but", "while", "whereas" or ";" only before a person ("…, my parents moved to …").
_EN_CUT = re.compile(
    rf",?\s+and\s+(?=(?:my|our)\s+(?:[\w'-]+\s+){{0,3}}?{_EN_VERB})|"
    rf"(?:\s*[,;]\s*(?:but|while|whereas)?|\s+(?:but|while|whereas))\s+(?={EN_PERSON_CLAUSE})",
    re.IGNORECASE,
)
# "…, and I'm allergic to peanuts", "…; also I work at …": the speaker opens a statement again
# (tester hbreak6 G16: the address and the allergy were one unit, forgotten together) — not
# inside a clause that "when", "if", "because" … opened ("… when we were down 10 and I hit …").
_EN_CUT_SELF = re.compile(r"(?:,?\s+and|\s*;)\s+(?:also,?\s+)?(?=i(?:'m|'ve)?\s)", re.IGNORECASE)
_EN_SUBORDINATE = re.compile(
    r"\b(?:when|whenever|if|because|while|since|until|before|after|though|although|as|once|"
    r"unless|so)\b",
    re.IGNORECASE,
)
# ... after a statement of the speaker's: "I" and a verb, or "my …" and "is" / "has", and more
# ("My kids and I …" is no statement).
_EN_SELF_LEFT = re.compile(
    r"^\W*(?:i(?:'m|'ve|'d)?\s+\w+|(?:my|our)\s+(?:[\w'-]+\s+){1,4}?"
    r"(?:is|are|was|were|has|have|had)\b)\s+\S",
    re.IGNORECASE,
)
# A sentence about the speaker, and one about another person (a possessive and a relative).
_EN_SPEAKER_FIRST = re.compile(r"^\W*i\b(?:['’](?:m|ve|d|ll))?", re.IGNORECASE)
_EN_PERSON_FIRST = re.compile(
    rf"^\W*(?:my|our)\s+(?:(?:older|younger|little|big|best|late|elder)\s+)?({_EN_PERSON})"
    rf"(?:\s+(?-i:[A-Z])[\w'-]+)?\s+{_EN_PERSON_VERB}",
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
    r"妹妹|姐姐|哥哥|弟弟|妈妈|爸爸|母亲|父亲|老婆|老公|妻子|丈夫|儿子|女儿|孩子|朋友|男朋友|女朋友|"
    r"爸妈|父母|家人|公婆|岳父母|爷爷|奶奶|外公|外婆|同事|室友|老板|闺蜜|好友|邻居"
)
_ZH_CUT = re.compile(
    rf"(?:[，,]\s*(?:而且|并且|还有|另外|但是?|不过)?|而且|并且|和)(?=我(?:的|{_ZH_KIN}))"
)
# A statement before the cut: about a possessed subject, or about the speaker (我住在北京).
_ZH_STATEMENT = re.compile(rf"^我(?:的|{_ZH_KIN})?.*?(?:是|在|住|有|叫|要|会|\d)")
_ZH_SPEAKER_FIRST = re.compile(rf"^我(?!的|们|{_ZH_KIN})")
# "，我…" after a statement of a state (我女朋友是医生，我现在月薪两万五): the speaker opens a
# statement of their own again — not in a tale of what happened (我昨天去了超市，我买了…).
_ZH_CUT_SELF = re.compile(r"[，,]\s*(?:而且|并且|另外)?(?=我(?!们|的|觉得|想|希望|也|还|就|都))")
_ZH_TOLD = re.compile(r"了|过|着")
_ZH_PERSON_FIRST = re.compile(rf"^我的?({_ZH_KIN})")
_ZH_BACK = re.compile(r"[它他她这那]")


def split_joined(text: str, zh: bool) -> list[str]:
    """``text`` cut where "and" / a comma joins two statements with subjects of their own
    (module docstring); ``[text]`` when there is no such cut."""
    pieces: list[str] = []
    current: list[str] = []  # the sentences around a cut stay with its pieces
    whose: str | None = None  # whom the sentences so far are about
    for sentence in re.split(r"(?<=[.!?。！？])\s*", text):
        if not sentence.strip():
            continue
        about = _about(sentence.strip(), zh)
        back = (_ZH_BACK if zh else _EN_BACK).search(sentence) is not None
        if current and about and whose and about != whose and not back:
            pieces.append(("" if zh else " ").join(current))  # "I live in … My sister lives …"
            current = []
        whose = about or (whose if back else None)
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
    if m is None and not zh:
        m = _EN_CUT_SELF.search(sentence)
        left = sentence[: m.start()] if m is not None else ""
        m = m if _EN_SELF_LEFT.match(left) and not _EN_SUBORDINATE.search(left) else None
    elif m is None and not _ZH_TOLD.search(sentence):
        m = _ZH_CUT_SELF.search(sentence)
    if m is None:
        return [sentence]
    left, right = sentence[: m.start()].strip(), sentence[m.end() :].strip()
    if not statement.match(left) or back.search(right):
        return [sentence]
    if zh and "和" in m.group(0) and _ZH_SPEAKER_FIRST.match(left):
        return [sentence]  # 我有一只猫和我的狗…: "and" after the speaker's own words joins things
    end = "。" if zh else "."
    if not left.endswith((".", "!", "?", "。", "！", "？")):
        left += end
    right = right if zh else right[:1].upper() + right[1:]
    return [left, *_cut(right, zh)]


def _about(sentence: str, zh: bool) -> str | None:
    """Whom a sentence is about when it opens with its subject: ``I`` (the speaker) or the
    relative a possessive names ("my parents", 我爸妈); None otherwise."""
    person = (_ZH_PERSON_FIRST if zh else _EN_PERSON_FIRST).match(sentence)
    if person is not None:
        return person.group(1).casefold()
    return "I" if (_ZH_SPEAKER_FIRST if zh else _EN_SPEAKER_FIRST).match(sentence) else None
