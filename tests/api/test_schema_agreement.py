"""The published OpenAPI document and the validation agree (a fuzzing pass found the schema
looser than the API): integers are integers, never-blank strings say so, an empty PATCH is
refused by both, and recall's subject rule is in the document. Bad input is a 422
problem+json that changes nothing."""

from __future__ import annotations

import re
import sys
import unicodedata
from typing import Any

import pytest

from app.schemas.common import NOT_BLANK_PATTERN, VISIBLE_PATTERN, not_blank
from tests.api.test_validation import assert_problem, unit
from tests.conftest import count_rows


async def _spec(client) -> dict[str, Any]:
    return (await client.get("/openapi.json")).json()


def _string_schema(prop: dict[str, Any]) -> dict[str, Any]:
    """The string alternative of a property (``anyOf`` with null, or an array's items)."""
    if "anyOf" in prop:
        [prop] = [alt for alt in prop["anyOf"] if alt.get("type") != "null"]
    if prop.get("type") == "array":
        prop = prop["items"]
    assert prop["type"] == "string", prop
    return prop


def test_the_not_blank_pattern_is_exactly_the_validators_rule():
    # Every code point: the pattern finds a character iff not_blank accepts it (str.strip()
    # leaves one and it is not a zero-width character: tester D8).
    pattern = re.compile(NOT_BLANK_PATTERN)
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        try:
            accepted = bool(not_blank(char))
        except ValueError:
            accepted = False
        assert (pattern.search(char) is not None) == accepted, hex(code)
    assert not pattern.search("\u200b \ufeff\u2060")


# Characters that draw blank though Unicode gives them a visible category (tester H21), and the
# format characters that do draw a sign (the prepended concatenation marks).
_BLANK_LOOKING = set("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0")
_BLANK_LOOKING |= {chr(c) for c in range(0xFE00, 0xFE10)}
_SIGNS = set("\u0600\u0601\u0602\u0603\u0604\u0605\u06dd\u070f\u0890\u0891\u08e2")


def test_the_visible_pattern_is_the_unicode_rule():
    # Every character of the Basic Multilingual Plane (surrogates aside: refused before): the
    # pattern finds it iff it is no whitespace, zero-width, control or invisible format
    # character and draws something.
    pattern = re.compile(VISIBLE_PATTERN)
    for code in [*range(0xD800), *range(0xE000, 0x10000)]:
        char = chr(code)
        try:
            blank = not not_blank(char)
        except ValueError:
            blank = True
        kind = unicodedata.category(char)
        invisible = blank or kind == "Cc" or (kind == "Cf" and char not in _SIGNS)
        invisible = invisible or char in _BLANK_LOOKING
        assert (pattern.search(char) is None) == invisible, hex(code)
    assert pattern.search("\U0001f600") and pattern.search("用户") and pattern.search("x\u202e")


VISIBLE_FIELDS = [
    ("MemoryCreate", "value"),
    ("MemoryUpdate", "value"),
    ("MemoryCreate", "entities"),
    ("MemoryUpdate", "entities"),
    ("RecallRequest", "query"),
    ("RecallRequest", "entities"),
    ("MessageCreate", "content"),
]


@pytest.mark.parametrize(("model", "field"), VISIBLE_FIELDS)
async def test_values_say_they_need_visible_text_in_the_schema(client, model, field):
    prop = (await _spec(client))["components"]["schemas"][model]["properties"][field]
    string = _string_schema(prop)
    assert string["minLength"] == 1
    assert string["pattern"] == VISIBLE_PATTERN


BLANK_FIELDS = [
    ("MemoryCreate", "user_id"),
    ("MemoryCreate", "session_id"),
    ("RecallRequest", "user_id"),
    ("RecallRequest", "agent_id"),
    ("RecallRequest", "session_id"),
]


@pytest.mark.parametrize(("model", "field"), BLANK_FIELDS)
async def test_never_blank_strings_say_so_in_the_schema(client, model, field):
    prop = (await _spec(client))["components"]["schemas"][model]["properties"][field]
    string = _string_schema(prop)
    assert string["minLength"] == 1
    assert string["pattern"] == NOT_BLANK_PATTERN


@pytest.mark.parametrize("blank", ["", " ", "\t\n", "\u3000"])
@pytest.mark.parametrize("field", ["value", "user_id", "session_id"])
async def test_blank_store_fields_are_a_422_that_writes_nothing(client, engine, field, blank):
    r = await client.post("/store", json={"memories": [unit(**{field: blank})]})
    assert_problem(r, 422, "invalid_request", f"memories.0.{field}")
    assert await count_rows(engine) == 0


@pytest.mark.parametrize("blank", ["", "  ", "\u00a0"])
@pytest.mark.parametrize("field", ["query", "user_id"])
async def test_blank_recall_fields_are_a_422(client, field, blank):
    body = {"query": "tea", "user_id": "u1", field: blank}
    assert_problem(await client.post("/recall", json=body), 422, "invalid_request", field)


# Every integer of a JSON body (model, field, the operation and a valid body to put it in):
# the schema says integer, and 25.0 is refused like 25.5.
BODY_INTEGERS = [
    ("RecallRequest", "top_k", "/recall", {"query": "tea", "user_id": "u1"}),
    ("RecallRequest", "rerank_candidates", "/recall", {"query": "tea", "user_id": "u1"}),
    ("SummarizeRequest", "min_group", "/summarize", {"user_id": "u1"}),
]


@pytest.mark.parametrize(("model", "field", "path", "body"), BODY_INTEGERS)
async def test_integral_floats_are_not_integers(client, engine, model, field, path, body):
    await client.post("/store", json={"memories": [unit()]})
    prop = (await _spec(client))["components"]["schemas"][model]["properties"][field]
    types = {alt.get("type") for alt in prop.get("anyOf", [prop])} - {"null"}
    assert types == {"integer"}
    r = await client.post(path, json={**body, field: 25.0})
    assert_problem(r, 422, "invalid_request", f"{field}: must be an integer, got a number")
    assert await count_rows(engine) == 1


def _body_schemas(spec: dict[str, Any]) -> set[str]:
    """Components reachable from a request body."""
    schemas = spec["components"]["schemas"]
    todo = re.findall(r"#/components/schemas/(\w+)", str(_request_bodies(spec)))
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += re.findall(r"#/components/schemas/(\w+)", str(schemas[name]))
    return seen


def _request_bodies(spec: dict[str, Any]) -> list[Any]:
    return [
        op["requestBody"]
        for item in spec["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and "requestBody" in op
    ]


async def test_every_request_body_integer_is_listed_above(client):
    # A new integer field of a body joins BODY_INTEGERS (and is strict: RequestModel).
    spec = await _spec(client)
    found = {
        (name, field)
        for name in _body_schemas(spec)
        for field, prop in spec["components"]["schemas"][name].get("properties", {}).items()
        if any(alt.get("type") == "integer" for alt in prop.get("anyOf", [prop]))
    }
    assert found == {(model, field) for model, field, _, _ in BODY_INTEGERS}


async def test_an_empty_patch_is_refused_by_the_schema_and_the_api(client, engine):
    schema = (await _spec(client))["components"]["schemas"]["MemoryUpdate"]
    assert schema["minProperties"] == 1
    r = await client.post("/store", json={"memories": [unit()]})
    unit_id = r.json()["results"][0]["id"]
    before = (await client.get(f"/memories/{unit_id}")).json()
    r = await client.patch(f"/memories/{unit_id}", json={})
    assert_problem(r, 422, "invalid_request", "send at least one field to change")
    assert (await client.get(f"/memories/{unit_id}")).json() == before
    assert await count_rows(engine) == 1


async def test_recall_says_which_subject_it_needs(client):
    description = (await _spec(client))["components"]["schemas"]["RecallRequest"]["description"]
    for name in ("user_id", "agent_id", "session_id"):
        assert name in description
    assert "at least one" in description
    r = await client.post("/recall", json={"query": "tea"})
    assert_problem(r, 422, "invalid_request", "give at least one of user_id, agent_id, session_id")
