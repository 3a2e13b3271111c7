"""Per-stage wall time of one request, for ``stages_ms`` and the ``Server-Timing`` header."""

from __future__ import annotations

import time


class StageClock:
    """Adds the time since the last mark to a stage of ``stages`` (milliseconds)."""

    def __init__(self, stages: dict[str, float]) -> None:
        self.stages = stages
        self.last = time.perf_counter()

    def mark(self, stage: str) -> None:
        """Charge the time since the previous mark (or since creation) to ``stage``."""
        now = time.perf_counter()
        self.stages[stage] = self.stages.get(stage, 0.0) + (now - self.last) * 1000.0
        self.last = now
