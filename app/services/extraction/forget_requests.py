"""What a request to forget names (tester D29), English and Chinese: the topic of "Forget what
I said about my address.", "Please don't remember my phone number.", 忘掉我刚才说的地址吧,
别记我的手机号, and the parts of earlier messages that speak of it. "Forget that." / 忘了吧
(no topic) names the speaker's previous message. :mod:`app.services.extraction.withhold`
acts on it before any extractor reads the transcript.

A topic matches a clause that holds one of the topic's words (English lemmas) or a word the
topic is usually said with ("address": live, street; 地址: 住在, 住址).
"""

from __future__ import annotations

import re

import simplemma

from app.core.text import has_cjk

_EN_REQUEST = re.compile(
    r"^\W*(?:(?:actually|oh|and|also|ok|okay|hmm|wait|so|on\s+second\s+thought)\W+)*"
    r"(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?"
    r"(?:forget|disregard|ignore|delete|erase|remove|stop\s+remembering|"
    r"don'?t\s+(?:remember|keep|store|save)|do\s+not\s+(?:remember|keep|store|save))\b"
    r"(?:\s+(?:the\s+)?(?:note|notes|memory|memories|anything|what\s+you\s+know))?"
    r"(?:\s+(?:what|anything)\s+i\s+(?:just\s+)?(?:said|told\s+you|mentioned|wrote))?"
    r"(?:\s+(?:about|regarding))?(?:\s+(?:my|the))?(?P<topic>(?:\s+[\w'-]+){0,3}?)"
    r"(?:\s+i\s+(?:just\s+)?(?:said|told\s+you|mentioned|wrote))?"
    r"(?:,?\s+please)?\s*[.!]*\s*$",
    re.IGNORECASE,
)
_ZH_REQUEST = re.compile(
    r"^\W*(?:其实|那|那就|还是|算了[，,]?)?(?:请|麻烦)?(?:你)?"
    r"(?:忘掉|忘了|忘记|别记住?|不要记住?|别记录|删掉|删除)"
    r"(?:我的|我)?(?:刚才|之前|刚刚)?(?:说的|讲的|提到的|告诉你的)?(?:关于)?(?:我的)?"
    r"(?P<topic>[^，。！？,.!?\s]{0,8}?)(?:的事|的事情|这件事)?(?:吧|啊|哦|呀)?[。！!.]*$"
)
_ZH_BA = re.compile(  # 把我的地址忘掉
    r"^\W*(?:其实|那|那就|还是)?(?:请|麻烦)?(?:你)?把(?:我的|我)?(?:刚才|之前|刚刚)?"
    r"(?:说的|讲的|提到的|告诉你的)?(?P<topic>[^，。！？,.!?\s]{0,8}?)(?:给我)?"
    r"(?:忘掉|忘了|忘记|删掉|删除|抹掉)(?:吧|啊|哦|呀)?[。！!.]*$"
)
_PREVIOUS = {"", "that", "it", "this", "what", "那个", "这个", "它", "话", "的话", "这句话"}
_ALL = {"everything", "all", "all of it", "all of that", "全部", "所有", "一切", "所有的话"}
_FUNCTION = frozenset(
    "her his their your our its my the a an of about all any some him them anymore where what "
    "who when how i".split()
)
# "Forget it." / "forget about it": never mind, no request (as withhold's _FORGET reads it)
_NEVER_MIND = re.compile(r"^\W*(?:oh\W+|ok\W+|okay\W+)?forget\s+(?:about\s+)?it\b", re.IGNORECASE)
EVERYTHING = ("*",)  # "Forget everything I said.": every earlier message of the speaker
# Words a topic is usually said with, when the unit does not name the topic itself.
_EN_SAID_WITH: dict[str, tuple[str, ...]] = {
    "address": ("live", "street", "road", "avenue", "apartment", "apt"),
    "home": ("live", "street", "road", "avenue", "apartment"),
    "phone": ("number", "cell", "mobile"),
    "number": ("phone", "cell", "mobile"),
    "birthday": ("born",),
    "email": ("e-mail", "mail"),
}
_ZH_SAID_WITH: dict[str, tuple[str, ...]] = {
    "地址": ("住在", "住址", "家在", "住的"),
    "住址": ("住在", "地址", "家在"),
    "手机号": ("手机", "电话", "号码"),
    "手机": ("电话", "号码"),
    "电话": ("手机", "号码"),
    "生日": ("出生",),
    "邮箱": ("邮件", "email"),
}
# A clause: a sentence, or a part of one the speaker opens again ("…, and I'm…", "…, I'm…").
_EN_CLAUSE = re.compile(
    r"(?<=[.!?])\s+|(?:;\s*|,\s+|,?\s+(?:and|but)\s+)(?=(?:i|i'm|i've|my|we|our)\b)",
    re.IGNORECASE,
)
_ZH_CLAUSE = re.compile(r"(?<=[，,；;。！？!?])")
# A clause that only leads into the next one ("When I was ten, …", 因为…，…): it goes with it.
_LEADS_IN = re.compile(
    r"^\W*(?:when|whenever|if|because|since|after|before|while|although|though|as|once|"
    r"until|unless|ever\s+since)\b[^.!?]*$|^\W*(?:因为|如果|虽然|当|自从)[^。！？!?]*$",
    re.IGNORECASE,
)


def forget_topic(sentence: str) -> tuple[str, ...] | None:
    """The words a request to forget names: () for "that" (the speaker's previous message),
    None when the sentence is no request this module reads."""
    zh = has_cjk(sentence)
    if _NEVER_MIND.match(sentence):
        return None
    m = (_ZH_REQUEST if zh else _EN_REQUEST).match(sentence.strip())
    if m is None and zh:
        m = _ZH_BA.match(sentence.strip())
    if m is None:
        return None
    terms = _terms(m.group("topic").strip().lower(), zh)
    # Only what the speaker said of their own: "Delete her peanut allergy" forgets no clause
    # of the user's ("I'm allergic to peanuts" stays).
    own = "我" in sentence if zh else re.search(r"\b(?:my|i)\b", sentence, re.IGNORECASE)
    return terms if not terms or terms == EVERYTHING or own else None


def _terms(topic: str, zh: bool) -> tuple[str, ...]:
    if topic in _PREVIOUS:
        return ()
    if topic in _ALL:
        return EVERYTHING
    if zh:
        return (topic, *_ZH_SAID_WITH.get(topic, ()))
    words = [str(simplemma.lemmatize(w, lang="en")).lower() for w in topic.split()]
    words = [w for w in words if w not in _PREVIOUS and w not in _FUNCTION and len(w) > 1]
    return tuple(dict.fromkeys([*words, *(t for w in words for t in _EN_SAID_WITH.get(w, ()))]))


def names_topic(value: str, terms: tuple[str, ...]) -> bool:
    """Whether a unit's value speaks of the request's topic (``terms`` of
    :func:`forget_topic`)."""
    if has_cjk(value) or any(has_cjk(t) for t in terms):
        return any(t in value for t in terms)
    lemmas = {str(simplemma.lemmatize(w, lang="en")).lower() for w in re.findall(r"[\w'-]+", value)}
    return any(t in lemmas for t in terms)


def without_topic(text: str, terms: tuple[str, ...]) -> tuple[str, int]:
    """``text`` without its clauses that speak of the topic, and how many went ("My phone
    number is 555-0134 and I'm vegetarian." → "I'm vegetarian."). A clause is a sentence or
    a part of one the speaker opens again ("…, I'm…"): "I live at 12 Elm Street. I'm allergic
    to peanuts." keeps the allergy (tester hbreak6 G16: the whole message went)."""
    zh = has_cjk(text)
    clauses = [c for c in (_ZH_CLAUSE if zh else _EN_CLAUSE).split(text) if c and c.strip()]
    gone = [names_topic(c, terms) for c in clauses]
    for i in range(len(clauses) - 2, -1, -1):  # "When I was ten, I lived on Elm Street."
        gone[i] = gone[i] or (gone[i + 1] and bool(_LEADS_IN.match(clauses[i])))
    keep = [c.strip() for c, went in zip(clauses, gone, strict=True) if not went]
    if len(keep) == len(clauses):
        return text, 0
    if zh:
        joined = "".join(keep).rstrip("，,；;")
        end = "" if not joined or re.search(r"[。！？!?]$", joined) else "。"
        return joined + end, sum(gone)
    sentences = [c.rstrip(",;") for c in keep]
    joined = " ".join(
        c[:1].upper() + c[1:] + ("" if re.search(r"[.!?]$", c) else ".") for c in sentences if c
    )
    return joined, sum(gone)


# Where a request to forget ends and what it carries begins: "Please forget my address, it is
# 12 Elm Street" (tester hbreak7 H16), 忘掉我的地址吧，是建国路88号.
_REQUEST_END = re.compile(r"\s*(?:[,，;；:：—–]|\s-\s)\s*")
# A sentence after the request that speaks of what it names: "It is 12 Elm Street."
_POINTS_BACK = re.compile(r"^\W*(?:it|that|this|which)\b|^\W*(?:它|这|那|是|就是)", re.IGNORECASE)
_DIGITS = re.compile(r"[\w/+.-]*\d[\w/+.-]*")


def leading_request(sentence: str) -> tuple[str, tuple[str, ...], str] | None:
    """The request to forget that opens ``sentence`` followed (after a comma, a colon, a
    dash) by more words: the request's words, its topic (:func:`forget_topic`) and what
    follows when that is not what it names ("…, but I'm allergic to peanuts"; "" for "…, it
    is 12 Elm Street") — else None."""
    parts = _REQUEST_END.split(sentence.strip(), maxsplit=1)
    if len(parts) < 2 or not parts[1].strip():
        return None
    terms = forget_topic(parts[0])
    if terms is None:
        return None
    rest = re.sub(r"^(?:but|and|also|though)\s+", "", parts[1].strip(), flags=re.I)
    rest = "" if carries_topic(rest, terms) or not terms else rest
    return parts[0].strip(), terms, rest[:1].upper() + rest[1:]


def carries_topic(sentence: str, terms: tuple[str, ...]) -> bool:
    """A sentence after a request to forget that gives what it names: it speaks of the
    topic, or points back to it ("It is 12 Elm Street.", 是建国路88号。)."""
    return bool(terms) and (names_topic(sentence, terms) or bool(_POINTS_BACK.match(sentence)))


def redacted(request: str) -> str:
    """A request to forget as the job's outcome may show it: its words holding a digit
    (a number, a code, a house number it gives) left out."""
    return re.sub(r"\s{2,}", " ", _DIGITS.sub("…", request)).strip()
