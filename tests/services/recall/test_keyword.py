"""Keyword search for Chinese and English and exact codes ("600519", "SKU-42"): through
``/recall`` with every weight but ``keyword`` at 0, and unit tests of ``app.core.text``."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.core import text
from app.schemas.recall import Weights

UNITS = {
    "lujiazui": "用户在陆家嘴上班",
    "xiaolongbao": "用户最爱南翔的小笼包",
    "moutai": "用户的股票代码是600519",
    "sku42": "Order SKU-42 was shipped to the user",
    "sku7": "The user returned SKU-7 last week",
    "hongqiao": "用户的车停在虹桥机场P9停车场",
    "allergy": "The user is allergic to shellfish",
}


def keyword_only() -> dict[str, float]:
    weights = {name: 0.0 for name in Weights.model_fields if name != "recency_lambda"}
    return {**weights, "keyword": 1.0}


@pytest.fixture
async def stored(client: httpx.AsyncClient) -> dict[str, str]:
    r = await client.post(
        "/store", json={"memories": [{"user_id": "u", "value": v} for v in UNITS.values()]}
    )
    assert r.status_code == 200, r.text
    return {r["memory"]["value"]: r["id"] for r in r.json()["results"]}


async def keyword_hits(client: httpx.AsyncClient, query: str) -> list[dict[str, Any]]:
    """Units with a keyword match, best first (min_score drops the ones without)."""
    r = await client.post(
        "/recall",
        json={
            "query": query,
            "user_id": "u",
            "weights": keyword_only(),
            "top_k": 20,
            "min_score": 1e-9,
        },
    )
    assert r.status_code == 200, r.text
    hits = r.json()["memories"]
    for h in hits:
        assert h["scores"]["keyword"] > 0
        assert h["score"] == pytest.approx(h["scores"]["keyword"])  # semantic weight is 0
    return hits


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # Chinese queries that share words but no obvious paraphrase with the unit.
        ("陆家嘴", ["lujiazui"]),
        ("小笼包哪家好吃", ["xiaolongbao"]),
        ("南翔", ["xiaolongbao"]),
        # A word inside a longer segmented word (虹桥机场, 停车场) still matches.
        ("虹桥", ["hongqiao"]),
        ("机场停车", ["hongqiao"]),
        # Exact codes, alone or inside other text, in any width or spelling of the dash.
        ("600519", ["moutai"]),
        ("茅台 600519 还能买吗", ["moutai"]),
        ("６００５１９", ["moutai"]),
        ("shellfish", ["allergy"]),
        ("Shellfish allergies", ["allergy"]),
    ],
)
async def test_keyword_recall_finds_exactly_the_matching_units(client, stored, query, expected):
    hits = await keyword_hits(client, query)
    assert [h["value"] for h in hits] == [UNITS[k] for k in expected]


@pytest.mark.parametrize("query", ["SKU-42", "sku42", "sku 42", "ＳＫＵ－４２", "where is SKU-42?"])
async def test_codes_rank_the_exact_code_first(client, stored, query):
    hits = await keyword_hits(client, query)
    assert hits[0]["value"] == UNITS["sku42"]
    # SKU-7 shares only "sku": it may match, but below the exact code.
    assert {h["value"] for h in hits} <= {UNITS["sku42"], UNITS["sku7"]}
    if len(hits) > 1:
        assert hits[1]["score"] < hits[0]["score"]


async def test_no_shared_word_means_no_keyword_hit(client, stored):
    # 用户 ("the user") is in every unit and, like "user", no keyword.
    assert await keyword_hits(client, "用户喜欢什么颜色") == []
    assert await keyword_hits(client, "purple elephants") == []
    assert await keyword_hits(client, "600520") == []


async def test_keyword_matches_entities_and_trigger_scenario(client):
    r = await client.post(
        "/store",
        json={
            "memories": [
                {
                    "user_id": "u",
                    "value": "The user holds a large position",
                    "entities": ["贵州茅台"],
                    "query": "当用户问起白酒板块的时候",
                },
                {"user_id": "u", "value": "The user likes hiking"},
            ]
        },
    )
    assert r.status_code == 200, r.text
    for query in ["茅台", "白酒"]:
        hits = await keyword_hits(client, query)
        assert [h["value"] for h in hits] == ["The user holds a large position"], query


# ---- app.core.text ----------------------------------------------------------------------------


def test_normalize_folds_width_case_space_and_punctuation():
    assert text.normalize("  Ｈｅｌｌｏ,\tWORLD!! ") == "helloworld"
    assert text.normalize("用户住在上海。") == text.normalize("用户 住在 上海")
    assert text.normalize("ＳＫＵ－４２") == text.normalize("sku 42") == "sku42"


def test_normalize_keeps_what_changes_a_number():
    assert text.normalize("3.5") != text.normalize("35")
    assert text.normalize("-5 degrees") != text.normalize("5 degrees")
    assert text.normalize("$500") != text.normalize("¥500")
    assert text.normalize("50%") != text.normalize("50")
    assert text.normalize("10:30") == "10:30"
    assert text.normalize("１０：３０") == "10:30"


def test_tokenize_segments_chinese_and_drops_stop_words():
    assert text.tokenize("用户在陆家嘴上班") == ["陆家嘴", "上班"]
    assert "的" not in text.tokenize("用户的猫")
    assert text.tokenize("The user's dog is called Max") == ["dog", "called", "max"]
    # Negation cues stay (不 is not a stop word).
    assert "不" in text.tokenize("用户不喜欢香菜")


def test_tokenize_keeps_codes_whole_and_in_parts():
    assert text.tokenize("Order SKU-42 now")[:3] == ["sku42", "order", "sku"]
    assert "42" in text.tokenize("Order SKU-42 now")
    assert text.tokenize("股票600519") == ["股票", "600519"]
    assert text.tokenize("ＳＫＵ－４２") == ["sku42", "sku", "42"]


def test_search_tokens_add_the_words_inside_long_chinese_words():
    toks = text.search_tokens("虹桥机场停车场")
    assert {"虹桥", "机场", "虹桥机场", "停车场"} <= set(toks)
    assert text.search_text("用户在陆家嘴", None, "上海") == "陆家 陆家嘴 上海"


@pytest.mark.parametrize(
    ("value", "polarity"),
    [
        ("I like cilantro", 0),
        ("I don't like cilantro", 1),
        ("The user never drinks coffee", 1),
        ("The user dislikes cilantro", 1),
        ("用户喜欢香菜", 0),
        ("用户不喜欢香菜", 1),
        ("用户没有车", 1),
        ("It is not that I do not like it", 0),
    ],
)
def test_negation_polarity(value, polarity):
    assert text.negation_polarity(value) == polarity


def test_numbers_are_width_folded():
    assert text.numbers("用户有２个孩子") == frozenset({"2"})
    assert text.numbers("budget 3.5k or 1,000") == frozenset({"3.5", "1,000"})
    assert text.numbers("no digits") == frozenset()


def test_dedupe_tokens_keep_role_words():
    assert text.dedupe_tokens("The user is Alice's boss") == ("user", "is", "alic", "boss")
    assert text.dedupe_tokens("A window seat") == ("window", "seat")
    assert "把" in text.dedupe_tokens("用户把车卖了")


def test_has_cjk():
    assert text.has_cjk("用户") and text.has_cjk("abc 中") and not text.has_cjk("abc 123")
