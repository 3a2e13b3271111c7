"""Dump what the ranking of every LoCoMo dev question starts from, for offline replicas of the
scoring (``scripts/recall_offline.py``): per question the candidates statement's rows (the
raw signals ``app.services.recall.scoring.rank`` takes), the query's time window and *when*
flag, the query embedding, and per unit its ``raw_ref``, text and value embedding.

    flock /work/cpu.lock .venv/bin/python scripts/recall_replica.py --data-dir DIR --out FILE

Runs the in-process app of ``scripts/eval_locomo.py`` on its ``--data-dir`` (the ingest is
reused when the folder holds one) and recalls each question once with the shipped defaults,
catching the ranking's inputs; the replica then calls the service's own ``rank`` on them.
"""

from __future__ import annotations

import argparse
import asyncio
import pickle
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


async def run(args: argparse.Namespace) -> None:
    import eval_locomo as ev
    import numpy as np
    from sqlalchemy import text

    from app.services.recall import service as svc

    caught: dict[str, Any] = {}
    original = svc.RecallService._rank

    async def spy(
        self: Any,
        namespace: str,
        req: Any,
        found: Any,
        result: Any,
        deadline: float,
        now: Any,
        wall_now: Any,
        clock: Any,
        plan: Any,
    ) -> Any:
        hint = plan.time_hint
        caught["last"] = {
            "scores": list(found.scores),
            "window": (hint.start, hint.end) if hint is not None else None,
            "asks_when": plan.asks_when,
            "embedding": None if plan.embedding is None else np.asarray(plan.embedding),
            "now": now,
            "known": list(plan.known),
        }
        return await original(
            self, namespace, req, found, result, deadline, now, wall_now, clock, plan
        )

    svc.RecallService._rank = spy  # type: ignore[method-assign]
    turns, questions = ev.read_dataset(Path(args.dataset), args.conversations)
    data_dir = args.data_dir
    out: dict[str, Any] = {"questions": [], "units": {}}
    async with ev.in_process_app(data_dir, recall={"budget_ms": 60_000}) as (app, client):
        marker = data_dir / "ingested.json"
        if not marker.exists():
            start = time.perf_counter()
            await ev.ingest(client, turns, "")
            marker.write_text(f'{{"turns": {len(turns)}, "prefix": ""}}')
            print(f"ingest {time.perf_counter() - start:.0f} s", file=sys.stderr)
        for q in ev.tqdm(questions, desc="dump", unit="query"):
            answer = await ev.recall_question(
                client, q, q["conversation_id"], 10, wait_s=120, record_access=False
            )
            rec = dict(caught.pop("last"))
            rec.update(
                question_id=q["question_id"],
                conversation=q["conversation_id"],
                category=q["category_name"],
                question=q["question"],
                evidence=list(q["evidence"]),
                service_top10=[m["raw_ref"] for m in answer["memories"]],
            )
            out["questions"].append(rec)
        engine = app.state.engine
        async with engine.connect() as conn:
            rows = await conn.execute(
                text(
                    "SELECT id, user_id, raw_ref, value, value_embedding::text "
                    "FROM memory_units WHERE status = 'active'"
                )
            )
            for uid, user, refs, value, emb in rows:
                out["units"][uid] = {
                    "user": user,
                    "refs": list(refs),
                    "value": value,
                    "emb": np.array([float(x) for x in emb.strip("[]").split(",")], np.float32),
                }
    await asyncio.to_thread(Path(args.out).write_bytes, pickle.dumps(out))
    print(f"{len(out['questions'])} questions, {len(out['units'])} units -> {args.out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--dataset", default=str(ROOT / ".." / "shared" / "datasets" / "locomo-dev")
    )
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--conversations")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    args.data_dir = Path(args.data_dir).resolve()
    args.data_dir.mkdir(parents=True, exist_ok=True)
    asyncio.run(run(args))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "scripts"))
    main()
