"""Duplicates left in a recall's answer (issue 28, step 3: "top-k never holds two units that
the pair decision calls duplicates"): for each answer, the pairs of its hits that the write
path's pair decision merges in either direction, at the cosine of their value vectors (the
passage embeddings ``/store`` gives a value), with each side's type, entities and inferred
fields as recall's collapse reads them. Hits already folded into one (``duplicates``) count
as folds, not as pairs left."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from app.core.config import Settings
from app.services.memory.merge import thresholds
from app.services.memory.pairs.inferred import as_decided, inferred_fields
from app.services.memory.pairs.plan import Candidate, pair_decision


@dataclass
class TopDuplicates:
    """Across answers: how many were checked, held a pair the decision merges, the pairs, the
    hits that list folded duplicates, and a few pairs for the report."""

    answers: int = 0
    with_pair: int = 0
    pairs: int = 0
    folded_hits: int = 0
    examples: list[tuple[str, str, float]] = field(default_factory=list)


def _merges(a: dict[str, Any], b: dict[str, Any], cosine: float, settings: Settings) -> bool:
    t = thresholds(settings.dedupe, settings.conflicts, settings.embedding.model)
    for new, old in ((a, b), (b, a)):
        mine, theirs = (inferred_fields(x.get("metadata") or {}) for x in (new, old))
        seen = as_decided(new["type"], new["entities"], mine, old["type"], old["entities"], theirs)
        keys = frozenset(k.casefold() for k in seen.own_keys)
        other = frozenset(k.casefold() for k in seen.other_keys)
        candidate = Candidate(old["value"], seen.other_type, other, cosine)
        if pair_decision(new["value"], new["type"], keys, candidate, t).action == "merge":
            return True
    return False


async def count(answers: Sequence[list[dict[str, Any]]], settings: Settings) -> TopDuplicates:
    """The duplicates left in ``answers`` (each a recall's ``memories``), their values
    embedded here with the configured embedder."""
    from app.clients.embeddings import create_embedder

    values = sorted({h["value"] for hits in answers for h in hits})
    embedder = create_embedder(settings.embedding)
    try:
        matrix = await embedder.embed_passages(values) if values else np.zeros((0, 1))
    finally:
        await embedder.aclose()
    at = {v: i for i, v in enumerate(values)}
    out = TopDuplicates()
    for hits in answers:
        out.answers += 1
        out.folded_hits += sum(bool(h.get("duplicates")) for h in hits)
        found = 0
        for i, a in enumerate(hits):
            for b in hits[i + 1 :]:
                cosine = float(matrix[at[a["value"]]] @ matrix[at[b["value"]]])
                if _merges(a, b, cosine, settings):
                    found += 1
                    if len(out.examples) < 5:
                        out.examples.append((a["value"], b["value"], round(cosine, 3)))
        out.pairs += found
        out.with_pair += found > 0
    return out
