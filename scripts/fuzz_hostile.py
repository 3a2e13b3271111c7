"""Hostile input beyond schemathesis (issue 31): Unicode edge cases in every string field,
sizes at and around every limit, wrong methods and wrong content types, against the real
service over HTTP.

schemathesis (tests/test_fuzz_openapi.py) generates requests from the OpenAPI document; this
pass sends what a document does not describe: emoji ZWJ sequences, combining marks, bidi
controls, NUL, lone surrogates (``\\ud800`` in JSON, invalid UTF-8 in a URL), BOM,
noncharacters and zero-width characters in each string field of each operation (body, query
string and path); each limit at, just under and just over it (characters, model tokens,
items, bytes, nesting, numbers); every method a path does not take; and a body sent without a
JSON Content-Type. Every answer must be a 2xx or a 4xx problem+json: a 5xx, a timeout or a
non-problem error is a failure.

For the /store requests admitted at the limits, the ``embed`` stage of their
``Server-Timing`` header is the embedder's time for the whole request (the worst is reported).

``python3 scripts/fuzz_hostile.py [--write-doc]``: prints the table (kind, requests, worst
latency, answers) and with ``--write-doc`` writes it into docs/RELIABILITY.md ("Hostile
input").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from benchkit.docsection import write_block  # noqa: E402
from benchkit.server import service  # noqa: E402
from benchkit.timing import uptime_line  # noqa: E402

FAMILY = "👩\u200d👩\u200d👧\u200d👦"
# Each case is a JSON string literal's body (so a lone surrogate can be sent as \ud800).
UNICODE = {
    "emoji ZWJ sequence": FAMILY + " family",
    "combining marks": "e" + "\u0301" * 40 + "x",
    "long grapheme (500 combining marks)": "a" + "\u0301" * 500,
    "bidi override U+202E": "invoice\u202egnp.exe",
    "bidi isolate U+2067": "\u2067abc\u2069",
    "zero-width space": "a\u200bb",
    "BOM": "\ufeffbom",
    "noncharacter U+FFFF": "a\uffffb",
    "tag characters": "x\U000e0041\U000e0042",
    "NUL": "a\x00b",
    "lone surrogate": "\\ud800",  # raw JSON escape
    "right-to-left text": "مرحبا بالعالم",
    "CJK": "用户住在上海",
}


def jstr(case: str) -> str:
    """A JSON string literal of ``case`` (a lone surrogate stays an escape)."""
    if case == "\\ud800":
        return '"x\\ud800y"'
    return json.dumps(case, ensure_ascii=False)


class Probe:
    """Sends requests, records per kind: count, worst latency, answers; failures."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self.count: Counter[str] = Counter()
        self.worst: dict[str, float] = defaultdict(float)
        self.answers: dict[str, Counter[str]] = defaultdict(Counter)
        self.failures: list[str] = []
        self.embed_ms: list[tuple[float, str]] = []

    async def send(
        self,
        kind: str,
        method: str,
        url: str,
        *,
        content: bytes | str | None = None,
        headers: dict[str, str] | None = None,
        expect: set[int] | None = None,
        label: str = "",
    ) -> httpx.Response | None:
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogatepass")
        h = {"content-type": "application/json"} if content is not None else {}
        h.update(headers or {})
        t0 = time.perf_counter()
        try:
            r = await self.client.request(method, url, content=content, headers=h)
        except httpx.HTTPError as exc:
            self.count[kind] += 1
            self.answers[kind][type(exc).__name__] += 1
            self.failures.append(f"{kind}: {method} {url[:80]} {label}: {type(exc).__name__}")
            return None
        ms = (time.perf_counter() - t0) * 1000.0
        self.count[kind] += 1
        self.worst[kind] = max(self.worst[kind], ms)
        self.answers[kind][str(r.status_code)] += 1
        problem = r.headers.get("content-type", "").startswith("application/problem+json")
        if r.status_code >= 500 or (r.status_code >= 400 and not problem):
            self.failures.append(f"{kind}: {method} {url[:80]} {label}: {r.status_code}")
        elif expect is not None and r.status_code not in expect:
            self.failures.append(
                f"{kind}: {method} {url[:80]} {label}: {r.status_code}, expected {expect}"
            )
        timing = r.headers.get("server-timing", "")
        m = re.search(r"embed;dur=([0-9.]+)", timing)
        if m and r.status_code == 200 and url == "/store":
            self.embed_ms.append((float(m.group(1)), label))
        return r


# Operations with their string fields: (method, url template, body template with {F}
# placeholders standing for a JSON string literal, field names).
BODY_OPS: list[tuple[str, str, str, list[str]]] = [
    ("POST", "/store",
     '{"memories": [{"user_id": {user_id}, "agent_id": {agent_id}, "session_id": {session_id},'
     ' "task_id": {task_id}, "value": {value}, "query": {query}, "entities": [{entity}],'
     ' "raw_ref": [{raw_ref}], "metadata": {"note": {note}, {key}: 1}}]}',
     ["user_id", "agent_id", "session_id", "task_id", "value", "query", "entity", "raw_ref",
      "note", "key"]),
    ("POST", "/recall",
     '{"query": {query}, "user_id": {user_id}, "agent_id": {agent_id}, '
     '"session_id": {session_id}, "entities": [{entity}]}',
     ["query", "user_id", "agent_id", "session_id", "entity"]),
    ("POST", "/working_memory/fz-s/messages",
     '{"messages": [{"role": "user", "content": {content}, "name": {name}, '
     '"user_id": {user_id}, "metadata": {"note": {note}}}]}',
     ["content", "name", "user_id", "note"]),
    ("POST", "/working_memory/fz-s/close",
     '{"user_id": {user_id}, "agent_id": {agent_id}, "task_id": {task_id}, '
     '"timezone": {timezone}}',
     ["user_id", "agent_id", "task_id", "timezone"]),
    ("POST", "/extract",
     '{"user_id": {user_id}, "messages": [{"role": "user", "content": {content}, '
     '"name": {name}, "metadata": {"note": {note}}}], "timezone": {timezone}}',
     ["user_id", "content", "name", "note", "timezone"]),
    ("POST", "/summarize", '{"user_id": {user_id}, "agent_id": {agent_id}, "entity": {entity}}',
     ["user_id", "agent_id", "entity"]),
    ("PATCH", "/memories/{unit}", '{"value": {value}, "query": {query}, "entities": [{entity}]}',
     ["value", "query", "entity"]),
]  # fmt: skip
DEFAULTS = {"timezone": "UTC", "key": "k"}
# (method, url, the parameters of a valid request, parameters sent only when under test).
QUERY_OPS: list[tuple[str, str, dict[str, str], dict[str, str]]] = [
    ("GET", "/working_memory/fz-s", {"query": "q"}, {}),
    ("GET", "/memories", {"user_id": "u", "agent_id": "a", "session_id": "s", "entities": "e"},
     {"cursor": "c"}),
    # The body pass stored units of fz-user_id in each session id case (its sessions now).
    ("GET", "/context", {"user_id": "fz-user_id", "session_id": "s", "query": "q"}, {}),
    ("GET", "/subjects", {"kind": "session", "prefix": "p"}, {"user_id": "u", "cursor": "c"}),
    ("GET", "/stats", {"user_id": "u", "agent_id": "a"}, {}),
    ("GET", "/extract", {"user_id": "u", "session_id": "s"}, {"cursor": "c"}),
]  # fmt: skip
PATH_OPS = [
    ("POST", "/working_memory/{}/messages", '{"messages": [{"role": "user", "content": "hi"}]}'),
    ("GET", "/working_memory/{}", None),
    ("DELETE", "/working_memory/{}", None),
    ("POST", "/working_memory/{}/close", '{"user_id": "fz-user_id"}'),  # the body pass's user
]


def fill(template: str, values: dict[str, str]) -> str:
    out = template
    for name, literal in values.items():
        out = out.replace("{" + name + "}", literal)
    return out


def url_value(case: str) -> str:
    """A query-string or path value: percent-encoded UTF-8; a lone surrogate as the
    invalid UTF-8 it would be (ED A0 80)."""
    if case == "\\ud800":
        return "x%ED%A0%80y"
    return quote(case, safe="")


# What each field does with each Unicode case. Ids (and a session id in the path) refuse
# control, bidi, invisible (a ZWJ inside an emoji sequence too) and noncharacters with a 422;
# text keeps every character but NUL; fields of a closed vocabulary (a time zone, a subject
# kind) and opaque cursors take none of them. A lone surrogate is a 422 in a JSON body and,
# as the invalid UTF-8 it would be in a URL, a 400. (A grapheme of 500 combining marks is
# over most fields' length or token limits: a 422 for those.)
IDS = {"user_id", "agent_id", "session_id", "task_id", "path"}
CLOSED = {"timezone", "kind", "cursor"}
OK = {200, 202}
# Text fields long enough (in characters) and not embedded: they take a grapheme of 500 marks.
LONG_OK = {"content", "note", "key"}
REFUSED_BY_IDS = {"bidi override U+202E", "bidi isolate U+2067", "zero-width space", "BOM",
                  "noncharacter U+FFFF", "tag characters", "NUL", "emoji ZWJ sequence"}  # fmt: skip


def expected(field: str, case: str, in_url: bool) -> set[int]:
    """The answers a Unicode ``case`` in ``field`` must get (:data:`IDS`, :data:`CLOSED`)."""
    if case == "\\ud800":
        return {400} if in_url else {422}
    if field in CLOSED:
        return {422}
    if UNICODE_NAMES[case].startswith("long grapheme") and field not in LONG_OK:
        return {422}  # 501 characters and 505 model tokens: over a length or token limit
    if field in IDS:
        return {422} if UNICODE_NAMES[case] in REFUSED_BY_IDS else OK
    return {422} if case == UNICODE["NUL"] else OK


UNICODE_NAMES = {v: k for k, v in UNICODE.items()}


async def unicode_pass(p: Probe, unit_id: str, cases: list[str] | None = None) -> None:
    """Each case of :data:`UNICODE` (or those named in ``cases``) in each string field of
    each operation; every answer checked against :func:`expected`."""
    chosen = {n: c for n, c in UNICODE.items() if cases is None or n in cases}
    for method, url, template, fields in BODY_OPS:
        url = url.replace("{unit}", unit_id)
        for field in fields:
            for i, (name, case) in enumerate(chosen.items()):
                values = {f: jstr(DEFAULTS.get(f, f"fz-{f}")) for f in fields}
                values[field] = jstr(case)
                # A session belongs to the first user_id appended or stored with it (another
                # one is refused): a user_id case appends to, closes and stores in a session
                # of its own.
                to = url.replace("fz-s", f"fz-s-u{i}") if field == "user_id" else url
                if field == "user_id" and "session_id" in values:
                    values["session_id"] = jstr(f"fz-session_id-u{i}")
                await p.send("Unicode in body strings", method, to, content=fill(template, values),
                             expect=expected(field, case, False),
                             label=f"{field}={name}")  # fmt: skip
    for method, url, base, extra in QUERY_OPS:
        for field in [*base, *extra]:
            for name, case in chosen.items():
                params = {**base, field: case}
                qs = "&".join(
                    f"{k}={url_value(case) if k == field else quote(v)}" for k, v in params.items()
                )
                await p.send("Unicode in query strings", method, f"{url}?{qs}",
                             expect=expected(field, case, True),
                             label=f"{field}={name}")  # fmt: skip
    for method, template, body in PATH_OPS:
        for name, case in chosen.items():
            await p.send("Unicode in path session ids", method,
                         template.format(url_value(case)), content=body,
                         expect=expected("path", case, True), label=name)  # fmt: skip


def at_tokens(limit: int, query: bool = False) -> str:
    from app.clients.model_tokens import E5Tokens

    tokens, text = E5Tokens(), FAMILY * 400
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if tokens.count(text[:mid], query=query) <= limit else (lo, mid - 1)
    return text[:lo]


async def limits_pass(p: Probe) -> None:
    from app.core.settings.service import LimitsSettings

    lim = LimitsSettings()
    ok, bad = {200}, {413, 422}

    def store(*units: dict[str, Any]) -> str:
        return json.dumps({"memories": list(units)}, ensure_ascii=False)

    def unit(value: str, **kw: Any) -> dict[str, Any]:
        return {"user_id": "fz-limits", "value": value, **kw}

    kind = "sizes at and around the limits"
    for n, want in ((lim.value_chars - 1, ok), (lim.value_chars, ok), (lim.value_chars + 1, bad)):
        value = "tea" + " " * (n - 6) + "end"  # n characters, few tokens
        await p.send(kind, "POST", "/store", content=store(unit(value)), expect=want,
                     label=f"value of {n} characters")  # fmt: skip
    at = at_tokens(lim.text_tokens)
    for text, want, label in ((at[:-7], ok, "value at the token limit - 7"),
                              (at, ok, "value at the token limit"),
                              (at + FAMILY, bad, "value over the token limit")):  # fmt: skip
        await p.send(kind, "POST", "/store", content=store(unit(text)), expect=want, label=label)
    # A scenario beside its value: both count against LIMITS__REQUEST_TOKENS.
    from app.clients.model_tokens import E5Tokens

    room = min(lim.text_tokens, lim.request_tokens - E5Tokens().count("v"))
    sc = at_tokens(room)
    side = "scenario beside a value"
    for text, want, label in ((sc[:-7], ok, f"{side}, 7 under what is left"),
                              (sc, ok, f"{side}, at what is left"),
                              (sc + FAMILY, bad, f"{side}, over what is left")):  # fmt: skip
        await p.send(kind, "POST", "/store", content=store(unit("v", query=text)),
                     expect=want, label=label)  # fmt: skip
    q_at = at_tokens(lim.text_tokens, query=True)
    queries = ((q_at, ok, "recall query at the token limit"),
               (q_at + FAMILY, bad, "recall query over the token limit"))  # fmt: skip
    for text, want, label in queries:
        body = json.dumps({"query": text, "user_id": "fz-limits"}, ensure_ascii=False)
        await p.send(kind, "POST", "/recall", content=body, expect=want, label=label)
    per = max(1, lim.request_tokens // lim.text_tokens)
    batch = [unit(at[:-14] + f"{i:02d}") for i in range(per)]
    await p.send(kind, "POST", "/store", content=store(*batch), expect=ok,
                 label=f"{per} values at the token limit (the request limit)")  # fmt: skip
    await p.send(kind, "POST", "/store", content=store(*batch, unit(at)), expect=bad,
                 label="one value over the request token limit")  # fmt: skip
    for n, want in ((lim.store_batch, ok), (lim.store_batch + 1, bad)):
        # One fact for n users: one text to embed, within LIMITS__REQUEST_TOKENS.
        units = [{**unit("a fact of a full batch"), "user_id": f"fz-limits-{i}"} for i in range(n)]
        await p.send(kind, "POST", "/store", content=store(*units), expect=want,
                     label=f"{n} units")  # fmt: skip
    for n, want in ((50, ok), (51, bad)):
        await p.send(kind, "POST", "/store",
                     content=store(unit("v", entities=[f"e{i}" for i in range(n)])),
                     expect=want, label=f"{n} entities")  # fmt: skip
    for n, want in ((256, ok), (257, bad)):
        await p.send(kind, "POST", "/store", content=store({"user_id": "u" * n, "value": "v"}),
                     expect=want, label=f"user_id of {n} characters")  # fmt: skip
    for n, want in ((lim.message_batch, ok), (lim.message_batch + 1, bad)):
        # One text n times: embedded once, so within LIMITS__REQUEST_TOKENS.
        msgs = [{"role": "user", "content": "a message of a full batch"}] * n
        await p.send(kind, "POST", "/working_memory/fz-l/messages",
                     content=json.dumps({"messages": msgs}), expect=want,
                     label=f"{n} messages")  # fmt: skip
    # Each message is embedded by its first LIMITS__TEXT_TOKENS; an append's windows together
    # at most LIMITS__REQUEST_TOKENS.
    msgs = [{"role": "tool", "content": at[:-14] + f"{i:02d}"} for i in range(per)]
    await p.send(kind, "POST", "/working_memory/fz-l/messages",
                 content=json.dumps({"messages": msgs}, ensure_ascii=False), expect=ok,
                 label=f"{per} messages at the token limit (the request limit)")  # fmt: skip
    msgs.append({"role": "tool", "content": at})
    await p.send(kind, "POST", "/working_memory/fz-l/messages",
                 content=json.dumps({"messages": msgs}, ensure_ascii=False), expect=bad,
                 label="messages over the request token limit")  # fmt: skip
    for n, want in ((lim.message_chars, ok), (lim.message_chars + 1, bad)):
        msgs = [{"role": "user", "content": (FAMILY * (n // 7 + 1))[:n]}]
        await p.send(kind, "POST", "/working_memory/fz-l/messages",
                     content=json.dumps({"messages": msgs}, ensure_ascii=False), expect=want,
                     label=f"message of {n} characters (emoji)")  # fmt: skip
    for k, want in ((lim.recall_top_k, ok), (lim.recall_top_k + 1, bad)):
        body = json.dumps({"query": "q", "user_id": "fz-limits", "top_k": k})
        await p.send(kind, "POST", "/recall", content=body, expect=want, label=f"top_k {k}")
    for k, want in ((lim.list_page, ok), (lim.list_page + 1, bad)):
        await p.send(kind, "GET", f"/memories?user_id=fz-limits&limit={k}", expect=want,
                     label=f"page of {k}")  # fmt: skip
    for depth, want in ((20, ok), (22, bad)):
        nested: Any = 1
        for _ in range(depth):
            nested = {"n": nested}
        await p.send(kind, "POST", "/store", content=store(unit("v", metadata=nested)),
                     expect=want, label=f"metadata nested {depth} deep")  # fmt: skip
    for n, want in ((16_000, ok), (17_000, bad)):
        msgs = [{"role": "user", "content": "m", "metadata": {"pad": "x" * n}}]
        await p.send(kind, "POST", "/working_memory/fz-l/messages",
                     content=json.dumps({"messages": msgs}), expect=want,
                     label=f"metadata of ~{n} bytes")  # fmt: skip
    for n, want in ((1_048_000, {200, 422}), (1_048_577, {413})):
        pad = json.dumps({"memories": [unit("v", metadata={"pad": ""})]})
        body = pad.replace('"pad": ""', '"pad": "' + "x" * (n - len(pad)) + '"')
        await p.send(kind, "POST", "/store", content=body, expect=want,
                     label=f"body of {len(body.encode())} bytes")  # fmt: skip
    for literal in ("NaN", "Infinity", "-Infinity", "1e400"):
        body = '{"query": "q", "user_id": "fz-limits", "min_score": ' + literal + "}"
        await p.send(kind, "POST", "/recall", content=body, expect=bad,
                     label=f"min_score {literal}")  # fmt: skip
    for when in ("2026-03-14T09:00:00", "2026-03-14"):
        await p.send(kind, "POST", "/store", content=store(unit("v", occurred_at=when)),
                     expect=bad, label=f"time without offset {when}")  # fmt: skip


async def methods_pass(p: Probe, spec: dict[str, Any], unit_id: str) -> None:
    all_methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
    for path, ops in spec["paths"].items():
        url = re.sub(r"\{[^}]+\}", lambda m: unit_id if "id" in m.group() else "fz-m", path)
        for method in all_methods:
            if method.lower() in ops:
                continue
            await p.send("wrong methods", method, url, expect={405, 404}, label=method)
    kinds = [None, "text/plain", "application/xml", "multipart/form-data; boundary=x",
             "application/x-www-form-urlencoded", "application/json-seq"]  # fmt: skip
    for path, ops in spec["paths"].items():
        url = re.sub(r"\{[^}]+\}", lambda m: unit_id if "id" in m.group() else "fz-m", path)
        for method in ("post", "patch"):
            if method not in ops or "requestBody" not in ops[method]:
                continue
            for ct in kinds:
                headers = {"content-type": ct} if ct else {}
                await p.send("wrong content types", method.upper(), url,
                             content=b'{"user_id": "u"}', expect={415},
                             headers=headers, label=str(ct))  # fmt: skip


def strip_ct(p: Probe) -> None:
    """A missing Content-Type must really be missing: drop the default one."""
    original = p.send

    async def send(kind: str, method: str, url: str, **kw: Any) -> httpx.Response | None:
        if kind == "wrong content types" and not kw.get("headers"):
            request = p.client.build_request(method, url, content=kw.get("content"))
            request.headers.pop("content-type", None)
            t0 = time.perf_counter()
            r = await p.client.send(request)
            ms = (time.perf_counter() - t0) * 1000.0
            p.count[kind] += 1
            p.worst[kind] = max(p.worst[kind], ms)
            p.answers[kind][str(r.status_code)] += 1
            if r.status_code != 415:
                p.failures.append(f"{kind}: {method} {url} no Content-Type: {r.status_code}")
            return r
        return await original(kind, method, url, **kw)

    p.send = send  # type: ignore[method-assign]


async def run(base: str) -> Probe:
    async with httpx.AsyncClient(base_url=base, timeout=300) as client:
        p = Probe(client)
        r = await client.post("/store", json={"memories": [{"user_id": "fz", "value": "seed"}]})
        unit_id = r.json()["results"][0]["id"]
        spec = (await client.get("/openapi.json")).json()
        await unicode_pass(p, unit_id)
        await limits_pass(p)
        strip_ct(p)
        await methods_pass(p, spec, unit_id)
        return p


def render(p: Probe, load_before: str, load_after: str, write: bool) -> str:
    lines = [
        f"Command: `python3 scripts/fuzz_hostile.py{' --write-doc' if write else ''}`; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; machine: 2 cores shared with "
        f"other engineers' builds and tests (noisy: latencies are a ceiling); load before: "
        f"`{load_before}`; after: `{load_after}`. Service: embedded default, shipped limits.",
        "",
        "| kind | requests | worst latency ms | answers | server errors |",
        "|---|---|---|---|---|",
    ]
    for kind in p.count:
        answers = ", ".join(f"{n} × {s}" for s, n in sorted(p.answers[kind].items()))
        errors = sum(n for s, n in p.answers[kind].items() if not s.isdigit() or s >= "500")
        lines.append(f"| {kind} | {p.count[kind]} | {p.worst[kind]:.0f} | {answers} | {errors} |")
    total = sum(p.count.values())
    lines += ["", f"{total} requests, {len(p.failures)} failures (5xx, timeout, an error "
              "that is not problem+json, or not the expected answer)."]  # fmt: skip
    if p.embed_ms:
        ms, label = max(p.embed_ms)
        lines.append(
            f"Worst embedder time of one admitted request (the `embed` stage of /store's "
            f"Server-Timing): {ms:.0f} ms, {label}."
        )
    for f in p.failures[:20]:
        lines.append(f"- {f}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write-doc", action="store_true")
    args = ap.parse_args()
    load_before = uptime_line()
    with service() as base:
        p = asyncio.run(run(base))
    text = render(p, load_before, uptime_line(), args.write_doc)
    print(text)
    if args.write_doc:
        write_block(ROOT / "docs" / "RELIABILITY.md", "hostile-input", text, "## Hostile input")
    sys.exit(1 if p.failures else 0)


if __name__ == "__main__":
    main()
