"""The conflict judge's question: is a new unit the same memory as an old one, does it
contradict it, or are the two unrelated? Asked by ``services/memory/conflict_judge.py``."""

from __future__ import annotations

from app.clients.llm import ChatMessage

JUDGE = """Two statements about the same user. Is the NEW one the same memory as the OLD one,
does it contradict it (both cannot be true now), or is it unrelated (both can be true)?
Answer with a JSON object and nothing else: {"verdict": "same" | "contradicts" | "unrelated"}."""


def build_judge(new_value: str, old_value: str) -> list[ChatMessage]:
    """The same / contradicts / unrelated question about an unsure pair (docs/DEDUPE.md)."""
    return [
        {"role": "system", "content": JUDGE},
        {"role": "user", "content": f"OLD: {old_value}\nNEW: {new_value}"},
    ]
