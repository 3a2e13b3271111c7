"""A running service's own CPU time, read off its ``GET /metrics``: prometheus_client's
``process_cpu_seconds_total``, the user + system seconds of the API process, every thread
(the event loop, the embedding model's threads; not PostgreSQL's). Read before and after a
pass, divided by the pass's requests: CPU per request, a figure that varies far less between
runs of an A/B than a p95 (2026-12-06: 37.7 / 37.7 / 38.2 / 37.9 s for four servers of the
same request mix) and that bounds what several clients can get: on 2 cores, 4 clients
each wait at least 2 × the CPU per request on average."""

from __future__ import annotations

import httpx

CPU_METRIC = "process_cpu_seconds_total"


def parse_cpu(metrics_text: str) -> float | None:
    """The value of ``process_cpu_seconds_total`` in a Prometheus text exposition, or None
    when it has none (prometheus_client's process collector exists only on Linux)."""
    for line in metrics_text.splitlines():
        if line.startswith(CPU_METRIC + " "):
            return float(line.split()[1])
    return None


async def cpu_seconds(client: httpx.AsyncClient) -> float | None:
    """The CPU seconds of the service ``client`` talks to, so far (None: not reported)."""
    r = await client.get("/metrics", timeout=30)
    return parse_cpu(r.text) if r.status_code == 200 else None
