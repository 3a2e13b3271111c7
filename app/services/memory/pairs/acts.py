"""Two past events of one thing told with another act each, in Chinese: 用户的猫死了 / 用户的猫丢了
(the cat died / got lost) — every other word the same or matched (:func:`.lexical.align`),
one verb of one character left on each side that CC-CEDICT does not match (a longer word may
be a euphemism its first definitions miss: 去世 / 走, "passed away"). Two events, never one
fact told twice: the pair decision keeps them ``unsure`` and never merged (a duplicate review
offered the merge). Not in English: WordNet leaves verbs of one act unmatched too often
("lost" / "dropped 5 kg", "made" / "cooked dinner": duplicates of the calibration set). Pure."""

from __future__ import annotations

from app.core import text
from app.services.memory.pairs import lexical, lexicon, referents


def other_event(new: str, old: str) -> bool:
    """Whether ``new`` and ``old`` (both Chinese) are two past events that differ by one act
    each and nothing else (module docstring)."""
    if not (text.has_cjk(new) and text.has_cjk(old)):
        return False
    if "past" not in referents.moods(new) or "past" not in referents.moods(old):
        return False
    al = lexical.align(new, old)
    if len(al.unmatched_a) != 1 or len(al.unmatched_b) != 1 or al.n_a < 2 or al.n_b < 2:
        return False
    a, b = al.unmatched_a[0], al.unmatched_b[0]
    if len(a) != 1 or len(b) != 1:
        return False  # 去世 / 走 (to die, euphemism: a later definition), 卖 / 卖掉
    return _act(a) and _act(b)


def _act(word: str) -> bool:
    """Whether a Chinese word is a verb: one of its first CC-CEDICT definitions is "to …"
    (丢: "to lose", 死: "to die"; not 瘦: "thin")."""
    return any(d.startswith("to ") for d in lexicon._cedict().get(word, ()))
