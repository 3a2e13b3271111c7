"""Synonymy of the pair decision's alignment (app/services/memory/pairs/synonymy.py): a word's
look-ups made once (``senses``) and a statement's English words pooled (``Vocabulary``) give
the same answers as the word-by-word definition, which is written out here from the word
lists themselves (WordNet's first senses and near pointers, one hypernym step with a CC-CEDICT
pivot, the glosses across English and Chinese)."""

from __future__ import annotations

import itertools

import pytest

from app.core import text
from app.services.memory.pairs import lexical, lexicon, synonymy

# Nouns, verbs, adjectives of chat turns, the pairs the alignment tests name (mom / mother,
# wedding / marry, coffee / tea, car / bus), compounds, words WordNet does not know, Chinese.
WORDS = (
    "mom mother dad father parent child kid son daughter wife husband partner friend "
    "buy purchase sell get wedding marry marriage birthday anniversary party celebrate "
    "coffee tea drink beverage water car bus vehicle bike house apartment home live reside "
    "dwell stay move work job career run operate attend go travel trip visit walk hike "
    "painting paint picture art draw fluently fluent speak language happy glad sad "
    "video_game game ice_cream dessert cake dog puppy cat pet adopt shelter doctor nurse "
    "teacher school learn study read book novel write blog melanie caroline lgbtq "
    "住 妈妈 母亲 孩子 小孩 过敏 工作 喝 酒 汽车 公共汽车 流利 结婚 婚礼"
).split()


def _reference(a: str, b: str) -> bool:
    """The word-by-word definition, from the word lists (as it read before the look-ups
    were made once per word)."""
    if a == b:
        return True
    cjk_a, cjk_b = text.has_cjk(a), text.has_cjk(b)
    wn = lexicon._wordnet()
    if cjk_a and cjk_b:
        ha, hb = lexicon.gloss_heads(a), lexicon.gloss_heads(b)
        return bool(ha & hb or any(h.rsplit(" ", 1)[-1] in hb for h in ha if " " in h)
                    or any(h.rsplit(" ", 1)[-1] in ha for h in hb if " " in h))  # fmt: skip
    if cjk_a or cjk_b:
        zh, en = (a, b) if cjk_a else (b, a)
        g = lexicon.glosses(zh)
        if en in g or (en.endswith("ly") and en[:-2] in g):
            return True
        if text.stem(en) in {text.stem(x) for x in g}:
            return True
        mine = wn.get(en, frozenset())
        near = lexicon._wordnet_near()
        return bool(mine) and any(
            mine & (theirs := wn.get(x, frozenset()))
            or any(near.get(s, frozenset()) & theirs for s in mine)
            or any(near.get(s, frozenset()) & mine for s in theirs)
            for x in g
        )
    sa, sb = wn.get(a, frozenset()), wn.get(b, frozenset())
    near = lexicon._wordnet_near()
    if (
        sa
        and sb
        and (
            sa & sb
            or any(near.get(x, frozenset()) & sb for x in sa)
            or any(near.get(x, frozenset()) & sa for x in sb)
        )
    ):
        return True
    senses, up, pivot = lexicon._first_noun_senses(), lexicon._noun_hypernyms(), lexicon._pivot()

    def one_kind(x: str, y: str) -> bool:
        above = {h for s in senses.get(x, ()) for h in up.get(s, ())}
        return bool(above & set(senses.get(y, ()))) and bool(
            pivot.get(x, frozenset()) & pivot.get(y, frozenset())
        )

    return one_kind(a, b) or one_kind(b, a)


def test_synonyms_agree_with_the_word_by_word_definition():
    pairs = list(itertools.product(WORDS, repeat=2))
    got = [synonymy.synonyms(a, b) for a, b in pairs]
    assert got == [_reference(a, b) for a, b in pairs]
    assert 40 < sum(got) < len(pairs) // 4  # the grid holds synonyms and non-synonyms


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8])
def test_a_vocabulary_answers_as_its_words_one_by_one(size):
    # every word against sliding windows of the list: pooled senses must neither add a
    # synonym (a hypernym step of one word, the pivot of another) nor lose one
    for start in range(0, len(WORDS), 3):
        words = tuple(WORDS[start : start + size])
        vocab = synonymy.Vocabulary(words)
        for w in WORDS:
            assert vocab.has_synonym(w) == any(_reference(w, v) for v in words), (w, words)


def test_the_pooled_look_up_is_checked_word_by_word():
    # mom's hypernym (mother) is among the pooled nouns of {mother, car} and 妈妈 is a pivot of
    # mother: a synonym; of {parent, car} nothing: neither mother nor mom's pivot is there
    assert synonymy.Vocabulary(("car", "mother")).has_synonym("mom")
    assert not synonymy.Vocabulary(("car", "bus")).has_synonym("mom")
    # anniversary is a hypernym of birthday but no Chinese word translates both
    assert not synonymy.Vocabulary(("anniversary", "cake")).has_synonym("birthday")
    assert synonymy.Vocabulary(("live", "car")).has_synonym("住")
    assert synonymy.Vocabulary(()).has_synonym("mom") is False


def test_a_statement_keeps_its_words_numbers_apart():
    words = lexical.content_words("The user bought 2 video games for her son")
    assert "2" in words.words and "2" not in words.plain.words
    assert "game" in words.heads  # video_game: a compound by its head
    assert words.plain.has_synonym("purchase") and not words.plain.has_synonym("sell")
