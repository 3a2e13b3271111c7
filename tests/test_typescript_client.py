"""The TypeScript client (`clients/typescript`, ESM; types generated from docs/openapi.json
by openapi-typescript, requests by openapi-fetch): its committed types are what the generator
makes from the document today (drift fails here), they type-check with tsc, and node's test
runner passes its tests against the real service over HTTP. examples/agent_loop.mts, the
agent loop of examples/agent_loop.py on this client in TypeScript, compiles with tsc in strict
mode (examples/tsconfig.json) and runs against the service offline and with
the scripted OpenAI-compatible model of tests/fake_llm.py, and recalls in its second session
what the first one's close made into a unit.

Skips, saying why, where node or npm is absent, or where `npm ci` cannot install the pinned
packages (package-lock.json) from the npm registry."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.fake_llm import FakeLLM, Reply

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "clients" / "typescript"
NODE, NPM = shutil.which("node"), shutil.which("npm")

pytestmark = pytest.mark.skipif(
    NODE is None or NPM is None, reason="needs node and npm (apt-get install nodejs npm)"
)


def run(*command: str, timeout: float = 180, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return subprocess.run(
        list(command), cwd=PACKAGE, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, **(env or {})},
    )  # fmt: skip


@pytest.fixture(scope="module")
def installed() -> Path:
    """node_modules from package-lock.json (npm ci once; kept between runs)."""
    modules = PACKAGE / "node_modules"
    if not ((modules / "openapi-fetch").exists() and (modules / "@types" / "node").exists()):
        out = run(NPM or "npm", "ci", "--no-audit", "--no-fund", timeout=300)
        if out.returncode != 0:
            pytest.skip(f"npm ci could not install the pinned packages: {out.stderr[-500:]}")
    return PACKAGE / "node_modules" / ".bin"


@pytest.fixture(scope="module")
def api_url(served_api_url: str) -> str:
    return served_api_url


def test_types_are_generated_from_the_current_document(installed, tmp_path):
    fresh = tmp_path / "schema.d.ts"
    out = run(str(installed / "openapi-typescript"), "../../docs/openapi.json",
              "--default-non-nullable", "false", "--output", str(fresh))  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    assert fresh.read_text() == (PACKAGE / "src" / "schema.d.ts").read_text(), (
        "clients/typescript/src/schema.d.ts is stale: `npm run generate` in clients/typescript"
    )


def test_types_check(installed):
    out = run(str(installed / "tsc"), "-p", "tsconfig.json")
    assert out.returncode == 0, out.stdout + out.stderr


async def test_node_tests_pass_against_the_service(installed, api_url, make_api_key):
    key = await make_api_key("ts-client")
    out = run(NODE or "node", "--test", "test/client.test.js",
              env={"HINDSIGHT_URL": api_url, "HINDSIGHT_API_KEY": key})  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    assert "# pass 10" in out.stdout and "# fail 0" in out.stdout, out.stdout


@pytest.fixture(scope="module")
def compiled_loop(installed: Path) -> Path:
    """examples/agent_loop.mts compiled by tsc (strict) to examples/agent_loop.mjs, as the
    README says."""
    out = subprocess.run(
        [str(installed / "tsc"), "-p", "examples"], cwd=ROOT, capture_output=True, text=True,
        timeout=180,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    return ROOT / "examples" / "agent_loop.mjs"


def run_loop(*args: str) -> str:
    unset = ("LLM__BASE_URL", "LLM__API_KEY", "LLM__MODEL", "HINDSIGHT_API_KEY")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    out = subprocess.run(
        [NODE or "node", str(ROOT / "examples" / "agent_loop.mjs"), *args], cwd=ROOT,
        capture_output=True, text=True, timeout=240, env=env,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


async def test_the_agent_loop_example_offline(compiled_loop, api_url, make_api_key):
    key = await make_api_key("ts-loop")
    out = run_loop("--url", api_url, "--key", key, "--run", "ts-offline")
    first, second = out.split("== session trip-ts-offline-2")
    assert "closed: extraction job succeeded" in first and "allergic to peanuts" in first
    assert "recalled" in second and "allergic to peanuts" in second
    # Tester C21c: the relevance (comparable across turns) beside the score (an order).
    line = r"\n  recalled  score \d\.\d\d  relevance 0\.\d\d  The user is allergic to peanuts"
    assert re.search(line, second), second
    assert "assistant: Keeping in mind what I remember:" in second


async def test_the_agent_loop_example_with_a_model(compiled_loop, api_url, make_api_key):
    key = await make_api_key("ts-loop-llm")
    llm = FakeLLM().start()
    llm.default = Reply(content="Noted, I will keep that in mind.")
    try:
        out = run_loop("--url", api_url, "--key", key, "--run", "ts-llm", "--llm-url",
                       llm.base_url)  # fmt: skip
    finally:
        llm.stop()
    assert len(llm.requests) == 3  # one model call per turn
    system = llm.requests[-1]["messages"][0]
    assert system["role"] == "system" and "allergic to peanuts" in system["content"]
    assert llm.requests[-1]["messages"][-1] == {
        "role": "user", "content": "Can you pick a snack for my flight?"}  # fmt: skip
    assert out.rstrip().endswith("assistant: Noted, I will keep that in mind.")


def test_the_agent_loop_example_says_how_to_use_it(compiled_loop):
    # Tester C2: --help died with a node stack trace (ERR_PARSE_ARGS_UNKNOWN_OPTION).
    out = run_loop("--help")
    assert out.startswith("usage: node examples/agent_loop.mjs") and "--url URL" in out
    wrong = subprocess.run(
        [NODE or "node", str(compiled_loop), "--prot", "9000"], cwd=ROOT, capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip
    assert wrong.returncode == 2
    assert "Unknown option '--prot'" in wrong.stderr and "usage:" in wrong.stderr
    assert "at parseArgs" not in wrong.stderr  # no stack trace
