"""Who "we" is (tester B5): "We went camping last weekend" said by Jon in a group chat was
written "Jon and others went camping…", a group with the speaker lost in it. Before the
statement is put in the third person (:mod:`app.services.extraction.statements`):

- when the message or the question it answers names who is with the speaker ("Anna and I",
  "my wife and I", "with Anna", "Did you and Gina…?", 我和安娜, 你和小王…), "we" / "us" / "our"
  / 我们 are the speaker and them ("Jon and Anna went camping…", 小李和安娜…);
- else a "we" doing something stays with the speaker: "Jon went camping … with others"
  (小李……（和其他人一起）); a "we" that is, can, feels or must ("we were so lucky", "we all need
  a push") is left to the third person ("Jon and others").
"""

from __future__ import annotations

import re

from app.services.extraction.tense import is_past_verb

_EN_REL = (
    r"wife|husband|partner|son|daughter|mom|mum|mother|dad|father|sister|brother|kids|"
    r"children|family|friends?|girlfriend|boyfriend|fianc[eé]e?|parents|team|colleagues?|"
    r"coworkers?|roommates?|cousins?|grandparents|grandma|grandpa|boss"
)
_NAME = r"[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?"
_NOT_NAMES = {"I", "We", "The", "A", "My", "Me", "You", "Yes", "No", "And", "But", "So"}
# "my wife Anna and I", "Anna and I", "my wife and I", "me and Anna", "I went … with Anna"
_EN_MINE = re.compile(
    rf"\b(?:(?:my\s+({_EN_REL})\s+)?({_NAME})|my\s+({_EN_REL}))\s+and\s+(?:I|me|myself)\b"
    rf"|\b(?:I|me)\s+and\s+(?:my\s+({_EN_REL})(?:\s+({_NAME}))?|({_NAME}))"
    rf"|\bwith\s+(?:my\s+({_EN_REL})(?:\s*,?\s+({_NAME}))?|({_NAME}))"
)
# "Did you and Gina go…?", "with your wife?"
_EN_YOURS = re.compile(
    rf"\byou\s+and\s+(?:your\s+({_EN_REL})|({_NAME}))|\b({_NAME})\s+and\s+you\b"
    rf"|\bwith\s+(?:your\s+({_EN_REL})|({_NAME}))"
)
_ZH_REL = (
    r"老婆|妻子|老公|丈夫|女儿|儿子|孩子们?|爸爸|妈妈|父母|家人|朋友们?|同事们?|男朋友|女朋友|室友"
)
# 我和安娜…, 我跟我老婆…, 你和小王…吗: the companion before the verb, a time or a pause.
_ZH_NEXT = r"(?=一起|去|到|在|都|也|上|下|这|昨|今|前|明|\d|[，,。？?吗]|$)"
_ZH_MINE = re.compile(rf"我(?:和|跟|与|同)(我?的?(?:{_ZH_REL})?[\u4e00-\u9fff]{{0,3}}?){_ZH_NEXT}")
_ZH_YOURS = re.compile(rf"你(?:和|跟|与|同)(你?的?(?:{_ZH_REL})?[\u4e00-\u9fff]{{0,3}}?){_ZH_NEXT}")

_ADVERBS = (
    r"(?:(?:just|finally|also|all|both|then|even|recently|actually|really|totally|eventually)\s+)*"
)
_EN_WE_VERB = re.compile(rf"\b([Ww]e)\s+({_ADVERBS})([a-z]+)\b")
# "We were so lucky", "we all need a push", "we can…": a state of the group, not something
# the speaker did: left as "Jon and others".
_STATIVE = frozenset(
    """are were was is am be been can could will would should must may might shall need
    needs feel felt think thought know knew believe hope wish love like want wanted deserve
    seem seemed have has got get gotta gonna don't didn't aren't weren't can't won't""".split()
)
_TALKED = frozenset("chatted talked spoke met caught last first".split())
# A plan moved or called off, a move, a child born: the group's own, not an act done "with
# others" (tester hbreak7 H5: "The user pushed the Lisbon trip to August with others.").
_NO_COMPANY = frozenset(
    """pushed postponed moved rescheduled delayed cancelled canceled relocated had""".split()
)
# What may stand before a "we" that opens its sentence ("Then we…", "Yesterday we…").
_OPENER = re.compile(
    r"(?:\s*(?:and|so|then|also|yesterday|today|recently|finally|later|oh|yeah|well|[-–—]|"
    r"on\s+\d{4}-\d{2}-\d{2}(?:\s+\(\w+\))?|in\s+\d{4}))*\s*",
    re.IGNORECASE,
)
_SUBORDINATE = re.compile(
    r"\b(?:that|what|which|who|when|if|because|how|where|since|while|whether|sure|make|"
    r"say|said|think|guess|i|i'd|i'm|you|he|she|they)\b|[\"“]",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(
    r"\s+and\s+(?=(?:the|it|they|he|she|i|that|this|there|his|her|their)\b)|"
    r"[.!?;]|\s+-\s+|,\s+(?=(?:and|but|so|which|while|because|it|that)\b)|\s+but\s+"
)


def companions(text: str, question: str, who: str, *, zh: bool) -> str | None:
    """Who is with the speaker, as the message or the question before it names them ("Anna",
    "Jon's wife", 安娜, 小李的老婆), else None."""
    if zh:
        m = _ZH_MINE.search(text) or _ZH_YOURS.search(question)
        if m is None or not m.group(1).strip("我你的"):
            return None
        return (
            re.sub(r"^(?:我|你)的?", f"{who}的", m.group(1))
            if m.group(1)[0] in "我你"
            else m.group(1)
        )
    for pattern, text_of in ((_EN_MINE, text), (_EN_YOURS, question)):
        for m in pattern.finditer(text_of):
            found = [g for g in m.groups() if g]
            name = next((g for g in found if g[0].isupper() and g not in _NOT_NAMES), None)
            rel = next((g for g in found if not g[0].isupper()), None)
            if name:
                return name
            if rel:
                return f"{who}'s {rel}"
    return None


def resolve_we(text: str, who: str, question: str = "", *, zh: bool) -> str:
    """``text`` (first person, dates resolved) with "we" as the speaker and their companions,
    or the speaker "with others" (module docstring)."""
    if zh:
        if "我们" not in text and "咱们" not in text:
            return text
        group = companions(text, question, who, zh=True)
        if group:
            return text.replace("我们", f"{who}和{group}").replace("咱们", f"{who}和{group}")
        return _alone_zh(text)
    if not re.search(r"\b(?:we|us|our|we're|we've|we'll|we'd)\b", text, re.IGNORECASE):
        return text
    group = companions(text, question, who, zh=False)
    if group is None:
        return _alone(text)
    both = f"{who} and {group}"  # "we hiked … with my sister": the clause names them itself
    said_with = rf"\bwe\b[^,;.!?]*\bwith\s+(?:my\s+)?\w*\s*{group.split()[-1]}\b"
    return "".join(
        _as_one(part) if re.search(said_with, part, re.IGNORECASE) else _as_two(part, both)
        for part in re.split(r"(?<=[.!?])(?=\s)", text)
    )


def _as_two(text: str, both: str) -> str:
    """ "we" / "us" / "our" as the speaker and the companion ("Jon and Anna")."""
    text = re.sub(r"\bwe're\b|\bwe\s+are\b", f"{both} are", text, flags=re.IGNORECASE)
    text = re.sub(r"\bwe've\b", f"{both} have", text, flags=re.IGNORECASE)
    text = re.sub(r"\bwe'll\b", f"{both} will", text, flags=re.IGNORECASE)
    text = re.sub(r"\bwe'd\b", f"{both} would", text, flags=re.IGNORECASE)
    text = re.sub(r"\bour\b", f"{both}'s", text, flags=re.IGNORECASE)
    return re.sub(r"\b(?:we|us)\b", both, text, flags=re.IGNORECASE)


def _as_one(text: str) -> str:
    """A sentence that says "with Anna" itself: its "we" is the speaker ("We hiked … with my
    sister" → "I hiked … with my sister"), not "Jon and Jon's sister … with Jon's sister"."""
    for plural, mine in ((r"\bwe're\b|\bwe\s+are\b", "I am"), (r"\bwe\s+were\b", "I was"),
                         (r"\bwe've\b", "I've"), (r"\bwe'll\b", "I'll"), (r"\bwe'd\b", "I'd"),
                         (r"\bwe\b", "I"), (r"\bus\b", "me"), (r"\bour\b", "my")):  # fmt: skip
        text = re.sub(plural, mine, text, flags=re.IGNORECASE)
    return text


def _alone(text: str) -> str:
    """Each "we" doing something as "I", with "with others" at its clause's end (see
    :func:`resolve_we`); a clause that already says with whom ("with the kids", "together")
    names them itself."""
    ends: set[int] = set()
    for m in reversed(list(_EN_WE_VERB.finditer(text))):
        verb = m.group(3)
        if verb in _STATIVE or verb in _TALKED or not is_past_verb(verb):
            continue  # "we were…", "since we last talked", "we grow": left as they are
        lead = re.split(r"[.!?]\s", text[: m.start()])[-1]
        found = _CLAUSE_END.search(text, m.end())
        end = found.start() if found else len(text.rstrip())
        opens = not lead.strip() or lead.rstrip().endswith(",") or _OPENER.fullmatch(lead)
        if not opens or _SUBORDINATE.search(lead) or len(text[m.end() : end].split()) > 15:
            continue  # not the subject of its sentence, or a clause too long to end well
        if re.search(
            r"\btogether\b|\beach\s*other\b|\bone\s+another\b|[\"“”]", text[m.end() : end]
        ):
            continue
        if re.search(r"\b(?:all|both)\b", m.group(2)):  # "we all made…": the group's
            continue
        named = re.search(r"\bwith\b", text[m.end() : end])  # "with the kids"
        if end not in ends and not named and verb not in _NO_COMPANY:
            text = text[:end] + " with others" + text[end:]
            ends.add(end)
        text = text[: m.start()] + "I " + m.group(2) + text[m.start(3) :]
    return text


_ZH_WE = re.compile(
    r"(?<![帮给让叫请和跟带陪对告诉邀请送])(?:我们|咱们)(?!都|是|很|真|太|应该|可以|会|能|要|需要|得|一直|总是|也|还|俩|两|之间|的|一起|大家)"
)
_ZH_CLAUSE_END = re.compile(r"[，。！？；,.!?;]|$")


# 我们一家 / 我们全家 name who is with the speaker: the family (tester hbreak7 H15: "用户一家搬到
# 深圳了（和其他人一起）"); a plan moved or called off, a move, a marriage (我们结婚了, K5) is
# the group's, no act done "with others".
_ZH_FAMILY = re.compile(r"(?:我们|咱们)(?=一家|全家|家(?!里|人|的))")
_ZH_NO_COMPANY = re.compile(
    r"推迟|延期|改到|改成|改期|取消|提前到|搬到|搬去|搬回|搬家|结婚|离婚|订婚"
)


def _alone_zh(text: str) -> str:
    """我们 doing something as 我, with （和其他人一起） at its clause's end; 我们一起 as
    我和其他人一起; 我们一家 as 我一家."""
    text = _ZH_FAMILY.sub("我", text)
    text = text.replace("我们一起", "我和其他人一起").replace("咱们一起", "我和其他人一起")
    for m in reversed(list(_ZH_WE.finditer(text))):
        found = _ZH_CLAUSE_END.search(text, m.end())
        end = found.start() if found else len(text)
        clause = text[m.end() : end]
        if "一起" in clause and not re.search(r"和|跟|同", clause):  # 一起: with whom?
            at = m.end() + clause.index("一起")
            text = text[:at] + "和其他人" + text[at:]
        elif not re.search(r"和|跟|同", clause) and not _ZH_NO_COMPANY.search(clause):
            text = text[:end] + "（和其他人一起）" + text[end:]
        text = text[: m.start()] + "我" + text[m.end() :]
    return text
