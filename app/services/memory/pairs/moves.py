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
from typing import Literal

from app.services.memory.pairs.lexical import content_words

_EN = re.compile(
    r"\b(?:moved|moves|switched|switches|changed|changes|went|transferred|migrated|swapped|"
    r"upgraded|relocated|renamed|renames)\b(?:\s+[\w']+){0,3}?\s+from\s+(?P<x>.+?)\s+(?:back\s+)?"
    r"(?:to|for)\s+(?P<y>.+?)\s*(?:[.,;!]|$)",
    re.IGNORECASE,
)
_ZH = re.compile(
    r"从(?P<x>[^，。,；;]{1,12}?)(?:搬|换|转|改|跳槽|调)[了到成去回]*(?P<y>[^，。,；;]{1,12})"
)


def changed(new: str, old: str) -> tuple[Literal["contradicts", "unsure"], str] | None:
    """A change ``new`` tells against ``old``: :func:`moved_away` → ``changed_from``
    (``contradicts`` when :func:`held`, else ``unsure``), :func:`switched_to` → ``unsure``,
    ``changed_to`` (both flagged as possible contradictions); None when neither."""
    if moved_away(new, old):
        return ("contradicts" if held(old) else "unsure"), "changed_from"
    return ("unsure", "changed_to") if switched_to(new, old) else None


# A switch told only with where it went ("has switched its CI to GitLab", 换了一部小米手机).
_EN_TO = re.compile(
    r"\b(?:switched|switches|changed|migrated|swapped|upgraded|converted)\b(?:\s+[\w']+){0,3}?"
    r"\s+(?:over\s+)?to\s+(?P<y>.+?)\s*(?:[.,;!]|$)",
    re.IGNORECASE,
)
_ZH_TO = re.compile(
    r"(?:换了|换成了?|改用了?|换用了?)(?:一[部台辆个款只家])?(?P<y>[^，。,；;了]{2,8})"
)


def switched_to(new: str, old: str) -> bool:
    """``new`` switches to something ``old`` does not name, no "from" said, and ``old`` is
    about the same thing: in English another content word of ``new`` (not the subject's) is in
    ``old`` ("runs CI on GitHub Actions" / "has switched its CI to GitLab"); in Chinese the
    new thing's last two characters are (用苹果手机 / 换了一部小米手机)."""
    m = _EN_TO.search(new) or _ZH_TO.search(new)
    if m is None or _EN.search(new) or _ZH.search(new):
        return False
    y = m.group("y")
    if m.re is _ZH_TO:
        return y not in old and y[-2:] in old
    went, have = set(content_words(y).words), set(content_words(old).words)
    if not went or went & have:
        return False
    before = set(content_words(new[: m.start("y")] + " " + new[m.end("y") :]).words)
    return bool((before - _SUBJECT) & have)


_SUBJECT = frozenset({"user", "team", "family", "partner", "wife", "husband"})


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
    r"runs?\s+on|is\s+on|(?:is|was)\s+(?:called|named))\b|用户(?:有|用|开|住在|在[^，。]{1,10}工作)",
    re.IGNORECASE,
)


def held(old: str) -> bool:
    """Whether ``old`` says its subject has, uses, drives, lives or works at what a change
    left (then the change ends it: ``contradicts``; "likes Lisbon" is not ended by a move)."""
    return _HELD.search(old) is not None
