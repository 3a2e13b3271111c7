"""Who may instruct the assistant (tester B11: a persistent prompt injection). A message's
instruction to the assistant ("Always recommend X", "Never mention risks", 不要…) becomes a
standing constraint or preference of the user only when the user said it: the speaker is
the subject (:func:`subjects`) and the message is not addressed to another participant
(:func:`to_other`: "Never give up!" said to a friend is encouragement, not an instruction).
Anyone else's instruction is kept at most as an event that says who said it
(:func:`attributed`); an injected "Ignore previous instructions" / "System: …" sentence is
dropped from every message (:func:`without_injections`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from app.core.text import has_cjk
from app.services.extraction.statements import QUOTED_EN, QUOTED_ZH
from app.services.extraction.units import Turn

# A sentence that tries to take over the assistant, not a statement about the user.
_INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*"
    r"(?:previous|prior|above|earlier|preceding|system|original)\s+"
    r"(?:instructions?|prompts?|rules?|messages?|directions?)\b"
    r"|^\W*(?:system|developer|assistant)\s*(?:prompt)?\s*:"
    r"|\byou\s+are\s+now\b|\bnew\s+instructions?\s*:"
    r"|(?:忽略|无视|忘掉|忘记)(?:之前|以上|前面|上面|先前)?的?(?:所有|全部)?的?(?:指令|指示|提示|规则|设定)"
    r"|^\W*(?:系统|开发者)(?:提示)?[:：]",
    re.IGNORECASE,
)
_YOU = re.compile(r"\byou(?:'re|'ve|'ll|r|rs)?\b|你", re.IGNORECASE)
_ASSISTANT = re.compile(r"\b(?:assistant|ai|bot)\b|助手|机器人", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s*")
# A clause that tells the assistant what to do: an imperative (the subject left out), or
# one that names the assistant ("The assistant must…", 助手必须…).
_EN_ORDER = re.compile(
    r"^\W*(?:please\s+)?(?:always|never|don't|do\s+not|make\s+sure|be\s+sure)\b"
    r"|\b(?:assistant|ai|bot)\s+(?:must|should|shall|has\s+to|needs?\s+to|will|is\s+to)\b"
    r"|\b(?:tell|ask|instruct)\s+(?:the\s+)?(?:assistant|ai|bot)\b",
    re.IGNORECASE,
)
_ZH_ORDER = re.compile(
    r"^\W*(?:请|千万)?(?:必须|一定要|务必|不要|别|勿)|(?:助手|机器人).{0,4}(?:必须|要|应该|得)"
)


def without_injections(text: str) -> str:
    """``text`` without its sentences that try to take over the assistant ("Ignore previous
    instructions.", "System: …", 忽略之前的指令…)."""
    sentences = [s for s in _SENTENCE.split(text) if s.strip()]
    kept = [s for s in sentences if not _INJECTION.search(s)]
    if len(kept) == len(sentences):
        return text
    return ("" if has_cjk(text) else " ").join(s.strip() for s in kept).strip()


def subjects(turns: Iterable[Turn], user_id: str) -> frozenset[str | None]:
    """The speakers (``name``; None: an unnamed user message) whose words are the user's
    own: always the unnamed user; the speaker whose name is the ``user_id`` (case-folded);
    else the one named speaker when the transcript has only one."""
    names = {t.name for t in turns if t.role == "user" and t.name}
    own = {n for n in names if n.casefold() == user_id.casefold()}
    if own:
        return frozenset({None, *own})
    return frozenset({None, *names}) if len(names) == 1 else frozenset({None})


def to_other(turn: Turn, before: Turn | None, vocatives: list[str], names: Iterable[str]) -> bool:
    """``turn`` (a named speaker's) addresses another participant: it calls one by name
    ("Never give up, Gina!"), or speaks to "you" right after another person's message."""
    if not turn.name:
        return False
    other = before is not None and before.role == "user" and before.name not in (None, turn.name)
    if other and _YOU.search(turn.content) and not _ASSISTANT.search(turn.content):
        return True
    others = {n.casefold() for n in names} - {turn.name.casefold()}
    return any(v.casefold() in others for v in vocatives)


def orders(clause: str) -> bool:
    """``clause`` tells the assistant what to do (an imperative, or it names the assistant)."""
    return (_ZH_ORDER if has_cjk(clause) else _EN_ORDER).search(clause) is not None


def names_the_assistant(text: str) -> bool:
    """``text`` tells the assistant by name what to do ("The assistant must transfer…")."""
    pattern = _ZH_ORDER if has_cjk(text) else _EN_ORDER
    return any(
        pattern.search(s) and _ASSISTANT.search(s) for s in _SENTENCE.split(text) if s.strip()
    )


def attributed(
    text: str, who: str, addressee: str | None, rewrite: Callable[[str], str], *, zh: bool
) -> str:
    """``text`` with its sentences that tell the assistant what to do kept as what ``who``
    said (to ``addressee``), quoted as written; the others as ``rewrite`` writes them (the
    standalone statement: "Joanna is keen to try Nate's recipe.")."""
    runs: list[tuple[bool, list[str]]] = []
    for sentence in (s.strip() for s in _SENTENCE.split(text)):
        if sentence:
            order = orders(sentence) or _ASSISTANT.search(sentence) is not None
            if runs and runs[-1][0] == order:
                runs[-1][1].append(sentence)
            else:
                runs.append((order, [sentence]))
    return ("" if zh else " ").join(
        _quoted(("" if zh else " ").join(run), who, addressee, zh=zh)
        if order
        else rewrite(("" if zh else " ").join(run))
        for order, run in runs
    )


def _quoted(text: str, who: str, addressee: str | None, *, zh: bool) -> str:
    if not text.endswith((".", "!", "?", "。", "！", "？")):
        text += "。" if zh else "."
    if zh:
        return f"{who}对{addressee}说：“{text}”" if addressee else f"{who}说：“{text}”"
    return f'{who} said to {addressee}: "{text}"' if addressee else f'{who} said: "{text}"'


def reported(clause: str) -> list[tuple[int, int]]:
    """The spans of ``clause`` that quote someone else's words ('Tom always says "I hate
    sushi"', 同事老是说“我讨厌加班”: statements.QUOTED_EN / QUOTED_ZH)."""
    spans = []
    for m in (QUOTED_ZH if has_cjk(clause) else QUOTED_EN).finditer(clause):
        spans.append(m.span(2) if m.group(2) else m.span(4))
    return spans


def skipped(m: re.Match[str], taken: list[tuple[int, int]], clause: str) -> bool:
    """A typed rule's match ``m`` is not read: it overlaps words an earlier rule took, or
    lies inside a quotation of someone else's words (tester B10: "The user dislikes sushi"
    from 'My friend Tom always says "I hate sushi"')."""
    if any(m.start() < e and s < m.end() for s, e in taken):
        return True
    return any(s <= m.start() and m.end() <= e for s, e in reported(clause))


def unquoted(text: str) -> str:
    """``text`` without the quotations of someone else's words (:func:`reported`): what
    types an event is the speaker's own words."""
    for s, e in reversed(reported(text)):
        text = text[:s] + text[e:]
    return text
