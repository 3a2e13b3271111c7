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
  ``_EN_LIKING`` exclusions).

A name counts as the subject when the unit names it among its entities or it is the unit's
``user_id``; "he", "she", "they", "we", "people" never do (whose habit is it?).
"""

from __future__ import annotations

import re

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


def preference_sentence(value: str, names: list[str]) -> str | None:
    """The first sentence of ``value`` in which the subject (I / the user / 我 / 用户, or one of
    ``names``) states a preference or habit, in the third person; None when none does."""
    if has_cjk(value):
        subject = _zh_subject(names)
        for sentence in _ZH_SENTENCE.split(value):
            if _zh_statement(sentence, subject):
                return third_person_zh(sentence.strip(), None)
        return None
    subject = _en_subject(names)
    for sentence in _EN_SENTENCE.split(value):
        if _en_statement(sentence, subject):
            stated = third_person_en(sentence.strip(), None)
            return stated[:1].upper() + stated[1:]
    return None
