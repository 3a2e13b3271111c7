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
