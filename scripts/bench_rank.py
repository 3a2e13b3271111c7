"""CPU time of recall's ranking (``app.services.recall.scoring.rank``) on synthetic candidates,
for this checkout and (``--compare DIR``) another one, with a check that both rank alike.

    .venv/bin/python scripts/bench_rank.py [--candidates 600] [--sets 30] [--compare DIR]

The candidates look like a small subject's on the exact path (docs/BENCHMARKS.md "Recall
CPU"): ``--candidates`` units in sessions of 20, 30% holding 1–3 of 6 query lexemes, cosine
similarities rounded to 0.01 and times to whole hours (so totals tie), a session on 95%.
Seeded: every run and checkout sees the same candidates. Each checkout runs in its own
process with ``app`` from it; prints the median ms per ``rank(limit=10)`` over 5 rounds of
``--sets`` calls, and whether the rankings (ids, scores, breakdowns, relevance, ``via`` and
relevance inputs, for limits None/10/1, both profiles, and without a time hint, with a time
window and for a question asking *when*) are identical, bit for bit.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from benchkit.checkout import run_child
from benchkit.report import add_json_arg, write_json

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import datetime as dt, hashlib, json, random, statistics, sys, time, uuid
from app.core.config import get_settings
from app.repositories.recall.repository import CandidateScore
from app.services.recall.scoring import profile_weights, rank
n, sets = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(7)
lexemes = [f"w{i}" for i in range(6)]
base = dt.datetime(2023, 5, 1, tzinfo=dt.timezone.utc)
def make(n):
    out = []
    for i in range(n):
        s, j = divmod(i, 20)
        tf = dict.fromkeys(rng.sample(lexemes, rng.randint(1, 3)), 1) if rng.random() < 0.3 else {}
        sv = round(rng.random(), 2)
        out.append(CandidateScore(uuid.UUID(int=rng.getrandbits(128)), sv,
            rng.choice([0.0, sv, rng.random()]), tf, rng.randint(3, 30), rng.random() < 0.1,
            f"s{s}" if rng.random() < 0.95 else None, base + dt.timedelta(hours=s * 24 + j // 3),
            rng.choice([0.5, 0.8, 1.0]), rng.random() < 0.2))
    rng.shuffle(out)
    return out
cases = [make(n) for _ in range(sets)] + [make(5), make(1), []]
now = dt.datetime(2023, 9, 1, tzinfo=dt.timezone.utc)
recall = get_settings().recall
weights = [profile_weights(p, recall) for p in ("long_term", "short_term")]
digest = hashlib.sha256()
window = (base + dt.timedelta(days=3), base + dt.timedelta(days=9))
for w in weights:
    for c in cases:
        for limit in (None, 10, 1):
            for hint, when in ((None, False), (window, False), (None, True)):
                for r in rank(c, w, now, limit=limit, window=hint, asks_when=when):
                    digest.update(repr((r.id, r.score, sorted(r.scores.items()), r.relevance,
                                        r.via, sorted(r.raw.items()))).encode())
rounds = []
for _ in range(5):
    t0 = time.perf_counter()
    for c in cases[:sets]:
        rank(c, weights[0], now, limit=10)
    rounds.append((time.perf_counter() - t0) / sets * 1000)
print(json.dumps({"median_ms": statistics.median(rounds), "rounds_ms": rounds,
                  "digest": digest.hexdigest()}))
"""


def run(checkout: Path, candidates: int, sets: int) -> dict:
    """The child's figures, with ``app`` imported from ``checkout``."""
    return dict(run_child(checkout, CHILD, candidates, sets, quiet=False))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--candidates", type=int, default=600, help="Candidates per recall.")
    ap.add_argument("--sets", type=int, default=30, help="Recalls per round.")
    ap.add_argument("--compare", type=Path, help="Another checkout to time the same way.")
    add_json_arg(ap)
    args = ap.parse_args()
    arms = [("this", ROOT)] + ([("compare", args.compare.resolve())] if args.compare else [])
    results = {name: run(path, args.candidates, args.sets) for name, path in arms}
    for name, r in results.items():
        rounds = ", ".join(f"{x:.2f}" for x in r["rounds_ms"])
        median = r["median_ms"]
        print(f"{name}: rank(limit=10) of {args.candidates}: median {median:.2f} ms ({rounds})")
    if args.compare:
        a, b = results["this"], results["compare"]
        print(f"ratio this/compare: {a['median_ms'] / b['median_ms']:.2f}")
        print("rankings identical" if a["digest"] == b["digest"] else "RANKINGS DIFFER")
    write_json(args.json, {"command": sys.argv, "arms": results})


if __name__ == "__main__":
    main()
