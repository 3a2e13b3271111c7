"""A valid request buys no seconds of rule CPU (docs/RELIABILITY.md, "Rule CPU on hostile
text"): text shaped to make a cue rule backtrack — a long run of whitespace, of one mark, of
one cue — gets the answer the plain text gets, through the API. ``scripts/fuzz_cpu.py``
measures the time; these tests hold the outcome, and a hang guard makes a regression fail
instead of hanging the suite."""

from __future__ import annotations

import faulthandler
import sys
from collections.abc import Iterator

import httpx
import pytest

from tests.services.extraction.extracted import units_of, user

# Generous: each case here takes well under a second; a backtracking rule took minutes.
HANG_GUARD_S = 120


@pytest.fixture(autouse=True)
def hang_guard() -> Iterator[None]:
    """Ends the test process with every thread's traceback if a test runs past the guard."""
    faulthandler.dump_traceback_later(HANG_GUARD_S, exit=True, file=sys.__stderr__)
    yield
    faulthandler.cancel_dump_traceback_later()


async def values(client: httpx.AsyncClient, user_id: str, content: str) -> set[str]:
    """The values /extract (offline) makes of one user message."""
    return set(await units_of(client, user_id, [user(content)]))


@pytest.mark.parametrize(
    ("hostile", "plain"),
    [
        ("tea" + " " * 1994 + "end", "tea end"),
        ("I live in Boston," + " " * 3000 + "sorry, I mean Cambridge.",
         "I live in Boston, sorry, I mean Cambridge."),
        ("I'm allergic to peanuts." + "\t \n" * 2000 + "I love green tea.",
         "I'm allergic to peanuts.\nI love green tea."),
        ("I live in Boston" + "\u00a0" * 3000 + "no wait, Cambridge.",
         "I live in Boston no wait, Cambridge."),
    ],
    ids=["spaces", "spaces before a correction", "mixed whitespace", "no-break spaces"],
)  # fmt: skip
async def test_extract_reads_a_long_whitespace_run_as_one(client, hostile, plain):
    hostile_units = await values(client, "ws-hostile", hostile)
    assert hostile_units == await values(client, "ws-plain", plain)


async def test_extract_applies_a_thousand_corrections_in_one_message(client):
    # Each correction was applied by a recursive call: past ~1,000 the job failed
    # (RecursionError) on a valid 42,000-character message.
    content = "I live in Boston, no wait, Cambridge. " * 1100
    units = await units_of(client, "corrections", [user(content)])
    assert units and not [v for v in units if "Boston" in v], list(units)[:3]


@pytest.mark.parametrize(
    "content",
    ["我" * 2000, "在一月" * 600, "I 不 " * 400, "I'll see you on Monday " * 80],
    ids=["one character", "a month", "alternating", "a weekday"],
)
async def test_extract_makes_units_of_a_message_that_grows_when_written_out(client, content):
    # 我 → 用户, 一月 → 2027年1月: a unit's value outgrew the 2,000 characters a unit may hold
    # and the whole job failed.
    units = await units_of(client, "grows", [user(content)])
    assert all(len(v) <= 2000 for v in units), [len(v) for v in units]


async def window_standing(client: httpx.AsyncClient, session: str, content: str) -> str | None:
    """The standing kind the window gives one appended user message."""
    body = {"messages": [{"role": "user", "content": content, "user_id": "wm-cpu"}]}
    r = await client.post(f"/working_memory/{session}/messages", json=body)
    assert r.status_code == 200, r.text
    r = await client.get(f"/working_memory/{session}")
    assert r.status_code == 200, r.text
    (message,) = r.json()["messages"]
    return message["scores"]["standing"]


async def test_working_memory_reads_a_long_whitespace_run_as_one(client):
    plain = "Never book red-eye flights for me."
    hostile = await window_standing(client, "wm-hostile", plain + " " * 20_000 + "ok")
    assert hostile == await window_standing(client, "wm-plain", plain + " ok") == "constraint"


@pytest.mark.parametrize(
    "content",
    ["a" * 100_000, "了" * 100_000, "A" + "b" * 99_999, "sorry, " * 14_000],
    ids=["long word", "Chinese run", "capitalised word", "one clause repeated"],
)
async def test_working_memory_appends_a_long_run_of_letters(client, content):
    # The information density read each letter as the start of an address or a number.
    assert await window_standing(client, "wm-run", content) is None


@pytest.mark.parametrize(
    "value",
    ["了" * 370, "1" * 1000, "A" + "b" * 700],
    ids=["one Chinese character", "digits", "one long word"],
)  # within LIMITS__TEXT_TOKENS (384 model tokens)
async def test_store_decides_a_pair_of_long_runs(client, value):
    # The pair decision read every character of a run as the start of a name or a code.
    for text in (value, value[:-1] + "x"):
        r = await client.post("/store", json={"memories": [{"user_id": "runs", "value": text}]})
        assert r.status_code == 200, r.text
        assert r.json()["results"][0]["memory"]["value"] == text
