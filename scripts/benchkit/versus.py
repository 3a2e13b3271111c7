"""The side-by-side table of ``scripts/bench_locomo.py``: ours | mem0 | ours / mem0 per
figure, with the aims and whether this run meets them. Recall figures are new questions only
(bench_locomo's tags); the cached pass is a row of its own."""

from __future__ import annotations

from typing import Any

from benchkit import mem0 as anchor
from benchkit.report import fmt

# Issue 29 (new questions): mem0's p95 / ours ≥ 2 sequential (ours / mem0 ≤ 0.5) and ≥ 2.5
# with 4 clients (≤ 0.4, no degraded answer); issue 11: ingest ≥ 2× mem0's turns/s and ≥ 0.8×
# the embedder's raw batch throughput.
AIMS: dict[str, tuple[float, str]] = {
    "seq_p95": (0.5, "≤"),
    "conc_p95": (0.4, "≤"),
    "ingest_vs_mem0": (2.0, "≥"),
    "ingest_vs_floor": (0.8, "≥"),
}


def ratio(a: float | None, b: float | None) -> float | None:
    """``a / b``, None when either is missing or ``b`` is 0."""
    return a / b if a is not None and b else None


def verdicts(ours: dict[str, Any], mem0: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Per aim: ``{ratio, aim, met}`` (``met`` None when a figure is missing)."""
    m = anchor.headline(mem0 or {})
    seq, conc = ours["recall"]["sequential"], ours["recall"].get("concurrent", {})
    floor = ours.get("floor")
    tps = ours["ingest"]["turns_per_s"]
    ratios = {
        "seq_p95": ratio(seq.get("p95_ms"), m["seq_p95_ms"]),
        "conc_p95": ratio(conc.get("p95_ms"), m["conc_p95_ms"]),
        "ingest_vs_mem0": ratio(tps, m["ingest_turns_per_s"]),
        "ingest_vs_floor": ratio(tps, floor["passages"]["texts_per_s"] if floor else None),
    }
    out = {}
    for key, value in ratios.items():
        aim, sense = AIMS[key]
        met = None if value is None else (value <= aim if sense == "≤" else value >= aim)
        if key == "conc_p95" and met is not None:
            met = met and conc.get("degraded", 1) == 0
        out[key] = {"ratio": value, "aim": f"{sense} {aim}×", "met": met}
    return out


def table(ours: dict[str, Any], mem0: dict[str, Any] | None) -> str:
    """The Markdown table of one run."""
    m = anchor.headline(mem0 or {})
    rec, ing, floor = ours["recall"], ours["ingest"], ours.get("floor")
    seq, conc = rec["sequential"], rec.get("concurrent", {})
    n = conc.get("clients", "N")
    rows: list[tuple[str, float | None, float | None, str, int]] = [
        ("recall p50, sequential (ms)", seq.get("p50_ms"), m["seq_p50_ms"], "", 1),
        ("recall p95, sequential (ms)", seq.get("p95_ms"), m["seq_p95_ms"], "≤ 0.5×", 1),
        (f"recall p95, {n} clients (ms)", conc.get("p95_ms"), m["conc_p95_ms"], "≤ 0.4×", 1),
        (f"recalls/s, {n} clients", conc.get("qps"), m["conc_qps"], "", 1),
        ("ingest (turns/s)", ing["turns_per_s"], m["ingest_turns_per_s"], "≥ 2×", 1),
        ("recall@10 (non-adversarial)", rec["recall_at_10"], m["recall_at_10"], "", 3),
    ]
    lines = ["| figure | ours | mem0 | ours / mem0 | aim |", "|---|---|---|---|---|"]
    for name, a, b, aim, digits in rows:
        r = ratio(a, b)
        shown = "–" if r is None else fmt(r, 2) + "×"
        lines.append(f"| {name} | {fmt(a, digits)} | {fmt(b, digits)} | {shown} | {aim} |")
    lines.append(
        f"| answers `degraded` (sequential / {n} clients) | {seq['degraded']} / "
        f"{conc.get('degraded', '–')} | – | – | 0 with {n} clients |"
    )
    lines.append(
        f"| server `took_ms` p50 / p95, sequential | {fmt(seq.get('took_p50_ms'))} / "
        f"{fmt(seq.get('took_p95_ms'))} | – | – | |"
    )
    cached = rec.get("cached")
    if cached:
        lines.append(
            f"| cached questions (pass 1 again), p50 / p95 (ms) | {fmt(cached.get('p50_ms'))} / "
            f"{fmt(cached.get('p95_ms'))} | – | – | reported apart |"
        )
    stages = seq.get("stages", {})
    bare = seq.get("bare")  # the model alone, interleaved with the service's requests
    if floor:
        q = floor["query"]
        lines.append(
            f"| embedder alone, before the service started: one query p50 / p95 (ms) | "
            f"{fmt(q['p50_ms'])} / {fmt(q['p95_ms'])} | same model | – | |"
        )
    if bare:
        lines.append(
            f"| embedder alone, interleaved with the service's requests: one query p50 / p95 "
            f"(ms) | {fmt(bare['p50_ms'])} / {fmt(bare['p95_ms'])} (its encode alone: "
            f"{fmt(bare['model_p50_ms'])} / {fmt(bare['model_p95_ms'])}) | same model | – | |"
        )
    q = bare or (floor["query"] if floor else None)
    name = "interleaved" if bare else "before"
    if q:
        if "embed" in stages:
            e = stages["embed"]
            lines.append(
                f"| `embed` stage in the service p50 / p95 (ms) | {fmt(e['p50_ms'])} / "
                f"{fmt(e['p95_ms'])} | – | − model alone ({name}): "
                f"{fmt(e['p50_ms'] - q['p50_ms'])} / {fmt(e['p95_ms'] - q['p95_ms'])} "
                "| ≤ 1 / 3 ms |"
            )
        if "embed_model" in stages and bare:
            m = stages["embed_model"]
            lines.append(
                f"| the model's own encode within `embed` (`embed_model_ms`) p50 / p95 (ms) | "
                f"{fmt(m['p50_ms'])} / {fmt(m['p95_ms'])} | – | − the bare model's encode: "
                f"{fmt(m['p50_ms'] - bare['model_p50_ms'])} / "
                f"{fmt(m['p95_ms'] - bare['model_p95_ms'])} | |"
            )
        if seq.get("p95_ms") is not None:
            lines.append(
                f"| client p95 − the model alone's p95 ({name}) (ms) | "
                f"{fmt(seq['p95_ms'] - q['p95_ms'])} | – | – | ≤ 8 ms |"
            )
    floors = rec.get("http_floor")
    if floors:
        h, e = floors["health"], floors["empty_subject"]
        mem0_p95 = anchor.headline(mem0 or {})["seq_p95_ms"]
        lines.append(
            f"| HTTP alone: `GET /health`, p50 / p95 (ms) | {fmt(h['p50_ms'])} / "
            f"{fmt(h['p95_ms'])} | – (in process) | – | |"
        )
        lines.append(
            f"| a new question to a subject with no units (the model, one statement, HTTP): "
            f"the floor, p50 / p95 (ms) | {fmt(e['p50_ms'])} / {fmt(e['p95_ms'])} | "
            f"p95 / 2: {fmt(mem0_p95 / 2 if mem0_p95 else None)} | "
            f"{fmt(ratio(e['p95_ms'], mem0_p95), 2)}× at p95 | the ≤ 0.5× aim needs this ≤ 0.5× |"
        )
    if "after_embed" in stages:
        a = stages["after_embed"]
        lines.append(
            f"| the service's stages after `embed`, p50 / p95 (ms) | {fmt(a['p50_ms'])} / "
            f"{fmt(a['p95_ms'])} | – | – | ≤ 5 / 8 ms |"
        )
    if conc.get("p95_ms") is not None and seq.get("p95_ms"):
        lines.append(
            f"| {n}-client p95 / sequential p95 | {fmt(conc['p95_ms'] / seq['p95_ms'], 2)}× "
            "| – | – | ≤ 2× |"
        )
    if floor:
        tps = floor["passages"]["texts_per_s"]
        r = ratio(ing["turns_per_s"], tps)
        lines.append(
            f"| embedder alone: passages in batches of {floor['passages']['batch']} (texts/s) "
            f"| {fmt(tps)} | same model | ours ingest / embedder: {fmt(r, 2)}× | ≥ 0.8× |"
        )
    return "\n".join(lines)


def verdict_line(met: dict[str, dict[str, Any]]) -> str:
    """One sentence: each aim, its ratio in this run, met or not."""
    words = {True: "met", False: "not met", None: "not measured"}
    return "; ".join(
        f"{k} {fmt(v['ratio'], 2)}× (aim {v['aim']}: {words[v['met']]})" for k, v in met.items()
    )


def render(ours: dict[str, Any], mem0: dict[str, Any] | None) -> str:
    """The generated block of docs/BENCHMARKS.md (and what is printed) for the figures of one
    run (``ours`` holds its ``date``, ``commit``, ``command``, ``workload`` and loads)."""
    w = ours.get("workload", {"warmup": 3, "passes": 3, "concurrency": 4, "top_k": 10})
    anchor = "not run"
    if mem0:
        anchor = (
            f"mem0ai {mem0.get('mem0_version')} in process (variant {mem0.get('variant')}, "
            f"one `add(infer=False)` per turn; {mem0.get('postgres')}, pgvector "
            f"{mem0.get('pgvector')}), run right after ours, never at the same time"
        )
    load = f"before ours `{ours['load_before']}`; after ours `{ours['load_after']}`"
    if mem0 and mem0.get("load_after"):
        load += f"; after mem0 `{mem0['load_after']}`"
    ing, rec = ours["ingest"], ours["recall"]
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(ing["outcomes"].items()))
    return "\n".join(
        [
            f"Command: `{ours.get('command', '?')}` — {ours.get('date', '?')}, commit "
            f"{ours.get('commit', '?')}. Anchor: {anchor}.",
            "",
            f"Load (`uptime`): {load}.",
            "",
            f"{ing['turns']} turns stored through `/store` in batches of {ing['batch']} "
            f"(outcomes: {outcomes}); {rec['questions']} questions × {w['passes']} sequential "
            f"passes (pooled) after {w['warmup']} warm-ups, then one pass with "
            f"{w['concurrency']} clients; top_k {w['top_k']}. Every timed pass of ours asks new "
            "questions (each pass appends its own tag to the text: no cached query embedding); "
            "a last pass repeats pass 1's texts (cached), reported apart. Ours: client wall "
            "time over HTTP (127.0.0.1, one uvicorn worker, embedded PostgreSQL, the embedder "
            "in the service process); mem0: wall time of its in-process `search()` / `add()`. "
            "The model alone is measured twice: before the service starts, and interleaved "
            "with the sequential passes (a process of its own embeds each question's text "
            "right after or right before the service's request, alternately: the same load); "
            "the aims compare with the interleaved one when there is one. "
            "Percentiles: sorted[int(n·p)].",
            "",
            table(ours, mem0),
            "",
            f"Aims in this run: {verdict_line(verdicts(ours, mem0))}.",
        ]
    )
