"""Speed of ``/store`` and ``/recall`` over HTTP on the LoCoMo dev split, side by side with
mem0 OSS on the same workload and machine, in one run.

    .venv/bin/python scripts/bench_locomo.py [--mem0-python MEM0_VENV/bin/python] [--write-doc]

Ours (first): the embedder floor in a separate process (the service's embedder alone: one
query at a time p50/p95, passages in batches of 50 texts/s), then the service in a subprocess
on the embedded default (fresh ``HINDSIGHT_DATA_DIR`` in a temporary folder, ``--port``,
waited for on ``/ready``; ``--base-url`` uses a running server instead). Every turn is stored
through ``/store`` in the batches ``scripts/eval_locomo.py`` builds (its ``turn_unit`` and
``batches``, conversation order), with the anchor's text per turn (``Speaker: text``
``[shares a photo: caption]``, cut at 2,000 characters); ingest turns/s = turns / wall time of
the sequential batches. Then each question is recalled as eval_locomo does (``top_k`` 10,
``now`` = ``asked_after_iso``; ``record_access`` left at its default, as a client would):
``--warmup`` untimed recalls, ``--passes`` sequential timed passes (latency pooled, recall@10
from the first pass, scored by eval_locomo's ``Scores``), then one pass with
``--concurrency`` clients (threads, one HTTP connection each) and the count of answers with
``degraded: true``. Every one of those passes asks *new questions*: pass 1 sends each question
as the dataset words it, each later pass (and the warm-up, and the concurrent pass) appends its
own tag of question marks (``?``, ``??``, …), which no word-level signal sees but which makes
the text, and so every cache keyed by it, new; the server is fresh (its own data folder). Then
one more sequential pass repeats pass 1's texts exactly: the *cached* figure (the query
embedding comes from the cache), reported apart, never pooled with the new ones. The server's
``stages_ms`` (and ``embed_model_ms``, the model's own part of the ``embed`` stage) are
summarised over the new sequential passes. During those passes the embedder alone also runs
in a process of its own (``benchkit.embed_floor.BareModel``) and embeds each question's text
(tag included) right after or right before the service's request, alternately: the bare
model's floor under the same load, beside the service's ``embed`` stage and its in-service
model time (``--no-interleave``: not). The bare model embeds the text the service embeds: the
question without the speakers' names it mentions (``embedded_text``). Client wall time per
request, HTTP included; percentiles by the anchor's rule ``sorted[int(n * p)]``.

mem0 (right after, never at the same time): with ``--mem0-python``, the anchor's
``mem0_locomo.py`` (``--mem0-script``; the default is looked up next to the dataset's folder)
runs with the same conversations, ``top_k``, warm-up, passes and concurrency and writes its
figures with ``--json``; ``--mem0-json FILE`` reads figures of an earlier run instead. The
table gives ours | mem0 | ours/mem0 per figure and issue 11's aims: sequential p95 ≤ 0.4×
mem0, 4-client p95 ≤ 0.5× mem0 with no degraded answer, ingest ≥ 2× mem0 and ≥ 0.8× the
embedder's batch throughput. ``--write-doc`` writes it to docs/BENCHMARKS.md ("Against mem0
(LoCoMo dev)") with the command, date, ``uptime`` and git commit.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(ROOT))  # this checkout's ``app`` (for the text the service embeds)

import eval_locomo  # noqa: E402
from benchkit import docsection, server, versus  # noqa: E402
from benchkit import mem0 as mem0_anchor  # noqa: E402
from benchkit.embed_floor import BareModel, measure_in_subprocess  # noqa: E402
from benchkit.timing import pct, summary_ms, uptime_line  # noqa: E402

DOC = ROOT / "docs" / "BENCHMARKS.md"
HEADING = "## Against mem0 (LoCoMo dev)"
BLOCK = "bench_locomo"
VARIANT = "defaults"


def default_mem0_script(dataset: Path) -> Path:
    """The anchor's script, looked up beside the datasets' folder (``<dataset>/../../bench``)."""
    return dataset.resolve().parents[1] / "bench" / "mem0" / "mem0_locomo.py"


def anchor_text(turn: dict[str, Any]) -> str:
    """The anchor's text of one turn (mem0_locomo.py ``turn_text``)."""
    text = f"{turn['speaker']}: {turn['text']}"
    if turn.get("image_caption"):
        text += f" [shares a photo: {turn['image_caption']}]"
    return text[:2000]


def load_data(args: argparse.Namespace) -> tuple[list[dict], list[dict], list[str]]:
    """Turns and questions of the chosen conversations (every one by default)."""
    dataset = Path(args.dataset)
    turns = eval_locomo.read_jsonl(dataset / "turns.jsonl")
    questions = eval_locomo.read_jsonl(dataset / "questions.jsonl")
    convs = sorted(set(filter(None, (args.conversations or "").split(","))))
    convs = convs or sorted({t["conversation_id"] for t in turns})
    turns = [t for t in turns if t["conversation_id"] in convs]
    questions = [q for q in questions if q["conversation_id"] in convs]
    if args.max_turns:
        turns = turns[: args.max_turns]
    if args.max_questions:
        questions = questions[: args.max_questions]
    return turns, questions, convs


def store_batches(turns: list[dict], prefix: str, size: int) -> list[list[dict]]:
    """eval_locomo's units and batches (conversation order), with the anchor's text."""
    ordered = sorted(turns, key=lambda t: (t["conversation_id"], t["order"]))
    units = []
    for t in ordered:
        unit = eval_locomo.turn_unit(t, prefix + t["conversation_id"])
        unit["value"] = anchor_text(t)
        units.append(unit)
    return list(eval_locomo.batches(units, size))


def headers(api_key: str | None) -> dict[str, str]:
    """The API key header, when the server wants one."""
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


def ingest(base: str, batches: list[list[dict]], api_key: str | None) -> dict[str, Any]:
    """Sequential ``/store`` of every batch: turns/s over the wall time, per-batch latency."""
    lat: list[float] = []
    outcomes: dict[str, int] = {}
    with httpx.Client(base_url=base, timeout=600, headers=headers(api_key)) as client:
        t0 = time.perf_counter()
        for i, chunk in enumerate(batches):
            s = time.perf_counter()
            r = client.post("/store", json={"memories": chunk})
            lat.append(time.perf_counter() - s)
            if r.status_code != 200:
                raise SystemExit(f"/store failed: {r.status_code} {r.text[:500]}")
            for res in r.json()["results"]:
                outcomes[res["outcome"]] = outcomes.get(res["outcome"], 0) + 1
            if (i + 1) % 5 == 0:
                done = sum(map(len, batches[: i + 1]))
                print(f"  stored {done} turns ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        seconds = time.perf_counter() - t0
    turns = sum(map(len, batches))
    return {
        "turns": turns,
        "batch": len(batches[0]) if batches else 0,
        "seconds": seconds,
        "turns_per_s": turns / seconds if seconds else None,
        "outcomes": outcomes,
        "batch_latency": summary_ms(lat),
    }


def recall_body(q: dict[str, Any], prefix: str, top_k: int, tag: str = "") -> dict[str, Any]:
    """eval_locomo's request of the shipped defaults; ``tag`` is appended to the question (a
    new text for the same words: see the module's docstring)."""
    return {
        "query": q["question"] + tag,
        "user_id": prefix + q["conversation_id"],
        "top_k": top_k,
        "now": q["asked_after_iso"] + "Z",  # the dataset's times are naive: UTC
    }


class Asker:
    """Recalls one question per call, one HTTP connection per thread; returns
    ``(question, raw_refs, seconds, took_ms, degraded, stages_ms)``. ``tag`` is appended to
    every question (set it per pass)."""

    def __init__(self, base: str, prefix: str, top_k: int, api_key: str | None) -> None:
        self.base, self.prefix, self.top_k = base, prefix, top_k
        self.tag = ""
        self.headers = headers(api_key)
        self.local = threading.local()
        self.clients: list[httpx.Client] = []

    def __call__(self, q: dict[str, Any]) -> tuple[dict, list[list[str]], float, float, bool, dict]:
        client = getattr(self.local, "client", None)
        if client is None:
            client = self.local.client = httpx.Client(
                base_url=self.base, timeout=120, headers=self.headers
            )
            self.clients.append(client)
        t0 = time.perf_counter()
        r = client.post("/recall", json=recall_body(q, self.prefix, self.top_k, self.tag))
        dt = time.perf_counter() - t0
        if r.status_code != 200:
            raise SystemExit(f"/recall failed: {r.status_code} {r.text[:500]}")
        data = r.json()
        refs = [m["raw_ref"] for m in data["memories"]]
        stages = dict(data.get("stages_ms") or {})
        if data.get("embed_model_ms") is not None:  # the model's own part of ``embed``
            stages["embed_model"] = float(data["embed_model_ms"])
        return q, refs, dt, float(data["took_ms"]), bool(data.get("degraded")), stages

    def close(self) -> None:
        for c in self.clients:
            c.close()


def http_floor(ask: Asker, questions: list[dict[str, Any]], tag: str) -> dict[str, Any]:
    """The floor of a new question over HTTP, measured: each question (``tag`` appended: a
    new text) sent sequentially to a subject with no units, whose recall is the embedding,
    one statement that finds nothing and the HTTP round trip; and ``GET /health`` as often,
    the HTTP round trip alone (uvicorn, the middleware, JSON, the loopback). p50/p95 of each,
    ms: what no work after the model can remove."""
    client = httpx.Client(base_url=ask.base, timeout=120, headers=ask.headers)
    try:
        empty, health = [], []
        for q in questions:
            body = recall_body(q, ask.prefix, ask.top_k, tag) | {"user_id": "bench-empty-subject"}
            t0 = time.perf_counter()
            r = client.post("/recall", json=body)
            empty.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            h = client.get("/health")
            health.append(time.perf_counter() - t0)
            if r.status_code != 200 or h.status_code != 200:
                raise SystemExit(f"floor requests failed: {r.status_code} {h.status_code}")
        return {"empty_subject": summary_ms(empty), "health": summary_ms(health)}
    finally:
        client.close()


def recall_at_10(answers: list[tuple]) -> float:
    """Non-adversarial evidence recall@10, scored as eval_locomo scores it."""
    report = eval_locomo.Report()
    for q, refs, *_ in answers:
        if q["evidence"]:
            report.cell(VARIANT, q["category_name"]).add(refs, set(q["evidence"]))
    total = report.overall(VARIANT)
    return total.r10 / total.n if total.n else float("nan")


def _tag(n: int) -> str:
    """The ``n``-th pass's tag: "" for the first, then "?", "??", …"""
    return "?" * n


def _stage_medians(answers: list[tuple]) -> dict[str, dict[str, float]]:
    """p50/p95 of each ``stages_ms`` entry over ``answers`` (those that report it; also
    ``embed_model``, the answer's ``embed_model_ms``), and of ``after_embed``: per answer, the
    sum of every stage but ``embed`` (the service's own time between the model and the
    answer, HTTP aside)."""
    by: dict[str, list[float]] = {}
    for *_, stages in answers:
        for name, ms in stages.items():
            by.setdefault(name, []).append(float(ms))
        if stages:
            own = sum(float(ms) for name, ms in stages.items() if name not in INSIDE_EMBED)
            by.setdefault("after_embed", []).append(own)
    return {k: {"n": len(v), "p50_ms": pct(v, 0.5), "p95_ms": pct(v, 0.95)} for k, v in by.items()}


INSIDE_EMBED = ("embed", "embed_model")


def embedded_text(question: str, names: frozenset[str]) -> str:
    """The text the service embeds for ``question`` in a subject whose units name ``names``
    (entity keys): the question without the names it mentions (``RecallService._plan`` and
    ``_find``: the names predicted known are stripped before the model sees the text)."""
    from app.core.text import tokenize
    from app.services.recall.query_embeddings import strip_names
    from app.services.recall.service import _entity_candidates

    known = [e for e in _entity_candidates(tokenize(question)) if e in names]
    return strip_names(question, known)


def _ask_interleaved(
    ask: Asker,
    bare: BareModel | None,
    questions: list[dict],
    floor: list[tuple],
    names: dict[str, frozenset[str]] | None = None,
) -> list[tuple]:
    """One sequential pass; with ``bare``, each question also goes to the bare model,
    alternately after and before the service's request, as the text the service embeds
    (tag included; :func:`embedded_text` with the entity keys of its conversation,
    ``names``), and its ``(wall ms, model ms)`` is appended to ``floor``."""
    res = []
    for i, q in enumerate(questions):
        text = q["question"] + ask.tag
        if bare is not None and names is not None:
            text = embedded_text(text, names.get(q["conversation_id"], frozenset()))
        if bare is not None and i % 2:
            floor.append(bare.embed(text))
        res.append(ask(q))
        if bare is not None and not i % 2:
            floor.append(bare.embed(text))
    return res


def _floor_summary(floor: list[tuple]) -> dict[str, Any]:
    """p50/p95 of the interleaved bare model's wall time and of its model's own time."""
    wall = [ms for ms, _ in floor]
    model = [m for _, m in floor if m is not None]
    return {
        "n": len(wall),
        "p50_ms": pct(wall, 0.5),
        "p95_ms": pct(wall, 0.95),
        "model_p50_ms": pct(model, 0.5),
        "model_p95_ms": pct(model, 0.95),
    }


def recall_runs(
    base: str,
    questions: list[dict],
    args: argparse.Namespace,
    bare: BareModel | None = None,
    names: dict[str, frozenset[str]] | None = None,
) -> dict[str, Any]:
    """Warm-up, sequential passes of new questions (pooled; with ``bare``, each question
    also to the bare model, interleaved: the floor under the same load), one concurrent pass
    of new questions, then one sequential pass of cached ones (pass 1's texts again)."""
    ask = Asker(base, args.subject_prefix, args.top_k, args.api_key)
    passes_n = max(1, args.passes)
    floor: list[tuple] = []
    try:
        ask.tag = _tag(passes_n + 2)  # a text no timed pass sends
        for q in questions[: args.warmup]:
            ask(q)
        first, lat, took, degraded, passes, new = None, [], [], 0, [], []
        for p in range(passes_n):
            ask.tag = _tag(p)
            t0 = time.perf_counter()
            res = _ask_interleaved(ask, bare, questions, floor, names)
            passes.append({"seconds": time.perf_counter() - t0, **summary_ms([x[2] for x in res])})
            lat += [x[2] for x in res]
            took += [x[3] for x in res]
            degraded += sum(x[4] for x in res)
            new += res
            first = first or res
            print(
                f"  pass {p + 1} (new questions): p50 {passes[-1]['p50_ms']:.1f} "
                f"p95 {passes[-1]['p95_ms']:.1f} ms",
                file=sys.stderr,
            )
        out: dict[str, Any] = {
            "questions": len(questions),
            "sequential": summary_ms(lat)
            | {
                "degraded": degraded,
                "passes": passes,
                "took_p50_ms": pct(took, 0.5),
                "took_p95_ms": pct(took, 0.95),
                "stages": _stage_medians(new),
            },
            "recall_at_10": recall_at_10(first or []),
        }
        if floor:
            out["sequential"]["bare"] = _floor_summary(floor)
            b, st = out["sequential"]["bare"], out["sequential"]["stages"]
            print(
                f"  embed stage p50/p95 {st['embed']['p50_ms']:.1f}/{st['embed']['p95_ms']:.1f}"
                f"; in-service model {st.get('embed_model', {}).get('p50_ms', float('nan')):.1f}/"
                f"{st.get('embed_model', {}).get('p95_ms', float('nan')):.1f}"
                f"; bare model interleaved {b['p50_ms']:.1f}/{b['p95_ms']:.1f} ms "
                f"(its own encode {b['model_p50_ms']:.1f}/{b['model_p95_ms']:.1f})",
                file=sys.stderr,
            )
        if args.concurrency > 1:
            ask.tag = _tag(passes_n)
            t0 = time.perf_counter()
            with ThreadPoolExecutor(args.concurrency) as pool:
                conc = list(pool.map(ask, questions))
            wall = time.perf_counter() - t0
            out["concurrent"] = summary_ms([x[2] for x in conc]) | {
                "clients": args.concurrency,
                "seconds": wall,
                "qps": len(conc) / wall,
                "degraded": sum(x[4] for x in conc),
                "answers": len(conc),
                "recall_at_10": recall_at_10(conc),
            }
        ask.tag = _tag(0)  # pass 1's texts: the query embeddings are cached now
        cached = [ask(q) for q in questions]
        out["cached"] = summary_ms([x[2] for x in cached]) | {
            "took_p50_ms": pct([x[3] for x in cached], 0.5),
            "stages": _stage_medians(cached),
        }
        c = out["cached"]
        print(f"  cached pass: p50 {c['p50_ms']:.1f} p95 {c['p95_ms']:.1f} ms", file=sys.stderr)
        out["http_floor"] = h = http_floor(ask, questions, _tag(passes_n + 1))
        print(
            f"  recall of an empty subject: p50 {h['empty_subject']['p50_ms']:.1f} p95 "
            f"{h['empty_subject']['p95_ms']:.1f} ms; GET /health: p50 "
            f"{h['health']['p50_ms']:.1f} p95 {h['health']['p95_ms']:.1f} ms",
            file=sys.stderr,
        )
        return out
    finally:
        ask.close()


def run_ours(args: argparse.Namespace, turns: list[dict], questions: list[dict]) -> dict[str, Any]:
    """Embedder floor, then ingest and recall against the service."""
    out: dict[str, Any] = {
        "date": f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        "commit": docsection.git_commit(ROOT),
        "command": shown_command(sys.argv[1:]),
        "load_before": uptime_line(),
        "workload": {k: getattr(args, k) for k in ("warmup", "passes", "concurrency", "top_k")},
    }
    if args.floor:
        print("embedder floor (separate process) ...", file=sys.stderr)
        passages = [anchor_text(t) for t in turns[: args.floor_passages]]
        out["floor"] = measure_in_subprocess(
            [q["question"] for q in questions[: args.floor_queries]], passages, 50, args.warmup
        )
    batches = store_batches(turns, args.subject_prefix, args.batch)

    def go(base: str) -> None:
        print(f"ingest {len(turns)} turns in batches of {args.batch} ...", file=sys.stderr)
        out["ingest"] = ingest(base, batches, args.api_key)
        print(f"recall {len(questions)} questions ...", file=sys.stderr)
        if not (args.floor and args.interleave):
            out["recall"] = recall_runs(base, questions, args)
            return
        warm = [q["question"] + "???" for q in questions[: max(3, args.warmup)]]
        from app.core.text import entity_keys

        names: dict[str, set[str]] = {}
        for t in turns:  # each unit names its speaker (eval_locomo.turn_unit)
            names.setdefault(t["conversation_id"], set()).update(entity_keys([t["speaker"]]))
        frozen = {c: frozenset(n) for c, n in names.items()}
        with BareModel(warm) as bare:
            out["recall"] = recall_runs(base, questions, args, bare, frozen)

    if args.base_url:
        go(args.base_url.rstrip("/"))
    else:
        with server.service(args.port) as base:
            go(base)
    out["load_after"] = uptime_line()
    return out


def run_mem0(args: argparse.Namespace, convs: list[str]) -> dict[str, Any] | None:
    """The anchor, after ours: its ``--json`` figures (or those of ``--mem0-json`` alone)."""
    if args.mem0_json and not args.mem0_python:
        return json.loads(Path(args.mem0_json).read_text())
    if not args.mem0_python:
        return None
    return mem0_anchor.run(
        args.mem0_python,
        args.mem0_script,
        args.dataset,
        convs,
        top_k=args.top_k,
        warmup=args.warmup,
        passes=args.passes,
        concurrency=args.concurrency,
        max_turns=args.max_turns,
        max_questions=args.max_questions,
        json_path=Path(args.mem0_json) if args.mem0_json else None,
    )


def shown_command(argv: list[str]) -> str:
    """The command line for the doc, without the machine's paths to the anchor and data."""
    out: list[str] = []
    it = iter(argv)
    for a in it:
        if a in ("--mem0-script", "--mem0-json", "--json", "--api-key"):
            next(it, None)
        elif a != "--write-doc":
            masks = {"--mem0-python": "MEM0_VENV/bin/python", "--dataset": "LOCOMO_DEV"}
            out.append(masks.get(out[-1], a) if out else a)
    return " ".join([".venv/bin/python scripts/bench_locomo.py", *out])


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dataset", type=Path, default=eval_locomo.DEFAULT_DATASET)
    p.add_argument("--conversations", help="Only these conversation ids (comma list).")
    p.add_argument("--base-url", help="A running server (default: start one).")
    p.add_argument("--api-key", help="With --base-url: an API key of the server.")
    p.add_argument("--port", type=int, default=8104, help="Port of the started server.")
    p.add_argument(
        "--subject-prefix",
        help="Prefix of every user_id (default: none; with --base-url a fresh one per run).",
    )
    p.add_argument("--batch", type=int, default=eval_locomo.BATCH, help="Units per /store.")
    p.add_argument("--top-k", type=int, default=eval_locomo.TOP_K)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--passes", type=int, default=3)
    p.add_argument("--concurrency", type=int, default=4)
    p.add_argument("--max-turns", type=int, default=0, help="Smoke tests: first N turns only.")
    p.add_argument("--max-questions", type=int, default=0, help="Smoke tests: first N only.")
    p.add_argument("--no-floor", dest="floor", action="store_false", help="Skip the embedder.")
    p.add_argument(
        "--no-interleave",
        dest="interleave",
        action="store_false",
        help="Do not send each sequential question to the bare model too.",
    )
    p.add_argument("--floor-queries", type=int, default=200)
    p.add_argument("--floor-passages", type=int, default=500)
    p.add_argument("--mem0-python", help="Python of the mem0 anchor's venv (runs it after ours).")
    p.add_argument("--mem0-script", type=Path, default=None, help="The anchor's mem0_locomo.py.")
    p.add_argument("--mem0-json", help="Where mem0 writes its figures; alone: read an earlier run.")
    p.add_argument("--json", type=Path, help="Write every figure (ours, mem0, aims) here.")
    p.add_argument(
        "--from-json", type=Path, help="Render (and --write-doc) the figures of a --json file."
    )
    p.add_argument("--write-doc", action="store_true", help=f"Update {DOC.relative_to(ROOT)}.")
    args = p.parse_args(argv)
    args.mem0_script = args.mem0_script or default_mem0_script(args.dataset)
    if args.mem0_python and not args.mem0_script.exists():
        p.error(f"--mem0-script {args.mem0_script} not found")
    if args.subject_prefix is None:
        args.subject_prefix = f"bench-{int(time.time())}/" if args.base_url else ""
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.from_json:
        saved = json.loads(args.from_json.read_text())
        ours, mem0 = saved["ours"], saved["mem0"]
    else:
        turns, questions, convs = load_data(args)
        ours = run_ours(args, turns, questions)
        mem0 = run_mem0(args, convs)
    block = versus.render(ours, mem0)
    print("\n" + block)
    if args.json:
        met = versus.verdicts(ours, mem0)
        args.json.write_text(json.dumps({"ours": ours, "mem0": mem0, "aims": met}, indent=1))
    if args.write_doc:
        docsection.write_block(DOC, BLOCK, block, HEADING)
        print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
