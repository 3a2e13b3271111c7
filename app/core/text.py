"""Text handling shared by indexing, querying and dedupe: normalisation, tokenisation that
segments Chinese (rjieba, the jieba-rs binding), negation cues and numbers.

Keyword search indexes the space-joined tokens of :func:`tokenize` in PostgreSQL full text
(``english`` config: stemming and English stop words), and queries with the same tokens OR-ed,
so Chinese words and exact codes ("600519", "SKU-42") match the same way on both sides.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import rjieba
import snowballstemmer

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_HAS_CJK = re.compile(f"[{_CJK}]")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_CODE = re.compile(r"[0-9a-z]+(?:[-_./][0-9a-z]+)+")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_STEMMER = snowballstemmer.stemmer("english")

# Chinese function words that carry no topic (kept small on purpose: 不/没 stay, they negate).
_ZH_STOP = frozenset(
    "的 了 在 是 和 与 及 或 吗 呢 吧 啊 呀 也 都 就 而 这 那 个 着 过 对 把 被 让 给".split()
)
_EN_STOP = frozenset(
    """a an the and or of to in on at for with by from as is are was were be been being am
    i me my we our you your he him his she her it its they them their this that these those
    do does did has have had will would shall should can could may might must so if then
    than too very just about into over under up down out there here what which who whom
    user users""".split()
)

_EN_NEGATION = re.compile(
    r"\b(not|no|never|none|nobody|nothing|neither|nor|without|cannot|dislikes?|hates?|"
    r"avoids?|refuses?|stopped|quit)\b|n['’]t\b"
)
_ZH_NEGATION = re.compile(r"不|没|別|别|无|無|非|未|莫|勿|讨厌|討厭|拒绝|戒")


def normalize(text: str) -> str:
    """NFKC (full/half width), lower case, whitespace, punctuation and symbols removed:
    two texts that are equal here are the same statement."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if unicodedata.category(ch)[0] not in "PZSC")


def has_cjk(text: str) -> bool:
    """True when the text contains Chinese, Japanese or Korean characters."""
    return _HAS_CJK.search(text) is not None


@lru_cache(maxsize=4096)
def _segment(run: str) -> tuple[str, ...]:
    return tuple(rjieba.cut(run))


def tokenize(text: str) -> list[str]:
    """Lower-cased keyword tokens: Latin words, numbers, codes (``sku-42`` gives ``sku-42``
    joined as ``sku42`` plus its parts) and jieba-segmented CJK words, stop words dropped."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    tokens: list[str] = []
    for code in _CODE.findall(folded):
        tokens.append(re.sub(r"[-_./]", "", code))
    pos = 0
    for match in _CJK_RUN.finditer(folded):
        tokens.extend(_latin_tokens(folded[pos : match.start()]))
        tokens.extend(w for w in _segment(match.group()) if w.strip() and w not in _ZH_STOP)
        pos = match.end()
    tokens.extend(_latin_tokens(folded[pos:]))
    return tokens


def _latin_tokens(chunk: str) -> list[str]:
    words = (w.replace("’", "'") for w in _WORD.findall(chunk))
    stripped = (w.split("'")[0] if w.endswith(("'s", "'t")) else w for w in words)
    return [w for w in stripped if w not in _EN_STOP]


def search_text(*parts: str | None) -> str:
    """The text stored for full-text indexing: the tokens of all parts, space-joined."""
    return " ".join(tok for part in parts if part for tok in tokenize(part))


def tsquery_or(text: str) -> str | None:
    """An OR tsquery string (``'a' | 'b'``) over the text's tokens, safe for ``to_tsquery``;
    None when the text has no tokens."""
    toks = list(dict.fromkeys(t for t in tokenize(text) if "'" not in t and "\\" not in t))
    if not toks:
        return None
    return " | ".join(f"'{t}'" for t in toks)


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
    """Distinct stemmed tokens (Snowball English stemmer; CJK words unchanged)."""
    return frozenset(_STEMMER.stemWords(tokenize(text)))


def content_overlap(a: str, b: str) -> float:
    """Jaccard similarity of the two texts' stemmed tokens (0..1)."""
    ta, tb = stems(a), stems(b)
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / len(ta | tb)
