"""A job left ("left Alibaba last week and joined Tencent", 从阿里巴巴离职了) against the
employer the other statement names (:func:`.rules.slots`, :mod:`.employers`), in either
language — CC-CEDICT's glosses (阿里巴巴: Alibaba, 谷歌: Google) or the same name in pinyin
(:func:`.names.transliterates`). Until 2026-12-07 (tester hbreak7 H2) the English change never
ended the Chinese job, nor the reverse: both stayed active and the pair opened a ``duplicate``
review a click could merge (the job change lost). Pure."""

from __future__ import annotations

import re
import unicodedata

from app.core import text
from app.services.memory.pairs import lexicon, names
from app.services.memory.pairs.rules import slots

_CAP = r"([A-Z][\w&'’-]*(?:\s+[A-Z][\w&'’-]*)*)"
# Left an employer: "left Google", "quit his job at Google", 从字节跳动离职.
_LEFT = re.compile(
    rf"\b(?:left|quit|quits|leaves|resigned\s+from)\s+(?:(?:his|her|their|my|the)\s+job\s+at\s+)?{_CAP}|"
    r"从\s*([^\s，。,.]{2,10}?)\s*(?:离职|辞职|跳槽)"
)


def left_employer(new: str, old: str) -> bool:
    """True when ``new`` says the subject left the employer ``old`` says they work at
    ("works at ByteDance" / 已经从字节跳动离职, "在阿里巴巴做产品经理" / "left Alibaba"): the
    employer slot no longer holds it."""
    was = slots(old).get("employer")
    m = _LEFT.search(new)
    if was is None or m is None:
        return False
    return same_employer(_fold(next(g for g in m.groups() if g)), was)


def same_employer(a: str, b: str) -> bool:
    """Two folded employer names that name one company: equal, one a fuller form ("Shanghai" /
    "Shanghai, China"), or one in characters and the other its gloss or pinyin (阿里巴巴 /
    alibaba, 谷歌 / google)."""
    if a == b or a.startswith(b + ",") or b.startswith(a + ","):
        return True
    if text.has_cjk(a) == text.has_cjk(b):
        return False
    zh, en = (a, b) if text.has_cjk(a) else (b, a)
    glossed = lexicon.glosses(zh) | lexicon.gloss_heads(zh)
    return en in glossed or en.replace(" ", "_") in glossed or names.transliterates(en, zh)


def _fold(value: str) -> str:
    return unicodedata.normalize("NFKC", value).casefold().strip(" .,，。")
