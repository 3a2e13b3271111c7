"""A column's type changed while the service runs (a migration beside live replicas): each
pooled connection's cached statements fail once. That is a retryable 503, never a 500."""

from __future__ import annotations

from sqlalchemy import text


async def test_a_type_change_under_running_recalls_answers_503_then_recovers(client, engine):
    r = await client.post(
        "/store", json={"memories": [{"user_id": "rs", "value": "The probe code is 41"}]}
    )
    assert r.status_code == 200, r.text
    body = {"user_id": "rs", "query": "probe code"}
    for _ in range(3):  # statements prepared on the pooled connections
        assert (await client.post("/recall", json=body)).status_code == 200
    async with engine.begin() as conn:
        await conn.execute(text("ALTER TABLE memory_units ALTER COLUMN confidence TYPE real"))
    try:
        statuses = [(await client.post("/recall", json=body)) for _ in range(25)]
    finally:
        async with engine.begin() as conn:
            await conn.execute(
                text("ALTER TABLE memory_units ALTER COLUMN confidence TYPE double precision")
            )
        # Statements prepared while the type was real would fail once in later tests (the
        # app is shared by the session): their connections are closed.
        await client._transport.app.state.engine.dispose()
        await engine.dispose()
    codes = [r.status_code for r in statuses]
    assert set(codes) <= {200, 503}, [(r.status_code, r.text[:200]) for r in statuses]
    assert codes[-1] == 200, codes
    for r in statuses:
        if r.status_code == 503:
            assert r.json()["code"] == "datastore_unavailable" and r.headers["retry-after"]
