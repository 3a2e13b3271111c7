"""An allergy said to be over (tester hbreak8 H1), read as "no longer allergic":
我的花生过敏已经好了 made a NEW allergy unit (用户对的花生过敏。) and "I've outgrown my
shellfish allergy" a constraint "The user is allergic to outgrown …". The sentence is read as
我不再对花生过敏了 / "I am no longer allergic to shellfish", which the write path reads as the
end of the allergy (a supersede). Offline extractor, before the message is read."""

from __future__ import annotations

import re

_EN_THING = r"(?P<x>[\w-]+(?:\s+[\w-]+)?)"
_EN_OVER = (
    re.compile(
        r"\bI(?:['’]ve|\s+have)?\s+(?:finally\s+|now\s+|already\s+)?(?:outgrown|outgrew|"
        r"gotten\s+over|got\s+over|beaten|beat)\s+(?:my|the|that)\s+" + _EN_THING + r"\s+allergy\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bmy\s+" + _EN_THING + r"\s+allergy\s+(?:is|has|was)?\s*(?:now\s+|finally\s+|"
        r"completely\s+|totally\s+)?(?:gone|over|cured|been\s+cured|cleared(?:\s+up)?|"
        r"went\s+away|gone\s+away|disappeared|resolved)\b",
        re.IGNORECASE,
    ),
)
_ZH_OVER = re.compile(
    r"我(?:的)?(?P<x>[^，,。！？!?的我]{1,8}?)过敏(?:症)?(?:已经|终于|早就|现在)?"
    r"(?:好了|痊愈了|没了|消失了|治好了|好啦)"
)


def rewritten(text: str) -> str:
    """``text`` with each "my X allergy is gone" / 我的X过敏已经好了 said as "I am no longer
    allergic to X" / 我不再对X过敏了 (module docstring)."""
    text = _ZH_OVER.sub(lambda m: f"我不再对{m['x']}过敏了", text)
    for pattern in _EN_OVER:
        text = pattern.sub(lambda m: f"I am no longer allergic to {m['x']}", text)
    return text
