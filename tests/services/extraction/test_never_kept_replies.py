"""Secrets given by reference or in reply (tester hbreak6 G6: each of these was stored and
recalled for "what is my password?"): a second password in the same sentence ("used to be X
but now it is Y"), a password or PIN given in answer to the assistant's question or referred
to by "it", "pass:" as a label, words between "gate code" and "is", a security question's
answer. Offline extractor, through the API; the secret is in no unit and no job row."""

from __future__ import annotations

import pytest

from tests.services.extraction.test_never_kept import NOW, rows_holding, values


def said(*messages: str) -> list[dict]:
    """Messages, "a:" opening the assistant's."""
    return [
        {"role": "assistant", "content": m[2:]} if m.startswith("a:") else
        {"role": "user", "content": m}
        for m in messages
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("messages", "secrets"),
    [
        (said("My password used to be hunter2 but now it is hunter3"), ["hunter2", "hunter3"]),
        (said("a:Your temporary password is Xk9#pLm2, please change it.",
              "ok, I changed it to Maple!Leaf42"), ["Xk9#pLm2", "Maple!Leaf42"]),
        (said("a:What's the new PIN?", "It's 8842 now"), ["8842"]),
        (said("a:What should the new wifi password be?", "Let's use SunnyOtter55"),
         ["SunnyOtter55"]),
        (said("For the record, user: admin pass: admin123"), ["admin123"]),
        (said("The gate code at my mom's place is 4455#"), ["4455"]),
        (said("The answer to my security question is Fluffy"), ["Fluffy"]),
    ],
)  # fmt: skip
async def test_a_secret_given_by_reference_is_never_kept(client, engine, messages, secrets):
    body = {"user_id": "p1", "now": NOW, "messages": messages}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200 and r.json()["status"] == "succeeded", r.text
    stored = await values(client)
    for secret in secrets:
        assert not any(secret in v for v in stored), stored
        assert await rows_holding(engine, secret) == [], secret
    r = await client.post("/recall", json={"user_id": "p1", "query": "What is my password?"})
    assert not any(s in r.text for s in secrets)


async def test_an_answer_about_no_secret_is_kept(client):
    body = {"user_id": "p1", "now": NOW, "messages": said("a:What's your zip code?", "94110")}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    assert any("94110" in v for v in await values(client))
