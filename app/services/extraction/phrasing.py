"""Small phrase builders of the offline rules (:mod:`app.services.extraction.rules`)."""

from __future__ import annotations

from app.services.extraction import triggers as t


def subject_is(text: str) -> str:
    """ "I'm" → "The user is"; "my sister" → "The user's sister is"."""
    text = text.strip().lower()
    if text.startswith("my"):
        return f"The user's {text.split()[-1]} is"
    return "The user is"


def article(noun: str) -> str:
    """``noun`` with "a" or "an" before it ("an engineer", "a nurse")."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def avoid(thing: str) -> tuple[str, str, list[str]]:
    """ "…, so no alcohol" → "The user must avoid alcohol." with the food scenario."""
    return f"The user must avoid {thing}.", t.Q_FOOD_EN.format(x=thing), [thing]


def makes_sick(thing: str, how: str) -> tuple[str, str, list[str]]:
    """ "Shellfish makes me sick." → "Shellfish makes the user sick." with the food scenario."""
    return (
        f"{thing[:1].upper()}{thing[1:]} makes the user {how}.",
        t.Q_FOOD_EN.format(x=thing),
        [thing],
    )
