"""Window ranking and budget filling as pure functions (app.services.working_memory.ranking)."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from app.clients.tokenizer import create_tokenizer
from app.repositories.working_memory.window import WindowEntry
from app.services.working_memory.ranking import Weights, information_density, rank, select

TOK = create_tokenizer("o200k_base")
W = Weights(relevance=0.5, recency=0.3, density=0.2)


def entry(seq: int, content: str, vec: list[float] | None = None) -> WindowEntry:
    return WindowEntry(
        seq=seq,
        role="user",
        content=content,
        created_at=datetime(2025, 1, 1, tzinfo=UTC),
        user_id=None,
        metadata={},
        tokens=TOK.count(content),
        density=information_density(content),
        embedding=None if vec is None else np.asarray(vec, np.float32),
    )


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("ok thanks", 0.0, 0.0),
        ("好的，谢谢", 0.0, 0.0),
        ("I booked flight LH123 on 2024-05-03, seat 12A, 340 EUR.", 0.8, 1.0),
        ("run pytest -q --maxfail=1 tests/test_x.py", 0.3, 1.0),
        ("我的订单号是A-20240503，明天下午3点送到", 0.2, 1.0),
        ("I think Berlin is nice", 0.2, 0.6),
    ],
)
def test_information_density(text, low, high):
    assert low <= information_density(text) <= high


def test_rank_without_query_uses_recency_and_density_only():
    entries = [entry(1, "code 4471 at 10:30 in room B12"), entry(2, "sure"), entry(3, "fine")]
    ranked = rank(entries, None, W, half_life=1.0)
    assert [r.relevance for r in ranked] == [None, None, None]
    assert [r.recency for r in ranked] == [0.25, 0.5, 1.0]
    # Weights renormalised over recency + density (0.3 + 0.2).
    assert ranked[2].score == pytest.approx(0.3 / 0.5 * 1.0)
    assert ranked[0].score == pytest.approx((0.3 * 0.25 + 0.2 * ranked[0].density) / 0.5)
    assert all(0.0 <= r.score <= 1.0 for r in ranked)


def test_rank_with_query_min_max_scales_cosine():
    q = np.asarray([1.0, 0.0], np.float32)
    entries = [entry(1, "a", [1.0, 0.0]), entry(2, "b", [0.6, 0.8]), entry(3, "c", [0.0, 1.0])]
    ranked = rank(entries, q, W, half_life=20)
    assert [r.relevance for r in ranked] == pytest.approx([1.0, 0.6, 0.0])
    assert [r.cosine for r in ranked] == pytest.approx([1.0, 0.6, 0.0])
    assert ranked[0].score > ranked[2].score


def test_select_fills_in_score_order_and_returns_time_order():
    entries = [entry(i, f"message number {i} " * 3) for i in range(1, 6)]
    ranked = rank(entries, None, W, half_life=1.0)
    cost = entries[0].tokens + 4
    out = select(ranked, budget=2 * cost, overhead=4, tokenizer=TOK)
    assert [c.ranked.entry.seq for c in out.chosen] == [4, 5]
    assert out.omitted_seqs == [1, 2, 3]
    assert out.used_tokens == 2 * cost


def test_oversize_message_is_cut_to_half_then_given_what_is_left():
    huge = entry(2, "lorem ipsum dolor sit amet " * 200)
    small = entry(1, "short note")
    ranked = rank([small, huge], None, W, half_life=20)
    out = select(ranked, budget=100, overhead=4, tokenizer=TOK)
    by_seq = {c.ranked.entry.seq: c for c in out.chosen}
    assert set(by_seq) == {1, 2} and out.omitted_seqs == []
    assert by_seq[2].truncated and not by_seq[1].truncated
    # The small message fit; the cut message then took the rest of the budget.
    assert out.used_tokens <= 100
    assert by_seq[2].tokens + 4 + by_seq[1].tokens + 4 >= 95


def test_ties_prefer_the_newest():
    entries = [entry(1, "same text"), entry(2, "same text")]
    ranked = rank(entries, None, Weights(0, 0, 1), half_life=20)
    out = select(ranked, budget=entries[0].tokens + 4, overhead=4, tokenizer=TOK)
    assert [c.ranked.entry.seq for c in out.chosen] == [2]
