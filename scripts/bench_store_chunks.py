"""One-unit ``/store`` with a trigger scenario, in process on the real model: the value and
its scenario in one model call (``FOREGROUND_WHOLE_TEXTS = 2``) against cut into
256-character chunks (``0``: the rule before), alternating per pair of requests, so both
modes run under the same load.

    PYTHONPATH=$PWD .venv/bin/python scripts/bench_store_chunks.py [--requests 240]
        [--dataset DIR]

The app runs over httpx's ASGI transport on a temporary embedded PostgreSQL
(``eval_locomo.in_process_client``); units are LoCoMo turns (as ``scripts/eval_locomo.py``
builds them) with a scenario of ``when they talk about`` + up to 160 characters of another
turn. Prints how many pairs pass 256 characters, then per mode the client and ``embed``
stage (``Server-Timing``) p50/p95 in ms, and the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import eval_locomo as ev  # noqa: E402

from app.clients import embeddings  # noqa: E402


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


async def main(args: argparse.Namespace) -> None:
    turns = ev.read_jsonl(Path(args.dataset) / "turns.jsonl")
    turns.sort(key=lambda t: (t["conversation_id"], t["order"]))
    print(f"load {os.getloadavg()[0]:.2f}", flush=True)
    async with ev.in_process_client(None) as client:
        for t in turns[-20:]:  # warm-up (a subject of its own)
            await client.post("/store", json={"memories": [ev.turn_unit(t, "warm")]})
        res: dict[int, dict[str, list[float]]] = {2: {}, 0: {}}
        long = 0
        for j in range(args.requests):
            whole = 2 if (j // 2) % 2 == 0 else 0  # AABB: each mode follows each
            embeddings.FOREGROUND_WHOLE_TEXTS = whole
            body = ev.turn_unit(turns[j % len(turns)], "chunks")
            body["query"] = "when they talk about " + turns[(j + 7) % len(turns)]["text"][:160]
            long += len(body["value"]) + len(body["query"]) > 256
            t0 = time.perf_counter()
            r = await client.post("/store", json={"memories": [body]})
            ms = (time.perf_counter() - t0) * 1000
            assert r.status_code == 200, r.text
            stages = dict(p.split(";dur=") for p in r.headers["server-timing"].split(", "))
            res[whole].setdefault("client", []).append(ms)
            res[whole].setdefault("embed", []).append(float(stages["embed"]))
    print(f"pairs over 256 characters: {long} of {args.requests}")
    for whole, name in ((2, "one call"), (0, "chunked ")):
        figures = " ".join(
            f"{k} p50 {statistics.median(v):.1f} p95 {pct(v, 0.95):.1f}"
            for k, v in res[whole].items()
        )
        print(f"{name}: {figures} ms")
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--requests", type=int, default=240)
    p.add_argument("--dataset", default=str(ev.DEFAULT_DATASET), help="LoCoMo dev folder")
    asyncio.run(main(p.parse_args()))
