"""Ids (user, agent, session, task; namespaces) refuse control, bidi, invisible and
noncharacters with a 422 that names the character and its position (app/core/identifiers.py);
values keep them (issue 31)."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from app.core.config import Settings
from app.core.identifiers import identifier_problem
from tests.conftest import count_rows

PROBLEM = "application/problem+json"

REFUSED = [
    ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE (a bidi control)"),
    ("\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE (a bidi control)"),
    ("\u200f", "U+200F RIGHT-TO-LEFT MARK (a bidi control)"),
    ("\u200b", "U+200B ZERO WIDTH SPACE (an invisible format character)"),
    ("\u200d", "U+200D ZERO WIDTH JOINER (an invisible format character)"),
    ("\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE (an invisible format character)"),
    ("\u00ad", "U+00AD SOFT HYPHEN (an invisible format character)"),
    ("\ufe0f", "U+FE0F VARIATION SELECTOR-16 (an invisible character)"),
    ("\u3164", "U+3164 HANGUL FILLER (an invisible character)"),
    ("\ufdd0", "U+FDD0 (a noncharacter)"),
    ("\uffff", "U+FFFF (a noncharacter)"),
    ("\U0010ffff", "U+10FFFF (a noncharacter)"),
    ("\x07", "U+0007 (a control character)"),
    ("\x85", "U+0085 (a control character)"),
    ("\u2028", "U+2028 LINE SEPARATOR (a line separator)"),
]


@pytest.mark.parametrize(("char", "named"), REFUSED, ids=[n.split()[0] for _, n in REFUSED])
def test_each_kind_is_named_with_its_position(char, named):
    problem = identifier_problem(f"alice{char}x")
    assert problem is not None and named in problem and "position 5 (0-based)" in problem


ORDINARY = ["alice", "用户-42", "مريم", "חנה", "ÅSA_ø", "🙂-user", "a b", "x.y@z"]


@pytest.mark.parametrize("ok", ORDINARY)
def test_ordinary_ids_pass(ok):
    assert identifier_problem(ok) is None


SPOOF = "alice\u202egnp.exe"
BODY_CASES = [
    ("/store", {"memories": [{"user_id": SPOOF, "value": "v"}]}, "memories.0.user_id"),
    ("/store", {"memories": [{"user_id": "u", "agent_id": SPOOF, "value": "v"}]},
     "memories.0.agent_id"),
    ("/store", {"memories": [{"user_id": "u", "session_id": SPOOF, "value": "v"}]},
     "memories.0.session_id"),
    ("/store", {"memories": [{"user_id": "u", "task_id": SPOOF, "value": "v"}]},
     "memories.0.task_id"),
    ("/recall", {"query": "q", "user_id": SPOOF}, "user_id"),
    ("/recall", {"query": "q", "session_id": SPOOF}, "session_id"),
    ("/working_memory/s1/messages",
     {"messages": [{"role": "user", "content": "hi", "user_id": SPOOF}]}, "messages.0.user_id"),
    ("/working_memory/s1/close", {"user_id": SPOOF}, "user_id"),
    ("/extract", {"user_id": SPOOF, "messages": [{"role": "user", "content": "x"}]}, "user_id"),
    ("/summarize", {"user_id": SPOOF}, "user_id"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "body", "where"), BODY_CASES)
async def test_body_ids_refuse_a_bidi_override(client, engine, path, body, where):
    r = await client.post(path, json=body)
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    detail = r.json()["detail"]
    assert detail.startswith(f"{where}: must not contain U+202E RIGHT-TO-LEFT OVERRIDE"), detail
    assert "position 5 (0-based)" in detail
    assert await count_rows(engine) == 0
    assert await count_rows(engine, "transcript_messages") == 0


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/working_memory/{}/messages"),
        ("GET", "/working_memory/{}"),
        ("DELETE", "/working_memory/{}"),
        ("POST", "/working_memory/{}/close"),
    ],
)
async def test_session_ids_in_the_path_refuse_them(client, engine, method, path):
    body = {"messages": [{"role": "user", "content": "hi"}]} if "messages" in path else None
    r = await client.request(method, path.format("s\u200b1"), json=body)
    assert r.status_code == 422, r.text
    assert "U+200B ZERO WIDTH SPACE" in r.json()["detail"]
    assert "position 1 (0-based)" in r.json()["detail"]
    assert await count_rows(engine, "transcript_messages") == 0


async def test_query_ids_refuse_them(client):
    for path, params in [
        ("/memories", {"user_id": "u\ufeff"}),
        ("/context", {"user_id": "u", "session_id": "s\u2066"}),
        ("/subjects", {"kind": "session", "user_id": "u\u202e"}),
        ("/extract", {"session_id": "s\ufdd0"}),
        ("/stats", {"agent_id": "a\x01"}),
    ]:
        r = await client.get(path, params=params)
        assert r.status_code == 422, (path, r.text)
        assert "must not contain U+" in r.json()["detail"], r.json()["detail"]


async def test_values_keep_them(client):
    value = "Invoice attached: invoice\u202egnp.exe \u200b👩\u200d💻"
    unit = {"user_id": "u1", "value": value, "query": "when \u2066paying\u2069 bills",
            "entities": ["\u202eACME"]}  # fmt: skip
    r = await client.post("/store", json={"memories": [unit]})
    assert r.status_code == 200, r.text
    memory = r.json()["results"][0]["memory"]
    assert memory["value"] == value and memory["query"] == unit["query"]
    assert memory["entities"] == ["\u202eACME"]


def test_a_namespace_refuses_them():
    with pytest.raises(ValueError, match="U\\+202E"):
        Settings(default_namespace="team\u202ea")


async def test_a_session_id_a_path_cannot_name_is_refused_by_writes_only(client, engine):
    """Tester B13: `/store` and `/extract` took `"session_id": "conv/1"`, a session no
    /working_memory/{session_id} path can ever name (a '/' ends the segment even as %2F;
    '.' and '..' are resolved away by clients). Every write refuses them with a 422 and
    writes nothing; reads and filters still take them, so units stored before stay
    readable."""
    for session in ("conv/1", "/", ".", ".."):
        r = await client.post(
            "/store",
            json={"memories": [{"user_id": "s1", "value": "I like tea.", "session_id": session}]},
        )
        assert r.status_code == 422 and r.headers["content-type"] == PROBLEM, (session, r.text)
        assert "memories.0.session_id" in r.text and "a session id cannot" in r.text
        for body in (
            {"user_id": "s1", "session_id": session},
            {"user_id": "s1", "session_id": session,
             "messages": [{"role": "user", "content": "I like tea."}]},
        ):  # fmt: skip
            r = await client.post("/extract", json=body)
            assert r.status_code == 422 and "a session id cannot" in r.text, (session, r.text)
    # An append to "." (a client that sends the segment as it is, or as %2E) is refused too.
    r = await client.post(
        "/working_memory/%2E/messages", json={"messages": [{"role": "user", "content": "hi"}]}
    )
    assert r.status_code == 422 and "a session id cannot be '.'" in r.text, r.text
    assert await count_rows(engine) == 0
    assert await count_rows(engine, "extraction_jobs") == 0
    assert await count_rows(engine, "working_memory_sessions") == 0
    # "a.b" and "..a" are ordinary ids.
    r = await client.post(
        "/store",
        json={"memories": [{"user_id": "s1", "value": "I like tea.", "session_id": "a.b"}]},
    )
    assert r.status_code == 200, r.text

    # A unit stored before the rule, with session "conv/1", is still found by its session.
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE memory_units SET session_id = 'conv/1'"))
    r = await client.post(
        "/recall", json={"query": "tea", "session_id": "conv/1", "record_access": False}
    )
    assert [m["session_id"] for m in r.json()["memories"]] == ["conv/1"]
    r = await client.get("/memories", params={"session_id": "conv/1"})
    assert [m["session_id"] for m in r.json()["memories"]] == ["conv/1"]
