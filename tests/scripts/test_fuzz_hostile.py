"""A small version of scripts/fuzz_hostile.py (issue 31), in-process on the shipped limits:
sizes at and around every limit, every method a path does not take, bodies without a JSON
Content-Type, and a sample of the Unicode pass (five of its thirteen cases in every string
field of every operation: body, query string, path): no 5xx, every error problem+json, every
answer the expected one. (The script runs every Unicode case, ~730 requests, over HTTP
against a started service and writes the table of docs/RELIABILITY.md;
tests/api/test_identifiers.py and tests/api/test_fuzz_regressions.py hold the Unicode cases
it found.)"""

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


# An emoji ZWJ sequence (a ZWJ inside: refused by ids, kept by text), combining marks (kept
# everywhere), a bidi control (refused by ids), NUL (refused everywhere) and a lone surrogate
# (a 422 in a JSON body, a 400 as invalid UTF-8 in a URL).
SAMPLE = ["emoji ZWJ sequence", "combining marks", "bidi override U+202E", "NUL", "lone surrogate"]


async def test_unicode_in_every_string_field_gets_the_expected_answer(client):
    p = fuzz_hostile.Probe(client)
    r = await client.post("/store", json={"memories": [{"user_id": "fz", "value": "seed"}]})
    unit_id = r.json()["results"][0]["id"]
    await fuzz_hostile.unicode_pass(p, unit_id, cases=SAMPLE)
    fields = sum(len(f) for *_, f in fuzz_hostile.BODY_OPS) + sum(
        len(base) + len(extra) for *_, base, extra in fuzz_hostile.QUERY_OPS
    )
    assert sum(p.count.values()) == len(SAMPLE) * (fields + len(fuzz_hostile.PATH_OPS))
    assert p.failures == []
    answers = {s for a in p.answers.values() for s in a}
    assert answers <= {"200", "202", "400", "422"}, answers
    # Each kind of field was both admitted and refused.
    for kind in ("Unicode in body strings", "Unicode in query strings",
                 "Unicode in path session ids"):  # fmt: skip
        assert p.answers[kind]["200"] and p.answers[kind]["422"], (kind, p.answers[kind])
