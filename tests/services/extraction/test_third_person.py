"""The offline extractor's first → third person rewrite of English statements."""

import pytest

from app.services.extraction.statements import third_person_en


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I wanna start my own studio", "Jon wants to start Jon's own studio."),
        ("I don't like cats", "Jon doesn't like cats."),
        ("I dont eat meat", "Jon doesn't eat meat."),
        ("I really don't know", "Jon really doesn't know."),
        ("I haven't seen it", "Jon hasn't seen it."),
        ("I can't swim", "Jon can't swim."),
        ("I didn't go", "Jon didn't go."),
        ("I won't stop", "Jon won't stop."),
        ("I'm gonna move to Paris", "Jon is going to move to Paris."),
        ("Did I tell you I gotta leave?", "Did Jon tell you Jon has to leave?"),
        ("I love painting", "Jon loves painting."),
        ("I go hiking", "Jon goes hiking."),
    ],
)
def test_spoken_forms_and_negations_get_the_third_person(said: str, stored: str) -> None:
    # LoCoMo replay (conv-30): "I wanna start…" became "Jon wannas start…", and
    # "I don't" became "Jon dons't".
    assert third_person_en(said, "Jon") == stored
