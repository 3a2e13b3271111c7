"""Pending pair reviews per 100 stores, offline: how much of the review list is noise.

    .venv/bin/python scripts/pending_reviews.py [--dataset PATH] [--checkout DIR] [--write-doc]

Two workloads, each on a fresh embedded PostgreSQL with the app in process and no LLM (so
every review the write path opens stays ``pending``):

- *profile*: the 50 unrelated facts about one person of ``tests/profile_facts.py``, stored
  one ``/store`` at a time (no two restate or contradict each other: every review is noise);
- *locomo*: the LoCoMo dev ingest as ``scripts/eval_locomo.py`` stores it (each turn one unit,
  ``Speaker: text``, batches of 100);
- *extract*: sessions 1-10 of LoCoMo dev ``conv-41`` and ``conv-43`` closed through
  ``POST /extract?wait=true`` as ``scripts/eval_locomo_extraction.py`` sends them (a group chat,
  ``now`` = the session's time), the offline extractor's units stored by the write path; a
  store is an extracted unit, the reviews are those ``GET /reviews`` lists open afterwards.

Prints reviews opened per 100 stores, the units with at least one, and the reasons.
``--checkout DIR`` measures another checkout's app (e.g. ``/work/main``) with the same
workloads; ``--write-doc`` writes the block ``pending-reviews`` of docs/DEDUPE.md (this
checkout's figures, with those of ``--checkout`` as "before" when given).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import subprocess
import sys
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "DEDUPE.md"
DEFAULT_DATASET = ROOT / ".." / "shared" / "datasets" / "locomo-dev"
WORKLOADS = ("profile", "locomo", "extract")


@dataclass
class Rate:
    """Reviews opened by one workload."""

    stores: int = 0
    reviews: int = 0
    units_with_review: int = 0
    reasons: Counter[str] = field(default_factory=Counter)

    @property
    def per_100(self) -> float:
        return 100.0 * self.reviews / self.stores if self.stores else 0.0


def _profile() -> tuple[str, ...]:
    spec = importlib.util.spec_from_file_location("profile_facts", ROOT / "tests/profile_facts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(module.PROFILE)


def _count(rate: Rate, results: list[dict[str, Any]]) -> None:
    for r in results:
        rate.stores += 1
        rate.reviews += len(r["pending"])
        rate.units_with_review += bool(r["pending"])
        rate.reasons.update(p["reason"] for p in r["pending"])


async def measure(dataset: Path, only: str | None = None) -> dict[str, Rate]:
    """The workloads (``only``: that one) on this process's ``app`` package (see
    ``--checkout``)."""
    sys.path.insert(1, str(ROOT / "scripts"))
    from eval_locomo import batches, in_process_client, read_dataset, turn_unit

    out = {w: Rate() for w in WORKLOADS if only in (None, w)}
    async with in_process_client(None) as client:
        for value in _profile() if "profile" in out else ():
            body = {"memories": [{"user_id": "dana", "value": value}]}
            r = await client.post("/store", json=body, timeout=120)
            r.raise_for_status()
            _count(out["profile"], r.json()["results"])
        turns, _ = read_dataset(dataset) if "locomo" in out else ([], [])
        turns = sorted(turns, key=lambda t: (t["conversation_id"], t["order"]))
        units = [turn_unit(t, t["conversation_id"]) for t in turns]
        for chunk in batches(units, 100):
            r = await client.post("/store", json={"memories": chunk}, timeout=600)
            r.raise_for_status()
            _count(out["locomo"], r.json()["results"])
        if "extract" in out:
            await _extract(client, dataset, out["extract"])
    return out


EXTRACT_CONVERSATIONS = ("conv-41", "conv-43")
EXTRACT_SESSIONS = 10
DUMP: list[dict[str, Any]] | None = None  # --dump: the extract workload's reviews


async def _extract(client: Any, dataset: Path, rate: Rate) -> None:
    """The *extract* workload (module docstring) into ``rate``."""
    from eval_locomo import read_dataset
    from eval_locomo_extraction import sessions_of, transcript

    turns, _ = read_dataset(dataset, ",".join(EXTRACT_CONVERSATIONS))
    turns = [t for t in turns if t["session_index"] <= EXTRACT_SESSIONS]
    for (conv, sid), session in sessions_of(turns).items():
        subject = f"extract:{conv}"
        body = {"user_id": subject, "session_id": f"{subject}:{sid}",
                "messages": transcript(session),
                "now": session[-1]["session_datetime_iso"] + "Z"}  # fmt: skip
        r = await client.post("/extract?wait=true", json=body, timeout=600)
        r.raise_for_status()
        stored = ("created", "merged", "superseded", "conflict")
        rate.stores += sum(u["outcome"] in stored for u in r.json()["units"])
    for conv in EXTRACT_CONVERSATIONS:
        units: set[str] = set()
        cursor = None
        while True:
            params: dict[str, Any] = {"user_id": f"extract:{conv}", "limit": 200}
            if cursor:
                params["cursor"] = cursor
            r = await client.get("/reviews", params=params)
            r.raise_for_status()
            page = r.json()
            for review in page["reviews"]:
                rate.reviews += 1
                rate.reasons[review["reason"]] += 1
                units.add(review["unit_id"])
                if DUMP is not None:
                    DUMP.append({k: review[k] for k in ("kind", "reason", "p_same", "cosine")}
                                | {"unit": review["unit"]["value"],
                                   "candidate": review["candidate"]["value"]})  # fmt: skip
            cursor = page["next_cursor"]
            if not cursor:
                break
        rate.units_with_review += len(units)


def _line(name: str, rate: Rate) -> str:
    reasons = ", ".join(f"{k} {v}" for k, v in rate.reasons.most_common()) or "—"
    return (
        f"| {name} | {rate.stores} | {rate.reviews} | {rate.per_100:.1f} | "
        f"{rate.units_with_review} | {reasons} |"
    )


def render(now: dict[str, Rate], before: dict[str, Rate] | None, meta: dict[str, str]) -> str:
    rows = ["| run · workload | stores | reviews opened | per 100 stores | units with one "
            "| reasons |", "|---|---|---|---|---|---|"]  # fmt: skip
    for label, rates in (("this checkout", now), (f"before ({meta.get('before', '')})", before)):
        if rates is None:
            continue
        for name, rate in rates.items():
            rows.append(_line(f"{label} · {name}", rate))
    return (
        f"Command: `.venv/bin/python scripts/pending_reviews.py {meta['args']}` — date "
        f"{meta['date']}, {meta['load']}. Offline (no LLM: every review stays pending); "
        "*profile*: `tests/profile_facts.py`, 50 unrelated facts about one person, one "
        "`/store` each; *locomo*: the LoCoMo dev ingest of `scripts/eval_locomo.py` (2,760 "
        "turns, batches of 100); *extract*: sessions 1-10 of `conv-41` and `conv-43` closed "
        "through `POST /extract?wait=true` (offline extractor), a store = an extracted unit, "
        "reviews = those `GET /reviews` lists open afterwards.\n\n" + "\n".join(rows)
    )


def _run_child(checkout: Path, dataset: Path, only: str | None) -> dict[str, Rate]:
    """This script's measurement against ``checkout``'s app, in a child process."""
    python = checkout / ".venv" / "bin" / "python"
    if not python.exists():
        python = ROOT / ".venv" / "bin" / "python"
    out = subprocess.run(
        [
            str(python),
            __file__,
            "--child",
            str(checkout),
            "--dataset",
            str(dataset),
            *(["--only", only] if only else []),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    data = json.loads(out.strip().splitlines()[-1])
    return {k: Rate(v["stores"], v["reviews"], v["units_with_review"], Counter(v["reasons"]))
            for k, v in data.items()}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default=str(DEFAULT_DATASET))
    parser.add_argument("--checkout", help="also measure this checkout (before)")
    parser.add_argument("--write-doc", action="store_true")
    parser.add_argument("--only", choices=WORKLOADS, help="measure this workload alone")
    parser.add_argument("--dump", help="write the extract workload's reviews (JSON) here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    dataset = Path(args.dataset)
    if args.child:  # measure another checkout's app package: it comes first on the path
        sys.path.insert(0, args.child)
        rates = asyncio.run(measure(dataset, args.only))
        print(json.dumps({k: {**asdict(v), "reasons": dict(v.reasons)} for k, v in rates.items()}))
        return
    sys.path.insert(0, str(ROOT))
    global DUMP
    DUMP = [] if args.dump else None
    before = _run_child(Path(args.checkout), dataset, args.only) if args.checkout else None
    now = asyncio.run(measure(dataset, args.only))
    sys.path.insert(0, str(ROOT / "scripts"))
    from benchkit import docsection, timing

    meta = {
        "args": " ".join(a for a in sys.argv[1:]),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load": timing.uptime_line(),
        "before": args.checkout or "",
    }
    if args.dump:
        Path(args.dump).write_text(json.dumps(DUMP, ensure_ascii=False, indent=1))
    body = render(now, before, meta)
    print(body)
    if args.write_doc:
        docsection.write_block(DOC, "pending-reviews", body, "## Pending reviews per 100 stores")
        print(f"wrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
