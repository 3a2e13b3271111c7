"""What extraction withholds (tester finding C25), for every extractor alike — the runner
applies it to the turns before they reach the extractor (an LLM never sees them) and to
every unit before it is stored:

- **a message that asks not to be remembered** ("Please don't remember this, but…", "don't
  save this", "off the record", 别记这个, 不要记住, 不要保存) is not read at all; a message
  that says only that withholds the same speaker's message before it too ("My PIN is 4321."
  / "Actually, don't remember that.");
- **a request to forget** ("Forget what I said about my address.", 把我的地址忘掉,
  忘掉我刚才说的) is cut out of its message: it is an instruction, not a fact. What it names
  earlier in the same transcript is not read either (tester D29,
  :mod:`app.services.extraction.forget_requests`): the clauses of the speaker's earlier
  messages about the topic ("address": "I live at 12 Elm Street"), the speaker's previous
  message for "Forget that.", every earlier message of theirs for "Forget everything I
  said.". Units stored by earlier jobs are not touched (the service does not delete by
  query): the job's outcome lists the request (``dropped``, with the sentence, what was not
  read, and what the caller should do for stored units);
- **secrets** (:mod:`app.services.extraction.secrets`) are replaced by a placeholder in the
  turns, and a unit's sentence holding a secret or the placeholder is dropped (the unit when
  nothing else is left: ``dropped``, the reason naming the kind, never the value).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from app.core.text import has_cjk
from app.services.extraction import forget_corrections, secrets
from app.services.extraction.forget_requests import (
    EVERYTHING,
    carries_topic,
    forget_topic,
    leading_request,
    redacted,
    without_topic,
)
from app.services.extraction.scripts import Scripts
from app.services.extraction.units import Candidate, Turn

_LEAD = r"(?:^|[,;:(—–-]\s*|\b(?:but|and|so|also|oh|okay|ok|actually|please|just)\s+)"
_ASK_NOT_TO_KEEP = re.compile(
    _LEAD + r"(?:please\s+|pls\s+)?(?:don['’]?t|do\s+not|never)\s+(?:ever\s+)?"
    r"(?:remember|save|store|record|keep|memori[sz]e|log|note\s+down|write\s+down)\s+"
    r"(?:this|that|it|these|those|any\s+of\s+(?:this|that|it)|the\s+following|what\s+I)\b"
    # "don't tell anyone or save this", "don't write that down", "don't keep a note of that"
    r"|\b(?:don['’]?t|do\s+not|never)\s+(?:[\w'’]+\s+){1,3}(?:or|and)\s+"
    r"(?:remember|save|store|record|keep|write\s+down|note\s+down)\s+(?:this|that|it)\b"
    r"|\b(?:don['’]?t|do\s+not|never)\s+(?:write|note|jot|put)\s+(?:this|that|it)\s+down\b"
    r"|\b(?:don['’]?t|do\s+not|never)\s+(?:keep|make|take)\s+(?:a\s+)?notes?\s+"
    r"(?:of|about|on)\s+(?:this|that|it)\b"
    r"|\byou\s+(?:don['’]t|do\s+not)\s+(?:need|have)\s+to\s+(?:remember|save|store|keep)\s+"
    r"(?:this|that|it)\b"
    r"|\bno\s+need\s+to\s+(?:remember|save|store|keep)\s+(?:this|that|it)\b"
    r"|\b(?:keep|leave)\s+(?:this|that|it)\s+out\s+of\s+(?:your\s+)?memory\b"
    r"|\boff\s+the\s+record\b"
    r"|\bi(?:['’]d|\s+would)\s+rather\s+you\s+(?:didn['’]t|did\s+not|not)\s+"
    r"(?:remember|save|store|keep)"
    r"|\bi\s+(?:don['’]t|do\s+not)\s+want\s+(?:you\s+to\s+(?:remember|save|store|keep)"
    r"|(?:this|that|it)\s+(?:to\s+be\s+)?(?:remembered|saved|stored|kept|recorded))"
    r"|(?:别|不要|不用|无需|不需要|请勿|勿)(?:帮我|给我)?(?:记住|记下|记录|记着|记这|记那|记我"
    r"|保存|存下|存储|储存|存这|存进|写进|写下)|(?:别|不要)记(?=[。！!，,]|$)",
    re.IGNORECASE,
)
_FORGET = re.compile(
    r"^(?:(?:oh|ok(?:ay)?|so|and|also|actually|hey)\b[\s,]*)*"
    r"(?:please\s+|(?:can|could|would|will)\s+you\s+(?:please\s+)?"
    r"|i\s+(?:want|need|would\s+like|['’]d\s+like)\s+you\s+to\s+)?"
    r"(?:forget\s+(?!(?:it|about\s+it)\b)\S"
    r"|(?:delete|erase|remove|wipe|scrub)\b.*(?:what\s+I\s+(?:said|told|mentioned|shared)"
    r"|from\s+(?:your\s+)?memory|\bmy\s+(?:data|information|info)\b)"
    # "Delete her peanut allergy" (tester D33): a stored fact to delete, not a fact
    r"|(?:delete|erase|remove|wipe)\s+(?:her|his|their|my|the|[A-Z]\w+['’]s)\s+(?:[\w-]+\s+){0,2}"
    r"(?:allerg(?:y|ies)|address|(?:phone\s+)?number|birthday|e-?mail|info(?:rmation)?|data|"
    r"details|records?|memor(?:y|ies)|notes?|preferences?|diet)\b)"
    r"|^(?:请你?|麻烦你?|你|帮我)*(?:忘掉|忘记|忘了|删掉|删除|抹掉|清除)"
    r"(?=.*(?:我(?:刚才|之前|上次|说|讲|提|告诉)|关于|有关|记忆))"
    r"|^(?:请你?|麻烦你?|你|帮我)+(?:忘掉|忘记|删掉|删除|抹掉)"
    r"|把.{1,30}(?:忘掉|忘了吧|忘记|删掉|删除|抹掉)",
    re.IGNORECASE,
)
# "Don't remember my phone number.", 别记我的手机号: a request to forget that names its topic
_DONT_KEEP_MY = re.compile(
    r"(?:don['’]?t|do\s+not|never)\s+(?:remember|save|store|keep|record)\s+my\b"
    r"|(?:别|不要|不用)(?:记住?|保存|存)我(?:的|在|住|是|叫|家)",  # 别记住我在哪里工作 (F6)
    re.IGNORECASE,
)
_SPLIT = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])|\n+")

FORGET_REASON = (
    "a request to forget is an instruction, not a memory: nothing was stored or forgotten by "
    "it (find the units with POST /recall or GET /memories and DELETE /memories/{id})"
)
FORGOTTEN_REASON = (
    "a request to forget is an instruction, not a memory: what it names earlier in this "
    "transcript was not read ({parts}); units stored before are not touched (find them with "
    "POST /recall or GET /memories and DELETE /memories/{{id}})"
)

CORRECTED_REASON = (
    "a correction: the words before it are taken back ({parts}) and the new statement after "
    "it is read; units stored before are not touched (find them with POST /recall or "
    "GET /memories and DELETE /memories/{{id}})"
)


@dataclass
class Screened:
    """The turns an extractor may read, and the outcome entries of what was withheld."""

    turns: list[Turn]
    dropped: list[dict[str, Any]] = field(default_factory=list)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SPLIT.split(text) if s and s.strip()]


def _join(parts: list[str]) -> str:
    return ("" if has_cjk("".join(parts)) else " ").join(parts)


_NO_CONTENT = re.compile(
    r"\b(?:actually|please|sorry|oh|ok|okay|but|and|just|thanks|wait|hmm|no)\b|这个|这些|那个"
    r"|这|那|哦|啊|吧|呀|好吗|谢谢|其实|请|[\W_]",
    re.IGNORECASE,
)


def _only_asks(text: str) -> bool:
    """The message says nothing but that it (or the one before) is not to be kept."""
    return not _NO_CONTENT.sub("", _ASK_NOT_TO_KEEP.sub("", text))


def asks_not_to_keep(text: str) -> bool:
    """The message asks that it not be remembered ("don't save this", 别记这个)."""
    return any(_ASK_NOT_TO_KEEP.search(s) for s in _sentences(text))


def _entry(value: str | None, reason: str) -> dict[str, Any]:
    return {"memory_id": None, "outcome": "dropped", "type": None, "value": value,
            "confidence": None, "reason": reason}  # fmt: skip


def screen(turns: list[Turn]) -> Screened:
    """``turns`` without what must not be read (see the module docstring), order kept. The
    rules read traditional characters as simplified (别记这个 for 別記這個); what is kept is
    in the user's own characters (:mod:`app.services.extraction.scripts`)."""
    scripts = Scripts(turns)
    out = _screen(scripts.read(turns))
    if not scripts.traditional:
        return out
    return Screened([scripts.turn(t) for t in out.turns], [scripts.entry(d) for d in out.dropped])


def _screen(turns: list[Turn]) -> Screened:
    out = Screened([])
    previous = ""  # the message before, as said: it may name the secret a reply gives (G6)
    for turn in turns:
        context, previous = previous, turn.content
        sentences = _sentences(turn.content)
        names_topic = any(_DONT_KEEP_MY.search(s) and forget_topic(s) for s in sentences)
        if turn.role == "user" and asks_not_to_keep(turn.content) and not names_topic:
            earlier = [t for t in out.turns if t.role == "user" and t.name == turn.name]
            if _only_asks(turn.content) and earlier:  # "Don't remember that.": the one before
                out.turns.remove(earlier[-1])
                if earlier[-1].index >= 0:
                    out.dropped.append(_entry(None, _asked(earlier[-1].index, turn.index)))
            if turn.index >= 0:
                out.dropped.append(_entry(None, _asked(turn.index, turn.index)))
            continue
        keep = sentences
        if turn.role == "user":
            keep = []
            forgetting: tuple[str, ...] = ()  # the topic of a request earlier in the message
            for sentence in sentences:
                if (fix := forget_corrections.read(sentence)) is not None:
                    parts = _take_back(out, turn, keep, fix)  # "Forget Denver, I live in…"
                    if turn.index >= 0 and parts:
                        said = CORRECTED_REASON.format(parts=", ".join(parts))
                        out.dropped.append(_entry(secrets.mask(redacted(fix.marker))[0], said))
                    continue
                if carries_topic(sentence, forgetting):  # "It is 12 Elm Street." (H16)
                    continue
                topic = forget_topic(sentence)  # 忘掉我的地址, "Stop remembering where I work."
                request, rest = sentence, ""
                if topic is None and (lead := leading_request(sentence)):
                    request, topic, rest = lead  # "Please forget my address, it is 12 Elm St"
                if not (topic or _FORGET.search(sentence) or _DONT_KEEP_MY.search(sentence)):
                    keep.append(sentence)
                    continue
                if rest:  # "Forget my address, but I'm allergic to peanuts.": the allergy
                    keep.append(rest)
                forgetting = topic or ()
                parts = _forget_earlier(out, turn, keep, topic)
                if turn.index >= 0:
                    why = FORGOTTEN_REASON.format(parts=", ".join(parts)) if parts else None
                    shown = secrets.mask(redacted(request))[0]  # never what it asked to forget
                    out.dropped.append(_entry(shown, why or FORGET_REASON))
            if not keep:
                continue
        content = turn.content if keep == sentences else _join(keep)
        masked, _ = secrets.mask(content, context)
        out.turns.append(replace(turn, content=masked) if masked != turn.content else turn)
    return out


def _forget_earlier(
    out: Screened, turn: Turn, before: list[str], terms: tuple[str, ...] | None
) -> list[str]:
    """Withhold what a request to forget in ``turn`` names (``terms`` of
    :func:`~app.services.extraction.forget_requests.forget_topic`) from the speaker's earlier
    turns in ``out`` and from ``before`` (the sentences of ``turn`` before the request, edited
    in place); what was withheld, said for the job's outcome (never the words)."""
    if terms is None:
        return []
    earlier = [t for t in out.turns if t.role == "user" and t.name == turn.name]
    if not terms or terms == EVERYTHING:
        gone = earlier[-1:] if not terms else earlier
        for t in gone:
            out.turns.remove(t)
        if terms == EVERYTHING:
            before.clear()
        return [f"message {t.index}" for t in gone if t.index >= 0]
    parts: list[str] = []
    for t in earlier:
        content, count = without_topic(t.content, terms)
        if count:
            i = out.turns.index(t)
            if content:
                out.turns[i] = replace(t, content=content)
            else:
                del out.turns[i]
            if t.index >= 0:
                parts.append(f"{count} part(s) of message {t.index}")
    kept = [c for s in before if (c := without_topic(s, terms)[0])]
    if len(kept) != len(before) or kept != before:
        parts.append(f"part of message {turn.index}")
        before[:] = kept
    return parts


def _take_back(
    out: Screened, turn: Turn, before: list[str], fix: forget_corrections.Correction
) -> list[str]:
    """Apply a correction read in ``turn`` (tester hbreak8 H13): what it takes back is
    withheld from ``before`` (the sentences of ``turn`` before it, edited in place) or the
    speaker's earlier turns in ``out``, and its new statement is appended to ``before``;
    what was taken back, said for the job's outcome (never the words)."""
    said = [fix.new] if fix.new else []  # "Scratch that." alone says nothing new
    if fix.old is not None:  # "Forget Denver, …", "…, not penicillin"
        parts = _forget_earlier(out, turn, before, fix.old)
        before += said
        return parts
    earlier = [t for t in out.turns if t.role == "user" and t.name == turn.name]
    old: str | None = before[-1] if before else earlier[-1].content if earlier else None
    if old is None or not (fix.strong or forget_corrections.same_thing(old, fix.new)):
        before += said
        return []
    new = [forget_corrections.restated(old, fix.new)] if fix.new else []
    if before:
        before[-1:] = new
        return [f"part of message {turn.index}"]
    out.turns.remove(earlier[-1])
    before += new
    return [f"message {earlier[-1].index}"] if earlier[-1].index >= 0 else []


def _asked(index: int, by: int) -> str:
    said = f"message {index}" if index == by else f"message {index} (message {by} said so)"
    return f"{said} asked not to be remembered: nothing of it was extracted"


def _clean(text: str) -> tuple[str, list[str]]:
    """``text`` without its sentences that hold a secret or the placeholder."""
    kinds: list[str] = []
    keep = []
    for sentence in _sentences(text):
        found = secrets.PLACEHOLDER_RE.findall(sentence) + [s.kind for s in secrets.find(sentence)]
        kinds += found
        if not found:
            keep.append(sentence)
    return (text if not kinds else _join(keep)), kinds


def screen_unit(cand: Candidate) -> tuple[Candidate | None, str | None]:
    """The unit as it may be stored, or None and why (the kind of secret, never its value).
    A sentence holding a secret is taken out of the value; an entity or query holding one
    is dropped."""
    value, kinds = _clean(cand.value)
    if not value:
        return None, f"held {kinds[0]}: never kept"
    entities = [e for e in cand.entities if not _clean(e)[1]]
    query = cand.query if cand.query is None or not _clean(cand.query)[1] else None
    if value == cand.value and entities == cand.entities and query == cand.query:
        return cand, None
    return cand.model_copy(update={"value": value, "entities": entities, "query": query}), None
