"""A name that opens a sentence is an entity (tester hbreak9 K11): a unit stored without
``entities`` got none for "Tom is the user's brother." and only "Wei" for "Chen Wei is the
user's manager." (a capitalised opener counted only when capitalised mid-sentence too).
Ordinary openers stay out: "Definitely…", "Coffee is…", "Last week…"."""

from __future__ import annotations

import pytest

from app.services.extraction.openers import opens_with_name
from app.services.extraction.statements import en_entities
from tests.services.memory.told import stored


@pytest.mark.parametrize(
    ("value", "names"),
    [
        ("Tom is the user's brother.", ["Tom"]),
        ("Priya works at Google with the user.", ["Priya", "Google"]),
        ("Chen Wei is the user's manager.", ["Chen Wei"]),
        ("Jean-Luc Picard is the user's favourite captain.", ["Jean-Luc Picard"]),
        ("Sarah's birthday is on May 3.", ["Sarah"]),
        ("O'Brien fixed the user's car.", ["O'Brien"]),
        ("Maria and the user go hiking on Sundays.", ["Maria"]),
        # Not names: an adverb, a common noun, a time, an interjection.
        ("Definitely the user will go.", []),
        ("Coffee is the user's favourite drink.", []),
        ("Last week the user ran 5 km.", []),
        ("Dinner was great.", []),
        ("Congrats on the new job.", []),
    ],
)
def test_names_that_open_a_sentence(value: str, names: list[str]) -> None:
    assert en_entities(value, []) == names


def test_an_opener_needs_a_subjects_next_word() -> None:
    assert opens_with_name(["Tom"], " is the user's brother.")
    assert opens_with_name(["Priya"], " fixed the sink.")  # a past verb
    assert not opens_with_name(["Priya"], " the user met at work.")
    assert opens_with_name(["Li", "Na"], " is a nurse.")  # two pinyin syllables


async def test_store_infers_the_opening_name(client):
    result = await stored(client, "u-open", "Chen Wei is the user's manager.")
    r = await client.get(f"/memories/{result['id']}")
    assert r.json()["entities"] == ["Chen Wei"]
