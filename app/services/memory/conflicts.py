"""Does a new unit contradict an existing one? And what then? (docs/DEDUPE.md)

Only neighbours at cosine ≥ the model's gate are judged (``CONFLICTS__MIN_COSINE``, per model
in ``CONFLICTS__MIN_COSINE_BY_MODEL``: 0.80 for multilingual-e5-small, whose contradictions
measured 0.87–0.999 and unrelated facts 0.79–0.97; the seeds' 0.70 otherwise). Cosine alone
cannot tell a contradiction from an unrelated fact or a paraphrase with e5-small, so the
verdict comes from the LLM judge when one is configured, else from local rules that say
``contradicts`` only on clear evidence (a false contradiction would hide a true fact):

1. negation flip — the same topic words (negation cues, numbers and "the user" removed;
   dislike/hate → not like) with opposite polarity: "likes cilantro" / "dislikes cilantro";
2. an exclusive slot with two values — lives in, works at, name, age, a named relative,
   "favourite X is", answer style: "lives in Shanghai" / "moved to Beijing"; the same value
   is ``same``;
3. differing numbers in the same sentence frame: "has 2 kids" / "has 3 kids";
4. a one-word swap between antonyms: "concise" / "detailed", "早上" / "晚上";
5. a one-word swap under an exclusive verb: "prefers green tea" / "prefers black tea",
   "会议改到周三" / "会议改到周四" (but "likes apples" / "likes bananas" is unrelated).

A contradiction is resolved by time (:func:`resolve`): the newer unit supersedes the older
(status ``superseded``, ``superseded_by``; kept for history) when their ``occurred_at`` are
more than ``CONFLICTS__ORDER_WINDOW_S`` apart or the new one says it is a change ("moved",
"now", "no longer", "anymore", "搬到", "现在", "不再", "改"); otherwise the order is unclear
and both stay active, each listing the other in ``conflicts_with``. The older unit's
confidence is multiplied by ``CONFLICTS__CONTRADICTED_CONFIDENCE_FACTOR``.

Calibrated on labelled pairs in tests/test_conflicts.py (rates in docs/EXTRACTION.md).
"""

from __future__ import annotations

import logging
import re
import unicodedata
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

import numpy as np
import rjieba

from app.clients.llm import LLMClient
from app.clients.llm_reply import ReplyParseError, parse_json_object
from app.core import text
from app.core.config import ConflictSettings
from app.core.errors import HindsightError
from app.models import MemoryUnit
from app.repositories.memory.units import MemoryRepository, Subject
from app.services.memory.conflict_prompt import build_judge

log = logging.getLogger(__name__)

Verdict = Literal["same", "contradicts", "unrelated"]


@dataclass(frozen=True)
class Judgement:
    """A verdict and its stable reason code (kept in unit metadata for audit)."""

    verdict: Verdict
    reason: str


# ---- local rules ---------------------------------------------------------------------------

_NUM_WORDS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "一": "1", "两": "2", "二": "2",
    "三": "3", "四": "4", "五": "5", "六": "6", "七": "7", "八": "8", "九": "9", "十": "10",
}  # fmt: skip
_ZH_NUM = re.compile(r"([一两二三四五六七八九十]+)(?=个|岁|次|天|年|位|只|本|点)")
_EN_NUM_WORD = re.compile(r"\b(" + "|".join(k for k in _NUM_WORDS if k.isascii()) + r")\b", re.I)
_DIGITS = re.compile(r"\d+(?:[.,]\d+)?")
# Preference verbs folded into one (with negation carried by polarity).
_LIKE_WORDS = {
    "like", "love", "enjoy", "ador", "prefer", "fond", "dislik", "hate", "detest", "loath",
    "喜欢", "爱", "讨厌", "喜爱", "偏爱",
}  # fmt: skip
_NEGATIVE_LIKES = {"dislik", "hate", "detest", "loath", "讨厌"}
_DROP = {"用户", "user", "the", "is", "are", "has", "have", "does", "do", "anymore", "longer",
         "now", "现在", "了", "就", "还", "再"}  # fmt: skip
_NEG_TOKEN = re.compile(
    r"^(?:not|no|never|none|nobody|nothing|neither|nor|without|cannot|can't|don't|doesn't|"
    r"didn't|won't|isn't|aren't|n't|不|没|没有|别|无|非|未|莫|勿|从不|从来不|不再|不想|不能|"
    r"不会|不要|绝不|决不|拒绝)$"
)
_ANTONYMS = [
    {"concis", "detail"}, {"short", "long"}, {"brief", "detail"}, {"short", "detail"},
    {"concis", "verbos"}, {"befor", "after"}, {"morn", "even"}, {"morn", "night"},
    {"earli", "late"}, {"early", "late"}, {"hot", "cold"}, {"spici", "mild"}, {"more", "less"},
    {"alway", "sometim"}, {"alway", "never"}, {"alway", "rare"}, {"light", "dark"},
    {"简洁", "详细"}, {"简短", "详细"}, {"简单", "详细"}, {"早上", "晚上"}, {"上午", "下午"},
    {"总是", "偶尔"}, {"总是", "很少"}, {"早", "晚"}, {"冷", "热"}, {"多", "少"},
]  # fmt: skip
_EXCLUSIVE_CUE = re.compile(
    r"\b(?:prefers?|preferred|favou?rite|usually|always|rescheduled|moved\s+to|switched\s+to)\b|"
    r"更喜欢|最喜欢|偏好|首选|改到|改成|改为|换成|通常|总是",
    re.IGNORECASE,
)
_CHANGE_CUE = re.compile(
    r"\b(?:moved|relocated|now|no\s+longer|anymore|any\s+more|changed|switched|instead|"
    r"these\s+days|nowadays|used\s+to|rescheduled|updated)\b|"
    r"搬到|搬去|现在|不再|改成|改为|改到|换成|如今|已经不|以前",
    re.IGNORECASE,
)

# Exclusive slots: (name, pattern); group 1 is the value. A subject has one value per slot.
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
    ("zh_answer_style", re.compile(r"回答(?:要|请|尽量)?(简洁|简短|简单|详细|具体|详尽)")),
]  # fmt: skip
# Slots whose group 1 names *which* slot (relative, favourite) and group 2 the value.
_KEYED = {"relative", "favourite", "zh_relative", "zh_favourite"}


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
            found[f"{name}:{_fold(groups[0])}"] = _fold(groups[1])
        else:
            key = name.removeprefix("zh_")
            found.setdefault(key, _fold(groups[0]))
    place = found.get("residence")
    if place is not None and text.has_cjk(place) and not _is_place(place):
        del found["residence"]  # "住在公司附近" names no city: not a residence slot
    return found


def _is_place(words: str) -> bool:
    """True when jieba tags one of the words as a place name (ns)."""
    return any(tag == "ns" for _word, tag in rjieba.tag(words))


def numbers(value: str) -> frozenset[str]:
    """Numbers in digits or words ("two", "两个") as digit strings."""
    folded = unicodedata.normalize("NFKC", value)
    found = set(_DIGITS.findall(folded))
    found |= {_NUM_WORDS[w.lower()] for w in _EN_NUM_WORD.findall(folded)}
    for run in _ZH_NUM.findall(folded):
        found.add(_NUM_WORDS.get(run, run))
    return frozenset(found)


_ZH_FOLD = [("讨厌", "不喜欢"), ("不爱", "不喜欢"), ("喜爱", "喜欢"), ("偏爱", "喜欢"),
            ("爱", "喜欢"), ("从来不", "不"), ("从不", "不"), ("没有", "没")]  # fmt: skip
_ZH_STOP_CHARS = set("用户我的了有是在也都很就还再吗呢吧啊从")
_ZH_NEG_CHARS = set("不没别無无非未莫勿")
_WEEKDAYS = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
             "周一", "周二", "周三", "周四", "周五", "周六", "周日", "星期一", "星期二", "星期三",
             "星期四", "星期五", "星期六", "星期日"}  # fmt: skip


@dataclass(frozen=True)
class Topic:
    """What a statement is about: content ``words`` (stems, or jieba words for Chinese;
    numbers, negation cues and filler removed, preference verbs folded to "like"), the
    ``chars`` Chinese overlap is measured on, and its negation ``polarity`` (0/1)."""

    words: frozenset[str]
    chars: frozenset[str]
    polarity: int
    cjk: bool

    def overlap(self, other: Topic) -> float:
        """Jaccard similarity of the two topics (characters for Chinese)."""
        if self.cjk and other.cjk:
            return _jaccard(self.chars, other.chars)
        return _jaccard(self.words, other.words)


def topic(value: str) -> Topic:
    """The :class:`Topic` of a statement."""
    polarity = text.negation_polarity(value)
    folded = unicodedata.normalize("NFKC", value)
    cjk = text.has_cjk(folded)
    if cjk:
        for a, b in _ZH_FOLD:
            folded = folded.replace(a, b)
    folded = _EN_NUM_WORD.sub(" ", _ZH_NUM.sub(" ", folded))
    words: set[str] = set()
    for tok in text.stems(folded):
        if _NEG_TOKEN.match(tok) or any(ch.isdigit() for ch in tok) or tok in _DROP:
            continue
        if cjk and tok[0] in _ZH_NEG_CHARS and len(tok) > 1:
            tok = tok[1:]
        words.add("like" if tok in _LIKE_WORDS else tok)
    chars = frozenset(
        ch for ch in folded
        if text.has_cjk(ch) and ch not in _ZH_STOP_CHARS and ch not in _ZH_NEG_CHARS
    )  # fmt: skip
    return Topic(frozenset(words), chars, polarity, cjk)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _same_value(a: str, b: str) -> bool:
    """Slot values agree: equal, or one a more specific form ("Shanghai" / "Shanghai, China")."""
    return a == b or a.startswith(b + ",") or b.startswith(a + ",")


def judge_local(new_value: str, old_value: str, cosine: float, gate: float,
                min_topic_overlap: float) -> Judgement:  # fmt: skip
    """The local rules (see the module docstring) for a pair at ``cosine``."""
    if cosine < gate:
        return Judgement("unrelated", "cosine_below_gate")
    new_topic, old_topic = topic(new_value), topic(old_value)
    overlap = new_topic.overlap(old_topic)
    if new_topic.polarity != old_topic.polarity and overlap >= min_topic_overlap:
        return Judgement("contradicts", "negation_flip")
    new_slots, old_slots = slots(new_value), slots(old_value)
    shared = new_slots.keys() & old_slots.keys()
    for key in sorted(shared):
        if not _same_value(new_slots[key], old_slots[key]):
            return Judgement("contradicts", f"slot_differs:{key}")
    if shared and new_topic.polarity == old_topic.polarity:
        return Judgement("same", f"slot_equal:{sorted(shared)[0]}")
    if new_topic.polarity != old_topic.polarity:
        return Judgement("unrelated", "different_topic")
    if numbers(new_value) != numbers(old_value) and overlap >= max(0.8, min_topic_overlap):
        return Judgement("contradicts", "numbers_differ")
    only_new = new_topic.words - old_topic.words
    only_old = old_topic.words - new_topic.words
    if len(only_new) == 1 and len(only_old) == 1:
        swap = {*only_new, *only_old}
        if swap in _ANTONYMS:
            return Judgement("contradicts", "antonym_swap")
        if swap <= _WEEKDAYS:
            return Judgement("contradicts", "weekday_swap")
        if _EXCLUSIVE_CUE.search(new_value) and _EXCLUSIVE_CUE.search(old_value):
            return Judgement("contradicts", "exclusive_swap")
    return Judgement("unrelated", "no_conflict_evidence")


def says_change(value: str) -> bool:
    """True when a statement announces a change ("moved to", "no longer", "现在", "不再")."""
    return _CHANGE_CUE.search(value) is not None


# ---- the LLM judge ---------------------------------------------------------------------------


class PairJudge(Protocol):
    """Something that decides same / contradicts / unrelated for a pair (an LLM)."""

    async def judge(self, new_value: str, old_value: str) -> Verdict | None:
        """The verdict, or None when it could not decide (the local rules are used)."""
        ...


class LLMPairJudge:
    """The LLM's same / contradicts / unrelated judgement (docs/DEDUPE.md)."""

    def __init__(self, client: LLMClient) -> None:
        self.client = client

    async def judge(self, new_value: str, old_value: str) -> Verdict | None:
        """One chat call; None on any failure or an answer outside the three verdicts."""
        try:
            reply = await self.client.complete(build_judge(new_value, old_value))
            verdict = str(parse_json_object(reply).get("verdict", "")).strip().lower()
        except (HindsightError, ReplyParseError) as exc:
            log.warning("conflict judge failed, using local rules: %s", exc)
            return None
        return verdict if verdict in ("same", "contradicts", "unrelated") else None  # type: ignore[return-value]


# ---- applying it on the write path ---------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """An existing active unit, its cosine to the new value, and the verdict."""

    unit: MemoryUnit
    cosine: float
    judgement: Judgement


def gate_for(settings: ConflictSettings, model: str) -> float:
    """The cosine gate of an embedding model (its override, else the default)."""
    return settings.min_cosine_by_model.get(model, settings.min_cosine)


class ConflictChecker:
    """Finds the subject's units a new one is the same as or contradicts, and applies the
    outcome; runs inside the store's transaction (under its subject lock)."""

    def __init__(
        self,
        repo: MemoryRepository,
        settings: ConflictSettings,
        model: str,
        judge: PairJudge | None = None,
        neighbours: int = 5,
    ) -> None:
        self.repo = repo
        self.settings = settings
        self.model = model
        self.judge = judge if settings.use_llm else None
        self.neighbours = neighbours

    async def find(self, subject: Subject, value: str, vector: np.ndarray) -> list[Finding]:
        """Verdicts on the nearest active units above the gate (unrelated ones left out)."""
        gate = gate_for(self.settings, self.model)
        found: list[Finding] = []
        for n in await self.repo.nearest_active(subject, vector, self.model, self.neighbours):
            if n.cosine < gate:
                continue
            judgement: Judgement | None = None
            if self.judge is not None:
                verdict = await self.judge.judge(value, n.unit.value)
                if verdict is not None:
                    judgement = Judgement(verdict, "llm")
            if judgement is None:
                judgement = judge_local(
                    value, n.unit.value, n.cosine, gate, self.settings.min_topic_overlap
                )
            if judgement.verdict != "unrelated":
                found.append(Finding(n.unit, n.cosine, judgement))
        return found

    def apply(self, new: MemoryUnit, findings: list[Finding], now: datetime) -> str:
        """Supersede or flag each contradicted unit; returns the store outcome
        (``superseded``, ``conflict`` or ``created``)."""
        outcome = "created"
        for f in findings:
            if f.judgement.verdict != "contradicts":
                continue
            result = resolve(new, f.unit, self.settings, now, reason=f.judgement.reason)
            if result == "superseded" or outcome == "created":
                outcome = result
        return outcome


def resolve(
    new: MemoryUnit, old: MemoryUnit, settings: ConflictSettings, now: datetime, reason: str
) -> str:
    """Record that ``new`` contradicts ``old`` (both mutated in place); returns
    ``superseded`` or ``conflict`` (see the module docstring)."""
    gap = (new.occurred_at - old.occurred_at).total_seconds()
    factor = settings.contradicted_confidence_factor
    audit = {"reason": reason, "at": now.isoformat()}
    if gap > settings.order_window_s or (gap >= 0 and says_change(new.value)):
        old.status = "superseded"
        old.superseded_by = new.id
        old.confidence = round(old.confidence * factor, 4)
        old.updated_at = now
        old.metadata_ = {**old.metadata_, "superseded": {**audit, "by": str(new.id)}}
        new.metadata_ = {**new.metadata_, "supersedes": _ids(new.metadata_, "supersedes", old.id)}
        return "superseded"
    if -gap > settings.order_window_s:  # the new unit describes an older state (a backfill)
        new.status = "superseded"
        new.superseded_by = old.id
        new.confidence = round(new.confidence * factor, 4)
        new.metadata_ = {**new.metadata_, "superseded": {**audit, "by": str(old.id)}}
        return "superseded"
    new.conflicts_with = [*new.conflicts_with, old.id]
    old.conflicts_with = [*old.conflicts_with, new.id]
    old.confidence = round(old.confidence * factor, 4)
    old.updated_at = now
    return "conflict"


def _ids(metadata: dict[str, object], key: str, add: uuid.UUID) -> list[str]:
    existing = metadata.get(key)
    ids = [str(x) for x in existing] if isinstance(existing, list) else []
    return [*ids, str(add)]
