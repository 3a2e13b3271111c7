r"""Two values read as one sentence frame with words swapped in one place (text written with
spaces between words: a Chinese sentence is one ``\w+`` run, so these never hold for it).

- :func:`one_slot_swapped`: one or two words replaced on each side ("bought" / "sold a
  house", "leaves from" / "arrives at"): another fact or a change, never a rewording that
  content-word alignment may merge (tester B9).
- :func:`kind_swapped`: one word before the same noun replaced ("makes his ice cream with
  coconut milk" / "with almond milk", "looking for Marley flooring" / "hardwood flooring"):
  another kind of the one thing the sentence is about — a possible contradiction to flag, not
  a rewording (issue 28). Not a thing named anew ("plays the piano" / "the guitar", "has a
  dog" / "a cat": the swapped word is the noun itself, and one may have both), not another
  one of several ("has a black cat" / "a white cat": an article opens a new one), not a taste
  ("likes Italian food" / "Chinese food": one may like both), not a past event ("went to the
  LGBTQ support group" / "the cancer support group": two events).

Pure: word lists from :mod:`.lexicon`.
"""

from __future__ import annotations

import re

from app.services.memory.pairs import lexical, lexicon, referents, synonymy

_WORD = re.compile(r"\w+")

# The words before a replaced one that open another thing of several (an article, "another",
# a count word): "has a black cat" / "a white cat" may be two cats.
_OPENS_ONE = frozenset("a an another one some other more several many few".split())
# Verbs of taste and feeling: one may like, love or fear several kinds of one thing.
_TASTE = re.compile(
    r"\b(?:likes?|liked|liking|loves?|loved|loving|enjoys?|enjoyed|enjoying|hates?|hated|"
    r"dislikes?|disliked|fond|fan|fans|into|interested|allergic|afraid|scared|fears?|"
    r"can't\s+stand|cannot\s+stand|tried|tries|try|trying|collects?|collected|collecting)\b",
    re.IGNORECASE,
)


def swapped_span(a: str, b: str) -> tuple[list[str], list[str], int, int]:
    """The case-folded words of ``a`` and ``b``, and how many words they share at the start
    and at the end (the end counted within what the start leaves)."""
    wa, wb = _WORD.findall(a.casefold()), _WORD.findall(b.casefold())
    start = 0
    while start < min(len(wa), len(wb)) and wa[start] == wb[start]:
        start += 1
    end = 0
    while end < min(len(wa), len(wb)) - start and wa[-1 - end] == wb[-1 - end]:
        end += 1
    return wa, wb, start, end


def one_slot_swapped(a: str, b: str, width: int = 2) -> bool:
    """Whether ``a`` and ``b`` are one sentence frame with at most ``width`` words in one
    place replaced on each side (the words before and after it the same). A different
    opening is the subject told another way ("I'm" / "Caroline is looking into adoption
    agencies"), which the person-shift pairs merge: not a swap."""
    wa, wb, start, end = swapped_span(a, b)
    mid_a, mid_b = len(wa) - start - end, len(wb) - start - end
    return start > 0 and 0 < mid_a <= width and 0 < mid_b <= width


def kind_swapped(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one sentence frame with one word replaced right before the
    same noun — another kind of one thing (see the module docstring): the words are no
    numbers, no verbs or adverbs and no synonyms of each other, the word after them is a
    content word WordNet reads as a noun first (or WordNet names both kinds: green_tea /
    black_tea), the word before them opens no new one, and the sentence is no taste, feeling
    or past event."""
    wa, wb, start, end = swapped_span(a, b)
    if start == 0 or end == 0 or len(wa) - start - end != 1 or len(wb) - start - end != 1:
        return False
    x, y, head = wa[start], wb[start], wa[start + 1]
    if any(ch.isdigit() for ch in x + y + head) or wa[start - 1] in _OPENS_ONE:
        return False
    if _TASTE.search(a) or _TASTE.search(b):
        return False
    if "past" in referents.moods(a) | referents.moods(b):
        return False  # "went to the LGBTQ / the cancer support group": two events
    lx, ly, lh = lexicon.lemma(x), lexicon.lemma(y), lexicon.lemma(head)
    # Two kinds WordNet names (green_tea / black_tea, oil_paint / acrylic_paint), or a noun
    # after them ("learning / studying Spanish", "lives / works in": none).
    compounds = lexicon.is_compound(f"{lx}_{lh}") and lexicon.is_compound(f"{ly}_{lh}")
    if not compounds and (
        lexicon.main_pos(lh) != 0 or not _content(lh, lx, a) or not _content(lh, ly, b)
    ):
        return False
    if any(lexicon.main_pos(w) not in (0, 2, None) for w in (lx, ly)):
        return False  # a verb or an adverb replaced: another action, not another kind
    return not synonymy.synonyms(lx, ly)


def _content(head: str, modifier: str, value: str) -> bool:
    """Whether ``head`` is a content word of ``value``, alone or in a compound WordNet knows
    with the word before it (coconut_milk)."""
    words = lexical.content_words(value).words
    return head in words or f"{modifier}_{head}" in words
