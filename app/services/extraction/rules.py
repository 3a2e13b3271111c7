"""The offline extractor's typed rules, English and Chinese: a cue pattern per kind of unit
(constraint, preference, fact) and how its match becomes a unit's value, trigger-scenario
``query`` and entities. Earlier rules are more specific (the extractor skips a later match
over the same words). Values are written about "the user" / 用户; the extractor puts the
speaker's name there when the message carries one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from app.core.vocabulary import MemoryType
from app.services.extraction import triggers as t
from app.services.extraction.objects import EN_LIST, entity_head, listed
from app.services.extraction.phrasing import article as _article
from app.services.extraction.phrasing import avoid, makes_sick
from app.services.extraction.phrasing import subject_is as _subject
from app.services.extraction.statements import imperative_verb as _imperative
from app.services.extraction.statements import third_person_verb as _third

_END = r"(?=\s+(?:and|but|so|because|since|though|although|for\s+(?:any|the|my))\b|[.,;:!?]|$)"
# A liking's "and" joins the things liked ("I like tea and coffee", "action and sci-fi
# movies"); it ends the object only before a clause of its own ("and I…", "and it's…").
_LIKE_END = (
    r"(?=\s+(?:and\s+(?:i|i'm|my|we|our|it|it's|they|he|she|you|then|also|so)\b|but|so|because|"
    r"since|though|although|for\s+(?:any|the|my))\b|[.,;:!?]|$)"
)
_X = r"([^.,;:!?]{1,80}?)"
_TRAILING = re.compile(
    r"\s+(?:too|either|anymore|now|currently|these\s+days|nowadays|at\s+the\s+moment|any\s+more|"
    r"at\s+all|please|though|really|very\s+much|a\s+lot|"
    r"(?:last|this|next)\s+(?:week|month|year)|yesterday|today|tomorrow|recently|lately|"
    r"(?:in|since)\s+\d{4}|\d+\s+(?:days?|weeks?|months?|years?)\s+ago)$",
    re.IGNORECASE,
)

# "Never had a chance…", "Always here to help": a statement whose subject (I, I'm) was left
# out, not an instruction; an imperative goes on with a verb's base form.
_NOT_IMPERATIVE = (
    r"(?!(?:had|has|have|was|were|is|are|am|been|being|did|does|got|went|knew|thought|felt|"
    r"saw|seen|heard|said|met|tried|here|there|so|such|a|an|the|my|your|our|their|his|her)\b)"
)

# "I love it.", "something I love is awesome": no liked thing is named (a bare pronoun, or the
# clause goes on with its verb).
_BEEN = {"loving": "loves", "enjoying": "enjoys", "into": "is into", "obsessed": "is obsessed with",
         "hooked": "is hooked on"}  # fmt: skip
_NO_LIKED_THING = (
    rf"(?!(?:it|that|this|them|these|those)(?:\s+(?:so\s+much|a\s+lot))?{_END})"
    r"(?!(?:is|was|are|were|has|had|will|would|can|could|makes?|made)\b)"
)


@dataclass(frozen=True)
class Rule:
    """A cue pattern and how to turn its match into a unit."""

    pattern: re.Pattern[str]
    type: MemoryType
    build: Callable[[re.Match[str]], tuple[str, str, list[str]]]  # value, query, objects
    confidence: float
    listing: int = 0  # the group of an object that may list things: one unit for each

    def unit(self, m: re.Match[str]) -> tuple[str, str, list[str]]:
        """Value, query and entities (the things its objects name, :func:`entity_head`)."""
        value, query, objects = self.build(m)
        return value, query, [h for o in objects if (h := entity_head(o))]

    def matches(self, m: re.Match[str]) -> list[re.Match[str]]:
        """``m``, or the rule matched again on each thing its ``listing`` group lists
        (:func:`listed`: "allergic to shellfish and peanuts" is two allergies, a unit each)."""
        items = listed(m.group(self.listing)) if self.listing and m.group(self.listing) else []
        if len(items) < 2:
            return [m]
        start, end = m.span(self.listing)
        texts = [m.string[:start] + item + m.string[end:] for item in items]
        again = [self.pattern.search(text, m.start()) for text in texts]
        return [a for a in again if a is not None]


def _not_to(m: re.Match[str]) -> str:
    """What the user asks the assistant not to do: "bring up the user's divorce"."""
    return f"{_imperative(m.group(1))} {_obj(m.group(2))}"


def _obj(text: str) -> str:
    text = text.strip().strip("\"'“”‘’")
    text = _TRAILING.sub("", text)
    text = re.sub(r"\bmy\b", "the user's", text, flags=re.IGNORECASE)  # C11: not "their"
    text = re.sub(r"\bme\b", "them", text, flags=re.IGNORECASE)
    return text.strip()


def _en(p: str) -> re.Pattern[str]:
    return re.compile(p, re.IGNORECASE)


def _r(
    pattern: str,
    typ: MemoryType,
    conf: float,
    build: Callable[..., tuple[str, str, list[str]]],
    listing: int = 0,
) -> Rule:
    return Rule(_en(pattern), typ, build, conf, listing)


_RELATIONS = (
    r"wife|husband|partner|son|daughter|mother|father|mom|mum|dad|sister|brother|"
    r"girlfriend|boyfriend|kid|child|baby"
)
_PETS = r"dog|cat|puppy|kitten|rabbit|bunny|parrot|hamster|horse|turtle|fish"
_JOBS = (
    r"engineer|developer|programmer|designer|teacher|doctor|nurse|student|manager|lawyer|"
    r"accountant|scientist|researcher|writer|consultant|analyst|architect|founder|chef|artist"
)

EN_RULES: list[Rule] = [
    # No allergy is a standing fact a food agent needs (tester B10), before "allergic to".
    _r(r"\bi\s+(?:don't|do\s+not)\s+have\s+any\s+(?:known\s+)?(?:food\s+)?allerg(?:y|ies)\b|"
       r"\bi\s+have\s+no\s+(?:known\s+)?(?:food\s+)?allerg(?:y|ies)\b|"
       r"\bi\s*'?\s*a?m\s+not\s+allergic\s+to\s+any(?:thing|\s+food)\b", "fact", 0.85,
       lambda m: ("The user has no allergies.", t.Q_FOOD_EN.format(x="allergens"), [])),
    # A correction of an allergy (tester D9): "no longer" says it was so and is not now.
    _r(rf"\bi\s*'?\s*a?m\s+(?:now\s+)?no\s+longer\s+allergic\s+to\s+{EN_LIST}", "fact", 0.85,
       lambda m: (f"The user is no longer allergic to {_obj(m.group(1))}.",
                  t.allergy_query(_obj(m.group(1))), [_obj(m.group(1))]), listing=1),
    _r(rf"\bi\s*'?\s*a?m\s+not\s+allergic\s+to\s+{_X}{_END}", "fact", 0.85,
       lambda m: (f"The user is not allergic to {_obj(m.group(1))}.",
                  t.allergy_query(_obj(m.group(1))), [_obj(m.group(1))])),
    _r(rf"\b(i\s*'?\s*a?m|my\s+(?:{_RELATIONS}))\s+(?:is\s+)?(?:still\s+|also\s+)?(?:(?:very|severely|highly|extremely|"
       rf"deathly|really|quite|a\s+bit|slightly|mildly)\s+)?allergic\s+to\s+{EN_LIST}",
       "constraint", 0.95,
       lambda m: (f"{_subject(m.group(1))} allergic to {_obj(m.group(2))}.",
                  t.allergy_query(_obj(m.group(2))), [_obj(m.group(2))]), listing=2),
    _r(rf"\bi\s+have\s+(?:an?\s+|a\s+severe\s+)?{_X}\s+allergy\b", "constraint", 0.95,
       lambda m: (f"The user is allergic to {_obj(m.group(1))}.",
                  t.allergy_query(_obj(m.group(1))), [_obj(m.group(1))])),
    _r(r"\bi\s*'?\s*a?m\s+(?:now\s+)?no\s+longer\s+(?:a\s+)?(vegetarian|vegan|pescatarian)\b",
       "fact", 0.85,
       lambda m: (f"The user is no longer {m.group(1).lower()}.", t.Q_FOOD_EN.format(x="meat"),
                  [m.group(1).lower()])),
    _r(r"\bi\s*'?\s*a?m\s+(?:a\s+)?(vegetarian|vegan|pescatarian)\b", "constraint", 0.9,
       lambda m: (f"The user is {m.group(1).lower()}.", t.Q_FOOD_EN.format(x="meat"),
                  [m.group(1).lower()])),
    _r(rf"^(?:please\s+)?(?:never|don't\s+ever|do\s+not\s+ever)\s+{_NOT_IMPERATIVE}{_X}{_END}",
       "constraint", 0.85,
       lambda m: (f"The user asked the assistant never to {_obj(m.group(1))}.",
                  t.Q_INSTRUCTION_EN.format(x=_obj(m.group(1))), [])),
    # "Don't bring up my divorce.", "Please don't mention allergies.", "Stop suggesting X"
    # (tester D24): what the assistant is asked not to do, a standing instruction.
    _r(rf"^(?:please\s+)?(?:(?:don't|do\s+not)\s+|stop\s+)(mention(?:ing)?|bring(?:ing)?\s+up|"
       rf"talk(?:ing)?\s+(?:to\s+me\s+)?about|ask(?:ing)?\s+(?:me\s+)?about|remind(?:ing)?\s+me\s+"
       rf"(?:of|about)|suggest(?:ing)?|recommend(?:ing)?|call(?:ing)?\s+me|us(?:e|ing)|includ(?:e|ing)|"
       rf"add(?:ing)?|send(?:ing)?|put(?:ting)?|spoil(?:ing)?|shar(?:e|ing))\s+{_X}{_END}",
       "constraint", 0.85,
       lambda m: (f"The user asked the assistant not to {_not_to(m)}.",
                  t.Q_INSTRUCTION_EN.format(x=_not_to(m)), [])),
    # "From now on, reply in German." (tester hbreak7 H25: no unit, "always answer in English"
    # stayed): the language to answer in, worded as the "always" rule below words it.
    _r(r"^(?:(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future)\s*,?\s*)?(?:please\s+)?"
       r"(?:always\s+)?(?:reply|answer|respond|write|talk|speak)\s+(?:to\s+me\s+)?in\s+"
       r"((?-i:[A-Z])[a-z]+)\b(?!\s+(?:and|or)\b)", "constraint", 0.85,
       lambda m: (f"The user asked the assistant to always answer in {m.group(1)}.",
                  t.Q_INSTRUCTION_EN.format(x=f"answer in {m.group(1)}"), [m.group(1)])),
    _r(rf"^(?:please\s+)?always\s+{_NOT_IMPERATIVE}{_X}{_END}", "constraint", 0.8,
       lambda m: (f"The user asked the assistant to always {_obj(m.group(1))}.",
                  t.Q_INSTRUCTION_EN.format(x=_obj(m.group(1))), [])),
    _r(r"\b(?:keep|make)\s+(?:it|things|them|your\s+(?:answers?|replies|responses)|"
       r"the\s+(?:answers?|replies|responses))\s+(?:short|brief|concise|succinct|to\s+the\s+point)"
       r"|\b(?:write|give\s+me|send\s+me)\s+(?:shorter|short|brief|briefer|concise|succinct)\s+"
       r"(?:answers?|replies|responses)",
       "preference", 0.85,
       lambda m: ("The user prefers concise answers.", t.Q_STYLE_EN, [])),
    _r(r"\bi\s+(?:really\s+)?(?:prefer|like|want|love)\s+(short|brief|concise|succinct|detailed|"
       r"long|thorough|in-depth)(?:\s+and\s+\w+)?\s+(answers?|replies|responses|explanations?)",
       "preference", 0.9,
       lambda m: (f"The user prefers {m.group(1).lower()} {m.group(2).lower()}.",
                  t.Q_STYLE_EN, [])),
    _r(rf"\bi\s+(?:never|don't\s+ever|do\s+not\s+ever)\s+(?!(?:really\s+)?(?:liked|enjoyed|cared)\b){_X}{_END}",
       "constraint", 0.85, lambda m: (f"The user never {_obj(m.group(1))}.",
                  t.Q_CONSTRAINT_EN.format(x=_obj(m.group(1))), [])),
    _r(rf"\bi\s+(?:can't|cannot|can\s+not|mustn't|must\s+not)\s+(eat|drink|have|take|use|fly|"
       rf"drive|travel|work|do|stand)\s+{_X}{_END}", "constraint", 0.85,
       lambda m: (f"The user cannot {m.group(1).lower()} {_obj(m.group(2))}.",
                  t.Q_CONSTRAINT_EN.format(x=_obj(m.group(2))), [_obj(m.group(2))])),
    _r(r"\bi\s+(?:don't|do\s+not)\s+(eat|drink|smoke|use|drive|own|have)\s+([^.,;:!?]{1,60}?)\s+"
       r"any\s?more\b", "fact", 0.85,
       lambda m: (f"The user no longer {_third(m.group(1).lower())} {_obj(m.group(2))}.",
                  t.Q_CONSTRAINT_EN.format(x=_obj(m.group(2))), [_obj(m.group(2))])),
    # "No more dairy for me." (tester hbreak7 H26: no unit at all)
    _r(rf"^\W*(?:(?:so|and|ok(?:ay)?)\s*,?\s+)?no\s+more\s+{_X}\s+for\s+me\b", "fact", 0.8,
       lambda m: (f"The user no longer has {_obj(m.group(1))}.",
                  t.Q_CONSTRAINT_EN.format(x=_obj(m.group(1))), [_obj(m.group(1))])),
    # "Neither my wife nor I eat meat." (H26: an event of "neither … nor")
    _r(rf"\bneither\s+[^.,;!?]{{1,30}}?\s+nor\s+(?:I|me|myself)\s+(eat|drink)s?\s+{_X}{_END}",
       "constraint", 0.85,
       lambda m: (f"The user does not {m.group(1).lower()} {_obj(m.group(2))}.",
                  t.Q_FOOD_EN.format(x=_obj(m.group(2))), [_obj(m.group(2))])),
    # "…, I switched to green tea." (tester: lost beside "no longer drinks coffee")
    _r(rf"\bi\s*(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|now\s+)?(?:switched|changed|gone\s+over|"
       rf"moved\s+over)\s+(?:over\s+)?to\s+{_X}{_END}", "fact", 0.8, lambda m: _switched(m)),
    _r(rf"\bi\s+(?:still\s+|also\s+|just\s+)?(?:don't|do\s+not)\s+(eat|drink)\s+{_X}{_END}",
       "constraint", 0.85,
       lambda m: (f"The user does not {m.group(1).lower()} {_obj(m.group(2))}.",
                  t.Q_FOOD_EN.format(x=_obj(m.group(2))), [_obj(m.group(2))])),
    # "I'm pregnant, so no alcohol or raw fish." (tester hbreak5 F28: only "pregnant" was kept)
    _r(rf"(?:^|(?<=,\s))(?=so\s)(?![^.!?]*\bplease\b)so\s+(?:no|never\s+(?:give|offer|serve)\s+me|avoid)\s+(?!(?:worries|worry|problem|"
       rf"big\s+deal|need|rush|pressure|hurry|idea|clue|way|wonder|matter|thanks)\b){_X}{_END}",
       "constraint", 0.85, lambda m: avoid(_obj(m.group(1)))),
    _r(rf"^\W*{_X}\s+(?:always\s+)?makes?\s+me\s+(sick|ill|nauseous|throw\s+up|break\s+out|bloated)\b",
       "constraint", 0.85, lambda m: makes_sick(_obj(m.group(1)), m.group(2))),
    _r(rf"\bi\s+(?:only|just)\s+(eat|drink)\s+{_X}{_END}", "constraint", 0.85,
       lambda m: (f"The user only {m.group(1).lower()}s {_obj(m.group(2))}.",
                  t.Q_CONSTRAINT_EN.format(x="food or drink"), [_obj(m.group(2))])),
    _r(rf"\bi\s+(eat|drink)\s+{_X}\s+only\b", "constraint", 0.85,
       lambda m: (f"The user only {m.group(1).lower()}s {_obj(m.group(2))}.",
                  t.Q_CONSTRAINT_EN.format(x="food or drink"), [_obj(m.group(2))])),
    _r(rf"\bi\s+must\s+{_X}{_END}", "constraint", 0.8,
       lambda m: (f"The user must {_obj(m.group(1))}.",
                  t.Q_CONSTRAINT_EN.format(x=_obj(m.group(1))), [])),
    _r(rf"\bi\s+(?:really\s+)?(?:hate|dislike|detest|loathe|can't\s+stand|cannot\s+stand)\s+{_X}{_LIKE_END}",
       "preference", 0.85,
       lambda m: (f"The user dislikes {_obj(m.group(1))}.",
                  t.Q_LIKE_EN.format(x=_obj(m.group(1))), [_obj(m.group(1))])),
    _r(rf"\bi(?:\s+(?:really\s+)?(?:don't|do\s+not|didn't)\s+(?:really\s+)?(?:like|enjoy|care\s+for)|(?:'ve|\s+have)?\s+never\s+(?:really\s+)?(?:liked|enjoyed|cared\s+for))\s+{_X}{_END}",
       "preference", 0.8,
       lambda m: (f"The user does not like {_obj(m.group(1))}.",
                  t.Q_LIKE_EN.format(x=_obj(m.group(1))), [_obj(m.group(1))])),
    _r(rf"\bi\s*'?\s*a?m\s+not\s+(?:a\s+(?:big\s+|huge\s+)?fan\s+of|into|keen\s+on)\s+{_X}{_END}",
       "preference", 0.75,
       lambda m: (f"The user is not a fan of {_obj(m.group(1))}.",
                  t.Q_LIKE_EN.format(x=_obj(m.group(1))), [_obj(m.group(1))])),
    # "Lately I've been really into jazz" (tester K17: no unit, one content word for an event)
    _r(r"\bi\s*(?:'ve|\s+have)\s+been\s+(?:really\s+|totally\s+|so\s+)?(loving|into|enjoying|"
       r"obsessed\s+with|hooked\s+on)\s+(?!(?:it|that|this|them|doing)\b)"
       r"((?:(?!\b(?:since|when|because|for)\b)[^.,;:!?]){1,60}?)"
       r"(?:\s+(?:lately|recently|these\s+days))?\s*[.!]*\s*$", "preference", 0.75,
       lambda m: (f"The user {_BEEN.get(m.group(1).split()[0].lower(), 'is')} {_obj(m.group(2))}.",
                  t.Q_LIKE_EN.format(x=_obj(m.group(2))), [_obj(m.group(2))])),
    _r(rf"\bmy\s+favou?rite\s+(\w+(?:\s+\w+)?)\s+is\s+{_X}{_END}", "preference", 0.85,
       lambda m: (f"The user's favourite {m.group(1).lower()} is {_obj(m.group(2))}.",
                  t.Q_LIKE_EN.format(x=m.group(1).lower()), [_obj(m.group(2))])),
    _r(rf"\bi\s+(?:really\s+|absolutely\s+|do\s+)?(prefer|love|adore|enjoy|like)\s+"
       rf"{_NO_LIKED_THING}{_X}{_LIKE_END}",
       "preference", 0.75,
       lambda m: (f"The user {_now(m)}{_third(m.group(1).lower())} {_obj(m.group(2))}.",
                  t.Q_LIKE_EN.format(x=_obj(m.group(2))), [_obj(m.group(2))])),
    # "Actually, aisle again." after a window seat (tester E29: no unit, the old one stayed)
    _r(r"^\W*(?:(?:an?|the)\s+)?(window|aisle)(?:\s+seats?)?(?:\s*,?\s*(?:please|for\s+me|then))*"
       r"(?:\s*,?\s*(?:again|instead|this\s+time|now|from\s+now\s+on))+\W*$", "preference", 0.8,
       lambda m: (f"The user now prefers {_article(m.group(1).lower())} seat.",
                  t.Q_LIKE_EN.format(x=f"{_article(m.group(1).lower())} seat"),
                  [f"{m.group(1).lower()} seat"])),
    _r(rf"\bi\s+(?:currently\s+|now\s+)?(?:live|reside)\s+in\s+{_X}{_END}", "fact", 0.9,
       lambda m: (f"The user lives in {_obj(m.group(1))}.", t.Q_HOME_EN, [_obj(m.group(1))])),
    _r(rf"\b(?:i|we)\s*(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)(\s+back)?\s+to\s+{_X}{_END}",
       "fact", 0.9,  # "moved back to Paris" (tester hbreak7 H3: an event, found with relevance 0)
       lambda m: (f"The user moved{m.group(1) or ''} to {_obj(m.group(2))} and now lives there.",
                  t.Q_HOME_EN, [_obj(m.group(2))])),
    _r(rf"\bi\s*'?\s*a?m\s+(?:based|living)\s+in\s+{_X}{_END}", "fact", 0.85,
       lambda m: (f"The user lives in {_obj(m.group(1))}.", t.Q_HOME_EN, [_obj(m.group(1))])),
    _r(rf"\bi\s+(now\s+)?(?:work|am\s+working|'m\s+working)\s+(?:at|for)\s+{_X}{_END}", "fact",
       0.85, lambda m: (f"The user {m.group(1) or ''}works at {_obj(m.group(2))}.", t.Q_WORK_EN,
                  [_obj(m.group(2))])),  # "I now work at Stripe" (tester K20: an event)
    _r(rf"\bi\s+work\s+as\s+(?:an?\s+)?{_X}{_END}", "fact", 0.85,
       lambda m: (f"The user works as {_article(_obj(m.group(1)))}.", t.Q_WORK_EN, [])),
    # "I'm now a software tester at Acme Corp." (E1): a role at an employer; "don't … anymore"
    _r(rf"\bi\s*'?\s*a?m\s+(?:now\s+|currently\s+)?an?\s+((?:[a-z][\w-]*\s+){{0,2}}(?:{_JOBS}|nurse|"
       r"clerk|(?!member\b)[a-z]{2,}(?:er|or|ist|ian|ant|ent|ect|ive)))\s+(?:at|for|with)\s+"
       r"((?-i:[A-Z])[\w&'’-]*(?:\.(?=\w))?(?:\s+(?-i:[A-Z])[\w&'’-]*)*)", "fact", 0.85,
       lambda m: (f"The user works as {_article(m.group(1))} at {m.group(2)}.",
                  t.Q_WORK_EN, [m.group(2)])),
    _r(rf"\bi\s*'?\s*a?m\s+an?\s+((?:[\w-]+\s+){{0,2}}(?:{_JOBS}))\b", "fact", 0.8,
       lambda m: (f"The user is {_article(m.group(1))}.", t.Q_WORK_EN, [])),  # "a Python developer"
    # A name is capitalised ((?-i:…) inside the rules' IGNORECASE): "my husband is now
    # retired" named him "now" (tester D15); an adverb before the name is not part of it.
    # A title keeps its name ("Dr. Anna Smith": U+2024 is its period, abbreviations.py), a name
    # its accented capitals ("José Ángel"; tester hbreak7 H23: "The user's name is Dr.").
    _r(r"\b(?:my\s+name\s+is|call\s+me)\s+(?:(?:actually|really|still|just)\s+)?"
       r"((?-i:[A-ZÀ-ÖØ-Þ])[\w'’\u2024-]+(?:\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w'’\u2024-]+){0,2})", "fact", 0.9,
       lambda m: (f"The user's name is {m.group(1)}.", t.Q_NAME_EN, [m.group(1)])),
    # "Hi, I'm Dana." / "I'm Dana, by the way." (tester E4: no unit held the name)
    _r(r"^\W*(?:(?:hi|hello|hey|hiya)(?:\s+there)?[\s,!.]+)?i\s*['’]?\s*a?m\s+"
       r"(?!(?-i:Sorry|Fine|Good|Great|Okay|Here|Back|Home|Ready|Done|Tired|Sure|Busy|Happy|Glad|"
       r"Late|Free|Not|Still|Just|Also|Really|Alright|Well|Excited|Lost|Confused|Curious|Hungry|"
       r"American|Canadian|British|Indian|Mexican|Brazilian|Australian|Russian|Polish|Jewish|Muslim|"
       r"Catholic|Christian|Buddhist|Hindu|Vegan|Vegetarian|Single|Married|[A-Z][a-z]+(?:ese|ish))\b)"
       r"((?-i:[A-Z])[a-z'’-]+(?:\s+(?-i:[A-Z])[a-z'’-]+)?)"
       r"(?=\s*(?:[.,!;]|$|\s+(?:by\s+the\s+way|here)\b))",
       "fact", 0.85,
       lambda m: (f"The user's name is {m.group(1)}.", t.Q_NAME_EN, [m.group(1)])),
    _r(rf"\bmy\s+({_RELATIONS})(?:'s\s+name)?\s+is\s+(?:(?:actually|really|still|now)\s+)?"
       r"(?:called\s+|named\s+)?((?-i:[A-Z])[\w'’-]+)\b(?!\s+(?:years?|months?)\b)",
       "fact", 0.85,
       lambda m: (f"The user's {m.group(1).lower()} is named {m.group(2)}.", t.Q_FAMILY_EN,
                  [m.group(2)])),
    # ... with the name when it follows (tester E23: "I have a daughter called Mia." kept only
    # "The user has a daughter.", the name gone for good)
    _r(r"\bi\s+have\s+(\d+|a|an|one|two|three|four|five|six)\s+(kids?|children|sons?|daughters?|"
       r"brothers?|sisters?|siblings?|grandchildren)\b(?:\s*,?\s*(?:called|named|(?:and\s+)?(?:his|her)"
       r"\s+name\s+is)\s+((?-i:[A-Z])[\w'’-]+))?", "fact", 0.85,
       lambda m: (f"The user has {m.group(1).lower()} {m.group(2).lower()}"
                  + (f" named {m.group(3)}." if m.group(3) else "."), t.Q_FAMILY_EN,
                  [m.group(3)] if m.group(3) else [])),
    _r(rf"\bi\s+(?:also\s+)?(?:have|own)\s+((?:a|an|one|two|three|\d+)\s+(?:{_PETS})s?\s+"
       r"(?:named|called)\s+(?-i:[A-Z])[\w'’-]+)(?:\s*,\s*(?:he|she|it)\s*(?:'s|’s|\s+is)\s+"
       r"(an?\s+[\w-]+(?:\s+(?!and\b|but\b)[\w-]+)?))?", "fact", 0.85,
       lambda m: (f"The user has {m.group(1)}" + (f", {m.group(2)}." if m.group(2) else "."),
                  t.Q_PET_EN, [m.group(1).split()[-1]])),
    # ... with the partner when named (tester F3: "I'm married to Tom." kept no Tom)
    _r(r"\bi\s*'?\s*a?m\s+(married|single|divorced|engaged|pregnant|retired)\b"
       r"(?:\s+to\s+((?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+)?|an?\s+[a-z]+))?", "fact", 0.85,
       lambda m: (f"The user is {m.group(1).lower()}"
                  + (f" to {m.group(2)}." if m.group(2) else "."), t.Q_FAMILY_EN,
                  [m.group(2)] if m.group(2) and m.group(2)[:1].isupper() else [])),
]  # fmt: skip


def _now(m: re.Match[str]) -> str:
    """ "now " when the liking's clause says it is new ("I prefer a window seat now",
    "instead", "these days": the change cue the pair decision reads, tester E29), else ""."""
    after = m.string[m.end(1) :]
    new = re.search(r"\b(?:now(?!\s+that)|instead|these\s+days|nowadays)\b", after)
    return "now " if new else ""


_GAVE_UP = re.compile(r"\b(?:don't|do\s+not|no\s+longer)\s+(eat|drink|smoke|use|drive)\b", re.I)


def _switched(m: re.Match[str]) -> tuple[str, str, list[str]]:
    """What the user switched to, in the verb of what they gave up when the clause says it
    ("I don't drink coffee anymore, I switched to green tea." → "The user now drinks green
    tea.")."""
    thing = _obj(m.group(1))
    gave_up = _GAVE_UP.search(m.string[: m.start()])
    if gave_up is None:
        return f"The user switched to {thing}.", t.Q_LIKE_EN.format(x=thing), [thing]
    return (f"The user now {_third(gave_up.group(1).lower())} {thing}.",
            t.Q_LIKE_EN.format(x=thing), [thing])  # fmt: skip
