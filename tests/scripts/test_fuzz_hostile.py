"""A small version of scripts/fuzz_hostile.py (issue 31), in-process on the shipped limits:
sizes at and around every limit, every method a path does not take, bodies without a JSON
Content-Type: no 5xx, every error problem+json, every limit answered as expected. (The
script adds the Unicode pass, ~730 requests, runs over HTTP against a started service and
writes the table of docs/RELIABILITY.md; tests/api/test_identifiers.py and
tests/api/test_fuzz_regressions.py hold the Unicode cases it found.)"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import fuzz_hostile  # noqa: E402


async def test_limits_methods_and_content_types_get_the_expected_answers(client):
    p = fuzz_hostile.Probe(client)
    r = await client.post("/store", json={"memories": [{"user_id": "fz", "value": "seed"}]})
    unit_id = r.json()["results"][0]["id"]
    spec = (await client.get("/openapi.json")).json()
    await fuzz_hostile.limits_pass(p)
    fuzz_hostile.strip_ct(p)
    await fuzz_hostile.methods_pass(p, spec, unit_id)
    assert sum(p.count.values()) > 150
    assert p.failures == []
    assert not [s for a in p.answers.values() for s in a if not s.isdigit() or s >= "500"]
