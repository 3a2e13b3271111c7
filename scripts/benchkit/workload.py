"""The workload of ``scripts/bench_recall.py`` over HTTP: request bodies (LoCoMo questions for
``/recall``, new two-turn facts for ``/store``), a driver that keeps N requests in flight and
times each one, and the runs at one size (recall at concurrency 1 and 8, filtered recall,
store); the figures land in :class:`Results`, which :mod:`benchkit.recall_report` renders."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import numpy as np

from benchkit.bulkload import BulkLoader
from benchkit.recall_corpus import SUBJECT, TOP_K, TYPE_SHARES, Corpus
from benchkit.timing import pct


@dataclass
class Run:
    """Latencies (ms) of one run and its wall time (s)."""

    client_ms: list[float] = field(default_factory=list)
    server_ms: list[float] = field(default_factory=list)
    degraded: int = 0
    wall_s: float = 0.0
    items: int = 0
    bodies: list[dict[str, Any]] = field(default_factory=list)
    load: float = 0.0
    stages: list[dict[str, float]] = field(default_factory=list)

    def stage_medians(self) -> dict[str, float]:
        """Median ms per stage of the server's ``stages_ms`` (recall answers only)."""
        names = sorted({k for s in self.stages for k in s})
        return {k: round(float(np.median([s.get(k, 0.0) for s in self.stages])), 1) for k in names}

    def pct(self, q: float, server: bool = False) -> float:
        """The ``q``-th percentile (0-100) of the client's (or the server's) ms, by
        :func:`benchkit.timing.pct`'s rule."""
        return pct(self.server_ms if server else self.client_ms, q / 100)


async def drive(
    client: httpx.AsyncClient,
    path: str,
    bodies: list[dict[str, Any]],
    concurrency: int,
    keep: bool = False,
) -> Run:
    """Send ``bodies`` with ``concurrency`` requests in flight; every answer must be 200.
    ``Run.items``: the units the bodies carry (``memories``), or one per request."""
    run = Run(load=os.getloadavg()[0])
    it = iter(bodies)

    async def worker() -> None:
        for body in it:
            t0 = time.perf_counter()
            resp = await client.post(path, json=body)
            dt = (time.perf_counter() - t0) * 1000.0
            if resp.status_code != 200:
                raise SystemExit(f"{path} answered {resp.status_code}: {resp.text[:500]}")
            data = resp.json()
            run.client_ms.append(dt)
            if "took_ms" in data:
                run.server_ms.append(float(data["took_ms"]))
            if isinstance(data.get("stages_ms"), dict):
                run.stages.append(data["stages_ms"])
            run.degraded += bool(data.get("degraded"))
            if keep:
                run.bodies.append({"request": body, "response": data})

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    run.wall_s = time.perf_counter() - start
    run.items = sum(len(b.get("memories", [b])) for b in bodies)
    return run


def recall_bodies(corpus: Corpus, n: int, seed: int, **extra: Any) -> list[dict[str, Any]]:
    """``n`` recall requests with LoCoMo questions (sampled with a fixed seed)."""
    rnd = random.Random(seed)
    picks = rnd.sample(corpus.questions, k=min(n, len(corpus.questions)))
    out = []
    for question, speakers in picks:
        body = {"query": question, "user_id": SUBJECT, "top_k": TOP_K}
        for key, value in extra.items():
            body[key] = value(speakers) if callable(value) else value
        out.append(body)
    return out


class StoreBodies:
    """New units for ``/store``: two turns of different conversations joined
    ("Speaker: text of one. Text of another."), so each is a new fact — near enough to
    existing units for dedupe and the conflict check to examine them, not a restatement —
    with the first turn's previous turn as trigger scenario and its speaker as entity."""

    def __init__(self, corpus: Corpus, now: datetime) -> None:
        self.corpus = corpus
        self.now = now
        self.rnd = random.Random(time.time_ns())  # new facts on every run, even on a kept database

    def fitted(self, size: int) -> dict[str, Any]:
        """:meth:`batch` cut to what one ``/store`` takes: at most ``size`` units and
        ``LIMITS__REQUEST_TOKENS`` model tokens (:func:`benchkit.batches.store_batches`)."""
        from benchkit.batches import store_batches

        return {"memories": next(store_batches(self.batch(size)["memories"], max_units=size))}

    def batch(self, size: int) -> dict[str, Any]:
        turns = self.corpus.turns
        memories = []
        for _ in range(size):
            i, j = self.rnd.randrange(len(turns)), self.rnd.randrange(len(turns))
            while turns[j].conversation == turns[i].conversation:
                j = self.rnd.randrange(len(turns))
            t = turns[i]
            unit: dict[str, Any] = {
                "user_id": SUBJECT,
                "session_id": f"store:{t.conversation}:{t.session}",
                "type": self.rnd.choice(list(TYPE_SHARES)),
                "value": f"{self.corpus.value(i, 0)} {turns[j].text}",
                "entities": [t.speaker],
                "source": "extraction",
                "confidence": 0.9,
                "occurred_at": (self.now - timedelta(hours=self.rnd.uniform(0, 72))).isoformat(),
                "raw_ref": [t.dia_id, turns[j].dia_id],
            }
            if t.prev >= 0:
                unit["query"] = self.corpus.value(t.prev, 0)
            memories.append(unit)
        return {"memories": memories}


@dataclass
class Results:
    """Everything measured, per size."""

    recall: dict[tuple[int, int], list[Run]] = field(default_factory=lambda: defaultdict(list))
    filtered: dict[tuple[int, str], tuple[Run, int, int, int]] = field(default_factory=dict)
    store: dict[tuple[int, int, int], list[Run]] = field(default_factory=lambda: defaultdict(list))
    store_outcomes: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    profiles: dict[int, dict[str, Any]] = field(default_factory=dict)
    load_timing: dict[int, dict[str, float]] = field(default_factory=dict)
    actual_units: dict[int, int] = field(default_factory=dict)
    table_units: dict[int, int] = field(default_factory=dict)  # all subjects, per size


def _filters(now: datetime) -> dict[str, tuple[dict[str, Any], Callable[[dict[str, Any]], bool]]]:
    """Filter variants: request fields and a check that a hit satisfies them."""
    month = now - timedelta(days=30)

    def in_month(h: dict[str, Any]) -> bool:
        return datetime.fromisoformat(h["occurred_at"]) >= month

    return {
        "types=[constraint]": ({"types": ["constraint"]}, lambda h: h["type"] == "constraint"),
        "entities=[speaker]": (
            {"entities": lambda sp: [sp[0]]},
            lambda h: bool(h["entities"]),
        ),
        "time_range=last_30_days": ({"time_range": "last_30_days"}, in_month),
        "all three (types fact/event/constraint)": (
            {
                "types": ["fact", "event", "constraint"],
                "entities": lambda sp: [sp[0]],
                "time_range": "last_30_days",
            },
            lambda h: h["type"] in ("fact", "event", "constraint") and in_month(h),
        ),
    }


@dataclass
class Bench:
    """What every measurement of one run shares: the options, the service's URL (None: the
    in-process profile only), the corpus, the COPY loader, the results and the store bodies."""

    args: argparse.Namespace
    base: str | None
    corpus: Corpus
    loader: BulkLoader
    res: Results
    stores: StoreBodies


async def http_runs(b: Bench, base: str, size: int) -> None:
    """The HTTP measurements at one size, against ``base``: recall, filtered recall, store."""
    args, corpus, loader, res, stores = b.args, b.corpus, b.loader, b.res, b.stores
    limits = httpx.Limits(max_connections=16, max_keepalive_connections=16)
    headers = {"Authorization": f"Bearer {args.api_key}"} if args.api_key else None
    async with httpx.AsyncClient(
        base_url=base, timeout=600.0, limits=limits, headers=headers
    ) as client:
        await drive(client, "/recall", recall_bodies(corpus, 20, seed=1), 1)  # warm-up
        for rep in range(args.repeats):
            for conc, n in ((1, args.requests), (8, args.requests * 2)):
                run = await drive(
                    client, "/recall", recall_bodies(corpus, n, seed=rep * 10 + conc), conc
                )
                res.recall[(size, conc)].append(run)
                print(
                    f"recall c{conc} rep{rep}: p50 {run.pct(50):.1f} p95 {run.pct(95):.1f} "
                    f"p99 {run.pct(99):.1f} ms; took_ms p50 {run.pct(50, True):.1f} "
                    f"p95 {run.pct(95, True):.1f}; {n / run.wall_s:.1f} req/s; "
                    f"{run.degraded} degraded (load {run.load:.1f}); "
                    f"stages p50 {json.dumps(run.stage_medians())}",
                    flush=True,
                )

        now = datetime.now(UTC)
        for name, (extra, check) in _filters(now).items():
            bodies = recall_bodies(corpus, args.filtered_requests, seed=5, **extra)
            run = await drive(client, "/recall", bodies, 1, keep=True)
            short = bad = 0
            for item in run.bodies:
                hits = item["response"]["memories"]
                ents = {e.casefold() for e in item["request"].get("entities", [])}
                if len(hits) != TOP_K:
                    short += 1
                for h in hits:
                    ok = check(h) and (not ents or ents & {e.casefold() for e in h["entities"]})
                    bad += 0 if ok else 1
            matching = await _matching(loader, extra, corpus, now)
            res.filtered[(size, name)] = (run, short, bad, matching)
            print(
                f"filtered {name}: p50 {run.pct(50):.1f} p95 {run.pct(95):.1f} ms; "
                f"{len(run.bodies) - short}/{len(run.bodies)} answers with top_k hits, "
                f"{bad} hits outside the filter; ~{matching} matching",
                flush=True,
            )
            run.bodies.clear()

        for rep in range(args.repeats if args.store else 0):
            for batch, conc, n in (
                (1, 1, args.store_requests),
                (1, 8, args.store_requests * 2),
                (100, 1, args.store_batches),
            ):
                bodies = [stores.fitted(batch) for _ in range(n)]
                run = await drive(client, "/store", bodies, conc, keep=True)
                for item in run.bodies:
                    for r in item["response"]["results"]:
                        res.store_outcomes[r["outcome"]] += 1
                run.bodies.clear()
                res.store[(size, batch, conc)].append(run)
                print(
                    f"store batch {batch} c{conc} rep{rep}: p50 {run.pct(50):.1f} "
                    f"p95 {run.pct(95):.1f} ms; {run.items / run.wall_s:.1f} units/s "
                    f"(load {run.load:.1f})",
                    flush=True,
                )


async def _matching(
    loader: BulkLoader, extra: dict[str, Any], corpus: Corpus, now: datetime
) -> int:
    """Roughly how many units of the subject match a filter variant (first question's
    speaker for the entity filter)."""
    sql = "SELECT count(*) FROM memory_units WHERE user_id = $1 AND status = 'active'"
    args: list[Any] = [SUBJECT]
    if "types" in extra:
        args.append(extra["types"])
        sql += f" AND type = ANY(${len(args)}::text[])"
    if "entities" in extra:
        args.append([corpus.questions[0][1][0].casefold()])
        sql += f" AND entity_keys && ${len(args)}::text[]"
    if "time_range" in extra:
        args.append(now - timedelta(days=30))
        sql += f" AND occurred_at >= ${len(args)}"
    return int(await loader.scalar(sql, *args))
