"""A personal profile of 50 unrelated facts about one person (Dana), the kind a new user
stores one at a time: work, family, health, habits, plans, with names, dates and numbers —
no two restate or contradict each other, so every pair review they open is noise.

Shared by ``tests/services/memory/test_review_gate.py`` (the gate keeps them out of review)
and ``scripts/pending_reviews.py`` (the pending rate per 100 stores, docs/DEDUPE.md).
"""

from __future__ import annotations

PROFILE: tuple[str, ...] = (
    "Dana works as a nurse at St. Mary's Hospital",
    "Dana ran the Boston marathon in April 2023",
    "Dana has a cat named Miso",
    "Dana is allergic to penicillin",
    "Dana lives in Portland, Oregon",
    "Dana's sister Kim is a dentist",
    "Dana drives a 2015 Subaru Outback",
    "Dana prefers tea over coffee",
    "Dana's birthday is on March 12",
    "Dana is learning to play the cello",
    "Dana grew up in a small town in Vermont",
    "Dana works night shifts on weekends",
    "Dana is planning a trip to Japan in October",
    "Dana reads mystery novels before bed",
    "Dana's favourite food is Thai green curry",
    "Dana volunteers at the animal shelter on Sundays",
    "Dana studied biology at the University of Washington",
    "Dana's father retired from the navy",
    "Dana keeps a vegetable garden with tomatoes and beans",
    "Dana wears glasses for reading",
    "Dana's apartment is on the third floor",
    "Dana is saving money for a house",
    "Dana takes the bus to work",
    "Dana's best friend is called Priya",
    "Dana does yoga three times a week",
    "Dana speaks some Spanish",
    "Dana's monthly rent is 1800 dollars",
    "Dana broke her wrist skiing when she was 16",
    "Dana listens to podcasts about history",
    "Dana is vegetarian on weekdays",
    "Dana's phone is an old iPhone 11",
    "Dana wants to become a nurse practitioner",
    "Dana bakes sourdough bread every Saturday",
    "Dana is afraid of heights",
    "Dana's mother lives in Burlington",
    "Dana has two nephews",
    "Dana plays in a community volleyball league",
    "Dana's shift starts at 7pm",
    "Dana does not own a television",
    "Dana is colour-blind",
    "Dana adopted Miso from a shelter in 2021",
    "Dana's dentist appointment is on June 4",
    "Dana likes hiking on Mount Hood",
    "Dana keeps a journal in a paper notebook",
    "Dana's favourite band is Fleetwood Mac",
    "Dana sleeps about six hours a night",
    "Dana renewed her nursing licence last month",
    "Dana is knitting a scarf for Kim",
    "Dana's car insurance renews in November",
    "Dana prefers short, direct answers",
)
