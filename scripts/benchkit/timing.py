"""Percentiles and latency summaries, with the index rule of the mem0 anchor so that two
figures of one run are comparable: p-th percentile = ``sorted(xs)[int(n * p)]`` (p50 =
``sorted(xs)[n // 2]``), clamped to the last element; NaN for no data."""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager


def pct(values: list[float], p: float) -> float:
    """The ``p`` quantile (0 < p < 1) of ``values`` by the rule ``sorted[int(n * p)]``."""
    s = sorted(values)
    if not s:
        return math.nan
    return s[min(len(s) - 1, int(len(s) * p))]


def summary_ms(seconds: list[float]) -> dict[str, float]:
    """``{n, p50_ms, p95_ms, p99_ms, mean_ms, max_ms}`` of durations given in seconds."""
    if not seconds:
        return {"n": 0}
    ms = [s * 1000.0 for s in seconds]
    return {
        "n": len(ms),
        "p50_ms": pct(ms, 0.5),
        "p95_ms": pct(ms, 0.95),
        "p99_ms": pct(ms, 0.99),
        "mean_ms": statistics.fmean(ms),
        "max_ms": max(ms),
    }


@contextmanager
def stopwatch(into: list[float]) -> Iterator[None]:
    """Append the wall time (s, ``perf_counter``) of the block to ``into``."""
    t0 = time.perf_counter()
    try:
        yield
    finally:
        into.append(time.perf_counter() - t0)


def load_average() -> tuple[float, float, float]:
    """1-, 5- and 15-minute load averages of the machine."""
    return os.getloadavg()


def uptime_line() -> str:
    """What ``uptime`` prints (falls back to the load averages when it is missing)."""
    try:
        out = subprocess.run(["uptime"], capture_output=True, text=True, timeout=5).stdout
        if out.strip():
            return " ".join(out.split())
    except (OSError, subprocess.SubprocessError):
        pass
    one, five, fifteen = load_average()
    return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f}"
