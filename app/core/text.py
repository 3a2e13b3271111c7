"""Text handling shared by indexing, querying and dedupe: normalisation, tokenisation that
segments Chinese (rjieba, the jieba-rs binding), negation cues and numbers.

Keyword search indexes the space-joined tokens of :func:`tokenize` in PostgreSQL full text
(``english`` config: stemming and English stop words), and queries with the same tokens OR-ed,
so Chinese words and exact codes ("600519", "SKU-42") match the same way on both sides.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache

import rjieba
import snowballstemmer

from app.core.chinese_script import simplified
from app.core.entity_names import entity_key

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_HAS_CJK = re.compile(f"[{_CJK}]")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
# Not from inside a word (the leftmost code starts where its word does): a 2,000-letter word
# was tried from each letter (scripts/fuzz_cpu.py).
_CODE = re.compile(r"(?<![0-9a-z])[0-9a-z]+(?:[-_./][0-9a-z]+)+")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_STEMMER = snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball English stem of one word, cached per process (the stemmer is pure
    Python; stemming was most of the write path's pair decision, and texts reuse words)."""
    return str(_STEMMER.stemWord(word))


def stem_words(words: Sequence[str]) -> list[str]:
    """:func:`stem` of each word, in order."""
    return [stem(w) for w in words]


# Chinese function words that carry no topic (kept small on purpose: 不/没 stay, they negate),
# and 用户 ("the user", in nearly every unit, like "user" in _EN_STOP).
_ZH_STOP = frozenset(
    "的 了 在 是 和 与 及 或 吗 呢 吧 啊 呀 也 都 就 而 这 那 个 着 过 对 把 被 让 给 用户".split()
)
_EN_STOP = frozenset(
    """a an the and or of to in on at for with by from as is are was were be been being am
    i me my we our you your he him his she her it its they them their this that these those
    do does did has have had will would shall should can could may might must so if then
    than too very just about into over under up down out there here what which who whom
    user users""".split()
)


def is_stop_word(word: str) -> bool:
    """Whether a case-folded English word is one of keyword search's stop words (the, my, …)."""
    return word in _EN_STOP


# Dedupe keeps nearly every word (see dedupe_tokens): only these carry no meaning at all.
_DEDUPE_EN_IGNORED = frozenset("a an the".split())
_DEDUPE_ZH_IGNORED = frozenset("的 吗 呢 吧 啊 呀".split())

_EN_NEGATION = re.compile(
    r"\b(not|no|never|none|nobody|nothing|neither|nor|without|cannot|dislikes?|hates?|"
    r"avoids?|refuses?|stopped|quit)\b|n['’]t\b|(?<=[a-z])-free\b"
)
# Not inside a word where the character does not negate: 特别 (especially), 别人 (others),
# 区别, 性别, 非常 (very), 未来 (future), 无论 (no matter) — "The user loves dogs" / 用户特别喜欢狗
# read as a negation flipped (docs/DEDUPE.md, sixteenth run).
_ZH_NEGATION = re.compile(
    r"不|没|(?<![特分区區告性级級类類差个個])[別别](?![人墅处處])|[无無](?![论論])|非(?![常洲])"
    r"|未(?![来來])|莫|勿|讨厌|討厭|拒绝|戒"
)


def normalize(text: str) -> str:
    """NFKC (full/half width), lower case, whitespace, punctuation and symbols removed:
    two texts that are equal here are the same statement.

    What changes a number's value is kept: punctuation between digits ("3.5" is not "35",
    "10:30", "2024-05-03"), a sign before a digit ("-5" is not "5"), currency symbols and
    ``%`` ("$500" is not "¥500"). "SKU-42" and "sku 42" stay equal (the dash follows a letter);
    a sign that ends a word is kept ("A+" is not "A-": blood types, grades; tester hbreak5 F25
    saw them merged). Traditional characters are read as simplified (我對花生過敏 is
    我对花生过敏: :mod:`app.core.chinese_script`).
    """
    folded = simplified(unicodedata.normalize("NFKC", text)).casefold()
    out: list[str] = []
    for i, ch in enumerate(folded):
        category = unicodedata.category(ch)
        if category[0] not in "PZSC":
            out.append(ch)
            continue
        prev = folded[i - 1] if i > 0 else ""
        nxt = folded[i + 1] if i + 1 < len(folded) else ""
        if (
            category == "Sc"
            or ch in "%‰"
            or category[0] == "P"
            and prev.isdigit()
            and nxt.isdigit()
        ):
            out.append(ch)
        elif ch in "-−+" and nxt.isdigit() and not prev.isalnum():
            out.append("+" if ch == "+" else "-")
        elif ch in "-−+" and prev.isalnum() and not nxt.isalnum() and not prev.isdigit():
            out.append("+" if ch == "+" else "-")  # "A+" is not "A-" (blood type, grade, C++)
    return "".join(out)


_LONG_SPACE = re.compile(r"\s{3,}")


def fold_space_runs(text: str) -> str:
    """``text`` with each run of three or more whitespace characters written as one line
    break when it holds one, else as one space (one or two are kept: "Mt.  Rainier" and a
    line break read as written). What the rules read: a long run made their patterns
    backtrack for seconds ("tea", 1,994 spaces and "end"; docs/RELIABILITY.md, "Rule CPU
    on hostile text")."""
    return _LONG_SPACE.sub(lambda m: "\n" if "\n" in m.group() else " ", text)


def value_hash(value: str) -> str:
    """SHA-256 (hex) of the normalised value: equal hashes are the same statement."""
    return hashlib.sha256(normalize(value).encode("utf-8")).hexdigest()


def has_cjk(text: str) -> bool:
    """True when the text contains Chinese, Japanese or Korean characters."""
    return _HAS_CJK.search(text) is not None


@lru_cache(maxsize=4096)
def _segment(run: str) -> tuple[str, ...]:
    return tuple(rjieba.cut(run))


@lru_cache(maxsize=4096)
def _segment_for_search(run: str) -> tuple[str, ...]:
    # jieba's search mode adds the words inside long words: 虹桥机场 → 虹桥, 机场, 虹桥机场,
    # so a query for "虹桥" or "机场" finds a unit about "虹桥机场" and vice versa.
    return tuple(rjieba.cut_for_search(run))


def tokenize(text: str) -> list[str]:
    """Lower-cased keyword tokens: Latin words, numbers, codes (``sku-42`` gives ``sku-42``
    joined as ``sku42`` plus its parts) and jieba-segmented CJK words, stop words dropped."""
    return _tokens(text, _EN_STOP, _ZH_STOP)


def _tokens(
    text: str, en_stop: frozenset[str], zh_stop: frozenset[str], search: bool = False
) -> list[str]:
    folded = unicodedata.normalize("NFKC", text).casefold()
    segment = _segment_for_search if search else _segment
    tokens: list[str] = []
    for code in _CODE.findall(folded):
        tokens.append(re.sub(r"[-_./]", "", code))
    pos = 0
    for match in _CJK_RUN.finditer(folded):
        tokens.extend(_latin_tokens(folded[pos : match.start()], en_stop))
        tokens.extend(w for w in segment(match.group()) if w.strip() and w not in zh_stop)
        pos = match.end()
    tokens.extend(_latin_tokens(folded[pos:], en_stop))
    return tokens


def _latin_tokens(chunk: str, stop: frozenset[str]) -> list[str]:
    words = (w.replace("’", "'") for w in _WORD.findall(chunk))
    stripped = (w.split("'")[0] if w.endswith(("'s", "'t")) else w for w in words)
    return [w for w in stripped if w not in stop]


def search_tokens(text: str) -> list[str]:
    """The keyword-index tokens of a text: :func:`tokenize`, with CJK words also split into
    the shorter words inside them (jieba's search mode), so 虹桥 matches 虹桥机场; then, for
    a text in traditional characters, those of its simplified reading it does not hold
    (過敏, 过敏: a question in either script finds it)."""
    return _with_simplified(text, lambda t: _tokens(t, _EN_STOP, _ZH_STOP, search=True))


def query_tokens(text: str) -> list[str]:
    """A recall question's keyword tokens: :func:`tokenize`, then those of its simplified
    reading it does not hold (我對什麼過敏: 過敏 and 过敏)."""
    return _with_simplified(text, tokenize)


def _with_simplified(text: str, tokens_of: Callable[[str], list[str]]) -> list[str]:
    tokens = tokens_of(text)
    read = simplified(text)
    if read == text:
        return tokens
    seen = set(tokens)
    return [*tokens, *(t for t in dict.fromkeys(tokens_of(read)) if t not in seen)]


def search_text(*parts: str | None) -> str:
    """The text stored for full-text indexing: the search tokens of all parts, space-joined."""
    return " ".join(tok for part in parts if part for tok in search_tokens(part))


def negation_polarity(text: str) -> int:
    """Parity of negation cues (0 affirmative, 1 negated): "I like X" vs "I don't like X",
    "喜欢" vs "不喜欢" differ here, which forbids merging them."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    count = len(_EN_NEGATION.findall(folded)) + len(_ZH_NEGATION.findall(folded))
    return count % 2


def numbers(text: str) -> frozenset[str]:
    """The numbers written in the text (digits), for telling "3 kids" from "2 kids"."""
    return frozenset(_NUMBER.findall(unicodedata.normalize("NFKC", text)))


def stems(text: str) -> frozenset[str]:
    """Distinct stemmed keyword tokens (Snowball English stemmer; CJK words unchanged)."""
    return frozenset(stem_words(tokenize(text)))


def dedupe_tokens(text: str) -> tuple[str, ...]:
    """Stemmed tokens in text order for dedupe. Unlike :func:`tokenize`, only articles and
    Chinese modal particles are dropped: the words that carry roles ("user", "to", "from",
    把, 被) stay, so "Alice is the user's boss" and "The user is Alice's boss" differ."""
    return tuple(stem_words(_tokens(text, _DEDUPE_EN_IGNORED, _DEDUPE_ZH_IGNORED)))


def entity_keys(entities: Sequence[str]) -> list[str]:
    """The de-duplicated keys of entity names (``memory_units.entity_keys``, what the entity
    filter and the recall's entity signal match): :func:`app.core.entity_names.entity_key`,
    the entity graph's own key (NFKC, case folded, whitespace collapsed), so "６００５１９"
    and "600519" are one key on every path; names with nothing left are dropped."""
    return [k for k in dict.fromkeys(entity_key(e) for e in entities) if k]
