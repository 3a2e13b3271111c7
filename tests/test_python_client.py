"""The Python client (`clients/python`, package `hindsight-client`) against the real service
over HTTP (keys required): every operation of the OpenAPI document has a method on both
clients and every schema a model with its fields (drift fails here), every error code of the
API a typed exception; the package installs from its own pyproject; sync and async clients
store, recall, page, correct, forget, run the working-memory → extraction path; retries
honour Retry-After on 429; a write's Idempotency-Key holds across its retries."""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from app.core.config import AuthSettings
from app.main import create_app
from tests.live_api import serve

ROOT = Path(__file__).resolve().parents[1]
CLIENT = ROOT / "clients" / "python"
sys.path.insert(0, str(CLIENT))

import hindsight_client as hc  # noqa: E402
from hindsight_client import errors, models  # noqa: E402

SPEC = json.loads((ROOT / "docs" / "openapi.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def api_url(served_api_url: str) -> str:
    return served_api_url


# --- drift between the OpenAPI document and the client ------------------------------------


def test_every_operation_has_a_method_on_both_clients():
    documented = {
        op["operationId"]: (method.upper(), path)
        for path, ops in SPEC["paths"].items()
        for method, op in ops.items()
    }
    assert set(hc.OPERATIONS) == set(documented), "client and docs/openapi.json differ"
    for op_id, (method, path, name) in hc.OPERATIONS.items():
        assert documented[op_id] == (method, path), op_id
        sync, aio = getattr(hc.Hindsight, name), getattr(hc.AsyncHindsight, name)
        assert not inspect.iscoroutinefunction(sync) and inspect.iscoroutinefunction(aio), name
        # Both clients take the same arguments.
        assert inspect.signature(sync).parameters.keys() == inspect.signature(aio).parameters.keys()


def test_every_schema_has_a_model_with_its_fields():
    for name, schema in SPEC["components"]["schemas"].items():
        model = getattr(models, name, None)
        assert model is not None, f"no model {name}: run scripts/client_models.py"
        assert set(model.model_fields) == set(schema.get("properties", {})), name


def test_every_error_code_has_its_exception_class():
    import app.main  # noqa: F401 - loads every module that defines an error
    from app.api import errors as api_errors
    from app.core.errors import HindsightError

    def subclasses(cls: type) -> list[type]:
        return [cls, *[s for sub in cls.__subclasses__() for s in subclasses(sub)]]

    codes = {cls.code for cls in subclasses(HindsightError)}
    codes |= set(api_errors._HTTP_CODES.values()) | {"http_error"}
    source = Path(api_errors.__file__).read_text(encoding="utf-8")
    codes |= set(re.findall(r"\(`([a-z_]+)`\)", source))
    codes |= set(re.findall(r'^\s+"([a-z]+_[a-z_]+)",$', source, re.M))  # problem(..., "code")
    missing = sorted(c for c in codes if c not in errors.ERRORS)
    assert not missing, f"no exception class for {missing}"
    for code, cls in errors.ERRORS.items():
        assert issubclass(cls, errors.HindsightError) and cls.code == code


def test_the_package_installs_from_its_own_pyproject(tmp_path, api_url):
    """`pip install ./clients/python` (no network: the dependencies are the suite's own)."""
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(CLIENT)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    assert (target / "hindsight_client" / "py.typed").exists()
    code = (
        "import sys, hindsight_client as hc\n"
        "assert hc.__file__.startswith(sys.argv[1]), hc.__file__\n"
        "print(hc.Hindsight(sys.argv[2]).health()['status'])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(target), api_url],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


# --- against the service --------------------------------------------------------------------


async def test_sync_client_end_to_end(api_url, make_api_key):
    key = await make_api_key("py-client")
    with hc.Hindsight(api_url, key) as api:
        stored = api.store(
            [
                {"user_id": "alice", "type": "constraint", "value": "Alice is allergic to peanuts",
                 "entities": ["Alice", "peanuts"]},
                models.MemoryCreate(user_id="alice", type="preference",
                                    value="Alice prefers window seats"),
                {"user_id": "alice", "value": "用户住在上海，在一家银行工作。"},
            ]
        )  # fmt: skip
        assert isinstance(stored, models.StoreResponse)
        assert [r.outcome for r in stored.results] == ["created"] * 3
        peanuts = stored.results[0].id

        found = api.recall("what can't Alice eat?", user_id="alice", top_k=1)
        assert isinstance(found, models.RecallResponse)
        assert found.memories[0].id == peanuts and found.memories[0].scores.semantic >= 0

        # Pagination: three pages of one, and the iterator walks them all.
        page = api.list_memories(user_id="alice", limit=1)
        assert len(page.memories) == 1 and page.next_cursor
        assert len({u.id for u in api.iter_memories(user_id="alice", limit=1)}) == 3
        assert [s.id for s in api.iter_subjects(kind="user", limit=1)] == ["alice"]
        assert api.stats().namespace == "py-client"

        updated = api.update_memory(peanuts, value="Alice is allergic to peanuts and cashews")
        assert isinstance(updated, models.UpdateResult)
        detail = api.get_memory(updated.memory.id)
        assert detail.value == "Alice is allergic to peanuts and cashews"
        assert api.memory_history(updated.memory.id).memories

        # TTL: a preference expires 90 days on by default; `expires_at: null` pins it.
        seats = api.get_memory(stored.results[1].id)
        assert seats.expires_at is not None
        assert 89 <= (seats.expires_at - seats.created_at).days <= 90
        api.update_memory(seats.id, expires_at=None)
        assert api.get_memory(seats.id).expires_at is None

        # Working memory → close → extraction job, polled to the end.
        api.append("trip-1", [{"role": "user", "user_id": "bob",
                               "content": "I am allergic to shellfish."}])  # fmt: skip
        assert [m.content for m in api.window("trip-1").messages] == ["I am allergic to shellfish."]
        closed = api.close_session("trip-1")
        job = api.wait_for_job(closed.job.id, timeout_s=60, poll_s=0.2)
        assert job.status == "succeeded", job
        assert any(j.id == job.id for j in api.iter_extraction_jobs(limit=1))
        assert "shellfish" in api.context("bob", query="what can't bob eat?").text

        # Errors come back as the class of their code.
        with pytest.raises(errors.NotFoundError) as missing:
            api.get_memory("0199c0de-0000-7000-8000-000000000000")
        assert missing.value.status == 404 and missing.value.request_id
        with pytest.raises(errors.InvalidRequestError) as invalid:
            api.recall("anything")
        assert invalid.value.code == "invalid_request" and "user_id" in invalid.value.detail

        receipt = api.forget_memory(peanuts)
        assert isinstance(receipt, models.ForgetReceipt)
        assert api.forget_subject(user_id="alice").removed.memory_units == 2
    with hc.Hindsight(api_url, api_key="") as anonymous, pytest.raises(errors.MissingApiKeyError):
        anonymous.stats()
    with hc.Hindsight(api_url, "hs_wrong") as wrong, pytest.raises(errors.UnauthorizedError):
        wrong.stats()


async def test_async_client_end_to_end(api_url, make_api_key):
    key = await make_api_key("py-async")
    async with hc.AsyncHindsight(api_url, key, timeout=30) as api:
        assert (await api.health())["status"] == "ok"
        stored = await api.store([{"user_id": "u1", "value": "The user lives in Lyon"}])
        found = await api.recall("where does the user live?", user_id="u1")
        assert found.memories[0].id == stored.results[0].id
        assert [u.id async for u in api.iter_memories(user_id="u1")] == [stored.results[0].id]
        job = await api.extract(
            wait=True, user_id="u1",
            messages=[{"role": "user", "content": "Please remember that I am vegetarian."}],
        )  # fmt: skip
        assert job.status == "succeeded"
        with pytest.raises(errors.NotFoundError):
            await api.extraction_job("0199c0de-0000-7000-8000-000000000000")


async def test_reviews_listed_and_decided_by_both_clients(api_url, make_api_key):
    key = await make_api_key("py-reviews")
    with hc.Hindsight(api_url, key) as api:
        api.store([{"user_id": "u1", "value": "The user is bilingual in English and French"}])
        new = api.store([{"user_id": "u1", "value": "The user speaks English and French fluently"}])
        [pending] = new.results[0].pending
        page = api.list_reviews(user_id="u1", kind="duplicate")
        assert isinstance(page, models.ReviewPage)
        assert [str(r.id) for r in page.reviews] == [str(pending.review_id)]
        assert api.get_review(str(pending.review_id)).status == "pending"
        decided = api.decide_review(str(pending.review_id), "keep_both")
        assert decided.changed and decided.review.decided_by == "api"
        with pytest.raises(errors.ConflictError):
            api.decide_review(str(pending.review_id), "merge")
    async with hc.AsyncHindsight(api_url, key, timeout=30) as aapi:
        again = await aapi.decide_review(str(pending.review_id), "keep_both")
        assert again.changed is False
        assert (await aapi.list_reviews(status="open")).reviews == []
        assert (await aapi.get_review(str(pending.review_id))).decision == "keep_both"


def test_every_call_by_id_with_a_user_id_scope_takes_it_on_both_clients():
    """An operation on one thing by id whose OpenAPI names a ``user_id`` query parameter
    (the scope: another user's thing is a 404) has a ``user_id`` argument on both clients
    (or ``**params`` that go to the query)."""
    scoped = {
        op["operationId"]
        for path, ops in SPEC["paths"].items()
        for op in ops.values()
        if "{" in path and any(p["name"] == "user_id" and p["in"] == "query"
                               for p in op.get("parameters", []))
    }  # fmt: skip
    assert {"get_review", "decide_review", "get_extraction_job", "retry_extraction_job"} <= scoped
    for op_id in scoped:
        name = hc.OPERATIONS[op_id][2]
        for cls in (hc.Hindsight, hc.AsyncHindsight):
            params = inspect.signature(getattr(cls, name)).parameters
            keywords = [p for p in params.values() if p.kind is p.VAR_KEYWORD]
            assert "user_id" in params or keywords, (cls, name)  # entity(**params) passes it


async def test_calls_by_id_are_scoped_to_a_user(api_url, make_api_key):
    key = await make_api_key("py-scope")
    with hc.Hindsight(api_url, key) as api:
        api.store([{"user_id": "u1", "value": "The user is bilingual in English and French"}])
        new = api.store([{"user_id": "u1", "value": "The user speaks English and French fluently"}])
        [pending] = new.results[0].pending
        review, unit = str(pending.review_id), str(new.results[0].id)
        with pytest.raises(errors.NotFoundError):
            api.get_review(review, user_id="u2")
        with pytest.raises(errors.NotFoundError):
            api.decide_review(review, "keep_both", user_id="u2")
        assert api.get_review(review, user_id="u1").status == "pending"  # nothing changed
        for call in (lambda: api.update_memory(unit, user_id="u2", value="The user speaks Greek"),
                     lambda: api.forget_memory(unit, user_id="u2"),
                     lambda: api.memory_history(unit, user_id="u2")):  # fmt: skip
            with pytest.raises(errors.NotFoundError):
                call()
        assert api.get_memory(unit, user_id="u1").value.endswith("French fluently")
        assert api.memory_history(unit, user_id="u1").memories
        assert api.decide_review(review, "keep_both", user_id="u1").changed

        job = api.extract(wait=True, user_id="u1",
                          messages=[{"role": "user", "content": "I am vegetarian."}])  # fmt: skip
        job_id = str(job.id)
        with pytest.raises(errors.NotFoundError):
            api.extraction_job(job_id, user_id="u2")
        with pytest.raises(errors.NotFoundError):
            api.retry_extraction_job(job_id, user_id="u2")
        assert api.wait_for_job(job_id, user_id="u1", timeout_s=5).status == "succeeded"
        with pytest.raises(errors.ConflictError):  # u1's job, found: it has not failed
            api.retry_extraction_job(job_id, user_id="u1")

        said = [{"role": "user", "user_id": "u1", "content": "I fly to Oslo on Friday."}]
        api.append("scope-s1", said, user_id="u1")
        for call in (lambda: api.window("scope-s1", user_id="u2"),
                     lambda: api.append("scope-s1", said, user_id="u2"),
                     lambda: api.clear_window("scope-s1", user_id="u2"),
                     lambda: api.close_session("scope-s1", user_id="u2")):  # fmt: skip
            with pytest.raises(errors.NotFoundError):
                call()
        assert len(api.window("scope-s1", user_id="u1").messages) == 1  # nothing changed
    async with hc.AsyncHindsight(api_url, key, timeout=30) as aapi:
        with pytest.raises(errors.NotFoundError):
            await aapi.extraction_job(job_id, user_id="u2")
        with pytest.raises(errors.NotFoundError):
            await aapi.get_review(review, user_id="u2")
        assert (await aapi.extraction_job(job_id, user_id="u1")).status == "succeeded"


async def test_a_write_keeps_its_idempotency_key_across_retries(api_url, make_api_key):
    key = await make_api_key("py-idem")
    body = [{"user_id": "u1", "value": "The user's locker number is 4711"}]
    with hc.Hindsight(api_url, key) as api:
        first = api.store(body, idempotency_key="idem-1")
        replay = api.store(body, idempotency_key="idem-1")
        assert replay.results[0].id == first.results[0].id
        assert replay.results[0].outcome == first.results[0].outcome == "created"
        with pytest.raises(errors.IdempotencyKeyReusedError):
            api.store([{"user_id": "u1", "value": "something else"}], idempotency_key="idem-1")
        assert len(list(api.iter_memories(user_id="u1"))) == 1


async def test_retries_honour_retry_after_on_429(settings, make_api_key):
    app = create_app(settings.model_copy(update={
        "auth": AuthSettings(required="true", cache_ttl_s=0, rate_limit="2/second")}))  # fmt: skip
    key = await make_api_key("py-rate")
    with serve(app) as url:
        with hc.Hindsight(url, key, retries=hc.NO_RETRIES) as api:
            with pytest.raises(errors.RateLimitedError) as limited:
                for _ in range(5):
                    api.stats()
            assert limited.value.retry_after_s and limited.value.retry_after_s >= 1
        # With the default policy the same burst succeeds: each 429 waits its Retry-After.
        with hc.Hindsight(url, key, retries=hc.RetryPolicy(attempts=4)) as api:
            assert all(api.stats().namespace == "py-rate" for _ in range(5))


def test_unreachable_service_is_a_typed_transport_error():
    with (
        hc.Hindsight("http://127.0.0.1:9", retries=hc.RetryPolicy(attempts=2, backoff_s=0.01))
        as api,
        pytest.raises(errors.ConnectionFailedError) as failed,
    ):  # fmt: skip
        api.health()
    assert failed.value.code == "api_unreachable" and isinstance(failed.value, hc.HindsightError)
    assert isinstance(httpx.Timeout(1), httpx.Timeout)


async def test_a_batch_over_the_token_budget_is_split_where_the_service_says(api_url, make_api_key):
    key = await make_api_key("py-split")
    names = ["Anna", "Boris", "Chen", "Dara", "Emil", "Fatima", "Goran", "Hana", "Ivo", "Jun"]
    skills = ["bake sourdough bread", "repair an old bicycle", "play the cello in a quartet",
              "sail a small dinghy"]  # fmt: skip
    facts = [
        {"user_id": "u-split", "value": f"{name} taught the user to {skill} during a long "
                                        f"weekend at the lake house near the northern border."}
        for name in names for skill in skills
    ]  # fmt: skip
    with hc.Hindsight(api_url, key) as api:
        with pytest.raises(errors.InvalidRequestError) as refused:
            api.store(facts, split=False)
        [problem] = refused.value.errors
        assert problem["type"] == "too_many_tokens" and len(problem["item_tokens"]) == 40
        assert list(api.iter_memories(user_id="u-split")) == []  # the refused batch wrote nothing
        stored = api.store(facts, idempotency_key="split-1")
        assert len(stored.results) == 40  # one result per unit, in the order given
        values = {u.id: u.value for u in api.iter_memories(user_id="u-split")}
        created = [(r, f) for r, f in zip(stored.results, facts, strict=True)
                   if r.outcome == "created"]  # fmt: skip
        assert len(created) >= 20 and all(values[r.id] == f["value"] for r, f in created)
        again = api.store(facts, idempotency_key="split-1")  # the same call: replayed parts
        assert [r.id for r in again.results] == [r.id for r in stored.results]
        with pytest.raises(errors.InvalidRequestError):  # one unit alone over it: not split
            api.store([{"user_id": "u-split", "value": "word " * 600}, facts[0]])
    async with hc.AsyncHindsight(api_url, key, timeout=30) as aapi:
        moved = [{**f, "user_id": "u-split-2"} for f in facts]
        assert len((await aapi.store(moved)).results) == 40
    assert hc.Hindsight.store.__doc__ and "split" in hc.Hindsight.store.__doc__


async def test_an_append_over_the_token_budget_is_split_where_the_service_says(
    api_url, make_api_key
):
    key = await make_api_key("py-append-split")
    # 30 tool outputs of ~40 model tokens each: ~1,200 tokens of embedding windows, over the
    # 384 one append may have embedded (LIMITS__REQUEST_TOKENS).
    messages = [
        {"role": "tool", "content": f"step {i}: the build of module {i} finished in {i * 7} "
                                    f"seconds with 0 warnings and {i} skipped tests."}
        for i in range(30)
    ]  # fmt: skip
    with hc.Hindsight(api_url, key) as api:
        with pytest.raises(errors.InvalidRequestError) as refused:
            api.append("py-split", messages, split=False)
        [problem] = refused.value.errors
        assert problem["type"] == "too_many_tokens" and len(problem["item_tokens"]) == 30
        assert api.window("py-split").window_messages == 0  # the refused append wrote nothing
        appended = api.append("py-split", messages)
        assert appended.seqs == list(range(1, 31)) and len(appended.tokens) == 30
        assert appended.session.messages == 30
        window = api.window("py-split", max_tokens=100_000)
        assert [m.content for m in window.messages] == [m["content"] for m in messages]
    async with hc.AsyncHindsight(api_url, key, timeout=30) as aapi:
        again = await aapi.append("py-split-2", messages)
        assert again.seqs == list(range(1, 31))
    assert hc.Hindsight.append.__doc__ and "split" in hc.Hindsight.append.__doc__


async def test_more_than_100_items_are_split_into_parts_of_100(api_url, make_api_key):
    """Tester hbreak7 H13: ``append(split=True)`` of 150 messages raised the 422 (at most 100
    items a request) instead of splitting; the 422 now says its ``limit``."""
    key = await make_api_key("py-many")
    messages = [{"role": "user", "content": f"ok {i}"} for i in range(150)]
    units = [
        {"user_id": "u-many", "value": f"Room {i} is booked for the user."} for i in range(105)
    ]
    with hc.Hindsight(api_url, key) as api:
        with pytest.raises(errors.InvalidRequestError) as refused:
            api.append("py-many", messages, split=False)
        assert refused.value.errors[0]["type"] == "too_long"
        assert refused.value.errors[0]["limit"] == 100
        appended = api.append("py-many", messages)
        assert appended.seqs == list(range(1, 151)) and appended.session.messages == 150
        stored = api.store(units)
        assert len(stored.results) == 105
    async with hc.AsyncHindsight(api_url, key, timeout=30) as aapi:
        again = await aapi.append("py-many-2", messages)
        assert again.seqs == list(range(1, 151))


class _Recording(httpx.BaseTransport):
    """Real HTTP; records each answer's status, and from the ``fail_from``-th request on
    answers none (the connection fails), as a service gone mid-call."""

    def __init__(self, fail_from: int | None = None) -> None:
        self.inner = httpx.HTTPTransport()
        self.statuses: list[int] = []
        self.fail_from = fail_from

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self.fail_from is not None and len(self.statuses) >= self.fail_from:
            raise httpx.ConnectError("injected: the service is gone", request=request)
        response = self.inner.handle_request(request)
        self.statuses.append(response.status_code)
        return response

    def close(self) -> None:
        self.inner.close()


async def test_a_split_append_counts_a_repeated_text_in_each_part_that_lacks_it(
    api_url, make_api_key
):
    """The 422 counts a text repeated in the request at its first copy only (its repeats
    show 0): the client's split counts each part's distinct texts, a repeat paying its text
    again in a part without its first copy, so the parts fit at once (issue 31, F2)."""
    key = await make_api_key("py-repeat-split")
    long = "Tool log: " + "build step finished with exit code 0; " * 60  # window: 384 tokens
    messages = [{"role": "tool", "content": c} for c in (long, "short note", long, "ok", long)]
    recording = _Recording()
    with hc.Hindsight(api_url, key, transport=recording) as api:
        appended = api.append("py-repeat", messages)
        window = api.window("py-repeat", max_tokens=100_000)
    assert appended.seqs == [1, 2, 3, 4, 5]
    assert [m.content for m in window.messages] == [m["content"] for m in messages]
    # The refused whole, then one request per part; every text of 384 tokens alone in its
    # part (the parts are consecutive: no fewer is possible), and no 422 after the first.
    assert recording.statuses[0] == 422
    assert recording.statuses[1:6] == [200] * 5 and len(recording.statuses) == 7  # + window


async def test_a_split_append_that_fails_part_way_says_what_it_wrote(api_url, make_api_key):
    """A split append is not atomic: when part k fails, the error carries the joined answer
    of the parts already appended (`written`, with their seqs), so the caller appends only
    the rest again; the same for a split store (issue 31, F7)."""
    key = await make_api_key("py-split-written")
    notes = [f"step {i}: " + "the build finished with exit code 0 " * 16 for i in range(6)]
    messages = [{"role": "tool", "content": c} for c in notes]  # ~115 model tokens each
    failing = _Recording(fail_from=2)  # the 422, then the first part; the second fails
    once = hc.RetryPolicy(attempts=1)
    with (
        hc.Hindsight(api_url, key, transport=failing, retries=once) as api,
        pytest.raises(errors.TransportError) as failed,
    ):
        api.append("py-written", messages)
    assert failing.statuses == [422, 200]
    written = failed.value.written
    assert isinstance(written, models.AppendResponse) and 0 < len(written.seqs) < 6
    with hc.Hindsight(api_url, key) as api:
        window = api.window("py-written", max_tokens=100_000)
        assert [m.seq for m in window.messages] == written.seqs
        assert [m.content for m in window.messages] == notes[: len(written.seqs)]
        rest = api.append("py-written", messages[len(written.seqs) :])
        assert written.seqs + rest.seqs == list(range(1, 7))
    facts = [
        {"user_id": "u-written", "value": f"fact {i}: " + "the user keeps notes on trains " * 8}
        for i in range(8)
    ]
    failing = _Recording(fail_from=2)
    with (
        hc.Hindsight(api_url, key, transport=failing, retries=once) as api,
        pytest.raises(errors.TransportError) as failed,
    ):
        api.store(facts)
    assert failing.statuses == [422, 200]
    stored = failed.value.written
    assert isinstance(stored, models.StoreResponse) and 0 < len(stored.results) < len(facts)
    assert hc.Hindsight.append.__doc__ and "written" in hc.Hindsight.append.__doc__


def test_the_python_client_paragraph_says_where_the_errors_are():
    # Tester C21a: "one exception class per error code (NotFoundError, …)" and
    # `from hindsight_client import NotFoundError` was an ImportError.
    import importlib

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Python client")[1].split("\n## ")[0]
    where = re.search(r"`from (hindsight_client[\w.]*) import (\w+Error)`", section)
    assert where, "the README shows the import of an error class"
    module = importlib.import_module(where.group(1))
    for name in {where.group(2), *re.findall(r"`(\w+Error)`", section)}:
        assert issubclass(getattr(module, name), hc.HindsightError), name
    # Its example prints what compares across queries (C21c): relevance, not score alone.
    assert "hit.relevance" in section.split("```python")[1].split("```")[0]
