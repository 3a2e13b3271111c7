"""A second look at pairs the other readings leave apart or open (issue 28, seventeenth run):
two general readings of a change, each on the same holder (:func:`_same_holder`) and the
same thing — a content word of the old statement, no number, matched by the new one
(:func:`.lexical.align`: lemmas, synonyms, CC-CEDICT glosses), beyond the subject:

- :func:`ceased`: the new statement says the old one's state, habit or plan stopped — a word
  of stopping (no longer, anymore, stopped, quit, dropped, deleted, sold, 不再, 已经不, 停掉,
  退订, 取消, 没了, a verb negated and closed with 了: 不去大理了; "left" only what the old
  statement places its holder in) against an old statement that tells no finished event —
  or that what the old one tells did not happen ("didn't make it … after all", "instead of
  making pizza"): "goes running" / "doesn't run anymore", 在办讲座 / 已经不办讲座了; not on one
  occasion ("today", 今天不想吃辣了);
- :func:`replaced`: the new statement says a change — a verb of changing a value (raised,
  upped, pushed, swapped, switched, 改, 换成, 提前, 推迟) — and a value or a thing only the old
  statement has and one only the new one has are of one type (:func:`_types`: two days, two
  numbers, two names, two nouns under one WordNet class, or two words before the same word):
  "contributes 6%" / "raised … to 10%", 电信500兆 / 换成联通的千兆, "on 23 March" / "got pushed
  to April"; with a word of time alone ("now", 现在) two numbers (存三千 / 现在能存五千了).

Both are ``unsure`` and flagged as possible contradictions (:func:`.gate.flags_contradiction`:
reasons ``given_up:ceased`` and ``values_changed_elsewhere:replaced``), never merged: a person
or the LLM decides. They are asked only of pairs the decision would otherwise leave unsure
for no reason a person reviews, or keep apart as another person's, another tense or
modality, another direction or another day (:data:`REVISITED`). Pure."""

from __future__ import annotations

import re
from functools import lru_cache

import rjieba

from app.core import text
from app.services.memory.pairs import gate, lexical, lexicon, referents, rules, taxonomy
from app.services.memory.pairs.features import Features, Statement

CEASED = "given_up:ceased"
REPLACED = "values_changed_elsewhere:replaced"
# The guards' reasons a second look may turn into a flag (None: no guard held).
REVISITED = frozenset(
    {
        None,
        "other_person",
        "other_holder",
        "tense_differs",
        "modality_differs",
        "direction_differs",
        "other_event_day",
        "values_differ_elsewhere",
    }
)

# A state, habit or plan stopped — not after "never" ("never stopped"), nor a value dropped
# ("dropped 5 kg": a change of amount), nor "dropped off", "stopped by" (a visit).
_STOPPED_EN = re.compile(
    r"(?<!never\s)\b(?:no\s+longer|any\s*more|no\s+more|stopped(?!\s+(?:by|at|in|off|over)\b)|"
    r"stops|quit|quits|gave\s+up|given\s+up|dropped(?!\s+(?:off|by|in|out|\d))|deleted|"
    r"uninstalled|unsubscribed|cancell?ed|called\s+off|closed|shut\s+down|sold|"
    r"got\s+rid\s+of|gave\s+away|done\s+with)\b",
    re.IGNORECASE,
)
_STOPPED_ZH = re.compile(
    r"不再|已经不(?![错少久])|不用再|别再|停掉|停了|停止|退订|取消|没了|戒了|退出|卖掉|卖了|扔了|送人了|"
    r"不(?![错少久])[\u4e00-\u9fff]{1,6}了|(?<![特区分个级告类性识差辨鉴判离送道])别[\u4e00-\u9fff]{1,6}了"
)  # not inside 特别, 区别, 告别…, nor 不错了, 不少了, 不久了 (more, not less)
# Left what the old statement places its holder in, at or with (lives in a care home).
_LEFT = re.compile(r"(?<!it\s)(?<!which\s)(?<!that\s)\bleft\s+(?:the|their|his|her|its|my|our)\b")
_PLACED = re.compile(r"\b(?:lives?|living|stays?|member|works?|in|at)\b|住在|在", re.IGNORECASE)
# What was told did not happen, or happened otherwise: read against any old statement.
_UNDONE = re.compile(
    r"\b(?:after\s+all|instead\s+of\s+\w+ing|ended\s+up|didn['’]?t\s+make\s+it|"
    r"did\s+not\s+make\s+it)\b",
    re.IGNORECASE,
)
# One occasion: says nothing about the habit ("today", 今天不想吃辣了).
_ONE_OCCASION = re.compile(
    r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening|time))\b|今天|今晚|这次|这回",
    re.IGNORECASE,
)
# Verbs that change a value or a thing (not "now", "these days": :func:`replaced`).
_CHANGE_VERB = re.compile(
    r"\b(?:raised|upped|increased|decreased|lowered|reduced|cut|bumped|pushed|moved|"
    r"swapped|replaced|changed|switched|shifted|rescheduled|postponed|relocated)\b|"
    r"改|换成|换了|转到|转向|调到|调成|变成|提前|推迟|延到|延期",
    re.IGNORECASE,
)
# One thing given for another: what the old statement names, swapped for a thing it does not.
_SWAPPED = re.compile(r"\b(?:swapped|traded|exchanged|replaced)\b|换掉|换成", re.IGNORECASE)
_DAY_WORDS = frozenset(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday spring summer autumn fall "
    "winter weekend week month year morning evening afternoon night".split()
)
_ZH_DAY = re.compile(r"[年月周日号天]|星期|春|夏|秋|冬")
_ZH_NAME_TAGS = ("nr", "ns", "nt", "nz", "eng")
_DEEP = 5  # a WordNet class at this depth or below is one type (town, village: settlement)
_BACK = re.compile(r"\b(?:their|his|her)\b|用户")
_EN_OPENING = re.compile(
    r"^\s*(?:[Tt]he\s+user['’]s|[A-Z][\w-]*['’]s|[Mm]y|[Oo]ur)\s+([a-z][\w-]*)"
)
_ORDINAL = re.compile(r"^\d+(?:st|nd|rd|th)$")


def _stops(value: str) -> bool:
    found = _STOPPED_EN.search(value) or (text.has_cjk(value) and _STOPPED_ZH.search(value))
    return bool(found)


def _ceases(new: str, old: str) -> bool:
    """The new statement stops what the old one holds, or says it did not happen."""
    if _UNDONE.search(new):
        return True
    if _ONE_OCCASION.search(new) and not _ONE_OCCASION.search(old):
        return False
    stops = _stops(new) or (_LEFT.search(new) is not None and _PLACED.search(old) is not None)
    return stops and "past" not in referents.moods(old)


def _anchored(new: str, old: str, names: bool = False) -> lexical.Alignment | None:
    """The alignment of the two when a content word of the old statement that is no number
    or date is matched by the new one (beyond the subject: a name both give past the old
    statement's first word counts with ``names``, "prefers to be contacted on Telegram" /
    "deleted Telegram"; a thing stopped, not a frame filled again), else None."""
    a = lexical.align(new, old)
    if names and set(_capitals(old)) & set(_capitals(new)):
        return a
    numbers = [
        w
        for w in lexical.content_words(old).words
        if any(c.isdigit() for c in w) and w not in a.unmatched_b
    ]
    return a if a.n_b - len(a.unmatched_b) - len(numbers) >= 1 else None


def _capitals(value: str) -> list[str]:
    return re.findall(r"(?<!^)(?<![.!?]\s)\b([A-Z][\w-]*)", value)


@lru_cache(maxsize=4096)
def _opening(value: str) -> tuple[str, str | None]:
    """Whose the statement is and what it is about first: ``("self", None)`` (the user, a
    name), ``("person", p)`` after a possessive naming a person (the user's grandmother,
    用户老婆), ``("thing", w)`` after a possessive naming no person (the user's reading lamp)."""
    if text.has_cjk(value):
        people = referents.people(value[:10])
        if people:
            return "person", min(people)
        tokens = [t for t, _ in rjieba.tag(value[:12])]
        if len(tokens) > 2 and tokens[1] == "的" and len(tokens[0]) >= 2:
            return "thing", tokens[2]  # 用户的车, 乔恩的舞团
        return "self", None
    m = _EN_OPENING.match(value)
    if m is None:
        return "self", None
    word = m.group(1).casefold()
    people = referents.people(" ".join(value.split()[:6]))  # "guitar teacher": a person
    person = min(people) if people else referents._person_en(word.rpartition("-")[2])
    return ("person", person) if person else ("thing", word)


def _same_holder(new: str, old: str) -> bool:
    """Both are about the same holder first: the same opening (the user / the user; the
    user's grandmother / the user's grandmother), or the new one opens with a person acting
    on the old one's holder or thing, which it names again ("The user's doctor has upped
    their amlodipine", "The user's landlord raised the rent", 医生说用户老婆的预产期…) — not
    another person's ("The user's brother doesn't play tennis anymore") nor a thing of the
    holder's that stopped ("The user's reading lamp stopped working")."""
    on, oo = _opening(new), _opening(old)
    if on == oo:
        return True
    if on[0] == "person" and oo[0] == "person":
        return False  # the user's grandmother / the user's great-aunt
    rest = new if on[0] == "self" else new.split("'s", 1)[-1] if not text.has_cjk(new) else new[2:]
    if (on[1] and on[1] in old.casefold()) or (oo[1] and oo[1] in rest.casefold()):
        return True  # John's family / John and his family; Joanna's thriller / her thriller
    return on[0] == "person" and _BACK.search(rest) is not None


def ceased(f: Features, new: Statement, old: Statement) -> bool:
    """See the module docstring: the new statement stops what the old one says."""
    if not _ceases(new.value, old.value) or old.polarity:
        return False
    if _stops(old.value) or _UNDONE.search(old.value):  # both say it stopped
        return False
    if rules.says_change(old.value):  # "moved from Denver" / "left Denver": told already
        return False
    anchored = _anchored(new.value, old.value, names=True) is not None
    return anchored and _same_holder(new.value, old.value)


def replaced(f: Features, new: Statement, old: Statement) -> bool:
    """See the module docstring: a change, and one value or thing replaced by another of its
    type; with a word of time alone ("now", 现在), a number by a number."""
    verb = _CHANGE_VERB.search(new.value) is not None
    if not (verb or rules.says_change(new.value)) or not _same_holder(new.value, old.value):
        return False
    a = _anchored(new.value, old.value)
    if a is None:
        return False
    gone = [*(f.values_old - f.values_new), *a.unmatched_b]
    came = [*(f.values_new - f.values_old), *a.unmatched_a]
    if not verb:
        numbers = [v for v in f.values_old - f.values_new if _types(v, old.value) == {"number"}]
        return bool(numbers) and any(
            _types(v, new.value) == {"number"} for v in f.values_new - f.values_old
        )
    kinds = {k for w in gone for k in _types(w, old.value)}
    if any(kinds & _types(w, new.value) for w in came):
        return True
    if _SWAPPED.search(new.value) and a.things_a and _named_again(new.value, old.value):
        return True  # "is an iPhone 12" / "swapped their iPhone 12 for a Pixel 8"
    return _modifier_swapped(a, new.value, old.value)


@lru_cache(maxsize=16384)
def _types(word: str, value: str) -> frozenset[str]:
    """The types of one word or canonical value of ``value`` (see the module docstring):
    ``day``, ``number``, ``name``, or ``class:<offset>`` for each WordNet class at depth
    :data:`_DEEP` or deeper above its first two noun senses (a Chinese word's through its
    CC-CEDICT glosses); empty for other words (verbs, adjectives)."""
    w = word.casefold()
    if re.fullmatch(r"[a-z]+\d[a-z\d]*", w) and not w.startswith("dt"):
        return frozenset({"name"})  # O2, X1: a model or a brand
    if any(c.isdigit() for c in w):
        kind = "day" if w.startswith("dt") else "ordinal" if _ORDINAL.match(w) else "number"
        return frozenset({kind})
    if w in _DAY_WORDS or (text.has_cjk(w) and _ZH_DAY.search(w) and _tag(w) == "t"):
        return frozenset({"day"})
    if text.has_cjk(w):
        tag = _tag(w)
        if tag.startswith(_ZH_NAME_TAGS):
            return frozenset({"name"})
        if tag == "m":
            return frozenset({"number"})
        if not tag.startswith("n"):
            return frozenset()  # 换成: a verb, whatever its glosses
        nouns = [g for g in lexicon.glosses(w) if taxonomy.is_noun(g)]
    else:
        if w in lexical.content_words(value).names or lexicon.main_pos(w) is None:
            return frozenset({"name"})
        nouns = [w] if taxonomy.is_noun(w) else []
    out: set[str] = set()
    for noun in nouns[:3]:
        for s in taxonomy.noun_senses(noun, 2):
            out |= {f"class:{c}" for c in taxonomy.noun_ancestors(s) | {s}
                    if taxonomy.noun_depth(c) >= _DEEP}  # fmt: skip
    return frozenset(out)


def _named_again(new: str, old: str) -> bool:
    """A name or number of the old statement is in the new one too (iPhone 12)."""
    named = set(_capitals(old)) | set(re.findall(r"\d+", old))
    return bool(named & (set(_capitals(new)) | set(re.findall(r"\d+", new))))


def _tag(word: str) -> str:
    tags = rjieba.tag(word)
    return tags[0][1] if len(tags) == 1 else ""


def _modifier_swapped(a: lexical.Alignment, new: str, old: str) -> bool:
    """A word only one side has stands right before the same word as a word only the other
    side has (得分后卫 / 控球后卫): another kind of one thing, in Chinese (English:
    :func:`.frames.kind_swapped`)."""
    if not (text.has_cjk(new) and text.has_cjk(old)):
        return False
    after_new = _followers(new, frozenset(a.unmatched_a))
    return bool(after_new & _followers(old, frozenset(a.unmatched_b)))


def _followers(value: str, words: frozenset[str]) -> frozenset[str]:
    tokens = [t for t, _ in rjieba.tag(value)]
    return frozenset(b for x, b in zip(tokens, tokens[1:], strict=False) if x in words)


# At most this many content words of a side unmatched by the other (the most among the
# development pairs the readings catch: 6): a chat turn or a paragraph says many things, and
# some word of one type is always left on each side (the LoCoMo ingest, 2026-12-07).
_MOST_UNMATCHED = 6


def _one_statement(new: str, old: str) -> bool:
    """Two statements of one fact each, not transcript turns ("Caroline: Yeah, I'm really
    lucky…", :func:`.gate.speaker`) nor texts with many words the other does not say."""
    if gate.speaker(new) is not None or gate.speaker(old) is not None:
        return False
    a = lexical.align(new, old)
    return max(len(a.unmatched_a), len(a.unmatched_b)) <= _MOST_UNMATCHED


def below(new: str, old: str) -> bool:
    """Whether a pair under the candidate gate in two languages may be read here: the new
    statement stops or changes something the old one names (用户把 Spotify 退订了 / "is on
    Spotify Duo")."""
    if text.has_cjk(new) == text.has_cjk(old):
        return False
    says = _ceases(new, old) or _CHANGE_VERB.search(new) is not None
    return says and _one_statement(new, old) and _anchored(new, old, names=True) is not None


def revisit(reason: str | None, f: Features, new: Statement, old: Statement) -> str | None:
    """The flagged reason (:data:`CEASED`, :data:`REPLACED`) of a pair whose guard
    ``reason`` (None: no guard held) is in :data:`REVISITED`, when a reading holds; else None."""
    if reason not in REVISITED or not _one_statement(new.value, old.value):
        return None
    if ceased(f, new, old):
        return CEASED
    if replaced(f, new, old):
        return REPLACED
    return None
