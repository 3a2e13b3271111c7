"""Wall time of the first ``GET /context`` after a long user message (tester finding H34),
for this checkout and (``--compare DIR``) another one.

    .venv/bin/python scripts/bench_context_first_read.py [--repeats 5] [--chars 100000]
        [--compare DIR]

Each checkout runs in its own process with ``app`` from it: the API in-process (its real
lifespan and the bundled embedder, httpx's ASGI transport) on a fresh embedded PostgreSQL
and the Redis of ``REDIS_URL`` (default 127.0.0.1:6379; keys under a prefix of their own,
deleted after). Per repeat, a new session gets one user message of ``--chars`` characters of
prose (its words drawn anew each time: no cached embedding helps) and is read at once with
``GET /context`` without a query (the message's first window is the query: recall and the
window ranking both need its embedding, while the background embeds the message's own
window), then read again. Prints per read the medians of the wall time, the process CPU and
the event loop's thread CPU, and the model calls the first read made (query embeddings).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from benchkit.checkout import run_child
from benchkit.timing import uptime_line

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import asyncio, json, os, random, shutil, statistics, sys, tempfile, time, uuid
from pathlib import Path
import httpx
from asgi_lifespan import LifespanManager
from app.core import embedded_pg, migrate
from app.core.config import LimitsSettings, Settings
from app.main import create_app
repeats, chars = int(sys.argv[1]), int(sys.argv[2])
WORDS = ("I went to the market with my sister and we bought fresh bread apples cheese "
         "for the picnic on Saturday near the lake where our parents used to take us when "
         "we were kids the weather was warm and sunny so we stayed until late evening "
         "talking about work travel plans books music old friends new jobs").split()

def prose(rng):
    out = []
    while sum(len(s) + 1 for s in out) < chars:
        words = [rng.choice(WORDS) for _ in range(rng.randint(8, 20))]
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)[:chars]

async def timed(c, params):
    cpu, loop, wall = time.process_time(), time.thread_time(), time.perf_counter()
    r = await c.get("/context", params=params)
    assert r.status_code == 200, r.text
    return {"wall_ms": (time.perf_counter() - wall) * 1000,
            "cpu_ms": (time.process_time() - cpu) * 1000,
            "loop_ms": (time.thread_time() - loop) * 1000}

async def main(url):
    base = Settings(database_url=url, redis_url=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379"),
                    limits=LimitsSettings(embed_concurrency=0, embed_token_rate=""))
    prefix = f"bench-context-first:{uuid.uuid4().hex[:8]}:"
    base = base.model_copy(update={"working_memory": base.working_memory.model_copy(
        update={"key_prefix": prefix})})
    app = create_app(base)
    rng = random.Random(7)
    first, second, calls = [], [], []
    async with LifespanManager(app, startup_timeout=120), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://test", timeout=300) as c:
        embedder = app.state.resources.embedder
        inner = embedder.embed_queries
        counted = []
        async def counting(texts, *a, **k):
            counted.append(len(texts))
            return await inner(texts, *a, **k)
        embedder.embed_queries = counting
        unit = {"user_id": "bench", "value": "The user likes picnics by the lake."}
        await c.post("/store", json={"memories": [unit]})
        for i in range(repeats + 1):  # the first round warms the process up: not counted
            session = f"s{i}"
            m = {"role": "user", "content": prose(rng), "user_id": "bench"}
            r = await c.post(f"/working_memory/{session}/messages", json={"messages": [m]})
            assert r.status_code == 200, r.text
            params = {"user_id": "bench", "session_id": session, "max_tokens": 2000}
            counted.clear()
            a = await timed(c, params)
            n = sum(counted)
            b = await timed(c, params)
            if i:
                first.append(a); second.append(b); calls.append(n)
            embeddings = app.state.resources.working_memory.embeddings
            while embeddings.backlog:
                await asyncio.sleep(0.05)
            await c.delete(f"/working_memory/{session}", params={"purge": "true"})
    med = lambda rows, k: statistics.median(r[k] for r in rows)
    print(json.dumps({name: {k: med(rows, k) for k in ("wall_ms", "cpu_ms", "loop_ms")}
                      for name, rows in (("first", first), ("second", second))}
                     | {"query_embeddings_first": statistics.median(calls),
                        "first_walls": [round(r["wall_ms"]) for r in first]}))

tmp = Path(tempfile.mkdtemp(prefix="bench-context-first-"))
os.chmod(tmp, 0o755)
server = embedded_pg.start(tmp)
try:
    migrate.upgrade(server.url)
    asyncio.run(main(server.url))
finally:
    server.stop()
    shutil.rmtree(tmp, ignore_errors=True)
"""


def run(checkout: Path, repeats: int, chars: int) -> dict:
    """The child's figures, with ``app`` imported from ``checkout``."""
    return dict(run_child(checkout, CHILD, repeats, chars))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--repeats", type=int, default=5, help="Sessions read (medians of these).")
    ap.add_argument("--chars", type=int, default=100_000, help="Characters of the message.")
    ap.add_argument("--compare", type=Path, help="Another checkout, measured the same way.")
    args = ap.parse_args()
    arms = [("this", ROOT)] + ([("compare", args.compare.resolve())] if args.compare else [])
    print(f"load before: {uptime_line()}", flush=True)
    for name, path in arms:
        figures = run(path, args.repeats, args.chars)
        print(f"{name} ({path}):")
        for read in ("first", "second"):
            f = figures[read]
            print(
                f"  {read:6} /context: wall {f['wall_ms']:.0f} ms, CPU {f['cpu_ms']:.0f} ms, "
                f"loop CPU {f['loop_ms']:.0f} ms (medians of {args.repeats})"
            )
        print(f"  query texts embedded by the first read: {figures['query_embeddings_first']}")
        print(f"  first reads, wall ms: {figures['first_walls']}", flush=True)
    print(f"load after: {uptime_line()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")


if __name__ == "__main__":
    main()
