"""The answer-type signal: what kind of thing a question asks for, and which units name one.

"Which cities has John been to?" asks for cities; the turn that answers it, "I was in Chicago,
it was awesome!", names one without the word *city*, and e5-small's vectors place it among
the chatter about travel (cosine 0.816 against 0.80-0.83: 25th on the LoCoMo dev split).
WordNet knows that Chicago is a city (an instance hypernym), a violin a musical instrument,
surfing a sport, Florida an American state — so the unit that names an instance of the asked
category scores :data:`app.core.settings.memory.RecallSettings.weight_answer_type` more
(docs/EVAL.md "Answer types").

- The question (:func:`answer_type`): "which/what X …", "what kind/type of X …", "what are
  (some of) NAME's X …" (English; X is the head noun of the phrase — "kind of professional
  experience": experience, not its modifier — and a verb there asks for none: "What made /
  helps Joanna …"), "哪些/哪个/哪种/什么 X" (Chinese, through CC-CEDICT's glosses of X; not
  为什么 "why", 什么时候 "when", nor a name: 约翰). The category is X's first
  :data:`CATEGORY_SENSES` WordNet noun senses and those a compound names too
  ("instruments": musical instruments, the word's 6th sense), only those at least
  :data:`MIN_DEPTH` steps below WordNet's root: "city", "country", "sport", "musical
  instrument" are specific enough; "activity", "event", "thing", "place" would make most
  nouns an answer.
- A unit (:func:`kinds`): the nouns of its text (lemmas and adjacent pairs, "new york"),
  their first :data:`UNIT_SENSES` senses and every synset above them. A lower-case word
  counts only when it is mainly a noun ("watch" is not an instrument here); a capitalised
  word also as a name (Chicago, Rome) unless it starts a sentence ("Nice to see you").
  Chinese words through their CC-CEDICT glosses (芝加哥 → Chicago).

The sets are cached per text; only the best :data:`HEAD` of a recall are looked at (their
values: read by the candidates statement when the question asks for a kind, else one
statement, ``RecallRepository.values``).
"""

from __future__ import annotations

import dataclasses
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import rjieba

from app.core import text
from app.repositories.recall.repository import RecallRepository
from app.services.memory.pairs import lexicon, rules, taxonomy
from app.services.recall import named_user, slot_questions
from app.services.recall.scoring import Ranked

# Chosen on the LoCoMo dev split, leave one conversation out (docs/EVAL.md "Answer types"):
# 2 category senses (+ compounds') / depth 7 / 2 unit senses / the best 50, among 1, 2 or
# all senses, depth 5-8, 1-2 unit senses and 30-100 candidates.
CATEGORY_SENSES = 2
MIN_DEPTH = 7
UNIT_SENSES = 2
HEAD = 50
"""How many of the best-ranked candidates are looked at (their text is read for it)."""

_WORD = re.compile(r"[A-Za-z][A-Za-z'+-]*|/")
_LATIN = re.compile(r"[A-Za-z]+")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_AUX = frozenset(
    "do does did has have had is are was were can could will would should might may am".split()
)
_KINDS = frozenset(
    "kind kinds type types sort sorts genre genres form forms style styles variety "
    "varieties".split()
)
_STOP = frozenset(
    "of for in on at to with from her his their its my your our that about by as after "
    "before during than this these those".split()
)
_DET = frozenset("the some any all of a an other".split())
_PRONOUN = frozenset("i you he she it we they me him us them".split())
# A capitalised word right after these starts a sentence (or a quote): not a name.
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\"(\[]\s*)$")
# 哪些城市 / 哪个国家 / 哪种运动 / 什么乐器 / 什么样的书: the word after the interrogative.
# Not 什么 inside 为什么 (why), 凭什么, 干什么.
_ZH_WHICH = re.compile(
    r"(?<![为凭干])(?:哪些|哪个|哪几个|哪几|哪种|哪类|哪一个|哪|什么样的|什么样|什么)(?:的)?"
)


# 什么时候 (when), 什么地方 (where), 什么原因 (why), 什么意思, 什么样子, 什么事: asking for no kind.
_ZH_NOT_KINDS = frozenset("时候 时间 地方 原因 意思 样子 事 事情 东西".split())


@dataclass(frozen=True)
class AnswerType:
    """What a question asks for: the category words (WordNet lemmas, ``_`` for spaces) and
    their noun synsets (offsets); ``slots``: exclusive slots a unit that answers fills
    (a question about a job: ``occupation``, ``employer``)."""

    words: tuple[str, ...]
    synsets: frozenset[int]
    slots: frozenset[str] = frozenset()
    about_user: bool = False  # the slots are the user's own ("my job", 我的工作)
    question: str = ""  # the question it was read from
    user: str = ""  # the user's name, when the question names it (.named_user)


_FIRST_PERSON = re.compile(r"\b(?:my|i|me)\b|我", re.IGNORECASE)
_USER_SUBJECT = re.compile(r"\W*(?:the\s+user\b|user\b|i\b|用户|我)", re.IGNORECASE)


def answer_type(query: str) -> AnswerType | None:
    """The category a question asks for, or None (not a "which X" question, or X too general
    or unknown to WordNet, and no question about a job)."""
    words = [*_english_heads(query), *_chinese_heads(query)]
    synsets = {
        s
        for w in words
        for s in (*taxonomy.noun_senses(w, CATEGORY_SENSES), *taxonomy.compound_senses(w))
        if taxonomy.noun_depth(s) >= MIN_DEPTH
    }
    wanted = slot_questions.asked_slots(query)
    mine = bool(wanted) and _FIRST_PERSON.search(query) is not None
    if not synsets and not wanted:
        return None
    return AnswerType(
        tuple(w for w in dict.fromkeys(words) if taxonomy.noun_senses(w, 1)),
        frozenset(synsets),
        wanted,
        mine,
        query,
    )


def names_instance(value: str, kind: AnswerType) -> bool:
    """Whether the text names something of the kind (a hyponym or an instance of it: the
    category word itself does not count), or fills a slot the question asks for."""
    # "What is my job?": the user's own ("Jonas got a new job at Siemens" is not)
    mine = not kind.about_user or _USER_SUBJECT.match(value) is not None
    mine = mine or bool(kind.user) and value.lstrip().startswith(kind.user)  # "Lena works …"
    if mine and kind.slots and not kind.slots.isdisjoint(rules.slots(value)):
        return True
    return any(not kind.synsets.isdisjoint(k) for k in kinds(value))


def lift(
    ranked: Sequence[Ranked], values: Mapping[uuid.UUID, str], kind: AnswerType, weight: float
) -> list[Ranked]:
    """``ranked`` (best first) with the answer-type signal: each hit whose value names
    something of the ``kind`` gets ``answer_type`` 1 and ``weight`` more score; then sorted
    best first again (ties keep their order). ``values``: the hits' texts by id (a hit
    without one is not lifted)."""
    out = []
    for r in ranked:
        value = values.get(r.id)
        hit = value is not None and names_instance(value, kind)
        out.append(
            dataclasses.replace(
                r,
                score=r.score + weight if hit else r.score,
                scores={**r.scores, "answer_type": 1.0 if hit else 0.0},
            )
        )
    out.sort(key=lambda r: -r.score)
    return out


async def apply(
    repo: RecallRepository,
    ranked: Sequence[Ranked],
    kind: AnswerType,
    weight: float,
    keep: int,
    known: Mapping[uuid.UUID, str] | None = None,
) -> list[Ranked]:
    """:func:`lift` on ``ranked``, cut to ``keep``. ``known``: values already read (the
    candidates statement's, ``Candidates.values``); the others are read in one statement
    (none on the exact path, whose every hit is a candidate). A slot question that names the
    user (a hit says "The user is called Lena") asks for the user's own slot, as one that
    says "my" does; in both, hits stating the name or someone else's slot are held below
    the best answer (:mod:`.named_user`)."""
    known = known or {}
    values = {r.id: known[r.id] for r in ranked if r.id in known}
    missing = [r.id for r in ranked if r.id not in values]
    if missing:
        values |= await repo.values(missing)
    name = None
    if kind.slots and not kind.about_user:
        name = named_user.user_named(kind.question, values.values())
        kind = dataclasses.replace(kind, about_user=name is not None, user=name or "")
    lifted = lift(ranked, values, kind, weight)
    if kind.about_user:  # the user's own job, not the name nor Jonas's job
        lifted = named_user.below_answers(lifted, values, kind.slots, name)
    return lifted[:keep]


def _english_heads(query: str) -> list[str]:
    """The category words of an English question: "What European countries has Maria been
    to?" → country; "What kind of art …" → art; "What are Joanna's hobbies?" → hobby;
    "What board games …" → board_game (a WordNet compound).

    The category is the head of the noun phrase after what/which — its last word ("kind of
    professional experience": experience, not the modifier), ended by the rest of a question
    (an auxiliary, a preposition, a pronoun, a name) or by a plural noun ("What items des John
    mention": items). A verb there asks for no kind: "What made/led/caused …" (no noun), and
    "What helps/keeps Joanna …" (a word mainly a verb, followed by its object)."""
    toks = _WORD.findall(query.replace("/", " / "))
    low = [t.casefold() for t in toks]
    start = next((j + 1 for j, t in enumerate(low[:3]) if t in ("what", "which")), None)
    if start is None:
        return []
    # "Which European Countries Has Maria Visited?": in a title-cased question a capital
    # does not mark a name.
    words_after = [t for t in toks[start:] if t != "/"]
    titled = len(words_after) > 1 and 2 * sum(t[0].isupper() for t in words_after) > len(
        words_after
    )
    rest, lrest = toks[start:], low[start:]
    kind_of = len(lrest) > 1 and lrest[0] in _KINDS and lrest[1] == "of"
    if kind_of:  # what kind of X: a noun (or a gerund: volunteering) follows
        rest, lrest = rest[2:], lrest[2:]
    elif lrest and lrest[0] in ("are", "were"):  # what are (some of the) NAME's X
        rest, lrest = rest[1:], lrest[1:]
        while lrest and lrest[0] in _DET:
            rest, lrest = rest[1:], lrest[1:]
        while lrest and lrest[0].endswith(("'s", "s'")) and rest[0][0].isupper():
            rest, lrest = rest[1:], lrest[1:]
    phrase: list[str] = []

    # What ends the phrase: the rest of a question ("cities has", "pets wouldn't", "attributes
    # describe"), or an object ("helps Joanna", "caused the accident", "made him").
    def object_like(t: str) -> bool:  # a name, a pronoun (not US), a determiner
        w = t.casefold()
        return (
            (t[0].isupper() and not titled)
            or (w in _DET and w not in _STOP)
            or (w in _PRONOUN and t != "US")
        )

    objected = False
    for i, (t, word) in enumerate(zip(rest, lrest, strict=True)):
        if word in _AUX or word in _STOP or word.endswith("n't"):
            break
        if phrase and object_like(t):
            objected = True
            break
        if word in _DET:
            continue
        word = word.rstrip("'").removesuffix("'s")
        if phrase and word.endswith(("s", "ed")) and not taxonomy.is_noun(_noun_lemma(word)):
            break  # "activity helps Nate", "disaster affected John": a verb after the noun
        phrase.append(word)
        nxt = rest[i + 1] if i + 1 < len(rest) else ""
        if _plural(word) and nxt != "/":  # the head of the phrase
            objected = bool(nxt) and object_like(nxt) and nxt.casefold() not in _AUX
            break
    heads: list[str] = []
    groups = [g.split() for g in " ".join(phrase).split("/")]
    for words in groups:
        # The head is the last word, a noun; a word that is no noun at all is left out.
        while words and not taxonomy.noun_senses(_noun_lemma(words[-1]), 1):
            words.pop()
        if not words or len(words[-1]) < 3:
            continue
        head = _noun_lemma(words[-1])
        if not kind_of and (
            not _noun_form(words[-1]) or (objected and len(groups) == 1 and len(words) == 1)
        ):
            continue  # "What made/led Gina …", "What helps Joanna …", "What caused the …": a verb
        pair = f"{words[-2]}_{head}" if len(words) > 1 else ""
        heads.append(pair if pair and taxonomy.noun_senses(pair, 1) else head)
    return heads


def _noun_lemma(word: str) -> str:
    """A word's lemma as a noun: items → item, cities → city, but flooring, painting and
    lighting stay nouns (``lexicon.lemma`` reads them as verbs: floor, paint, light)."""
    base = lexicon.lemma(word)
    if word.endswith("s") and base != word and taxonomy.noun_senses(base, 1):
        return base
    return word if taxonomy.noun_senses(word, 1) else base


def _noun_form(word: str) -> bool:
    """Whether a word as written can be a noun: a noun, or the plural of one (not made, led,
    caused: verbs' forms)."""
    return bool(taxonomy.noun_senses(word, 1)) or _plural(word)


def _plural(word: str) -> bool:
    """Whether a word is the plural of a noun (cities, items, artists; not its, des)."""
    base = lexicon.lemma(word)
    return word.endswith("s") and base != word and bool(taxonomy.noun_senses(base, 1))


def _chinese_heads(query: str) -> list[str]:
    """The category words of a Chinese question, in English through CC-CEDICT: 约翰去过哪些
    城市？ → city; 她会弹什么乐器？ → musical_instrument."""
    if not text.has_cjk(query):
        return []
    heads: list[str] = []
    for match in _ZH_WHICH.finditer(query):
        tags = rjieba.tag(query[match.end() :])
        if not tags:
            continue
        word, tag = tags[0]
        if not tag.startswith(("n", "vn")) or tag.startswith("nr") or word in _ZH_NOT_KINDS:
            continue  # 城市 ns, 乐器 n, 运动 vn; not 约翰 nr (a name), 什么时候 (when)
        heads.extend(sorted(g.replace(" ", "_") for g in lexicon.gloss_heads(word)))
    return heads


@lru_cache(maxsize=8192)
def kinds(value: str) -> frozenset[frozenset[int]]:
    """The kinds of the text's nouns, one set per word: every noun synset above its first
    :data:`UNIT_SENSES` senses. Nouns: English words (and adjacent pairs) that are mainly
    nouns, or capitalised inside a sentence; Chinese nouns through their CC-CEDICT glosses.
    Cached per text and per word."""
    out: set[frozenset[int]] = set()
    matches = list(_LATIN.finditer(value))
    low = [m.group().casefold() for m in matches]
    for i, m in enumerate(matches):
        word = low[i]
        if len(word) < 3 or text.is_stop_word(word):
            continue
        name = (
            m.group()[0].isupper()
            and m.start() > 0
            and not _SENTENCE_START.search(value[max(0, m.start() - 3) : m.start()])
        )
        out.add(_word_kinds(word, name))
        if i + 1 < len(matches) and not text.is_stop_word(low[i + 1]):
            out.add(_pair_kinds(word, low[i + 1]))
    out.update(_chinese_kinds(run) for run in _CJK_RUN.findall(value))
    out.discard(frozenset())
    return frozenset(out)


def _ancestors(words: set[str]) -> frozenset[int]:
    return frozenset(
        a
        for w in words
        for s in taxonomy.noun_senses(w, UNIT_SENSES)
        for a in taxonomy.noun_ancestors(s)
    )


@lru_cache(maxsize=16384)
def _word_kinds(word: str, name: bool) -> frozenset[int]:
    """A word's kinds, as written and as its lemma: when it is mainly a noun, or a name."""
    return _ancestors({w for w in (word, lexicon.lemma(word)) if name or taxonomy.is_noun(w)})


@lru_cache(maxsize=16384)
def _pair_kinds(first: str, second: str) -> frozenset[int]:
    """Two adjacent words as a WordNet compound ("new york", "board games")."""
    return _ancestors({f"{first}_{second}", f"{first}_{lexicon.lemma(second)}"})


@lru_cache(maxsize=4096)
def _chinese_kinds(run: str) -> frozenset[int]:
    """The kinds of a run of Chinese text's nouns, through their CC-CEDICT gloss heads, and
    for a place name its name or what the gloss calls it (:func:`_name_kinds`)."""
    nouns = [word for word, tag in rjieba.tag(run) if tag.startswith("n")]
    heads = {g.replace(" ", "_") for word in nouns for g in lexicon.gloss_heads(word)}
    return _ancestors(heads).union(*(_name_kinds(word) for word in nouns))


# "Suzhou prefecture level city in Jiangsu": the name, then what it is, up to these.
_GLOSS_END = re.compile(r"\s(?:and|of|in|on|near|abbr)\b|[,;(]")


@lru_cache(maxsize=16384)
def _name_kinds(word: str) -> frozenset[int]:
    """A Chinese name's kinds through its CC-CEDICT definitions that start with a name: the
    name's own when WordNet knows it ("Shanghai municipality, …": Shanghai, a city), else the
    kind the definition gives it ("Suzhou prefecture level city in Jiangsu": a city)."""
    out: set[int] = set()
    for definition in taxonomy.definitions(word):
        words = _GLOSS_END.split(definition, maxsplit=1)[0].split()
        n = next((i for i, w in enumerate(words) if not w[0].isupper()), len(words))
        if n == 0:
            continue  # not a name: 宠物 "house pet"
        name = "_".join(words[:n]).casefold()
        if taxonomy.noun_senses(name, 1):
            out |= _ancestors({name})
        elif n < len(words):
            kind = taxonomy.noun_senses(lexicon.lemma(words[-1].casefold()), 1)
            out.update(s for k in kind for s in (k, *taxonomy.noun_ancestors(k)))
    return frozenset(out)
