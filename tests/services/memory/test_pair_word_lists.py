"""The pair decision's word lists load at start-up, off the event loop, so that no /store
pays them (issue 31: the first English pair cost ~1 s, the first Chinese one ~0.7 s)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

# In a fresh process (the word lists are cached per process): the start-up warm-up, then
# what is loaded, whether the event loop stayed free meanwhile, and what one decision costs.
CHILD = r"""
import asyncio, time
from app.core.config import Settings
from app.main import _warm_up
from app.services.memory.pairs import lexicon
from app.services.memory.pairs.decision import decide
from app.services.memory.pairs.features import statement

LOADERS = ("_wordnet_tables", "_wordnet_near", "_noun_hypernyms", "_first_noun_senses", "_cedict")

class NoModel:
    async def embed_queries(self, texts):
        return None

async def main():
    assert not any(getattr(lexicon, n).cache_info().currsize for n in LOADERS)
    ticks = 0
    async def tick():
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1
    ticker = asyncio.create_task(tick())
    settings = Settings(database_url="postgresql://unused/x")
    start = time.perf_counter()
    await _warm_up(settings, NoModel())
    took = time.perf_counter() - start
    ticker.cancel()
    loaded = [n for n in LOADERS if getattr(lexicon, n).cache_info().currsize]
    start = time.perf_counter()
    decide(statement("The user works as a nurse in Berlin"),
           statement("The user is a teacher in Munich"), 0.95)
    decide(statement("用户住在北京"), statement("用户搬到了上海"), 0.95)
    first = time.perf_counter() - start
    share = round(ticks / max(took, 1e-9) * 0.01, 2)
    print(len(loaded), len(LOADERS), share, round(first * 1000, 1))

asyncio.run(main())
"""


def test_the_word_lists_load_at_start_up_off_the_event_loop() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    loaded, loaders, loop_free, first_ms = out.stdout.split()
    assert loaded == loaders  # every word list is loaded before the first request
    # The event loop kept running while they loaded (a share of its 10 ms ticks: the loading
    # thread holds the GIL most of the time; loaded on the loop itself, the share is 0).
    assert float(loop_free) > 0.05
    assert float(first_ms) < 100  # the first English and Chinese decisions pay nothing
