"""Fit the band's words (``REVIEW_UNMATCHED`` of app/services/memory/pairs/gate.py) on LoCoMo
conversations and report it on the others, offline.

    .venv/bin/python scripts/fit_review_band.py [--dataset PATH] [--write-doc]

The band of the review gate (an unsure pair at a cosine ≥ ``DEDUPE__REVIEW_COSINE_BY_MODEL``
with no other reason to open a review) opens one only for two statements, neither a question,
with at most K content words unmatched on either side (:func:`gate.in_band`). This script:

1. stores the LoCoMo dev ingest as ``scripts/pending_reviews.py`` does (each turn one unit,
   ``Speaker: text``) on a fresh embedded PostgreSQL with the app in process, and records every
   unsure pair the gate is asked about (the write path's own statements, cosines, subject
   words and shared entities);
2. for each K (and the band without words: "any") replays the gate on the recorded pairs
   with ``DEDUPE__MAX_UNSURE`` per unit, most similar first, and counts the reviews opened;
3. fits K grouped by conversation (leave one conversation out): the largest K whose pending
   reviews on the other conversations are at most :data:`AIM` per 100 stores, scored on the
   held conversation;
4. counts, on the labelled pairs (``tests/dedupe_pairs.py`` and the development groups of
   ``tests/dedupe_pairs_unseen.py``, never used to fit K), the unsure duplicates and
   contradictions whose review each K closes.

``--write-doc`` writes the block ``review-band-words`` of docs/DEDUPE.md.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "scripts"))

from app.services.memory import merge  # noqa: E402
from app.services.memory.pairs import decision, features, gate  # noqa: E402
from app.services.memory.pairs import plan as plan_mod  # noqa: E402

DOC = ROOT / "docs" / "DEDUPE.md"
DEFAULT_DATASET = ROOT / ".." / "shared" / "datasets" / "locomo-dev"
AIM = 5.0
"""Pending reviews per 100 stores of unrelated facts the band may leave (issue 28)."""
KS: tuple[int | None, ...] = (*range(11), None)  # None: the band without words


@dataclass
class Asked:
    """One unsure pair the gate was asked about on the ingest."""

    unit: int  # the store (plan) it belongs to
    conversation: str
    new: features.Statement
    old: features.Statement
    cosine: float
    flagged: bool  # gate.flags_contradiction: opens beyond DEDUPE__MAX_UNSURE
    other: bool  # opens without the band (two languages, slot, entity, swap, shared half…)
    two_speakers: bool = False  # gate.other_speakers, not flagged: the band opens nothing


async def record(dataset: Path) -> tuple[list[Asked], dict[str, int], float, int]:
    """The LoCoMo ingest's unsure pairs, the stores per conversation, the review cosine and
    ``DEDUPE__MAX_UNSURE``."""
    from eval_locomo import batches, in_process_client, read_dataset, turn_unit

    turns, _ = read_dataset(dataset)
    turns = sorted(turns, key=lambda t: (t["conversation_id"], t["order"]))
    units = [turn_unit(t, t["conversation_id"]) for t in turns]
    stores: dict[str, int] = defaultdict(int)
    for u in units:
        stores[u["user_id"]] += 1
    conversation = {u["value"]: u["user_id"] for u in units}
    asked: list[Asked] = []
    calls = [0]
    limits: list[tuple[float, int]] = []
    real_plan, real_worthy = merge.plan, plan_mod.review_worthy

    def plan(value: str, type_: str, keys: Any, candidates: Any, t: Any, max_unsure: int) -> Any:
        calls[0] += 1
        if max_unsure and not limits:
            limits.append((t.review_cosine, max_unsure))
        return real_plan(value, type_, keys, candidates, t, 20 if max_unsure else 0)

    def worthy(d: Any, new: Any, old: Any, cosine: float, shared: bool = False,
               subject: frozenset[str] = frozenset(), review_cosine: float = 0.95,
               p: float = 1.0, review_p: float = gate.REVIEW_P,
               review_unmatched: int | None = None) -> bool:  # fmt: skip
        other = real_worthy(d, new, old, cosine, shared, subject, 2.0, p, review_p, None)
        flagged = gate.flags_contradiction(d)
        apart = gate.other_speakers(new.value, old.value) and not flagged
        asked.append(Asked(calls[0], conversation.get(new.value, "?"), new, old, cosine,
                           flagged, other, apart))  # fmt: skip
        return real_worthy(d, new, old, cosine, shared, subject, review_cosine, p, review_p,
                           review_unmatched)  # fmt: skip

    merge.plan, plan_mod.review_worthy = plan, worthy  # type: ignore[assignment]
    try:
        async with in_process_client(None) as client:
            for chunk in batches(units, 100):
                r = await client.post("/store", json={"memories": chunk}, timeout=600)
                r.raise_for_status()
    finally:
        merge.plan, plan_mod.review_worthy = real_plan, real_worthy  # type: ignore[assignment]
    review_cosine, max_unsure = limits[0]
    return asked, dict(stores), review_cosine, max_unsure


def opened(asked: Sequence[Asked], k: int | None, band: float, max_unsure: int) -> dict[str, int]:
    """Reviews opened per conversation with the band's words at ``k``."""
    out: dict[str, int] = defaultdict(int)
    per_unit: dict[int, int] = defaultdict(int)
    for a in asked:  # in plan order: most similar first within a unit
        if per_unit[a.unit] >= max_unsure and not a.flagged:
            continue
        if a.other or (not a.two_speakers and gate.in_band(a.new, a.old, a.cosine, band, k)):
            per_unit[a.unit] += 1
            out[a.conversation] += 1
    return out


def rate(counts: dict[str, int], stores: dict[str, int], convs: Sequence[str]) -> float:
    n = sum(stores[c] for c in convs)
    return 100.0 * sum(counts.get(c, 0) for c in convs) / n if n else 0.0


def labelled_losses(band: float) -> dict[int | None, tuple[int, int, int]]:
    """Per K: (duplicates, contradictions, distinct pairs) of the labelled set's unsure pairs
    whose review the band's words close (one pair per subject: no subject words)."""
    from app.clients.embeddings import create_embedder
    from app.core.config import get_settings
    from tests.dedupe_pairs import PAIRS
    from tests.dedupe_pairs_unseen import development

    pairs = [*PAIRS, *(p for _, p in development())]

    async def embed() -> dict[str, np.ndarray]:
        embedder = create_embedder(get_settings().embedding)
        try:
            texts = list(dict.fromkeys([p.old for p in pairs] + [p.new for p in pairs]))
            vectors = await embedder.embed_passages(texts)
        finally:
            await embedder.aclose()
        return {t: vectors[k] for k, t in enumerate(texts)}

    v = asyncio.run(embed())
    out: dict[int | None, tuple[int, int, int]] = {}
    rows = []
    for p in pairs:
        new, old = features.statement(p.new), features.statement(p.old)
        c = float(np.dot(v[p.old], v[p.new]))
        d = decision.decide(new, old, c, type_equal=p.old_type == p.new_type)
        if d.action != "unsure":
            continue
        if d.merge_allowed and (why := gate.merge_ruled_out(new, old)):
            d = decision.PairDecision("unsure", why, d.p_same, False)
        base = gate.review_worthy(d, new, old, c, review_cosine=band, review_unmatched=None)
        rows.append((p.expect, d, new, old, c, base))
    for k in KS:
        lost = [e for e, d, new, old, c, base in rows
                if base and not gate.review_worthy(d, new, old, c, review_cosine=band,
                                                   review_unmatched=k)]  # fmt: skip
        out[k] = (lost.count("same"), lost.count("contradicts"), lost.count("distinct"))
    return out


Counts = dict[int | None, dict[str, int]]


def fit(counts: Counts, stores: dict[str, int], train: Sequence[str]) -> int | None:
    """The largest K (None the largest) whose pending rate on ``train`` is at most AIM."""
    ok = [k for k in KS if rate(counts[k], stores, train) <= AIM]
    if None in ok:
        return None
    return max((k for k in ok if k is not None), default=0)


def report(asked: list[Asked], stores: dict[str, int], band: float, max_unsure: int) -> str:
    convs = sorted(stores)
    counts = {k: opened(asked, k, band, max_unsure) for k in KS}
    lost = labelled_losses(band)
    name = {k: "any" if k is None else str(k) for k in KS}
    lines = ["| K (unmatched words on a side) | LoCoMo reviews per 100 stores | "
             + " | ".join(convs) + " | labelled reviews closed: duplicates / contradictions "
             "/ distinct |", "|---|---|" + "---|" * len(convs) + "---|"]  # fmt: skip
    for k in KS:
        per = " | ".join(f"{rate(counts[k], stores, [c]):.1f}" for c in convs)
        lines.append(f"| {name[k]} | {rate(counts[k], stores, convs):.1f} | {per} | "
                     f"{' / '.join(map(str, lost[k]))} |")  # fmt: skip
    cv = ["", "| held conversation | K fitted on the other four | its reviews per 100 stores "
          "| before (band without words) |", "|---|---|---|---|"]  # fmt: skip
    total, before = 0, 0
    for held in convs:
        k = fit(counts, stores, [c for c in convs if c != held])
        total += counts[k].get(held, 0)
        before += counts[None].get(held, 0)
        cv.append(f"| {held} | {name[k]} | {rate(counts[k], stores, [held]):.1f} | "
                  f"{rate(counts[None], stores, [held]):.1f} |")  # fmt: skip
    n = sum(stores.values())
    cv.append(f"| **all, each held out** | — | **{100.0 * total / n:.1f}** | "
              f"{100.0 * before / n:.1f} |")  # fmt: skip
    fitted = fit(counts, stores, convs)
    return "\n".join([*lines, *cv, "", f"Fitted on all five conversations: K = {name[fitted]} "
                      f"(shipped: {gate.REVIEW_UNMATCHED}); review cosine {band}, at most "
                      f"{max_unsure} reviews per unit but flagged contradictions."])  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default=str(DEFAULT_DATASET))
    parser.add_argument("--write-doc", action="store_true")
    args = parser.parse_args()
    asked, stores, band, max_unsure = asyncio.run(record(Path(args.dataset)))
    from benchkit import docsection, timing

    body = (f"Command: `.venv/bin/python scripts/fit_review_band.py "
            f"{' '.join(sys.argv[1:])}` — date {datetime.now(UTC):%Y-%m-%d %H:%M UTC}, "
            f"{timing.uptime_line()}. {len(asked)} unsure pairs asked of the gate on "
            f"{sum(stores.values())} stores.\n\n")  # fmt: skip
    body += report(asked, stores, band, max_unsure)
    print(body)
    if args.write_doc:
        docsection.write_block(DOC, "review-band-words", body, "### The band's words")
        print(f"wrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
