r"""The end of a lasting state said with a verb of its own, no "no longer" in it (tester F3):
"The user quit / stopped / gave up smoking.", 用户戒烟了 against "The user smokes a pack a
day."; "The user is getting a divorce.", "… got divorced", 用户离婚了 against "The user is
married to Tom."; "The user is retired.", "… quit the user's job", 用户退休了 against "The user
works as a nurse."; "The user sold the house.", 用户把房子卖了 against "The user owns a house in
Dover.". :func:`ended` names the kind of state the new statement ends when the old one holds
it, for one holder (:mod:`.holders`); the pair decision calls it a contradiction
(``state_ended:<kind>``) and the write path supersedes the old state
(:func:`app.services.memory.resolution.resolve`: the ending says the change itself), kept for
history. English, Chinese and across the two (a short table of habits, CC-CEDICT's glosses
for things owned). Tester G14: a car sold against the car one drives ("drives a blue Honda
Civic", 开一辆本田思域), a breakup with the partner one is dating ("broke up with Sam" /
"is dating Sam", 和Sam分手了 / 在和Sam约会) and the death of an animal or person the old
statement names as the holder's ("My cat Mochi died" / "has a cat named Mochi",
:func:`died`).

Not an ending: one negated or wished for ("didn't quit", "wants to quit", 想戒烟, 还没退休), an
attempt ("is trying to quit"), another person's ("The user's parents got divorced."), a
state the old statement does not hold ("quit drinking" / "drinks coffee every morning"; "sold
the car" / "owns a house"). Pure.
"""

from __future__ import annotations

import re
from functools import lru_cache

from app.core import text
from app.services.memory.pairs import holders, lapsed, lexicon, referents, rules

REASON = "state_ended"
"""The pair decision's reason prefix for a pair this module tells (``state_ended:<kind>``)."""

# ---- what ends a state -------------------------------------------------------------------------

_OWNER = r"(?:the\s+user['’]s\s+|his\s+|her\s+|their\s+|the\s+|its\s+|my\s+|our\s+)?(?:old\s+)?"
_EN_QUIT = re.compile(
    r"\b(?:quit|quits|quitting|stopped|stops|gave\s+up|given\s+up|gives\s+up|kicked)\s+"
    r"(?:the\s+habit\s+of\s+)?(?:(?P<verb>[a-z]+ing)\b(?:\s+(?P<obj>[a-z]+))?|"
    r"(?P<noun>cigarettes|alcohol|booze|caffeine|coffee|sugar|soda)\b)",
    re.IGNORECASE,
)
_EN_DIVORCE = re.compile(
    r"\b(?:is|are|was|were|got|gets|getting|been|became|now|officially|finally|just|recently)\s+"
    r"(?:(?:a|now|officially|finally|recently)\s+)?divorc(?:ed|ing|e)\b|"
    r"\b(?:filed|filing|files|asked|going\s+through)\s+(?:for\s+)?(?:a\s+)?divorce\b|"
    r"\b(?:the\s+user|[A-Z][a-z]+)\s+divorced\b|\bsplit\s+(?:up\s+)?(?:from|with)\s+(?:the\s+user['’]s\s+|his\s+|"
    r"her\s+|their\s+)(?:wife|husband|spouse)\b",
    re.IGNORECASE,
)
_EN_NO_WORK = re.compile(
    rf"\bretired\b|\bin\s+retirement\b|\b(?:quit|left|lost)\s+{_OWNER}job\b|\blaid\s+off\b|"
    r"\b(?:got|was|been|were)\s+fired\b|\bunemployed\b",
    re.IGNORECASE,
)
# The thing sold is the one owned ("the", "his"): "sold a car" may be another (tester B9 set).
_EN_SOLD = re.compile(
    r"\b(?:sold|gave\s+away|got\s+rid\s+of|scrapped|traded(?:\s+in)?)\s+(?:the\s+user['’]s|his|her|their|the|"
    r"its|my|our)\s+(?:old\s+)?(?P<thing>[a-z]+)\b",
    re.IGNORECASE,
)
_ZH_QUIT = re.compile(r"戒(?:掉了?|了)?(?P<obj>烟|酒|咖啡|奶茶|可乐|糖|游戏|赌|槟榔)")
_ZH_DIVORCE = re.compile(r"离婚|离了婚|离异")
_ZH_NO_WORK = re.compile(
    r"退休|辞职|离职|失业|被裁|被解雇|被开除|辞了工作|丢了工作|辞(?:掉|去)了?[^，。,]{0,8}?(?:工作|职位|职务)"
)
_ZH_SOLD = re.compile(
    r"把(?:我的|自己的|用户的|那|这)?(?:旧)?(?:辆|套|栋|台|间)?(?P<a>[\u4e00-\u9fff]{1,3}?)卖(?:掉)?了|"
    r"卖(?:掉)?了(?:我的|自己的|用户的|那|这)(?:辆|套|栋|台|间)?(?P<b>[\u4e00-\u9fff]{1,3}?)"
    r"(?=[。，,.！!]|$)"
)
# Not an ending: negated, or only tried ("didn't quit", "is trying to quit", 没戒掉, 还没退休).
_EN_NOT = re.compile(
    r"\b(?:not|never|no|didn['’]t|doesn['’]t|don['’]t|hasn['’]t|haven['’]t|isn['’]t|wasn['’]t|"
    r"can['’]t|cannot|couldn['’]t|won['’]t|try|tries|tried|trying|attempt\w*)\b",
    re.IGNORECASE,
)
_ZH_NOT = re.compile(r"不|没|未|别|试着|尝试|努力")
_IRREALIS = frozenset({"epistemic", "desire", "future"})

# ---- what holds a state ------------------------------------------------------------------------

_EN_MARRIED = re.compile(
    r"\bmarried\b|\b(?:has|have|had)\s+an?\s+(?:wife|husband|spouse)\b|\bnewlywed\b", re.I
)
_ZH_MARRIED = re.compile(r"结婚|结了婚|已婚|成家|有(?:老公|老婆|丈夫|妻子)")
_EN_WORKS = re.compile(
    r"\b(?:works?|working)\s+(?:at|for|as|in)\b|\bemployed\b|\bjob\s+(?:at|as)\b", re.IGNORECASE
)
_ZH_WORKS = re.compile(r"工作|上班|任职|就职|在[^，。,]{1,10}当")
_ZH_NOT_WORK = re.compile(r"找工作|求职|应聘|面试")
# Owning now, not a purchase ("bought a car" / "sold the car" may be two cars).
_EN_OWNS = re.compile(r"\b(?:owns?|has|have|user['’]s)\b", re.IGNORECASE)
_ZH_OWNS = re.compile(r"有")
# Driving a vehicle is having it ("drives a blue Honda Civic": "sold the car"), unless the
# vehicle named is another kind than a car (a bus, a truck: maybe the job's).
_EN_DRIVES = re.compile(r"\b(?:drives|drive|driving)\s+(?:a|an|the|his|her|their|my)\b", re.I)
_CARS = frozenset({"car", "vehicle", "auto", "automobile"})
_NOT_CARS = frozenset("bus truck taxi cab van lorry tractor forklift train tram motorcycle".split())
_ZH_DRIVES = re.compile(r"开(?:一|着)?辆|开[^，。,不没]{0,8}车")
_ZH_CARS = frozenset({"车", "汽车", "轿车", "小车"})
_EN_HOLD_NOT = re.compile(r"\b(?:not|never|no\s+longer|quit|stopped|gave\s+up)\b|n['’]t\b", re.I)
_ZH_HOLD_NOT = re.compile(r"不|没|戒|别|未")
# Habits across the two languages: what 戒 ends, as English stems (Snowball).
_HABITS_XL: dict[str, frozenset[str]] = {
    "烟": frozenset({"smoke", "smoker", "cigarett", "tobacco"}),
    "酒": frozenset({"alcohol", "booz", "beer", "wine", "liquor", "whiski", "whisky", "drinker"}),
    "咖啡": frozenset({"coffe", "caffein"}),
    "糖": frozenset({"sugar"}),
}
# Bare "drinking" ends drinking alcohol, not every drink: the old statement must say which.
_ALCOHOL = frozenset({"alcohol", "booz", "beer", "wine", "liquor", "whiski", "whisky", "drinker"})
# What "quit <thing>" ends, as stems of the old statement ("quit cigarettes" / "smokes").
_NOUNS: dict[str, frozenset[str]] = {
    "cigarettes": frozenset({"smoke", "smoker", "cigarett"}), "alcohol": _ALCOHOL,
    "booze": _ALCOHOL, "caffeine": frozenset({"caffein", "coffe"}),
    "coffee": frozenset({"coffe"}), "sugar": frozenset({"sugar"}), "soda": frozenset({"soda"}),
}  # fmt: skip
_TIME_WORDS = frozenset("year month week day night morning time ago last now".split())


def ended(new: str, old: str) -> str | None:
    """The kind of state (``habit``, ``marriage``, ``work``, ``ownership``, ``relationship``,
    ``allergy``) that ``new`` says its holder left and ``old`` says the same holder is in;
    None when there is none (see the module docstring)."""
    if not _same_holder(new, old) or _IRREALIS & referents.moods(new):
        return None
    zh_new, zh_old = text.has_cjk(new), text.has_cjk(old)
    if (_ZH_NOT if zh_new else _EN_NOT).search(new):
        return None
    if (_ZH_HOLD_NOT if zh_old else _EN_HOLD_NOT).search(old):
        return None  # the old statement holds no state ("doesn't smoke", 不抽烟)
    if _habit(new, old, zh_new, zh_old):
        return "habit"
    if (_ZH_DIVORCE if zh_new else _EN_DIVORCE).search(new) and (
        _ZH_MARRIED if zh_old else _EN_MARRIED
    ).search(old):
        return "marriage"
    if (_ZH_NO_WORK if zh_new else _EN_NO_WORK).search(new) and _works(old, zh_old):
        return "work"
    if _sold(new, old, zh_new, zh_old):
        return "ownership"
    if _broke_up(new, old, zh_new, zh_old):
        return "relationship"
    if _outgrown(new, old, zh_new, zh_old):
        return "allergy"
    if lapsed.recovered(new, old, zh_new, zh_old):  # 有哮喘 / 小时候有哮喘，现在已经好了
        return "condition"
    if lapsed.left_group(new, old, zh_new, zh_old):  # a member of a forum / left the forum
        return "membership"
    return None


# An allergy outgrown or gone ("outgrew the sesame allergy", "got over the user's hay fever
# allergy", 对芝麻的过敏已经好了, 芝麻过敏痊愈了) against one held: the allergen word named in both.
_EN_OUTGROWN = re.compile(
    r"\b(?:outgrew|outgrown|outgrows|grew\s+out\s+of|got\s+over|recovered\s+from|"
    r"was\s+cured\s+of|is\s+cured\s+of)\s+(?:the\s+user['’]s\s+|his\s+|her\s+|their\s+|"
    r"my\s+|the\s+|an?\s+)?(?P<what>(?:[a-z-]+\s+){0,3}?)(?:allergy|allergies)\b",
    re.IGNORECASE,
)
_ZH_OUTGROWN = re.compile(
    r"(?:对|用户|我)(?P<what>[^，。,.的对]{1,6}?)的?过敏(?:症)?(?:已经|都|终于|基本)?"
    r"(?:好了|痊愈|治好|消失|没了|不见了)"
)
_EN_ALLERGIC = re.compile(r"\ballerg(?:y|ies|ic)\b", re.IGNORECASE)


def _outgrown(new: str, old: str, zh_new: bool, zh_old: bool) -> bool:
    """``new`` says an allergy ``old`` holds is gone, one language, the allergen ``new`` names
    (if any) named in ``old`` too."""
    if zh_new != zh_old:
        return False
    m = (_ZH_OUTGROWN if zh_new else _EN_OUTGROWN).search(new)
    if m is None or ("过敏" not in old if zh_old else _EN_ALLERGIC.search(old) is None):
        return False
    what = m.group("what").strip().casefold()
    if zh_new:
        return bool(what) and what in old
    held = text.stems(old)
    return not what or bool(text.stems(what) & held)


# A breakup with a named partner, and a relationship with them (tester G14: "broke up with
# Sam" left "The user is dating Sam" current; unnamed, rules.relationship_ended flags it).
_EN_BROKE_UP = re.compile(
    r"\b(?:broke|split|breaks|splits|breaking|splitting)\s+up\s+with\s+([A-Z][\w'’-]*)|"
    r"\b(?:the\s+user\s+and\s+([A-Z][\w'’-]*)|([A-Z][\w'’-]*)\s+and\s+the\s+user)\s+"
    r"(?:have\s+|had\s+)?(?:broke|broken|split)\s+up\b"
)
_ZH_BROKE_UP = re.compile(
    r"(?:和|跟|与)([^，。,的]{1,12}?)(?:已经|早就|终于|刚刚?|最近)?分手|([^，。,的]{1,12}?)和用户分手"
)
_EN_DATING = re.compile(
    r"\b(?:dating|seeing|together\s+with|in\s+a\s+relationship\s+with|girlfriend|boyfriend|"
    r"partner|engaged\s+to)\b",
    re.I,
)
_ZH_DATING = re.compile(r"约会|交往|谈恋爱|在一起|男朋友|女朋友|男友|女友|对象|订婚")


def broke_up(new: str, old: str) -> bool:
    """``new`` breaks up with the partner ``old`` names (one language, by name): read before
    what each is about (用户的女朋友叫林悦 / 用户和林悦已经分手了: no other holder)."""
    zh_new, zh_old = text.has_cjk(new), text.has_cjk(old)
    return zh_new == zh_old and _same_user(new, old) and _broke_up(new, old, zh_new, zh_old)


def _same_user(new: str, old: str) -> bool:
    """``new`` opens with the user, ``old`` with the user or the user's partner."""
    return _holder(new) == "user" and _holder(old) in _PARTNERS


_PARTNERS = frozenset(
    {"user"}
    | {f"user:{p}" for p in "girlfriend boyfriend partner wife husband fiance fiancee".split()}
)


def _broke_up(new: str, old: str, zh_new: bool, zh_old: bool) -> bool:
    """``new`` breaks up with a partner ``old`` says its holder is dating, by name."""
    m = (_ZH_BROKE_UP if zh_new else _EN_BROKE_UP).search(new)
    name = next((g for g in m.groups() if g), "") if m is not None else ""
    if not name or name.casefold() not in old.casefold():
        return False
    return (_ZH_DATING if zh_old else _EN_DATING).search(old) is not None


# A death, and an old statement naming the one who died as the holder's: "has a cat named
# Mochi", "the user's cat is called Mochi", 有一只叫Mochi的猫, 用户的猫叫Mochi.
_EN_DIED = re.compile(
    r"\b(?:died|passed\s+away|was\s+put\s+down|was\s+put\s+to\s+sleep|is\s+dead)\b"
)
_ZH_DIED = re.compile(r"去世|死了|死掉|病死|过世|走了|离世")
_EN_HAS = re.compile(
    r"\b(?:has|have|owns|adopted|got)\s+(?:an?|one|two|three)\s+[\w\s-]{1,30}?\s+"
    r"(?:named|called)\s+([A-Z][\w'’-]*)|\b(?:the\s+user|[A-Z][a-z]+)['’]s\s+[\w\s-]{1,30}?\s+"
    r"(?:is\s+)?(?:named|called)\s+([A-Z][\w'’-]*)|\b([A-Z][\w'’-]*)\s+is\s+the\s+user['’]s\s+\w+"
)
_ZH_HAS = re.compile(
    r"(?:有|养了?)(?:一|两|几)?[只条个匹头]?叫([^，。,的]{1,12})的|的[^，。,]{1,6}叫([^，。,]{1,12})"
)


def died(new: str, old: str) -> bool:
    """``new`` says someone died whom ``old`` names as its holder's (an animal or a person:
    "My cat Mochi died last week" / "The user has a cat named Mochi"; 用户的猫Mochi去世了 /
    用户有一只叫Mochi的猫): the old state no longer holds. Not negated, wished or feared
    ("didn't die", "might die", 没死), nor an old statement that already tells the death."""
    zh_new, zh_old = text.has_cjk(new), text.has_cjk(old)
    if zh_new != zh_old or (_ZH_DIED if zh_new else _EN_DIED).search(old) is not None:
        return False
    if (_ZH_DIED if zh_new else _EN_DIED).search(new) is None or _IRREALIS & referents.moods(new):
        return False
    if (_ZH_NOT if zh_new else _EN_NOT).search(new):
        return False
    m = (_ZH_HAS if zh_old else _EN_HAS).search(old)
    name = next((g for g in m.groups() if g), "") if m is not None else ""
    if m is None or len(name) < 2 or name.casefold() not in new.casefold():
        return False
    return zh_old or not any(_a_person(w) for w in re.findall(r"\b[a-z]+\b", m.group(0)))


def _a_person(word: str) -> bool:
    """A noun whose first WordNet sense is a person (sister, friend; not cat, the user): a
    person's name outlives them ("The user's sister is named Rose")."""
    first = lexicon._first_noun_senses().get(word)
    if not first or word == "user":
        return False
    return lexicon._descends(first[0], ("person",))


# The user and a partner as one subject ("The user and Tom got married", "Tom and the user
# got divorced", 用户和汤姆结婚了).
_WITH_USER = re.compile(
    r"^\W*(?:the\s+user\s+and\s+(?:[A-Z]|the\s+user['’]s\s)|(?:[A-Z][a-z]+|the\s+user['’]s\s+"
    r"(?:wife|husband|partner|spouse))\s+and\s+the\s+user\b|用户(?:和|跟|与))"
)


def _holder(value: str) -> str | None:
    """Whose state a statement tells (:func:`.holders.holder`; the user and a partner: the
    user's)."""
    return "user" if _WITH_USER.match(value) else holders.holder(value)


def _same_holder(new: str, old: str) -> bool:
    """Both statements are one holder's: the user, or one person named first."""
    a, b = _holder(new), _holder(old)
    if a is not None or b is not None:
        return a == b
    first_a, first_b = new.split(maxsplit=1)[:1], old.split(maxsplit=1)[:1]
    return bool(first_a) and first_a == first_b and not text.has_cjk(first_a[0])


def _habit(new: str, old: str, zh_new: bool, zh_old: bool) -> bool:
    """``new`` gives up a habit ``old`` has: the same verb (and the same thing, when the
    ending names one), or through :data:`_HABITS_XL` across the languages."""
    held = text.stems(old) if not zh_old else frozenset()
    if zh_new:
        m = _ZH_QUIT.search(new)
        if m is None:
            return False
        obj = m.group("obj")
        return obj in old if zh_old else bool(held & _HABITS_XL.get(obj, frozenset()))
    m = _EN_QUIT.search(new)
    if m is None:
        return False
    if m.group("noun"):
        wanted = _NOUNS.get(m.group("noun").casefold(), frozenset())
    else:
        verb = next(iter(text.stems(m.group("verb"))), "")
        obj = (m.group("obj") or "").casefold()
        thing = obj if obj and not text.is_stop_word(obj) and obj not in _TIME_WORDS else ""
        if thing and lexicon.main_pos(lexicon.lemma(thing)) != 0:
            thing = ""  # "stopped smoking completely": no thing named
        if zh_old:
            return any(verb in stems and z in old for z, stems in _HABITS_XL.items())
        if not ({verb, verb + "r", verb + "er"} & held):
            return False
        if thing:
            return bool(text.stems(thing) & held)
        return verb != "drink" or bool(held & _ALCOHOL)  # "drinks coffee" is no drinking
    if zh_old:
        return any(wanted & stems and z in old for z, stems in _HABITS_XL.items())
    return bool(wanted & held)


def _works(old: str, zh_old: bool) -> bool:
    """Whether ``old`` says its holder works (an employer, an occupation, "works at")."""
    slots = rules.slots(old)
    if "employer" in slots or "occupation" in slots:
        return True
    if zh_old:
        return _ZH_WORKS.search(old) is not None and _ZH_NOT_WORK.search(old) is None
    return _EN_WORKS.search(old) is not None


def _sold(new: str, old: str, zh_new: bool, zh_old: bool) -> bool:
    """``new`` sold (or gave away) a thing ``old`` says its holder owns: the same noun, or
    across the languages a Chinese thing whose CC-CEDICT glosses name the English one."""
    if zh_new:
        m = _ZH_SOLD.search(new)
        thing = (m.group("a") or m.group("b")) if m is not None else None
        if not thing:
            return False
        if zh_old:
            if thing in _ZH_CARS and _ZH_DRIVES.search(old) is not None:
                return True  # 把车卖了 / 开一辆本田思域
            return thing in old and _ZH_OWNS.search(old) is not None
        return _owns_en(old, _zh_things(thing))
    m = _EN_SOLD.search(new)
    if m is not None and m.group("thing")[:1].isupper() and not zh_old:  # sold the Mazda
        return m.group("thing") in re.findall(r"[\w-]+", old) and (
            _drives_a_car(old) or _EN_OWNS.search(old) is not None
        )
    if m is None or lexicon.main_pos(lexicon.lemma(m.group("thing").casefold())) != 0:
        return False
    thing = lexicon.lemma(m.group("thing").casefold())
    if zh_old:
        if _ZH_OWNS.search(old) is None:
            return False
        return any(thing in _zh_things(w) for w in _zh_words(old))
    if thing not in _CARS and _drives_a_car(old):  # traded the Corolla / drives a Corolla (H26)
        return thing in re.findall(r"[a-z]+", old.casefold())
    return _owns_en(old, frozenset({thing})) or (thing in _CARS and _drives_a_car(old))


def _drives_a_car(old: str) -> bool:
    """Whether an English ``old`` says its holder drives a car ("drives a blue Honda Civic";
    not "drives a bus")."""
    m = _EN_DRIVES.search(old)
    if m is None:
        return False
    after = {lexicon.lemma(w) for w in re.findall(r"[a-z]+", old[m.end() :].casefold())[:6]}
    return not after & _NOT_CARS


def _owns_en(old: str, things: frozenset[str]) -> bool:
    """Whether an English ``old`` says its holder owns one of ``things`` (lemmas)."""
    m = _EN_OWNS.search(old)
    if m is None:
        return False
    after = re.findall(r"[a-z]+", old[m.end() :].casefold())
    return any(lexicon.lemma(w) in things for w in after[:6])


@lru_cache(maxsize=1024)
def _zh_things(word: str) -> frozenset[str]:
    """The English nouns a Chinese word's glosses name (房子 → house, apartment, …)."""
    return lexicon.glosses(word) | lexicon.gloss_heads(word)


def _zh_words(value: str) -> list[str]:
    """The words after 有 in a Chinese statement (up to three characters each)."""
    m = _ZH_OWNS.search(value)
    rest = value[m.end() :] if m is not None else ""
    rest = re.sub(r"^(?:一|两|\d+)?(?:辆|套|栋|台|间|只|个|部)?", "", rest)
    return [rest[:k] for k in (1, 2, 3) if len(rest) >= k]
