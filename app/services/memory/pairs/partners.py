"""The user's partner, one value of one slot (tester K4, K5): "The user's boyfriend is named
Tom." and "The user is dating Alex now." name two partners, and the second replaces the first —
it was kept apart as another person's fact ("boyfriend" is a person of the user's:
:mod:`.referents`), so "The user's boyfriend is named Tom." stayed current after "My boyfriend
Tom and I broke up. I'm dating Alex now.". Read here, before what each statement is about
(:mod:`.prior`):

- each statement is the user's partner relation and nothing else: dating, seeing, in a
  relationship with, engaged or married to X ("got married to X"); the user's boyfriend,
  girlfriend, partner, fiancé(e), wife or husband is (named) X, or X is, or the user has a
  new one named X; 用户在和X交往 / 约会 /
  谈恋爱, 用户和X在一起了, 用户已和X结婚, 用户的男朋友 / 女朋友 / 老公 / 老婆…叫 / 是X; or a status
  without a name: married (用户已婚, 用户结婚了), single (用户单身);
- another partner named → ``contradicts`` (``slot_differs:partner``); the same partner, a
  step further (dating → engaged → married) → ``contradicts`` too; single → a partner or
  married → ``contradicts``. The write path reads the new statement as a change, whenever it
  says it happened (:func:`app.services.memory.resolution.order`): the later word on the
  user's partner holds ("got married to Sam last month", said after "is dating Tom").
  Married without a name against a partner named decides nothing here (married to that
  partner, or not: flagged or kept by the rest of the decision).

One language (both English or both Chinese); a relative's partner ("the user's sister is
dating Tom") is no statement of the user's. Pure."""

from __future__ import annotations

import re

from app.core.text import has_cjk

REASON = "slot_differs:partner"
_NAME = r"(?P<name>(?-i:[A-Z])[\w'’-]*(?:\s+(?-i:[A-Z])[\w'’-]*){0,2})"
_TAIL = (
    r"(?:\s+(?:now|again|these\s+days|currently|at\s+the\s+moment))?"
    r"(?:\s+(?:in|on|since)\s+[^.!?]{1,40})?\s*[.!]?\s*$"
)
_WHO = r"(?P<kind>boyfriend|girlfriend|partner|fianc[ée]e?|wife|husband|spouse)"
_EN = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"^\s*the\s+user\s+(?:is|has\s+been)\s+(?:now\s+|currently\s+|still\s+)?"
        r"(?P<kind>dating|seeing|going\s+out\s+with|in\s+a\s+relationship\s+with|together\s+with|"
        rf"engaged|married)(?:\s+to)?\s+{_NAME}{_TAIL}",
        rf"^\s*the\s+user\s+(?:just\s+|finally\s+)?got\s+(?P<kind>married|engaged)\s+to\s+{_NAME}{_TAIL}",
        rf"^\s*the\s+user['’]s\s+(?:new\s+|current\s+)?{_WHO}\s+is\s+(?:now\s+)?"
        rf"(?:named\s+|called\s+)?{_NAME}{_TAIL}",
        rf"^\s*{_NAME}\s+is\s+(?:now\s+)?the\s+user['’]s\s+(?:new\s+|current\s+)?{_WHO}{_TAIL}",
        rf"^\s*the\s+user\s+(?:just\s+|finally\s+)?(?P<kind>married)\s+{_NAME}{_TAIL}",
        rf"^\s*the\s+user\s+has\s+a\s+(?:new\s+)?{_WHO}(?:,|\s+named|\s+called)\s+{_NAME}{_TAIL}",
        rf"^\s*{_NAME}\s+and\s+the\s+user\s+(?:just\s+|finally\s+)?got\s+(?P<kind>married|engaged)"
        rf"{_TAIL}",
    )
)
_EN_STATUS = re.compile(
    r"^\s*the\s+user\s+(?:is|got)\s+(?:now\s+|currently\s+|still\s+)?(?P<status>married|single)"
    + _TAIL,
    re.IGNORECASE,
)
_ZH_NAME = r"(?P<name>[^\s，。,.！？!?的了]{1,6}?)"
_ZH_WHO = r"男朋友|女朋友|男友|女友|对象|老公|老婆|丈夫|妻子|先生|太太|未婚夫|未婚妻|伴侣"
_ZH = tuple(
    re.compile(p)
    for p in (
        rf"^用户(?:现在|目前)?(?:正)?在?(?:和|跟|与){_ZH_NAME}(?P<kind>交往|约会|谈恋爱|恋爱|在一起)了?[。！]?$",
        rf"^用户(?:已经?|刚刚?|终于)?(?:和|跟|与){_ZH_NAME}(?P<kind>结婚|订婚)了?[。！]?$",
        rf"^用户的?(?:现在的|目前的|新)?(?P<kind>{_ZH_WHO})(?:现在)?(?:叫|是){_ZH_NAME}[。！]?$",
    )
)
_ZH_STATUS = re.compile(r"^用户(?:现在|目前)?(?:是|已经?)?(?P<status>已婚|结婚|单身)了?[。！]?$")
# How far a relation goes: dating < engaged < married.
_STEP = {"married": 2, "wife": 2, "husband": 2, "spouse": 2, "结婚": 2, "老公": 2, "老婆": 2,
         "丈夫": 2, "妻子": 2, "先生": 2, "太太": 2, "engaged": 1, "订婚": 1, "未婚夫": 1,
         "未婚妻": 1, "fiance": 1, "fiancé": 1, "fiancee": 1, "fiancée": 1}  # fmt: skip


def _relation(value: str) -> tuple[str, int] | None:
    """(partner's name casefolded, or "married" / "single"; how far the relation goes) of a
    statement that is only the user's partner relation; None for anything else."""
    zh = has_cjk(value)
    m = next((m for p in (_ZH if zh else _EN) if (m := p.match(value))), None)
    if m is not None:
        return m.group("name").casefold(), _STEP.get(m.group("kind").casefold(), 0)
    s = (_ZH_STATUS if zh else _EN_STATUS).match(value)
    if s is None:
        return None
    status = s.group("status").casefold()
    return ("single", -1) if status in ("single", "单身") else ("married", 2)


def replaced(new: str, old: str) -> bool:
    """``new`` names the user's partner (or status) that replaces the one ``old`` names (the
    module docstring's rules)."""
    if has_cjk(new) != has_cjk(old):
        return False
    a, b = _relation(new), _relation(old)
    if a is None or b is None or a[1] < 0:
        return False  # "single" after a partner: flagged elsewhere (rules.relationship_ended)
    (name_a, step_a), (name_b, step_b) = a, b
    if name_b == "single":
        return True  # single, then a partner or married
    if name_a == "married" or name_b == "married":
        return False  # married to whom: not said
    if name_a == name_b or name_a in name_b or name_b in name_a:
        return step_a > step_b  # dating Sam, then married to Sam
    return True
