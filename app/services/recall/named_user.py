"""A question that names the user (issue 28): "What is Lena's job?", 莉娜是做什么工作的？ where a
unit says "The user is called Lena" / 用户叫莉娜 (:func:`user_named`). Units stored without the
name ("The user works as a midwife.") hold no "Lena" for the keyword and entity signals, and
the embedding of the question is drawn to the name too, so the one unit that only states the
name ranked first, and someone else's job ("Jonas got a new job at Siemens") above the user's.

For a question that asks for a slot (:mod:`app.services.recall.answer_type`: a job), once it
names the user it is about the user as "What is my job?" is: only the user's own units fill
the slot (``AnswerType.about_user``). For either, a hit that does not answer but states the
user's name (what the question already knows), or fills the slot for someone else (Jonas's
job), scores at most the best hit that answers (:func:`below_answers`), as a superseded hit
is held at its successor's (app.services.recall.history) and a hit naming only another
thing of the asked kind at the hits naming it (app.services.recall.other_kind).

A rule, no weight. Pure.
"""

from __future__ import annotations

import dataclasses
import re
import uuid
from collections.abc import Iterable, Mapping, Sequence

from app.core.text import has_cjk
from app.services.extraction.standalone import user_name
from app.services.memory.pairs import rules
from app.services.recall.scoring import Ranked


def user_named(question: str, values: Iterable[str]) -> str | None:
    """The user's name as one of ``values`` states it ("The user is called Lena", "The user's
    name is Lena", 用户叫莉娜: :func:`app.services.extraction.standalone.user_name`), when
    ``question`` names it: the whole name or one of its words, as a word of the question
    (case-folded); a Chinese name anywhere in it. None when no value states a name the
    question names."""
    folded = question.casefold()
    for value in values:
        name = user_name([value])
        if name and _names(folded, name):
            return name
    return None


def _names(question: str, name: str) -> bool:
    """Whether the case-folded ``question`` names ``name`` (module docstring)."""
    if has_cjk(name):
        return name in question
    words = [w for w in name.casefold().split() if len(w) > 2 and not w.endswith(".")]
    return any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", question) for w in words)


def below_answers(
    ranked: Sequence[Ranked],
    values: Mapping[uuid.UUID, str],
    slots: frozenset[str],
    name: str | None,
) -> list[Ranked]:
    """``ranked`` (best first, after the answer-type lift of a question about the user's own
    ``slots``) with each hit that does not answer it (``answer_type`` 0) but states the
    user's ``name`` or fills one of the ``slots`` for someone else ("Jonas got a new job at
    Siemens") scored at most the best hit that answers, then sorted again (a held hit after
    the hit that holds it; else in the given order). Unchanged when no hit answers.
    ``values``: the hits' texts."""
    best = max((r.score for r in ranked if r.scores.get("answer_type")), default=None)
    if best is None:
        return list(ranked)
    held = [
        r.score > best
        and not r.scores.get("answer_type")
        and _off_answer(values.get(r.id, ""), slots, name)
        for r in ranked
    ]
    if not any(held):
        return list(ranked)
    out = [
        dataclasses.replace(r, score=best) if h else r for r, h in zip(ranked, held, strict=True)
    ]
    order = sorted(range(len(out)), key=lambda i: (-out[i].score, held[i], i))
    return [out[i] for i in order]


def _off_answer(value: str, slots: frozenset[str], name: str | None) -> bool:
    """Whether ``value`` states the user's ``name`` or fills one of ``slots`` (someone
    else's, when it is no answer)."""
    if name is not None and user_name([value]) == name:
        return True
    return not slots.isdisjoint(rules.slots(value))
