"""Replay one LoCoMo dev session through the working-memory endpoints and show the window
chosen for questions about it.

    .venv/bin/python scripts/replay_working_memory.py [--conversation conv-26]
        [--session session_8] [--max-tokens 300] [--questions 3] [--redis]
        [--embed-wait-ms 2000]

It needs only the service's own dependencies (the ``.venv`` that ``python3 scripts/serve.py``
creates; the app's lifespan is entered directly, no test extra), and the shared data beside
the checkout: the turns are read from ``../shared/datasets/locomo-dev/turns.jsonl`` (never
copied into the repository). Each turn is appended as one message: the conversation's first
speaker as ``user``, the other as ``assistant``, content ``"Speaker: text"`` (plus the caption of a
shared photo), ``created_at`` = the session's time, ``metadata`` = the turn's ``dia_id``. Then,
for the questions whose evidence lies in this session, the window is read with the question
as ``query`` and a small ``max_tokens``, and the chosen messages are printed with their
scores, evidence turns marked ``*``. The service runs in-process (httpx ASGI transport) on a
private embedded PostgreSQL, with the embedded store, or the Redis at REDIS_URL with
``--redis``. The questions are asked right after the appends: a read waits for the session's
embeddings at most ``--embed-wait-ms`` (``WORKING_MEMORY__EMBED_WAIT_MS``, default 2000) and
ranks the messages still without a vector then without relevance (the count is printed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import tempfile
import uuid
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchkit.batches import message_batches  # noqa: E402

from app.core import embedded_pg, migrate  # noqa: E402
from app.core.config import Settings, WorkingMemorySettings  # noqa: E402
from app.main import create_app  # noqa: E402

DATASET = ROOT / ".." / "shared" / "datasets" / "locomo-dev"


def load(conversation: str, session: str) -> tuple[list[dict], list[dict]]:
    if not (DATASET / "turns.jsonl").is_file():
        raise SystemExit(
            f"no LoCoMo dev turns at {DATASET.resolve()}/turns.jsonl: this script reads the "
            "shared data kept beside the checkout (../shared/datasets/locomo-dev, with "
            "turns.jsonl and questions.jsonl); put or link the shared folder there"
        )
    turns = [
        t
        for t in map(json.loads, (DATASET / "turns.jsonl").open())
        if t["conversation_id"] == conversation and t["session_id"] == session
    ]
    if not turns:
        raise SystemExit(f"no turns for {conversation} {session}")
    turns.sort(key=lambda t: t["order"])
    prefix = f"D{turns[0]['session_index']}:"
    questions = [
        q
        for q in map(json.loads, (DATASET / "questions.jsonl").open())
        if q["conversation_id"] == conversation
        and q["category_name"] != "adversarial"
        and q["evidence"]
        and all(e.startswith(prefix) for e in q["evidence"])
    ]
    return turns, questions


def as_message(turn: dict, first_speaker: str) -> dict:
    content = f"{turn['speaker']}: {turn['text']}"
    if turn.get("image_caption"):
        content += f" [shares a photo: {turn['image_caption']}]"
    return {
        "role": "user" if turn["speaker"] == first_speaker else "assistant",
        "content": content,
        "created_at": turn["session_datetime_iso"] + "Z",  # naive in the dataset: UTC
        "user_id": turn["conversation_id"],
        "metadata": {"dia_id": turn["dia_id"], "speaker": turn["speaker"]},
    }


def show(window: dict, evidence: set[str]) -> list[str]:
    lines = [
        f"  budget {window['budget_tokens']} of max_tokens {window['max_tokens']}, used "
        f"{window['used_tokens']}, {len(window['messages'])} of {window['window_messages']} "
        f"messages chosen, took {window['took_ms']:.1f} ms"
        + (
            f", {len(window['unembedded_seqs'])} ranked without relevance"
            if window.get("unembedded_seqs")
            else ""
        )
    ]
    for m in window["messages"]:
        s = m["scores"]
        mark = "*" if m["metadata"]["dia_id"] in evidence else " "
        rel = "  -  " if s["relevance"] is None else f"{s['relevance']:.2f}"
        text = m["content"] if len(m["content"]) <= 110 else m["content"][:107] + "…"
        lines.append(
            f"  {mark} {m['metadata']['dia_id']:>6} score {m['score']:.2f} (rel {rel} "
            f"rec {s['recency']:.2f} dens {s['density']:.2f}) {m['tokens']:>3} tok  {text}"
        )
    return lines


async def replay(args: argparse.Namespace) -> None:
    turns, questions = load(args.conversation, args.session)
    tmp = Path(tempfile.mkdtemp(prefix="hindsight-replay-"))
    os.chmod(tmp, 0o755)
    server = embedded_pg.start(tmp / "data")
    try:
        await asyncio.to_thread(migrate.upgrade, server.url)
        redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379") if args.redis else None
        prefix = f"hindsight-replay:{uuid.uuid4().hex[:8]}:"
        settings = Settings(
            database_url=server.url,
            redis_url=redis_url,
            working_memory=WorkingMemorySettings(
                key_prefix=prefix, embed_wait_ms=args.embed_wait_ms
            ),
        )
        app = create_app(settings)
        async with (
            app.router.lifespan_context(app),  # start-up and shutdown, as a server runs them
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://replay", timeout=120
            ) as client,
        ):
            sid = f"{args.conversation}-{args.session}"
            first = turns[0]["speaker"]
            messages = [as_message(t, first) for t in turns]
            for batch in message_batches(messages, max_messages=20):
                r = await client.post(f"/working_memory/{sid}/messages", json={"messages": batch})
                r.raise_for_status()
            size = r.json()["session"]
            print(
                f"{args.conversation} {args.session} ({turns[0]['session_datetime_raw']}): "
                f"{size['messages']} turns, {size['tokens']} tokens appended as session {sid}"
            )
            r = await client.get(f"/working_memory/{sid}", params={"max_tokens": args.max_tokens})
            print("\nWindow without a query (recency + density):")
            print("\n".join(show(r.json(), set())))
            for q in questions[: args.questions]:
                evidence = set(q["evidence"])
                r = await client.get(
                    f"/working_memory/{sid}",
                    params={"query": q["question"], "max_tokens": args.max_tokens},
                )
                window = r.json()
                hit = evidence & {m["metadata"]["dia_id"] for m in window["messages"]}
                print(
                    f"\nQ {q['question_id']} ({q['category_name']}): {q['question']} — answer: "
                    f"{q['answer']}; evidence {sorted(evidence)}, {len(hit)}/{len(evidence)} "
                    "in the window"
                )
                print("\n".join(show(window, evidence)))
            await client.delete(f"/working_memory/{sid}", params={"purge": "true"})
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversation", default="conv-26")
    parser.add_argument("--session", default="session_8")
    parser.add_argument("--max-tokens", type=int, default=300)
    parser.add_argument("--questions", type=int, default=3)
    parser.add_argument("--redis", action="store_true", help="use the Redis at REDIS_URL")
    parser.add_argument(
        "--embed-wait-ms",
        type=int,
        default=2000,
        help="how long a read waits for the session's embeddings (WORKING_MEMORY__EMBED_WAIT_MS)",
    )
    asyncio.run(replay(parser.parse_args()))


if __name__ == "__main__":
    main()
