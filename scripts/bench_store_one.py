"""``POST /store`` of one unit against running servers, interleaved, with the response's
``Server-Timing`` stages.

    .venv/bin/python scripts/bench_store_one.py --target new=http://127.0.0.1:8105 \\
        --target base=http://127.0.0.1:8106 [--rounds 4] [--requests 80] [--dataset DIR]

Each round sends, to each target in turn (the order alternating between rounds), two runs of
``--requests`` sequential one-unit stores of distinct LoCoMo turns (as
``scripts/eval_locomo.py`` builds them) into a subject of their own: ``plain`` (the turn
alone) and ``scenario`` (with a trigger scenario of ``when they talk about`` + up to 160
characters of another turn: over half of these pairs pass 256 characters). Per run it prints
the client p50/p95 (ms) and the p50/p95 of each stage the server reports (``embed``,
``lock``, ``read``, ``decide``, ``write``, ``total``), plus ``own`` = ``total`` − ``embed``
(the service's time outside the model); then, per kind, the median over rounds of each
figure and its ratio to the first target. The machine's load (``os.getloadavg``) is printed
per round. The servers are not started here: start each from its checkout (cwd = the
checkout: ``python -m`` puts the working directory first on ``sys.path``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import eval_locomo as ev  # noqa: E402
from benchkit.report import add_json_arg, write_json  # noqa: E402
from benchkit.timing import pct

_STAGE = re.compile(r"([\w-]+);dur=([\d.]+)")


def unit(turns: list[dict[str, Any]], j: int, subject: str, scenario: bool) -> dict[str, Any]:
    """Turn ``j`` (modulo) as a ``MemoryCreate``; with ``scenario``, a trigger scenario."""
    body = ev.turn_unit(turns[j % len(turns)], subject)
    if scenario:
        body["query"] = "when they talk about " + turns[(j + 7) % len(turns)]["text"][:160]
    return body


async def run(
    url: str, turns: list[dict[str, Any]], start: int, n: int, subject: str, scenario: bool
) -> dict[str, float]:
    """``n`` sequential one-unit stores; client and stage p50/p95 (ms, keys ``p50``,
    ``p95``, ``<stage>50``, ``<stage>95``)."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        warm = await client.post(
            "/store", json={"memories": [unit(turns, start - 1, subject, scenario)]}
        )
        assert warm.status_code == 200, warm.text
        lat: list[float] = []
        stages: dict[str, list[float]] = {}
        for j in range(start, start + n):
            body = {"memories": [unit(turns, j, subject, scenario)]}
            t0 = time.perf_counter()
            r = await client.post("/store", json=body)
            lat.append((time.perf_counter() - t0) * 1000)
            assert r.status_code == 200, r.text
            got = {k: float(v) for k, v in _STAGE.findall(r.headers.get("server-timing", ""))}
            got["own"] = got["total"] - got["embed"]
            for k, v in got.items():
                stages.setdefault(k, []).append(v)
    out = {"p50": pct(lat, 0.5), "p95": pct(lat, 0.95)}
    for k, v in stages.items():
        out[f"{k}50"], out[f"{k}95"] = pct(v, 0.5), pct(v, 0.95)
    return out


def line(label: str, got: dict[str, float]) -> str:
    stages = " ".join(
        f"{k[:-2]} {got[k]:.1f}/{got[k[:-2] + '95']:.1f}"
        for k in got
        if k.endswith("50") and k != "p50"
    )
    return f"{label}: p50 {got['p50']:.1f} p95 {got['p95']:.1f} ms | p50/p95 {stages}"


async def main(args: argparse.Namespace) -> None:
    turns = ev.read_jsonl(Path(args.dataset) / "turns.jsonl")
    turns.sort(key=lambda t: (t["conversation_id"], t["order"]))
    targets = [t.split("=", 1) for t in args.target]
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    tag = f"{int(time.time()) % 100000}"
    for rnd in range(args.rounds):
        print(f"round {rnd + 1}: load {os.getloadavg()[0]:.2f}", flush=True)
        order = targets if rnd % 2 == 0 else list(reversed(targets))
        for kind, scenario in (("plain", False), ("scenario", True)):
            start = 1 + rnd * 2 * (args.requests + 1) + (args.requests + 1) * scenario
            for name, url in order:
                subject = f"one-{tag}-{name}-{kind}-{rnd}"
                got = await run(url, turns, start, args.requests, subject, scenario)
                results.setdefault((name, kind), []).append(got)
                print("  " + line(f"{name} {kind}", got), flush=True)
    print(f"end: load {os.getloadavg()[0]:.2f}")
    first = targets[0][0]
    for kind in ("plain", "scenario"):
        print(f"{kind}: medians over {args.rounds} rounds (ratio to {first})")
        for name, _ in targets:
            runs = results[(name, kind)]
            parts = []
            for key in runs[0]:
                med = statistics.median(r[key] for r in runs)
                base = statistics.median(r[key] for r in results[(first, kind)])
                parts.append(
                    f"{key} {med:.1f}" + (f" ({med / base:.2f}x)" if name != first else "")
                )
            print(f"  {name}: " + ", ".join(parts))
    write_json(args.json, {"command": sys.argv, "rounds": results})


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--target", action="append", required=True, help="name=URL (repeat)")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--requests", type=int, default=80, help="one-unit stores per run")
    p.add_argument("--dataset", default=str(ev.DEFAULT_DATASET), help="LoCoMo dev folder")
    add_json_arg(p)
    asyncio.run(main(p.parse_args()))
