"""Readings the pair decision (:mod:`.decision`) checks before what each statement is about
(:mod:`.referents`), because a person named in them is no other holder (issue 28):

- a breakup with the partner the old statement names (用户的女朋友叫林悦 / 用户和林悦已经分手了:
  :func:`.endings.broke_up`) → ``contradicts`` as ``state_ended:relationship``;
- another partner of the user's, or the same one a step further ("The user's boyfriend is
  named Tom." / "The user is dating Alex now.", 用户的男朋友叫小王 / 用户在和小李交往; "is dating
  Sam" / "is married to Sam"; "is single" / "is married": :func:`.partners.replaced`) →
  ``contradicts`` as ``slot_differs:partner`` (tester K4, K5);
- the one a cleft sentence picks out, changed ("It was Maria's aunt who helped her family…" /
  "It was Maria's grandfather who helped her family…": one did it, by the sentence's own
  words) → ``unsure`` as ``focus_differs``, flagged as a possible contradiction (a correction,
  or two tellings to be decided), never merged;
- the same English sentence with another rate ("volunteers once a month" / "every week":
  :func:`.retold.rate_changed`) → ``unsure`` as ``rate_changed``, flagged; and with another
  place in one contest, a win against a place ("won first place at regionals" / "came third":
  :func:`.retold.placing_changed`) → ``unsure`` as ``placing_changed``, flagged;
- one thing parted with two ways ("donated her old car" / "sold her old car", 把旧车捐了 /
  把旧车卖了: :func:`parted_otherwise`) → ``unsure`` as ``parted_otherwise``, flagged;
- across English and Chinese, a correction naming another place and a plan called off
  (:mod:`.crossed`) → ``unsure`` as ``changed_other_language``, flagged.

Pure."""

from __future__ import annotations

import re
from typing import Literal

from app.services.memory.pairs import crossed, endings, partners, retold

_CLEFT = re.compile(
    r"^\s*it\s+(?:was|is)\s+(?P<focus>.+?)\s+(?:who|that|whom)\s+(?P<rest>.+?)[\s.!。]*$",
    re.IGNORECASE,
)


def decided(new: str, old: str) -> tuple[Literal["contradicts", "unsure"], str] | None:
    """``(action, reason)`` of the readings above, or None when neither holds."""
    if endings.broke_up(new, old):
        return "contradicts", f"{endings.REASON}:relationship"
    if partners.replaced(new, old):  # boyfriend is named Tom / dating Alex now (K4, K5)
        return "contradicts", partners.REASON
    if focus_changed(new, old):
        return "unsure", "focus_differs"
    if retold.rate_changed(new, old):  # once a month / every week
        return "unsure", "rate_changed"
    if retold.placing_changed(new, old):  # won first place / came third at regionals
        return "unsure", "placing_changed"
    if parted_otherwise(new, old):  # donated / sold her old car
        return "unsure", "parted_otherwise"
    if crossed.corrected(new, old) or crossed.plan_dropped(new, old):  # 其实在 Miami, 不搬了
        return "unsure", "changed_other_language"
    return None


# One thing parted with: sold, donated, given away, thrown out (把旧车卖了, 把旧车捐了).
_EN_PARTED = re.compile(
    r"\b(?P<verb>sold|donated|gave\s+away|threw\s+(?:away|out)|scrapped|traded\s+in|recycled)\s+"
    r"(?:the\s+user['’]s|his|her|their|my|our|the)\s+(?P<thing>(?:[\w-]+\s+){0,2}?[\w-]+)"
    r"(?=\s+(?:to|for|at|in|on|last|this|after)\b|[.,;!]|$)",
    re.IGNORECASE,
)
_ZH_PARTED = re.compile(r"把(?P<thing>[^，。,把]{1,8}?)(?P<verb>卖|捐|送|扔|回收)")


def parted_otherwise(new: str, old: str) -> bool:
    """Both say their holder parted with the same thing (the same words after the possessive,
    or after 把), each with another verb ("donated her old car to a shelter" / "sold her old
    car to a dealer", 把旧车捐了 / 把旧车卖了): one of the two tellings is wrong."""
    a = _EN_PARTED.search(new) or _ZH_PARTED.search(new)
    b = _EN_PARTED.search(old) or _ZH_PARTED.search(old)
    if a is None or b is None or a.re is not b.re:
        return False
    same = a.group("thing").casefold() == b.group("thing").casefold()
    return same and a.group("verb").casefold() != b.group("verb").casefold()


def focus_changed(new: str, old: str) -> bool:
    """Both are English cleft sentences ("It was X who …") with the same words after "who" or
    "that" and another X."""
    a, b = _CLEFT.match(new), _CLEFT.match(old)
    if a is None or b is None:
        return False
    same_rest = a.group("rest").casefold() == b.group("rest").casefold()
    return same_rest and a.group("focus").casefold() != b.group("focus").casefold()
