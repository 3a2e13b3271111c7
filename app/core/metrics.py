"""Prometheus metrics of the service (served at ``GET /metrics`` by the API, and on
``WORKER__METRICS_PORT`` by ``hindsight worker``).

Defined once per process in the default registry, so any layer may record into them
without importing the API: the request middleware (latency per route), the recall router
(degraded answers), the embedding and LLM clients (call latency). Job-queue gauges are read
from the database when ``/metrics`` is scraped, so they count the worker's jobs too.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

# Seconds. Finer than the client default below 25 ms: the recall target is p95 <= 50 ms.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)

HTTP_REQUEST_SECONDS = Histogram(
    "hindsight_http_request_duration_seconds",
    "Time to answer one HTTP request, by route template, method and status code.",
    ["method", "route", "status"],
    buckets=LATENCY_BUCKETS,
)
RECALL_DEGRADED = Counter(
    "hindsight_recall_degraded",
    "Recall answers marked degraded (the time budget cut work short).",
)
EMBEDDING_SECONDS = Histogram(
    "hindsight_embedding_duration_seconds",
    "Time of one embedding call (a batch of texts), by model and role (passage|query|"
    "background: window messages embedded after their append, waits included).",
    ["model", "role"],
    buckets=LATENCY_BUCKETS,
)
LLM_SECONDS = Histogram(
    "hindsight_llm_duration_seconds",
    "Time of one LLM chat call, by model and outcome (ok|error|cancelled: the caller's "
    "deadline passed).",
    ["model", "outcome"],
    buckets=LATENCY_BUCKETS,
)
RERANK = Counter(
    "hindsight_rerank",
    "Recalls whose second stage ran, by outcome: applied (the LLM's order), cached (a "
    "cached order, no call), timeout (the budget ran out: hybrid order), error (the LLM "
    "failed or its reply was unusable: hybrid order), skipped (under two candidates).",
    ["outcome"],
)
RERANK_SECONDS = Histogram(
    "hindsight_rerank_llm_duration_seconds",
    "Time of the rerank stage's LLM call, by outcome (applied|timeout|error).",
    ["outcome"],
    buckets=LATENCY_BUCKETS,
)
RERANK_TOKENS = Counter(
    "hindsight_rerank_tokens",
    "Tokens of rerank calls as the provider counted them, by kind (prompt|completion).",
    ["kind"],
)
JOBS = Gauge(
    "hindsight_jobs",
    "Extraction jobs by status (queued = queue depth, failed = failures kept for retry), "
    "read from the database at scrape time.",
    ["status"],
)
WORKER_JOBS = Counter(
    "hindsight_worker_jobs",
    "Job attempts the worker ended, by outcome (succeeded | retrying | failed | requeued on "
    "shutdown | skipped: another runner holds the job).",
    ["outcome"],
)
WORKER_RUNNING = Gauge("hindsight_worker_jobs_running", "Jobs the worker is running now.")
WM_EMBED_BACKLOG = Gauge(
    "hindsight_working_memory_embedding_backlog",
    "Working-memory messages this process accepted and has not embedded yet (queued or in "
    "the batch being embedded; docs/WORKING_MEMORY.md).",
)
EMBED_LIMIT = Gauge(
    "hindsight_embedding_limit",
    "The limits on embedding work, in model tokens or requests (LIMITS__*, "
    "EMBEDDING__SLICE_TOKENS): text_tokens and request_tokens per request, concurrency "
    "(requests in flight per caller), slice_tokens (one hold of the model), and "
    "token_rate_per_<N>s (tokens per caller per window of N seconds); 0 = off.",
    ["limit"],
)
EMBED_REFUSED = Counter(
    "hindsight_embedding_refused",
    "Requests refused for their embedding work, by reason: text_tokens or request_tokens "
    "(422), concurrency or token_rate (429 with Retry-After).",
    ["reason"],
)
EMBED_TOKENS = Counter(
    "hindsight_embedding_admitted_tokens",
    "Model tokens of the texts admitted for embedding, by kind (foreground: embedded in the "
    "request; background: working-memory messages, first window each).",
    ["kind"],
)
EMBED_IN_FLIGHT = Gauge(
    "hindsight_embedding_requests_in_flight",
    "Requests with embedding work in flight in this process, every caller together.",
)
