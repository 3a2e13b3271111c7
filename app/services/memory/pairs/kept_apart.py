"""Pairs a merge would lose a fact of, told by their words (tester hbreak7 H22, H24), for the
guards of :mod:`.decision`: each answer is ``(action, reason)`` and the pair is never merged.

- :func:`contact`: another e-mail, web address, phone number or street address of the same
  slot (:mod:`.contacts`) → ``contradicts`` as ``slot_differs:<slot>`` when the rest of the two
  sentences agrees, else ``unsure``;
- :func:`another_thing`: an exception on one side only (:mod:`.exceptions`, ``except``,
  ``but not``, 除了…都) → ``contradicts`` or ``unsure`` as ``exception_differs``; a word that
  makes another thing of the other's (:mod:`.compounds`: vice president, 熊猫) → ``distinct``
  as ``other_thing_compound`` or ``unsure`` as ``compound_of_head``; a former state against a
  present one (:mod:`.former`: "used to live in Paris" / "lives in Paris", 以前住在上海) →
  ``unsure`` as ``former_differs``; an amount read two opposite ways (:mod:`.qualifiers`:
  before / after tax, 税前 / 税后, including / excluding) → ``unsure`` as
  ``qualifier_differs``; a word of calling off on one side only that no other guard read, in
  two statements that share a word (:data:`.plans.CALLED_OFF`: "went hiking in mid-July" /
  "the mid-July hike was cancelled because of rain") → ``unsure`` as
  ``called_off_elsewhere``, flagged. Pure."""

from __future__ import annotations

from typing import Literal

from app.core.text import has_cjk, stems
from app.services.memory.pairs import compounds, contacts, exceptions, former, qualifiers
from app.services.memory.pairs.plans import CALLED_OFF

Kept = tuple[Literal["contradicts", "distinct", "unsure"], str]


def contact(new: str, old: str) -> Kept | None:
    """Two values of one contact slot (module docstring), or None."""
    found = contacts.differs(new, old)
    if found is None:
        return None
    slot, rest_agrees = found
    return ("contradicts" if rest_agrees else "unsure"), f"slot_differs:{slot}"


def exception_or_compound(new: str, old: str) -> Kept | None:
    """An exception on one side only, or a word that makes another thing (module docstring;
    the guard a pair in two languages gets too: 热狗 / "dogs"), or None."""
    if (action := exceptions.differs(new, old)) is not None:
        return action, "exception_differs"
    return compounds.apart(new, old)


def another_thing(new: str, old: str) -> Kept | None:
    """An exception, another thing or a former state on one side only (module docstring), or
    None."""
    if (found := exception_or_compound(new, old)) is not None:
        return found
    if former.differs(new, old):
        return "unsure", "former_differs"
    if qualifiers.opposite(new, old):  # $5,000 before tax / after tax, 税前 / 税后 (K16)
        return "unsure", "qualifier_differs"
    if (CALLED_OFF.search(new) is None) != (CALLED_OFF.search(old) is None) and _about_one_thing(
        new, old
    ):
        return "unsure", "called_off_elsewhere"  # 去徒步了 / 徒步因为下雨取消了: flagged
    return None


def _words(value: str) -> frozenset[str]:
    """The keyword stems of ``value`` but its words of calling off and one-character Chinese
    words (去, 叫: verbs any two sentences share)."""
    return frozenset(
        w for w in stems(CALLED_OFF.sub(" ", value)) if not (len(w) == 1 and has_cjk(w))
    )


def _about_one_thing(new: str, old: str) -> bool:
    """Whether the two statements share a word (:func:`_words`): a calling off next to an
    unrelated statement of the same session is no possible change of it (tester hbreak10
    L4: 用户的去日本的旅行取消了。/ 用户现在的女朋友叫丽娜。 at cosine ~0.9)."""
    return bool(_words(new) & _words(old))
