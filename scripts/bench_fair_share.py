"""Fair sharing of the embedder under abuse (issue 31): well-behaved recall clients, alone and
while other clients send worst-case /store requests.

The service runs on the embedded default with its shipped limits. Each client is its own
caller (keys are off, so the caller is the client address: each client connects from its own
loopback address, 127.0.0.2 … 127.0.0.9). Two phases of ``--seconds`` each:

1. quiet: ``--recallers`` clients (default 4) recall in a loop (a question from a fixed
   list, for one user with ~200 units);
2. abused: the same recallers, while ``--abusers`` clients (default 4) send, in a loop, the
   costliest /store the limits admit: values at ``LIMITS__TEXT_TOKENS`` of emoji ZWJ
   sequences (one model token per code point), as many as ``LIMITS__REQUEST_TOKENS`` holds.
   They honour ``Retry-After`` on a 429 (at most 1 s).

Prints the recallers' p50/p95 in both phases and the ratio, the abusers' answers, and with
``--write-doc`` writes the table into docs/RELIABILITY.md ("Fair sharing"). The machine, its
load and the date are in the output; figures on a shared machine are quoted as ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from benchkit.batches import store_batches  # noqa: E402
from benchkit.docsection import write_block  # noqa: E402
from benchkit.server import service  # noqa: E402
from benchkit.timing import pct, uptime_line  # noqa: E402

FAMILY = "👩\u200d👩\u200d👧\u200d👦"
THINGS = ["passport", "flight", "hotel", "allergy", "car", "bank", "gym", "doctor", "school",
          "garden", "laptop", "phone", "dentist", "library", "train", "bakery"]  # fmt: skip
QUESTIONS = [f"what do I know about the user's {t}?" for t in THINGS] + [
    "when is the next appointment?",
    "which seat does the user prefer?",
    "what should I avoid when ordering food?",
    "where does the user work?",
]


def client(address: str, base: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=600)


async def seed(base: str) -> None:
    rnd = random.Random(7)
    units = [
        {"user_id": "reader", "value": f"The user's {t} note #{i}: code {rnd.randint(100, 999)}",
         "entities": [t]}
        for i in range(13) for t in THINGS
    ]  # fmt: skip
    async with client("127.0.0.1", base) as c:
        for batch in store_batches(units):
            r = await c.post("/store", json={"memories": batch})
            r.raise_for_status()


async def recaller(address: str, base: str, until: float, out: list[float], seed_: int) -> None:
    rnd = random.Random(seed_)
    async with client(address, base) as c:
        while time.monotonic() < until:
            q = rnd.choice(QUESTIONS) + f" ({rnd.randint(0, 10**6)})"  # no cache hits
            t0 = time.perf_counter()
            try:
                r = await c.post("/recall", json={"query": q, "user_id": "reader", "top_k": 5})
                ok = r.status_code == 200
            except httpx.HTTPError:
                ok = False
            out.append(time.perf_counter() - t0 if ok else float("nan"))


async def abuser(address: str, base: str, until: float, body: dict, seen: Counter) -> None:
    async with client(address, base) as c:
        while time.monotonic() < until:
            try:
                r = await c.post("/store", json=body)
            except httpx.HTTPError as exc:
                seen[type(exc).__name__] += 1
                continue
            seen[r.status_code] += 1
            if r.status_code == 429:
                await asyncio.sleep(min(1.0, float(r.headers.get("retry-after", "1"))))


def worst_store(text_tokens: int, request_tokens: int) -> dict:
    from app.clients.model_tokens import E5Tokens

    tokens = E5Tokens()
    lo, hi, text = 0, 2000, FAMILY * 400
    while lo < hi:  # the longest prefix within the text limit
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if tokens.count(text[:mid] + "99") <= text_tokens else (lo, mid - 1)
    value = text[:lo]
    n = max(1, request_tokens // text_tokens)
    return {"memories": [{"user_id": f"abuser-{i}", "value": value + str(i)} for i in range(n)]}


def summary(xs: list[float]) -> tuple[float, float, int, int]:
    ok = [x * 1000 for x in xs if x == x]
    return pct(ok, 0.5), pct(ok, 0.95), len(ok), len(xs) - len(ok)


async def run(args: argparse.Namespace, base: str) -> dict:
    from app.core.settings.service import LimitsSettings

    limits = LimitsSettings()
    await seed(base)
    addresses = [f"127.0.0.{i}" for i in range(2, 2 + args.recallers + args.abusers)]
    readers, bad = addresses[: args.recallers], addresses[args.recallers :]
    warm: list[float] = []
    await asyncio.gather(
        *(recaller(a, base, time.monotonic() + 3, warm, i) for i, a in enumerate(readers))
    )
    quiet: list[float] = []
    until = time.monotonic() + args.seconds
    await asyncio.gather(*(recaller(a, base, until, quiet, i) for i, a in enumerate(readers)))
    body = worst_store(limits.text_tokens, limits.request_tokens)
    loaded: list[float] = []
    seen: Counter[int | str] = Counter()
    until = time.monotonic() + args.seconds
    await asyncio.gather(
        *(recaller(a, base, until, loaded, 100 + i) for i, a in enumerate(readers)),
        *(abuser(a, base, until, body, seen) for a in bad),
    )
    return {"quiet": summary(quiet), "loaded": summary(loaded), "abusers": dict(seen),
            "batch": len(body["memories"]), "limits": limits}  # fmt: skip


def render(args: argparse.Namespace, res: dict, load_before: str, load_after: str) -> str:
    q50, q95, qn, qerr = res["quiet"]
    l50, l95, ln, lerr = res["loaded"]
    limits = res["limits"]
    answers = ", ".join(f"{n} × {s}" for s, n in sorted(res["abusers"].items(), key=str))
    return "\n".join(
        [
            f"Command: `python3 scripts/bench_fair_share.py --seconds {args.seconds:g}"
            f"{' --write-doc' if args.write_doc else ''}`; "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; machine: 2 cores shared "
            f"with other engineers' builds and tests (noisy: read the ratios); load before: "
            f"`{load_before}`; after: `{load_after}`.",
            "",
            f"Limits as shipped: LIMITS__TEXT_TOKENS={limits.text_tokens}, "
            f"LIMITS__REQUEST_TOKENS={limits.request_tokens}, LIMITS__EMBED_CONCURRENCY="
            f"{limits.embed_concurrency}, LIMITS__EMBED_TOKEN_RATE={limits.embed_token_rate}. "
            f"Abusers' /store: {res['batch']} values of emoji ZWJ sequences at the text limit.",
            "",
            "| phase | recalls | p50 ms | p95 ms | failed |",
            "|---|---|---|---|---|",
            f"| quiet: {args.recallers} recall clients | {qn} | {q50:.0f} | {q95:.0f} | {qerr} |",
            f"| abused: the same, with {args.abusers} clients sending worst-case /store "
            f"| {ln} | {l50:.0f} | {l95:.0f} | {lerr} |",
            f"| ratio abused / quiet | | {l50 / q50:.2f}× | {l95 / q95:.2f}× | |",
            "",
            f"Abusers' answers over {args.seconds:g} s: {answers}.",
        ]
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--recallers", type=int, default=4)
    p.add_argument("--abusers", type=int, default=4)
    p.add_argument("--write-doc", action="store_true")
    args = p.parse_args()
    load_before = uptime_line()
    with service() as base:
        res = asyncio.run(run(args, base))
    text = render(args, res, load_before, uptime_line())
    print(text)
    if args.write_doc:
        write_block(ROOT / "docs" / "RELIABILITY.md", "fair-share", text, "## Fair sharing")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
