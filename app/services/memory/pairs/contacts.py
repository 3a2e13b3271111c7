"""Contact values — an e-mail address, a web address, a phone number, a street address — as
values of one slot (tester hbreak7 H24: "The user's email is anna@old.com." / "The user's new
email is anna@new.com." merged and the new address was lost; "new address is 14 Oak Avenue"
against "address is 12 Elm Street" opened nothing). Two statements that name the slot and give
it two different values of one kind are another value of it: ``contradicts`` when the rest of
the two sentences agrees (words of change such as "new", "now", 新 aside; resolution then
supersedes by time), else ``unsure`` ("work email" / "personal email": maybe both hold); never
merged. Pure."""

from __future__ import annotations

import re

_EMAIL = re.compile(r"[A-Za-z0-9_.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_URL = re.compile(
    r"(?<![A-Za-z0-9_@.-])(?:https?://)?(?:www\.)?[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*"
    r"\.(?:com|org|net|edu|gov|io|dev|ai|app|co|me|info|biz|xyz|site|blog|page|tech|cn|uk|de"
    r"|fr|jp|ca|au|nl|es|it|ch|se|us|eu|tv|ly|sh|gg)(?![A-Za-z0-9_-])(?:/[^\s,;，。]*[^\s,;.，。])?"
)
_PHONE = re.compile(r"(?<![A-Za-z0-9_.])\+?\(?\d[\d\s().-]{5,}\d(?![A-Za-z0-9_.]\d)")
_DATE = re.compile(r"\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{4}")
_STREET = re.compile(
    r"\b\d+[a-z]?\s+(?:[A-Z][\w'-]*\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Drive|"
    r"Boulevard|Blvd|Way|Court|Ct|Place|Pl|Terrace|Close|Square|Sq|Crescent|Parkway|Highway)\b"
    r"|[\u4e00-\u9fff]{2}(?:路|街|大道|巷|弄)\d+号",
)
# The word that names each slot; a statement fills the slot only when it names it.
_SLOT_WORDS = {
    "email": re.compile(r"(?<![A-Za-z])e-?mail(?![A-Za-z])|邮箱|电子邮件|邮件地址", re.IGNORECASE),
    "website": re.compile(
        r"(?<![A-Za-z])(?:website|web\s*site|site|homepage|url|blog|portfolio)(?![A-Za-z])|网站|网址|博客|主页",
        re.IGNORECASE,
    ),
    "phone": re.compile(
        r"(?<![A-Za-z])(?:phone|mobile|cell|telephone)(?![A-Za-z])|电话|手机号", re.IGNORECASE
    ),
    "address": re.compile(
        r"(?<![A-Za-z])(?:address|lives?\s+at)(?![A-Za-z])|地址|住在", re.IGNORECASE
    ),
}
# Words that say a change, or carry no content: they do not make the rest differ (换, 码:
# "换手机号了，新号码是…" against "手机号是…", tester hbreak7 H5).
_LIGHT = frozenset(
    "the a an user user's users s is are was now new current currently updated latest changed "
    "has have my his her their its of at to by and from as been just also moved 's "
    "switched got number 用户 的 是 现在 新 新的 已经 换 换成 改成 了 为 我 码".split()
)
_WORD = re.compile(r"[a-z']+|[\u4e00-\u9fff]", re.IGNORECASE)


def values(value: str) -> dict[str, frozenset[str]]:
    """The contact values a statement gives, by slot (``email``, ``website``, ``phone``,
    ``address``), normalised (case folded, a web address without scheme or ``www.``, a
    phone number's digits), only for a slot the statement names."""
    out: dict[str, frozenset[str]] = {}
    rest = _EMAIL.sub(" ", value)
    found = {
        "email": _EMAIL.findall(value),
        "website": _URL.findall(rest),
        "phone": [p for p in _PHONE.findall(rest) if _phone(p)],
        "address": _STREET.findall(value),
    }
    for slot, hits in found.items():
        if hits and _SLOT_WORDS[slot].search(value):
            out[slot] = frozenset(_norm(slot, h) for h in hits)
    return out


def _phone(hit: str) -> bool:
    """Seven digits or more that are no date (2026-12-07)."""
    return sum(c.isdigit() for c in hit) >= 7 and not _DATE.search(hit)


def _norm(slot: str, hit: str) -> str:
    if slot == "phone":
        return "".join(c for c in hit if c.isdigit())
    if slot == "website":
        return re.sub(r"^(?:https?://)?(?:www\.)?", "", hit.casefold()).rstrip("/")
    return " ".join(hit.casefold().split())


def _rest(value: str) -> frozenset[str]:
    """The words of a statement with its contact values taken out, light words aside."""
    for pattern in (_EMAIL, _URL, _STREET, _PHONE):
        value = pattern.sub(" ", value)
    return frozenset(w for w in _WORD.findall(value.casefold()) if w not in _LIGHT)


def differs(new: str, old: str) -> tuple[str, bool] | None:
    """The slot two statements fill with different contact values, and whether the rest of
    the two sentences agrees (module docstring); None when no such slot."""
    a, b = values(new), values(old)
    for slot in a.keys() & b.keys():
        if not a[slot] & b[slot]:
            return slot, _rest(new) == _rest(old)
    return None


_NEW = re.compile(
    r"\b(?:new|updated|current|latest)\s+(?:\w+\s+)?(?:e-?mail|website|web\s*site|site|"
    r"homepage|url|blog|address|phone|number|mobile)\b|新(?:的)?(?:邮箱|电子邮件|地址|网站|网址|电话|手机号|号码)",
    re.IGNORECASE,
)


def says_new(value: str) -> bool:
    """Whether a statement calls its contact value the new one ("The user's new email is …",
    用户的新邮箱是…): the change the resolution orders by (it supersedes the old value)."""
    return _NEW.search(value) is not None and bool(values(value))
