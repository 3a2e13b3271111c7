"""scripts/recall_offline_more.py: the list-question rule and the answer-type extensions it
measures (docs/EVAL.md "List questions, query rewrites and head features")."""

from __future__ import annotations

from app.services.recall import answer_type
from tests.scripts import load_script

more = load_script("recall_offline_more")


def test_list_rule_flags_questions_that_ask_for_several_things() -> None:
    assert more.is_list("What books has Tim read?", "pmb")  # present perfect
    assert more.is_list("How many times has Melanie gone to the beach?", "m")
    assert more.is_list("What do Jon and Gina both have in common?", "b")
    assert more.is_list("Which cities did John visit?", "h")  # a plural head noun
    assert not more.is_list("Which cities did John visit?", "pmb")
    # "has to" is no present perfect; a single thing asked is no list
    assert not more.is_list("What does Nate have to do tomorrow?", "pmbh")
    assert not more.is_list("When did Caroline go to the LGBTQ support group?", "pmbh")


def test_plural_head_stops_at_the_rest_of_the_question() -> None:
    assert more.plural_head("What instruments does Melanie play?")
    assert not more.plural_head("What is Joanna allergic to?")  # an auxiliary first
    assert not more.plural_head("Where has Melanie camped?")  # no what/which


def test_modifier_and_category_word_counts_unless_generic() -> None:
    words = ("yoga",)
    assert more._compound(answer_type, "I just started doing aerial yoga, it's great", words)
    assert not more._compound(answer_type, "I love big yoga", words)  # a generic adjective
    assert not more._compound(answer_type, "Yoga helps me relax", words)  # the word alone
