"""The development set's contradictions the shipped pair decision misses, one line each, and
the distinct pairs it flags or supersedes, offline (issue 28).

    .venv/bin/python scripts/missed_contradictions.py [--part NAME] [--all] [--distinct]

A contradiction (``expect == "contradicts"``) is *caught* when the decision supersedes it or
flags it as a possible contradiction (``eval_dedupe_unseen.decide``: ``contradicts`` or
``flag``); the decision's contradiction side is rules only (no fitted threshold changes it),
so the shipped decision's answer is the grouped CV's. Each line: the part the pair comes from
(``dev`` for the first development groups, else the spent part's name), the action and its
reason, the cosine, old and new. ``--part`` keeps one part (``eighth_held_back`` …);
``--all`` prints caught pairs too; ``--distinct`` prints the distinct pairs superseded or
flagged instead.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import eval_dedupe_unseen as unseen  # noqa: E402

from app.core.config import get_settings  # noqa: E402
from app.services.memory import merge  # noqa: E402
from app.services.memory.pairs import decision, features  # noqa: E402
from tests.dedupe_pairs_unseen import development  # noqa: E402


def parts() -> dict[str, str]:
    """Pair text (old, new) → the name of the part it comes from."""
    out = {(p.old, p.new): "dev" for _, p in development()}
    for part in unseen.SPENT:
        for _, p in part():
            out.setdefault((p.old, p.new), part.__name__)
    return out


async def amain(args: argparse.Namespace) -> None:
    dev = unseen.development_set()
    vectors, model = await unseen.embed([p for _, p in dev])
    s = get_settings()
    t = merge.thresholds(s.dedupe, s.conflicts, model)
    where = parts()
    want = "distinct" if args.distinct else "contradicts"
    counts: Counter[tuple[str, bool]] = Counter()
    for _, p in dev:
        if p.expect != want:
            continue
        part = where[(p.old, p.new)]
        if args.part and part != args.part:
            continue
        action = unseen.decide(vectors, p, t)
        d = decision.decide(features.statement(p.new), features.statement(p.old),
                            unseen._cos(vectors, p), type_equal=p.old_type == p.new_type,
                            thresholds=t)  # fmt: skip
        caught = action in ("contradicts", "flag")
        counts[(part, caught)] += 1
        show = caught if args.distinct else (args.all or not caught)
        if show:
            print(f"{part}\t{action}\t{d.reason}\t{unseen._cos(vectors, p):.3f}\t{p.old}\t{p.new}")
    for part in sorted({k for k, _ in counts}):
        n = counts[(part, True)] + counts[(part, False)]
        print(f"# {part}: {want} superseded or flagged {counts[(part, True)]}/{n}", file=sys.stderr)
    total = sum(counts.values())
    found = sum(v for (_, c), v in counts.items() if c)
    print(f"# all: {found}/{total}", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--part", default=None)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--distinct", action="store_true")
    asyncio.run(amain(ap.parse_args()))


if __name__ == "__main__":
    main()
