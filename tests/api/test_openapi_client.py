"""SDK users get a working client: openapi-python-client generates a package from the live
OpenAPI document (fetched over HTTP from the running API), and that package stores and
recalls with an API key, and reads errors as typed problem details."""

from __future__ import annotations

import importlib
import subprocess
import sys
import time

import httpx
import pytest


@pytest.fixture(scope="module")
def api_url(keyed_api_url: str) -> str:
    return keyed_api_url


@pytest.fixture(scope="module")
def generated(api_url: str, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The generated package, imported as `generated_sdk` (not `hindsight_client`: that is
    the maintained client of clients/python, tests/test_python_client.py)."""
    work = tmp_path_factory.mktemp("sdk")
    spec = work / "openapi.json"
    spec.write_bytes(httpx.get(f"{api_url}/openapi.json", timeout=30).content)
    config = work / "config.yaml"
    config.write_text("post_hooks: []\n")  # no formatter run: keeps the test self-contained
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(spec),
         "--meta", "none", "--output-path", str(work / "generated_sdk"),
         "--config", str(config), "--fail-on-warning"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    print(f"client generated in {time.perf_counter() - start:.1f} s")
    assert out.returncode == 0, out.stdout + out.stderr
    sys.path.insert(0, str(work))
    try:
        yield importlib.import_module("generated_sdk")
    finally:
        sys.path.remove(str(work))
        for name in [m for m in sys.modules if m.split(".")[0] == "generated_sdk"]:
            del sys.modules[name]


async def test_generated_client_stores_and_recalls(generated, api_url, engine, make_api_key):
    key = await make_api_key("sdk")
    store = importlib.import_module("generated_sdk.api.memories.store_memories")
    recall = importlib.import_module("generated_sdk.api.recall.recall_memories")
    get_memory = importlib.import_module("generated_sdk.api.memories.get_memory")
    models = importlib.import_module("generated_sdk.models")

    client = generated.AuthenticatedClient(base_url=api_url, token=key)
    async with client:
        body = models.StoreRequest.from_dict(
            {"memories": [{"user_id": "u1", "value": "The user is allergic to peanuts",
                           "type": "constraint", "entities": ["peanuts"]}]}
        )  # fmt: skip
        stored = await store.asyncio(client=client, body=body)
        assert isinstance(stored, models.StoreResponse), stored
        assert stored.results[0].outcome.value == "created"
        unit_id = stored.results[0].id

        found = await recall.asyncio(
            client=client,
            body=models.RecallRequest(query="what can't the user eat?", user_id="u1", top_k=3),
        )
        assert isinstance(found, models.RecallResponse), found
        assert [hit.id for hit in found.memories] == [unit_id]
        assert found.memories[0].value == "The user is allergic to peanuts"
        assert 0 < found.memories[0].score <= 1

        read = await get_memory.asyncio(client=client, memory_id=unit_id)
        assert isinstance(read, models.MemoryDetail) and read.entities == ["peanuts"]
        assert read.access_count == 1  # the recall above returned it

        # Errors come back typed: a recall without a subject is a Problem with its code.
        problem = await recall.asyncio(client=client, body=models.RecallRequest(query="anything"))
        assert isinstance(problem, models.Problem)
        assert problem.code == "invalid_request" and problem.status == 422
        assert problem.request_id

    # Without the key the same client type gets the 401 as a Problem.
    async with generated.Client(base_url=api_url) as anonymous:
        refused = await store.asyncio(client=anonymous, body=body)  # type: ignore[arg-type]
        assert isinstance(refused, models.Problem) and refused.code == "missing_api_key"
