"""Which sentences of a message carry no memory: filler, in English and Chinese.

A sentence is filler when, once greetings, thanks, sign-offs, interjections, reactions
("that's amazing", 太好了), vocatives ("Thanks, Maria!") and emoji are taken away, no content
word is left — or when it is a question whose only words are question words and pointers
("How have you been?", "What about you?", 你呢？, 最近怎么样？). Encouragements and sign-offs
that only address the other party ("Good luck with your store!", "Keep it up!", 加油) are
filler too: what they point at was said, and kept, in the other party's own turn.

The word lists below hold only words that carry no topic of their own: a word missing from
them keeps a sentence (a kept reaction costs one unit; a dropped statement loses a memory).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import rjieba

from app.core.text import has_cjk
from app.services.extraction.abbreviations import DOT
from app.services.extraction.tense import is_past

_EN_SENTENCE = re.compile(r"(?<=[.!?…])\s+|\n+")
# Chinese sentences keep their final mark: joined again, they stay apart (tester C9: "每晚不超过
# 500元 用户…刚换了工作" glued two statements with a space).
_ZH_SENTENCE = re.compile(r"(?<=[。！？!?～~…])(?![。！？!?～~…])|(?<=\.)\s+|\n+")
_EN_WORD = re.compile(r"[a-z]+(?:['’][a-z]+)?|\d+")
# "Thanks, Maria!" / "Wow, Mel." / "Hey Tim!": a capitalised name set off as an address.
_VOCATIVE = re.compile(
    r"(?:^\s*(?:hey|hi|hello|thanks|thank\s+you|bye|oh|wow|yeah|yes|no|sure|congrats|"
    r"congratulations|aw+|haha)\s+|(?<=[,!.?])\s*)"
    # the name capitalised (tester D35: ", loves Minecraft." was read as one)
    r"(?-i:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s*(?=[,!.?]|$)",
    re.IGNORECASE,
)
_ADDRESS = re.compile(r"(?:^|,)\s*([A-Z][a-z]+)\s*(?=[,!.?]|$)")

# Words that carry no topic of their own: function words, pointers, interjections, thanks,
# greetings, evaluations and feelings that react to what the other party said.
_EN_EMPTY = frozenset(
    """
    a an the and or but so of to in on at for with by from as about into up out off over
    i me my mine myself we us our you your yours yourself he him his she her it its they them
    their this that these those there here what which who whom whose how why when where
    is are was were be been being am do does did done doing have has had having will would
    shall should can could may might must let lets let's i'm i've i'll i'd you're you've
    you'll you'd it's that's there's what's how's who's he's she's they're we're isn't aren't
    wasn't don't doesn't didn't can't couldn't won't wouldn't haven't hasn't
    just really very so such too also quite pretty totally definitely absolutely truly
    indeed sure surely certainly exactly right true well yet still even all both any some
    much more most lot lots bit kind sort like as if then than now again ever always
    oh ooh ah aah aw aww awww wow whoa woah hey hi hello hiya yo heya yay yeah yea yes yep
    yup no nope nah ok okay okey k kk alright hmm hm um uh mhm haha hahaha hehe lol lmao
    omg gosh geez wow ha heh ugh oops phew cheers bye goodbye later soon take care
    thanks thank thx ty appreciate appreciated appreciating welcome please sorry pardon
    glad happy pleased proud grateful thankful excited thrilled bummer
    good great nice cool awesome amazing wonderful fantastic fabulous incredible
    awesome terrific superb brilliant excellent lovely beautiful gorgeous stunning sweet
    cute fun funny interesting impressive inspiring inspirational touching moving
    neat rad epic unbelievable remarkable admirable
    love loved lovely hope hoping wish wishing bet guess think thought feel feeling felt
    sound sounds sounded look looks looked seem seems seemed must've mustve
    see seeing saw hear heard hearing know knew knowing get got getting
    thing things stuff way one ones something anything everything nothing
    keep going chat chatting talk talking catch catching
    up doing been lately today congrats congratulations luck looking forward agree agreed
    imagine posted updated support supporting supportive wait tell words wanted say said
    means mean meant best worth each other everyone someone anyone deserve deserves give
    doubt reminds remind reminded share sharing shared
    """.split()
)
# Imperatives that only cheer the other party on or close the conversation.
_EN_CHEER = re.compile(
    r"^(?:(?:and|so|oh|well)\s+)?(?:good\s+luck|best\s+of\s+luck|have\s+(?:a\s+)?(?:fun|"
    r"great|good|nice|blast|wonderful)|take\s+care|keep\s+(?:it\s+up|up\s+the|going|at\s+it|"
    r"rocking|shining|pushing|chasing|doing|me\s+posted|you\s+posted|us\s+posted)|"
    r"stay\s+(?:safe|strong|positive|motivated|focused|tuned|awesome|cool)|see\s+you|"
    r"talk\s+(?:to\s+you\s+)?(?:soon|later)|chat\s+(?:soon|later)|catch\s+you|bye|"
    r"enjoy\s+(?:it|yourself|your)|congrat|well\s+done|way\s+to\s+go|you\s+(?:got|can\s+do)\s+"
    r"this|you\s*(?:'re|\s+are)\s+(?:doing\s+)?(?:amazing|awesome|great|so|such|the\s+best|"
    r"welcome)|i'?m\s+(?:so\s+)?(?:happy|glad|proud)\s+for\s+you|thanks?\b|thank\s+you)",
    re.IGNORECASE,
)
_EN_QUESTION_WORDS = frozenset(
    "what how why when where which who whom whose anything everything something new news "
    "up else about going doing been happening happened going on today lately recently life".split()
)

_ZH_EMPTY = frozenset(
    """
    你好 您好 大家好 嗨 哈喽 哈罗 早 早上好 晚上好 晚安 下午好 再见 拜拜 回见 回头见
    谢谢 多谢 感谢 谢了 谢啦 不客气 不用谢 没事 没关系 辛苦 辛苦了
    好 好的 好吧 好啊 好哒 好滴 行 行吧 可以 嗯 嗯嗯 哦 噢 喔 啊 呀 哇 哈 哈哈 哈哈哈 呵呵 嘿嘿
    对 对的 对啊 是 是的 是啊 没错 当然 明白 明白了 了解 知道 知道了 收到 懂 懂了 OK ok
    太好了 真好 真棒 好棒 厉害 太棒了 棒 不错 挺好 很好 真的 真 太 很 非常 特别 超 挺 蛮
    加油 恭喜 祝贺 开心 高兴 哇塞 天哪 我的天 有意思 有趣 酷 牛 赞 好厉害
    的 了 吗 呢 吧 啊 呀 哦 嘛 啦 哈 呗 么 我 你 您 他 她 它 我们 你们 他们 这 那 这个 那个
    这样 那样 就 也 都 还 又 再 很 太 真 一下 一点 有点 怎么 怎么样 怎样 如何 什么 啥
    为什么 哪 哪里 哪儿 多少 最近 今天 近来 一切 顺利 好久不见 好久 不见 听起来 看起来
    """.split()
)
# Evaluations and feelings: a sentence of these plus a pointer only reacts.
_EN_EVALUATIVE = frozenset(
    """good great nice cool awesome amazing wonderful fantastic fabulous incredible terrific
    superb brilliant excellent lovely beautiful gorgeous stunning sweet cute fun funny
    interesting impressive inspiring inspirational touching moving neat rad epic remarkable
    admirable rewarding exciting thrilling fulfilling meaningful special tough hard scary
    brave strong passionate dedicated talented proud glad happy sorry adorable peaceful
    relaxing delicious exhilarating powerful important awful terrible unfortunate""".split()
)
_ZH_EVALUATIVE = frozenset(
    "好 棒 厉害 不错 漂亮 好看 可爱 有趣 有意思 辛苦 难 酷 美 好吃 感人".split()
)
_EN_FIRST = re.compile(
    r"\b(?:i|i['’](?:m|ve|ll|d)|me|my|mine|myself|we|we['’](?:re|ve|ll|d)|us|our|ours)\b",
    re.IGNORECASE,
)
_EN_SECOND = re.compile(r"\b(?:you|your|yours|yourself|ya|you['’](?:re|ve|ll|d))\b", re.I)
_EN_ADVICE = re.compile(r"\b(?:can|could|should|try|use|check|need|recommend)\b", re.I)
_EN_REACTION_FRAME = re.compile(
    r"^(?:\W*(?:wow|oh|aw+|yeah|yes|ah|hmm)\W+)?(?:(?:it|that|this|those|these|they)"
    r"(?:['’]s|['’]re|\s+is|\s+are|\s+sounds?|\s+looks?|\s+seems?|\s+must)|sounds?|looks?|"
    r"seems?|must|what\s+a|how|so|such)\b",
    re.IGNORECASE,
)
# A feeling about what the other party said, opening the sentence.
_EN_GLAD = re.compile(
    r"^\W*(?:so\s+|really\s+|just\s+)?(?:glad|happy|great|good|nice)\s+(?:to\s+(?:hear|see|know)|"
    r"(?:that\s+)?(?:i|we|you)\b)",
    re.IGNORECASE,
)
# A capitalised word after the first one that is not an address ("Thanks, Maria!").
_EN_NAME = re.compile(r"(?<=[\w\"'”’)]\s)[A-Z][\w'’-]+|(?<=[-–—:]\s)[A-Z][\w'’-]+")
_TRAILING_NAME = re.compile(r"\s[A-Z][a-z]+\W*$")
_ZH_FIRST = re.compile(r"我|咱")
_ZH_SECOND = re.compile(r"你|您")
_ZH_ADVICE = re.compile(r"可以|应该|试试|建议|推荐|需要")
_REACTION_MAX_WORDS = 4
_STATING = ("self", "statement")
# A message says something worth an event with at least this many content words in its
# stating sentences ("I'll keep you posted" has one: "posted"; "Nothing beats a good book"
# two: "beats", "book")…
MIN_CONTENT_WORDS = 3
# …or this many in sentences about the speaker ("I adopted a cat").
MIN_OWN_WORDS = 2

# What the speaker has, takes or does as a matter of course: one content word is a fact
# ("I have diabetes.", "I take insulin.", "I'm 34."; tester E31: no unit at all).
_SELF_STATE = re.compile(
    r"^\W*(?:i\s+(?:also\s+|still\s+)?(?:have|own|take|use|drive|play|wear|smoke|speak|"
    r"study|need)\s+(?!(?:been|to|got|had|no|nothing|it|that|this|them)\b)|"
    r"i\s*(?:'m|\s+am)\s+(?:\d+|diabetic|asthmatic|epileptic|deaf|blind|pregnant|"
    r"left-handed|right-handed|colou?r-?blind|sick|ill|unemployed|engaged|(?:originally\s+)?"
    r"from\s+\w+|in\s+(?-i:[A-Z])\w+|(?-i:[A-Z][a-z]+(?:ese|ian|an|ish|ch|i))|in\s+(?:the\s+)?"
    r"(?:hospital|icu|er|rehab|labou?r)|getting\s+(?:a\s+)?(?:divorced?|married|surgery))\b)"
    # life events and abilities: "I got promoted.", "I can't swim." (one content word)
    r"|^\W*i\s+(?:just\s+)?got\s+(?:promoted|engaged|married|divorced|fired|hired|laid\s+off|"
    r"accepted|admitted|elected|sick|injured|dumped|pregnant|vaccinated)\b"
    r"|^\W*i\s+(?:can't|cannot|can\s+not|can)\s+(?:swim|drive|cook|read|ski|dance|sing)\b"
    r"|^\W*i\s+(?:don't|do\s+not)\s+(?:have|own)\s+(?:an?|any)\s+\w"
    r"|^我(?:有|在吃|在用|戴|坐|抽|是|怀孕|退休|结婚|离婚|订婚|升职|失业|辞职|离职|毕业|生病|感冒|搬家|"
    r"戒烟|戒酒|分手)",
    re.IGNORECASE,
)
_ZH_CHEER = re.compile(r"^(?:祝你|祝您|加油|恭喜|辛苦|期待|保重|一路顺风|玩得开心|注意安全)")


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (English: after . ! ? …; Chinese: after 。！？, which they
    keep, after ". " of the English in it, and at line breaks)."""
    pattern = _ZH_SENTENCE if has_cjk(text) else _EN_SENTENCE
    return [s.strip() for s in pattern.split(text) if s and s.strip(" ,，、。！？!?～~…")]


# A greeting that opens a sentence before what it says ("Hi, 我叫Lena, …", "Hey, I moved…"):
# no part of the statement (tester C9).
_GREETING = re.compile(
    r"^(?:hi|hey|hello|hiya|heya|yo|good\s+(?:morning|afternoon|evening)|你好|您好|嗨|哈喽|哈罗)"
    r"(?:\s+there|\s+(?-i:[A-Z][a-z]+))?\s*[,，!！]\s*(?=\S)",
    re.IGNORECASE,
)


def without_greeting(sentence: str) -> str:
    """``sentence`` without a greeting that opens it ("Hi, I'm Lena." → "I'm Lena.")."""
    return _GREETING.sub("", sentence, count=1)


def _strip_symbols(text: str) -> str:
    return "".join(
        " " if unicodedata.category(ch)[0] in "PSZC" and ch not in "'’" else ch for ch in text
    )


def _is_question(sentence: str) -> bool:
    return (
        sentence.rstrip().endswith(("?", "？"))
        or re.search(r"(?:[吗呢么]|对吧|是吧|对不对|是不是)\W*$", sentence) is not None
    )


# Words the empty list holds for their other sense ("so moving", "keep going", "may") that
# carry the topic here: "I'm moving to Denver in May." made no unit at all.
_TOPICAL = re.compile(
    r"\b(?:[Mm]oving|[Gg]oing|[Hh]eading|[Ff]lying|[Tt]ravell?ing)(?=\s+(?:back\s+)?to\s+(?:the\s+)?"
    r"[A-Z])|\b(?:[Mm]oving|[Rr]elocating)(?=\s+(?:abroad|away|out|in|house|home|back)\b)"
    r"|(?<=\bin\s)May\b"
)


def content_words(sentence: str) -> list[str]:
    """The words of ``sentence`` that carry a topic (see the module docstring)."""
    if has_cjk(sentence):
        words = [w.strip() for w in rjieba.cut(_strip_symbols(sentence))]
        return [w for w in words if w and w not in _ZH_EMPTY and not w.isspace()]
    # an initialism kept whole ("M.I.T.", abbreviations.protect_text): one word, "mit"
    text = _VOCATIVE.sub(" ", sentence.replace(DOT, ""))
    words = _EN_WORD.findall(_strip_symbols(text).lower().replace("’", "'"))
    # a number carries the topic's value ("My birthday is May 3.", tester E2: no unit)
    kept = [w for w in words if (w not in _EN_EMPTY and len(w) > 1) or w.isdigit()]
    return kept + [m.group(0).lower() for m in _TOPICAL.finditer(text)]


def is_filler(sentence: str) -> bool:
    """True when the sentence carries nothing worth remembering (module docstring)."""
    stripped = sentence.strip()
    if not _strip_symbols(stripped).strip():  # emoji / punctuation only
        return True
    zh = has_cjk(stripped)
    if (_ZH_CHEER if zh else _EN_CHEER).match(stripped.lstrip("¡¿ ")):
        return True
    words = content_words(stripped)
    if not words:
        return True
    if _is_question(stripped) and not zh:
        return all(w in _EN_QUESTION_WORDS for w in words)
    return False


def informative(text: str) -> list[str]:
    """The sentences of ``text`` that are not filler, in order, without a greeting that
    opens them."""
    return [without_greeting(s) for s in sentences(text) if not is_filler(s)]


Kind = Literal["question", "self", "reaction", "statement"]


def sentence_kind(sentence: str) -> Kind:
    """What an informative sentence does: asks (``question``), says something about the
    speaker (``self``: first person), only reacts to the other party (``reaction``: second
    person or "it/that/sounds…" with an evaluation, few content words and no name), or
    states something else (``statement``)."""
    if _is_question(sentence):
        return "question"
    zh = has_cjk(sentence)
    if not zh and _EN_GLAD.match(sentence) and not is_past(sentence, zh=False):
        return "reaction"  # "Glad I can be part of this journey!" (tester C11)
    if (_ZH_FIRST if zh else _EN_FIRST).search(sentence):
        return "self"
    words = content_words(sentence)
    topical = [w for w in words if w not in (_ZH_EVALUATIVE if zh else _EN_EVALUATIVE)]
    if len(topical) > _REACTION_MAX_WORDS or (not zh and _names_something(sentence)):
        return "statement"
    second = (_ZH_SECOND if zh else _EN_SECOND).search(sentence) is not None
    evaluates = len(topical) < len(words) or (
        not zh and _EN_EVALUATIVE.intersection(_EN_WORD.findall(sentence.lower()))
    )
    if second and (evaluates or not (_ZH_ADVICE if zh else _EN_ADVICE).search(sentence)):
        return "reaction"
    if evaluates and (zh or _EN_REACTION_FRAME.match(sentence)):
        return "reaction"
    return "statement"


@dataclass(frozen=True)
class Reading:
    """A message read for memory: its informative sentences and their kinds.

    ``says``: it states something (``self`` and ``statement`` sentences with at least
    :data:`MIN_CONTENT_WORDS` content words between them, or :data:`MIN_OWN_WORDS` in the
    ``self`` ones: "I adopted a cat") — such a message becomes an
    event, and so does a shorter answer to a question ("Window, please."), whose question
    completes it; ``asks``: it asks something with content — its question is the trigger
    scenario of the reply."""

    sentences: tuple[str, ...]
    kinds: tuple[Kind, ...]

    @property
    def stated_words(self) -> int:
        """Content words in the sentences that state something."""
        stated = [s for s, k in zip(self.sentences, self.kinds, strict=True) if k in _STATING]
        return sum(len(content_words(s)) for s in stated)

    @property
    def says(self) -> bool:
        if self.stated_words >= MIN_CONTENT_WORDS:
            return True
        own = [s for s, k in zip(self.sentences, self.kinds, strict=True) if k == "self"]
        if any(_SELF_STATE.match(s) and content_words(s) for s in own):
            return True  # "I have diabetes.", "I drive a Tesla.", 我有糖尿病 (tester E31)
        return sum(len(content_words(s)) for s in own) >= MIN_OWN_WORDS

    @property
    def asks(self) -> bool:
        return "question" in self.kinds

    def text(self) -> str:
        """The informative sentences from the first to the last one that states something
        (reactions in between are kept, filler around them dropped), without its questions:
        a question is no memory of its own (tester C11: "Got any tips for marketing?" ended
        26 units); it lives on as the trigger scenario of its answer. A one-word echo
        ("Paris?!") stays: what follows may point at it."""
        keep = [
            i
            for i, k in enumerate(self.kinds)
            if k != "reaction" and (k != "question" or _echo(self.sentences[i]))
        ]
        if not keep:
            return ""
        kept = self.sentences[keep[0] : keep[-1] + 1]
        kinds = self.kinds[keep[0] : keep[-1] + 1]
        return join(s for s, k in zip(kept, kinds, strict=True) if k != "question" or _echo(s))

    @property
    def asks_only(self) -> bool:
        """Its questions are all it says beyond reactions: they live in no unit of its own."""
        return self.asks and not self.text()


def _echo(sentence: str) -> bool:
    """A question of one word that names something ("Paris?!"), no question of its own."""
    words = sentence.split()
    return (
        len(words) == 1
        and words[0][:1].isupper()
        and not _EN_QUESTION_WORDS.intersection([words[0].strip("?!").lower()])
    )


def join(parts: Iterable[str]) -> str:
    """Sentences joined again: with a space in English, as they are in Chinese (they keep
    their marks, :func:`sentences`)."""
    out = ""
    for part in parts:
        glue = "" if not out or has_cjk(out[-1]) or out[-1] in "。！？" else " "
        out += glue + part
    return out


def read(text: str) -> Reading:
    """The :class:`Reading` of one message."""
    kept = informative(text)
    return Reading(tuple(kept), tuple(sentence_kind(s) for s in kept))


def _names_something(sentence: str) -> bool:
    """A name other than the person addressed ("Wow, that looks great Joanna!")."""
    text = _TRAILING_NAME.sub("", _VOCATIVE.sub(" ", sentence))
    return any(not m.group(0).startswith("I") for m in _EN_NAME.finditer(text))


# Greetings and interjections that open a message as a name would ("Hi, I'm Dana", tester E4:
# "so you can help me" became "so Hi can help the user").
_NOT_ADDRESSEES = frozenset(
    "hi hello hey hiya howdy yo thanks thank cheers ok okay sure yes yeah yep no nope wow oh ah "
    "hmm well great cool nice sorry please morning evening afternoon bye goodbye welcome dear "
    "congrats congratulations".split()
)


def addressees(text: str) -> list[str]:
    """Names the message addresses ("Thanks, Maria!", "Hey Tim!"), never a greeting."""
    return [
        m.group(1) for m in _ADDRESS.finditer(text) if m.group(1).lower() not in _NOT_ADDRESSEES
    ]
