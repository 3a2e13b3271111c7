"""The write path's pair decision on labelled pairs it was not tuned on
(``tests/dedupe_pairs_unseen.py``, issue 28 step 1), offline.

    .venv/bin/python scripts/eval_dedupe_unseen.py [--folds 5] [--held-back]

Two figures per kind:

- **shipped**: the decision as configured (weights and thresholds of docs/DEDUPE.md, tuned
  on ``tests/dedupe_pairs.py`` only), so out of sample on every pair here;
- **refit, grouped k-fold**: the logistic weights fitted again on the development set of
  docs/DEDUPE.md plus the other folds' pairs, ``merge_p`` raised above every training
  non-duplicate (zero false merges stays the first rule), scored on the held fold; folds are
  the source-fact groups, so no fact is in training and test at once.

``--held-back`` adds the held-back groups (scored once, at the end: shipped, and refit on
every development pair).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibrate_dedupe import classifier_set, logistic  # noqa: E402

from app.clients.embeddings import create_embedder  # noqa: E402
from app.core.config import get_settings  # noqa: E402
from app.services.memory import merge  # noqa: E402
from app.services.memory.pairs import decision, features  # noqa: E402
from app.services.memory.pairs.decision import Thresholds  # noqa: E402
from tests.dedupe_pairs import PAIRS, Pair  # noqa: E402
from tests.dedupe_pairs_unseen import development, held_back  # noqa: E402

Vectors = dict[str, np.ndarray]


async def embed(pairs: Sequence[Pair]) -> tuple[Vectors, str]:
    """Every text of ``pairs`` → its passage vector, and the model name."""
    embedder = create_embedder(get_settings().embedding)
    try:
        texts = list(dict.fromkeys([p.old for p in pairs] + [p.new for p in pairs]))
        vectors = await embedder.embed_passages(texts)
    finally:
        await embedder.aclose()
    return {t: vectors[k] for k, t in enumerate(texts)}, embedder.model


def _cos(v: Vectors, p: Pair) -> float:
    return float(np.dot(v[p.old], v[p.new]))


def decide(v: Vectors, p: Pair, t: Thresholds, w: tuple[float, ...] = decision.WEIGHTS) -> str:
    """The offline final action of one pair: merge, contradicts, unsure or distinct."""
    d = decision.decide(features.statement(p.new), features.statement(p.old), _cos(v, p),
                        thresholds=t, weights=w)  # fmt: skip
    return d.action


def refit(v: Vectors, pairs: Sequence[Pair], t: Thresholds) -> tuple[tuple[float, ...], float]:
    """Logistic weights on the classifier's pairs of ``pairs`` (as scripts/calibrate_dedupe.py
    fits them) and a ``merge_p`` above every non-duplicate's P(same), never below the
    configured one."""
    x, y = classifier_set(pairs, lambda p: _cos(v, p), t)
    w = logistic(x, y)
    scores = 1 / (1 + np.exp(-(x @ w)))
    top = float(scores[y == 0].max()) if (y == 0).any() else 0.0
    return tuple(float(c) for c in w), min(0.99, max(t.merge_p, top + 0.01))


@dataclasses.dataclass
class Row:
    """Counts of one kind (or all): pairs, merged, false merges, contradictions found."""

    pairs: int = 0
    merged: int = 0
    false_merges: int = 0
    contradictions_found: int = 0
    unsure: int = 0

    def add(self, p: Pair, action: str) -> None:
        self.pairs += 1
        self.merged += action == "merge" and p.expect == "same"
        self.false_merges += action == "merge" and p.expect != "same"
        self.contradictions_found += action == "contradicts" and p.expect == "contradicts"
        self.unsure += action == "unsure"


def table(title: str, rows: dict[tuple[str, str], Row]) -> str:
    lines = [f"### {title}", "", "| kind | want | pairs | merged | false merges | contradictions "
             "superseded or flagged | unsure |", "|---|---|---|---|---|---|---|"]  # fmt: skip
    total = {"same": Row(), "contradicts": Row(), "distinct": Row()}
    for (kind, want), r in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        lines.append(f"| {kind} | {want} | {r.pairs} | {r.merged} | {r.false_merges} | "
                     f"{r.contradictions_found} | {r.unsure} |")  # fmt: skip
        t = total[want]
        for field in dataclasses.fields(Row):
            setattr(t, field.name, getattr(t, field.name) + getattr(r, field.name))
    same, con, dist = total["same"], total["contradicts"], total["distinct"]
    false = same.false_merges + con.false_merges + dist.false_merges
    lines += ["", f"Duplicates merged {same.merged}/{same.pairs}; false merges {false}/"
              f"{con.pairs + dist.pairs}; contradictions superseded or flagged "
              f"{con.contradictions_found}/{con.pairs}."]  # fmt: skip
    return "\n".join(lines)


async def amain(args: argparse.Namespace) -> None:
    dev = development()
    back = held_back() if args.held_back else []
    vectors, model = await embed([*PAIRS, *(p for _, p in dev), *(p for _, p in back)])
    s = get_settings()
    t = merge.thresholds(s.dedupe, s.conflicts, model)
    shipped: dict[tuple[str, str], Row] = defaultdict(Row)
    for _, p in dev:
        shipped[(p.kind, p.expect)].add(p, decide(vectors, p, t))
    print(table(f"Shipped decision, {len(dev)} development pairs (out of sample)", shipped))
    groups = sorted({g for g, _ in dev})
    folds = [groups[k :: args.folds] for k in range(args.folds)]
    cv: dict[tuple[str, str], Row] = defaultdict(Row)
    for fold in folds:
        train = [*PAIRS, *(p for g, p in dev if g not in fold)]
        w, merge_p = refit(vectors, train, t)
        tf = dataclasses.replace(t, merge_p=merge_p)
        for g, p in dev:
            if g in fold:
                cv[(p.kind, p.expect)].add(p, decide(vectors, p, tf, w))
    print()
    print(table(f"Refit, {args.folds}-fold CV grouped by source fact", cv))
    if back:
        kept: dict[tuple[str, str], Row] = defaultdict(Row)
        again: dict[tuple[str, str], Row] = defaultdict(Row)
        w, merge_p = refit(vectors, [*PAIRS, *(p for _, p in dev)], t)
        tf = dataclasses.replace(t, merge_p=merge_p)
        for _, p in back:
            kept[(p.kind, p.expect)].add(p, decide(vectors, p, t))
            again[(p.kind, p.expect)].add(p, decide(vectors, p, tf, w))
        print()
        print(table(f"Held back ({len(back)} pairs): shipped decision", kept))
        print()
        print(table("Held back: refit on every development pair", again))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--held-back", action="store_true", help="Score the held-back groups.")
    asyncio.run(amain(parser.parse_args()))


if __name__ == "__main__":
    main()
