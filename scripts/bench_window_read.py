"""CPU of a working-memory read of a session of long tool outputs (tester finding D18), for
this checkout and (``--compare DIR``) another one.

    .venv/bin/python scripts/bench_window_read.py [--reads 9] [--compare DIR] [--write-doc]

Each checkout runs in its own process with ``app`` from it: the API in-process (its real
lifespan, httpx's ASGI transport) on a fresh embedded PostgreSQL and the Redis of
``REDIS_URL`` (default 127.0.0.1:6379; keys under a prefix of their own, deleted after). A
session gets ten tool messages of ~87,000 characters each (under ``LIMITS__MESSAGE_CHARS``;
the window keeps the newest ~200,000 tokens of them, ``WORKING_MEMORY__MAX_WINDOW_TOKENS``).
The first read comes right after the appends (its wall time is mostly the wait for the
background embedding those appends paid for, ``WORKING_MEMORY__EMBED_WAIT_MS``); then, once
every message has its vector, ``--reads`` of each: ``GET /working_memory/{id}`` with a
query and ``max_tokens=2000``, the same without a query, and ``GET /context`` with a query.
Prints the median process CPU (every thread), event-loop thread CPU and wall time per
request, and whether both checkouts answered the same (messages, their cuts, tokens,
``/context`` text).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from benchkit.checkout import run_child
from benchkit.docsection import write_block
from benchkit.report import add_json_arg, write_json
from benchkit.timing import uptime_line

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "RELIABILITY.md"

CHILD = r"""
import asyncio, hashlib, json, os, random, shutil, statistics, sys, tempfile, time, uuid
from pathlib import Path
import httpx
from asgi_lifespan import LifespanManager
from app.core import embedded_pg, migrate
from app.core.config import LimitsSettings, Settings
from app.main import create_app
reads = int(sys.argv[1])
WORDS = ("the server logs show error code 500 at 12:03 for user 4411 with path "
         "/api/v1/items?id=77 and retry").split()

def stable(body):
    # What both checkouts must answer alike (not times, not took_ms).
    if "messages" in body:
        return {"messages": [[m["seq"], m["content"], m["tokens"], m["truncated"]]
                             for m in body["messages"]],
                "omitted": body["omitted_seqs"], "used": body["used_tokens"]}
    return {"text": body["text"], "tokens": body["tokens"]}

async def timed(c, path, params):
    cpu, loop, wall = time.process_time(), time.thread_time(), time.perf_counter()
    r = await c.get(path, params=params)
    assert r.status_code == 200, r.text
    return (time.process_time() - cpu, time.perf_counter() - wall, r.json(),
            time.thread_time() - loop)

async def main(url):
    base = Settings(database_url=url, redis_url=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379"),
                    limits=LimitsSettings(embed_concurrency=0))
    prefix = f"bench-window-read:{uuid.uuid4().hex[:8]}:"
    base = base.model_copy(update={"working_memory": base.working_memory.model_copy(
        update={"key_prefix": prefix})})
    app = create_app(base)
    async with LifespanManager(app, startup_timeout=120), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://test", timeout=300) as c:
        rng = random.Random(2)
        for i in range(10):
            m = {"role": "tool", "content": " ".join(rng.choice(WORDS) for _ in range(15000))}
            if i == 0:
                m["user_id"] = "bench"
            r = await c.post("/working_memory/big/messages", json={"messages": [m]})
            assert r.status_code == 200, r.text
        window = {"query": "error code number 0", "max_tokens": 2000}
        first_cpu, first_wall, first, first_loop = await timed(c, "/working_memory/big", window)
        embeddings = app.state.resources.working_memory.embeddings
        while embeddings.backlog:
            await asyncio.sleep(0.1)
        shapes = {
            "window, query": ("/working_memory/big", window),
            "window, no query": ("/working_memory/big", {"max_tokens": 2000}),
            "context, query": ("/context", {"user_id": "bench", "session_id": "big",
                                            "query": "error code", "max_tokens": 2000}),
        }
        out = {"first_read": {"cpu_ms": first_cpu * 1000, "wall_ms": first_wall * 1000,
                              "loop_ms": first_loop * 1000,
                              "unembedded": len(first["unembedded_seqs"])}}
        digest = hashlib.sha256()
        answers = {}
        for name, (path, params) in shapes.items():
            await timed(c, path, params)  # warm: the window decoded once per version
            runs = [await timed(c, path, params) for _ in range(reads)]
            body = runs[-1][2]
            digest.update(json.dumps(stable(body), sort_keys=True).encode())
            answers[name] = stable(body)
            out[name] = {"cpu_ms": statistics.median(r[0] for r in runs) * 1000,
                         "wall_ms": statistics.median(r[1] for r in runs) * 1000,
                         "loop_ms": statistics.median(r[3] for r in runs) * 1000,
                         "window_messages": body.get("window_messages")}
        out["digest"] = digest.hexdigest()
        out["answers"] = answers
        await c.delete("/working_memory/big", params={"purge": "true"})
    print(json.dumps(out))

tmp = Path(tempfile.mkdtemp(prefix="bench-window-read-"))
os.chmod(tmp, 0o755)
server = embedded_pg.start(tmp)
try:
    migrate.upgrade(server.url)
    asyncio.run(main(server.url))
finally:
    server.stop()
    shutil.rmtree(tmp, ignore_errors=True)
"""

SHAPES = ("window, query", "window, no query", "context, query")


def run(checkout: Path, reads: int) -> dict:
    """The child's figures, with ``app`` imported from ``checkout``."""
    return dict(run_child(checkout, CHILD, reads))


def _cell(figures: dict) -> str:
    """``process CPU / event-loop thread CPU / wall`` in ms."""
    return f"{figures['cpu_ms']:.0f} / {figures['loop_ms']:.0f} / {figures['wall_ms']:.0f}"


def commit(checkout: Path) -> str:
    """Short hash of ``checkout``'s HEAD."""
    return subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--reads", type=int, default=9, help="Timed reads of each shape.")
    ap.add_argument("--compare", type=Path, help="Another checkout, measured the same way.")
    ap.add_argument("--write-doc", action="store_true", help="Write docs/RELIABILITY.md.")
    add_json_arg(ap)
    args = ap.parse_args()
    arms = [("this", ROOT)] + ([("compare", args.compare.resolve())] if args.compare else [])
    load_before = uptime_line()
    results = {name: run(path, args.reads) for name, path in arms}
    load_after = uptime_line()
    names = {name: f"{name} ({commit(path)})" for name, path in arms}
    cmd = "python3 scripts/bench_window_read.py" + (
        f" --reads {args.reads}" + (" --compare DIR" if args.compare else "")
    )
    lines = [
        f"Command: `{cmd}`; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load "
        f"before: `{load_before}`; after: `{load_after}`. Ten tool messages of ~87,000 "
        "characters in one session; per request, the process's CPU (every thread: the background "
        "embedding too), the CPU of the event loop's thread (the read itself, less what it "
        f"hands to worker threads) and the wall time, medians of {args.reads}.",
        "",
        "| request | "
        + " | ".join(f"{names[n]}: CPU / loop CPU / wall ms" for n, _ in arms)
        + " |",
        "|---|" + "---|" * len(arms),
    ]
    for shape in SHAPES:
        cells = [_cell(results[n][shape]) for n, _ in arms]
        lines.append(f"| `{shape}` (max_tokens 2000) | " + " | ".join(cells) + " |")
    cells = [
        _cell(results[n]["first_read"])
        + f" ({results[n]['first_read']['unembedded']} ranked without relevance)"
        for n, _ in arms
    ]
    lines.append("| first `window, query` right after the appends | " + " | ".join(cells) + " |")
    if args.compare:
        same = results["this"]["digest"] == results["compare"]["digest"]
        lines += ["", "Answers identical in both: " + ("yes." if same else "NO.")]
    text = "\n".join(lines)
    print(text)
    if args.write_doc:
        write_block(DOC, "window-read-cost", text, "## Cost at the limits")
    write_json(args.json, {"command": sys.argv, "arms": results})


if __name__ == "__main__":
    main()
