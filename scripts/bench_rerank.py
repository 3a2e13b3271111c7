"""Latency the recall rerank stage (``rerank: llm``) adds, with a scripted LLM on 127.0.0.1.

    .venv/bin/python scripts/bench_rerank.py [--questions 60] [--repeats 3] [--write-doc]

1. Starts the app in-process (httpx over ASGI) on a temporary embedded PostgreSQL, with the
   LLM pointed at tests/fake_llm.py's server on 127.0.0.1 (the OpenAI chat API; it answers
   with the prompt's candidate labels in reverse after a chosen delay) and the conflict judge
   off (the store path never calls it).
2. Stores one LoCoMo dev conversation (``--conversation``, read from
   ``--dataset``, never copied into the repository) one unit per turn, as
   scripts/eval_locomo.py does.
3. Recalls its questions (``top_k`` 10, ``rerank_candidates`` 20, the shipped 500 ms budget)
   once per arm, the arms in a shuffled order per question: ``none`` (the anchor: hybrid
   only), ``llm`` with the LLM answering after 0 ms, after 200 ms, and after the budget plus
   200 ms (the budget cuts in), and ``llm`` again right after the 0 ms call (the cache
   answers). The cache is emptied before every other ``llm`` call.
4. Prints, per arm, p50/p95 of the server's ``took_ms`` and of the client's round trip, the
   added p50/p95 against the anchor of the same run, and how often the budget cut in
   (``rerank.status`` timeout) and answers were ``degraded``. With ``--repeats`` the figures
   are the medians of the runs. ``--write-doc`` puts the table into docs/BENCHMARKS.md
   ("Rerank" section, between its markers).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from benchkit import docsection  # noqa: E402
from benchkit.report import add_json_arg, write_json  # noqa: E402
from benchkit.timing import pct  # noqa: E402
from eval_locomo import in_process_app, ingest, read_jsonl  # noqa: E402

from app.core.config import ConflictSettings, LLMSettings, RecallSettings  # noqa: E402
from tests.fake_llm import FakeLLM, reversed_order  # noqa: E402

DEFAULT_DATASET = Path("/work/shared/datasets/locomo-dev")
DOC = ROOT / "docs" / "BENCHMARKS.md"
TOP_K = 10
CANDIDATES = 20


@dataclass
class Arm:
    """One way of recalling: ``rerank`` and the scripted LLM's delay (None: no LLM call)."""

    name: str
    rerank: str
    delay_s: float | None
    took: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    llm_ms: list[float] = field(default_factory=list)
    timeouts: int = 0
    degraded: int = 0
    statuses: dict[str, int] = field(default_factory=dict)


async def call(client: httpx.AsyncClient, arm: Arm, body: dict[str, Any]) -> None:
    start = time.perf_counter()
    r = await client.post("/recall", json={**body, "rerank": arm.rerank})
    wall = (time.perf_counter() - start) * 1000.0
    if r.status_code != 200:
        raise SystemExit(f"/recall failed: {r.status_code} {r.text[:300]}")
    data = r.json()
    arm.took.append(float(data["took_ms"]))
    arm.wall.append(wall)
    arm.degraded += bool(data["degraded"])
    stage = data.get("rerank") or {}
    status = stage.get("status", "none")
    if status in ("applied", "timeout", "error"):  # the stage called the LLM
        arm.llm_ms.append(float(stage["llm_ms"]))
    arm.statuses[status] = arm.statuses.get(status, 0) + 1
    arm.timeouts += status == "timeout"


async def one_run(
    client: httpx.AsyncClient, app: Any, fake: FakeLLM, questions: list[dict], budget_ms: int
) -> list[Arm]:
    """Every question once per arm, arms shuffled per question (seeded)."""
    over = budget_ms / 1000.0 + 0.2
    arms = {
        "none": Arm("none (anchor)", "none", None),
        "0": Arm("llm, answers after 0 ms", "llm", 0.0),
        "cached": Arm("llm, cached order (repeat of the 0 ms call)", "llm", None),
        "200": Arm("llm, answers after 200 ms", "llm", 0.2),
        "over": Arm(f"llm, answers after {over * 1000:.0f} ms (over the budget)", "llm", over),
    }
    cache = app.state.resources.recall.rerank
    rng = random.Random(7)
    for q in questions:
        body = {
            "query": q["question"],
            "user_id": q["conversation_id"],
            "top_k": TOP_K,
            "rerank_candidates": CANDIDATES,
            "now": q["asked_after_iso"] + "Z",  # the dataset's times are naive: UTC
        }
        order = ["none", "0", "200", "over"]
        rng.shuffle(order)
        for key in order:
            arm = arms[key]
            if arm.delay_s is not None:
                cache.clear()
                fake.responder = reversed_order(arm.delay_s)
            await call(client, arm, body)
            if key == "0":  # the same question again: the cache answers
                await call(client, arms["cached"], body)
    return list(arms.values())


def render(runs: list[list[Arm]], args: argparse.Namespace, loads: list[float]) -> str:
    """The Markdown table (medians over the runs)."""

    def med(f: Any) -> float:
        return statistics.median(f(run) for run in runs)

    anchor = 0
    head = [
        f"Command: `python scripts/bench_rerank.py --questions {args.questions} "
        f"--repeats {args.repeats}` — date {date.today().isoformat()}, machine: "
        f"{os.cpu_count()} cores ({platform.machine()}), shared with other jobs (1-min load "
        f"average during the runs {min(loads):.1f}–{max(loads):.1f}); Python "
        f"{platform.python_version()}, app in-process (httpx over ASGI), embedded PostgreSQL "
        f"18, one LoCoMo dev conversation ({args.conversation}, one unit per turn), "
        f"{args.questions} of its questions, `top_k` {TOP_K}, `rerank_candidates` "
        f"{CANDIDATES}, `RECALL__BUDGET_MS` {args.budget_ms}. The LLM is the scripted server "
        "of tests/fake_llm.py on 127.0.0.1 (it lists the candidates in reverse after the "
        "delay).",
        "",
        f"Milliseconds; medians of {args.repeats} runs. *took* = the response's `took_ms` "
        "(service code), *client* = the round trip over ASGI. *added* = this arm's percentile "
        "minus the anchor's, same run; *paired* = the median over questions of this arm's "
        "took minus the anchor's for the same question (less noisy: the query embedding's "
        "time varies with the load); *llm_ms* = the stage's own timing of its LLM calls. "
        "*budget cut in* = `rerank.status` timeout; *outcomes* = `rerank.status` counts over "
        "all runs (a cached arm calls the LLM when the call before it left nothing to cache).",
        "",
        "| arm | n | took p50 | took p95 | client p50 | client p95 | added p50 | added p95 "
        "| paired added p50 | llm_ms p50 | budget cut in | degraded | outcomes |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    rows = []
    for i, arm in enumerate(runs[0]):
        n = len(arm.took)
        p50 = med(lambda run, i=i: pct(run[i].took, 0.5))
        p95 = med(lambda run, i=i: pct(run[i].took, 0.95))
        c50 = med(lambda run, i=i: pct(run[i].wall, 0.5))
        c95 = med(lambda run, i=i: pct(run[i].wall, 0.95))
        a50 = med(lambda run, i=i: pct(run[i].took, 0.5) - pct(run[anchor].took, 0.5))
        a95 = med(lambda run, i=i: pct(run[i].took, 0.95) - pct(run[anchor].took, 0.95))
        paired = med(
            lambda run, i=i: statistics.median(
                a - b for a, b in zip(run[i].took, run[anchor].took, strict=True)
            )
        )
        llm = statistics.median([ms for run in runs for ms in run[i].llm_ms] or [0.0])
        cut = med(lambda run, i=i: run[i].timeouts / len(run[i].took))
        deg = med(lambda run, i=i: run[i].degraded / len(run[i].took))
        added = ("–", "–", "–") if i == anchor else (f"{a50:+.1f}", f"{a95:+.1f}", f"{paired:+.1f}")
        llm_cell = f"{llm:.1f}" if any(run[i].llm_ms for run in runs) else "–"
        outcomes: dict[str, int] = {}
        for run in runs:
            for status, count in run[i].statuses.items():
                outcomes[status] = outcomes.get(status, 0) + count
        counts = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
        rows.append(
            f"| {arm.name} | {n} | {p50:.1f} | {p95:.1f} | {c50:.1f} | {c95:.1f} | "
            f"{added[0]} | {added[1]} | {added[2]} | {llm_cell} | {cut:.0%} | {deg:.0%} "
            f"| {counts} |"
        )
    return "\n".join([*head, *rows])


def write_doc(table: str) -> None:
    """Replace the ``bench_rerank`` block of docs/BENCHMARKS.md (or append a section)."""
    docsection.write_block(DOC, "bench_rerank", table, "## Rerank")


async def main(args: argparse.Namespace) -> None:
    dataset = Path(args.dataset)
    turns = [
        t for t in read_jsonl(dataset / "turns.jsonl") if t["conversation_id"] == args.conversation
    ]
    questions = [
        q for q in read_jsonl(dataset / "questions.jsonl")
        if q["conversation_id"] == args.conversation
    ][: args.questions]  # fmt: skip
    if not turns or not questions:
        raise SystemExit(f"no turns or questions for {args.conversation} in {dataset}")
    fake = FakeLLM().start()
    loads: list[float] = []
    try:
        overrides = {
            "llm": LLMSettings(base_url=fake.base_url, model="scripted", timeout_s=10),
            "recall": RecallSettings(budget_ms=args.budget_ms),
            "conflicts": ConflictSettings(use_llm=False),
        }
        async with in_process_app(None, **overrides) as (app, client):
            await ingest(client, turns, "")
            # One warm-up pass (model, caches, connection pool) that is not counted.
            await one_run(client, app, fake, questions[:5], args.budget_ms)
            runs = []
            for k in range(args.repeats):
                loads.append(os.getloadavg()[0])
                runs.append(await one_run(client, app, fake, questions, args.budget_ms))
                loads.append(os.getloadavg()[0])
                print(f"run {k + 1}/{args.repeats} done", file=sys.stderr)
    finally:
        fake.stop()
    table = render(runs, args, loads)
    print(table)
    write_json(args.json, {"command": sys.argv, "loads": loads, "runs": runs})
    if args.write_doc:
        write_doc(table)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default=str(DEFAULT_DATASET), help="LoCoMo dev folder.")
    parser.add_argument("--conversation", default="conv-30", help="The conversation stored.")
    parser.add_argument("--questions", type=int, default=60, help="Questions per run.")
    parser.add_argument("--repeats", type=int, default=3, help="Runs (medians are reported).")
    parser.add_argument("--budget-ms", type=int, default=500, help="RECALL__BUDGET_MS.")
    parser.add_argument("--write-doc", action="store_true", help="Write docs/BENCHMARKS.md.")
    add_json_arg(parser)
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
