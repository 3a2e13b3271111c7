"""Units that stand alone (issue 28, step 4), shared by the offline extractor and the LLM
path's post-processing, English and Chinese:

- **lead-ins** ("Reminder:", "FYI", "Just a reminder", 顺便说一下, 提醒一下) are taken off
  (:func:`strip_lead_ins`): a reminder that restates a stored fact then has the fact's own
  wording, and the write path merges it instead of adding a unit beside it;
- **a short answer** is completed with what it answers (:func:`complete_answer`): "Yes, it
  expires on 14 March 2027." after "Is your passport still valid?" becomes "my passport
  expires on 14 March 2027." (then written in the third person): the answer particle goes, a
  leading "it"/"they"/它 (or, in Chinese, a missing subject) becomes the thing the question
  asks about;
- **two events at two times** in one message are cut apart (:func:`split_by_time`), each
  with its own date, at the clause bound between the two time phrases;
- **the user's name**, when the transcript states it ("My name is Alice", 我叫李明), goes into
  the ``entities`` of every unit about the user (:func:`name_the_user`);
- **an event without what a constraint holds** (:func:`without_clauses`): "Window seat,
  please. And I am allergic to peanuts." → the event is the seat wish alone;
- **a move keeps its time** (:func:`dated_move`): "moved to Lisbon last month".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime

import rjieba
import simplemma

from app.core.text import has_cjk
from app.services.extraction import remember_requests
from app.services.extraction.date_labels import date_label, resolve_dates
from app.services.extraction.dates import TimeMatch, find_dates
from app.services.extraction.news import without_news
from app.services.memory.pairs.lexicon import names_people

_SENTENCE_START = r"(?:^|(?<=[.!?。！？]\s)|(?<=[.!?]\s\s)|(?<=[。！？\n]))"
_EN_LEAD_IN = re.compile(
    _SENTENCE_START
    + r"\s*(?:(?:just\s+)?(?:a\s+|one\s+more\s+)?(?:quick\s+|friendly\s+|gentle\s+)?reminder"
    r"|just\s+to\s+remind\s+you|as\s+a\s+reminder|fyi|f\.y\.i\.?|btw|by\s+the\s+way|heads[\s-]+up"
    r"|just\s+so\s+you\s+know|for\s+the\s+record|note|psa|actually|as\s+i\s+(?:said|mentioned|told\s+you)"
    # "Keep this private: …", "Between you and me, …": how to hold it, not what it says
    r"|(?:just\s+)?between\s+(?:you\s+and\s+me|us)|off\s+the\s+record|in\s+confidence|confidentially"
    r"|(?:please\s+)?keep\s+(?:this|it|that)\s+(?:private|confidential|secret|between\s+us|to\s+yourself)"
    r"|to\s+be\s+(?:honest|frank)|honestly|frankly|tbh"
    # "Update: actually I'm not vegetarian anymore" (tester E1), only before a colon
    r"|(?:(?:a\s+)?(?:quick|small|little|small)\s+)?(?:update|correction)(?=\s*:)"
    r"(?:\s+(?:before|earlier))?|(?:don't\s+forget|remember)(?=\s*[:,–—-]|\s+that\b))"
    # "A reminder to follow my passions" is the sentence's subject, not a lead-in (D11).
    r"(?:\s*[:,;–—!.-]+\s*|\s+that\s+|\s+(?=[A-Za-z])(?!(?:to|of|for|about|from|is|was)\b))",
    re.IGNORECASE,
)
_ZH_LEAD_IN = re.compile(
    _SENTENCE_START + r"\s*(?:顺便(?:说|提|讲)(?:一下|一句)?|顺带(?:说|提)(?:一下|一句)?"
    r"|(?:再|先)?提醒(?:你|您)?一下|友情提(?:示|醒)|温馨提(?:示|醒)|再说一(?:遍|次)|重申一下|备注|提醒|对了|顺便|别忘了"
    r"|你好|您好|嗨|其实|另外|说实话|老实说|悄悄(?:告诉|跟)你(?:说)?|(?:我)?私下(?:跟你)?说|别告诉别人)"
    r"[：:，,、！!。\s]*"
)
_EN_PARTICLE = re.compile(
    r"^\W*(?:yes|yeah|yep|yup|sure|definitely|absolutely|of\s+course|correct|right|indeed|"
    r"exactly|that's\s+right)\b[\s,!.:;–—-]*",
    re.IGNORECASE,
)
_ZH_PARTICLE = re.compile(
    r"^(?:是的|是啊|是呀|对的|对啊|对|嗯嗯|嗯|没错|当然|好的|要的|需要|可以|好啊|行)[，,！!。\s]*"
)
_EN_PRONOUN = re.compile(r"^(?:(it|they)(?:['’]s|['’]re|\s+is|\s+are)?|(it|they))\b",
                         re.IGNORECASE)  # fmt: skip
# The thing a question asks about: "your passport", "the meeting" (a determiner and its
# noun; a second word only when it is a head noun: "your phone number").
_EN_NP = re.compile(r"\b(your|the)\s+([a-z][\w-]*)(?:\s+([a-z][\w-]*))?", re.IGNORECASE)
_HEADS = frozenset(
    """number name address date day time card plan plans account code id size schedule bill
    appointment flight ticket meeting party birthday project report visa license licence
    insurance password email phone order trip booking reservation deadline interview
    exam class lesson shift contract""".split()
)
_NOT_NOUNS = frozenset(
    """still already yet really ever also even just now going coming doing getting being
    valid ok okay ready done good fine open booked right new old big same last next this
    first other one only most very so too much many more""".split()
)
_YES_NO = re.compile(
    r"^\W*(?:do|does|did|is|are|was|were|has|have|had|can|could|will|would|should)\b",
    re.IGNORECASE,
)
_ZH_NP_TAGS = ("n", "nz", "vn", "eng")


# "Can you remind me to call mom on Sunday?" asks for something to remember: a request, not a
# question (tester T24: it made no unit).
_EN_REMIND = re.compile(
    r"(?:^|(?<=[.!?]\s))(?:can|could|would|will)\s+you\s+(?:please\s+)?(remind\s+me\b[^?]*)\?",
    re.IGNORECASE,
)
# "Can you move the dentist appointment to Thursday instead?" asks for a change of plan: a
# request, not a question (tester E3: it made no unit and the old day stayed first).
_EN_CHANGE_REQUEST = re.compile(
    r"(?:^|(?<=[.!?]\s))(?:can|could|would|will)\s+you\s+(?:please\s+)?((?:move|reschedule|"
    r"push|postpone|cancel|change|switch|bring\s+forward)\b[^?]*)\?",
    re.IGNORECASE,
)


def strip_lead_ins(text: str) -> str:
    """``text`` without the reminder lead-ins that open its sentences ("Reminder: I'm
    allergic to peanuts." → "I'm allergic to peanuts."), requests to remember or be reminded
    as statements ("Can you remind me to…?" → "I want to be reminded to…."); unchanged when
    nothing is left."""
    text = remember_requests.carried(text)  # "Can you remember that I…?" (G3)
    if has_cjk(text):
        text = remember_requests.ZH_REMIND.sub(lambda m: "请" + m.group(1) + "。", text)
    else:
        text = _EN_REMIND.sub(lambda m: "I want to be reminded" + m.group(1)[9:] + ".", text)
        text = _EN_CHANGE_REQUEST.sub(lambda m: "Please " + m.group(1) + ".", text)
    out = without_news(text)  # "Big news:", 告诉你个大消息
    for _ in range(2):  # "Update: actually I'm…": two lead-ins in a row
        out = _EN_LEAD_IN.sub("", out).strip()  # a Chinese message may hold English sentences
    out = _ZH_LEAD_IN.sub("", out).strip() if has_cjk(text) else out
    if not out or not re.search(r"\w", out):
        return text
    return out[:1].upper() + out[1:] if not has_cjk(out[:1]) else out


def _question_np(question: str) -> str | None:
    """What ``question`` asks about, in the asker's words ("your passport", 你的护照)."""
    if has_cjk(question):
        tags = list(rjieba.tag(question))
        for i, (word, _) in enumerate(tags[:-1]):
            if word in ("你", "您") and tags[i + 1][0] == "的":
                nouns: list[str] = []
                for w, tag in tags[i + 2 :]:  # after 你的 a verb's tag is a noun's (签证)
                    if tag not in _ZH_NP_TAGS and (nouns or tag[:1] not in "va"):
                        break
                    nouns.append(w)
                if nouns:
                    return "你的" + "".join(nouns)
        return None
    for m in _EN_NP.finditer(question):
        det, head, second = m.group(1).lower(), m.group(2).lower(), (m.group(3) or "").lower()
        if det == "the" and not _YES_NO.match(question):
            continue  # "What did the doctor say?": the answer is not about the doctor
        if head in _NOT_NOUNS or head.endswith(("ing", "ed", "ly")):
            continue
        words = [head] + ([second] if second in _HEADS else [])
        return f"{det} {' '.join(words)}"
    return None


def _owned(np: str, owner: str | None) -> str:
    """The question's noun phrase as the one who answers says it ("your X" → "my X"), or
    about ``owner`` ("the user" → "the user's X", 用户 → 用户的X)."""
    if np.startswith(("你的", "您的")):
        return (owner or "我") + "的" + np[2:]
    return re.sub(r"^your\b", f"{owner}'s" if owner else "my", np, flags=re.IGNORECASE)


def _plural(np: str) -> bool:
    """Whether a noun phrase's head is plural by its English lemma (tickets, children)."""
    head = np.split()[-1].lower()
    return str(simplemma.lemmatize(head, lang="en")).lower() != head


# A yes/no question about a thing's state, and an answer that only adds when or how long.
_BE_QUESTION = re.compile(r"^\W*(is|are|was|were)\s+(?=(?:your|the)\s)", re.IGNORECASE)
_FRAGMENT = re.compile(
    r"^(?:until|till|through|since|from|by|on|in|at|for|till|next|last|this|tomorrow|"
    r"yesterday|\d)\b",
    re.IGNORECASE,
)


def complete_answer(answer: str, question: str, owner: str | None = None) -> str:
    """``answer`` (the reply to ``question``, first person; about ``owner`` when given, as
    an LLM writes it) as a statement of its own: the answer particle dropped, a leading
    pronoun — or, in Chinese, a missing subject — replaced by what the question asks about.
    Unchanged but for the particle when the question names nothing."""
    zh = has_cjk(answer)
    stripped = (_ZH_PARTICLE if zh else _EN_PARTICLE).sub("", answer, count=1).strip()
    if not stripped or not re.search(r"\w", stripped):
        return answer
    np = _question_np(question)
    if np is None:
        return stripped[:1].upper() + stripped[1:] if not zh else stripped
    mine = _owned(np, owner)
    said = _BE_QUESTION.match(question)
    if not zh and said and _FRAGMENT.match(stripped):  # "Is your passport still valid?" /
        rest = question[said.end() :].strip().rstrip("?").strip()  # "Yep, until 2027-03-14."
        if rest.lower().startswith(np.lower()):
            return f"{mine} {said.group(1).lower()}{rest[len(np) :]} {stripped}"
    if zh:
        if stripped.startswith("它"):
            return mine + stripped[1:]
        first = next(iter(rjieba.tag(stripped)), ("", ""))[1]
        subject = stripped.startswith(("我", "他", "她"))
        if first[:1] in ("m", "t", "d", "v", "a", "p") and not subject:
            return mine + stripped
        return stripped
    m = _EN_PRONOUN.match(stripped)
    they = m is not None and (m.group(1) or m.group(2)).lower() == "they"
    plural = _plural(np)
    if (
        m is None
        or (they and not plural and not names_people(np.split()[-1]))
        or (not they and plural)
    ):
        # "they" names no singular thing but a person or a group ("Are you going to the
        # festival?" / "They're the ones performing": the performers), nor "it" a plural
        # one: no antecedent.
        return stripped[:1].upper() + stripped[1:]
    verb = m.group(0)[len(m.group(1) or m.group(2)) :]
    verb = {"'s": " is", "’s": " is", "'re": " are", "’re": " are"}.get(verb.lower(), verb)
    if not plural and verb.strip().lower() == "are":
        verb = " is"  # the instructor is (they are)
    return mine + verb + stripped[m.end() :]


# Clause bounds a message may be cut at between two time phrases, strongest first.
_EN_BOUNDS = [
    re.compile(r"(?<=[.!?;])\s+"),
    re.compile(r",\s*(?:and|but|while|so|then|plus|also)\s+|,\s+(?=(?:I|we|my|our)\b)"),
    re.compile(r"\s+(?:and|but|while|whereas|then)\s+(?:also\s+)?"),
]
_ZH_BOUNDS = [
    re.compile(r"[。！？；;!?]+"),
    re.compile(r"[，,]\s*(?:而且|并且|然后|还有|另外)?"),
    re.compile(r"(?:而且|并且|然后|还有|另外)"),
]
_EN_SUBJECTLESS = re.compile(
    r"^(?!(?:i|we|he|she|they|it|you|my|our|his|her|their|the|a|an|this|that|there|"
    r"next|last|on|in|at|yesterday|today|tomorrow|tonight)\b)[a-z]+\b"
)


def split_by_time(text: str, dates: list[TimeMatch]) -> list[str]:
    """``text`` cut into one piece per time when it tells of events at different days (a
    coming meeting and yesterday's fix): at the strongest clause bound between each two
    time phrases of different days. One piece (``text``) when there is nothing to cut or
    no bound to cut at. A piece that lost its subject ("and fixed…") gets the first one's
    ("I")."""
    if len({d.day for d in dates}) < 2:
        return [text]
    zh = has_cjk(text)
    cuts: list[tuple[int, int]] = []
    for a, b in zip(dates, dates[1:], strict=False):
        if a.day == b.day:
            continue
        between = text[a.end : b.start]
        for bound in _ZH_BOUNDS if zh else _EN_BOUNDS:
            found = list(bound.finditer(between))
            if found:
                m = found[-1]
                cuts.append((a.end + m.start(), a.end + m.end()))
                break
    if not cuts:
        return [text]
    pieces, last = [], 0
    for start, end in cuts:
        pieces.append(text[last:start])
        last = end
    pieces.append(text[last:])
    pieces = [p.strip(" ,，、") for p in pieces]
    if any(not p for p in pieces):
        return [text]
    return [_with_subject(p, pieces[0], zh) if i else p for i, p in enumerate(pieces)]


def _with_subject(piece: str, first: str, zh: bool) -> str:
    if zh:
        subject = re.search(r"我|用户", first)
        if subject and not re.search(r"我|他|她|它|用户", piece):
            return subject.group(0) + piece
        return piece
    subject = re.search(r"\b(I|we|We|the\s+user|The\s+user)\b", first)
    if subject and _EN_SUBJECTLESS.match(piece):
        return f"{subject.group(1)[:1].upper()}{subject.group(1)[1:]} {piece}"
    return piece[:1].upper() + piece[1:]


# Up to three words, a title's period kept ("Dr. Anna Smith", "José Ángel"; H23: it was "Dr").
_WORD = r"[A-ZÀ-Þ][\w'’-]*(?:[.\u2024](?=\s+[A-ZÀ-Þ]))?"
_NAME = rf"{_WORD}(?:\s+{_WORD}){{0,2}}"
_NAME_STATEMENTS = [
    re.compile(rf"\bthe\s+user(?:'s|’s)\s+name\s+is\s+({_NAME})", re.IGNORECASE),
    re.compile(rf"\bthe\s+user\s+is\s+(?:called|named)\s+({_NAME})", re.IGNORECASE),
    re.compile(
        rf"用户(?:叫|名叫|的名字是|的姓名是)({_NAME}(?=[，。！？,.!?]|$)|[^，。！？,.!?\s的]{{1,10}})"
        r"(?=[，。！？,.!?\s]|$)"
    ),
]
_ABOUT_USER = re.compile(r"\bthe\s+user\b|用户", re.IGNORECASE)


def user_name(values: Iterable[str]) -> str | None:
    """The user's name as a unit states it ("The user's name is Alice.", 用户叫李明。)."""
    for value in values:
        for pattern in _NAME_STATEMENTS:
            m = pattern.search(value)
            if m:
                return m.group(1).strip()
    return None


def about_user(value: str) -> bool:
    """The value is about the user ("the user", 用户)."""
    return _ABOUT_USER.search(value) is not None


def name_the_user(entities: list[str], name: str) -> list[str]:
    """``entities`` with the user's ``name`` first (once, case-folded)."""
    rest = [e for e in entities if e.casefold() != name.casefold()]
    return [name, *rest]


def without_clauses(text: str, clauses: list[str]) -> str:
    """``text`` without ``clauses`` (those a typed unit holds entirely) and a conjunction
    left dangling ("I love tea, and I moved…" → "I love tea")."""
    for clause in clauses:
        text = text.replace(clause, " ")
    text = re.sub(r"[\s,，]*\b(?:and|but|so)\s*(?=[.!?]|$)", "", text, flags=re.IGNORECASE)
    text = re.sub(r"[\s,，]+(?=[，。！？.!?]|$)", "", text)
    return re.sub(r"\s+", " ", text).strip(" ,，")


_EN_AND = re.compile(r"(?:^|[\s,])(?:and|&)\s+(?:also\s+|then\s+)?(\w.*)$", re.IGNORECASE)
_ZH_AND = re.compile(r"^[\s，,]*(?:并且|而且|同时|和|跟|还有|还|也|并)(.+)$")


_EN_COUNTED = re.compile(r"(?:a|an|one|two|three|four|five|\d+|some)\b", re.IGNORECASE)
_ZH_COUNTED = re.compile(r"[一二两三四五六七八九十\d]")
_ZH_KIN_START = re.compile(
    r"^(?:儿子|女儿|老婆|妻子|丈夫|老公|孩子|妈妈|爸爸|母亲|父亲)(?:叫|是|名叫)"
)


def coordinated(rest: str, clause: str, zh: bool) -> str | None:
    """The clause joined by "and" / 和 to a typed unit's words, ``rest`` being what is left of
    its clause outside them, with the speaker as its subject again (tester B14: "I live in
    Berlin and work at Siemens" → "I work at Siemens"; "My wife is Anna and my son is Leo" →
    "my son is Leo"; 我有两个孩子和一只狗 → 我一只狗); None when nothing is joined."""
    m = (_ZH_AND if zh else _EN_AND).search(rest.strip())
    if m is None:
        return None
    tail = m.group(1).strip(" ,，")
    if zh:
        if tail.startswith("我"):
            return tail
        return ("我有" if _ZH_COUNTED.match(tail) and "我有" in clause else "我") + tail
    if re.match(r"(?:i|my|i'm|i've|i'd|i'll)\b", tail, re.IGNORECASE):
        return tail
    have = _EN_COUNTED.match(tail) and re.search(r"\bi\s+have\b", clause, re.IGNORECASE)
    return ("I have " if have else "I ") + tail


def subjectless(clause: str) -> str | None:
    """A Chinese clause that names a relative with the speaker left out (我老婆叫安娜，儿子叫
    小乐 → 我的儿子叫小乐), else None."""
    return "我的" + clause if _ZH_KIN_START.match(clause) else None


def whole_sentence(clause: str, text: str) -> bool:
    """``clause`` is a whole sentence of ``text``."""
    return re.search(rf"(?:^|[.!?]\s+){re.escape(clause)}(?:[.!?]*\s|[.!?]*$)", text) is not None


def dated_move(value: str, clause: str, now: datetime, zh: bool) -> tuple[str, date | None]:
    """A move with its clause's time ("… in November 2026 and now lives there"), and the day."""
    dates = find_dates(clause, now)
    if not dates:
        return value, None
    moved = re.search(r"\band now lives there\b|^用户(?:\S{0,12})?搬到", value)
    day = dates[0].day if moved and dates[0].day <= now.date() else None
    if dates[0].phrase in value:  # "moved to Boston in May": the place took its time along
        return resolve_dates(value, find_dates(value, now), zh=zh), day
    label = date_label(dates[0], zh=zh)
    if zh:
        return value.replace("用户搬到", f"用户{label}搬到", 1), day
    return value.replace(" and now lives there", f" {label} and now lives there", 1), day


def chunks(text: str, limit: int) -> list[str]:
    """``text`` cut at sentence ends into pieces of at most ``limit`` characters."""
    if len(text) <= limit:
        return [text]
    pieces, current = [], ""
    for sentence in re.split(r"(?<=[.!?。！？])\s*", text):
        while len(sentence) > limit:  # one very long sentence: cut at a space
            cut = sentence.rfind(" ", 0, limit)
            cut = cut if cut > limit // 2 else limit
            pieces.append((current + " " + sentence[:cut]).strip() if current else sentence[:cut])
            current, sentence = "", sentence[cut:].strip()
        if current and len(current) + 1 + len(sentence) > limit:
            pieces.append(current)
            current = ""
        current = f"{current} {sentence}".strip() if current else sentence
    if current:
        pieces.append(current)
    return [p for p in pieces if p.strip()]
