"""Word lists and patterns the pair features use: exclusive slots (a subject has one value:
lives in, works at, name, age, a named relative, "favourite X is", answer style), antonym pairs,
cues of exclusivity and of change, and the synonyms folded before comparing words.

Pure data and pure functions: no I/O. Calibrated on tests/dedupe_pairs.py (docs/DEDUPE.md).
"""

from __future__ import annotations

import re
import unicodedata

import rjieba

from app.core import text
from app.services.memory.pairs import ways

# ---- exclusive slots -------------------------------------------------------------------------

_CAP = r"([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*(?:,\s*[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*)?)"
_SLOTS: list[tuple[str, re.Pattern[str]]] = [
    ("residence", re.compile(
        rf"\b(?:lives?|living|resides?|based|settled)\s+in\s+{_CAP}|"
        rf"\bhome\s+is\s+(?:now\s+)?in\s+{_CAP}|"  # tester hbreak10 L1
        rf"\b(?:moved|relocated)\s+(?:back\s+)?to\s+{_CAP}")),
    ("employer", re.compile(rf"\b(?:works?|working)\s+(?:at|for)\s+{_CAP}|"
                            rf"\bemployed\s+(?:at|by)\s+{_CAP}|\bjoined\s+{_CAP}|"
                            rf"\b(?:got|found|landed|started|starts|accepted|took|began|begins)\s+"
                            rf"(?:a|the|his|her|their|my)\s+new\s+(?:job|position|role)\s+"
                            rf"(?:at|with)\s+{_CAP}")),  # "got a new job at Siemens" (H14)
    ("name", re.compile(
        rf"\b(?:user's\s+name\s+is|user\s+is\s+called|call\s+the\s+user)\s+{_CAP}")),
    ("age", re.compile(r"\b(?:is|turned)\s+(\d{1,3})\s+years?\s+old\b")),
    ("relative", re.compile(
        rf"\b(?:user's\s+)?(wife|husband|partner|son|daughter|mother|father|sister|brother)"
        rf"(?:'s\s+name)?\s+is\s+(?:called\s+|named\s+)?{_CAP}")),
    # A thing or animal of someone's and its one name ("The user's cat is called Mochi",
    # "Joanna's stuffed toy dog is named Tilly"): one value, as a relative's name is; keyed by
    # the whole phrase ("other cat" is not "cat"); not "has a dog named Shadow" (one of
    # several: no possessive).
    ("named", re.compile(
        rf"(?:\b(?:my|his|her|their|our|your)|['’]s)\s+((?:[a-z][\w-]*\s+){{0,3}}?[a-z][\w-]*)"
        rf"(?:['’]s\s+name)?\s+is\s+(?:called|named)\s+{_CAP}")),
    ("favourite", re.compile(r"\bfavou?rite\s+(\w+(?:\s+\w+){0,2})\s+is\s+([\w' -]+?)(?:[.,;]|$)",
                             re.IGNORECASE)),  # "favourite style of dance is …"
    # what one enjoys most, keyed by its verb ("enjoys action movies the most", 最爱喝普洱,
    # 最喜欢用钢琴弹《星球大战》的主题曲; 现在更爱: a new favourite)
    ("favourite", re.compile(r"\b(enjoys?|likes?|loves?)\s+([\w' -]+?)\s+(?:the\s+most|best|"
                             r"most\s+of\s+all)\b", re.IGNORECASE)),
    ("zh_favourite", re.compile(r"(?:最|现在更)(?:喜欢|爱)"
                                r"([^\s，。,.的]{0,5}?[弹喝吃看听玩读唱穿用去])"
                                r"([^\s，。,.的][^\s，。,.]{0,14})")),
    ("main", re.compile(r"\b(?:main|primary|default)\s+(\w+(?:\s+\w+)?)\s+is\s+([\w' -]+?)"
                        r"(?:[.,;]|$)", re.IGNORECASE)),
    ("answer_style", re.compile(
        r"\b(?:prefers?|wants?|likes?)\s+(short|brief|concise|succinct|detailed|long|thorough|"
        r"in-depth)\s+(?:answers?|replies|responses|explanations?)", re.IGNORECASE)),
    ("zh_residence", re.compile(
        r"(?:住在|居住在|定居在|定居于|生活在|搬到了?|搬去了?|搬回了?)"
        r"([^\s，。,.的]{2,8}?)(?=了?(?:[，。,.！!]|现在|$)|工作|生活)")),  # 搬到上海了
    ("zh_employer", re.compile(r"在([^\s，。,.]{2,10}?)找到了?(?:一份)?新的?(?:工作|岗位)|"
                               r"(?:在|就职于|入职了?)([^\s，。,.]{2,10}?)(?:工作|上班|任职)|"
                               r"跳槽(?:去|到)了?([^\s，。,.]{2,10}?)(?=[，。,.]|$)|"
                               r"(?:在|就职于)\s*([A-Za-z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*)\s*(?:做|当)\s*[A-Za-z]")),
    # "在 Google 做 software engineer": a company spelt in Latin letters, then a job
    ("school", re.compile(
        rf"\b(?:stud(?:y|ies|ying|ied)|enrolled)\s+(?:\w+\s+)?(?:at|in)\s+{_CAP}|"
        rf"\b(?:goes|go|going|went)\s+to\s+(?:school|college|university)\s+(?:in|at)\s+{_CAP}")),
    ("zh_school", re.compile(
        r"在([^\s，。,.的]{2,8}?)(?:读大学|上大学|读书|上学|念书|读研|读博|留学)")),
    ("zh_name", re.compile(r"^用户(?:叫|的名字是)([^\s，。,.]{1,8})")),
    ("zh_relative", re.compile(
        r"用户的(儿子|女儿|老婆|妻子|丈夫|老公|妈妈|爸爸|母亲|父亲)叫([^\s，。,.]{1,6})")),
    # 用户的柯基叫豆豆, 乔安娜的毛绒小狗叫蒂莉: a thing or animal of someone's and its name
    # (not 老板叫他加班: "told him to")
    ("zh_named", re.compile(r"的([^\s，。,.的叫]{1,6})叫(?![他她我你它])\s*"
                            r"([^\s，。,.]{1,4}|[A-Za-z][\w-]*)(?=[，。,.]|$)")),
    ("zh_favourite", re.compile(r"最喜欢的([^\s，。是]{1,8})是([^\s，。,.]{1,12})")),
    ("zh_main", re.compile(r"(?:主要|默认)的?([^\s，。是]{1,8})是([^\s，。,.]{1,12})")),
    ("zh_answer_style", re.compile(r"回答(?:要|请|尽量)?(简洁|简短|简单|详细|具体|详尽)")),
    ("answer_language", re.compile(r"\b(?:answer|reply|respond)\s+in\s+([A-Z][a-z]+)\b")),  # H25
    ("zh_answer_language", re.compile(r"用(\S{1,3}?[文语])来?(?:回答|回复|答复)")),  # 用中文回答
]  # fmt: skip
# Slots whose group 1 names *which* slot (relative, favourite) and group 2 the value.
_KEYED = {"relative", "named", "favourite", "main"}
_KEYED |= {f"zh_{k}" for k in _KEYED}


def _fold(value: str) -> str:
    return unicodedata.normalize("NFKC", value).casefold().strip(" .,，。")


# A place of work or a group that moved or is based somewhere: not the holder's home ("Our
# office moved to Berlin" superseded "The user lives in Munich"), 公司搬到了柏林.
_WORKPLACE_MOVED = re.compile(
    r"\b(?:office|company|firm|team|headquarters|hq|business|startup|employer|store|shop|"
    r"restaurant|lab|department|factory|studio|workplace|school|church|club|gym)s?\s+"
    r"(?:(?:has|have|had|was|were|is|are|just|recently|finally|officially|now|been)\s+){0,3}"
    r"(?:moved|relocated|based|located|settled)\b|"
    r"(?:办公室|公司|团队|总部|工厂|店|实验室|部门|学校|单位)[^，。,]{0,4}?(?:搬到|搬去|搬回|迁到|迁往)",
    re.IGNORECASE,
)


def slots(value: str) -> dict[str, str]:
    """The exclusive slots a statement fills, e.g. ``{"residence": "shanghai"}``."""
    found: dict[str, str] = {}
    for name, pattern in _SLOTS:
        m = pattern.search(value)
        if m is None:
            continue
        groups = [g for g in m.groups() if g]
        if not groups:
            continue
        if name in _KEYED and len(groups) >= 2:
            found[f"{name.removeprefix('zh_')}:{_fold(groups[0])}"] = _fold(groups[1])
        else:
            found.setdefault(name.removeprefix("zh_"), _fold(groups[0]))
    place = found.get("residence")
    if place is not None and text.has_cjk(place) and not _is_place(place, ("ns", "nr", "nrt")):
        del found["residence"]  # "住在公司附近" names no city: not a residence slot
    elif place is not None and _WORKPLACE_MOVED.search(value):
        del found["residence"]  # "Our office moved to Berlin": not a home (tester G14)
    school = found.get("school")
    if (
        school is not None
        and text.has_cjk(school)
        and not _is_place(school)
        and not school.endswith(("大学", "学院", "学校", "中学", "小学"))
    ):
        del found["school"]  # "在家读书": no school named
    from app.services.memory.pairs.employers import employer_by_job

    for name, value_of in (
        ("occupation", _occupation),
        ("commute", ways.commute),
        ("seat", ways.seat),
        ("employer", employer_by_job),
    ):
        v = value_of(value)
        if v:
            found.setdefault(name, v)
    return found


# ---- slots a word list decides ---------------------------------------------------------------

_EN_JOB = re.compile(
    r"\b(?:(?:works?|working|worked)\s+as|promoted\s+to)\s+(?:an?\s+)?"
    r"(?P<job>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"
    r"(?=\s+(?:at|for|in|with|on|and|from)\b|[.,;!]|$)|"
    r"\b(?:is|am|i'm|'m)\s+an?\s+(?P<role>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"
    r"(?=\s+(?:at|for|in|with|on|and|from|by)\b|[.,;!]|$)",
    re.IGNORECASE,
)
_ZH_JOB = re.compile(
    r"(?:^|用户|我|他|她)(?:的工作)?(?:是|当|做)(?:一名|一个|一位|名|个|位)?(?P<role>[^\s，。,.的]{2,6})(?=[，。,.]|$)"
)


def _occupation(value: str) -> str | None:
    """The occupation a statement gives its subject ("works as a nurse", "is a data analyst",
    "用户是护士"): any job after "works as", else a noun WordNet files under an occupation
    (:func:`~app.services.memory.pairs.lexicon.is_occupation`: "is a vegetarian" is none)."""
    from app.services.memory.pairs import lexicon  # the word lists load on first use

    folded = _fold(value)
    m = _EN_JOB.search(folded)
    if m is not None:
        if m.group("job"):
            return m.group("job")
        role = m.group("role")
        words = [lexicon.lemma(w) for w in role.split()]
        if lexicon.is_occupation("_".join(words)) or lexicon.is_occupation(words[-1]):
            return role
    m = _ZH_JOB.search(folded)
    if m is not None:
        role = m.group("role")
        last = [w for w, _tag in rjieba.tag(role)][-1]
        if lexicon.is_occupation(role) or lexicon.is_occupation(last):
            return role
    return None


def _is_place(words: str, tags: tuple[str, ...] = ("ns",)) -> bool:
    """True when jieba tags one of the words as a place name (ns; a home also a name it
    mistakes for a person's: 搬到了马德里, tester G9)."""
    return any(tag in tags for _word, tag in rjieba.tag(words))


def same_slot_value(a: str, b: str) -> bool:
    """Slot values agree: equal, one a more specific form ("Shanghai" / "Shanghai, China"), or
    one the other with words after it that only say what kind of place or company it names
    (北京 / 北京市, 谷歌 / 谷歌公司, "Google" / "Google Inc": :func:`_kind_tail`)."""
    if a == b or a.startswith(b + ",") or b.startswith(a + ","):
        return True
    short, long_ = sorted((a, b), key=len)
    if text.has_cjk(short) != text.has_cjk(long_):
        return False
    if not text.has_cjk(short):
        return _EN_KIND_TAIL.sub("", a).strip() == _EN_KIND_TAIL.sub("", b).strip() != ""
    return len(short) >= 2 and long_.startswith(short) and _kind_tail(long_[len(short) :])


# A legal form or a word naming the kind of firm or place after an English name.
_EN_KIND_TAIL = re.compile(
    r"(?:,?\s+(?:inc|incorporated|ltd|limited|llc|plc|corp|corporation|co|company|gmbh|ag|"
    r"group|city))+\.?$"
)
# CC-CEDICT definitions that name only a kind of place or firm (市: "city", 公司: "company",
# 集团: "group", 省: "province", 有限公司: "limited company").
_KIND_GLOSS = re.compile(
    r"^(?:\(\w+\)\s+)?(?:limited\s+)?(?:city|municipality|province|county|district|prefecture|"
    r"company|corporation|firm|enterprise|group|conglomerate)$"
)


def _kind_tail(tail: str) -> bool:
    """Whether a Chinese tail is one or two words, each of which CC-CEDICT defines (among its
    definitions) as only a kind of place or firm: 市, 省, 县, 公司, 集团, 有限公司 — not 大学
    (a university is another thing than the city it is named for)."""
    from app.services.memory.pairs import lexicon  # the word lists load on first use

    words = [tail] if tail in lexicon._cedict() else [w for w, _tag in rjieba.tag(tail)]
    return 0 < len(words) <= 2 and all(
        any(_KIND_GLOSS.match(d.strip().casefold()) for d in lexicon._cedict().get(w, ()))
        for w in words
    )


# ---- words -----------------------------------------------------------------------------------

# Stems (Snowball) or jieba words folded into one representative before comparing words.
SYNONYMS: dict[str, str] = {}
for _rep, _words in {
    "like": "like love enjoy ador fond 喜欢 爱 喜爱 热爱",
    "prefer": "prefer want wish 希望 想要 偏好",
    "live": "live resid base 住 居住 生活",
    "work": "work employ 工作 就职 上班 任职",
    "name": "name call 叫 名叫",
    "learn": "learn studi 学 学习",
    "child": "kid child children 孩子 小孩",
    "answer": "answer repli respons 回答 回复",
    "每": "每 每个",
}.items():
    for _w in _words.split():
        SYNONYMS[_w] = _rep
# Chinese words rewritten before characters are compared (characters, not jieba words,
# measure Chinese overlap: segmentation differs between close sentences).
ZH_REWRITES: tuple[tuple[str, str], ...] = (
    ("喜爱", "喜欢"),
    ("热爱", "喜欢"),
    ("爱", "喜欢"),
    ("居住", "住"),
    ("就职于", "在"),
    ("任职", "工作"),
    ("上班", "工作"),
    ("名叫", "叫"),
    ("学习", "学"),
    ("每个", "每"),
    ("正在", "在"),
    ("想要", "希望"),
    ("从来不", "不"),
    ("从不", "不"),
    ("没有", "没"),
)
# Words that carry nothing for the comparison (besides the tokenizer's stop words).
FILLER = frozenset(
    "user currently realli veri also now longer anymor there "
    "正在 在 要 都 了 就 还 很 非常 目前".split()
)
# Negation cues, removed from topic words (the polarity carries them).
NEGATION_TOKEN = re.compile(
    r"^(?:not|no|never|none|nobody|nothing|neither|nor|without|cannot|can't|don't|doesn't|"
    r"didn't|won't|isn't|aren't|n't|don|doesn|didn|isn|aren|wasn|weren|won|dislik|hate|quit|"
    r"stop|不|没|没有|别|无|非|未|莫|勿|从不|"
    r"从来不|不再|不想|不能|不会|不要|绝不|决不|拒绝|讨厌)$"
)
ANTONYMS: tuple[frozenset[str], ...] = tuple(frozenset(p) for p in (
    ("concis", "detail"), ("short", "long"), ("brief", "detail"), ("short", "detail"),
    ("concis", "verbos"), ("befor", "after"), ("morn", "evening"), ("morn", "night"),
    ("earli", "late"), ("early", "late"), ("hot", "cold"), ("spici", "mild"), ("more", "less"),
    ("alway", "sometim"), ("alway", "never"), ("alway", "rare"), ("light", "dark"),
    ("简洁", "详细"), ("简短", "详细"), ("简单", "详细"), ("早上", "晚上"), ("上午", "下午"),
    ("总是", "偶尔"), ("总是", "很少"), ("早", "晚"), ("冷", "热"), ("冷水澡", "热水澡"),
    ("多", "少"), ("older", "younger"), ("大", "小"),
))  # fmt: skip
EXCLUSIVE_CUE = re.compile(
    r"\b(?:prefers?|preferred|favou?rite|usually|always|rescheduled|moved\s+to|switched\s+to|"
    r"main|primary|default|wants?\s+the)\b|"
    r"更喜欢|最喜欢|偏好|首选|改到|改成|改为|换成|通常|总是|主要|默认|想要",
    re.IGNORECASE,
)
_CHANGE_CUE = re.compile(
    r"\b(?:moved|relocated|now|no\s+longer|anymore|any\s+more|changed|switched|instead|"
    r"these\s+days|nowadays|used\s+to|rescheduled|updated|quit|postponed|pushed\s+back|"
    r"brought\s+forward|put\s+off|cancell?ed|called\s+off|promoted)\b|"
    # a new job says the old one ended ("got a new job at Siemens", 在腾讯找到了新工作)
    r"\bnew\s+(?:job|position|role|employer)\b|新的?(?:工作|岗位|东家)|"
    r"搬到|搬去|现在|不再|改成|改为|改到|换成|如今|已经不|以前|推迟|延期|改期|延后|提前到|取消|升职|晋升|跳槽|"
    # a value gone up or down, or what is left of a count (降到三千六, 只剩一条)
    r"[涨降升]到|[涨降]为|只剩",
    re.IGNORECASE,
)
# Words around which two statements may swap sides without changing meaning (A is B).
SYMMETRIC_PIVOTS = frozenset({"is", "are", "was", "were", "be", "是", "and", "和", "与"})


# People other than the subject (Snowball stems, and Chinese characters of kinship words): a
# slot filled beside one of them on one side only is that person's, not the subject's.
_RELATIONS = frozenset(
    "mother father mom dad parent sister brother sibl son daughter wife husband partner "
    "friend boss colleagu cousin uncl aunt grandmoth grandfath grandpar neighbour neighbor "
    "roommat girlfriend boyfriend fianc fiancé".split()
)
_RELATION_CHARS = frozenset("妈母爸父姐妹哥弟儿妻夫婆公友姨叔舅伯爷奶")


def names_a_relation(words: frozenset[str]) -> bool:
    """Whether some word (stem; or Chinese character) names another person: a relative, a
    friend, a colleague."""
    return any(w in _RELATIONS or (len(w) == 1 and w in _RELATION_CHARS) for w in words)


# Words that only mark a change or a count beside another value (stems; Chinese characters):
# "has just one cat now" against "has two cats" is the same frame (tester D26).
CHANGE_WORDS = frozenset("now just onli still current anymor 现 在 只 了 剩 下 就 目 前".split())
# The period of an amount (stems), which a change may leave out: "The user's salary is now
# $90,000." against "… is $80,000 a year." (tester K20) is the same frame.
_PERIODS = frozenset("year month week hour annual annuali monthli yearli weekli hourli".split())


def only_change_words(new: frozenset[str], old: frozenset[str]) -> bool:
    """Two frames (role words without values) differ only by words that mark a change or a
    count ("now", "just", 现在, 只: "has two cats" / "has just one cat now"), and by the period
    of an amount when one side names none ("is now $90,000" / "is $80,000 a year")."""
    rest = (new ^ old) - CHANGE_WORDS
    return not rest or (rest <= _PERIODS and not (new & _PERIODS and old & _PERIODS))


# A relationship said to have ended, and one an old statement holds (tester D26: "We broke up"
# against "The user is dating Sam": the partner is not named, so it is flagged, not superseded).
_ENDED = re.compile(
    r"\bno\s+longer\s+(?:in\s+a\s+relationship|dating|together|engaged|married)\b|"
    r"\b(?:broke|split)\s+up\b|\b(?:called|broke|call|break)\s+off\s+(?:\w+\s+)?engagement\b|"
    r"\b(?:got\s+)?divorced\b|不再在?谈恋爱|分手|离婚|解除(?:了)?婚约|退婚",
    re.IGNORECASE,
)
_TOGETHER = re.compile(
    r"\b(?:dating|girlfriend|boyfriend|in\s+a\s+relationship|seeing\s+someone|together\s+with|"
    r"engaged|married|fianc[ée]e?)\b|"
    r"谈恋爱|男朋友|女朋友|男友|女友|交往|对象|订婚|结婚|已婚|未婚[夫妻]",
    re.IGNORECASE,
)
# Without a partner: "The user is single", 用户目前单身 (not "a single room", 单身公寓).
_SINGLE = re.compile(
    r"\b(?:is|am|are|been|stays?|remains?|still|currently|now)\s+single\b(?!\s+[a-z])|"
    r"单身(?![公宿派汉狗])",
    re.IGNORECASE,
)


def relationship_ended(new: str, old: str) -> bool:
    """True when ``new`` says a relationship ended and ``old`` holds one (module comment), or
    one side says the subject is single and the other holds a relationship ("is single" /
    "got married", 单身 / 开始谈恋爱 / "engaged to Priya" / "called off their engagement"),
    in either order: one relationship status replaced by another."""
    if _ENDED.search(new) and _TOGETHER.search(old) and not _ENDED.search(old):
        return True
    for a, b in ((new, old), (old, new)):
        if (
            _SINGLE.search(a)
            and not _TOGETHER.search(a)
            and _TOGETHER.search(b)
            and not _ENDED.search(b)
            and not _SINGLE.search(b)
        ):
            return True
    return False


def two_homes(new: str, old: str) -> bool:
    """Each statement names the holder's home, and not the same one ("moved to Lisbon in 2023"
    / "moved to Madrid in March 2025"): one home replaced, not two events (tester G9)."""
    a, b = slots(new).get("residence"), slots(old).get("residence")
    return a is not None and b is not None and not same_slot_value(a, b)


def says_change(value: str) -> bool:
    """True when a statement announces a change ("moved to", "no longer", "现在", "不再")."""
    return _CHANGE_CUE.search(value) is not None
