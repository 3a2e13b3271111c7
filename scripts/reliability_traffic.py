"""Client traffic for the reliability runs (scripts/reliability.py): N concurrent clients over
real HTTP, each looping over a mix of operations, every answer recorded with its timing,
status and problem+json shape, and what each 2xx wrote (to read it back afterwards)."""

from __future__ import annotations

import asyncio
import itertools
import statistics
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from benchkit.timing import pct

PROBLEM_JSON = "application/problem+json"
WORDS = "amber basil cedar dune ember fjord garnet harbor indigo juniper kestrel lagoon".split()


@dataclass
class Answer:
    """One request and what came back (status 0: no HTTP answer at all)."""

    op: str
    client: int
    start: float
    end: float
    status: int
    problem: bool = False
    code: str | None = None
    retry_after: str | None = None
    wrote: list[Any] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


Request = tuple[
    str, str, dict[str, Any] | None, dict[str, Any] | None
]  # method, path, json, params
Op = Callable[[int, int], Request]


def _fact(client: int, i: int) -> str:
    word = WORDS[(client + i) % len(WORDS)]
    return f"Client {client} noted fact {i}: the {word} crate number {client * 100000 + i} ships"


def store(tag: str, client: int, i: int) -> Request:
    body = {"memories": [{"user_id": f"{tag}-u{client}", "value": _fact(client, i)}]}
    return "POST", "/store", body, None


def recall(tag: str, client: int, i: int) -> Request:
    body = {"query": f"which crate ships for client {client}?", "user_id": f"{tag}-u{client}"}
    return "POST", "/recall", body, None


def session_of(tag: str, client: int) -> str:
    """The working-memory session of one client."""
    return f"{tag}-s{client}"


def wm_append(tag: str, client: int, i: int) -> Request:
    body = {"messages": [{"role": "user", "content": f"turn {i}: {_fact(client, i)}"}]}
    return "POST", f"/working_memory/{session_of(tag, client)}/messages", body, None


def wm_read(tag: str, client: int, i: int) -> Request:
    return "GET", f"/working_memory/{session_of(tag, client)}", None, {"query": "which crate?"}


def extract(tag: str, client: int, i: int) -> Request:
    text = f"I'm allergic to peanuts and I live in city {client}-{i}. Thanks, that works."
    body = {"user_id": f"{tag}-x{client}", "messages": [{"role": "user", "content": text}]}
    return "POST", "/extract", body, None


OPS: dict[str, Op] = {
    "store": store,
    "recall": recall,
    "wm_append": wm_append,
    "wm_read": wm_read,
    "extract": extract,
}


def _wrote(op: str, body: Any) -> list[Any]:
    """What a 2xx answer says was written, to read back later."""
    if op == "store":
        return [r["id"] for r in body["results"]]
    if op == "wm_append":
        return list(body["seqs"])
    if op == "extract":
        return [body["id"]]
    return []


class Traffic:
    """``clients`` concurrent loops over ``ops`` (round robin per client) against
    ``base_url`` until ``duration_s`` pass; :meth:`run` returns every answer."""

    def __init__(
        self,
        base_url: str,
        clients: int,
        ops: list[str],
        *,
        headers: dict[str, str] | None = None,
        timeout_s: float = 30.0,
        tag: str | None = None,
    ) -> None:
        self.base_url = base_url
        self.clients = clients
        self.ops = ops
        self.headers = headers or {}
        self.timeout_s = timeout_s
        self.tag = tag or f"rel{uuid.uuid4().hex[:6]}"
        self.answers: list[Answer] = []

    async def _client(self, http: httpx.AsyncClient, client: int, deadline: float) -> None:
        for i in itertools.count():
            if time.monotonic() >= deadline:
                return
            op = self.ops[(client + i) % len(self.ops)]
            method, path, body, params = OPS[op](self.tag, client, i)
            start = time.monotonic()
            try:
                r = await http.request(method, path, json=body, params=params)
            except httpx.HTTPError:
                self.answers.append(Answer(op, client, start, time.monotonic(), 0))
                await asyncio.sleep(0.05)  # the server is gone: don't spin
                continue
            answer = Answer(op, client, start, time.monotonic(), r.status_code)
            if r.headers.get("content-type", "").startswith(PROBLEM_JSON):
                answer.problem = True
                answer.code = r.json().get("code")
                answer.retry_after = r.headers.get("retry-after")
            elif answer.ok:
                answer.wrote = _wrote(op, r.json())
            self.answers.append(answer)

    async def run(self, duration_s: float) -> list[Answer]:
        deadline = time.monotonic() + duration_s
        limits = httpx.Limits(max_connections=self.clients, max_keepalive_connections=self.clients)
        async with httpx.AsyncClient(
            base_url=self.base_url, headers=self.headers, timeout=self.timeout_s, limits=limits
        ) as http:
            await asyncio.gather(*(self._client(http, c, deadline) for c in range(self.clients)))
        return self.answers


def latency_ms(answers: list[Answer]) -> dict[str, dict[str, float]]:
    """p50/p95/p99 (ms) and counts per operation."""
    by_op: dict[str, list[float]] = defaultdict(list)
    for a in answers:
        by_op[a.op].append((a.end - a.start) * 1000)
    return {
        op: {
            "n": len(v),
            "p50": pct(v, 0.5),
            "p95": pct(v, 0.95),
            "p99": pct(v, 0.99),
            "mean": statistics.fmean(v),
        }
        for op, v in sorted(by_op.items())
    }


def statuses(answers: list[Answer]) -> Counter[int]:
    return Counter(a.status for a in answers)


def describe(answers: list[Answer]) -> str:
    """``"812 × 200, 40 × 503"`` (status 0 is "no answer")."""
    parts = []
    for status, n in sorted(statuses(answers).items()):
        parts.append(f"{n} × {'no answer' if status == 0 else status}")
    return ", ".join(parts) or "none"


def proper_503(answer: Answer) -> bool:
    """A 503 as the service promises it: problem+json, code datastore_unavailable, and a
    Retry-After header."""
    return (
        answer.status == 503
        and answer.problem
        and answer.code == "datastore_unavailable"
        and bool(answer.retry_after)
    )


@dataclass
class Row:
    """One line of the table in docs/RELIABILITY.md; ``passed`` says whether every promise
    held (``failures`` says which did not)."""

    fault: str
    clients_saw: str = ""
    recovery: str = ""
    writes_lost: str = ""
    failures: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return not self.failures
