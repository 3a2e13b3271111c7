"""Someone else's text the user hands over for a task — an e-mail to reply to, a sentence to
translate (tester hbreak8 H17) — is not the user's: its "I am allergic to gluten" and "I live
in Rome" made units about the user, which then superseded the user's real ones. The user's
own words around it still count. English and Chinese, through /extract."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    "said",
    [
        'Here is an email I got: "Hi, I am allergic to gluten and I live in Rome. Best, '
        'Maria". Can you reply politely?',
        "Here is an email I got: 'Hi, I am allergic to gluten and I live in Rome. Best, "
        "Maria'. Can you reply politely?",
        "Can you translate this into French: I am allergic to gluten and I live in Rome.",
        "Please translate 'I am allergic to gluten and I live in Rome' into Spanish.",
        "帮我把这句话翻译成英文：我对麸质过敏，我住在罗马。",
        "请帮我回复这封邮件：“你好，我对麸质过敏，我住在罗马。玛丽亚”",
    ],
)
async def test_relayed_text_makes_no_unit_about_the_user(client, said):
    units = await units_of(client, "relay", [user(said)])
    assert not [
        v for v in units if any(w in v.lower() for w in ("gluten", "rome", "麸质", "罗马"))
    ], units


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ('Here is an email I got: "I live in Rome." Can you reply? By the way, I live in Oslo.',
         "The user lives in Oslo."),
        ("I'm allergic to gluten. Can you reply to my landlord that I'm away?",
         "The user is allergic to gluten."),
        ("帮我把这句话翻译成英文：“我住在罗马。”我住在奥斯陆。", "用户住在奥斯陆。"),
        ("My answer: I live in Rome.", "The user lives in Rome."),
    ],
)  # fmt: skip
async def test_the_users_own_words_around_it_are_kept(client, said, kept):
    units = await units_of(client, "relay2", [user(said)])
    assert kept in units, units
    assert len([v for v in units if "rome" in v.lower() or "罗马" in v]) <= (
        kept.endswith("Rome.")
    ), units


async def test_check_it_out_with_a_photo_is_no_task(client):
    """LoCoMo conv-42: "Check it out! [shares a photo: …]" read as "check it: …" lost the
    unit (recall@10 on dev 0.814 → 0.812 before this guard)."""
    said = "I just upgraded some of my equipment at home. Check it out! [shares a photo: a desk]"
    units = await units_of(client, "relay3", [user(said)])
    assert [v for v in units if "equipment" in v], units
