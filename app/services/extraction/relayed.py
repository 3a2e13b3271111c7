"""Someone else's text the user hands over for a task (tester hbreak8 H17), English and
Chinese: an e-mail to reply to, a sentence to translate, a paragraph to proofread — "Here is
an email I got: 'Hi, I am allergic to gluten and I live in Rome. Best, Maria'. Can you reply
politely?", "Can you translate this into French: I am allergic to gluten.",
帮我把这句话翻译成英文：我对麸质过敏。 Its first person is not the user: the offline extractor
does not read it (it made "The user is allergic to gluten.").

Read as relayed: a quotation ("…", “…”, '…', 「…」) in a message that asks for such a task or
says it hands over a text ("Here is an email I got"), and the words after the colon that
follows such a request or hand-over.
"""

from __future__ import annotations

import re

from app.core.text import has_cjk

_EN_ASK = (
    r"(?:^\W*|[.!?]\s+|\b(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:help\s+me\s+)?|"
    r"\bplease\s+|\bhelp\s+me\s+|\bi\s+(?:want|need|would\s+like)\s+(?:you\s+)?to\s+)"
)
_EN_TASK = re.compile(
    _EN_ASK + r"(?:translat\w*|proofread|reword|rephrase|paraphrase|rewrite|summari[sz]e|"
    r"(?:reply|respond|write\s+back|answer)\b|draft\s+(?:a\s+)?(?:reply|response|answer)|"
    r"(?:correct|fix|check|polish|improve|edit)\s+(?:the\s+)?(?:grammar|spelling|wording|this|"
    r"the\s+following)\b(?!\s+out))"
    r"|\bhere(?:['’]s|\s+is|\s+are)\s+(?:an?|the|my|this|some)?\s*(?:\w+\s+){0,2}"
    r"(?:e-?mail|message|letter|text|note|review|post|comment|paragraph|sentence|dm|sms)s?\b"
    r"|\b(?:e-?mail|message|letter|text|note|dm|sms)\s+(?:i|we)\s+(?:just\s+)?(?:got|received)\b",
    re.IGNORECASE,
)
_ZH_TASK = re.compile(
    r"(?:帮我|请你?|麻烦你?|能不能|能否|可以|可不可以|你)(?:帮我)?(?:把[^：:]{0,15}?)?"
    r"(?:翻译|译成|润色|改写|校对|总结|概括|回复|回信|回一下)"
    r"|(?:这|下面|以下)(?:封|条)(?:邮件|消息|信|短信)"
)
_QUOTE = re.compile(
    r"\"[^\"]+\"|“[^”]+”|「[^」]+」|『[^』]+』|(?<![\w'’])['‘](?=\S)[^'’]+?(?<=\S)['’](?![\w'’])"
)
# the colon after the request or the hand-over, and what it hands over
# (the request's own sentence: "Great. Can you translate this: …")
_EN_COLON = re.compile(
    r"(?:^|(?<=[.!?])\s+)(?P<ask>[^:.!?\[\]]{1,120}?):\s*(?P<text>\S.*)$", re.DOTALL
)
_ZH_COLON = re.compile(
    r"(?:^|(?<=[。！？!?]))(?P<ask>[^：:。！？!?]{1,40}?)[：:]\s*(?P<text>\S.*)$", re.DOTALL
)


def without_relayed(text: str) -> str:
    """``text`` without the text it hands over for a task (module docstring): a quotation
    becomes "it" / 它; after "request: …" only what follows a quotation there is left ("" for
    "Can you translate this into French: I am …"); ``text`` as said when it hands none over."""
    zh = has_cjk(text)
    task = _ZH_TASK if zh else _EN_TASK
    if not task.search(text):
        return text
    text = text.strip()
    colon = (_ZH_COLON if zh else _EN_COLON).search(text)
    if colon is not None and task.search(colon["ask"]):  # the request is no memory either
        after = _QUOTE.sub("", colon["text"]) if _QUOTE.match(colon["text"]) else ""
        return (text[: colon.start("ask")] + after.strip(" .。")).strip()
    return _QUOTE.sub("它" if zh else "it", text)
