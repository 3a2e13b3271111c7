"""A window read's cost does not grow with its messages' length (tester finding D18): a
session of long tool outputs (each under LIMITS__MESSAGE_CHARS) is read, window and
``/context``, with a query, and the working-memory tokenizer is never given a whole message
(the cut of a message larger than the budget comes from its ends), yet cuts it exactly as
encoding it whole would."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from app.clients.tokenizer import TRUNCATION_MARK, TiktokenTokenizer
from tests.clients.test_tokenizer import whole_text_cut as tokenizer_whole_text_cut
from tests.services.working_memory.test_working_memory import append, msg

WORDS = (
    "the server logs show error code 500 at 12:03 for user 4411 with path "
    "/api/v1/items?id=77 and retry"
).split()


class RecordingEncoding:
    """tiktoken's encoding, remembering how many characters each call was given."""

    def __init__(self, enc: Any) -> None:
        self.enc = enc
        self.chars: list[int] = []

    def encode_ordinary(self, text: str) -> list[int]:
        self.chars.append(len(text))
        return list(self.enc.encode_ordinary(text))

    def encode_ordinary_batch(self, texts: list[str], **kw: Any) -> list[list[int]]:
        self.chars.extend(len(t) for t in texts)
        return list(self.enc.encode_ordinary_batch(texts, **kw))

    def decode_bytes(self, ids: list[int]) -> bytes:
        return bytes(self.enc.decode_bytes(ids))


def whole_text_cut(text: str, max_tokens: int) -> str:
    """The cut as the tokenizer made it by encoding the whole text (before D18)."""
    return tokenizer_whole_text_cut(TiktokenTokenizer("o200k_base"), text, max_tokens)


async def settle(wm: Any) -> None:
    """Wait until the background has embedded what the test's appends and reads queued (the
    shared app's shutdown drains its queue for a few seconds only)."""
    embeddings = wm.app.state.resources.working_memory.embeddings
    for _ in range(1200):
        if not embeddings.backlog:
            return
        await asyncio.sleep(0.05)


def record_cuts(wm: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[RecordingEncoding, list]:
    """The app's working-memory tokenizer, recording what it encodes and every cut it
    makes (text, max_tokens, cut)."""
    tokenizer = wm.tokenizer
    recording = RecordingEncoding(tokenizer._enc)
    monkeypatch.setattr(tokenizer, "_enc", recording)
    cuts: list[tuple[str, int, str]] = []
    truncate = tokenizer.truncate

    def recorded(text: str, max_tokens: int) -> str:
        cut = truncate(text, max_tokens)
        cuts.append((text, max_tokens, cut))
        return str(cut)

    monkeypatch.setattr(tokenizer, "truncate", recorded)
    return recording, cuts


async def test_read_with_a_query_does_not_tokenise_whole_long_messages(wm, monkeypatch):
    wm.configure(embed_wait_ms=0)  # what is not embedded yet is ranked without relevance
    rng = random.Random(2)
    outputs = [" ".join(rng.choice(WORDS) for _ in range(15000)) for _ in range(3)]
    assert all(80_000 < len(o) < 100_000 for o in outputs)
    for i, output in enumerate(outputs):
        extra = {"user_id": "bigwm"} if i == 0 else {}
        await append(wm, "big", msg(output, role="tool", **extra))
    recording, cuts = record_cuts(wm, monkeypatch)

    r = await wm.client.get(
        "/working_memory/big", params={"query": "error code number 0", "max_tokens": 2000}
    )
    assert r.status_code == 200, r.text
    chosen = [m for m in r.json()["messages"] if m["truncated"]]
    assert chosen and all(TRUNCATION_MARK in m["content"] for m in chosen)
    assert recording.chars and max(recording.chars) < 20_000, recording.chars

    recording.chars.clear()
    r = await wm.client.get(
        "/context",
        params={"user_id": "bigwm", "session_id": "big", "query": "error code", "max_tokens": 2000},
    )
    assert r.status_code == 200, r.text
    assert TRUNCATION_MARK in r.json()["text"]
    assert recording.chars and max(recording.chars) < 20_000, recording.chars
    await settle(wm)
    # The same cuts as encoding each message whole.
    assert len(cuts) >= 2
    for text, max_tokens, cut in cuts:
        assert cut == whole_text_cut(text, max_tokens)
    await settle(wm)


@pytest.mark.parametrize("max_tokens", [40, 300])
async def test_a_cut_is_the_whole_message_cut(wm, monkeypatch, max_tokens):
    rng = random.Random(3)
    output = "\n".join(
        " ".join(rng.choice(WORDS) for _ in range(12)) + f" line {i}." for i in range(1200)
    )
    await append(wm, "ends", msg(output, role="tool"))
    recording, cuts = record_cuts(wm, monkeypatch)
    r = await wm.client.get("/working_memory/ends", params={"max_tokens": max_tokens})
    (only,) = r.json()["messages"]
    assert only["truncated"] and only["content"] == cuts[-1][2]
    assert only["content"].endswith("line 1199.")
    assert max(recording.chars) < len(output) // 4
    for text, limit, cut in cuts:
        assert cut == whole_text_cut(text, limit)


@pytest.mark.parametrize("old_entries", [False, True])
async def test_first_windows_are_counted_at_append_not_by_each_read(wm, monkeypatch, old_entries):
    """A read with a query counts what embedding each message still without a vector would
    cost (its first window's model tokens): counted at append and kept with the window entry,
    never again by a read; entries written before they were kept (old Redis entries) are
    counted by the read as before, with the same answer."""
    wm.configure(embed_wait_ms=0)
    embeddings = wm.app.state.resources.working_memory.embeddings
    windows = embeddings.windows
    assert windows.tokens is not None  # the model's own tokenizer
    # Nobody here embeds them (as when another process appended them): every read must
    # decide which it can afford to embed itself.
    monkeypatch.setattr(embeddings, "embedder", None)
    if old_entries:

        async def not_kept(texts: list[str]) -> list[None]:
            return [None for _ in texts]

        monkeypatch.setattr(windows, "first_windows", not_kept)
    rng = random.Random(4)
    outputs = [" ".join(rng.choice(WORDS) for _ in range(15000)) for _ in range(2)]
    for i, output in enumerate(outputs):
        await append(wm, "kept", msg(output, role="tool", **({"user_id": "k"} if i == 0 else {})))
    monkeypatch.undo()
    wm.configure(embed_wait_ms=0)
    counted: list[int] = []
    count = windows.count

    def recording(text: str) -> int:
        counted.append(len(text))
        return int(count(text))

    monkeypatch.setattr(windows, "count", recording)
    window = (
        await wm.client.get(
            "/working_memory/kept", params={"query": "error 500", "max_tokens": 2000}
        )
    ).json()
    # 384-token windows do not fit what the read may embed beside its query: all ranked
    # without relevance, left to the background.
    assert window["unembedded_seqs"] == [1, 2]
    assert counted == ([len(o) for o in reversed(outputs)] if old_entries else [])
    await settle(wm)
