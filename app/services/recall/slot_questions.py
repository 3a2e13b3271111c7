"""Questions that ask for the value of an exclusive slot (:mod:`app.services.memory.pairs.rules`)
rather than for a kind of thing: someone's job (occupation, employer) or home (residence). A
unit that fills the slot answers them though no word of it names what was asked: "works as a
midwife" answers "What is my job?", "moved to Seattle" answers "Where does the user live?"
(:mod:`.answer_type` lifts such units by its weight)."""

from __future__ import annotations

import re

# A question about what someone does for work ("What is my job?", "What does Jonas do for a
# living?", 我的工作是什么？): "works as a midwife" answers it though no word of it is a kind
# of job (a four-session life, tester hbreak7 H14: the move ranked above the job).
_JOB_QUESTION = re.compile(
    r"\bwhat(?:'s|\s+is|\s+was|\s+are|\s+were)\s+(?:[\w']+\s+){0,3}?"
    r"(?:job|occupation|profession|career|line\s+of\s+work)s?\b"
    r"|\bwhat\s+(?:job|occupation|profession|career)s?\b"
    r"|\bwhat\s+(?:do|does|did)\s+[\w']+\s+do\s+for\s+(?:a\s+)?(?:living|work)\b"
    r"|\bwhere\s+(?:do|does|did)\s+[\w']+\s+work\b"
    r"|工作是什么|(?:做|干)什么工作|什么职业|职业是什么|(?:是|做|干)什么的|在哪(?:里|儿)?(?:工作|上班)",
    re.IGNORECASE,
)
_JOB_SLOTS = frozenset({"occupation", "employer"})
# A question about where someone lives ("Where does the user live?", "What city do I live
# in?", 用户住在哪里？): "The user moved to Seattle." answers it (the residence slot) though
# e5 put the salary above it (tester hbreak8 H30: the move ranked 2nd of 5, 8th of 10).
_HOME_QUESTION = re.compile(
    r"\bwhere\s+(?:do|does|did)\s+[\w']+(?:\s+[\w']+)?\s+(?:live|stay|reside)\b"
    r"|\bwhere(?:'s|\s+is)\s+[\w']+(?:\s+[\w']+)?\s+(?:home|living|based)\b"
    r"|\bwhat\s+(?:city|town|country|place)\s+(?:do|does|did)\s+[\w']+(?:\s+[\w']+)?\s+live\b"
    r"|住在?哪(?:里|儿)?|家在哪(?:里|儿)?|住什么地方",
    re.IGNORECASE,
)
_HOME_SLOTS = frozenset({"residence"})


def asked_slots(query: str) -> frozenset[str]:
    """The slots ``query`` asks the value of: ``occupation`` and ``employer`` for a question
    about a job, ``residence`` for one about where someone lives; empty for any other."""
    if _JOB_QUESTION.search(query):
        return _JOB_SLOTS
    if _HOME_QUESTION.search(query):
        return _HOME_SLOTS
    return frozenset()
