"""Aliases a unit declares for one of its entities, found in its own text (pure).

Conservative on purpose: two names become one entity only when a unit says so, in one of
these forms, and one of the two is an entity of that unit:

- ``X (Y)`` / ``X（Y）`` — only when the shorter name is an abbreviation of the longer one
  (its letters, in order, drawn from the longer one and starting with the same letter:
  "VS Code" of "Visual Studio Code", "NYC" of "New York City", "北大" of "北京大学"). A
  parenthesis says many things besides another name ("Paris (France)", "Mel (my sister)").
- ``X, also called Y``, ``also known as``, ``aka``, ``a.k.a.``, ``X 又称/又叫/也叫/简称/
  亦称 Y`` — an explicit statement: the other name must be an entity of the unit too, or an
  abbreviation as above.

The longer name (for the explicit forms, X) is the entity; the other becomes its alias.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.entity_names import display_name, entity_key

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_CJK_CHAR = re.compile(f"[{_CJK}]")
_PAREN_AFTER = re.compile(r"\s*[(（]\s*([^()（）]{1,40}?)\s*[)）]")
_ALSO_AFTER = re.compile(
    r",?\s*(?:also\s+called|also\s+known\s+as|a\.k\.a\.?|aka)\s+[\"“'‘]?"
    r"([^,.;:!?\"”'’()]{1,40}?)[\"”'’]?(?=\s*(?:[,.;:!?()]|$|\s(?:and|but|or|who|which|that)\b))",
    re.IGNORECASE,
)
_ZH_ALSO_AFTER = re.compile(
    r"[，,]?\s*(?:又称|又叫|也叫|简称|亦称|也称)\s*[“\"「]?([^，。！？,.!?；;“”\"」）)]{1,20})"
)
_MAX_WORDS = 5
_WORD_SPLIT = re.compile(r"[\s\-_/.&]+")
_SKIPPABLE = frozenset({"of", "the", "and", "for", "de", "la", "le", "du", "der", "von"})


@dataclass(frozen=True)
class Alias:
    """``alias`` (a display name) names the same entity as ``entity``."""

    entity: str
    alias: str


def is_abbreviation(short: str, long: str) -> bool:
    """True when ``short`` is shorter than ``long`` and splits, in order, into one piece per
    word of ``long`` (small words such as "of" may give none), each piece starting with its
    word's first letter and drawn from that word's letters in order: "VS Code" of "Visual
    Studio Code", "NYC" of "New York City", "BoA" of "Bank of America", "Cal" of
    "Caroline", "北大" of "北京大学"; not "Sam" of "Samsung rep" ("rep" gives nothing)."""
    s, words = _letters(short), [_letters(w) for w in _WORD_SPLIT.split(long)]
    words = [w for w in words if w]
    if len(s) < 2 or len(s) >= sum(len(w) for w in words):
        return False
    return _pieces(s, tuple(words))


def _pieces(short: str, words: tuple[str, ...]) -> bool:
    if not words:
        return not short
    word, rest = words[0], words[1:]
    if word in _SKIPPABLE and _pieces(short, rest):
        return True
    for k in range(1, len(short) + 1):
        piece = short[:k]
        if piece[0] != word[0]:
            return False
        letters = iter(word)
        if all(ch in letters for ch in piece) and _pieces(short[k:], rest):
            return True
    return False


def _letters(name: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKC", name).casefold() if ch.isalnum())


def _looks_like_name(text: str) -> bool:
    words = text.split()
    return 0 < len(words) <= _MAX_WORDS and any(ch.isalpha() for ch in text)


def declared_aliases(value: str, entities: Sequence[str]) -> list[Alias]:
    """The aliases ``value`` declares for its ``entities`` (see the module docstring), each
    once, in the order found."""
    keys = {entity_key(e) for e in entities if entity_key(e)}
    found: dict[tuple[str, str], Alias] = {}
    folded = value.casefold()
    for name in dict.fromkeys(display_name(e) for e in entities):
        if not name:
            continue
        start = 0
        while (at := folded.find(name.casefold(), start)) >= 0:
            start = at + 1
            after, before = value[at + len(name) :], value[:at]
            for pair in _after(name, after, keys) + _before(name, before, after):
                found.setdefault((entity_key(pair.entity), entity_key(pair.alias)), pair)
    return [a for (k, ak), a in found.items() if k and ak and k != ak]


def _after(name: str, after: str, keys: set[str]) -> list[Alias]:
    """``name (Y)``, ``name, also called Y``, ``name 又称Y``."""
    out: list[Alias] = []
    if m := _PAREN_AFTER.match(after):
        other = display_name(m.group(1))
        if _looks_like_name(other):
            if is_abbreviation(other, name):
                out.append(Alias(name, other))
            elif is_abbreviation(name, other):
                out.append(Alias(other, name))
    for pattern in (_ALSO_AFTER, _ZH_ALSO_AFTER):
        if m := pattern.match(after):
            other = display_name(m.group(1))
            known = entity_key(other) in keys
            if _looks_like_name(other) and (
                known or is_abbreviation(other, name) or is_abbreviation(name, other)
            ):
                out.append(Alias(name, other))
    return out


def _before(name: str, before: str, after: str) -> list[Alias]:
    """``X (name)``: the shortest run of words (or CJK characters) just before the
    parenthesis of which ``name`` is an abbreviation."""
    if not re.match(r"\s*[)）]", after) or not re.search(r"[(（]\s*$", before):
        return []
    head = re.sub(r"\s*[(（]\s*$", "", before)
    if head and _CJK_CHAR.match(head[-1]):
        run = re.search(f"[{_CJK}]+$", head)
        tail = run.group() if run else ""
        candidates = [tail[-n:] for n in range(2, min(len(tail), 12) + 1)]
    else:
        words = head.split()
        candidates = [" ".join(words[-n:]) for n in range(1, min(len(words), _MAX_WORDS) + 1)]
    for candidate in candidates:
        if is_abbreviation(name, candidate):
            return [Alias(display_name(candidate), name)]
    return []


def canonical_names(entities: Sequence[str], aliases: Sequence[Alias]) -> list[str]:
    """``entities`` with each declared alias replaced by its entity (and the entity added
    when only its alias was named), de-duplicated by key, order kept."""
    to_entity = {entity_key(a.alias): a.entity for a in aliases}
    out: dict[str, str] = {}
    for name in entities:
        key = entity_key(name)
        if not key:
            continue
        target = to_entity.get(key, name)
        out.setdefault(entity_key(target), display_name(target))
    return list(out.values())
