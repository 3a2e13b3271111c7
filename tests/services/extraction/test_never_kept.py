"""What extraction never keeps (tester finding C25), through the API, offline extractor and
scripted LLM alike: card numbers with their CVV, passwords, PINs, one-time codes, national
ids; a message that asks not to be remembered; a request to forget (an instruction, not a
fact); and a succeeded job's transcript snapshot keeps no message text."""

from __future__ import annotations

import asyncio
import json
import re
import uuid

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.core import migrate
from app.services.extraction import national_ids, secrets
from app.services.extraction.jobs import without_text
from tests.conftest import new_database, truncate_queue
from tests.fake_llm import Reply, units_json

NOW = "2026-11-25T02:00:00Z"


async def extract(client: httpx.AsyncClient, *contents: str, user: str = "p1") -> dict:
    body = {"user_id": user, "now": NOW, "timezone": "Asia/Shanghai",
            "messages": [{"role": "user", "content": c} for c in contents]}  # fmt: skip
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    job = r.json()
    assert job["status"] == "succeeded", job
    return job


async def rows_holding(engine, needle: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The tables whose rows' text holds ``needle`` (units and job rows, outcome included) as
    a word of its own: not inside an id's hex or a timestamp's digits (a job row's UUID or
    microseconds held "4321" by chance and failed the test once in a few hundred runs)."""
    hits = []
    pattern = f"(^|[^0-9a-f]){re.escape(needle)}([^0-9a-f]|$)"
    async with engine.connect() as conn:
        for table in ("memory_units", "extraction_jobs"):
            sql = f"SELECT count(*) FROM {table} t WHERE t::text ~ :n"
            if (await conn.execute(text(sql), {"n": pattern})).scalar_one():
                hits.append(table)
    return hits


async def values(client: httpx.AsyncClient, user: str = "p1") -> list[str]:
    r = await client.get("/memories", params={"user_id": user})
    assert r.status_code == 200, r.text
    return [u["value"] for u in r.json()["memories"]]


@pytest.mark.parametrize(
    ("said", "secret", "kind"),
    [
        ("My credit card number is 4111 1111 1111 1111, expiry 12/28, CVV 123.",
         "4111 1111", "a payment card number"),
        ("My password for the bank is Hunter2!", "Hunter2", "a password, PIN or one-time code"),
        ("My social security number is 078-05-1120.", "078-05-1120", "a national id number"),
        ("我的信用卡号是 4111-1111-1111-1111，安全码 737。", "4111-1111", "a payment card number"),
        ("我的银行卡密码是 884213。", "884213", "a password, PIN or one-time code"),
        ("我的身份证号是11010519491231002X。", "11010519491231002X", "a national id number"),
    ],
)  # fmt: skip
async def test_a_secret_is_never_stored(client, engine, said, secret, kind):
    await _never_stored(client, engine, said, secret, kind)


ACCESS = "an access code (door, gate, alarm, garage or safe)"


@pytest.mark.parametrize(
    ("said", "secret", "kind"),
    [
        ("My bank login is jdoe and it's Sunshine99!", "Sunshine99",
         "a password, PIN or one-time code"),
        ("username: bob, pw: hunter2", "hunter2", "a password, PIN or one-time code"),
        ("The alarm code for the house is 5521.", "is 5521", ACCESS),
        ("Our garage code is 9090, use it when you deliver.", "is 9090", ACCESS),
        ("The safe combination is 12-34-56.", "12-34-56", ACCESS),
        ("门禁码是1234，记一下。", "是1234", ACCESS),
        ("我家车库的开门码：860412。", "860412", ACCESS),
    ],
)  # fmt: skip
async def test_a_secret_not_called_one_is_never_stored(client, engine, said, secret, kind):
    """Tester D4: a password after a login without the word, and access codes (door, alarm,
    garage, safe, 门禁码) were kept; the safe combination made no unit and no outcome."""
    await _never_stored(client, engine, said, secret, kind)


async def _never_stored(client, engine, said, secret, kind):  # type: ignore[no-untyped-def]client, engine, said, secret, kind):
    job = await extract(client, said)
    assert await values(client) == []
    assert [u["outcome"] for u in job["units"]] == ["dropped"]
    assert job["units"][0]["reason"] == f"held {kind}: never kept"
    assert job["units"][0]["value"] is None
    assert await rows_holding(engine, secret) == []  # neither a unit nor the job row


@pytest.mark.parametrize(
    ("said", "kept", "secret"),
    [
        ("My PIN is 4321. I'm allergic to peanuts.", "peanuts", "4321"),
        ("我的验证码是 482913。我喜欢喝龙井茶。", "龙井茶", "482913"),
    ],
)  # fmt: skip
async def test_the_rest_of_a_message_with_a_secret_is_kept(client, engine, said, kept, secret):
    await extract(client, said)
    stored = await values(client)
    assert any(kept in v for v in stored), stored
    assert not any(secret in v or "withheld" in v for v in stored), stored
    assert await rows_holding(engine, secret) == []


@pytest.mark.parametrize(
    "messages",
    [
        ["Please don't remember this, but my SSN is 078-05-1120."],
        ["My SSN is 078-05-1120.", "Actually, don't remember that."],
        ["我的社保号是078-05-1120，别记这个。"],
        ["我的社保号是078-05-1120。", "这个不要记住。"],
    ],
)
async def test_a_message_asking_not_to_be_remembered_makes_no_unit(client, engine, messages):
    job = await extract(client, *messages)
    assert await values(client) == []
    assert {u["outcome"] for u in job["units"]} == {"dropped"}
    assert all("asked not to be remembered" in u["reason"] for u in job["units"])
    assert await rows_holding(engine, "078-05-1120") == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I don't remember this restaurant's name, but the food was great.", "food was great"),
        ("Don't forget my birthday is on May 3rd.", "birthday"),
        ("I forgot my password again, so I reset it.", "password"),
    ],
)  # fmt: skip
async def test_statements_about_remembering_are_still_kept(client, engine, said, kept):
    await extract(client, said, "Please don't save this: my locker code is 4321.")
    stored = await values(client)
    assert any(kept in v for v in stored), stored  # only the message that asked is withheld
    assert await rows_holding(engine, "locker") == []


@pytest.mark.parametrize(
    ("stored", "request_to_forget"),
    [
        ("I live at 12 Elm Street.", "Forget what I said about my address."),
        ("我住在人民路12号。", "把我说的地址忘掉。"),
    ],
)
async def test_a_request_to_forget_is_not_a_memory(client, stored, request_to_forget):
    await extract(client, stored)
    before = await values(client)
    job = await extract(client, request_to_forget)
    assert await values(client) == before  # no new unit; nothing forgotten by it either
    [entry] = job["units"]
    assert entry["outcome"] == "dropped" and entry["memory_id"] is None
    assert entry["value"] == request_to_forget
    assert "DELETE /memories/{id}" in entry["reason"]


async def test_a_succeeded_jobs_transcript_keeps_no_text(client, engine):
    job = await extract(client, "I moved to Hangzhou last week.", "I like oolong tea.")
    async with engine.connect() as conn:
        row = await conn.execute(
            text("SELECT transcript FROM extraction_jobs WHERE id = :id"), {"id": job["id"]}
        )
        snapshot = row.scalar_one()
    assert [sorted(m) for m in snapshot] == [["created_at", "index", "role"]] * 2
    read = (await client.get(f"/extract/{job['id']}")).json()
    assert read["transcript_messages"] == 2
    # Forgetting the unit then leaves no trace of its words in the job row.
    unit = next(u for u in job["units"] if "oolong" in (u["value"] or ""))
    assert (await client.delete(f"/memories/{unit['memory_id']}")).status_code == 200
    assert await rows_holding(engine, "oolong") == []


async def test_the_llm_is_never_shown_a_secret_and_its_units_are_checked(llm_app, fake_llm, engine):
    await truncate_queue(engine)
    echoed = {"type": "fact", "value": "The user's card is 4111 1111 1111 1111.",
              "confidence": 0.9, "source_turns": [0]}  # fmt: skip
    leaked = {"type": "fact", "value": "The user's password is [withheld: a password, PIN or "
              "one-time code].", "confidence": 0.9, "source_turns": [1]}  # fmt: skip
    tea = {"type": "preference", "value": "The user likes oolong tea.", "confidence": 0.9,
           "entities": ["oolong", "4111 1111 1111 1111"], "source_turns": [1]}  # fmt: skip
    fake_llm.push(Reply(content=units_json(echoed, leaked, tea)))
    job = await extract(
        llm_app,
        "My card is 4111 1111 1111 1111 and I like oolong tea.",
        "My password is Hunter2. 我也喜欢龙井。",
        "Please don't save this: my SSN is 078-05-1120.",
        "Forget what I said about my address.",
        user="p2",
    )
    prompt = json.dumps(fake_llm.requests[0]["messages"], ensure_ascii=False)
    for secret in ("4111 1111", "Hunter2", "078-05-1120", "SSN", "address"):
        assert secret not in prompt, secret
    assert "[withheld: a payment card number]" in prompt and "oolong" in prompt
    assert await values(llm_app, "p2") == ["The user likes oolong tea."]
    outcomes = sorted((u["outcome"], u["value"] or "") for u in job["units"])
    assert outcomes == [
        ("created", "The user likes oolong tea."), ("dropped", ""), ("dropped", ""),
        ("dropped", ""), ("dropped", "Forget what I said about my address."),
    ]  # fmt: skip
    unit = (await llm_app.get(f"/memories/{job['units'][0]['memory_id']}")).json()
    assert unit["entities"] == ["oolong"]  # the entity holding the card number is not kept
    for secret in ("4111 1111", "Hunter2", "078-05-1120"):
        assert await rows_holding(engine, secret) == []


@pytest.mark.parametrize(
    ("said", "kinds"),
    [
        ("Amex 3782 822463 10005, call +86 138 1234 5678 or 555-123-4567.",
         ["a payment card number"]),
        ("We met on 2023-10-12 and paid 1234 5678 yen; order 12345678901.", []),
        ("The wifi password: sunflower99. The pin is on the map.",
         ["a password, PIN or one-time code"]),
        ("My password is wrong again.", []),
        ("Key sk-proj-abcdefghijklmnopqrstuvwx and AKIAIOSFODNN7EXAMPLE.",
         ["an API key or token", "an API key or token"]),
        ("身份证 110105194912310021，验证码 482913。",
         ["a national id number", "a password, PIN or one-time code"]),
        ("我忘了密码是多少。密码学很有意思。", []),
        ("The alarm code is broken. My door number is 4. My login is jdoe and it's fine.", []),
        ("The gate code for the building is 4417#.", [ACCESS]),
        ("我家门锁坏了3天了，车库门在修。", []),
    ],
)  # fmt: skip
def test_what_counts_as_a_secret(said, kinds):
    assert [s.kind for s in secrets.find(said)] == kinds


def test_check_digits():
    assert secrets.luhn("4111111111111111") and not secrets.luhn("4111111111111112")
    assert national_ids.chinese_id_ok("11010519491231002X")
    assert not national_ids.chinese_id_ok("110105194912310020")


async def test_migration_0019_cuts_the_text_of_jobs_that_succeeded_before(engine, database_url):
    async with new_database(engine, database_url, "jt") as url:
        await asyncio.to_thread(migrate.upgrade, url, "0018")
        mine = create_async_engine(url)
        said = [{"index": 0, "role": "user", "content": "My PIN is 4321.", "created_at": None,
                 "metadata": {}, "name": "Ann"},
                {"index": 1, "seq": 7, "role": "assistant", "content": "Noted.",
                 "created_at": "2026-11-25T02:00:00+00:00", "metadata": {}}]  # fmt: skip
        try:
            async with mine.begin() as conn:
                for status in ("succeeded", "failed"):
                    await conn.execute(
                        text(
                            "INSERT INTO extraction_jobs (id, namespace, user_id, status,"
                            " transcript, conversation_now) VALUES (:id, 'ns', 'u', :status,"
                            " CAST(:t AS jsonb), now())"
                        ),
                        {"id": uuid.uuid4(), "status": status, "t": json.dumps(said)},
                    )
            await asyncio.to_thread(migrate.upgrade, url, "0019")
            async with mine.connect() as conn:
                rows = await conn.execute(text("SELECT status, transcript FROM extraction_jobs"))
                got = {r[0]: r[1] for r in rows}
            assert got["succeeded"] == without_text(said)
            assert got["failed"] == said  # a retry reads it
        finally:
            await mine.dispose()


@pytest.mark.parametrize(
    ("said", "secret"),
    [
        ("My Gmail is jdoe@gmail.com, pw Sunshine99", "Sunshine99"),
        ("login jdoe / Sunshine99", "Sunshine99"),
        ("The Netflix login is anna@example.com / Tr0ub4dor", "Tr0ub4dor"),
        ("Netflix: anna@example.com Tr0ub4dor", "Tr0ub4dor"),
        ("my pin number for the bike lock is 0000", "0000"),
        ("the code to my bike lock is 0417", "0417"),
    ],
)  # fmt: skip
async def test_a_password_or_code_without_is_is_never_kept(client, engine, said, secret):
    """Tester E27: each of these was stored with its password or code."""
    await extract(client, said)
    assert not [v for v in await values(client) if secret in v]
    assert await rows_holding(engine, secret) == []


async def test_where_a_password_is_kept_is_no_password(client):
    await extract(client, "The password is in the drawer by the door.")
    assert [v for v in await values(client) if "drawer" in v]


@pytest.mark.parametrize(
    ("said", "secret"),
    [
        ("I always use Hunter2! as my password.", "Hunter2"),
        ("The password I use for everything is Hunter2!", "Hunter2"),
        ("For my bank I use the password Hunter2!", "Hunter2"),
        ("I set my laptop password to Zebra#42.", "Zebra#42"),
        ("The wifi is called Home and its key is tulip-77.", "tulip-77"),
        ("I use the same password everywhere: Hunter2!", "Hunter2"),
    ],
)  # fmt: skip
async def test_a_password_named_by_its_use_is_never_kept(client, engine, said, secret):
    """Tester hbreak5 F14: each of these was stored (and printed by /context); "I always use
    Hunter2! as my password." also left the unit "as the user's password."."""
    await extract(client, said, "I'm allergic to peanuts.")
    assert await values(client) == ["The user is allergic to peanuts."]
    assert await rows_holding(engine, secret) == []


async def test_a_password_manager_is_no_password(client):
    await extract(client, "I use the password manager 1Password.")
    assert [v for v in await values(client) if "1Password" in v]
