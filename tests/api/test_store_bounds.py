"""What ``/store`` holds is bounded and readable: a unit's ``metadata`` is at most
``LIMITS__METADATA_BYTES`` as JSON (tester H20: six units of 1 MB of metadata made a 6 MB
``/recall`` answer), and a value must have visible text (H21: values of only U+202E, U+3164,
U+2800 or zero-width spaces were stored). Each refusal is a 422 problem+json that writes
nothing."""

from __future__ import annotations

import json

import pytest

from tests.api.test_validation import assert_problem, unit
from tests.conftest import count_rows

LIMIT = 16_384


def _metadata_of(size: int, char: str = "x") -> dict[str, str]:
    """A metadata object of exactly ``size`` bytes as compact UTF-8 JSON."""
    width = len(char.encode())
    pad = (size - len('{"note":""}')) // width
    meta = {"note": char * pad}
    assert len(json.dumps(meta, ensure_ascii=False, separators=(",", ":")).encode()) == size
    return meta


async def test_metadata_at_the_limit_is_stored(client, engine):
    r = await client.post("/store", json={"memories": [unit(metadata=_metadata_of(LIMIT))]})
    assert r.status_code == 200, r.text
    assert await count_rows(engine) == 1


@pytest.mark.parametrize(
    "metadata",
    [_metadata_of(LIMIT + 1), _metadata_of(900_000), _metadata_of(18_011, "用")],
    ids=["one byte over", "900 kB", "6,000 Chinese characters (18,011 bytes)"],
)
async def test_metadata_over_the_limit_is_a_422_that_writes_nothing(client, engine, metadata):
    size = len(json.dumps(metadata, ensure_ascii=False, separators=(",", ":")).encode())
    good = unit(value="The user likes green tea")
    r = await client.post("/store", json={"memories": [good, unit(metadata=metadata)]})
    body = assert_problem(
        r, 422, "invalid_request", "memories.1.metadata", "at most 16,384 bytes", f"{size:,}"
    )
    assert "LIMITS__METADATA_BYTES" in body["detail"]
    assert await count_rows(engine) == 0


INVISIBLE = [
    ("right-to-left override", "\u202e"),
    ("Hangul filler", "\u3164\u3164\u3164"),
    ("braille blank", "\u2800"),
    ("zero-width space and override", "\u200b\u202e\u200b"),
    ("Hangul half-width filler and spaces", "\uffa0 \u115f \u1160"),
    ("bidi isolates and marks", "\u2066\u200e\u2069\u200f"),
    ("soft hyphen and variation selector", "\u00ad\ufe0f"),
]


@pytest.mark.parametrize("value", [c[1] for c in INVISIBLE], ids=[c[0] for c in INVISIBLE])
async def test_a_value_without_visible_text_is_a_422_that_writes_nothing(client, engine, value):
    r = await client.post("/store", json={"memories": [unit(value=value)]})
    assert_problem(r, 422, "invalid_request", "memories.0.value", "no visible text")
    assert await count_rows(engine) == 0


async def test_a_correction_to_an_invisible_value_is_refused(client, engine):
    r = await client.post("/store", json={"memories": [unit(value="The user likes green tea")]})
    assert r.status_code == 200, r.text
    unit_id = r.json()["results"][0]["memory"]["id"]
    r = await client.patch(f"/memories/{unit_id}", json={"value": "\u3164\u2800"})
    assert_problem(r, 422, "invalid_request", "value", "no visible text")
    r = await client.get(f"/memories/{unit_id}")
    assert r.json()["value"] == "The user likes green tea"


async def test_visible_text_among_invisible_characters_is_stored(client, engine):
    value = "\u202eThe user likes green tea\u3164"
    r = await client.post("/store", json={"memories": [unit(value=value)]})
    assert r.status_code == 200, r.text
    assert r.json()["results"][0]["memory"]["value"] == value


async def test_merges_do_not_grow_a_units_metadata_without_bound(client):
    """Tester hbreak9 K8: each restatement's metadata joined the survivor's, so twelve
    /store calls of one fact made a 7.2 MB unit. Keys join only while the whole stays
    within 16,384 bytes."""
    ids = set()
    for i in range(5):
        body = {
            "memories": [unit(value="The user likes oolong tea", metadata={f"k{i}": "x" * 9_000})]
        }
        r = await client.post("/store", json=body)
        assert r.status_code == 200, r.text
        ids.add(r.json()["results"][0]["id"])
    [kept] = ids
    meta = (await client.get(f"/memories/{kept}")).json()["metadata"]
    assert "k0" in meta  # the first unit's own metadata stays
    assert len(json.dumps(meta, ensure_ascii=False, separators=(",", ":")).encode()) <= LIMIT
