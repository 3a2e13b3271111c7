"""Writing a message as a standalone statement: first person → the speaker's name (or "the
user" / 用户), "you" → the person addressed, relative dates → absolute ones, its entities.

English verbs after "I" get the third person ("I love" → "Caroline loves"); past tenses, modals
and adverbs are left alone ("I just went" → "Caroline just went")."""

from __future__ import annotations

import re
from collections.abc import Callable

import rjieba
import simplemma

from app.services.extraction.clauses import joiner
from app.services.extraction.mixed import english_runs
from app.services.extraction.openers import opens_with_name
from app.services.extraction.tense import is_past_verb

# fmt: skip

# U+2024 is the protected period of "Dr. Smith" (abbreviations.py): part of the name.
_CAPITALISED = re.compile(r"\b([A-Z][\w'’\u2024-]*(?:\s+[A-Z][\w'’\u2024-]*)*)")
_NOT_NAMES = {
    "i", "i'm", "i've", "i'll", "i'd", "the", "a", "an", "and", "but", "please", "my", "we",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
    "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december", "mondays", "tuesdays", "wednesdays", "thursdays", "fridays",
    "saturdays", "sundays", "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat",
    "sun", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    "ok", "okay", "thanks", "hi", "hello", "hey", "also", "quick",
    "just", "so", "oh", "yes", "no", "sure", "great", "next", "this", "on", "in", "wow",
    "yeah", "it", "it's", "that", "that's", "what", "how", "when", "where", "why", "who",
    "you", "your", "they", "he", "she", "his", "her", "our", "there", "here", "if", "for",
    "thank", "cool", "nice", "awesome", "amazing", "sounds", "looks", "did", "do", "have",
    "been", "is", "are", "was", "can", "could", "would", "will", "not", "of", "to", "at",
}  # fmt: skip
_SENTENCE_OPENING = re.compile(r"(?:^|(?<=[.!?]\s))the(?=\s+(?:user|assistant)\b)")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\"“(\[-]\s*|\n)\W*$")
_MID_SENTENCE = re.compile(r"(?<=[a-z,]\s)[A-Z][\w'’-]*")
_ZH_ENTITY_TAGS = {"ns", "nr", "nt", "nrt", "nrfg"}
# A name given to an animal or a thing after a count (一只叫豆豆的猫): jieba tags it as a noun.
_ZH_PET_NAME = re.compile(r"[一两几]\s*[只条个匹头]\s*(?:名)?叫\s*([\u4e00-\u9fff]{2,3}?)的")
# Words jieba mis-tags as names.
_ZH_NOT_NAMES = {"过敏", "用户", "周五", "周末", "明天", "后天"}

_NO_S = frozenset(
    """can could will would shall should may might must did was were had went got made saw
    took came felt found gave knew left met ran said sent sat told thought bought brought
    began wrote won lost read put set kept heard held built spent taught drove flew ate
    drank wore chose fell broke woke sang swam grew drew threw caught fought sold paid led
    slept stood understood hit hurt cut let quit became used tried started finally""".split()
)
_ADVERBS = (  # "no longer" before a verb: tester D26 ("noes longer")
    r"just|really|also|always|never|still|finally|recently|actually|totally|definitely|"
    r"usually|often|sometimes|already|even|only|truly|absolutely|now|currently|kinda|"
    r"especially|mostly|rarely|seriously|honestly|literally|sort\s+of|kind\s+of|no\s+longer|"
    r"no\s+more|hardly(?:\s+ever)?|seldom|barely|once|first|then|almost\s+never"
)
# "Can I take…", "did I tell…", "to let I…": the verb after "I" stays as it is.
_AUXILIARY = re.compile(
    r"\b(?:can|could|do|did|does|will|would|should|shall|may|might|must|let|to|have|had)\s*$",
    re.IGNORECASE,
)
# The verb after "I", with "n't" apart ("don't" is "do" + "n't"; "can't" is "ca" + "n't").
# Title-cased text ("I Don't Know") is matched too; the verb keeps its capital.
_EN_I_VERB = re.compile(rf"\bI\s+((?:(?i:{_ADVERBS})\s+)*)([A-Za-z][a-z]*?)((?i:n't))?\b")
# "you" as the subject of a clause (at its start, or after a conjunction or a verb of
# thinking: "I hope you have fun"), the verb after it and "n't": with the addressee's name
# the verb takes the third person ("Caroline has"). Not after other words ("make you feel",
# "did you go"), nor the fillers "you know?", "you see,", "you bet!".
_EN_YOU_VERB = re.compile(
    r"(^|[.!?;:,]\s*|\b(?:and|but|or|so|that|if|when|because|cause|since|as|hope|think|bet|"
    r"guess|know|sure|glad|wish|maybe|then|where|how|why|what)\s+)you\s+"
    rf"((?:(?:{_ADVERBS})\s+)*)([a-z]+?)(n't)?\b(?=(\s*(?:[,.!?;:]|$))?)",
    re.IGNORECASE,
)
_NOT_VERBS = frozenset(
    """all both two too alone so again more much soon there here and or but nor to for with in
    on at of from the a an guys yourself yourselves ever""".split()
)
_FILLERS = frozenset("know see bet mean guess".split())
# Spoken forms written as one word: "I wanna go" is "I want to go".
_EN_SPOKEN = (
    (re.compile(r"\bwanna\b", re.IGNORECASE), "want to"),
    (re.compile(r"\bgotta\b", re.IGNORECASE), "have to"),
    (re.compile(r"\bgonna\b", re.IGNORECASE), "going to"),
    (re.compile(r"\bdont\b", re.IGNORECASE), "don't"),
    (re.compile(r"\bdunno\b", re.IGNORECASE), "don't know"),
    (re.compile(r"\bhafta\b", re.IGNORECASE), "have to"),
    (re.compile(r"\bus(?:e|ed)?ta\b", re.IGNORECASE), "used to"),
    (re.compile(r"\bI'?m+a\b"), "I'm going to"),  # "Imma", "I'ma"
)


def third_person_verb(verb: str) -> str:
    """The third person singular: "love" → "loves", "go" → "goes", "try" → "tries", "have"
    → "has"."""
    if verb == "have":
        return "has"
    if verb.endswith(("s", "sh", "ch", "x", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def imperative_verb(verb: str) -> str:
    """An imperative's verb, the user named: "bringing up" → "bring up", "suggesting" →
    "suggest", "call me" → "call the user" ("Don't bring up my divorce", tester D24)."""
    words = verb.lower().split()
    words[0] = str(simplemma.lemmatize(words[0], lang="en")).lower()
    return " ".join("the user" if w == "me" else w for w in words)


def names_after(name: str | None, names: str | None) -> str:
    """叫小美 / ：小美和小明 after 用户有一个女儿 (tester E23: the names were lost)."""
    return f"叫{name}" if name else f"：{names}" if names else ""


def _inflected(verb: str) -> bool:
    """Whether ``verb`` is not a base form (a past: "meant", "forgot", "agreed"), by its
    English lemma (simplemma): such a verb takes no third-person -s."""
    return str(simplemma.lemmatize(verb, lang="en")).casefold() != verb


def _conjugate(verb: str, negation: str = "") -> str:
    if verb[:1].isupper():  # "Don't" → "Doesn't", "Love" → "Loves"
        done = _conjugate(verb.lower(), negation.lower())
        return done[:1].upper() + done[1:]
    if negation:  # "don't" → "doesn't", "haven't" → "hasn't"; "can't", "didn't" stay
        return {"do": "does", "have": "has"}.get(verb, verb) + negation
    if verb in _NO_S or (verb.endswith("ed") and not verb.endswith("eed")):
        return verb
    third = {"am": "is", "have": "has", "do": "does", "'m": "is"}.get(verb)
    if third is not None:
        return third
    return verb if _inflected(verb) else third_person_verb(verb)


# A quotation that reports someone's words ('My sister told me: "I don't need you"', '"I'm
# leaving," she said', 她说：“我不需要你”) keeps its own "I" and "you": they are not the
# speaker's. Only next to a reporting verb or after a colon: a quotation that is the message
# itself ('"I'm tired".'), a title or inch marks (55" … 65") are the speaker's own text.
_REPORTING = (
    r"said|says|say|told|tells|tell|asked|asks|ask|wrote|writes|texted|replied|yelled|shouted|"
    r"whispered|goes|went|(?:was|is|were|am|'s|'m)\s+like"
)
_QUOTE_EN = r'"[^"\n]+"|“[^”\n]+”'
QUOTED_EN = re.compile(
    # After a reporting verb (and up to three words) or a colon: 'told me: "…"', 'Her words: "…"'
    rf"((?:\b(?:{_REPORTING})\b(?:\s+[\w']+){{0,3}}?\s*[:,]?|:)\s*)({_QUOTE_EN})"
    # or before one: '"I don't need you," my sister told me', '"I'm leaving," she said'
    rf"|()({_QUOTE_EN})(?=\s*,?\s*(?:[\w']+\s+){{0,3}}?(?:{_REPORTING})\b)",
    re.IGNORECASE,
)
# Chinese: every quotation and title (“…”, 「…」, 《…》); the speaker's name is put before a
# text that names no one (third_person_zh), so a message that is one quotation keeps it.
QUOTED_ZH = re.compile(r'()(“[^”\n]+”|"[^"\n]+"|「[^」\n]+」|《[^》\n]+》)')
_HELD = re.compile(r"\x00(\d+)\x00")


def _hold_quotes(text: str, quoted: re.Pattern[str]) -> tuple[str, list[str]]:
    """``text`` with each quotation that ``quoted`` finds (group 2, or group 4 when the
    quotation comes before its reporting verb) replaced by a placeholder, and the quotations."""
    quotes: list[str] = []

    def hold(match: re.Match[str]) -> str:
        lead, quote = (match.group(1), match.group(2)) if match.group(2) else match.group(3, 4)
        quotes.append(quote)
        return f"{lead}\x00{len(quotes) - 1}\x00"

    return quoted.sub(hold, text), quotes


def _restore_quotes(text: str, quotes: list[str]) -> str:
    return _HELD.sub(lambda m: quotes[int(m.group(1))], text)


def third_person_en(text: str, speaker: str | None, addressee: str | None = None) -> str:
    """``text`` (first person) about ``speaker`` ("the user" when unnamed); "you" becomes
    ``addressee`` when given; a quotation that reports someone's words is kept as written
    (:data:`QUOTED_EN`). Ends with a full stop unless it asks."""
    held, quotes = _hold_quotes(text.strip(), QUOTED_EN)
    return _restore_quotes(_third_person_en(held, speaker, addressee), quotes)


def _third_person_en(text: str, speaker: str | None, addressee: str | None) -> str:
    who = speaker or "the user"
    out = text.strip().replace("’", "'")
    for spoken, written in _EN_SPOKEN:
        out = spoken.sub(written, out)
    subs: list[tuple[str, str | Callable[[re.Match[str]], str]]] = [
        (r"\bI'm\b|\bI\s+am\b", f"{who} is"),
        (r"\bI've\b", f"{who} has"),
        (r"\bI'll\b", f"{who} will"),
        (r"\bI'd\b", f"{who} would"),
        (r"\bwe're\b|\bwe\s+are\b", f"{who} and others are"),
        (r"\bwe've\b", f"{who} and others have"),
        (r"\bwe'll\b", f"{who} and others will"),
        (r"\bwe\b", f"{who} and others"),
        (r"\bmyself\b", "themselves"),
        (r"\bmine\b|\bmy\b|\bour\b", f"{who}'s"),
        # "me" is the speaker (not "them": that read as someone else); "me-time" stays
        (r"\bme\b(?!-)", who),
        # "US" in capitals is the country ("now live in the US", tester G5), not "us"
        (r"\b(?-i:us|Us)\b(?!-)", f"{who} and others"),
    ]
    if addressee:
        subs = [  # "since we last chatted": the two of them
            (
                r"\bwe\b(?=\s+(?:last\s+|first\s+|just\s+)?(?:chatted|talked|spoke|caught\s+up|met)\b)",
                f"{who} and {addressee}",
            ),
            *subs,
            # questions: "are you" → "is Caroline", "do you" → "does Caroline"
            (r"\b(?:are|were|do|have)(?=\s+you\b(?!'))", lambda m: _ASKED[m.group(0).lower()]),
        ]
        subs += [
            (r"\byou're\b|\byou\s+are\b", f"{addressee} is"),
            (r"\byou've\b", f"{addressee} has"),
            (r"\byou'll\b", f"{addressee} will"),
            (r"\byou'd\b", f"{addressee} would"),
            (r"\byour\b|\byours\b", f"{addressee}'s"),
            (r"\byourself\b|\byou\b", addressee),
        ]
    # A capitalised verb is conjugated only in title-cased text ("I Don't Know"); elsewhere
    # "I" before a capital is part of a name ("World War I Memorial", "I Love Lucy").
    title = all(w[:1].isupper() for w in re.findall(r"[A-Za-z][\w']*", out))
    out = _NO_SUBJECT.sub(lambda m: _subject_back(m, who), out)
    if addressee:
        out = _EN_YOU_VERB.sub(lambda m: _you_verb(m, addressee), out)
    out = _EN_I_VERB.sub(
        lambda m: (
            f"{who} {m.group(1)}"
            + (
                m.group(2) + (m.group(3) or "")
                if _AUXILIARY.search(out[: m.start()]) or (m.group(2)[:1].isupper() and not title)
                else _conjugate(m.group(2), m.group(3) or "")
            )
        ),
        out,
    )
    for pattern, repl in subs:
        out = re.sub(pattern, _cased(repl), out, flags=re.IGNORECASE)
    out = re.sub(r"(?<!\u2024)\bI\b(?!\u2024)", who, out)  # not the I of "M.I.T." (G5)
    # Only a shared photo's caption is left: say who shared it.
    photo = re.fullmatch(r"\[shares (a (?:photo|picture|image)\b.*?)\]\.?", out.strip())
    if photo:
        out = f"{who} shares {photo.group(1).removeprefix('a photo: ')}"
    out = _SENTENCE_OPENING.sub("The", out.rstrip(" ,;"))
    if not out.endswith(("?", "!", ".")):
        out += "."
    return out[:1].upper() + out[1:]


# "Lost my job as a banker yesterday": a sentence that opens with a past verb and goes on
# about the speaker left its subject out ("Jon lost Jon's job", not "Lost Jon's job").
_NO_SUBJECT = re.compile(r"(^|[.!?]\s+)([A-Z][a-z]+)\b(?=[^.!?]*\b(?:my|me|myself|mine)\b)")


def _subject_back(m: re.Match[str], who: str) -> str:
    if not is_past_verb(m.group(2)):
        return m.group(0)
    return f"{m.group(1)}{who[:1].upper()}{who[1:]} {m.group(2).lower()}"


_ASKED = {"are": "is", "were": "was", "do": "does", "have": "has"}


def _cased(repl: str | Callable[[re.Match[str]], str]) -> Callable[[re.Match[str]], str]:
    """A substitution that keeps the capital of the word it replaces ("Are you" → "Is …");
    "I" is always a capital, so "I'm" gets one only where a sentence starts ("On Friday I'm
    away" → "On Friday the user is away", not "… The user is away")."""

    def sub(m: re.Match[str]) -> str:
        out = repl if isinstance(repl, str) else repl(m)
        capital = m.group(0)[:1].isupper()
        if m.group(0)[:1] == "I":
            capital = _SENTENCE_START.search(m.string[: m.start()]) is not None
        return out[:1].upper() + out[1:] if capital else out

    return sub


def _you_verb(m: re.Match[str], addressee: str) -> str:
    """One :data:`_EN_YOU_VERB` match with the addressee and the verb in the third person;
    as it was when the word after "you" is no verb of the clause."""
    lead, adverbs, verb, negation = m.group(1), m.group(2), m.group(3), m.group(4) or ""
    filler = verb.casefold() in _FILLERS and m.group(5) is not None  # "you know?"
    if (
        filler
        or verb.casefold() in _NOT_VERBS
        or verb.endswith("ly")
        or (_inflected(verb.casefold()) and verb.casefold() not in ("are", "were"))
    ):
        return m.group(0)
    third = {"are": "is", "were": "was"}.get(verb.casefold())
    said = third + negation if third else _conjugate(verb.casefold(), negation.casefold())
    return f"{lead}{addressee} {adverbs}{said}"


_ZH_KIN = re.compile(r"我(?=(?:女儿|儿子|老婆|妻子|丈夫|老公|孩子|妈妈|爸爸|母亲"
                     r"|父亲|哥哥|姐姐|弟弟|妹妹)(?![子们]))")  # fmt: skip


def third_person_zh(text: str, speaker: str | None, addressee: str | None = None) -> str:
    """``text`` (first person) about ``speaker`` (用户 when unnamed); 你 → ``addressee``; a
    quotation or title (“…”, "…", 「…」, 《…》) is kept as written."""
    who = speaker or "用户"
    out, quotes = _hold_quotes(text.strip().rstrip("，,"), QUOTED_ZH)
    # English inside a Chinese message is in the third person too (tester F12: "I" stayed).
    out = english_runs(out, lambda run: _third_person_en(run, speaker, addressee))
    out = out.replace("我们", f"{who}等人").replace("咱们", f"{who}等人")
    out = _ZH_KIN.sub("我的", out)  # 我女儿 → 用户的女儿
    out = out.replace("我的", f"{who}的").replace("我", who)
    if addressee:
        out = out.replace("你们", f"{addressee}等人").replace("您", addressee)
        out = out.replace("你", addressee)
    if who not in out and (speaker or "the user") not in out.casefold():
        out = who + joiner(out) + out  # 用户的爸妈…, 用户要…, 用户：季度报告…
    if not out.endswith(("。", "！", "？", "?", "!", ".")):  # no ".。" after English (C9)
        out += "。"
    return _restore_quotes(out, quotes)


def mid_sentence_names(text: str) -> set[str]:
    """Capitalised words in ``text`` that do not open a sentence: names, not "Definitely"."""
    return {m.group(0).removesuffix("'s").removesuffix("’s") for m in _MID_SENTENCE.finditer(text)}


def en_entities(
    text: str,
    extra: list[str],
    exclude: frozenset[str] = frozenset(),
    known: frozenset[str] = frozenset(),
) -> list[str]:
    """``extra`` then the capitalised names in ``text``. A sentence opener counts only when
    it is capitalised mid-sentence too (in ``text`` or in ``known``, see
    :func:`mid_sentence_names`); weekdays, months and the names in ``exclude`` (case-folded)
    are left out; a possessive 's is dropped."""
    names: list[str] = []
    inside = known | mid_sentence_names(text)
    for m in _CAPITALISED.finditer(text):
        words = m.group(1).split()
        opener = _SENTENCE_START.search(text[: m.start()]) is not None
        first = words[0].removesuffix("'s")
        named = opens_with_name(words, text[m.end() :])
        if opener and first not in inside and not named:
            words.pop(0)  # "Definitely…", "Last week…"; not "David Wang is…", "Tom is…" (K11)
        while words and (words[0].lower() in _NOT_NAMES or words[0].lower().startswith("i'")):
            words.pop(0)
        while words and words[-1].lower() in _NOT_NAMES:
            words.pop()
        name = " ".join(words).strip("'’-").removesuffix("'s").removesuffix("’s")
        if name and name.casefold() not in exclude:
            names.append(name)
    return unique([*extra, *names])


def zh_entities(text: str, extra: list[str], exclude: frozenset[str] = frozenset()) -> list[str]:
    """``extra`` then the place, person and organisation names jieba tags in ``text`` (叫 cut
    from a name jieba tags with it, tester hbreak10 L7: 叫丽娜) and a name given after a count
    (一只叫豆豆的猫: 豆豆)."""
    tagged = [
        w.removeprefix("叫") if len(w) > 2 else w  # 叫丽娜: jieba tags the verb with the name
        for w, tag in rjieba.tag(text)
        if tag in _ZH_ENTITY_TAGS
    ]
    names = [
        w
        for w in [*tagged, *_ZH_PET_NAME.findall(text)]
        if len(w) > 1 and w not in _ZH_NOT_NAMES and w.casefold() not in exclude
    ]
    return unique([*extra, *names])


def unique(items: list[str]) -> list[str]:
    """Stripped, non-empty, at most 60 characters, first spelling of each (case-folded)."""
    out: list[str] = []
    for item in items:
        item = item.strip()
        if item and len(item) <= 60 and item.lower() not in (o.lower() for o in out):
            out.append(item)
    return out
