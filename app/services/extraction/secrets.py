"""Secrets that extraction never keeps (tester finding C25), found in English and Chinese:

- **payment card numbers**: a run of 13–19 digits (single spaces or dashes between groups
  allowed) that passes the Luhn check and opens like a card (2–6) or follows a card word
  ("card number", 卡号, 信用卡…); after a card word any 12–19 digits count, checked or not;
- **card security codes**: CVV/CVC/CVV2/CID/"security code"/安全码 and the 3–4 digits after;
- **passwords, PINs, one-time codes, API keys and tokens stated as such**: the word
  (password, passcode, PIN, one-time/verification code, OTP, API key, access token, 密码,
  口令, 验证码, 动态码, 密钥…) then "is"/":"/"="/是/为 and the value; well-known key shapes
  (``sk-…``, ``AKIA…``, ``ghp_…``, ``xoxb-…``, ``AIza…``, a PEM private key) without a word;
  a password right after a login without the word ("my bank login is jdoe and it's
  Sunshine99!", "username: bob, pw: hunter2": a value with a digit, an inner capital or symbol),
  also with no "is" ("pw Sunshine99", "login jdoe / Sunshine99", an e-mail then a password;
  tester E27); a texted one-time code ("your code is 483920"), an AWS secret access key by
  its name, a password named in German, French, Spanish, Portuguese, Dutch or a Nordic
  language ("WLAN-Passwort: …"; tester hbreak7 H27); one referred to by "it" or given in
  reply to a message that names one ("but now it is …", "What's the new PIN?" → "It's 8842
  now"; :func:`find`'s ``context``);
- **access codes** (tester D4), as durable as a PIN: a door, gate, alarm, garage, safe, lock or
  building code or combination and a value with a digit ("The alarm code for the house is
  5521.", "Our garage code is 9090", "The safe combination is 12-34-56.", "the code to the
  front door is 4321", "The garage opens with 7731"), 门禁码/开门码/车库/报警器/保险箱… +
  digits (门禁码是1234, and in traditional characters, 門禁碼); "my locker number is 4417",
  "door 4" and "the alarm code is broken" are no secret;
- **national ids**: a US social security number (``ddd-dd-dddd`` with a valid area and group,
  or any 9 digits after "SSN"/"social security number") and a Chinese resident id (18
  characters with a valid birth date and ISO 7064 check digit, or any 15–18 after 身份证).

:func:`find` returns the spans; :func:`mask` puts :data:`PLACEHOLDER` in their place. The
checks are a few lines each (Luhn, the id's check digit, the SSN's area rules): see
docs/EXTRACTION.md "What is never kept" for why no PII library is used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.core.chinese_script import simplified
from app.services.extraction import national_ids

PLACEHOLDER = "[withheld: {kind}]"
PLACEHOLDER_RE = re.compile(r"\[withheld: ([^\]]+)\]")

CARD, CVV, PASSWORD, NATIONAL_ID, KEY, ACCESS = (
    "a payment card number",
    "a card security code",
    "a password, PIN or one-time code",
    "a national id number",
    "an API key or token",
    "an access code (door, gate, alarm, garage or safe)",
)


@dataclass(frozen=True)
class Secret:
    """One secret in a text: ``text[start:end]`` is the value, ``kind`` what it is."""

    start: int
    end: int
    kind: str


def luhn(digits: str) -> bool:
    """The Luhn (mod 10) check of a string of digits (payment cards, ISO/IEC 7812)."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch) * (2 if i % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


_CARD_WORD = re.compile(
    r"(?:credit|debit|bank|payment|visa|master\s*card|amex)\s*card|card\s*(?:number|no\b|#)"
    r"|卡号|银行卡|信用卡|借记卡|储蓄卡",
    re.IGNORECASE,
)
# Digit groups joined by at most one space or dash: "4111 1111 1111 1111", "3782-822463-10005".
_DIGIT_RUN = re.compile(r"(?<![\d+])\d+(?:[ -]\d+)*(?!\d)")
_CVV = re.compile(
    r"(?:\b(?:CVV2?|CVC2?|CID|CSC|card\s+(?:security|verification)\s+(?:code|value|number)"
    r"|security\s+code)\b|安全码|校验码|CVV码)"
    r"[^\d\n]{0,12}?(?<!\d)(\d{3,4})(?!\d)",
    re.IGNORECASE,
)
_SECRET_WORD = (
    r"pass\s?words?|passcodes?|passphrases?|pwd?|pins?(?:\s+(?:code|number))?"
    r"|(?:one[-\s]time|verification|confirmation|security|login|sign[-\s]in|2fa|two[-\s]factor"
    r"|auth(?:entication)?|sms|otp|mfa|recovery|backup)\s+(?:code|pin|password|key|phrase)s?"
    r"|otp|api[-\s]?(?:key|token|secret)s?|(?:access|auth|bearer|secret|private|refresh)"
    r"\s+(?:token|key)s?|seed\s+phrase"
    # "user: admin pass: admin123"; "The answer to my security question is Fluffy" (hbreak6 G6)
    r"|pass(?=\s*[:=])|security\s+answer|answers?\s+to\s+(?:my|the)\s+security\s+questions?"
    # an AWS secret key by its name (tester hbreak7 H27), a password in another language
    # ("WLAN-Passwort: …", "le mot de passe est …")
    r"|(?:aws_)?secret_access_key|secret\s+access\s+keys?|passw(?:ort|oord)|kennwort"
    r"|mot\s+de\s+passe|contrase(?:ñ|n)a|senha|passord|l(?:ö|o)senord|salasana|has(?:ł|l)o"
    # a phone's unlock code or pattern (tester hbreak8 H10: "unlock pattern is 2580")
    r"|(?:screen\s+)?(?:unlock|lock\s+screen)\s+(?:code|pattern|pin|password)s?"
)
# "<word> [for the bank | to my email] is|was|:|= <value>"
_STATED = re.compile(
    rf"\b(?:{_SECRET_WORD})\b(?:\s+(?:for|to|of|on|at|in|du|de|des|für|vom|del|do|da)\s+"
    r"(?:my\s+|the\s+|our\s+|your\s+|la\s+|le\s+|el\s+|der\s+|den\s+)?"
    r"[\w'’.-]+(?:\s+(?:account|app|card|login|lock))?)?"
    r"\s*(?:\bis\b|\bwas\b|\bare\b|['’]s\b|=|:|-|\bused\s+to\s+be\b|\bwill\s+be\b"
    r"|\b(?:ist|est|es|é|er|är|on)\b)\s*"
    r"(?:now\s+|still\s+|just\s+|actually\s+)?[\"'“‘]?([^\s\"'”’]+)",
    re.IGNORECASE,
)
# What an access code opens (tester D4: "The alarm code for the house is 5521.", "Our garage
# code is 9090", "The safe combination is 12-34-56.", 门禁码是1234): as durable as a PIN.
_OPENS = (
    r"(?:front\s+|back\s+|main\s+)?(?:door|gate|garage(?:\s+door)?|alarm|building|entry|"
    r"entrance|keypad|lock|lockbox|key\s*box|safe|vault|locker|house|apartment|flat|office)"
)
_ACCESS_STATED = re.compile(
    rf"\b(?:{_OPENS}\s+(?:access\s+|entry\s+|security\s+)?(?:code|combination|combo|pin)"
    rf"|(?:access|entry|door|gate)\s+code|(?:code|combination|combo)\s+(?:for|to|of|on)\s+"
    rf"(?:the\s+|my\s+|our\s+|your\s+)?(?:[\w-]+\s+)?{_OPENS})s?\b"
    r"(?:\s+(?:for|to|of|on|at)\s+(?:the\s+|my\s+|our\s+|your\s+)?(?:[\w'’-]+\s+){0,2}[\w'’-]+)?"
    r"\s*(?:\bis\b|\bwas\b|['’]s\b|=|:|-)?\s*(?:now\s+|still\s+|just\s+)?"
    r"[\"'“‘#]?((?=[\w*#-]*\d)[\w*#]+(?:-[\w*#]+)*)",
    re.IGNORECASE,
)
# What opens it, said with its code (tester hbreak8 H10): "The garage opens with 7731", "the
# gate opens with code 4455", "The alarm is disarmed with 9-1-9-1".
_OPENS_WITH = re.compile(
    rf"\b{_OPENS}\s+(?:opens|unlocks|disarms|(?:is|gets|can\s+be)\s+(?:opened|unlocked|disarmed|"
    r"armed))\s+(?:with|using|by(?:\s+(?:entering|typing))?)\s+(?:the\s+|a\s+)?(?:(?:access\s+)?"
    r"(?:code|pin|combination|combo)\s+)?[\"'“‘#]?((?=[\w*#-]*\d)[\w*#]+(?:-[\w*#]+)*)",
    re.IGNORECASE,
)
_ZH_ACCESS = re.compile(
    r"(?:门禁|门锁|开门|大门|单元门|车库门?|报警器?|警报器?|保险箱|保险柜|密码锁|密码箱)的?"
    r"(?:码|密码|号码|口令|密码锁)?(?:是|为|：|:)?\s*([0-9][0-9A-Za-z#*-]{2,})"
)
# A password after a login without the word: "My bank login is jdoe and it's Sunshine99!"
_AFTER_LOGIN = re.compile(
    r"\b(?:log[-\s]?in|username|user\s*name|user\s*id|account)\s*(?:\bis\b|=|:)\s*[^\s,;]+"
    r"\s*(?:,|and|;)\s*(?:the\s+pass(?:word)?\s+is|pass(?:word)?\s*(?:is|:)|pw\s*(?:is|:)"
    r"|it['’]s|it\s+is)\s+[\"'“‘]?([^\s\"'”’]+)",
    re.IGNORECASE,
)
# Without "is" or a colon (tester E27): "…, pw Sunshine99", "login jdoe / Sunshine99",
# "Netflix: anna@example.com Tr0ub4dor" — a value shaped like a password (checked as above).
_BARE = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\b(?:pw|pwd|pass(?:word)?|passcode)\s+[\"'“‘]?([^\s\"'”’]+)",
        r"\b(?:log[-\s]?in|username|user\s*name|account)\s*(?:\bis\b|=|:)?\s*[^\s,;/]+\s*/\s*"
        r"([^\s]+)",
        r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*(?:/|,|\s)\s*([^\s@]{6,})",
    )
)
# A password named by what it is used as (tester hbreak5 F14): "I always use Hunter2! as my
# password", "For my bank I use the password Hunter2!", "I set my laptop password to
# Hunter2!", "The password I use for everything is Hunter2!", "I use the same password
# everywhere: Hunter2!", "the wifi is called Home and its key is tulip-77" (checked as _BARE's).
_PW = r"(?:pass\s?words?|passcodes?|passphrases?|pins?)"
_USED = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        rf"\b(?:use|used|using|uses|chose|picked|pick|choose)\s+[\"'“‘]?([^\s\"'”’]+)[\"'”’]?\s+as\s+"
        rf"(?:my|the|our|a|his|her|their)\s+(?:[\w-]+\s+){{0,2}}{_PW}\b",
        rf"\b(?:use|used|using|uses|chose|picked|set)\s+(?:the|a|my)\s+{_PW}\s+"
        r"(?!(?:is|was|for|to|of|on|at|in|that|which|everywhere|again)\b)[\"'“‘]?([^\s\"'”’]+)",
        rf"\b(?:set|changed|change|reset|updated|update)\s+(?:my|the|our|his|her|their)\s+"
        rf"(?:[\w-]+\s+){{0,2}}{_PW}\s+to\s+[\"'“‘]?([^\s\"'”’]+)",
        rf"\b{_PW}\s+(?:that\s+)?(?:i|we|he|she|they)\s+(?:use|used|have|pick|set)\b[^.!?:\n]{{0,40}}?"
        r"(?:\s(?:is|was|are)\s+|:\s*)[\"'“‘]?([^\s\"'”’]+)",
        rf"\b{_PW}\b[^.!?:\n]{{1,30}}:\s*[\"'“‘]?([^\s\"'”’]+)",
        r"\b(?:wi-?fi|wlan|network|router)\b[^.!?\n]{0,40}?\b(?:key|pass(?:word)?|code)\s*"
        r"(?:is|:|=)\s*[\"'“‘]?([^\s\"'”’]+)",
    )
)
# A value that refers back to a secret by "it" or answers a question about one (tester
# hbreak6 G6): "My password used to be X but now it is Y", "What's the new PIN?" → "It's 8842
# now", "What should the wifi password be?" → "Let's use SunnyOtter55", the assistant's
# "Your temporary password is …" → "ok, I changed it to Maple!Leaf42". Only after a secret's
# word in the same message or the message before; shaped like a password or digits only.
_SECRET_TOPIC = re.compile(
    rf"\b(?:{_PW}|pwd|passkey|(?:wi-?fi|network|router)\s+key|(?:access|door|gate|alarm|garage|"
    r"safe|lock|entry)\s+(?:code|combination))\b|密码|口令|验证码",
    re.IGNORECASE,
)
_REFERRED = (
    re.compile(
        r"\b(?:it['’]s|it\s+is|it\s+was|it['’]ll\s+be|it\s+will\s+be|(?:changed|set|reset|"
        r"switched|updated)\s+it\s+to|let['’]s\s+(?:use|go\s+with|make\s+it)|(?:use|try|make\s+it)"
        r"|how\s+about|go\s+with)\s+(?:now\s+)?[\"'“‘]?([^\s\"'”’,]+)",
        re.IGNORECASE,
    ),
    re.compile(r"^\W*[\"'“‘]?([^\s\"'”’]+?)[\"'”’]?\W*$"),  # the value alone
)
_PIN_DIGITS = re.compile(
    r"\b(?:PIN|OTP|2FA)(?:\s+(?:code|number))?\s*[:#]?\s*(\d{4,8})\b", re.IGNORECASE
)
_ZH_STATED = re.compile(
    r"(?:密码|口令|验证码|动态码|短信码|取件码|PIN码|pin码|密钥|秘钥|令牌)"
    r"(?:\s*(?:是|为|：|:|=)\s*[\"“‘]?([^\s，。,；;！!？?、”’]+)"
    r"|\s*([0-9A-Za-z][0-9A-Za-z!@#$%^&*_\-.]{2,}))"
)
_ZH_NOT_A_VALUE = ("什么", "多少", "啥", "几", "对的", "错", "正确", "一样", "不对", "忘", "改")
_NOT_A_VALUE = {
    "wrong", "incorrect", "expired", "invalid", "too", "not", "required", "needed", "correct",
    "right", "weak", "strong", "secure", "safe", "different", "same", "changed", "reset",
    "locked", "easy", "hard", "long", "short", "what", "stored", "saved", "written", "case",
    "sent", "missing", "forgotten", "lost", "there", "here", "in", "on", "at", "under", "inside",
    "somewhere", "the", "a", "my", "your", "also", "still", "now", "gone", "fine", "ok", "okay",
}  # fmt: skip
# A one-time code as the text that sent it says it (tester hbreak7 H27): "your code is 483920",
# "the code they texted me is 771204"; not a zip, area, country or dress code.
_TEXTED_CODE = re.compile(
    r"(?:\byour\s+(?!(?:zip|postal|post|area|country|dress|discount|promo|coupon|tax|source)\b)"
    r"(?:[\w-]+\s+)?code\s+(?:is|:)|\bcode\s+(?:they|you|it|the\s+\w+)\s+(?:texted|sent|"
    r"messaged|gave)(?:\s+me)?\s+(?:is|was|:)|\b(?:texted|sent)\s+me\s+(?:a\s+|the\s+)?code"
    r"\s*(?:[:,-]|is|was)?)\s*(\d{4,8})\b",
    re.IGNORECASE,
)
_KEY_SHAPES = re.compile(
    r"\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}"
    r"|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,})"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)"
)


def _cards(text: str) -> list[Secret]:
    out: list[Secret] = []
    for run in _DIGIT_RUN.finditer(text):
        groups = list(re.finditer(r"\d+", run.group()))
        worded = _CARD_WORD.search(text[max(0, run.start() - 40) : run.start()]) is not None
        i = 0
        while i < len(groups):
            best = None
            for j in range(i, len(groups)):
                digits = "".join(g.group() for g in groups[i : j + 1])
                if len(digits) > 19:
                    break
                card_like = len(digits) >= 13 and digits[0] in "23456" and luhn(digits)
                if card_like or (worded and len(digits) >= 12):
                    best = j
            if best is None:
                i += 1
                continue
            start, end = run.start() + groups[i].start(), run.start() + groups[best].end()
            out.append(Secret(start, end, CARD))
            i = best + 1
    return out


def _group(pattern: re.Pattern[str], text: str, kind: str, group: int = 1) -> list[Secret]:
    return [Secret(m.start(group), m.end(group), kind) for m in pattern.finditer(text)]


def _stated(text: str) -> list[Secret]:
    out: list[Secret] = []
    for m in _STATED.finditer(text):
        value = m.group(1).rstrip(".,;:!?)")
        words = _PASSPHRASE.match(text, m.start(1) + len(value)) if value == m.group(1) else None
        phrase = len(words.group(0).split()) + 1 if words else 1
        if phrase < 3 and (not value or value.lower() in _NOT_A_VALUE):
            continue  # "is correct", "is wrong again"; not "is correct horse battery staple"
        if not re.search(r"\w", value):
            continue
        if m.group(0).lower().startswith("pin") and not value.isdigit():
            continue  # "the pin is on the map"
        end = words.end() if words else m.start(1) + len(value)
        out.append(Secret(m.start(1), end, PASSWORD))
    for m in _ZH_STATED.finditer(text):
        group = 1 if m.group(1) is not None else 2
        if not m.group(group).startswith(_ZH_NOT_A_VALUE):
            out.append(Secret(m.start(group), m.end(group), PASSWORD))
    return out


# The words of a passphrase after its first ("correct horse battery staple", tester hbreak8
# H10: only "correct" was read, and it is no value): up to five more lower-case words, none a
# word that goes on with the sentence ("and", "for", "so"…); checked in :func:`_stated`.
_PASSPHRASE = re.compile(
    r"(?:\s+(?!(?:and|or|but|for|so|because|since|to|on|in|at|of|with|as|than|the|a|an|is|was|"
    r"now|again|anyway|though|too|today|yesterday|i|we|it|my|your)\b)[a-z]{3,}\b){1,5}"
)


def _after_login(text: str) -> list[Secret]:
    """The password after a login ("… login is jdoe and it's Sunshine99!"): a value with a
    digit, a capital inside or a symbol between letters, not a word ("and it's fine")."""
    out: list[Secret] = []
    for m in _AFTER_LOGIN.finditer(text):
        value = m.group(1).rstrip(".,;:!?)")
        if value.lower() in _NOT_A_VALUE or not re.search(r"\d|\w[A-Z]|\w[^\w\s]\w", value):
            continue
        out.append(Secret(m.start(1), m.start(1) + len(value), PASSWORD))
    return out


def _shaped(patterns: tuple[re.Pattern[str], ...], text: str, digits: bool) -> list[Secret]:
    """The values ``patterns`` capture that are shaped like a password (a digit, an inner
    capital or a symbol between letters, and a letter — or only digits, with ``digits``):
    never a word ("pw reset", "email me at a@b.com tomorrow")."""
    out: list[Secret] = []
    for pattern in patterns:
        for m in pattern.finditer(text):
            value = m.group(1).rstrip(".,;:!?)")
            shaped = re.search(r"\d|\w[A-Z]|\w[^\w\s]\w", value) and re.search(r"[^\W\d]", value)
            if value.lower() in _NOT_A_VALUE or not (shaped or (digits and value.isdigit())):
                continue
            out.append(Secret(m.start(1), m.start(1) + len(value), PASSWORD))
    return out


def _bare(text: str) -> list[Secret]:
    """A password with no "is" before it (:data:`_BARE`), shaped like one."""
    return _shaped(_BARE, text, digits=False)


_VALUE_MARKS = re.compile(r"[!?.]+(?=\s+[a-z])")


def _used(text: str) -> list[Secret]:
    """A password named by what it is used as (:data:`_USED`), shaped like one or a PIN."""
    return _shaped(_USED, text, digits=True)


def _referred(text: str, context: str) -> list[Secret]:
    """Values :data:`_REFERRED` captures after a secret's word in ``text`` or in ``context``
    (the message before), shaped like a password or digits only."""
    topic = _SECRET_TOPIC.search(context)
    here = _SECRET_TOPIC.search(text)
    if topic is None and here is None:
        return []
    start = 0 if topic is not None else here.end() if here is not None else 0
    return [s for s in _shaped(_REFERRED, text, digits=True) if s.start >= start]


def find(text: str, context: str = "") -> list[Secret]:
    """Every secret in ``text`` (see the module docstring), ordered, overlaps merged;
    ``context``: the message before it, which may name the secret ``text`` gives by "it"."""
    # 門禁碼是5566, 我家密碼是123456 read in simplified characters, one for one, so every span
    # stays the text's own (tester hbreak8 H10; app.core.chinese_script)
    text, context = simplified(text), simplified(context)
    found = [
        *_referred(text, context),
        *_cards(text),
        *_group(_CVV, text, CVV),
        *_stated(text),
        *_group(_PIN_DIGITS, text, PASSWORD),
        *_group(_TEXTED_CODE, text, PASSWORD),
        *_after_login(text),
        *_bare(text),
        *_used(text),
        *_group(_ACCESS_STATED, text, ACCESS),
        *_group(_OPENS_WITH, text, ACCESS),
        *_group(_ZH_ACCESS, text, ACCESS),
        *_group(_KEY_SHAPES, text, KEY, 0),
        *[Secret(start, end, NATIONAL_ID) for start, end in national_ids.spans(text)],
    ]
    merged: list[Secret] = []
    for s in sorted(found, key=lambda s: (s.start, -s.end)):
        # "use Hunter2! as my password": a mark the sentence goes on after is the value's
        if tail := _VALUE_MARKS.match(text, s.end):
            s = Secret(s.start, tail.end(), s.kind)
        if merged and s.start < merged[-1].end:
            last = merged[-1]
            merged[-1] = Secret(last.start, max(last.end, s.end), last.kind)
        else:
            merged.append(s)
    return merged


def mask(text: str, context: str = "") -> tuple[str, list[str]]:
    """``text`` with every secret replaced by :data:`PLACEHOLDER` naming its kind ("[withheld:
    a payment card number]"), and the kinds replaced (``context``: as for :func:`find`)."""
    secrets = find(text, context)
    for s in reversed(secrets):
        text = text[: s.start] + PLACEHOLDER.format(kind=s.kind) + text[s.end :]
    return text, [s.kind for s in secrets]
