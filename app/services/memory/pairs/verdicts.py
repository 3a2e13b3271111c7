"""What an LLM's answer makes of an unsure pair (the reconciliation job, the conflict judge):
its verdict, and the action it leads to within what the pair decision allows."""

from __future__ import annotations

from typing import Literal

from app.services.memory.pairs.decision import Action, PairDecision

Verdict = Literal["same", "contradicts", "unrelated"]


def reconciled(decision: PairDecision, verdict: Verdict | None) -> Action:
    """What an unsure pair becomes once the LLM answered ``verdict`` (None: no answer, the
    pair stays ``distinct``). A ``same`` on a guarded pair stays ``distinct``: a negation,
    other values or swapped roles are never merged, whatever the LLM says."""
    if verdict == "same":
        return "merge" if decision.merge_allowed else "distinct"
    if verdict == "contradicts":
        return "contradicts"
    return "distinct"
