"""Two users' first appends racing for one new session (tester hbreak5 F9: 3-4 of 8 racers got
a 409 "The messages name user_id 'racer0' and 'racer1'", though each request named one user,
and the detail disclosed the winner's user_id). The losers meet another user's session: a 404
that names only their own user_id, as a sequential append does."""

from __future__ import annotations

import asyncio


async def test_racing_first_appends_of_two_users(wm):
    for round_ in range(6):
        session = f"race-{round_}"

        async def send(i: int, session: str = session):  # type: ignore[no-untyped-def]
            body = {
                "messages": [{"role": "user", "content": f"hello {i}", "user_id": f"racer{i % 2}"}]
            }
            return i, await wm.client.post(f"/working_memory/{session}/messages", json=body)

        answers = await asyncio.gather(*(send(i) for i in range(8)))
        ok = {f"racer{i % 2}" for i, r in answers if r.status_code == 200}
        assert len(ok) == 1, [(i, r.status_code, r.text) for i, r in answers]
        [owner] = ok
        for i, r in answers:
            if r.status_code == 200:
                continue
            assert r.status_code == 404, r.text
            assert f"racer{i % 2}" != owner and repr(owner) not in r.json()["detail"], r.text
