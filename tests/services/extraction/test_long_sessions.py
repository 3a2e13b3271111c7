"""A close over more than EXTRACTION__MAX_MESSAGES messages no job took extracts them all, in
one job per part, oldest first (tester E17: the older ones were skipped for good, and no call
could extract them any more)."""

from __future__ import annotations

import uuid

import pytest

from app.core.config import ExtractionSettings, Settings
from tests.conftest import REDIS_TEST_URL, running_app

pytestmark = pytest.mark.usefixtures("empty_queue")

SAID = ["I am allergic to penicillin.", "My daughter is called Mia.", "I live in Lisbon.",
        "I drive a blue Volvo.", "I work as an architect."]  # fmt: skip


async def test_every_message_of_a_long_session_gets_a_job(settings: Settings):
    wm = settings.working_memory.model_copy(update={"key_prefix": f"t-{uuid.uuid4().hex[:8]}:"})
    update = {"redis_url": REDIS_TEST_URL, "working_memory": wm,
              "extraction": ExtractionSettings(max_messages=2)}  # fmt: skip
    async with running_app(settings.model_copy(update=update)) as (_, client):
        sid = f"long-{uuid.uuid4().hex[:8]}"
        for text in SAID:
            body = {"messages": [{"role": "user", "content": text, "user_id": "longu"}]}
            r = await client.post(f"/working_memory/{sid}/messages", json=body)
            assert r.status_code in (200, 201), r.text
        r = await client.post("/extract?wait=true", json={"user_id": "longu", "session_id": sid})
        assert r.status_code in (200, 202), r.text
        assert (r.json()["transcript_from"], r.json()["transcript_to"]) == (5, 5), r.json()
        jobs = (await client.get("/extract", params={"session_id": sid})).json()["jobs"]
        spans = sorted((j["transcript_from"], j["transcript_to"]) for j in jobs)
        assert spans == [(1, 2), (3, 4), (5, 5)], jobs
        # Nothing is left for a later close: the same job again.
        again = await client.post("/extract", json={"user_id": "longu", "session_id": sid})
        assert again.json()["id"] == r.json()["id"], again.json()
