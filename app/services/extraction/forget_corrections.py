"""A correction that opens with "forget" (tester hbreak8 H13), English and Chinese: "Forget
Denver, I live in Boulder now.", "Actually, forget that, it is amoxicillin I am allergic
to.", "Sorry, scratch that: I am allergic to amoxicillin, not penicillin.", "Never mind, her
name is Anna.", 忘了这个吧，我其实住在天津。; "Scratch that." alone takes back what came before,
"Never mind." alone is no unit. The words after the marker are the speaker's new
statement (they were dropped as part of a request to forget); what the marker takes back is
the old one. :mod:`app.services.extraction.withhold` acts on it before any extractor reads
the transcript.

What is taken back: the clauses naming the old value when the correction names it ("Forget
Denver", "…, not penicillin", "…，不是北京"); else, for "forget that" / "scratch that" /
忘了这个吧, the sentence before in the same message or the speaker's previous message; "never
mind" takes it back only when it speaks of the same thing (shares a word with the new
statement: "My sister's name is Ann." / "Never mind, her name is Anna."). A new statement
that restates the old one's words ends it ("…'s name is Ann." + "her name is Anna" →
"My sister's name is Anna.").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import rjieba
import simplemma

from app.core.text import has_cjk

_EN_LEAD = r"^\W*(?:(?:sorry|oh|oops|actually|wait|no|ok|okay|hmm|ah|um|uh)\b[\s,!.:;–—-]*)*"
_EN_MARKER = re.compile(
    _EN_LEAD + r"(?:(?P<strong>(?:please\s+)?(?:forget|disregard|ignore)\s+(?:about\s+)?"
    r"(?:that|this|what\s+i\s+(?:just\s+)?said)|scratch\s+that|strike\s+that)"
    r"|(?P<weak>never\s*mind|nvm)"
    r"|(?:please\s+)?forget\s+(?P<old>(?!(?:my|the|about|what|everything|all|it|that|this|"
    r"anything|me|you)\b)[\w'-]+(?:\s+[\w'-]+){0,2}?))"
    r"\s*(?:[,:;–—]|\s-\s)\s*(?P<new>\S.*)$",
    re.IGNORECASE,
)
# "Scratch that." / "Never mind." alone: the sentence before taken back / nothing
_EN_ALONE = re.compile(
    _EN_LEAD + r"(?:(?P<strong>scratch\s+that|strike\s+that|disregard\s+that|ignore\s+that)"
    r"|(?P<weak>never\s*mind|nvm))\s*[.!]*\s*$",
    re.IGNORECASE,
)
_ZH_MARKER = re.compile(
    r"^\W*(?:哦|啊|其实|抱歉|不好意思)?[，,\s]*(?:(?P<strong>(?:你)?(?:忘了|忘掉|忘记)(?:这个|那个|这句|那句|"
    r"刚才的?|刚才说的)?(?:吧|啊)?|当我没说(?:过)?|刚才(?:说)?的不算)|(?P<weak>算了吧?|没事))"
    r"[，,：:；;\s]+(?P<new>\S.*)$"
)
# "…, not penicillin", "…，不是北京": the old value, said
_EN_NOT_OLD = re.compile(r",?\s+(?:and\s+)?not\s+(?P<old>[\w'-]+(?:\s+[\w'-]+){0,2})\s*([.!]*)$",
                         re.IGNORECASE)  # fmt: skip
_ZH_NOT_OLD = re.compile(r"[，,]\s*(?:而)?不是(?P<old>[^，。！？,!?]{1,12}?)([。！!]*)$")
# "It is amoxicillin I am allergic to." → "I am allergic to amoxicillin."
_EN_CLEFT = re.compile(
    r"^it(?:['’]s|\s+is|\s+was)\s+(?P<x>[\w'-]+(?:\s+[\w'-]+){0,2}?)\s+(?:that\s+)?"
    r"(?P<s>i(?:['’]m|\s+am)|i)\s+(?P<p>[\w'-]+(?:\s+[\w'-]+){0,2}?\s+(?:to|with|of|in|at|for))"
    r"\s*(?P<end>[.!]*)$",
    re.IGNORECASE,
)
_FUNCTION = frozenset(
    "i me my mine you your he him his she her they them their it its we our us the a an is am "
    "are was were be been to of in at on for with and or but not no now so just really also "
    "that this there here actually".split()
)


@dataclass(frozen=True)
class Correction:
    """A correction read from one sentence: the marker's words, the old value's words when
    named (else None), whether the marker takes back the sentence before regardless of what
    it says (``strong``), and the new statement ("" for "Scratch that." / "Never mind."
    alone: the next sentence, if any, is read as said)."""

    marker: str
    old: tuple[str, ...] | None
    strong: bool
    new: str


def read(sentence: str) -> Correction | None:
    """The correction ``sentence`` makes (module docstring), or None when it is none."""
    zh = has_cjk(sentence)
    if not zh and (alone := _EN_ALONE.match(sentence.strip())) is not None:
        return Correction(sentence.strip(), None, bool(alone["strong"]), "")
    m = (_ZH_MARKER if zh else _EN_MARKER).match(sentence.strip())
    if m is None or not re.search(r"\w", m["new"]):
        return None
    new = m["new"].strip()
    old: list[str] = []
    if not zh and m["old"]:
        old.append(m["old"])
    said = (_ZH_NOT_OLD if zh else _EN_NOT_OLD).search(new)
    if said is not None and said.start() > 0:
        old.append(said["old"])
        new = new[: said.start()] + (said.group(2) or "")
    if not zh:
        if (cleft := _EN_CLEFT.match(new)) is not None:
            new = f"{cleft['s']} {cleft['p']} {cleft['x']}{cleft['end'] or '.'}"
        new = new[:1].upper() + new[1:]
    marker = sentence.strip()[: m.start("new")].rstrip(" ,:;–—-，：；")
    terms = tuple(w.lower() for o in old for w in o.split()) if old else None
    return Correction(marker, terms, bool(m["strong"]), new)


def words(text: str) -> set[str]:
    """The content words of ``text`` (English lemmas; Chinese words of two characters or
    more), for :func:`same_thing`."""
    if has_cjk(text):
        return {w for w in rjieba.cut(text) if len(w) >= 2 and has_cjk(w)}
    found = re.findall(r"[\w'-]+", text.lower())
    lemmas = {str(simplemma.lemmatize(w, lang="en")).lower() for w in found}
    return {w for w in lemmas if w not in _FUNCTION and len(w) > 2}


def same_thing(old: str, new: str) -> bool:
    """Whether the new statement speaks of what the old one did (a content word shared)."""
    return bool(words(old) & words(new))


def restated(old: str, new: str) -> str:
    """``old`` with its last words replaced by the new statement's when the new statement
    repeats two or more of the old one's words before them ("My sister's name is Ann." +
    "Her name is Anna." → "My sister's name is Anna."); else ``new``."""
    if has_cjk(old) or has_cjk(new):
        return new
    o, n = old.rstrip(" .!").split(), new.rstrip(" .!").split()
    for size in range(min(len(o), len(n)) - 1, 1, -1):
        for i in range(len(n) - size):
            run = [w.lower() for w in n[i : i + size]]
            tail = n[i + size :]
            for j in range(len(o) - size):
                if [w.lower() for w in o[j : j + size]] == run and len(o) - j - size == len(tail):
                    return " ".join(o[: j + size] + tail) + "."
    return new
