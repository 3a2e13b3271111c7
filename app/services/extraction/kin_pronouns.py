"""Opening pronouns of a relative: a "he" or "she" that opens a sentence or clause after the
speaker named one relative of that gender. "Can you help me plan a party for my son? He's
turning 7 next Saturday." kept "He's turning 7 on 2026-12-12 (Saturday)." — a unit that says
nothing alone (the question it followed is no unit). The pronoun becomes the relative ("My son
is turning 7 …", then "The user's son …"); "His"/"Her" become "My son's"/"My wife's".

Only when the message names exactly one relative of the pronoun's gender before it (a son, a
husband, a father… for "he"; a daughter, a wife, a mother… for "she"); a friend, a colleague
or two such relatives leave the pronoun as it is. "I have a sister." names her too, and so
does the speaker's message just before ("My sister lives in Denver." then "She is a nurse.":
the second was no unit at all, too short to say anything alone). Chinese alike: 她/他
opening a sentence after 我姐姐 / 我有个姐姐 is 我姐姐 (我姐姐住在丹佛。她是护士。 →
…我姐姐是护士。), so that each fact about the relative is a unit that says whom it is about.
"""

from __future__ import annotations

import re

_HE = (
    "son", "husband", "dad", "father", "brother", "boyfriend", "grandfather", "grandpa",
    "uncle", "nephew", "fiancé", "fiance", "stepson", "stepfather", "stepdad",
)  # fmt: skip
_SHE = (
    "daughter", "wife", "mom", "mum", "mother", "sister", "girlfriend", "grandmother",
    "grandma", "aunt", "niece", "fiancée", "fiancee", "stepdaughter", "stepmother", "stepmom",
)  # fmt: skip
_KIN = re.compile(
    r"\b(my|i\s+(?:also\s+)?have\s+(?:an?|one)|i(?:'ve|\s+have)\s+got\s+an?)\s+"
    r"(?:(?:little|big|older|younger|eldest|oldest|youngest|baby|\d+-year-old)\s+)?"
    rf"({'|'.join(_HE + _SHE)})\b",
    re.IGNORECASE,
)
# A pronoun opening a sentence or a clause after a comma or semicolon.
_OPENING = re.compile(
    r"(?:(?<=^)|(?<=[.!?]\s)|(?<=[,;]\s))(He|She|he|she|His|Her|his|her)\b(['’]s\b)?"
    r"(\s+been\b)?"
)


_ZH_HE = "儿子|丈夫|老公|爸爸|父亲|哥哥|弟弟|男朋友|未婚夫|爷爷|外公|叔叔|舅舅|老板"
_ZH_SHE = "女儿|妻子|老婆|妈妈|母亲|姐姐|妹妹|女朋友|未婚妻|奶奶|外婆|阿姨|姑姑|闺蜜"
_ZH_KIN = re.compile(rf"我(?:的|有(?:一)?个|还有(?:一)?个)?({_ZH_HE}|{_ZH_SHE})")
_ZH_OPENING = re.compile(r"(?:(?<=^)|(?<=[。！？!?]))\s*([他她])(?!们)")


def _kin_before(text: str, end: int, she: bool, earlier: str = "") -> str | None:
    found = list(_KIN.finditer(text, 0, end))
    if end == 0:  # the message opens with the pronoun: the relative of the one before
        found += list(_KIN.finditer(earlier))
    # "I have a son, his name is Leo" is one fact: "I have a …" names the one a new sentence
    # speaks of ("I have a sister. She is a nurse.")
    opens = end == 0 or text[:end].rstrip().endswith((".", "!", "?"))
    kin = {m.group(2).lower() for m in found if opens or m.group(1).lower() == "my"}
    kin = {k for k in kin if (k in _SHE) == she}
    return kin.pop() if len(kin) == 1 else None


def _zh_resolved(text: str, earlier: str) -> str:
    out, last = [], 0
    for m in _ZH_OPENING.finditer(text):
        she = m.group(1) == "她"
        before = (earlier + "\n" if m.start(1) == 0 else "") + text[: m.start()]
        kin = {k.group(1) for k in _ZH_KIN.finditer(before)}
        kin = {k for k in kin if (k in _ZH_SHE.split("|")) == she}
        if len(kin) == 1:
            out += [text[last : m.start(1)], "我" + kin.pop()]
            last = m.end(1)
    return "".join([*out, text[last:]])


def resolved(text: str, earlier: str = "") -> str:
    """``text`` with each opening "he"/"she"/"his"/"her" (他/她) written as the one relative
    of that gender the text, or ``earlier`` (the speaker's message before it), named before
    it (module docstring)."""
    if any("\u4e00" <= c <= "\u9fff" for c in text):
        return _zh_resolved(text, earlier)
    if not _KIN.search(text) and not _KIN.search(earlier):
        return text
    out: list[str] = []
    last = 0
    for m in _OPENING.finditer(text):
        word = m.group(1).lower()
        kin = _kin_before(text, m.start(), she=word in ("she", "her"), earlier=earlier)
        if kin is None or (word == "her" and m.group(2)):
            continue
        cap = m.start() == 0 or text[m.start() - 2] in ".!?"
        head = f"{'My' if cap else 'my'} {kin}"
        if word in ("his", "her"):
            phrase = head + "'s" + (m.group(3) or "")
        elif m.group(2):  # "He's been" → "My son has been"; "He's turning" → "My son is"
            phrase = head + (" has" if m.group(3) else " is") + (m.group(3) or "")
        else:
            phrase = head + (m.group(3) or "")
        out += [text[last : m.start()], phrase]
        last = m.end()
    out.append(text[last:])
    return "".join(out)


_UNNAMED = re.compile(r"^\W*(he|she|his|her|him)\b(?!\s*/)|^\W*([他她])(?!们)", re.IGNORECASE)


def unnamed(text: str) -> str | None:
    """The pronoun ``text`` opens with when it is still there once :func:`resolved` ran (no
    relative named it: "She is a nurse." alone), None otherwise. Such a message that made no
    unit is reported as ``dropped`` with why (tester H28: it was dropped silently)."""
    m = _UNNAMED.match(text)
    return (m.group(1) or m.group(2)) if m else None
