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

# ---- exclusive slots -------------------------------------------------------------------------

_CAP = r"([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*(?:,\s*[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*)?)"
_SLOTS: list[tuple[str, re.Pattern[str]]] = [
    ("residence", re.compile(
        rf"\b(?:lives?|living|resides?|based|settled)\s+in\s+{_CAP}|"
        rf"\b(?:moved|relocated)\s+(?:back\s+)?to\s+{_CAP}")),
    ("employer", re.compile(rf"\b(?:works?|working)\s+(?:at|for)\s+{_CAP}|"
                            rf"\bemployed\s+(?:at|by)\s+{_CAP}|\bjoined\s+{_CAP}")),
    ("name", re.compile(
        rf"\b(?:user's\s+name\s+is|user\s+is\s+called|call\s+the\s+user)\s+{_CAP}")),
    ("age", re.compile(r"\b(?:is|turned)\s+(\d{1,3})\s+years?\s+old\b")),
    ("relative", re.compile(
        rf"\b(?:user's\s+)?(wife|husband|partner|son|daughter|mother|father|sister|brother)"
        rf"(?:'s\s+name)?\s+is\s+(?:called\s+|named\s+)?{_CAP}")),
    ("favourite", re.compile(r"\bfavou?rite\s+(\w+(?:\s+\w+)?)\s+is\s+([\w' -]+?)(?:[.,;]|$)",
                             re.IGNORECASE)),
    ("main", re.compile(r"\b(?:main|primary|default)\s+(\w+(?:\s+\w+)?)\s+is\s+([\w' -]+?)"
                        r"(?:[.,;]|$)", re.IGNORECASE)),
    ("answer_style", re.compile(
        r"\b(?:prefers?|wants?|likes?)\s+(short|brief|concise|succinct|detailed|long|thorough|"
        r"in-depth)\s+(?:answers?|replies|responses|explanations?)", re.IGNORECASE)),
    ("zh_residence", re.compile(
        r"(?:住在|居住在|定居在|定居于|生活在|搬到了?|搬去了?|搬回了?)"
        r"([^\s，。,.的]{2,8}?)(?=[，。,.]|现在|$|工作|生活)")),
    ("zh_employer", re.compile(r"(?:在|就职于|入职了?)([^\s，。,.]{2,10}?)(?:工作|上班|任职)")),
    ("zh_name", re.compile(r"^用户(?:叫|的名字是)([^\s，。,.]{1,8})")),
    ("zh_relative", re.compile(
        r"用户的(儿子|女儿|老婆|妻子|丈夫|老公|妈妈|爸爸|母亲|父亲)叫([^\s，。,.]{1,6})")),
    ("zh_favourite", re.compile(r"最喜欢的([^\s，。是]{1,8})是([^\s，。,.]{1,12})")),
    ("zh_main", re.compile(r"(?:主要|默认)的?([^\s，。是]{1,8})是([^\s，。,.]{1,12})")),
    ("zh_answer_style", re.compile(r"回答(?:要|请|尽量)?(简洁|简短|简单|详细|具体|详尽)")),
]  # fmt: skip
# Slots whose group 1 names *which* slot (relative, favourite) and group 2 the value.
_KEYED = {"relative", "favourite", "main", "zh_relative", "zh_favourite", "zh_main"}


def _fold(value: str) -> str:
    return unicodedata.normalize("NFKC", value).casefold().strip(" .,，。")


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
    if place is not None and text.has_cjk(place) and not _is_place(place):
        del found["residence"]  # "住在公司附近" names no city: not a residence slot
    return found


def _is_place(words: str) -> bool:
    """True when jieba tags one of the words as a place name (ns)."""
    return any(tag == "ns" for _word, tag in rjieba.tag(words))


def same_slot_value(a: str, b: str) -> bool:
    """Slot values agree: equal, or one a more specific form ("Shanghai" / "Shanghai, China")."""
    return a == b or a.startswith(b + ",") or b.startswith(a + ",")


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
    r"these\s+days|nowadays|used\s+to|rescheduled|updated|quit)\b|"
    r"搬到|搬去|现在|不再|改成|改为|改到|换成|如今|已经不|以前",
    re.IGNORECASE,
)
# Words around which two statements may swap sides without changing meaning (A is B).
SYMMETRIC_PIVOTS = frozenset({"is", "are", "was", "were", "be", "是", "and", "和", "与"})


def says_change(value: str) -> bool:
    """True when a statement announces a change ("moved to", "no longer", "现在", "不再")."""
    return _CHANGE_CUE.search(value) is not None
