"""The offline distillation's rule for a preference or habit (tester B31): only a sentence in
which the subject states it — the subject is the grammatical subject of like / love / prefer /
enjoy / hate, or the agent of a habit ("always", "usually", 每天, 总是):

- "I like X", "The user loves X", "Gina prefers X", "I always take the train to work.",
  我喜欢X, 用户每天早上喝咖啡 → that one sentence (first person in the third person, as the
  extractor writes it: :func:`~app.services.extraction.statements.third_person_en`);
- not a word inside another ("like-minded", "much around like it"), a modal wish ("Gina would
  love to join"), a question, an imperative ("Always recommend X to Vic"), a sentence that
  addresses the assistant or "you", a past one (:func:`~app.services.extraction.tense.is_past`)
  or one whose liking has no thing ("I love it", "I like how…": the extractor's
  ``_EN_LIKING`` exclusions);
- nor a liking or habit the value says was given up ("I always drink coffee in the morning,
  but not anymore", "I love coffee, but I gave it up", 我每天喝咖啡。不过现在不喝了。; tester E32:
  it became a 90-day standing preference for coffee).

A name counts as the subject when the unit names it among its entities or it is the unit's
``user_id``; "he", "she", "they", "we", "people" never do (whose habit is it?).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.core.text import has_cjk
from app.services.extraction.statements import third_person_en, third_person_zh
from app.services.extraction.tense import is_past, is_past_verb

_EN_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_ZH_SENTENCE = re.compile(r"(?<=[。！？!?；;])|\n+")

_EN_ADVERBS = r"(?:really|also|just|absolutely|truly|still|definitely|totally|genuinely|do|does)"
_EN_LIKE = r"(?:likes?|loves?|prefers?|enjoys?|adores?|hates?|dislikes?|detests?)"
_EN_HABIT = r"(?:always|usually|habitually|normally|typically)"
# The extractor's exclusions after a liking verb (kinds._EN_LIKING): no thing is named.
_EN_NO_THING = r"(?!(?:it|that|this|them|is|was|are|were|how|when|what|the\s+way|to\s+join)\b)"
_EN_LEAD = r"^(?:(?:also|and|but|so|honestly|oh|well|yes|yeah),?\s+)?"
_EN_PRONOUN = r"(?:i|the\s+user)"
_EN_ADDRESSED = re.compile(r"\b(?:you|your|yours|assistant)\b", re.IGNORECASE)

_ZH_ADVERBS = r"(?:也|很|都|真的|非常|特别|一直|最|还|就)*"
_ZH_LIKE = r"(?:喜欢|爱吃|爱喝|爱看|爱听|偏好|偏爱|讨厌|不喜欢)"
_ZH_HABIT = r"(?:每天|每周|每晚|每个?月|每个?周末|总是|经常|通常|习惯|一般)"
_ZH_ADDRESSED = re.compile(r"你|您|助手|assistant|you", re.IGNORECASE)
_ZH_QUESTION = re.compile(r"[吗呢嘛？?]\W*$")


def _en_subject(names: list[str]) -> str:
    named = [re.escape(n) for n in sorted(names, key=len, reverse=True) if n[:1].isupper()]
    return "(?:" + "|".join([_EN_PRONOUN, *named]) + ")"


def _zh_subject(names: list[str]) -> str:
    named = [re.escape(n) for n in sorted(names, key=len, reverse=True) if n]
    return "(?:" + "|".join(["我", "用户", *named]) + ")"


def _en_statement(sentence: str, subject: str) -> bool:
    s = sentence.strip()
    if not s or s.endswith("?") or addressed(s):
        return False
    liking = re.compile(
        rf"{_EN_LEAD}{subject}\s+(?:{_EN_ADVERBS}\s+)*(?:(?:do|does)(?:n't|\s+not)\s+)?"
        rf"{_EN_LIKE}\s+{_EN_NO_THING}\w",
        re.IGNORECASE,
    )
    habit = re.compile(
        rf"{_EN_LEAD}{subject}\s+(?:{_EN_ADVERBS}\s+)*{_EN_HABIT}\s+([a-z]+)", re.IGNORECASE
    )
    if liking.match(s):
        return True
    m = habit.match(s)
    return m is not None and not is_past_verb(m.group(1).lower())


def _zh_statement(sentence: str, subject: str) -> bool:
    s = sentence.strip()
    if not s or _ZH_QUESTION.search(s) or addressed(s) or is_past(s, zh=True):
        return False
    return re.match(rf"{subject}{_ZH_ADVERBS}(?:{_ZH_LIKE}|{_ZH_HABIT})", s) is not None


def addressed(value: str) -> bool:
    """True when ``value`` speaks to or about the assistant ("you", "the assistant", 你, 助手):
    an instruction, never the subject's own preference or habit."""
    return bool((_ZH_ADDRESSED if has_cjk(value) else _EN_ADDRESSED).search(value))


# The habit or liking was given up (tester E32: "I always drink coffee in the morning, but not
# anymore" became a 90-day "Preference: … always drinks coffee …").
_EN_ENDED = re.compile(
    r"\b(?:not\s+any\s?more|any\s?more|no\s+longer|not\s+now|used\s+to|gave\s+(?:\w+\s+)?up|"
    r"give\s+(?:\w+\s+)?up|giving\s+(?:\w+\s+)?up|quit|stopped|kicked\s+the\s+habit|"
    r"(?:don't|doesn't|do\s+not|does\s+not)\s+(?:\w+\s+)?(?:now|these\s+days))\b",
    re.IGNORECASE,
)
_ZH_ENDED = re.compile(r"不再|戒了|戒掉|戒除|已经不|现在不|以前|过去|曾经|不[\u4e00-\u9fff]{1,2}了")
# A liking that is itself negative ("doesn't like cilantro any more") is no habit given up.
_EN_NEGATIVE = re.compile(
    rf"\b(?:do|does)(?:n't|\s+not)\s+(?:{_EN_ADVERBS}\s+)*{_EN_LIKE}|\b(?:hates?|dislikes?|detests?)\b",
    re.IGNORECASE,
)
_EN_WORD = re.compile(r"[a-z]{3,}", re.IGNORECASE)
_EN_NOT_TOPIC = frozenset(
    "the user and but not any anymore more longer always usually really also just likes like "
    "loves love prefers prefer enjoys enjoy drinks drink eats eat does doesn don did well now "
    "every day morning night week quit stopped gave give used".split()
)


_ZH_NOT_TOPIC = frozenset(
    "用户我你他她喜欢爱每天早上晚上周末总是经常通常习惯一般不再了的是在很也都还就过现已经"
)


def given_up(sentence: str, value: str, apart: bool = False) -> bool:
    """Whether ``value`` says the liking or habit of ``sentence`` (one of its sentences) ended:
    a word of ending ("not anymore", "quit", "gave it up", 不再, 戒了) in that sentence, or in
    another that speaks of the same thing (a word in common, or "it"/"that"; in Chinese any
    other sentence of the value). ``apart``: the other sentences are other units' — only a
    word (Chinese: a character) in common counts."""
    zh = has_cjk(value)
    if zh and apart:
        topic = {c for c in sentence if has_cjk(c)} - _ZH_NOT_TOPIC
        others = [o for o in _ZH_SENTENCE.split(value) if o != sentence]
        return any(_ZH_ENDED.search(o) and topic & set(o) for o in others)
    ended = _ZH_ENDED if zh else _EN_ENDED
    if ended.search(sentence):
        return zh or _EN_NEGATIVE.search(sentence) is None
    if not zh and _EN_NEGATIVE.search(sentence):
        return False
    topic = {w.casefold() for w in _EN_WORD.findall(sentence)} - _EN_NOT_TOPIC
    for other in (_ZH_SENTENCE if zh else _EN_SENTENCE).split(value):
        if other.strip() == sentence.strip() or not ended.search(other):
            continue
        if zh:
            return True  # 我每天喝咖啡。不过现在不喝了。: the next sentence ends it
        words = {w.casefold() for w in _EN_WORD.findall(other)}
        if words & topic or (not apart and re.search(r"\b(?:it|that|them|this)\b", other, re.I)):
            return True
    return False


def ended_by(statement: str, ended: Sequence[str]) -> bool:
    """Whether one of the ``ended`` statements (the subject's "The user no longer drinks
    coffee.") gave up what ``statement`` states ("Preference: The user always drinks
    coffee."): :func:`given_up` of the two read together. A statement that itself says an
    end ("The user quit smoking.") is what ended, never ended by another."""
    if (_ZH_ENDED if has_cjk(statement) else _EN_ENDED).search(statement):
        return False
    return any(given_up(statement, f"{statement}\n{other}", apart=True) for other in ended)


def preference_sentence(value: str, names: list[str]) -> str | None:
    """The first sentence of ``value`` in which the subject (I / the user / 我 / 用户, or one of
    ``names``) states a preference or habit, in the third person; None when none does, or
    when the value says it was given up (:func:`given_up`)."""
    if has_cjk(value):
        subject = _zh_subject(names)
        for sentence in _ZH_SENTENCE.split(value):
            if _zh_statement(sentence, subject):
                ended = given_up(sentence, value)
                return None if ended else third_person_zh(sentence.strip(), None)
        return None
    subject = _en_subject(names)
    for sentence in _EN_SENTENCE.split(value):
        if _en_statement(sentence, subject):
            if given_up(sentence, value):
                return None
            stated = third_person_en(sentence.strip(), None)
            return stated[:1].upper() + stated[1:]
    return None
