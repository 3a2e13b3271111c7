"""List questions lean less on the best hit's session.

"What books has Tim read?", "How many times has Melanie gone to the beach?", "What do Jon
and Gina both like?" ask for several things, and in a long conversation those were said in
several sessions. The context signal (app.services.recall.scoring) lifts the whole session of
the best hit — for "Which cities has John been to?" ten turns about the first trip fill the
list while the second city, said a month later, ranks 25th. For a list question the context
weight is scaled by :data:`CONTEXT_SCALE`; everything else is ranked as before.

A list question (:func:`asks_for_list`): English "has/have" (not "have to": the present
perfect of a life so far, or what someone has), "how many", "both", "in common"; Chinese
过 before 哪/什么 (去过哪些城市: the experiential aspect), 多少, 几 + a classifier (几次, 几本),
共同. Not a question that names a time or asks *when* (the time signal answers those, and
their evidence is one event). LoCoMo dev recall@10, before → in-sample / leave one
conversation out: non-adversarial 0.842 → 0.847 / 0.845, multi-hop 0.548 → 0.572 / 0.566,
open-domain 0.566 → 0.583 / 0.583, single-hop 0.932 → 0.932 / 0.929, temporal 0.947
unchanged (docs/EVAL.md "List questions").
"""

from __future__ import annotations

import re

from app.core.chinese_script import simplified
from app.schemas.recall import RecallRequest
from app.services.recall.scoring import Weighting

# The context weight of a list question, × the profile's (or the request's) context weight.
# Chosen on the LoCoMo dev split leave one conversation out, jointly with the rule (the
# folds chose 0.5, 0.5, 0.5, 0.6, 0.4 among 0.25-0.75; scripts/recall_offline_more.py).
CONTEXT_SCALE = 0.5

_ENGLISH = re.compile(r"\b(?:has|have)\b(?!\s+to\b)|\bhow\s+many\b|\bboth\b|\bin\s+common\b", re.I)
_CHINESE = re.compile(r"过(?:哪|什么)|多少|几[次个本家种位只部首场回]|共同")


def asks_for_list(query: str) -> bool:
    """Whether ``query`` asks for several things (the rule above; ~1 µs)."""
    return _ENGLISH.search(query) is not None or _CHINESE.search(query) is not None


def weighting(req: RecallRequest, base: Weighting, timed: bool) -> Weighting:
    """``base`` with the context weight × :data:`CONTEXT_SCALE` for a list question that
    names no time and does not ask *when* (``timed``); ``base`` itself otherwise, and when
    the request sets the context weight itself."""
    if timed or (req.weights is not None and req.weights.context is not None):
        return base
    if not asks_for_list(simplified(req.query)):  # 列出…, 哪些 in either script
        return base
    weights = dict(base.weights)
    weights["context"] = weights.get("context", 0.0) * CONTEXT_SCALE
    return Weighting(weights, base.recency_lambda)
