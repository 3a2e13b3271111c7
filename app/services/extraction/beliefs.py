"""What others believe of the user is not the user's statement (tester hbreak8 H18): "I hate
it when people assume I am vegan. I am not." made the constraint "The user is vegan.", the
opposite of what was said. English and Chinese, offline extractor:

- a clause that reports someone else's belief about the user ("people assume I am vegan",
  "my mom thinks I'm allergic", 别人总以为我是素食者) makes no typed unit (:func:`believed`) —
  what someone says ("My doctor says I'm allergic to penicillin") still does;
- a bare denial after it ("I am not.", 我不是。) is said in full ("I am not vegan.",
  我不是素食者。) before the message is read (:func:`rewritten`).
"""

from __future__ import annotations

import re

_EN_VERB = (
    r"(?:assume[sd]?|think|thinks|thought|believe[sd]?|presume[sd]?|suppose[sd]?|figure[sd]?|"
    r"imagine[sd]?|expect(?:s|ed)?|guess(?:es|ed)?)"
)
# someone other than "I" (or "you", asked) believing "I am …" of the user
_EN_BELIEF = re.compile(
    r"\b(?!(?:I|really|sometimes|also|still|just|always|often|usually|actually|honestly|now|do|"
    r"don['’]?t|even|kind\s+of|kinda|sort\s+of)\b)(?P<who>[A-Za-z][\w'’]*)\s+(?:always\s+|often\s+|usually\s+|just\s+|"
    r"all\s+|still\s+|keep\s+|sometimes\s+)?" + _EN_VERB + r"\s+(?:that\s+)?I(?:['’]m|\s+am)\s+"
)
_ZH_BELIEF = re.compile(r"(?<!我)(?:总是?|都|老是?|一直|常常|经常)?(?:以为|认为|觉得|当成)我是")
_EN_DENIED = re.compile(
    _EN_BELIEF.pattern
    + r"(?P<x>[^.!?,;]{1,40}?)\s*(?P<end>[.!?]+\s+|,\s*|\s+)(?P<lead>(?:but\s+|well,?\s+)?)"
    r"I(?:['’]m|\s+am)\s+not\s*(?=[.!]|$)",
    re.IGNORECASE,
)
_ZH_DENIED = re.compile(
    r"(?P<head>(?:以为|认为|觉得|当成)我是(?P<x>[^。，！？,!?]{1,12}?)[。！，,!]\s*(?:其实|但|但是|可)?)"
    r"我(?:并)?不是(?=[。！!]|$)"
)


def believed(clause: str) -> bool:
    """``clause`` reports what someone else believes the user is."""
    return bool(_EN_BELIEF.search(clause) or _ZH_BELIEF.search(clause))


def rewritten(text: str) -> str:
    """``text`` with a bare denial after a reported belief said in full (module docstring)."""
    text = _ZH_DENIED.sub(lambda m: f"{m['head']}我不是{m['x']}", text)
    return _EN_DENIED.sub(lambda m: m[0] + " " + m["x"], text)
