"""A short answer to a yes/no question about the one who answers (tester C24), English and
Chinese: the answer alone ("Yes.", "No.", "Shellfish.", 是的, 不) says nothing; with the
question it is a statement in the answerer's first person, which the extractor then reads as
any other message (typed units, events):

- "Yes." / "No." after "Are you vegetarian?" → "I am vegetarian." / "I am not vegetarian.";
  after "Do you eat meat?" → "I eat meat." / "I don't eat meat."; also "Have you …?",
  "Were you …?" ("Can you …?" is more often a request than a question about them);
- a short answer that names what "anything" / "something" asks for: "Shellfish." after "Are
  you allergic to anything?" → "I am allergic to shellfish."; after "Do you have any
  allergies?" → "I am allergic to shellfish."; after "Do you have any pets?" → "I have pets:
  two cats.";
- Chinese: "是的" / "对" / "吃" after 你吃素吗？ or 你吃不吃素？ → 我吃素。; "不" / "不吃" →
  我不吃素。; 你是素食者吗？ → 我是素食者。 / 我不是素食者。; 你结婚了吗？ "没有" → 我没有结婚。;
  "海鲜" after 你对什么过敏吗？ → 我对海鲜过敏。

A yes with more words (tester D28): "Yes, I do. Two dogs." after "Do you have pets?" → "I
have two dogs."; "Yes, to shellfish." after "Any allergies?" (a question without "do you": "Any
X?" is "Do you have any X?") → "I am allergic to shellfish."; 对，花生 after 你对花生过敏吗？
(the answer repeats the question's words) → 我对花生过敏。; and a short answer that picks one
of a choice put to "you": "Lufthansa, always." after "Which airline do you prefer?" → "I
prefer Lufthansa." (你更喜欢哪家航空公司？ "汉莎。" → 我更喜欢汉莎。); a count names how many
of what is asked: "Yes, two." after "Do you have kids?" → "I have two kids." (有，两个 →
我有两个孩子。, tester E26).

Only a question put to "you" about them makes a statement: an open question ("What should I
cook?" "Pasta."), an offer ("Do you want me to book it?"), a question about the asker or a
third party, one about what the answerer knows or thinks ("Do you know…", 你觉得…) or small
talk about the moment ("Are you ready?", "Do you want to continue?", 你准备好了吗) makes
none (:func:`yes_no_answer` is None), nor does a bare "Yes." to "anything" (it names nothing).
"""

from __future__ import annotations

import re

from app.services.extraction.tag_questions import says_yes

_EN_LEAD = (
    r"^\W*(?:(?:so|and|also|oh|ok|okay|great|alright|btw|by\s+the\s+way|quick\s+question)\W+)*"
)
_EN_QUESTION = re.compile(
    _EN_LEAD + r"(are|were|do|have)\s+you\s+(?!know\b|think\b|mean\b|see\b|understand\b|"
    r"remember\b|mind\b|agree\b|guess\b|suppose\b|recall\b|need\s+(?:help|anything)\b)"
    r"([^?]*?[a-z][^?]*?)\s*\?\s*$",
    re.IGNORECASE,
)
# Small talk about the moment, not the person: "Are you ready?", "Do you want to continue?".
_EN_MOMENT = re.compile(
    r"^(?:still\s+)?(?:ready|kidding|joking|serious|sure|there|here|ok|okay|alright|all\s+right|"
    r"done|finished|awake|good|fine|following|with\s+me|satisfied|happy\s+with\s+(?:it|that|this))"
    r"\b|^(?:want|like)\s+to\s+(?:continue|proceed|go\s+on|start|stop|try|see|know|hear)\b|"
    r"^(?:have|got)\s+(?:a\s+)?(?:minute|moment|second|sec)\b",
    re.IGNORECASE,
)
# The asker or a third person in the question: an offer or a question about someone else.
_EN_OTHERS = re.compile(
    r"\b(?:i|me|my|mine|we|us|our|he|she|him|her|they|them|their)\b|\bi['’]", re.IGNORECASE
)
_EN_YES = re.compile(
    r"^\W*(?:(?:yes|yeah|yep|yup|sure|definitely|absolutely|of\s+course|correct|indeed|"
    r"that['’]s\s+right)(?:[\s,!.]+(?:i\s+(?:am|do|have|can|was)|very\s+much|please))?|"
    r"i\s+(?:am|do|have|was))\W*$",
    re.IGNORECASE,
)
_EN_NO = re.compile(
    r"^\W*(?:(?:no|nope|nah|none|not\s+really|not\s+at\s+all|never|i\s*['’]?m\s+not|i\s+am\s+not|"
    r"not\s+any\s*more|no\s+longer|not\s+these\s+days|"
    r"i\s+(?:don['’]t|do\s+not|haven['’]t|have\s+not|wasn['’]t|was\s+not))"
    r"\b[\s,!.]*)+\W*$",
    re.IGNORECASE,
)
# "anything", "something", "any allergies": what a short answer names.
_EN_ANY = re.compile(r"\b(?:anything|something|(?:any|some)\s+([a-z]+(?:\s+[a-z]+)?))\s*$",
                     re.IGNORECASE)  # fmt: skip
_EN_PARTICLE = re.compile(r"^\W*(?:yes|yeah|yep|yup|sure)\b[\s,!.:;–—-]*", re.IGNORECASE)
# Words that make an answer more than a name: a clause, a hedge, a refusal.
_EN_NOT_A_NAME = re.compile(
    r"\b(?:i|i['’]m|i['’]ve|me|my|we|you|it|it['’]s|that|this|they|is|are|am|was|were|do|does|"
    r"did|have|has|will|would|can|could|should|not|no|don['’]t|maybe|perhaps|think|guess|"
    r"sure|idea|know|nothing|none|anything|something)\b",
    re.IGNORECASE,
)
_EN_FORMS = {  # auxiliary → (yes, no) in the first person
    "are": ("I am", "I am not"),
    "were": ("I was", "I was not"),
    "do": ("I", "I don't"),
    "have": ("I have", "I have not"),
}
_EN_YOU_AS_I = (
    (r"\byourself\b", "myself"),
    (r"\byours\b", "mine"),
    (r"\byour\b", "my"),
    (r"\byou\b", "me"),
)

_ZH_QUESTION = re.compile(
    r"^(?:那|那么|请问|对了|另外|还有)?[，,\s]*(?:你|您)(?!们)(.+?)(?:吗|么|嘛)[？?]?\s*$"
)
# 你吃不吃素？ / 你是不是素食者？: the verb, 不, the verb again.
_ZH_A_NOT_A = re.compile(
    r"^(?:那|那么|请问|对了)?[，,\s]*(?:你|您)(?!们)(.)不\1(.*?)(?:呢)?[？?]\s*$"
)
_ZH_NOT_ABOUT_THEM = re.compile(
    r"我|咱|他|她|它|^(?:知道|觉得|认为|确定|明白|记得|介意|需要|要不要|想让|能帮|可以帮|能不能|"
    r"可不可以|准备好|还在|在吗|在线|听懂|懂|满意|继续|没事)|哪|谁|怎么|为什么|几|多少"
)
_ZH_YES = re.compile(r"^\W*(?:是的?|是啊|是呀|对的?|对啊|对呀|嗯+|当然|没错|确实|有的?|会的?|"
                     r"能|可以|喜欢|要的?)[。！!，,～~\s]*$")  # fmt: skip
_ZH_NO = re.compile(
    r"^\W*(?:不|不是|没有|没|当然不|并不|从不|不会|不能|不要|不喜欢)[。！!，,～~\s]*$"
)
_ZH_WHAT = re.compile(r"什么(?:东西|食物)?")
_ZH_NOT_A_NAME = re.compile(r"[我你他她它是不没有吗呢吧？?]|什么|可能|也许|知道")


# "Any allergies?", "Got any pets?": "Do you have any …?" with its opening left out.
_EN_BARE_ANY = re.compile(_EN_LEAD + r"(?:got\s+)?any\s+([a-z][a-z ]{1,40}?)\s*\?\s*$",
                          re.IGNORECASE)  # fmt: skip
# A yes, then more words ("Yes, I do. Two dogs.", "Yes, to shellfish.", "Yeah — two cats").
_EN_YES_LEAD = re.compile(
    r"^\W*(?:yes|yeah|yep|yup|sure|i\s+do|i\s+have|i\s+am)\b(?:[\s,!.;:–—-]+(?:i\s+(?:do|have|am))\b)?"
    r"[\s,!.;:–—-]+",
    re.IGNORECASE,
)
_EN_COUNT = re.compile(
    r"^(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+|a\s+few|several|some)\s",
    re.IGNORECASE,
)
_EN_COUNT_ONLY = re.compile(
    r"^(?:one|two|three|four|five|six|seven|eight|nine|ten|\d+|a\s+few|several)$", re.IGNORECASE
)
_ZH_COUNT = re.compile(r"^(?:\d+|[一两二三四五六七八九十]+)(个|只|条|位|辆|套|本|台)?$")
# "Which airline do you prefer?", "What coffee do you usually drink?": a choice put to them.
_EN_CHOICE = re.compile(
    _EN_LEAD + r"(?:which|what)\s+([a-z]+(?:\s+[a-z]+)?)\s+(?:do|would)\s+you\s+"
    r"(?:usually\s+|normally\s+|generally\s+)?(prefer|like|use|fly|drive|drink|eat|want)"
    r"(?:\s+(?:best|most|the\s+most|to\s+\w+))?\s*\?\s*$",
    re.IGNORECASE,
)
# "Which do you prefer, tea or coffee?": the pick is one of the two named.
_EN_EITHER = re.compile(
    _EN_LEAD + r"(?:which|what)(?:\s+one)?\s+(?:do|would)\s+you\s+(prefer|like|want)"
    r"(?:\s+(?:more|better|best))?\s*[,:]?\s+([^?]+?)\s+or\s+([^?]+?)\s*\?\s*$",
    re.IGNORECASE,
)
# Words that only underline a pick ("Lufthansa, always.", "Definitely Lufthansa").
_EN_FIRM = re.compile(
    r"\b(?:always|definitely|absolutely|for\s+sure|every\s+time|of\s+course|hands\s+down|"
    r"all\s+the\s+way|usually|mostly|by\s+far|no\s+question)\b",
    re.IGNORECASE,
)
_ZH_CHOICE = re.compile(
    r"(?:你|您)(?!们)(?:一般|通常|平时)?(更|最|比较)?(喜欢|偏好|爱|常)(用|坐|喝|吃|开|穿|去)?"
    r"(?:哪|什么)(?:一)?(?:个|家|种|款|类|样的?)?([^？?，,。]{0,8}?)(?:呢)?[？?]\s*$"
)
_ZH_YES_LEAD = re.compile(r"^\W*(?:是的?|是啊|对的?|对啊|嗯+|没错|有的?)[，,、\s]+")


def yes_no_answer(answer: str, question: str) -> str | None:
    """The first-person statement that ``answer`` makes with the yes/no ``question`` it
    answers (module docstring), e.g. "No." + "Are you vegetarian?" → "I am not vegetarian.";
    None when the question is not a yes/no question about the one who answers, or the answer
    is not a bare yes, a bare no, or a short name of what "anything" asks for."""
    if re.search(r"[\u4e00-\u9fff]", question):
        return _zh(answer.strip(), question.strip()) or _zh_choice(answer.strip(), question)
    question = _EN_BARE_ANY.sub(r"Do you have any \1?", question.strip())
    return (
        _en(answer.strip(), question)
        or _en_yes_and_more(answer.strip(), question)
        or _en_choice(answer.strip(), question)
        or _en_no_and_more(answer.strip(), question)
    )


# "Not anymore." / "No longer.": the no of a question about what still holds (tester H20).
_EN_ANYMORE = re.compile(r"\b(?:any\s*more|no\s+longer|these\s+days)\b", re.IGNORECASE)
_EN_STILL = re.compile(r"\bstill\s+", re.IGNORECASE)
# A no, then what holds instead: "No, Lyon." after "Are you still in Paris?" (tester H20).
_EN_NO_LEAD = re.compile(r"^\W*(?:no|nope|nah|not\s+any\s*more)\b[\s,!.;:–—-]+", re.IGNORECASE)
_EN_NOT_INSTEAD = re.compile(
    r"^(?:thanks?|thank\s+you|sorry|never|worries|problem|way|idea|really|all|good|fine|ok|okay|"
    r"just|only|nothing|none|not)\b",
    re.IGNORECASE,
)
_EN_PLACE = re.compile(r"^(.*\b(?:in|at|with|from|for|near|to)\s+)(?:the\s+)?\S.*$", re.IGNORECASE)


def bare_no(answer: str) -> bool:
    """Whether ``answer`` is a no and nothing else ("Nope, none.", "Not anymore.", 没有。)."""
    said = answer.strip()
    return bool(_ZH_NO.match(said) if re.search(r"[\u4e00-\u9fff]", said) else _EN_NO.match(said))


def _en_no_and_more(answer: str, question: str) -> str | None:
    """A no and what holds instead, with the question it answers: "No, Lyon." after "Are you
    still in Paris?" → "I am not in Paris anymore. I am in Lyon now."; "No, tea." after "Do you
    drink coffee?" → "I don't drink coffee. I drink tea."; else None."""
    lead = _EN_NO_LEAD.match(answer)
    m = _EN_QUESTION.match(question)
    if lead is None or m is None or _EN_OTHERS.search(m.group(2)) or _EN_MOMENT.match(m.group(2)):
        return None
    named = re.sub(r"^now\s+|\s+now$", "", answer[lead.end() :].strip().rstrip(".!").strip())
    if not named or len(named.split()) > 4 or _EN_NOT_A_NAME.search(named):
        return None
    if _EN_NOT_INSTEAD.match(named) or not re.fullmatch(r"[\w'’ &-]+", named):
        return None
    aux, rest = m.group(1).lower(), m.group(2).strip()
    for pattern, mine in _EN_YOU_AS_I:
        rest = re.sub(pattern, mine, rest, flags=re.IGNORECASE)
    still = _EN_STILL.search(rest) is not None
    rest = _EN_STILL.sub("", rest)
    place = _EN_PLACE.match(rest)
    if place is not None:
        instead = place.group(1) + named
    elif aux == "do" and " " in rest:
        instead = f"{rest.split()[0]} {named}"
    else:
        return None
    yes, no = _EN_FORMS[aux]
    if still:
        return f"{no} {rest} anymore. {yes} {instead} now."
    return f"{no} {rest}. {yes} {instead}."


def _en_yes_and_more(answer: str, question: str) -> str | None:
    """A yes and the thing it names: "Yes, I do. Two dogs." after "Do you have pets?" → "I
    have two dogs."; "Yes, to shellfish." after "Do you have any allergies?" → "I am allergic
    to shellfish."; "Yes, peanuts." after "Are you allergic to peanuts?" → "I am allergic to
    peanuts." (the question's own words); else None."""
    lead = _EN_YES_LEAD.match(answer)
    if lead is None:
        return None
    more = answer[lead.end() :].strip()
    named = re.sub(r"^(?:to|of)\s+", "", more.rstrip(".!").strip(), flags=re.IGNORECASE)
    if not named:
        return None
    m = _EN_QUESTION.match(question)
    if m is None or _EN_OTHERS.search(m.group(2)) or _EN_MOMENT.match(m.group(2)):
        return None
    asked = m.group(2)
    if named.casefold() in asked.casefold():  # the question's own words: a plain yes
        return _en("Yes.", question)
    if len(named.split()) > 4 or _EN_NOT_A_NAME.search(named):
        return None
    if not re.fullmatch(r"[\w'’ ,&-]+", named):
        return None
    named = named[:1].lower() + named[1:] if named[1:2].islower() else named
    have = re.fullmatch(r"(?:have|got)\s+(?:any\s+)?([a-z]+(?:\s+[a-z]+)?)", asked, re.IGNORECASE)
    if m.group(1).lower() == "do" and have:
        thing = have.group(1)
        if re.fullmatch(r"(?:food\s+)?allerg(?:y|ies)", thing, re.IGNORECASE):
            return f"I am allergic to {named}."
        if _EN_COUNT.match(named + " "):  # "Yes, two." to "Do you have kids?" (tester E26)
            return f"I have {named} {thing}." if _EN_COUNT_ONLY.match(named) else f"I have {named}."
        return f"I have {thing}: {named}."
    return _en(named, question)  # "Yes, shellfish." to "Are you allergic to anything?"


def _en_choice(answer: str, question: str) -> str | None:
    """The pick a short answer makes of a choice put to "you": "Lufthansa, always." after
    "Which airline do you prefer?" → "I prefer Lufthansa."; else None."""
    m = _EN_CHOICE.match(question)
    either = _EN_EITHER.match(question) if m is None else None
    if m is None and either is None:
        return None
    named = _EN_FIRM.sub("", _EN_PARTICLE.sub("", answer)).strip(" ,.!;:–—-")
    named = re.sub(r"\s*,\s*(?=,|$)|^\s*,\s*", "", named).strip(" ,")
    if not named or len(named.split()) > 4 or _EN_NOT_A_NAME.search(named):
        return None
    if not re.fullmatch(r"[\w'’ &-]+", named):
        return None
    if either is not None:  # one of the two it names, in the question's words
        picked = [o.strip() for o in either.group(2, 3) if o.strip().casefold() == named.casefold()]
        return f"I prefer {picked[0]}." if picked else None
    assert m is not None
    verb = m.group(2).lower()
    return f"I {'prefer' if verb in ('want', 'like') else verb} {named}."


def _zh_choice(answer: str, question: str) -> str | None:
    """A short pick after a choice put to 你: 你更喜欢哪家航空公司？ "汉莎。" → 我更喜欢汉莎。"""
    last = re.split(r"(?<=[。！!；;])", question.strip())[-1].strip()
    m = _ZH_CHOICE.search(last)
    if m is None:
        return None
    said = re.sub(r"[，,]?\s*(?:一直都?是|一直|总是|当然|肯定)[的。！!]*$", "", answer)
    said = said.rstrip("。！!～~ ").strip()
    if not said or len(said) > 8 or _ZH_NOT_A_NAME.search(said) or "哪" in said:
        return None
    if not re.fullmatch(r"[\u4e00-\u9fffA-Za-z0-9 ]+", said):
        return None
    return f"我{m.group(1) or ''}{m.group(2)}{m.group(3) or ''}{said}。"


def _en(answer: str, question: str) -> str | None:
    m = _EN_QUESTION.match(question)
    if m is None:
        return None
    aux, rest = m.group(1).lower(), m.group(2).strip()
    if _EN_OTHERS.search(rest) or _EN_MOMENT.match(rest):
        return None
    for pattern, mine in _EN_YOU_AS_I:
        rest = re.sub(pattern, mine, rest, flags=re.IGNORECASE)
    yes, no = _EN_FORMS[aux]
    some = _EN_ANY.search(rest)
    if _EN_NO.match(answer):
        if _EN_STILL.search(rest) or _EN_ANYMORE.search(answer):  # "Not anymore."
            return f"{no} {_EN_STILL.sub('', rest)} anymore."
        return f"{no} {rest}."
    if _EN_YES.match(answer) or says_yes(answer):  # "Yep, that's right" (tester F36)
        return None if some else f"{yes} {rest}."
    named = _EN_PARTICLE.sub("", answer).strip().rstrip(".!").strip()
    named = re.sub(r"^(?:to|of)\s+", "", named, flags=re.IGNORECASE)  # "Yes, to shellfish."
    if some is None or not named or len(named.split()) > 4 or _EN_NOT_A_NAME.search(named):
        return None
    if not re.fullmatch(r"[\w'’ ,&-]+", named):
        return None
    named = named[:1].lower() + named[1:] if named[1:2].islower() else named
    thing = some.group(1)
    if thing and re.fullmatch(r"(?:food\s+)?allerg(?:y|ies)", thing, re.IGNORECASE):
        return f"I am allergic to {named}."  # "Do you have any allergies?" "Shellfish."
    if thing and _EN_COUNT_ONLY.match(named):  # "Two." to "Do you have any kids?"
        return f"{yes} {rest[: some.start()]}{named} {thing}."
    if thing:
        return f"{yes} {rest[: some.start()]}{thing}: {named}."
    return f"{yes} {rest[: some.start()]}{named}."


def _zh(answer: str, question: str) -> str | None:
    last = re.split(r"(?<=[。！!；;])", question)[-1].strip()
    a_not_a = _ZH_A_NOT_A.match(last)
    m = a_not_a or _ZH_QUESTION.match(last)
    if m is None:
        return None
    verb = (m.group(1) + m.group(2)) if a_not_a else m.group(1)
    verb = verb.strip("，, ")
    what = _ZH_WHAT.search(verb)
    if not verb or _ZH_NOT_ABOUT_THEM.search(verb):
        return None
    said = answer.rstrip("。！!～~ ")
    if what is not None:  # 你对什么过敏吗？ "海鲜。"
        if a_not_a or not said or len(said) > 8 or _ZH_NOT_A_NAME.search(said):
            return None
        if not re.fullmatch(r"[\u4e00-\u9fffA-Za-z0-9、和跟与]+", said):
            return None
        if verb.startswith("有") and verb.endswith("过敏"):
            return f"我对{said}过敏。"
        return f"我{verb[: what.start()]}{said}{verb[what.end() :]}。"
    head = verb[:1]
    if _ZH_YES.match(said) or says_yes(said) or said in (head, head + "的", verb):
        return f"我{verb}。"
    lead = _ZH_YES_LEAD.match(said)
    if lead is not None and said[lead.end() :].strip() in verb:  # 对，花生 (tester D28)
        return f"我{verb}。"
    count = _ZH_COUNT.match(said[lead.end() :].strip()) if lead is not None else None
    if count is not None and verb.startswith("有") and len(verb) > 1:  # 有，两个 (tester E26)
        return f"我有{count.group(0)}{'' if count.group(1) else '个'}{verb[1:]}。"
    if _ZH_NO.match(said) or said in ("不" + head, "没" + head):
        if verb.endswith("了") or verb.startswith(("已经", "有")):
            core = verb.removeprefix("已经").removesuffix("了").removeprefix("有")
            return f"我没有{core}。"
        return f"我不{verb}。"
    return None
