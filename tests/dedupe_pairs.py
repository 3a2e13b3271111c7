"""The labelled pairs that calibrate dedupe (docs/DEDUPE.md), shared by
``tests/test_dedupe_calibration.py`` and ``scripts/calibrate_dedupe.py`` (→ docs/DEDUPE.md).

Each pair is (existing unit, new unit) about one subject, labelled:

- ``normalised``: the same text up to case, whitespace, punctuation, full/half width — must
  always merge;
- ``paraphrase``: the same fact in other words — merging is wanted (the duplicate-merge rate),
  but a miss only leaves a duplicate row;
- ``negation``, ``contradiction`` (another value, swapped roles, another frequency),
  ``unrelated`` (another fact about the same user) — must never merge (the false-merge rate).

Hard cases are in on purpose: swapped roles that share every word ("Alice reports to Bob" /
"Bob reports to Alice", cosine 0.995), one-character Chinese substitutions (绿茶/红茶 0.981,
有空/没空 0.994), and unrelated Chinese facts that e5-small finds close (0.91–0.96).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from app.core.config import DedupeSettings
from app.services.memory.dedupe import Verdict, same_memory

Label = Literal["normalised", "paraphrase", "negation", "contradiction", "unrelated"]
LABELS: tuple[Label, ...] = ("normalised", "paraphrase", "negation", "contradiction", "unrelated")
MUST_MERGE: frozenset[str] = frozenset({"normalised"})
MUST_NOT_MERGE: frozenset[str] = frozenset({"negation", "contradiction", "unrelated"})


@dataclass(frozen=True)
class Pair:
    """An existing unit's value, a new unit's value, and what the new one is to the old."""

    label: Label
    lang: Literal["en", "zh"]
    old: str
    new: str
    old_entities: tuple[str, ...] = ()
    new_entities: tuple[str, ...] = ()


def _p(label: Label, lang: Literal["en", "zh"], old: str, new: str, **kw: tuple[str, ...]) -> Pair:
    return Pair(label, lang, old, new, **kw)


PAIRS: tuple[Pair, ...] = (
    # --- normalised-equal: must merge --------------------------------------------------
    _p("normalised", "en", "The user is allergic to peanuts.", "the user is allergic to peanuts"),
    _p("normalised", "en", "User prefers window seats", "  User   prefers window seats!  "),
    _p("normalised", "en", "Call me Sam.", "CALL ME SAM"),
    _p("normalised", "en", "ＡＰＩ key rotates monthly", "API key rotates monthly."),
    _p("normalised", "en", "The user's order is SKU-42", "The user's order is sku 42."),
    _p("normalised", "en", "The budget is $500.", "the budget is $500"),
    _p("normalised", "zh", "用户住在上海。", "用户住在上海"),
    _p("normalised", "zh", "用户喜欢喝绿茶！", "用户喜欢喝绿茶!"),
    _p("normalised", "zh", "用户的股票代码是６００５１９", "用户的股票代码是600519"),
    _p("normalised", "zh", "用户 对 花生 过敏", "用户对花生过敏。"),
    _p("normalised", "zh", "会议在１０：３０开始", "会议在10:30开始。"),
    # --- paraphrase: merging wanted ------------------------------------------------------
    _p("paraphrase", "en", "My favorite color is blue", "My favourite colour is blue"),
    _p("paraphrase", "en", "The user prefers window seats", "The user prefers a window seat"),
    _p("paraphrase", "en", "The user prefers dark mode", "The user prefers the dark mode"),
    _p(
        "paraphrase",
        "en",
        "The user organizes weekly meetings",
        "The user organises weekly meetings",
    ),
    _p("paraphrase", "en", "The user travels on Fridays", "On Fridays the user travels"),
    _p("paraphrase", "en", "The user works at Google", "The user is employed by Google"),
    _p("paraphrase", "en", "The user is vegetarian", "The user doesn't eat meat"),
    _p("paraphrase", "en", "The user has two kids", "The user has 2 kids"),
    _p("paraphrase", "en", "The user likes hiking", "The user enjoys hiking"),
    _p("paraphrase", "en", "The user likes spicy food", "The user loves spicy food"),
    _p("paraphrase", "en", "The user likes jazz music", "The user likes jazz"),
    _p("paraphrase", "en", "The user is allergic to peanuts", "The user has a peanut allergy"),
    _p("paraphrase", "en", "The user's manager is Alice", "Alice is the user's manager"),
    _p(
        "paraphrase",
        "en",
        "The user prefers short answers",
        "Short answers are preferred by the user",
    ),
    _p("paraphrase", "en", "The user is 34 years old", "The user is thirty-four years old"),
    _p("paraphrase", "zh", "用户的生日是5月3日", "用户生日是5月3日"),
    _p("paraphrase", "zh", "用户在谷歌工作", "用户就职于谷歌"),
    _p("paraphrase", "zh", "用户喜欢喝绿茶", "用户爱喝绿茶"),
    _p("paraphrase", "zh", "用户住在上海", "用户居住在上海"),
    _p("paraphrase", "zh", "用户每周五出差", "用户每个星期五出差"),
    _p("paraphrase", "zh", "用户对花生过敏", "用户花生过敏"),
    _p("paraphrase", "zh", "用户希望用中文回复", "请用中文回复用户"),
    _p("paraphrase", "zh", "用户是素食者", "用户吃素"),
    _p("paraphrase", "zh", "用户喜欢爵士乐", "用户喜欢听爵士乐"),
    _p("paraphrase", "zh", "用户明天去北京出差", "用户明天要去北京出差"),
    # --- negation: must not merge --------------------------------------------------------
    _p("negation", "en", "I like cilantro", "I don't like cilantro"),
    _p(
        "negation",
        "en",
        "The user wants email notifications",
        "The user does not want email notifications",
    ),
    _p("negation", "en", "The user drinks coffee", "The user never drinks coffee"),
    _p(
        "negation",
        "en",
        "The user is available on weekends",
        "The user is not available on weekends",
    ),
    _p("negation", "en", "The user can eat gluten", "The user cannot eat gluten"),
    _p("negation", "en", "The user has a car", "The user has no car"),
    _p("negation", "en", "The user likes cilantro", "The user dislikes cilantro"),
    _p("negation", "zh", "我喜欢香菜", "我不喜欢香菜"),
    _p("negation", "zh", "用户喜欢香菜", "用户不喜欢香菜"),
    _p("negation", "zh", "用户喝咖啡", "用户不喝咖啡"),
    _p("negation", "zh", "用户有车", "用户没有车"),
    _p("negation", "zh", "用户周末有空", "用户周末没空"),
    _p("negation", "zh", "用户想要邮件提醒", "用户不想要邮件提醒"),
    _p("negation", "zh", "用户吃辣", "用户从不吃辣"),
    # --- contradiction: must not merge ---------------------------------------------------
    _p("contradiction", "en", "The user lives in Berlin", "The user lives in Munich"),
    _p("contradiction", "en", "The user prefers green tea", "The user prefers black tea"),
    _p("contradiction", "en", "The user has 2 kids", "The user has 3 kids"),
    _p("contradiction", "en", "The user has two kids", "The user has three kids"),
    _p(
        "contradiction", "en", "The user's flight leaves at 9am", "The user's flight leaves at 10am"
    ),
    _p("contradiction", "en", "The user's budget is $500", "The user's budget is $5000"),
    _p("contradiction", "en", "The price limit is 3.5 dollars", "The price limit is 35 dollars"),
    _p(
        "contradiction",
        "en",
        "The user's favourite stock is 600519",
        "The user's favourite stock is 000858",
    ),
    _p("contradiction", "en", "The user's code is SKU-42", "The user's code is SKU-43"),
    _p(
        "contradiction",
        "en",
        "The user prefers tea over coffee",
        "The user prefers coffee over tea",
    ),
    _p("contradiction", "en", "Alice reports to Bob", "Bob reports to Alice"),
    _p("contradiction", "en", "The user is Alice's boss", "Alice is the user's boss"),
    _p(
        "contradiction",
        "en",
        "The user's flight goes from Beijing to Shanghai",
        "The user's flight goes to Beijing from Shanghai",
    ),
    _p(
        "contradiction",
        "en",
        "The user's son is older than the daughter",
        "The user's daughter is older than the son",
    ),
    _p("contradiction", "en", "The user works before lunch", "The user works after lunch"),
    _p(
        "contradiction",
        "en",
        "The user always takes the train",
        "The user sometimes takes the train",
    ),
    _p("contradiction", "en", "The user likes spicy food", "The user likes mild food"),
    _p(
        "contradiction",
        "en",
        "The user's meeting is on Tuesday",
        "The user's meeting is on Thursday",
    ),
    _p(
        "contradiction",
        "en",
        "The user wants the report in PDF",
        "The user wants the report in Word",
    ),
    _p("contradiction", "en", "The user lives in Paris, France", "The user lives in Paris, Texas"),
    _p(
        "contradiction",
        "en",
        "The user's sister is named Anna",
        "The user's sister is named Anne",
        old_entities=("Anna",),
        new_entities=("Anne",),
    ),
    _p("contradiction", "zh", "用户住在上海", "用户住在北京"),
    _p("contradiction", "zh", "用户喜欢喝绿茶", "用户喜欢喝红茶"),
    _p("contradiction", "zh", "用户有两个孩子", "用户有三个孩子"),
    _p("contradiction", "zh", "会议改到周三", "会议改到周四"),
    _p("contradiction", "zh", "用户的预算是500元", "用户的预算是5000元"),
    _p("contradiction", "zh", "用户持有600519", "用户持有000858"),
    _p("contradiction", "zh", "张三是李四的经理", "李四是张三的经理"),
    _p("contradiction", "zh", "用户借给张三100元", "张三借给用户100元"),
    _p("contradiction", "zh", "用户从北京飞上海", "用户从上海飞北京"),
    _p("contradiction", "zh", "用户把车卖给了张三", "用户被张三卖了车"),
    _p("contradiction", "zh", "用户早上跑步", "用户晚上跑步"),
    _p("contradiction", "zh", "用户总是坐火车", "用户偶尔坐火车"),
    _p("contradiction", "zh", "用户开丰田车", "用户开本田车"),
    _p("contradiction", "zh", "用户的女儿叫小红", "用户的女儿叫小明"),
    _p("contradiction", "zh", "用户想要PDF格式的报告", "用户想要Word格式的报告"),
    # --- unrelated facts about the same user: must not merge -------------------------------
    _p("unrelated", "en", "The user lives in Shanghai", "The user is allergic to peanuts"),
    _p("unrelated", "en", "The user prefers window seats", "The user's dog is called Max"),
    _p("unrelated", "en", "The user works at Google", "The user plays the piano"),
    _p("unrelated", "en", "The user's flight leaves at 9am", "The user's meeting starts at 9am"),
    _p("unrelated", "en", "The user is learning Spanish", "The user is learning to swim"),
    _p("unrelated", "en", "The user prefers Python", "The user prefers aisle seats"),
    _p("unrelated", "zh", "用户住在上海。", "用户对花生过敏。"),
    _p("unrelated", "zh", "用户喜欢喝绿茶", "用户喜欢打篮球"),
    _p("unrelated", "zh", "用户的狗叫旺财", "用户的猫叫咪咪"),
    _p("unrelated", "zh", "用户在学西班牙语", "用户在学游泳"),
    _p("unrelated", "zh", "用户明天去北京出差", "用户明天去医院体检"),
    _p("unrelated", "zh", "用户喜欢吃苹果", "用户喜欢吃香蕉"),
)


@dataclass(frozen=True)
class Judgement:
    """One pair, the cosine of its passage embeddings, and the dedupe verdict."""

    pair: Pair
    cosine: float
    verdict: Verdict

    @property
    def wrong(self) -> bool:
        """A must-merge pair kept apart, or a must-not-merge pair merged."""
        label = self.pair.label
        return (label in MUST_MERGE and not self.verdict.merge) or (
            label in MUST_NOT_MERGE and self.verdict.merge
        )


def judge(
    embed: Callable[[list[str]], np.ndarray],
    settings: DedupeSettings,
    pairs: Sequence[Pair] = PAIRS,
) -> list[Judgement]:
    """Judge every pair: ``embed`` maps texts to L2-normalised passage vectors (n, dim)."""
    old = embed([p.old for p in pairs])
    new = embed([p.new for p in pairs])
    out: list[Judgement] = []
    for k, pair in enumerate(pairs):
        cosine = float(np.dot(old[k], new[k]))
        verdict = same_memory(
            pair.new,
            pair.old,
            cosine,
            merge_cosine=settings.merge_cosine,
            min_overlap=settings.merge_min_overlap,
            new_entities=frozenset(e.casefold() for e in pair.new_entities),
            old_entities=frozenset(e.casefold() for e in pair.old_entities),
        )
        out.append(Judgement(pair, cosine, verdict))
    return out


@dataclass
class Summary:
    """Counts and rates over a judged set."""

    total: int = 0
    by_label: dict[str, dict[str, int]] = field(default_factory=dict)  # label -> lang -> n
    merged: dict[str, int] = field(default_factory=dict)  # label -> merged pairs
    cosine_range: dict[str, tuple[float, float]] = field(default_factory=dict)

    def rate(self, labels: frozenset[str] | set[str]) -> float:
        """Merged / total over these labels (0..1)."""
        n = sum(sum(self.by_label.get(lb, {}).values()) for lb in labels)
        return sum(self.merged.get(lb, 0) for lb in labels) / n if n else 0.0

    @property
    def duplicate_merge_rate(self) -> float:
        """Share of true duplicates (normalised-equal and paraphrases) that merged."""
        return self.rate({"normalised", "paraphrase"})

    @property
    def false_merge_rate(self) -> float:
        """Share of negations, contradictions and unrelated pairs that merged."""
        return self.rate(MUST_NOT_MERGE)


def summarise(judgements: Sequence[Judgement]) -> Summary:
    """Counts per label and language, merges per label, cosine range per label."""
    s = Summary(total=len(judgements))
    for j in judgements:
        lb = j.pair.label
        langs = s.by_label.setdefault(lb, {})
        langs[j.pair.lang] = langs.get(j.pair.lang, 0) + 1
        s.merged[lb] = s.merged.get(lb, 0) + int(j.verdict.merge)
        lo, hi = s.cosine_range.get(lb, (1.0, -1.0))
        s.cosine_range[lb] = (min(lo, j.cosine), max(hi, j.cosine))
    return s


def rates_line(s: Summary) -> str:
    """The one-line result, as printed by the test and written to docs/DEDUPE.md."""
    return (
        f"duplicate-merge rate {s.duplicate_merge_rate:.1%} "
        f"(normalised-equal {s.rate({'normalised'}):.0%}, "
        f"paraphrases {s.rate({'paraphrase'}):.1%}); "
        f"false-merge rate {s.false_merge_rate:.1%} on {s.total} pairs"
    )
