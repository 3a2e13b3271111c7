"""The offline extractor's rewrite of English statements: first → third person, and
resolved time phrases."""

from datetime import datetime

import pytest

from app.services.extraction.date_labels import resolve_dates
from app.services.extraction.dates import find_dates
from app.services.extraction.statements import third_person_en, third_person_zh


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
        ("I dunno why", "Jon doesn't know why."),
        ("I hafta work late", "Jon has to work late."),
        ("I usta live in Ohio", "Jon used to live in Ohio."),
        ("Imma start running", "Jon is going to start running."),
        ("I love painting", "Jon loves painting."),
        ("I go hiking", "Jon goes hiking."),
        # Tester (stop 38): pasts outside the list got an -s ("Jon meants", "Jon agreeds").
        ("I meant it", "Jon meant it."),
        ("I forgot my lines", "Jon forgot Jon's lines."),
        ("I agreed", "Jon agreed."),
        ("I learnt a lot", "Jon learnt a lot."),
        ("I feed the cat", "Jon feeds the cat."),
        ("I am here", "Jon is here."),
        # Tester D26: "I no longer work at Siemens" became "The user noes longer work …".
        ("I no longer work at Siemens", "Jon no longer works at Siemens."),
        ("I hardly sleep", "Jon hardly sleeps."),
        ("I once lived in Paris", "Jon once lived in Paris."),
        # Title-cased text (tester: "I Don't" became "Jon Don't"): the verb keeps its capital.
        ("I Don't Know", "Jon Doesn't Know."),
        ("I Love Pizza", "Jon Loves Pizza."),
        ("I Really Don't Care", "Jon Really Doesn't Care."),
        ("I Haven't Seen It", "Jon Hasn't Seen It."),
        ("Can I Go?", "Can Jon Go?"),
        # Outside title-cased text, a capital after "I" is a name's, not a verb to conjugate.
        ("I visited the World War I Memorial", "Jon visited the World War Jon Memorial."),
        ("I Love Lucy is my favourite show", "Jon Love Lucy is Jon's favourite show."),
    ],
)
def test_spoken_forms_and_negations_get_the_third_person(said: str, stored: str) -> None:
    # LoCoMo replay (conv-30): "I wanna start…" became "Jon wannas start…", and
    # "I don't" became "Jon dons't".
    assert third_person_en(said, "Jon") == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I've been painting since last year", "I've been painting since 2022"),
        ("I went last year", "I went in 2022"),
        ("I've been here since last month", "I've been here since April 2023"),
        ("I will finish it by next week", "I will finish it by the week of 2023-05-15"),
    ],
)
def test_a_resolved_period_after_a_preposition_takes_no_second_one(said: str, stored: str) -> None:
    # Tester: "since last year" became "since in 2022".
    now = datetime(2023, 5, 8, 12)
    assert resolve_dates(said, find_dates(said, now), zh=False) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # Tester: "My sister told me: I don't need you" mapped the sister's "I" to Jon.
        ('My sister told me: "I don\'t need you"', "Jon's sister told Jon: \"I don't need you\"."),
        ("I said “you are late” to him", "Jon said “you are late” to him."),
        # Tester F17 (stop 38): the reporting verb after the quotation, a colon, "was like".
        (
            '"I don\'t need you," my sister told me.',
            "\"I don't need you,\" Jon's sister told Jon.",
        ),
        ('"I\'m leaving," she said.', '"I\'m leaving," she said.'),
        ('She was like "I can\'t believe you"', 'She was like "I can\'t believe you".'),
        ('My doctor: "I recommend rest"', 'Jon\'s doctor: "I recommend rest".'),
        ('"I quit" is what I told my boss', '"I quit" is what Jon told Jon\'s boss.'),
        ('She goes "I don\'t care" and I laughed', 'She goes "I don\'t care" and Jon laughed.'),
        # Tester (stop 38): a quotation that reports no one's words is the speaker's own text.
        ('"I love it"', '"Jon loves it".'),
        ('"I\'m tired".', '"Jon is tired".'),
        ("\"I'm in!\" - that's what I said", '"Jon is in!" - that\'s what Jon said.'),
        ('My TV is 55" and I want a 65" one', 'Jon\'s TV is 55" and Jon wants a 65" one.'),
    ],
)
def test_a_quotation_keeps_its_own_first_and_second_person(said: str, stored: str) -> None:
    assert third_person_en(said, "Jon", "Ann") == stored


def test_a_chinese_quotation_keeps_its_own_first_and_second_person() -> None:
    assert (
        third_person_zh("我妹妹说：“我不需要你”", "张伟", "李娜") == "张伟的妹妹说：“我不需要你”。"
    )
    assert third_person_zh("我在玩「我的世界」", "张伟") == "张伟在玩「我的世界」。"
    assert third_person_zh("我在读《我与地坛》", "张伟") == "张伟在读《我与地坛》。"
    assert third_person_zh("“我很累”。", "张伟") == "张伟：“我很累”。"
    assert third_person_zh('我妹妹说"我不需要你"', "张伟", "李娜") == '张伟的妹妹说"我不需要你"。'


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # Tester (stop 38): "you" became the addressee and kept its verb ("Caroline have").
        ("No doubts, Caroline. You have such a caring heart",
         "No doubts, Caroline. Caroline has such a caring heart."),
        ("Got any objects that you treasure?", "Got any objects that Caroline treasures?"),
        ("I hope you have fun", "Jon hopes Caroline has fun."),
        ("I told you, you were right", "Jon told Caroline, Caroline was right."),
        ("If you don't mind", "If Caroline doesn't mind."),
        ("You never shy away from a challenge", "Caroline never shies away from a challenge."),
        # Not a subject's verb: a question, an object, fillers, a conjunction, an adverb.
        ("Did you make it?", "Did Caroline make it?"),
        ("It will make you feel better", "It will make Caroline feel better."),
        ("You know, it was fun", "Caroline know, it was fun."),
        ("Hope you and your family are well", "Hope Caroline and Caroline's family are well."),
        ("If you ever do it, tell me", "If Caroline ever do it, tell Jon."),
    ],
)  # fmt: skip
def test_you_as_the_subject_takes_the_addressee_s_third_person(said: str, stored: str) -> None:
    assert third_person_en(said, "Jon", "Caroline") == stored
