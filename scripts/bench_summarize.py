"""Cost of ``POST /summarize`` offline (tester finding K9), with a stage breakdown, for this
checkout and (``--compare DIR``) another one.

    .venv/bin/python scripts/bench_summarize.py [--sizes 120,600] [--rounds 3] \\
        [--compare DIR] [--profile 120] [--write-doc]

Each checkout runs in its own process with ``app`` from it: the API in-process (its real
lifespan, httpx's ASGI transport, no LLM, no Redis: the in-process store) on a fresh embedded
PostgreSQL (``LIMITS__REQUEST_TOKENS`` raised: the seeding stores 50 units a request). Per
round and size, a fresh subject gets N units through ``/store`` (not timed):
LoCoMo dev turns in conversation order, one user, each turn ``"<speaker>: <text>"`` with the
speaker and the capitalised names of the text as entities (so groups are many and varied),
every third a ``fact``, the others ``event``s, each second apart within its session. Then one
``POST /summarize`` of the subject is timed: wall time, process CPU (every thread) and the
time inside its stages, wrapped in the child (a stage absent from a checkout is left out):

- ``read``: the subject's units read (``LifecycleRepository.units``);
- ``group``: grouping by entity (``group_by_entity``);
- ``text``: the digests' text and the sources they hold (``OfflineSummarizer``);
- ``lock``: the sources re-locked (``lock_units``); ``archive``: their status set
  (``set_status``) and their links added (``add_links``);
- the write path of the digests (``StoreService.store``), by its own stages: ``embed``,
  ``read`` (hashes and neighbours), ``decide`` (pair decisions), ``write``.

``--profile N`` runs cProfile over one more ``/summarize`` of N units (this checkout only)
and prints the 25 functions of most cumulative time. Figures are medians over ``--rounds``.
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
DOC = ROOT / "docs" / "BENCHMARKS.md"
DATASET = Path("/work/shared/datasets/locomo-dev")

CHILD = r"""
import asyncio, cProfile, io, json, os, pstats, re, shutil, statistics, sys, tempfile, time
from pathlib import Path
import httpx
from asgi_lifespan import LifespanManager
from app.core import embedded_pg, migrate
from app.core.config import LimitsSettings, Settings
from app.main import create_app

sizes = [int(s) for s in sys.argv[1].split(",")]
rounds, profile, dataset = int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
NAME = re.compile(r"\b[A-Z][a-z]{2,}\b")
NOT_NAMES = set('''The This That There They Then When What Where Which While Who Why How Yes
Yeah Wow Thanks Thank Hey Hello Good Great Sure Sounds Really Well Just Also And But Not
Have Has Had Was Were Are Its It's Our Your You Would Could Should Can Did Does Don Let
Love Nice Awesome Congrats Totally Definitely Absolutely Glad Hope Take Keep See Look Oh
Bye Haha Lol Okay Right Some Any Every For From With Without Since After Before Being'''.split())

def units(turns, n, user):
    out = []
    for i, t in enumerate(turns[:n]):
        text = t["text"]
        names = [m for m in NAME.findall(text) if m not in NOT_NAMES]
        entities = list(dict.fromkeys([t["speaker"], *names]))[:8]
        out.append({
            "user_id": user, "type": "fact" if i % 3 == 0 else "event",
            "value": f"{t['speaker']}: {text}"[:1800], "entities": entities,
            "occurred_at": f"{t['session_datetime_iso']}Z".replace(
                ":00Z", f":{t['turn_index'] % 60:02d}Z"),
            "source": "user",
        })
    return out

TIMES = {}
LOCKED = []  # when the call took the subject's write lock (held until its commit)

def wrap(owner, name, stage):
    fn = getattr(owner, name, None)
    if fn is None:
        return
    if asyncio.iscoroutinefunction(fn):
        async def timed(*a, **k):
            t0 = time.perf_counter()
            try:
                return await fn(*a, **k)
            finally:
                TIMES[stage] = TIMES.get(stage, 0.0) + time.perf_counter() - t0
    else:
        def timed(*a, **k):
            t0 = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                TIMES[stage] = TIMES.get(stage, 0.0) + time.perf_counter() - t0
    if isinstance(owner.__dict__.get(name), staticmethod):
        timed = staticmethod(timed)
    setattr(owner, name, timed)

def instrument():
    from app.services.lifecycle import summarize as sm, summarizers as sz
    from app.repositories.memory.lifecycle import LifecycleRepository as L
    from app.services.memory.store import StoreService
    wrap(L, "units", "read")
    wrap(sm, "group_by_entity", "group")
    wrap(sz.OfflineSummarizer, "summarize", "text")
    wrap(sz.OfflineSummarizer, "covered", "text")
    wrap(sz.OfflineSummarizer, "write_all", "text")
    wrap(L, "lock_units", "lock")
    wrap(L, "set_status", "archive")
    wrap(L, "add_links", "archive")
    wrap(StoreService, "embed", "store.embed")  # summaries embedded before the lock
    from app.repositories.memory.units import MemoryRepository
    lock = MemoryRepository.lock_subject
    async def lock_subject(self, *a, **k):
        LOCKED.append(time.perf_counter())
        return await lock(self, *a, **k)
    MemoryRepository.lock_subject = lock_subject
    original = StoreService.store
    async def store(self, *a, **k):
        t0 = time.perf_counter()
        try:
            return await original(self, *a, **k)
        finally:
            TIMES["store"] = TIMES.get("store", 0.0) + time.perf_counter() - t0
            for stage, ms in self.stages_ms.items():
                key = "store." + stage
                TIMES[key] = TIMES.get(key, 0.0) + ms / 1000
    StoreService.store = store

async def main(url):
    turns = [json.loads(l) for l in (dataset / "turns.jsonl").read_text().splitlines()]
    turns.sort(key=lambda t: (t["conversation_id"], t["order"]))
    # the seeding stores 50 units a request (LIMITS__REQUEST_TOKENS only bounds requests)
    settings = Settings(_env_file=None, database_url=url,
                        limits=LimitsSettings(request_tokens=100_000))
    app = create_app(settings)
    instrument()
    out = {}
    async with LifespanManager(app, startup_timeout=120), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://test", timeout=600) as c:
        async def run(n, user, prof=None):
            body = units(turns, n, user)
            for k in range(0, len(body), 50):
                r = await c.post("/store", json={"memories": body[k:k + 50]})
                assert r.status_code == 200, r.text
            TIMES.clear()
            LOCKED.clear()
            cpu, wall = time.process_time(), time.perf_counter()
            if prof:
                prof.enable()
            r = await c.post("/summarize", json={"user_id": user})
            if prof:
                prof.disable()
            end = time.perf_counter()
            wall, cpu = end - wall, time.process_time() - cpu
            assert r.status_code == 200, r.text
            got = r.json()
            digests = {s["id"] for s in got["summaries"]}
            sources = {i for s in got["summaries"] for i in s["source_ids"]}
            pairs = {"own": 0, "run": 0, "other": 0}
            cursor = None
            while True:
                q = {"user_id": user, "limit": 200, **({"cursor": cursor} if cursor else {})}
                page = (await c.get("/reviews", params=q)).json()
                for rv in page["reviews"]:
                    ends = {rv["unit_id"], rv["candidate_id"]}
                    if ends & digests:
                        other = (ends - digests) or ends
                        pairs["run" if not ends - digests else
                              "own" if other & sources else "other"] += 1
                cursor = page["next_cursor"]
                if not cursor:
                    break
            stages, first, locked = dict(TIMES), got, end - LOCKED[0] if LOCKED else 0.0
            # then as a client would go on: calls until one consolidates nothing
            calls, total, archived = 1, wall, got["archived"]
            while got["summaries"] and calls < 50:
                t0 = time.perf_counter()
                r = await c.post("/summarize", json={"user_id": user})
                total += time.perf_counter() - t0
                got = r.json()
                calls += 1
                archived += got["archived"]
            got = first
            return {"wall_s": wall, "cpu_s": cpu, "stages_s": stages, "locked_s": locked,
                    "all_wall_s": total, "all_calls": calls, "all_archived": archived,
                    "summaries": len(got["summaries"]), "archived": got["archived"],
                    "created": sum(s["outcome"] == "created" for s in got["summaries"]),
                    "remaining": got.get("remaining"), "reviews": pairs}
        # warm-up: the model loaded, the statements prepared
        await run(20, "warm")
        for n in sizes:
            runs = [await run(n, f"u{n}-{i}") for i in range(rounds)]
            stages = sorted({k for r in runs for k in r["stages_s"]})
            out[str(n)] = {
                "wall_s": statistics.median(r["wall_s"] for r in runs),
                "cpu_s": statistics.median(r["cpu_s"] for r in runs),
                "locked_s": statistics.median(r["locked_s"] for r in runs),
                "stages_s": {k: statistics.median(r["stages_s"].get(k, 0.0) for r in runs)
                             for k in stages},
                "summaries": runs[-1]["summaries"], "archived": runs[-1]["archived"],
                "created": runs[-1]["created"], "remaining": runs[-1]["remaining"],
                "reviews": runs[-1]["reviews"],
                "walls": [r["wall_s"] for r in runs],
                "all_wall_s": statistics.median(r["all_wall_s"] for r in runs),
                "all_calls": runs[-1]["all_calls"], "all_archived": runs[-1]["all_archived"],
            }
        if profile:
            prof = cProfile.Profile()
            await run(profile, "profiled", prof)
            s = io.StringIO()
            pstats.Stats(prof, stream=s).sort_stats("cumulative").print_stats(25)
            out["profile"] = s.getvalue()
    print(json.dumps(out))

tmp = Path(tempfile.mkdtemp(prefix="bench-summarize-"))
os.chmod(tmp, 0o755)
server = embedded_pg.start(tmp)
try:
    migrate.upgrade(server.url)
    asyncio.run(main(server.url))
finally:
    server.stop()
    shutil.rmtree(tmp, ignore_errors=True)
"""

STAGES = (
    ("read", "read"),
    ("group", "group"),
    ("text", "text"),
    ("lock", "lock"),
    ("archive", "archive"),
    ("store.embed", "embed"),
    ("store.read", "neighbours"),
    ("store.decide", "decide"),
    ("store.write", "write"),
)


def commit(checkout: Path) -> str:
    """Short hash of ``checkout``'s HEAD (``+dirty`` when its app/ differs from it)."""

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", "-C", str(checkout), *args], capture_output=True, text=True, check=False
        )
        return done.stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or checkout.name
    return head + ("+dirty" if git("status", "--porcelain", "--", "app") else "")


def row(name: str, n: str, got: dict) -> str:
    """One table row: the wall time, CPU and each stage in ms."""
    st = got["stages_s"]
    cells = [f"{st[k] * 1000:.0f}" if k in st else "–" for k, _ in STAGES]
    return (
        f"| {name} | {n} | {got['wall_s'] * 1000:.0f} | {got['cpu_s'] * 1000:.0f} | "
        f"{got['locked_s'] * 1000:.0f} | "
        + " | ".join(cells)
        + f" | {got['summaries']} ({got['created']} new) | {got['archived']} | "
        + "{run} / {own} / {other} | ".format(**got["reviews"])
        + f"{got['remaining'] if got['remaining'] is not None else '–'} | "
        + f"{got['all_calls']} / {got['all_archived']} / {got['all_wall_s'] * 1000:.0f} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", default="120,600", help="Units per subject, comma separated.")
    ap.add_argument("--rounds", type=int, default=3, help="Subjects per size (medians).")
    ap.add_argument("--compare", type=Path, help="Another checkout, measured the same way.")
    ap.add_argument("--compare-label", help="How the table names --compare (its commit).")
    ap.add_argument("--profile", type=int, default=0, help="cProfile one call of N units.")
    ap.add_argument("--dataset", type=Path, default=DATASET, help="LoCoMo dev folder.")
    ap.add_argument("--write-doc", action="store_true", help="Write docs/BENCHMARKS.md.")
    add_json_arg(ap)
    args = ap.parse_args()
    arms = [("this", ROOT)] + ([("compare", args.compare.resolve())] if args.compare else [])
    load_before = uptime_line()
    results = {}
    for name, path in arms:
        prof = args.profile if name == "this" else 0
        try:
            results[name] = run_child(path, CHILD, args.sizes, args.rounds, prof, args.dataset)
        except subprocess.CalledProcessError as exc:
            raise SystemExit(f"{name} ({path}) failed:\n{exc.stderr[-4000:]}") from exc
    load_after = uptime_line()
    cmd = f"python3 scripts/bench_summarize.py --sizes {args.sizes} --rounds {args.rounds}" + (
        " --compare DIR" if args.compare else ""
    )
    heads = " | ".join(label for _, label in STAGES)
    lines = [
        f"Command: `{cmd}`; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load "
        f"before: `{load_before}`; after: `{load_after}`. One offline `POST /summarize` of a "
        "subject of N LoCoMo dev turns (speaker and capitalised names as entities), in-process; "
        f"medians of {args.rounds} subjects, ms: wall, process CPU, the time from taking the "
        "subject's write lock to the answer (the lock is held until the commit, just after), then "
        "the stages (the last four are the digests' write path). `reviews`: open reviews the "
        "digests are in after the call — with another digest of the run / with one of their own "
        "sources / with another unit. `remaining` as the answer says it; then calls until one "
        "consolidates nothing: how many, the units archived by all of them, their wall time "
        "together.",
        "",
        f"| checkout | N | wall | CPU | locked | {heads} | summaries | archived | reviews "
        "| remaining | until done: calls / archived / wall |",
        "|---|---:|" + "---:|" * (len(STAGES) + 8),
    ]
    for name, path in arms:
        for n in args.sizes.split(","):
            label = args.compare_label if name == "compare" and args.compare_label else None
            lines.append(row(f"{name} ({label or commit(path)})", n, results[name][n]))
    text = "\n".join(lines)
    print(text)
    if "profile" in results["this"]:
        print(results["this"]["profile"])
    if args.write_doc:
        write_block(DOC, "summarize-cost", text, "## Consolidation (`/summarize`) cost")
    write_json(args.json, {"command": sys.argv, "arms": results})


if __name__ == "__main__":
    main()
