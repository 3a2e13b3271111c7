"""Evidence recall on LoCoMo dev when memory comes from hindsight extraction (not one unit
per turn as in ``scripts/eval_locomo.py``, whose scoring this reuses).

    .venv/bin/python scripts/eval_locomo_extraction.py [--conversations conv-26] [--json F]

Each session is extracted through ``POST /extract?wait=true`` twice, once with each speaker as
the ``user`` (the other as ``assistant``): subject ``user_id`` = ``<conversation>:<speaker>``,
``now`` = the session's time. The extractor is the service's: the offline rules, or the LLM
when ``LLM__BASE_URL`` / ``LLM__MODEL`` are set in the environment. A unit's ``raw_ref``
(``job:<id>#<index>``) maps back to the turns' ``dia_id``. A question is recalled (``top_k``
10, ``now`` = ``asked_after_iso``) for the speaker it names (both when it names none or
both; merged by score) and scored like ``eval_locomo.py``. Also printed: units per
conversation and the evidence ceiling (the share of evidence turns that any unit cites).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_locomo import (  # noqa: E402
    ADVERSARIAL,
    CATEGORIES,
    DEFAULT_DATASET,
    TOP_K,
    Report,
    in_process_client,
    read_jsonl,
)

VARIANT = "extraction"


def sessions_of(turns: list[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Turns grouped by (conversation, session), in order."""
    out: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for t in sorted(turns, key=lambda t: (t["conversation_id"], t["order"])):
        out[(t["conversation_id"], t["session_id"])].append(t)
    return out


def transcript(session: list[dict[str, Any]], user: str) -> list[dict[str, Any]]:
    """The session as chat messages with ``user`` speaking as the user."""
    messages = []
    for t in session:
        text = t["text"] + (
            f" [shares a photo: {t['image_caption']}]" if t.get("image_caption") else ""
        )
        role = "user" if t["speaker"] == user else "assistant"
        messages.append(
            {"role": role, "content": text, "created_at": t["session_datetime_iso"] + "Z"}
        )
    return messages


async def extract_all(
    client: httpx.AsyncClient, turns: list[dict[str, Any]], refs: dict[str, str]
) -> dict[str, int]:
    """Extract every session for each speaker; fills ``refs`` (``job:<id>#<i>`` → dia_id)
    and returns units stored per conversation."""
    units: dict[str, int] = defaultdict(int)
    sessions = sessions_of(turns)
    with tqdm(total=2 * len(sessions), desc="extract", unit="job") as bar:
        for (conv, _sid), session in sessions.items():
            for speaker in sorted({t["speaker"] for t in session}):
                body = {"user_id": f"{conv}:{speaker}", "messages": transcript(session, speaker),
                        "now": session[-1]["session_datetime_iso"] + "Z"}  # fmt: skip
                r = await client.post("/extract?wait=true", json=body, timeout=600)
                if r.status_code != 200:
                    raise SystemExit(f"/extract failed: {r.status_code} {r.text[:500]}")
                job = r.json()
                if job["status"] != "succeeded":
                    raise SystemExit(f"job {job['id']} {job['status']}: {job['error']}")
                for i, t in enumerate(session):
                    refs[f"job:{job['id']}#{i}"] = t["dia_id"]
                units[conv] += sum(1 for u in job["units"] if u["outcome"] == "created")
                bar.update(1)
    return units


def speakers_named(question: str, speakers: list[str]) -> list[str]:
    named = [s for s in speakers if s.lower() in question.lower()]
    return named if len(named) == 1 else speakers


async def evaluate(
    client: httpx.AsyncClient,
    questions: list[dict[str, Any]],
    speakers: dict[str, list[str]],
    refs: dict[str, str],
    report: Report,
) -> None:
    for q in tqdm(questions, desc="recall", unit="query"):
        hits: list[dict[str, Any]] = []
        for speaker in speakers_named(q["question"], speakers[q["conversation_id"]]):
            body = {"query": q["question"], "user_id": f"{q['conversation_id']}:{speaker}",
                    "top_k": TOP_K, "now": q["asked_after_iso"]}  # fmt: skip
            r = await client.post("/recall", json=body, timeout=60)
            if r.status_code != 200:
                raise SystemExit(f"/recall failed: {r.status_code} {r.text[:500]}")
            data = r.json()
            report.recall_ms[VARIANT].append(float(data["took_ms"]))
            hits += data["memories"]
        hits.sort(key=lambda h: h["score"], reverse=True)
        ranked = [[refs[x] for x in h["raw_ref"] if x in refs] for h in hits[:TOP_K]]
        report.per_question.append({"question_id": q["question_id"], "ranked": ranked,
                                    "evidence": q["evidence"]})  # fmt: skip
        if q["evidence"]:
            report.cell(VARIANT, q["category_name"]).add(ranked, set(q["evidence"]))


async def run(args: argparse.Namespace) -> None:
    dataset = Path(args.dataset)
    turns = read_jsonl(dataset / "turns.jsonl")
    questions = read_jsonl(dataset / "questions.jsonl")
    if args.conversations:
        keep = set(args.conversations.split(","))
        turns = [t for t in turns if t["conversation_id"] in keep]
        questions = [q for q in questions if q["conversation_id"] in keep]
    speakers: dict[str, list[str]] = defaultdict(list)
    for t in turns:
        if t["speaker"] not in speakers[t["conversation_id"]]:
            speakers[t["conversation_id"]].append(t["speaker"])
    refs: dict[str, str] = {}
    report = Report()
    async with in_process_client(None) as client:
        units = await extract_all(client, turns, refs)
        await evaluate(client, questions, speakers, refs, report)

    cited: set[str] = set()
    for record in report.per_question:
        for refs_of_hit in record["ranked"]:
            cited.update(refs_of_hit)
    evidence = {(q["conversation_id"], e) for q in questions for e in q["evidence"]}
    print(f"units created: {dict(units)} (turns: {len(turns)})")
    print("| category | n | recall@5 | recall@10 | any-hit@10 | MRR |\n|---|---|---|---|---|---|")
    for cat in [*CATEGORIES, ADVERSARIAL]:
        s = report.cell(VARIANT, cat)
        print(f"| {cat} | {s.n} | " + " | ".join(s.row()) + " |")
    s = report.overall(VARIANT)
    print(f"| non-adversarial | {s.n} | " + " | ".join(s.row()) + " |")
    print(f"evidence turns cited by some recalled unit: {len(cited)} of {len(evidence)}")
    if args.json:
        await asyncio.to_thread(Path(args.json).write_text, json.dumps(report.per_question))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default=str(DEFAULT_DATASET), help="LoCoMo dev folder.")
    parser.add_argument("--conversations", help="Only these conversation ids (comma list).")
    parser.add_argument("--json", help="Write per-question rankings to this file.")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
