"""What a statement is about, beyond its words (docs/DEDUPE.md, "Guards"): whose fact it is
(the user, or the user's husband), which thing (flight LH716, order 1001, the first meeting),
which way (to Tokyo, from Tokyo), how real (will visit, might move, wants to, 想去 — or
visited, 去过) and, for a past event, on which day.

Two statements that differ in one of these are two facts however many words they share, so
the pair decision (:mod:`.decision`) never merges them and never lets one supersede the other
on its own (:func:`apart`): another person, identifier, ordinal or direction → ``distinct``;
another modality or tense, a past event on another day or one more event of a kind on another
day (:mod:`.plans`) → ``unsure`` (a person or the LLM may call it a change: "might move" /
"moved", a corrected date); an event moved to another day ("rescheduled to") → ``contradicts``
(from no day: flagged). English and Chinese, by patterns, WordNet and CC-CEDICT. Pure, cached."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from app.core import text, zh_past
from app.services.memory.pairs import persons_zh, plans, sequence
from app.services.memory.pairs.canonical import canonical
from app.services.memory.pairs.kin import KIN_EN as _KIN_EN
from app.services.memory.pairs.kin import KIN_ZH as _KIN_ZH
from app.services.memory.pairs.ordinals import ordinals

# ---- whose fact: a person or animal after a possessive ------------------------------------

_ZH_KIN = "|".join(sorted(_KIN_ZH, key=len, reverse=True))
# After a pronoun or 用户 (我老公), or 的 after a name or kin word (张三的妻子; not 可爱的狗).
_ZH_PERSON = re.compile(rf"(?:用户|[我你他她]们?)的?(?:大|小|二|老)?({_ZH_KIN})")
_EN_POSSESSIVE = re.compile(
    r"(?:\b(?:my|his|her|their|our|your)|\w['’]s)\s+([a-z-]+(?:\s+[a-z-]+){0,2})", re.IGNORECASE
)
# Words between a possessive and the person it names ("her older son", "my best friend").
_PERSON_ADJ = frozenset("older younger elder eldest youngest oldest big little baby best late "
                        "ex ex- new old twin step- only".split())  # fmt: skip


@lru_cache(maxsize=4096)
def _is_person(noun: str) -> bool:
    """Whether an English noun's first WordNet sense is a person or an animal (husband,
    dentist, kid, dog; not car, name, flight)."""
    from app.services.memory.pairs import lexicon  # the word lists load on first use

    first = lexicon._first_noun_senses().get(noun)
    if not first:
        return False
    return lexicon._descends(first[0], ("person", "animal"))


def _person_en(word: str) -> str | None:
    """The one English name of a word naming a person or an animal (mum → mother), else None."""
    from app.services.memory.pairs import lexicon

    w = word.casefold().strip("-")
    if w in _KIN_EN or w.endswith("-in-law"):
        return _KIN_EN.get(w, w)
    lem = lexicon.lemma(w)
    return _KIN_EN.get(lem, lem) if _is_person(lem) else None


def _qualifies(word: str, following: str) -> bool:
    """Whether ``word`` only qualifies the noun ``following`` it ("vegan group", "dentist
    appointment"), rather than being the subject of a verb ("husband prefers", "kids love")."""
    from app.services.memory.pairs import lexicon

    lem = lexicon.lemma(following)
    if text.is_stop_word(following) or (following.endswith(("s", "ed")) and lem != following):
        return False  # "is", "prefers", "signed": a verb after its subject
    if lexicon._wordnet_pos().get(lem) != 0:
        return False
    plural = lexicon.lemma(word) != word  # "kids love": a plural subject and its verb
    return not (plural and any(s % 4 == 1 for s in lexicon._wordnet().get(lem, ())))


@lru_cache(maxsize=8192)
def people(value: str) -> frozenset[str]:
    """The people (and animals) a statement names after a possessive — "the user's husband",
    "my kids", 用户的丈夫, 我老公 — in one English name each: whose fact it is when not the
    subject's own. A word before another noun only qualifies it ("his vegan group", "the
    user's dentist appointment")."""
    found = {k for m in _EN_POSSESSIVE.finditer(value) if (k := _possessed(m)) is not None}
    for m in _ZH_PERSON.finditer(value):
        found.add(_KIN_ZH[m.group(1)])
    return frozenset(found | persons_zh.owned(value))  # 张三的妻子, 约翰的队友


def _possessed(m: re.Match[str]) -> str | None:
    """The person an ``_EN_POSSESSIVE`` match names, in one English name, if one."""
    words = m.group(1).casefold().split()
    j = 1 if len(words) > 1 and words[0] in _PERSON_ADJ else 0
    while j + 1 < len(words) and _qualifies(words[j], words[j + 1]):
        j += 1
    return _person_en(words[j])


# "with my", "with the user's", "with Anna's" (a match starts at the possessor's last letter).
_EN_WITH = re.compile(r"\bwith\s+(?:the\s+)?[\w-]*$", re.IGNORECASE)
_ZH_WITH = re.compile(r"[和跟与同]$")


@lru_cache(maxsize=8192)
def companions(value: str) -> frozenset[str]:
    """The people of :func:`people` named only as company, after "with" or 和 / 跟 / 与 ("lives
    in Hamburg with the user's boyfriend", 和我老公一起住在上海): the subject's own fact."""
    after_with = [m for m in _EN_POSSESSIVE.finditer(value) if _EN_WITH.search(value[: m.start()])]
    found = {k for m in after_with if (k := _possessed(m)) is not None}
    found |= {_KIN_ZH[m.group(1)] for m in _ZH_PERSON.finditer(value)
              if _ZH_WITH.search(value[: m.start()])}  # fmt: skip
    return frozenset(found)


@lru_cache(maxsize=8192)
def _mentioned(value: str) -> frozenset[str]:
    """Every person (or animal) a statement names, wherever it stands."""
    found = {k for w in re.findall(r"[a-z-]+", value.casefold()) if (k := _person_en(w))}
    return frozenset(found | {v for w, v in _KIN_ZH.items() if w in value})


_FUNCTION = frozenset(
    "the a an i my our his her their your this that these those on in at every each last next "
    "user users today yesterday tomorrow after before when if since during some most all both "
    "we he she they it there here what how one no".split()
)
_EN_SUBJECT = re.compile(r"\s*([A-Z][a-z]+)(?=['’]s\b|\s+[a-z])")


@lru_cache(maxsize=1)
def _given_names() -> frozenset[str]:
    """English given names CC-CEDICT transliterates ("Bob (name)", "Tom (name)")."""
    from app.services.memory.pairs import lexicon

    found = set()
    for defs in lexicon._cedict().values():
        for d in defs:
            m = re.fullmatch(r"(?:\(Tw\)\s*)?([A-Z][a-z]+) \(name\)", d)
            if m is not None:
                found.add(m.group(1).casefold())
    return frozenset(found)


def subject_name(value: str) -> tuple[str, bool] | None:
    """The capitalised word a statement opens with as its subject ("Alice prefers …", "Bob's
    flight …", 张三喜欢…) and whether it is surely a name: a word no dictionary has as a noun,
    a given name, or a person (or animal) in WordNet (Sarah); None for "The", "My", …"""
    from app.services.memory.pairs import lexicon

    if text.has_cjk(value):
        name = persons_zh.opening_name(value)
        return None if name is None else (name, True)
    m = _EN_SUBJECT.match(value)
    if m is None or m.group(1).casefold() in _FUNCTION:
        return None
    word = m.group(1).casefold()
    known = word in lexicon._first_noun_senses() and word not in _given_names()
    return word, not known or _is_person(word)


# ---- which thing: identifiers and ordinals --------------------------------------------------

_ID_NOUN_EN = (
    r"flight|order|ticket|booking|reservation|confirmation|invoice|case|account|policy|claim|"
    r"parcel|package|shipment|tracking|train|bus|issue|bug|card|pr|pull\s+request"
)
_ID_EN = re.compile(
    rf"\b(?:{_ID_NOUN_EN})\s+(?:(?:number|no\.?|num\.?|id|code|ref)\s*)?[:#]?\s*"
    r"([a-z]{0,4}-?\d[a-z0-9-]*)",
    re.IGNORECASE,
)
_ID_NOUN_ZH = r"航班|订单号?|单号|工单|车次|票号|发票|快递单?号?|包裹|账户|账号|保单|案件|卡号"
_ID_ZH = re.compile(
    rf"(?:{_ID_NOUN_ZH})\s*(?:号|编号)?\s*[:：#]?\s*([A-Za-z]{{0,4}}-?\d[A-Za-z0-9-]*)|"
    # (?<!\d): not from inside a run of digits (2,000 digits took 0.3 s, scripts/fuzz_cpu.py)
    rf"(?<!\d)([A-Za-z]{{0,4}}-?\d[A-Za-z0-9-]*+)\s*(?:号|次)?\s*(?:{_ID_NOUN_ZH}|列车)"
)


def identifiers(value: str) -> frozenset[str]:
    """Codes and numbers that name a thing — "flight LH716", "order #1001", 订单1001,
    1001号订单, a member of a sequence ("step 3": :mod:`.sequence`) — not one after a copula."""
    found = {m.group(1).casefold() for m in _ID_EN.finditer(value)}
    found |= {(m.group(1) or m.group(2)).casefold() for m in _ID_ZH.finditer(value)}
    return frozenset(found) | sequence.numbered(value)


# ---- which way ------------------------------------------------------------------------------

_GOAL_EN = re.compile(
    r"\b(?:to|onto)\s+(?:(?:the|a|an|my|his|her|their|our|your)\b|[A-Z])|\b(?:into|towards?)\b"
)
_SOURCE_EN = re.compile(r"\b(?:from|out\s+of)\b", re.IGNORECASE)
_GOAL_ZH = re.compile(r"(?<![过失])去(?![年世])|往|(?<![想收遇做听看感达得找])到|赴")
# 从 as "from a place", not 从不 / 从来 (never), 从事 (engage in), 从小, 从…开始 (since).
_SOURCE_ZH = re.compile(r"从(?![不来未没事小])(?![^，。]{0,12}(?:开始|起))|离开")


def direction(value: str) -> tuple[bool, bool]:
    """Whether a statement names a goal ("to Tokyo", 去东京) and a source ("from Tokyo",
    从东京)."""
    if text.has_cjk(value):
        return bool(_GOAL_ZH.search(value)), bool(_SOURCE_ZH.search(value))
    return bool(_GOAL_EN.search(value)), bool(_SOURCE_EN.search(value))


# ---- how real: modality and tense -----------------------------------------------------------

_EPISTEMIC_EN = re.compile(
    r"\b(?:might|could|perhaps|maybe|possibly|probably|likely\s+to|not\s+sure)\b|\bmay\b(?!\s*\d)"
)
_DESIRE_EN = re.compile(
    r"\b(?:wants?|wanted|wanting|hopes?|hoped|hoping|plans?|planned|planning|intends?|intended|"
    r"intending|wish(?:es)?|wished|aims?|aiming|would\s+(?:like|love)|['’]d\s+(?:like|love)|"
    r"dreams?)\s+(?:to|of|on)\b|\b(?:thinking|thinks|dreaming)\s+(?:about|of)\b|"
    r"\b(?:wants?|wanted|wanting)\s+(?:a|an|another)\b|\bconsider(?:s|ing)?\s+\w+ing\b",
    re.IGNORECASE,
)
_FUTURE_EN = re.compile(
    r"\b(?:will|shall|won['’]t|tomorrow|next\s+(?:week|month|year|weekend|time)|about\s+to|"
    r"(?:is|are|am)\s+(?:due|scheduled|set)\s+to)\b|['’]ll\b",
    re.IGNORECASE,
)
# "going to" and a verb (lower case, not a determiner: "going to Tokyo", "going to the gym").
_GOING_TO = re.compile(
    r"\bgoing\s+to\s+(?!(?:the|a|an|my|his|her|their|our|your|work|school|bed|church)\b)[a-z]+"
)
_PAST_EN = re.compile(
    r"\b(?:did|was|were|had|already|ago|yesterday|last\s+(?:week|month|year|night|weekend|"
    r"summer|winter|spring|autumn|fall|time))\b",
    re.IGNORECASE,
)
_NOT_A_VERB_BEFORE = frozenset(
    "is are am be been being get gets feel feels seem seems become becomes the a an my his "
    "her their our your this that these those".split()
)
_EPISTEMIC_ZH = re.compile(r"可能|也许|或许|大概|说不定|不一定|估计")
_DESIRE_ZH = re.compile(r"想(?![要念起到法象像必着通开好])|打算|计划|准备|梦想|考虑")
_FUTURE_ZH = re.compile(
    r"将要|即将|将(?=[去来到会在要])|要(?![求是么紧不])|明天|后天|下周|下个?月|明年"
)
# Events of a life that happen once ("born on", "got married in"): another date corrects it.
_ONCE = re.compile(r"\b(?:born|birth|died|death|married|passed\s+away)\b|出生|去世|过世|结婚", re.I)
_CORRECTION = re.compile(r"\b(?:actually|in\s+fact|correction|not\s+on)\b|其实|实际上|更正|纠正")
_IRREALIS: frozenset[Mood] = frozenset({"epistemic", "desire", "future"})
Mood = Literal["epistemic", "desire", "future", "past", ""]


def _past_en(value: str) -> bool:
    from app.services.memory.pairs import lexicon

    if _PAST_EN.search(value):
        return True
    tokens = re.findall(r"[a-z]+(?:['’][a-z]+)?", value.casefold())
    wn, pos = lexicon._wordnet(), lexicon._wordnet_pos()
    for k, tok in enumerate(tokens):
        if k == 0 or tokens[k - 1] in _NOT_A_VERB_BEFORE or tokens[k - 1].endswith("'s"):
            continue
        lem = lexicon.lemma(tok)
        if lem == tok or tok.endswith(("s", "ing")):
            continue
        if tok.endswith("ed") and any(s % 4 == 1 for s in wn.get(lem, ())):
            return True  # visited, moved, shipped
        if pos.get(lem) == 1 and lem in wn and lem not in ("be", "have"):
            return True  # went, ran, flew (not "has been": an ongoing state)
    return False


@lru_cache(maxsize=8192)
def moods(value: str) -> frozenset[Mood]:
    """How real a statement says its fact is: ``epistemic`` (might, may, 可能), ``desire``
    (wants to or a, plans to, 想, 打算), ``future`` (will, going to, tomorrow, 要, 明天), ``past``
    (visited, went, was, 过, 已经; 了 unless a future marker comes with it: 要去了). Empty: a
    plain present ("lives in", "is")."""
    found: set[Mood] = set()
    if text.has_cjk(value):
        found |= {"epistemic"} if _EPISTEMIC_ZH.search(value) else set()
        found |= {"desire"} if _DESIRE_ZH.search(value) else set()
        found |= {"future"} if _FUTURE_ZH.search(value) else set()
        past = zh_past.PAST.search(value.replace("了", "") if "future" in found else value)
        return frozenset(found | ({"past"} if past else set()))
    found |= {"epistemic"} if _EPISTEMIC_EN.search(value) else set()
    found |= {"desire"} if _DESIRE_EN.search(value) else set()
    found |= {"future"} if _FUTURE_EN.search(value) or _GOING_TO.search(value) else set()
    return frozenset(found | ({"past"} if _past_en(value) else set()))


def is_day(v: str) -> bool:
    """Whether a canonical value (:mod:`.canonical`) names a day or a span of days: a date,
    a weekday, a week, a month of a year or a year."""
    return v.startswith(("dt", "wd", "wk", "dm")) or (
        v.isdigit() and len(v) == 4 and "1900" <= v <= "2099"
    )


def _dates(value: str) -> frozenset[str]:
    """A statement's dates, weekdays, weeks, months of a year and years."""
    return frozenset(v for v in canonical(value).values if is_day(v))


# ---- the guard ------------------------------------------------------------------------------


def apart(
    new: str, old: str
) -> tuple[Literal["distinct", "unsure", "contradicts"], str, bool] | None:
    """Whether two statements are kept apart: ``(action, reason, merge_allowed)`` — another
    thing, person or direction is ``distinct`` (``other_identifier``, ``other_ordinal``,
    ``other_person``, ``direction_differs``; another holder: :mod:`.holders`); a plan, wish
    or possibility against what happened (``modality_differs``, ``tense_differs``) or a past
    event on another day (``other_event_day``) or one more event of a kind on another day
    (``other_plan_day``: "a dentist appointment on 10 January" / "on 20 June") is ``unsure``
    and never merged; an event moved to another day ("was rescheduled to 20 June", 改到)
    ``contradicts`` the old day (``event_moved``), one called off its event
    (``event_cancelled``); a wish or possibility against a plain present is ``unsure`` and may
    merge ("wants a career in counselling" / "hopes to become a counsellor"). None when
    nothing here tells them apart."""
    ia, ib = identifiers(new), identifiers(old)
    if ia and ib and ia != ib:
        return "distinct", "other_identifier", False
    oa, ob = ordinals(new), ordinals(old)
    if oa and ob and oa != ob:
        return "distinct", "other_ordinal", False
    # Another person's fact ("the user's husband"), unless both name them ("the son is older…")
    pa, pb = people(new), people(old)
    # Company named on one side only ("with the user's boyfriend") is no other holder.
    pa, pb = (pa - companions(new) if not pb else pa), (pb - companions(old) if not pa else pb)
    if (pa ^ pb) - (_mentioned(new) & _mentioned(old)):
        return "distinct", "other_person", False
    if _other_subject(new, old):
        return "distinct", "other_person", False
    (goal_a, source_a), (goal_b, source_b) = direction(new), direction(old)
    if (goal_a and not source_a and source_b and not goal_b) or (
        goal_b and not source_b and source_a and not goal_a
    ):
        return "distinct", "direction_differs", False  # the way out and the way back
    if (change := plans.changed(new, old, _dates(new), _dates(old))) is not None:  # C29, E25
        return change[0], change[1], False  # moved to 20 June, cancelled; 改到明年一月 (flagged)
    ma, mb = moods(new), moods(old)
    for x, y in ((ma, mb), (mb, ma)):
        if x & _IRREALIS and "past" not in x and "past" in y and not y & _IRREALIS:
            reason = "tense_differs" if x & _IRREALIS == {"future"} else "modality_differs"
            return "unsure", reason, False  # will visit / visited, 想去 / 去过
    if ("epistemic" in ma) != ("epistemic" in mb) or ("desire" in ma) != ("desire" in mb):
        return "unsure", "modality_differs", True
    if "past" in ma and "past" in mb and not (ma | mb) & _IRREALIS and _other_day(new, old):
        return "unsure", "other_event_day", False  # ran 5 km on Saturday / 10 km on Sunday
    if _other_day(new, old) and plans.another_one(new, old):
        return "unsure", "other_plan_day", False  # a dentist appointment in January / in June
    if "future" in ma and "future" in mb and _other_day(new, old):
        return "unsure", "other_plan_day", False  # 周一要开会 / 周二要开会 (tester E24)
    return None


def _other_subject(new: str, old: str) -> bool:
    """Each opens with another name as its subject, neither named in the other ("Alice
    prefers …" / "Bob prefers …"; not "Alice reports to Bob" / "Bob reports to Alice")."""
    sa, sb = subject_name(new), subject_name(old)
    if not (sa and sb and (sa[1] or sb[1])) or sa[0] in old.casefold() or sb[0] in new.casefold():
        return False
    return text.has_cjk(sa[0]) == text.has_cjk(sb[0])  # Melanie / 梅兰妮 may be one person


def _other_day(new: str, old: str) -> bool:
    """Two past events on days (dates, weekdays, months, years) with none in common — not a
    once-in-a-life event ("born on") and not a correction ("actually on")."""
    if _ONCE.search(new) or _ONCE.search(old) or _CORRECTION.search(new):
        return False
    da, db = _dates(new), _dates(old)
    return bool(da and db) and not da & db
