"""examples/agent_loop.py, run as the README says, against the real service over HTTP: with
an OpenAI-compatible model (the scripted stand-in of tests/fake_llm.py) the second session's
prompt carries the peanut allergy that the first session's close turned into a unit; without
a model the loop runs offline and quotes what memory said."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fake_llm import FakeLLM, Reply

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "agent_loop.py"


@pytest.fixture(scope="module")
def api_url(served_api_url: str) -> str:
    return served_api_url


def run_example(*args: str) -> str:
    # The client package from its folder (the example would otherwise pip-install it).
    env = {**os.environ, "PYTHONPATH": str(ROOT / "clients" / "python")}
    for name in ("LLM__BASE_URL", "LLM__API_KEY", "LLM__MODEL", "HINDSIGHT_API_KEY"):
        env.pop(name, None)
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, timeout=240,
        env=env, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


async def test_agent_loop_with_a_model(api_url, make_api_key):
    key = await make_api_key("agent-loop")
    llm = FakeLLM().start()
    llm.default = Reply(content="Noted, I will keep that in mind.")
    try:
        out = run_example("--url", api_url, "--key", key, "--run", "llm",
                          "--llm-url", llm.base_url)  # fmt: skip
    finally:
        llm.stop()
    assert "closed: extraction job succeeded" in out, out
    assert "allergic to peanuts" in out.split("== session trip-llm-2")[0]  # a unit was made
    # One model call per turn; the last (session 2) was prompted with the recalled allergy.
    assert len(llm.requests) == 3
    system = llm.requests[-1]["messages"][0]
    assert system["role"] == "system" and "allergic to peanuts" in system["content"]
    last = llm.requests[-1]["messages"][-1]
    assert last == {"role": "user", "content": "Can you pick a snack for my flight?"}
    assert out.rstrip().endswith("assistant: Noted, I will keep that in mind.")


async def test_agent_loop_offline(api_url, make_api_key):
    key = await make_api_key("agent-offline")
    out = run_example("--url", api_url, "--key", key, "--run", "offline")
    first, second = out.split("== session trip-offline-2")
    # Tester T1: "Window seat, please. And I am allergic…" is a clean preference and the
    # allergy, not an event repeating the allergy (README, "From a fresh clone…").
    assert "preference  The user prefers a window seat." in first
    assert "Window seat, please" not in first.split("closed:")[1]
    assert "recalled" in second and "allergic to peanuts" in second
    # Tester C21c: each recalled unit with its relevance (0..1, comparable across turns)
    # beside the score, which only orders one answer.
    line = r"\n  recalled  score \d\.\d\d  relevance 0\.\d\d  The user is allergic to peanuts"
    assert re.search(line, second), second
    assert "assistant: Keeping in mind what I remember:" in second
