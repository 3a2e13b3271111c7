"""A change told with where it came from (issue 28, the spent fifth part's contradictions):
"The user moved from Lisbon to Porto", "switched from VS Code to Neovim", "moved their notes
from Obsidian to Notion", 用户从京东跳槽到了美团, 从苹果手机换成了小米手机 — against a
statement that names what it left (Lisbon, VS Code, Obsidian, 京东) and not what it went to,
the old one may no longer hold. The pair is ``unsure`` as ``changed_from`` and flagged as a
possible contradiction (:func:`.gate.flags_contradiction`): both kept, a review opens ("likes
Lisbon" is not ended by a move) — unless the old statement has, uses or lives in what was left
(:func:`held`): then a contradiction.

:func:`moved_away` reads the verb of change, then ``from X … to Y`` (从X…到 / 成 Y), and asks
that every content word of X is in the old statement (lemmas, :mod:`.lexical`) and none of Y
is. Pure.
"""

from __future__ import annotations

import re

from app.services.memory.pairs.lexical import content_words

_EN = re.compile(
    r"\b(?:moved|moves|switched|switches|changed|changes|went|transferred|migrated|swapped|"
    r"upgraded|relocated)\b(?:\s+[\w']+){0,3}?\s+from\s+(?P<x>.+?)\s+(?:back\s+)?"
    r"(?:to|for)\s+(?P<y>.+?)\s*(?:[.,;!]|$)",
    re.IGNORECASE,
)
_ZH = re.compile(
    r"从(?P<x>[^，。,；;]{1,12}?)(?:搬|换|转|改|跳槽|调)[了到成去回]*(?P<y>[^，。,；;]{1,12})"
)


def moved_away(new: str, old: str) -> bool:
    """Whether ``new`` tells a change from something ``old`` names to something it does not
    (module docstring)."""
    m = _EN.search(new) or _ZH.search(new)
    if m is None:
        return False
    if m.re is _ZH:  # characters: jieba may cut the same name two ways
        return m.group("x") in old and m.group("y") not in old
    have = set(content_words(old).words)
    left, went = content_words(m.group("x")).words, content_words(m.group("y")).words
    return bool(left) and bool(went) and set(left) <= have and not set(went) & have


# What the old statement holds its subject to: having, using, driving, a home or a job (tester
# hbreak7 H26: "switched from iPhone to Android" left "The user has an iPhone." current).
_HELD = re.compile(
    r"\b(?:has|have|owns?|uses?|using|drives?|driving|lives?\s+in|living\s+in|works?\s+(?:at|for)|"
    r"runs?\s+on|is\s+on)\b|用户(?:有|用|开|住在|在[^，。]{1,10}工作)",
    re.IGNORECASE,
)


def held(old: str) -> bool:
    """Whether ``old`` says its subject has, uses, drives, lives or works at what a change
    left (then the change ends it: ``contradicts``; "likes Lisbon" is not ended by a move)."""
    return _HELD.search(old) is not None
