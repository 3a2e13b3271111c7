"""The employer slot beyond "works at X" (tester hbreak7 H2): a job told with its employer
("works as a product manager at Alibaba", 用户在阿里巴巴做产品经理, 在腾讯当工程师) fills the
employer slot too, and a job left ("left Alibaba last week and joined Tencent", 从阿里巴巴离职了)
ends the employer it names in either language — CC-CEDICT's glosses (阿里巴巴: Alibaba, 谷歌:
Google) or the same name in pinyin (:func:`.names.transliterates`). Until 2026-12-07 the
English change never ended the Chinese job, nor the reverse: both stayed active and the pair
opened a ``duplicate`` review a click could merge (the job change lost). Pure."""

from __future__ import annotations

import re

import rjieba

from app.core import text

_CAP = r"([A-Z][\w&'’-]*(?:\s+[A-Z][\w&'’-]*)*)"
# "works as a product manager at Alibaba", "is a nurse at St Mary's": the job, then where.
_EN_JOB_AT = re.compile(
    rf"\b(?:works?|working|worked)\s+as\s+(?:an?\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){{0,3}}?"
    rf"\s+(?:at|for)\s+{_CAP}"
)
# 在阿里巴巴做产品经理, 在腾讯当一名工程师: a place of work, then a job (an occupation).
_ZH_JOB_AT = re.compile(
    r"在\s*([^\s，。,.的在]{2,10}?)\s*(?:做|当|担任)(?:一名|一个|一位|名|个|位)?"
    r"([^\s，。,.的]{2,8}?)(?=[，。,.！!]|$|了)"
)
# Jobs WordNet files under no occupation root (manager: a head), by how they end.
_ZH_JOB_ENDS = (
    "经理",
    "主管",
    "总监",
    "总裁",
    "助理",
    "顾问",
    "会计",
    "销售",
    "运营",
    "实习生",
    "工程师",
    "程序员",
    "设计师",
    "分析师",
    "咖啡师",
    "厨师",
    "老师",
    "员",
)
# Not a place of work: home, a city (在上海做生意 says where, not for whom).
_NOT_EMPLOYER = frozenset({"家", "家里", "家中", "这里", "那里", "外面", "网上", "线上"})

# Left an employer: "left Google", "quit his job at Google", 从字节跳动离职.
_LEFT = re.compile(
    rf"\b(?:left|quit|quits|leaves|resigned\s+from)\s+(?:(?:his|her|their|my|the)\s+job\s+at\s+)?{_CAP}|"
    r"从\s*([^\s，。,.]{2,10}?)\s*(?:离职|辞职|跳槽)"
)


def employer_by_job(value: str) -> str | None:
    """The employer a statement names beside a job ("works as a nurse at St Mary's",
    用户在阿里巴巴做产品经理), folded; None when it names none."""
    from app.services.memory.pairs import lexicon  # the word lists load on first use

    m = _EN_JOB_AT.search(value)
    if m is not None:
        return _fold(m.group(1))
    m = _ZH_JOB_AT.search(value)
    if m is None or m.group(1) in _NOT_EMPLOYER:
        return None
    place, role = m.group(1), m.group(2)
    if any(tag == "ns" for _w, tag in rjieba.tag(place)):
        return None  # a city: 在上海做生意
    last = [w for w, _tag in rjieba.tag(role)][-1]
    if role.endswith(_ZH_JOB_ENDS) or lexicon.is_occupation(role) or lexicon.is_occupation(last):
        return _fold(place)
    return None


def left_employer(new: str, old: str) -> bool:
    """True when ``new`` says the subject left the employer ``old`` says they work at
    ("works at ByteDance" / 已经从字节跳动离职, "在阿里巴巴做产品经理" / "left Alibaba"): the
    employer slot no longer holds it."""
    from app.services.memory.pairs.rules import slots

    was = slots(old).get("employer")
    m = _LEFT.search(new)
    if was is None or m is None:
        return False
    return same_employer(_fold(next(g for g in m.groups() if g)), was)


def same_employer(a: str, b: str) -> bool:
    """Two folded employer names that name one company: equal, one a fuller form ("Shanghai" /
    "Shanghai, China"), or one in characters and the other its gloss or pinyin (阿里巴巴 /
    alibaba, 谷歌 / google)."""
    from app.services.memory.pairs import lexicon, names

    if a == b or a.startswith(b + ",") or b.startswith(a + ","):
        return True
    if text.has_cjk(a) == text.has_cjk(b):
        return False
    zh, en = (a, b) if text.has_cjk(a) else (b, a)
    glossed = lexicon.glosses(zh) | lexicon.gloss_heads(zh)
    return en in glossed or en.replace(" ", "_") in glossed or names.transliterates(en, zh)


def _fold(value: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFKC", value).casefold().strip(" .,，。")
