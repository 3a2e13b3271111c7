"""An exception on one side only (tester hbreak7 H22): "works remotely on Mondays" / "works
remotely except on Mondays", "eats meat on weekends" / "except on weekends", 用户周一在家办公 /
用户除了周一都在家办公 say opposite things with nearly the same words, and merged. "except",
"except for", "but not", "other than", "excluding", "any X but Y" and 除了…都 (以外, 之外; not
除了…还 / 也: "besides") are read like a negation: never merged — ``contradicts`` when the rest
of the two sentences is the same words (the marker aside), else ``unsure`` ("likes all fruit" /
"likes all fruit except bananas": a refinement). Pure."""

from __future__ import annotations

import re
from typing import Literal

import rjieba

_EN = re.compile(
    r"\b(?:except(?:\s+for)?|but\s+not|other\s+than|excluding)\b"
    r"|\b(?:any|every|everything|anything|everyone|anyone)\b(?:\s+\w+)?\s+but\b"
    # "all fruit but bananas", not "worked all day but felt tired"
    r"|\ball\s+(?!(?:day|night|week|weekend|morning|afternoon|evening|year|month|along|"
    r"together|the\s+time)\b)\w+\s+but\b",
    re.IGNORECASE,
)
_ZH = re.compile(
    r"(?<![删消排清解免去拆])除了[^，。,.还也]{1,12}?(?:以外|之外)?[，,]?\s*(?:都|全|均|一律|从不|不)"
    # 除…外 (not 删除, 排除, 除夕: New Year's Eve, 除非: unless)
    r"|(?<![删消排清解免去拆])除(?![夕非了])[^，。,.还也]{1,12}?(?:外|以外|之外)[，,]?\s*(?:都|全|均|一律|从不|不)"
)
_MARKERS = frozenset(
    "except for but not other than excluding 除了 除 外 都 全 均 以外 之外 一律".split()
)
# Words that carry no content of their own here ("on Mondays" / "except Mondays").
_LIGHT = frozenset("the a an on in at is are of s 's 的 。 ， , .".split())


def has_exception(value: str) -> bool:
    """Whether ``value`` states an exception (module docstring)."""
    return _EN.search(value) is not None or _ZH.search(value) is not None


def _words(value: str) -> frozenset[str]:
    out = []
    for tok in rjieba.cut(value.casefold()):
        tok = tok.strip()
        if tok and tok not in _MARKERS and tok not in _LIGHT and re.search(r"\w", tok):
            out.append(tok)
    return frozenset(out)


def differs(new: str, old: str) -> Literal["contradicts", "unsure"] | None:
    """``contradicts`` or ``unsure`` for a pair with an exception on one side only, else
    None (module docstring)."""
    if has_exception(new) == has_exception(old):
        return None
    return "contradicts" if _words(new) == _words(old) else "unsure"
