"""Traditional Chinese read by the rules written in simplified characters (htrad6): the
offline extractor, the withholding screen, the date readers and ``/store``'s type inference
read 我對花生過敏, 別記這個 and 下週三 as 我对花生过敏, 别记这个 and 下周三
(:mod:`app.core.chinese_script`, OpenCC ``t2s``); what they keep is in the user's own
characters (用戶對花生過敏。: the message's 對/過, and 用户 of the extractor's own statement
written by OpenCC ``s2t``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.core.chinese_script import Script, simplified
from app.services.extraction import secrets, withhold
from app.services.extraction.offline import OfflineExtractor
from app.services.extraction.polish import polish
from app.services.extraction.units import Candidate, ExtractionContext, Turn
from tests.services.extraction.extracted import units_of, user

NOW = datetime(2026, 12, 7, 12, tzinfo=UTC)  # a Monday: 下周三 is 2026-12-16


async def offline(*said: str) -> list:
    turns = [Turn(index=i, role="user", content=s, created_at=NOW) for i, s in enumerate(said)]
    return (await OfflineExtractor().extract(turns, ExtractionContext("u1", NOW))).units


@pytest.mark.parametrize(
    ("said", "value"),
    [("我对花生过敏", "用户对花生过敏。"), ("我對花生過敏", "用戶對花生過敏。")],
)
async def test_an_allergy_is_a_constraint_in_either_script(said: str, value: str) -> None:
    """Traditional was an event ("用户對花生過敏。", its entity 過敏)."""
    (unit,) = await offline(said)
    assert (unit.type, unit.value, unit.entities) == ("constraint", value, ["花生"]), unit
    (plain,) = await offline(simplified(said))
    assert unit.query == Script([said]).written(plain.query or ""), unit.query
    assert unit.confidence == plain.confidence


async def test_next_wednesday_in_traditional_resolves() -> None:
    """下週三 had no date (the event "下週三用户要去北京開會。", no ``occurred_at``)."""
    (unit,) = await offline("下週三我要去臺北開會")
    assert unit.occurred_at is not None and unit.occurred_at.date().isoformat() == "2026-12-16"
    assert unit.value == "2026年12月16日（週三）用戶要去臺北開會。", unit.value  # 臺, not 台
    assert unit.entities == ["臺北"], unit.entities


@pytest.mark.parametrize(
    "said", [["別記這個：我下個月要辭職。"], ["我下個月要辭職。", "別記這個。"]]
)
def test_dont_remember_this_in_traditional(said: list[str]) -> None:
    """別記這個 was read as nothing: the message (or the one before it) was extracted."""
    turns = [Turn(index=i, role="user", content=s) for i, s in enumerate(said)]
    screened = withhold.screen(turns)
    assert all("辭職" not in t.content for t in screened.turns[len(said) - 1 :]), screened
    assert screened.dropped and "asked not to be remembered" in screened.dropped[-1]["reason"]


async def test_dont_remember_this_through_extract(client) -> None:
    said = [user("別記這個：我下個月要辭職。"), user("我對貓過敏。")]
    units = await units_of(client, "tw1", said)
    assert list(units) == ["用戶對貓過敏。"], units


def test_kept_turns_keep_their_characters() -> None:
    """The screen reads in simplified characters and hands the extractor the user's own."""
    turns = [Turn(index=0, role="user", content="我住在臺北，門禁碼是5566。")]
    (kept,) = withhold.screen(turns).turns
    assert kept.content.startswith("我住在臺北，門禁碼是[withheld: an access code"), kept


@pytest.mark.parametrize("said", ["我的密碼是什麼？", "我的密碼是錯的"])
def test_a_question_about_a_password_holds_no_secret(said: str) -> None:
    """The one-for-one table read 密碼 but not 什麼 / 錯: "什麼" was withheld as a password."""
    assert secrets.find(said) == []


@pytest.mark.parametrize(("said", "kind"), [("門禁碼是5566。", secrets.ACCESS),
                                            ("我家密碼是123456。", secrets.PASSWORD)])  # fmt: skip
def test_traditional_secrets_are_still_found(said: str, kind: str) -> None:
    masked, kinds = secrets.mask(said)
    assert kinds == [kind] and masked.endswith("]。"), masked


async def test_store_infers_a_traditional_allergy_as_a_constraint(client) -> None:
    """``/store`` without a type: a ``fact`` (and the entity 過敏) before."""
    unit = {"user_id": "tw2", "value": "我對花生過敏"}
    r = await client.post("/store", json={"memories": [unit]})
    assert r.status_code == 200, r.text
    r = await client.get("/memories", params={"user_id": "tw2"})
    (unit,) = r.json()["memories"]
    assert (unit["type"], unit["value"], unit["entities"]) == ("constraint", "我對花生過敏", [])


def test_an_llm_value_in_traditional_is_cut_at_its_two_days() -> None:
    """The LLM's units are checked by the offline rules (polish): 下週三…，下週五… was one
    undated unit."""
    said = Candidate(type="event", value="用戶下週三去臺北開會，下週五回上海。", confidence=0.9)
    units = polish([said], [], ExtractionContext("u1", NOW))
    assert [(u.value, str(u.occurred_at)) for u in units] == [
        ("用戶下週三去臺北開會。", "2026-12-16"),
        ("用戶下週五回上海。", "2026-12-18"),
    ]
