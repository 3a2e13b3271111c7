"""Evidence recall of ``/recall`` on the LoCoMo dev split, through the HTTP API.

    .venv/bin/python scripts/eval_locomo.py [--dataset PATH] [--base-url URL] [--write-doc]
    LLM__BASE_URL=… LLM__MODEL=… LLM__API_KEY=… \
        .venv/bin/python scripts/eval_locomo.py --rerank llm --variants defaults [--write-doc]

Each conversation is one subject (``user_id`` = the conversation id); every turn is stored
with ``/store`` (batches of at most 100 units and ``LIMITS__REQUEST_TOKENS`` model tokens,
``benchkit.batches``) as one memory unit: value ``"Speaker: text"`` (a shared
photo's caption appended to its turn), the speaker in ``entities``, ``occurred_at`` = the
session's time, ``session_id`` = the conversation's session, ``raw_ref`` = the turn's
``dia_id``. Then every question is recalled (``top_k`` 10, ``now`` = ``asked_after_iso``)
once per variant, and evidence recall@5/@10, any-hit@10 and MRR (over the 10 returned) are
printed per category; the dataset's README defines the scoring. The primary figure is
recall@10 over the four non-adversarial categories.

Variants (per-request overrides, so one server answers all of them):
- ``defaults``: the shipped defaults, what a user gets with no options;
- ``keyword``: keyword signal only; ``vector``: semantic signal only;
- ``seeds``: ``profile: short_term``, the seeds' weights 0.5/0.2/0.2/0.1 with λ 0.01/h;
- with ``--rerank llm``, also ``rerank``: the shipped defaults plus the LLM rerank stage
  (``rerank: llm``, ``--rerank-candidates``), next to ``defaults`` as its anchor. It needs an
  LLM: in-process, ``LLM__BASE_URL`` / ``LLM__MODEL`` (and ``LLM__API_KEY``) from the
  environment, the recall budget raised to ``--budget-ms`` (default 10 s, so the figures
  measure the model rather than timeouts) and the write path's conflict judge kept off (the
  stored units stay those of the runs without an LLM); with ``--base-url``, the server's
  own LLM and ``RECALL__BUDGET_MS``. Rerank outcomes (applied, timeout, error…), the median
  LLM call time and the tokens are printed; ``--write-doc`` then writes its own section of
  docs/EVAL.md ("Rerank"), not the main one.

By default the app runs in-process (httpx over ASGI) against a fresh embedded PostgreSQL in
a temporary folder; ``--base-url`` targets a running server instead (units then go to
subjects prefixed with ``--subject-prefix``, so repeated runs do not merge into each other).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import httpx
from benchkit import docsection
from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATASET = ROOT / ".." / "shared" / "datasets" / "locomo-dev"
CATEGORIES = ["single_hop", "multi_hop", "temporal", "open_domain"]
ADVERSARIAL = "adversarial"
BATCH = 100
TOP_K = 10

# Every signal the API knows (app.services.recall.scoring.SIGNALS, checked by
# tests/scripts/test_eval_locomo.py); variants that isolate one signal zero all the others.
SIGNALS = [
    "semantic",
    "keyword",
    "recency",
    "confidence",
    "entity",
    "context",
    "time",
    "answer_type",
]


def _only(signal: str) -> dict[str, float]:
    return {s: (1.0 if s == signal else 0.0) for s in SIGNALS}


VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "defaults": ("shipped defaults", {}),
    "keyword": ("keyword only", {"weights": _only("keyword")}),
    "vector": ("vector only", {"weights": _only("semantic")}),
    "seeds": ("seeds' weights (profile short_term)", {"profile": "short_term"}),
}


@dataclass
class Scores:
    """Sums of per-question figures for one (variant, category) cell."""

    n: int = 0
    r5: float = 0.0
    r10: float = 0.0
    hit10: float = 0.0
    mrr: float = 0.0

    def add(self, ranked_refs: list[list[str]], evidence: set[str]) -> None:
        """Score one question from the raw_refs of the ranked units (best first)."""

        def recall_at(k: int) -> float:
            got = {ref for refs in ranked_refs[:k] for ref in refs}
            return len(got & evidence) / len(evidence)

        self.n += 1
        self.r5 += recall_at(5)
        self.r10 += recall_at(10)
        self.hit10 += 1.0 if recall_at(10) > 0 else 0.0
        first = next((i for i, refs in enumerate(ranked_refs) if evidence & set(refs)), None)
        self.mrr += 0.0 if first is None else 1.0 / (first + 1)

    def merge(self, other: Scores) -> None:
        self.n += other.n
        self.r5 += other.r5
        self.r10 += other.r10
        self.hit10 += other.hit10
        self.mrr += other.mrr

    def row(self) -> list[str]:
        if self.n == 0:
            return ["-"] * 4
        return [f"{v / self.n:.3f}" for v in (self.r5, self.r10, self.hit10, self.mrr)]


@dataclass
class Report:
    """Scores per variant and category, plus timings."""

    cells: dict[str, dict[str, Scores]] = field(default_factory=dict)
    per_question: list[dict[str, Any]] = field(default_factory=list)
    ingest_s: float = 0.0
    recall_ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    # Per variant with rerank: the `rerank` objects of its answers.
    rerank: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    # Answers marked degraded, per variant (a budget cut: printed, they should be 0).
    degraded: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    # With --calibrate: the 50 best candidates of every question with their raw signals.
    calibration: Any = None

    def cell(self, variant: str, category: str) -> Scores:
        return self.cells.setdefault(variant, {}).setdefault(category, Scores())

    def overall(self, variant: str) -> Scores:
        total = Scores()
        for cat in CATEGORIES:
            total.merge(self.cell(variant, cat))
        return total


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def turn_unit(turn: dict[str, Any], subject: str) -> dict[str, Any]:
    """One turn as a ``MemoryCreate``: the speaker kept in the text and in ``entities``."""
    value = f"{turn['speaker']}: {turn['text']}"
    if turn.get("image_caption"):
        value += f" [shared a photo: {turn['image_caption']}]"
    return {
        "user_id": subject,
        "session_id": f"{subject}:{turn['session_id']}",
        "type": "event",
        "value": value,
        "entities": [turn["speaker"]],
        "occurred_at": turn["session_datetime_iso"] + "Z",  # naive in the dataset: UTC
        "raw_ref": turn["dia_id"],
        "source": "user",
        "metadata": {"conversation_id": turn["conversation_id"], "dia_id": turn["dia_id"]},
    }


def batches(items: list[dict[str, Any]], size: int) -> Iterable[list[dict[str, Any]]]:
    """``items`` in order, in ``/store`` batches of at most ``size`` units and the service's
    ``LIMITS__REQUEST_TOKENS`` model tokens (``benchkit.batches``)."""
    from benchkit.batches import store_batches

    return store_batches(items, max_units=size)


async def ingest(client: httpx.AsyncClient, turns: list[dict[str, Any]], prefix: str) -> None:
    """Store every turn, in conversation order, in batches within the service's limits."""
    turns = sorted(turns, key=lambda t: (t["conversation_id"], t["order"]))
    units = [turn_unit(t, prefix + t["conversation_id"]) for t in turns]
    with tqdm(total=len(units), desc="ingest", unit="turn") as bar:
        for chunk in batches(units, BATCH):
            r = await client.post("/store", json={"memories": chunk}, timeout=300)
            if r.status_code != 200:
                raise SystemExit(f"/store failed: {r.status_code} {r.text[:500]}")
            bar.update(len(chunk))


async def recall_question(
    client: httpx.AsyncClient,
    q: dict[str, Any],
    subject: str,
    top_k: int,
    wait_s: float = 60,
    **overrides: Any,
) -> dict[str, Any]:
    """``POST /recall`` of one LoCoMo question for ``subject`` at the time it was asked
    (``asked_after_iso``; the dataset's times are naive: UTC), the JSON answer; exits on any
    other status than 200; ``wait_s``: the HTTP timeout. ``overrides``: more RecallRequest
    fields."""
    body = {
        "query": q["question"],
        "user_id": subject,
        "top_k": top_k,
        "now": q["asked_after_iso"] + "Z",
        **overrides,
    }
    r = await client.post("/recall", json=body, timeout=wait_s)
    if r.status_code != 200:
        raise SystemExit(f"/recall failed: {r.status_code} {r.text[:500]}")
    data: dict[str, Any] = r.json()
    return data


async def evaluate(
    client: httpx.AsyncClient,
    questions: list[dict[str, Any]],
    variants: list[str],
    prefix: str,
    extra: dict[str, dict[str, Any]],
    report: Report,
) -> None:
    """Recall every question once per variant and score the ranked raw_refs."""
    plans = {v: VARIANTS[v][1] for v in variants} | extra
    with tqdm(total=len(questions) * len(plans), desc="recall", unit="query") as bar:
        for q in questions:
            record: dict[str, Any] = {
                "question_id": q["question_id"],
                "category": q["category_name"],
                "evidence": q["evidence"],
                "ranked": {},
            }
            for name, overrides in plans.items():
                data = await recall_question(
                    client, q, prefix + q["conversation_id"], TOP_K, **overrides
                )
                report.recall_ms[name].append(float(data["took_ms"]))
                report.degraded[name] += bool(data["degraded"])
                if data.get("rerank"):
                    report.rerank[name].append(data["rerank"])
                refs = [m["raw_ref"] for m in data["memories"]]
                record["ranked"][name] = refs
                if q["evidence"]:
                    report.cell(name, q["category_name"]).add(refs, set(q["evidence"]))
                bar.update(1)
            report.per_question.append(record)


async def calibrate(
    client: httpx.AsyncClient, questions: list[dict[str, Any]], prefix: str, report: Report
) -> None:
    """Recall every question's 50 best (shipped defaults, nothing logged) and keep each
    hit's raw signals, its shipped ``relevance`` and whether it is an evidence turn
    (scripts/relevance_fit.py fits and cross-validates on them)."""
    from relevance_fit import FEATURES, Rows

    rows = Rows.empty()
    for q in tqdm(questions, desc="calibrate", unit="query"):
        answer = await recall_question(
            client, q, prefix + q["conversation_id"], 50, record_access=False
        )
        evidence = set(q["evidence"])
        hits = answer["memories"]
        # The service counts a unit that does not name the query's entity against its
        # relevance only when the query names one (some unit names it): seen from the client,
        # when some of the 50 hits has the entity signal.
        named = any(h["scores"]["entity"] > 0 for h in hits)
        for rank, hit in enumerate(hits):
            rows.conversation.append(q["conversation_id"])
            rows.question.append(q["question_id"])
            rows.category.append(q["category_name"])
            rows.rank.append(rank)
            raw = {
                **hit["relevance_inputs"],
                "mismatch": 1.0 if named and hit["scores"]["entity"] == 0 else 0.0,
            }
            rows.x.append([float(raw[f]) for f in FEATURES])
            rows.y.append(1.0 if evidence & set(hit["raw_ref"]) else 0.0)
            rows.shipped.append(float(hit["relevance"]))
    report.calibration = rows


@contextlib.asynccontextmanager
async def in_process_app(
    data_dir: Path | None, **settings: Any
) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    """The app and a client over httpx's ASGI transport, on an embedded PostgreSQL (a
    temporary one unless ``data_dir`` is given); ``settings`` override fields of ``Settings``
    (which reads the environment for the rest)."""
    from asgi_lifespan import LifespanManager

    from app.core import embedded_pg, migrate
    from app.core.config import Settings
    from app.main import create_app

    tmp = data_dir or Path(tempfile.mkdtemp(prefix="hindsight-eval-"))
    os.chmod(tmp, 0o755)
    server = await asyncio.to_thread(embedded_pg.start, tmp)
    try:
        # Alembic's env runs its own event loop: migrate from a worker thread.
        await asyncio.to_thread(migrate.upgrade, server.url)
        app = create_app(Settings(database_url=server.url, redis_url=None, **settings))
        async with LifespanManager(app, startup_timeout=120):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://eval") as client:
                yield app, client
    finally:
        server.stop()
        if data_dir is None:
            shutil.rmtree(tmp, ignore_errors=True)


@contextlib.asynccontextmanager
async def in_process_client(
    data_dir: Path | None, **settings: Any
) -> AsyncIterator[httpx.AsyncClient]:
    """The client of :func:`in_process_app`."""
    async with in_process_app(data_dir, **settings) as (_, client):
        yield client


def table(report: Report, names: dict[str, str]) -> str:
    """A Markdown table per variant: rows = categories, overall and adversarial."""
    out: list[str] = []
    head = "| category | n | recall@5 | recall@10 | any-hit@10 | MRR |"
    sep = "|---|---|---|---|---|---|"
    for variant, label in names.items():
        if variant not in report.cells:
            continue
        out += [f"**{label}** (`{variant}`)", "", head, sep]
        for cat in CATEGORIES:
            s = report.cell(variant, cat)
            out.append(f"| {cat} | {s.n} | " + " | ".join(s.row()) + " |")
        s = report.overall(variant)
        bold = " | ".join(f"**{x}**" for x in s.row())
        out.append(f"| **non-adversarial** | {s.n} | {bold} |")
        s = report.cell(variant, ADVERSARIAL)
        out.append(f"| adversarial | {s.n} | " + " | ".join(s.row()) + " |")
        out.append("")
    return "\n".join(out)


def summary(report: Report, names: dict[str, str]) -> str:
    """One line per variant: non-adversarial figures, adversarial recall@10, recall time."""
    out = [
        "| variant | recall@5 | recall@10 | any-hit@10 | MRR | adversarial recall@10 "
        "| median took_ms |",
        "|---|---|---|---|---|---|---|",
    ]
    for variant, label in names.items():
        if variant not in report.cells:
            continue
        s = report.overall(variant)
        adv = report.cell(variant, ADVERSARIAL).row()[1]
        took = sorted(report.recall_ms[variant])
        med = f"{took[len(took) // 2]:.1f}" if took else "-"
        out.append(f"| {label} | " + " | ".join(s.row()) + f" | {adv} | {med} |")
    return "\n".join(out)


def rerank_summary(report: Report) -> str:
    """Per variant that reranked: outcomes, median LLM call time and tokens per call."""
    out = [
        "| variant | answers | outcomes | median llm_ms | prompt tokens / call "
        "| completion tokens / call |",
        "|---|---|---|---|---|---|",
    ]

    def mean(values: list[int]) -> str:
        return f"{sum(values) / len(values):.0f}" if values else "-"

    for variant, infos in report.rerank.items():
        outcomes: dict[str, int] = defaultdict(int)
        for info in infos:
            outcomes[info["status"]] += 1
        calls = [i for i in infos if i["status"] in ("applied", "timeout", "error")]
        ms = sorted(i["llm_ms"] for i in calls)
        median = f"{ms[len(ms) // 2]:.0f}" if ms else "-"
        prompt = [i["prompt_tokens"] for i in calls if i["prompt_tokens"] is not None]
        completion = [i["completion_tokens"] for i in calls if i["completion_tokens"] is not None]
        counts = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
        out.append(
            f"| {variant} | {len(infos)} | {counts} | {median} | {mean(prompt)} "
            f"| {mean(completion)} |"
        )
    return "\n".join(out)


def _conversation(record: dict[str, Any]) -> str:
    return str(record["question_id"]).split("/", 1)[0]


def _record_scores(records: list[dict[str, Any]], variant: str) -> dict[str, Scores]:
    """Scores per category of ``variant`` over ``records`` (per-question rankings)."""
    cells: dict[str, Scores] = defaultdict(Scores)
    for rec in records:
        if rec["evidence"] and variant in rec["ranked"]:
            cells[rec["category"]].add(rec["ranked"][variant], set(rec["evidence"]))
    return cells


def _primary(cells: dict[str, Scores]) -> float:
    total = Scores()
    for cat in CATEGORIES:
        total.merge(cells.get(cat, Scores()))
    return total.r10 / total.n if total.n else 0.0


def cross_validate(report: Report, variants: list[str]) -> list[tuple[str, str, float]]:
    """Leave-one-conversation-out over the variants run: for each conversation, the variant
    with the best non-adversarial recall@10 on the *other* conversations is chosen and
    scored on this one; the held-out scores fill ``report.cells["cv"]`` (one figure per
    question, each from a choice that did not see it). Returns (held-out conversation,
    variant chosen, its recall@10 on the conversations it was chosen on) per fold."""
    records = report.per_question
    folds = sorted({_conversation(r) for r in records})
    chosen: list[tuple[str, str, float]] = []
    for conv in folds:
        train = [r for r in records if _conversation(r) != conv]
        test = [r for r in records if _conversation(r) == conv]
        best = max(variants, key=lambda v: (_primary(_record_scores(train, v)), -variants.index(v)))
        chosen.append((conv, best, _primary(_record_scores(train, best))))
        for cat, cell in _record_scores(test, best).items():
            report.cell("cv", cat).merge(cell)
    return chosen


def cv_summary(report: Report, chosen: list[tuple[str, str, float]], names: dict[str, str]) -> str:
    """The folds (which variant each chose) and the cross-validated figures next to the
    in-sample best."""
    variants = [v for v in names if v in report.cells and v != "cv"]
    in_sample = max(variants, key=lambda v: report.overall(v).r10 / max(1, report.overall(v).n))
    out = [
        "| held-out conversation | variant chosen on the other four | its recall@10 there |",
        "|---|---|---|",
        *(f"| {conv} | {names.get(v, v)} | {r:.3f} |" for conv, v, r in chosen),
        "",
        "| | single_hop | multi_hop | temporal | open_domain | non-adversarial | adversarial |",
        "|---|---|---|---|---|---|---|",
    ]
    for label, variant in (
        (f"in-sample best ({names.get(in_sample, in_sample)})", in_sample),
        ("cross-validated (leave one conversation out)", "cv"),
    ):
        row = [report.cell(variant, c).row()[1] for c in CATEGORIES]
        adv = report.cell(variant, ADVERSARIAL).row()[1]
        out.append(
            f"| {label} | "
            + " | ".join(row)
            + f" | **{report.overall(variant).row()[1]}** | {adv} |"
        )
    return "\n".join(out)


def rerank_plan(args: argparse.Namespace) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """With ``--rerank llm``: the ``rerank`` variant and the in-process settings it needs
    (exits with a clear message when no LLM is configured in the environment)."""
    if args.rerank != "llm":
        # In-process, the budget is raised all the same: on a loaded machine a recall whose
        # query embedding is late is ranked without the semantic signal (degraded), which
        # would measure the load, not the ranking.
        return {}, {} if args.base_url else {"recall": {"budget_ms": args.budget_ms}}
    if not args.base_url:
        from app.core.config import Settings

        llm = Settings().llm
        if not llm.configured:
            raise SystemExit(
                "--rerank llm needs an LLM: set LLM__BASE_URL and LLM__MODEL (and "
                "LLM__API_KEY) in the environment, or point --base-url at a server that has one"
            )
        print(f"rerank: {llm.model} at {llm.base_url}, budget {args.budget_ms} ms", file=sys.stderr)
    variant = {"rerank": {"rerank": "llm", "rerank_candidates": args.rerank_candidates}}
    settings = {"recall": {"budget_ms": args.budget_ms}, "conflicts": {"use_llm": False}}
    return variant, settings


def parse_extra(specs: list[str]) -> dict[str, dict[str, Any]]:
    """``name=JSON`` → extra request fields for an ad-hoc variant (for tuning)."""
    extra: dict[str, dict[str, Any]] = {}
    for spec in specs:
        name, _, body = spec.partition("=")
        extra[name] = json.loads(body)
    return extra


def read_dataset(
    dataset: Path, conversations: str | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The turns and questions of a LoCoMo folder, only those of ``conversations`` (comma
    separated ids) when given."""
    turns = read_jsonl(dataset / "turns.jsonl")
    questions = read_jsonl(dataset / "questions.jsonl")
    if conversations:
        keep = set(conversations.split(","))
        turns = [t for t in turns if t["conversation_id"] in keep]
        questions = [q for q in questions if q["conversation_id"] in keep]
    return turns, questions


async def run(args: argparse.Namespace) -> Report:
    turns, questions = read_dataset(Path(args.dataset), args.conversations)
    variants = [v for v in args.variants.split(",") if v]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        raise SystemExit(f"unknown variants {unknown}; known: {list(VARIANTS)}")
    rerank_variant, settings = rerank_plan(args)
    if rerank_variant and "defaults" not in variants:
        variants.insert(0, "defaults")  # the rerank stage's anchor, in the same run
    report = Report()
    prefix = args.subject_prefix

    async def go(client: httpx.AsyncClient) -> None:
        marker = Path(args.data_dir) / "ingested.json" if args.data_dir else None
        if marker is not None and marker.exists():
            print(f"reusing ingested data in {args.data_dir}", file=sys.stderr)
        else:
            start = time.perf_counter()
            await ingest(client, turns, prefix)
            report.ingest_s = time.perf_counter() - start
            if marker is not None:
                marker.write_text(json.dumps({"turns": len(turns), "prefix": prefix}))
        extra = parse_extra(args.extra) | rerank_variant
        await evaluate(client, questions, variants, prefix, extra, report)
        if args.calibrate:
            await calibrate(client, questions, prefix, report)

    if args.base_url:
        async with httpx.AsyncClient(base_url=args.base_url) as client:
            await go(client)
    else:
        async with in_process_client(args.data_dir, **settings) as client:
            await go(client)
    return report


def write_doc(
    path: Path, report: Report, names: dict[str, str], command: str, marker: str = "eval_locomo"
) -> None:
    """Replace the generated section of docs/EVAL.md (between the ``marker`` comments), or
    create it; a run with a rerank variant adds its outcome table."""
    stage = ["", "Rerank stage:", "", rerank_summary(report)] if report.rerank else []
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    body = "\n".join(
        [
            f"Date: {date.today().isoformat()}. Machine: {machine}. "
            f"Ingest (2,760 turns, embedding included): {report.ingest_s:.0f} s.",
            "",
            "```bash",
            command,
            "```",
            "",
            "Summary (non-adversarial questions, top_k 10):",
            "",
            summary(report, names),
            "",
            "Per category:",
            "",
            table(report, names),
            *stage,
        ]
    )
    docsection.write_block(path, marker, body, "## LoCoMo dev")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default=str(DEFAULT_DATASET), help="LoCoMo dev folder.")
    parser.add_argument("--base-url", help="A running server (default: start one in-process).")
    parser.add_argument(
        "--variants", default=",".join(VARIANTS), help=f"Comma list of {list(VARIANTS)}."
    )
    parser.add_argument(
        "--extra",
        action="append",
        default=[],
        metavar="NAME=JSON",
        help='An ad-hoc variant: extra /recall fields, e.g. \'w={"weights":{"recency":0}}\'.',
    )
    parser.add_argument("--conversations", help="Only these conversation ids (comma list).")
    parser.add_argument(
        "--data-dir",
        help="Keep the embedded database here and reuse its ingest on the next run "
        "(default: a temporary folder, deleted at the end).",
    )
    parser.add_argument("--subject-prefix", default="", help="Prefix of every user_id.")
    parser.add_argument("--json", help="Write per-question rankings to this file.")
    parser.add_argument(
        "--calibration-json",
        help="With --calibrate: also write the candidates' rows to this file, for "
        "`python scripts/relevance_fit.py FILE` (refit and thresholds without recalling).",
    )
    parser.add_argument(
        "--rerank",
        choices=["none", "llm"],
        default="none",
        help="llm: add the variant `rerank` (defaults + the LLM rerank stage); needs an LLM.",
    )
    parser.add_argument(
        "--rerank-candidates", type=int, default=20, help="Candidates the LLM orders (1..50)."
    )
    parser.add_argument(
        "--budget-ms",
        type=int,
        default=10_000,
        help="In-process RECALL__BUDGET_MS (the LLM call of --rerank llm must fit in it; "
        "without it, a loaded machine must not degrade recalls).",
    )
    parser.add_argument(
        "--cv",
        action="store_true",
        help="Also cross-validate the choice among the variants run: leave one conversation "
        "out (choose on four by non-adversarial recall@10, score the fifth, five times).",
    )
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="Also fit the relevance model on every question's 50 best candidates and "
        "cross-validate it (leave one conversation out; scripts/relevance_fit.py).",
    )
    parser.add_argument(
        "--write-doc", action="store_true", help="Write the tables into docs/EVAL.md."
    )
    args = parser.parse_args()
    if args.base_url and args.data_dir:
        parser.error("--data-dir applies to the in-process server only")
    if args.data_dir:
        args.data_dir = Path(args.data_dir).resolve()
        args.data_dir.mkdir(parents=True, exist_ok=True)

    report = asyncio.run(run(args))
    names = {v: VARIANTS[v][0] for v in args.variants.split(",") if v}
    if args.rerank == "llm":
        names = {"defaults": VARIANTS["defaults"][0], **names}
        names["rerank"] = f"defaults + LLM rerank of the best {args.rerank_candidates}"
    names |= {name: name for name in parse_extra(args.extra)}
    if any(report.degraded.values()):
        print(f"degraded answers per variant: {dict(report.degraded)}", file=sys.stderr)
    chosen: list[tuple[str, str, float]] = []
    if args.cv:
        chosen = cross_validate(report, [v for v in names if v in report.cells])
        names["cv"] = "cross-validated choice (leave one conversation out)"
    print()
    print(summary(report, names))
    print()
    print(table(report, names))
    if chosen:
        print()
        print(cv_summary(report, chosen, names))
    if report.calibration is not None:
        from relevance_fit import report as relevance_report

        if args.calibration_json:
            Path(args.calibration_json).write_text(
                json.dumps(dataclasses.asdict(report.calibration)), encoding="utf-8"
            )

        from app.services.recall.relevance import NOTHING_RELEVANT_BELOW

        table_, coef = relevance_report(report.calibration, NOTHING_RELEVANT_BELOW)
        print()
        print(table_)
        print(
            f"coefficients fitted on all conversations (b0, cosine, coverage, mismatch, "
            f"context_cosine): {coef}"
        )
    if report.rerank:
        print()
        print(rerank_summary(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report.per_question), encoding="utf-8")
    if args.write_doc:
        command = (
            "python "
            + " ".join([os.path.relpath(__file__, ROOT), *sys.argv[1:]]).replace(" --write-doc", "")
            + " --write-doc"
        )
        marker = "eval_locomo_rerank" if args.rerank == "llm" else "eval_locomo"
        write_doc(ROOT / "docs" / "EVAL.md", report, names, command, marker)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
