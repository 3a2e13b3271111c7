"""Evidence recall on LoCoMo dev when memory comes from hindsight extraction, against storing
every turn directly (``scripts/eval_locomo.py``), both measured in the same run.

    .venv/bin/python scripts/eval_locomo_extraction.py [--conversations conv-26] [--write-doc]

One in-process server on a fresh embedded PostgreSQL holds two copies of each conversation:

- **direct**: every turn stored with ``/store`` as in ``eval_locomo.py`` (subject
  ``direct:<conversation>``);
- **extracted**: every session closed through ``POST /extract?wait=true`` as a group chat —
  each turn a ``user`` message with the speaker as ``name`` (a shared photo's caption
  appended as ``[shares a photo: …]``), ``created_at`` and ``now`` = the session's time,
  ``session_id`` = the conversation's session, subject ``extracted:<conversation>``. The
  extractor is the service's: the offline rules, or the LLM when ``LLM__BASE_URL`` /
  ``LLM__MODEL`` are set in the environment.

Every question is recalled from both (``top_k`` 10, ``now`` = ``asked_after_iso``, shipped
defaults) and scored like ``eval_locomo.py``; a unit's ``raw_ref`` (``job:<id>#<index>``)
maps back to the turns' ``dia_id``. Also printed: units per turn, turns no unit cites
(filler dropped), units whose ``occurred_at`` is a resolved date rather than the session's,
extraction time per 1,000 turns (end to end and the extractor alone) against ``/store``'s in
the same run, the outcomes of the write path, and which kind of unit supplies the evidence.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import time
from collections import Counter, defaultdict
from dataclasses import asdict
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import httpx
from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))

from benchkit import docsection, topk_duplicates  # noqa: E402
from eval_locomo import (  # noqa: E402
    ADVERSARIAL,
    CATEGORIES,
    DEFAULT_DATASET,
    TOP_K,
    Report,
    in_process_client,
    ingest,
    read_dataset,
)

from app.core.config import Settings  # noqa: E402

DIRECT, EXTRACTED = "direct", "extracted"
LABELS = {DIRECT: "turns stored directly (/store)", EXTRACTED: "offline extraction (/extract)"}


def sessions_of(turns: list[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Turns grouped by (conversation, session), in order."""
    out: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for t in sorted(turns, key=lambda t: (t["conversation_id"], t["order"])):
        out[(t["conversation_id"], t["session_id"])].append(t)
    return out


def text_of(turn: dict[str, Any]) -> str:
    caption = turn.get("image_caption")
    return turn["text"] + (f" [shares a photo: {caption}]" if caption else "")


def transcript(session: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The session as a group chat: every speaker a named ``user``."""
    return [
        {"role": "user", "name": t["speaker"], "content": text_of(t),
         "created_at": t["session_datetime_iso"] + "Z"}
        for t in session
    ]  # fmt: skip


async def extract_all(
    client: httpx.AsyncClient,
    turns: list[dict[str, Any]],
    refs: dict[str, str],
    days: dict[str, date],
) -> Counter[str]:
    """Extract every session; fills ``refs`` (``job:<id>#<i>`` → dia_id) and ``days`` (→ the
    session's day) and returns the count of each unit outcome."""
    outcomes: Counter[str] = Counter()
    sessions = sessions_of(turns)
    for (conv, sid), session in tqdm(sessions.items(), desc="extract", unit="session"):
        subject = f"{EXTRACTED}:{conv}"
        body = {"user_id": subject, "session_id": f"{subject}:{sid}",
                "messages": transcript(session),
                "now": session[-1]["session_datetime_iso"] + "Z"}  # fmt: skip
        r = await client.post("/extract?wait=true", json=body, timeout=600)
        if r.status_code != 200:
            raise SystemExit(f"/extract failed: {r.status_code} {r.text[:500]}")
        job = r.json()
        if job["status"] != "succeeded":
            raise SystemExit(f"job {job['id']} {job['status']}: {job['error']}")
        for i, t in enumerate(session):
            refs[f"job:{job['id']}#{i}"] = t["dia_id"]
            days[f"job:{job['id']}#{i}"] = date.fromisoformat(t["session_datetime_iso"][:10])
        outcomes.update(u["outcome"] for u in job["units"])
    return outcomes


async def extractor_alone_s(turns: list[dict[str, Any]]) -> float:
    """Seconds the offline extractor itself takes over every session (no storage)."""
    from app.services.extraction.offline import OfflineExtractor
    from app.services.extraction.units import ExtractionContext, Turn

    extractor = OfflineExtractor()
    start = time.perf_counter()
    for (conv, _), session in sessions_of(turns).items():
        at = datetime.fromisoformat(session[-1]["session_datetime_iso"]).replace(tzinfo=UTC)
        items = [
            Turn(index=i, role="user", content=text_of(t), name=t["speaker"], created_at=at)
            for i, t in enumerate(session)
        ]
        await extractor.extract(items, ExtractionContext(conv, at))
    return time.perf_counter() - start


async def all_units(client: httpx.AsyncClient, subject: str) -> list[dict[str, Any]]:
    """Every active unit of ``subject`` (GET /memories, paged)."""
    units: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        params: dict[str, Any] = {"user_id": subject, "limit": 200, "order": "asc"}
        if cursor:
            params["cursor"] = cursor
        page = (await client.get("/memories", params=params)).json()
        units += page["memories"]
        cursor = page["next_cursor"]
        if not cursor:
            return units


def kind_of(unit: dict[str, Any]) -> str:
    if unit["type"] != "event":
        return unit["type"]
    return "event with trigger" if unit.get("query") else "event"


async def evaluate(
    client: httpx.AsyncClient,
    questions: list[dict[str, Any]],
    refs: dict[str, str],
    report: Report,
    evidence_kinds: Counter[str],
    answers: dict[str, list[list[dict[str, Any]]]] | None = None,
) -> None:
    """Recall every question from both copies and score them; ``answers`` collects each
    copy's answers."""
    for q in tqdm(questions, desc="recall", unit="query"):
        for variant in (DIRECT, EXTRACTED):
            body = {"query": q["question"], "user_id": f"{variant}:{q['conversation_id']}",
                    "top_k": TOP_K, "now": q["asked_after_iso"] + "Z"}  # fmt: skip
            r = await client.post("/recall", json=body, timeout=60)
            if r.status_code != 200:
                raise SystemExit(f"/recall failed: {r.status_code} {r.text[:500]}")
            hits = r.json()["memories"]
            if answers is not None:
                answers.setdefault(variant, []).append(hits)
            report.recall_ms[variant].append(float(r.json()["took_ms"]))
            ranked = [[refs.get(x, x) for x in h["raw_ref"]] for h in hits]
            if not q["evidence"]:
                continue
            report.cell(variant, q["category_name"]).add(ranked, set(q["evidence"]))
            if variant == EXTRACTED and q["category_name"] != ADVERSARIAL:
                first = next((h for h, rr in zip(hits, ranked, strict=True)
                              if set(rr) & set(q["evidence"])), None)  # fmt: skip
                evidence_kinds[kind_of(first) if first else "no evidence in the top 10"] += 1


def dated(units: list[dict[str, Any]], days: dict[str, date]) -> int:
    """Units whose occurred_at is a resolved date, not their session's day."""
    count = 0
    for u in units:
        own = {days[r] for r in u["raw_ref"] if r in days}
        if own and datetime.fromisoformat(u["occurred_at"]).date() not in own:
            count += 1
    return count


def render(stats: dict[str, Any], report: Report) -> str:
    """The Markdown figures of one run."""
    d, e = report.overall(DIRECT), report.overall(EXTRACTED)
    ratio = (e.r10 / e.n) / (d.r10 / d.n) if d.n and d.r10 else 0.0
    n = stats["turns"]
    dup = stats["top_duplicates"]
    lines = [
        "| | recall@5 | recall@10 | any-hit@10 | MRR | adversarial recall@10 | units | "
        "units per turn |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for variant, units in ((DIRECT, stats["direct_units"]), (EXTRACTED, stats["units"])):
        s = report.overall(variant)
        adv = report.cell(variant, ADVERSARIAL).row()[1]
        lines.append(f"| {LABELS[variant]} | " + " | ".join(s.row())
                     + f" | {adv} | {units:,} | {units / n:.2f} |")  # fmt: skip
    lines += [
        "",
        f"Extraction / direct recall@10: **{ratio:.2f}**. Turns: {n:,}; units by type: "
        + ", ".join(f"{k} {v}" for k, v in sorted(stats["types"].items()))
        + ". Write-path outcomes: "
        + ", ".join(f"{k} {v}" for k, v in sorted(stats["outcomes"].items()))
        + ".",
        "",
        f"- turns that became no unit of their own (filler, reactions, questions): "
        f"{n - stats['own']:,} of {n:,} ({(n - stats['own']) / n:.1%}); of these, "
        f"{stats['cited'] - stats['own']:,} questions live on as the trigger scenario of their "
        f"answer, {n - stats['cited']:,} turns no unit cites;",
        f"- units dated by a resolved phrase (occurred_at ≠ the session's day): "
        f"{stats['dated']:,};",
        f"- time per 1,000 turns: /extract {stats['extract_s'] * 1000 / n:.1f} s end to end "
        f"(embedding and the write path included), the offline extractor alone "
        f"{stats['extractor_s'] * 1000 / n:.2f} s; anchor, /store of the turns in the same "
        f"run: {stats['direct_s'] * 1000 / n:.1f} s;",
        "- the unit that supplies the evidence (the best-ranked hit holding an evidence turn, "
        "non-adversarial questions): "
        + ", ".join(f"{k} {v}" for k, v in stats["evidence_kinds"].most_common())
        + ";",
        f"- duplicates left in the top {TOP_K} (pairs of hits the pair decision merges either "
        f"way, at their value cosine; `scripts/benchkit/topk_duplicates.py`): "
        + "; ".join(
            f"{LABELS[v]} {x['pairs']} pairs in {x['with_pair']} of {x['answers']} answers "
            f"({x['folded_hits']} hits list units folded into them, `duplicates`)"
            for v, x in sorted(dup.items())
        )
        + ".",
        "",
        "| category | n | direct recall@10 | extracted recall@5 | extracted recall@10 | "
        "any-hit@10 | MRR |",
        "|---|---|---|---|---|---|---|",
    ]
    for cat in [*CATEGORIES, ADVERSARIAL]:
        s = report.cell(EXTRACTED, cat)
        r5, r10, hit, mrr = s.row()
        lines.append(f"| {cat} | {s.n} | {report.cell(DIRECT, cat).row()[1]} | {r5} | {r10} "
                     f"| {hit} | {mrr} |")  # fmt: skip
    return "\n".join(lines)


async def run(args: argparse.Namespace) -> tuple[dict[str, Any], Report]:
    turns, questions = read_dataset(Path(args.dataset), args.conversations)
    refs: dict[str, str] = {}
    days: dict[str, date] = {}
    report = Report()
    evidence_kinds: Counter[str] = Counter()
    stats: dict[str, Any] = {"turns": len(turns), "load_start": os.getloadavg()}
    stats["extractor_s"] = await extractor_alone_s(turns)
    async with in_process_client(None) as client:
        start = time.perf_counter()
        await ingest(client, turns, f"{DIRECT}:")
        stats["direct_s"] = time.perf_counter() - start
        start = time.perf_counter()
        stats["outcomes"] = await extract_all(client, turns, refs, days)
        stats["extract_s"] = time.perf_counter() - start
        answers: dict[str, list[list[dict[str, Any]]]] = {}
        await evaluate(client, questions, refs, report, evidence_kinds, answers)
        units: list[dict[str, Any]] = []
        direct_units = 0
        for conv in sorted({t["conversation_id"] for t in turns}):
            units += await all_units(client, f"{EXTRACTED}:{conv}")
            direct_units += len(await all_units(client, f"{DIRECT}:{conv}"))
    stats["top_duplicates"] = {
        v: asdict(await topk_duplicates.count(a, Settings())) for v, a in answers.items()
    }
    stats["cited"] = len({r for u in units for r in u["raw_ref"] if r in refs})
    # A unit's own turn is its last source (an answer cites the question before it first).
    stats["own"] = len({u["raw_ref"][-1] for u in units if u["raw_ref"]})
    stats["dated"] = dated(units, days)
    stats |= {"units": len(units), "direct_units": direct_units, "evidence_kinds": evidence_kinds,
              "types": Counter(u["type"] for u in units)}  # fmt: skip
    return stats, report


def write_doc(path: Path, body: str, command: str, load_start: tuple[float, ...]) -> None:
    """Replace the generated section of docs/EXTRACTION.md (between the markers)."""
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"

    def load(avg: tuple[float, ...]) -> str:
        return " / ".join(f"{x:.2f}" for x in avg)

    section = "\n".join([f"Date: {date.today().isoformat()}. Machine: {machine}. Load "
                         f"average (1/5/15 min) at the start {load(load_start)}, at the end "
                         f"{load(os.getloadavg())}: timings are only comparable within a run.",
                         "", "```bash", command, "```", "", body])  # fmt: skip
    docsection.write_block(path, "eval_locomo_extraction", section, "## LoCoMo dev extraction")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default=str(DEFAULT_DATASET), help="LoCoMo dev folder.")
    parser.add_argument("--conversations", help="Only these conversation ids (comma list).")
    parser.add_argument("--json", help="Write the figures to this file.")
    parser.add_argument(
        "--write-doc", action="store_true", help="Write the figures into docs/EXTRACTION.md."
    )
    args = parser.parse_args()
    stats, report = asyncio.run(run(args))
    body = render(stats, report)
    print(body)
    if args.json:
        Path(args.json).write_text(json.dumps(stats, default=dict, indent=1), encoding="utf-8")
    if args.write_doc:
        argv = " ".join(a for a in sys.argv[1:] if a != "--write-doc")
        command = f"python scripts/eval_locomo_extraction.py {argv} --write-doc".replace("  ", " ")
        write_doc(ROOT / "docs" / "EXTRACTION.md", body, command, stats["load_start"])


if __name__ == "__main__":
    main()
