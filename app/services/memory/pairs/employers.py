"""The employer slot beyond "works at X" (tester hbreak7 H2), for :func:`.rules.slots`: a job
told with its employer ("works as a product manager at Alibaba", "is an engineer at Airbus",
用户在阿里巴巴做产品经理, 在腾讯当工程师) fills the employer slot too (:mod:`.job_left` reads a job
left against it). Pure."""

from __future__ import annotations

import re

import rjieba

_CAP = r"([A-Z][\w&'’-]*(?:\s+[A-Z][\w&'’-]*)*)"
# "works as a product manager at Alibaba", "is a nurse at St Mary's": the job, then where.
_EN_JOB_AT = re.compile(
    rf"\b(?:works?|working|worked)\s+as\s+(?:an?\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){{0,3}}?"
    rf"\s+(?:at|for)\s+{_CAP}"
)
# "is an engineer at Airbus", "'m a nurse at St Mary's": a noun WordNet files under an
# occupation, then where (not "is a regular at Joe's").
_EN_IS_AT = re.compile(
    rf"\b(?:is|am|are|was|['’]m)\s+an?\s+((?:[a-z][\w-]*\s+){{0,2}}?[a-z][\w-]*)\s+(?:at|for)\s+{_CAP}"
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


def employer_by_job(value: str) -> str | None:
    """The employer a statement names beside a job ("works as a nurse at St Mary's",
    用户在阿里巴巴做产品经理), folded; None when it names none."""
    from app.services.memory.pairs import lexicon  # the word lists load on first use

    m = _EN_JOB_AT.search(value)
    if m is not None:
        return _fold(m.group(1))
    m = _EN_IS_AT.search(value)
    if m is not None:
        words = [lexicon.lemma(w) for w in m.group(1).casefold().split()]
        if lexicon.is_occupation("_".join(words)) or lexicon.is_occupation(words[-1]):
            return _fold(m.group(2))
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


def _fold(value: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFKC", value).casefold().strip(" .,，。")
