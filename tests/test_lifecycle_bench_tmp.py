import time, statistics
from datetime import UTC, datetime, timedelta
from sqlalchemy import text
from app.core.db import create_session_factory
from app.repositories.access_log import AccessLogRepository
from app.repositories.memory import MemoryRepository
from tests.test_lifecycle import store

async def test_bench(client, engine):
    for b in range(5):
        await store(client, *({"user_id": "u1", "value": f"Bench fact {b} {i} about topic {i%17}"} for i in range(100)))
    async with engine.connect() as conn:
        ids = [r[0] for r in (await conn.execute(text("SELECT id FROM memory_units LIMIT 10"))).all()]
    f = create_session_factory(engine)
    for name in ("touch", "record"):
        ts = []
        for _ in range(200):
            async with f() as s, s.begin():
                t = time.perf_counter()
                if name == "touch":
                    await MemoryRepository(s).touch_accessed(ids, datetime.now(UTC))
                else:
                    await AccessLogRepository(s).record(ids, datetime.now(UTC), datetime.now(UTC)+timedelta(days=30))
                ts.append((time.perf_counter()-t)*1000)
        ts.sort()
        print(name, "p50 %.2f p95 %.2f ms" % (ts[100], ts[190]))
    lat = []
    for i in range(60):
        r = await client.post("/recall", json={"query": f"topic {i%17}", "user_id": "u1", "top_k": 10})
        lat.append(r.json()["took_ms"])
    lat.sort(); print("recall took_ms p50 %.1f p95 %.1f" % (lat[30], lat[57]))
