"""Canonical forms of a statement, shared by dedupe and the conflict check (docs/DEDUPE.md).

Two statements that say one thing in two notations must look equal here, and two that say
different things must not. So numbers, dates, times, units and currencies are rewritten into
one notation before texts are compared:

- numbers: English number words (``text2num``: "thirty-four" → 34, "seventh" → 7th) and
  Chinese numerals (``cn2an``: 五千 → 5000, 二〇二五 → 2025), only where a measure word,
  unit or date follows (一直, 十分喜欢 stay words);
- times: 12- and 24-hour clocks and Chinese periods (9pm, 21:00, 晚上9点 → ``tm2100``);
  a bare Chinese hour without a period (9点) stays as written;
- dates: ISO, month names (parsed by ``dateparser``) and Chinese 年月日/号 (``dt20240503``,
  or ``dt0503`` without a year); a numeric d/m/y date whose day and month could swap keeps
  its literal form, so it never equals another date; a week of a month ("the second week
  of November", 11月第2周 → ``wk112``);
- weekdays: 周三, 星期三, 礼拜三, Wednesday → ``wd3``;
- amounts: currency symbols and words ($500, 500 dollars, 500美元 → ``500usd``; 元/块/块钱 →
  ``cny``) and units (5 km, 5 kilometres, 5公里 → ``5km``).

:func:`canonical` returns the rewritten text and its *values* (times, dates, numbers with
their unit) for comparing two statements' values. Pure and cached: no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

import cn2an
from dateparser.date import DateDataParser
from text_to_num import alpha2digit

from app.core import text
from app.core.chinese_script import simplified

# ---- numbers ---------------------------------------------------------------------------------

_ZH_DIGITS = "零〇一二两三四五六七八九十百千万亿"
# A Chinese numeral counts as a number only before one of these (measure words, units,
# calendar and clock words) or after 第.
_ZH_AFTER = (
    "个只岁年月日号点分秒元块位本次天周楼层杯瓶公里千米公斤斤米人口家件张台辆条倍小时分钟"
    "届期遍趟顿套双对名所间场首部"
    # doses and portions (tester D31: 两片药 / 三片药 merged, the second dose lost)
    "片粒颗支根盒袋碗份剂罐壶盘节篇封头匹棵朵克升毫"
)
# ... or a numeral with a magnitude that ends its clause: 月薪两万五。/ 现在三万 (tester hbreak8
# H11: not read as 25000 and 30000, the change was offered as a duplicate and a merge lost it).
_ZH_NUMERAL = re.compile(
    rf"(?<=第)[{_ZH_DIGITS}]+|[{_ZH_DIGITS}]+(?=[{_ZH_AFTER}])"
    rf"|[{_ZH_DIGITS}]*[十百千万亿][{_ZH_DIGITS}]*(?=[。，！？；、,.!?;]|$)"
)
_ZH_IDIOMS = (
    "十分",
    "一点",
    "一些",
    "一直",
    "一起",
    "一样",
    "一般",
    "一定",
    "万一",
    "统一",
    "唯一",
)


def _zh_numbers(s: str) -> str:
    def repl(m: re.Match[str]) -> str:
        run = m.group()
        after = s[m.end() : m.end() + 2]
        if run + after[:1] in _ZH_IDIOMS and not after.startswith(("点钟", "点半", "分钟")):
            before = s[max(0, m.start() - 2) : m.start()]
            if not (run == "一" and after[:1] == "点" and before in _ZH_PERIODS):
                return run
        try:
            return str(cn2an.cn2an(run, "smart"))
        except (ValueError, KeyError):
            return run

    return _ZH_NUMERAL.sub(repl, s)


def _en_numbers(s: str) -> str:
    if not re.search(r"[a-z]", s):
        return s
    return str(alpha2digit(s, "en", threshold=0))


# ---- times -----------------------------------------------------------------------------------

_ZH_PERIODS = {"凌晨": 0, "早上": 0, "早晨": 0, "上午": 0, "中午": 12, "下午": 12, "傍晚": 12,
               "晚上": 12, "夜里": 12, "夜晚": 12}  # fmt: skip
_ZH_TIME = re.compile(
    r"(凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里|夜晚)?\s*(\d{1,2})\s*[点時时]"
    r"(?:\s*(半|整|钟|(\d{1,2})\s*分))?"
)
_EN_PERIOD = re.compile(
    r"\b(\d{1,2})(?::(\d{2}))?\s*(?:o'clock\s*)?(a\.?m\.?|p\.?m\.?|"
    r"in the (?:morning|afternoon|evening)|at night)(?![a-z])"
)
_CLOCK = re.compile(r"(?<![\d.:])(\d{1,2}):(\d{2})(?![\d:])")
_NOON = re.compile(r"\b(noon|midday|midnight)\b")


def _tm(hour: int, minute: int) -> str:
    return f" tm{hour:02d}{minute:02d} " if 0 <= hour < 24 and 0 <= minute < 60 else ""


def _times(s: str) -> str:
    def en(m: re.Match[str]) -> str:
        hour, minute, period = int(m.group(1)), int(m.group(2) or 0), m.group(3)
        if hour > 12:
            return m.group()
        afternoon = period.startswith("p") or "afternoon" in period or "evening" in period
        if afternoon or (period == "at night" and hour >= 6):
            hour = hour % 12 + 12
        elif period.startswith("a") or "morning" in period:
            hour %= 12
        return _tm(hour, minute) or m.group()

    def zh(m: re.Match[str]) -> str:
        period, hour = m.group(1), int(m.group(2))
        minute = 30 if m.group(3) == "半" else int(m.group(4) or 0)
        if period is None:
            # 21点 is unambiguous; 9点 without 上午/晚上 is not: keep it as written.
            return _tm(hour, minute) or m.group() if hour > 12 else m.group()
        if _ZH_PERIODS[period] == 12 and hour < 12 and not (period == "中午" and hour >= 11):
            hour += 12
        elif period in ("晚上", "夜里", "夜晚") and hour == 12:
            hour = 0
        return _tm(hour, minute) or m.group()

    s = _EN_PERIOD.sub(en, s)
    s = _ZH_TIME.sub(zh, s)
    s = _NOON.sub(lambda m: " tm1200 " if m.group(1) != "midnight" else " tm0000 ", s)
    return _CLOCK.sub(lambda m: _tm(int(m.group(1)), int(m.group(2))) or m.group(), s)


# ---- dates -----------------------------------------------------------------------------------

_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_ORD = r"(?:st|nd|rd|th)?"
_EN_DATE = re.compile(
    rf"\b(?:(?:the\s+)?\d{{1,2}}{_ORD}\s+(?:of\s+)?{_MONTHS}|{_MONTHS}\s+\d{{1,2}}{_ORD})"
    rf"(?:,?\s+(\d{{4}}))?\b"
)
# A sentence may end on the date ("moved to 2026-12-17.", tester hbreak7 H10); a version does not.
_ISO_DATE = re.compile(r"(?<![\d.])(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d|\.\d)")
_DMY = re.compile(r"(?<![\d.])(\d{1,2})[/.](\d{1,2})[/.](\d{4})(?!\d|\.\d)")
_ZH_DATE = re.compile(r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]")
_DATE_PARSER = DateDataParser(
    languages=["en"],
    settings={"REQUIRE_PARTS": ["day", "month"], "RELATIVE_BASE": datetime(2000, 1, 1)},
)


# A month of a year without a day ("May 2022", "2022年5月") → ``dm202205``.
_EN_MONTH_YEAR = re.compile(rf"\b({_MONTHS})\s+(?:of\s+)?(\d{{4}})\b")
_ZH_MONTH_YEAR = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月(?!\s*\d)")
_MM_YYYY = re.compile(r"(?<![\d/.])(\d{1,2})/(\d{4})(?![\d/])")
_MONTH_NUMBER = {m: k for k, m in enumerate(
    "jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}  # fmt: skip


def _month_years(s: str) -> str:
    def en(m: re.Match[str]) -> str:
        return f" dm{int(m.group(2)):04d}{_MONTH_NUMBER[m.group(1)[:3]]:02d} "

    def zh(m: re.Match[str]) -> str:
        month = int(m.group(2))
        return f" dm{int(m.group(1)):04d}{month:02d} " if 1 <= month <= 12 else m.group()

    def mm_yyyy(m: re.Match[str]) -> str:
        month = int(m.group(1))
        return f" dm{int(m.group(2)):04d}{month:02d} " if 1 <= month <= 12 else m.group()

    s = _MM_YYYY.sub(mm_yyyy, s)
    return _ZH_MONTH_YEAR.sub(zh, _EN_MONTH_YEAR.sub(en, s))


# A week of a month ("the second week of November", 11月第2周) → ``wk112``.
_EN_WEEK_OF = re.compile(rf"\b(?:the\s+)?([1-5])(?:st|nd|rd|th)\s+week\s+(?:of|in)\s+({_MONTHS})")
_ZH_WEEK_OF = re.compile(r"(\d{1,2})\s*月\s*(?:的)?\s*第\s*([1-5])\s*(?:周|个?星期|个?礼拜)")


def _weeks(s: str) -> str:
    def zh(m: re.Match[str]) -> str:
        month = int(m.group(1))
        return f" wk{month:02d}{m.group(2)} " if 1 <= month <= 12 else m.group()

    s = _ZH_WEEK_OF.sub(zh, s)
    return _EN_WEEK_OF.sub(
        lambda m: f" wk{_MONTH_NUMBER[m.group(2).rstrip('.')[:3]]:02d}{m.group(1)} ", s
    )


def _dt(year: int | None, month: int, day: int) -> str:
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return ""
    return f" dt{year:04d}{month:02d}{day:02d} " if year else f" dt{month:02d}{day:02d} "


# A range of days in one month ("11-15 Aug 2023", "Aug 11-15, 2023") is its two dates; a
# range's first date without a year takes its last one's ("August 11 to August 15, 2023").
_DAY = rf"(\d{{1,2}}){_ORD}"
_YEAR_AFTER = r"(,?\s+\d{4})?"
_DAY_RANGE = re.compile(rf"\b{_DAY}\s*[-–]\s*{_DAY}\s+({_MONTHS}){_YEAR_AFTER}")
_RANGE_DAY = re.compile(rf"\b({_MONTHS})\s+{_DAY}\s*[-–]\s*{_DAY}\b{_YEAR_AFTER}")
_RANGE_YEAR = re.compile(
    r"\bdt(\d{4})\b(\s*(?:-|–|to|until|till|through|and|至|到)\s*)dt(\d{4})(\d{4})\b"
)


def _ranges(s: str) -> str:
    s = _DAY_RANGE.sub(lambda m: f"{m[1]} {m[3]}{m[4] or ''} to {m[2]} {m[3]}{m[4] or ''}", s)
    return _RANGE_DAY.sub(lambda m: f"{m[1]} {m[2]}{m[4] or ''} to {m[1]} {m[3]}{m[4] or ''}", s)


def _dates(s: str) -> str:
    def en(m: re.Match[str]) -> str:
        parsed = _DATE_PARSER.get_date_data(m.group()).date_obj
        if parsed is None:
            return m.group()
        return _dt(int(m.group(1)) if m.group(1) else None, parsed.month, parsed.day)

    def dmy(m: re.Match[str]) -> str:
        a, b, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if a > 12 >= b:  # 31/03/2025: day first
            return _dt(year, b, a) or m.group()
        if b > 12 >= a:  # 03/31/2025: month first
            return _dt(year, a, b) or m.group()
        return m.group()  # 05/03/2024: May 3 or 5 March, keep as written

    s = _ISO_DATE.sub(lambda m: _dt(*map(int, m.groups())) or m.group(), s)
    s = _ZH_DATE.sub(
        lambda m: (
            _dt(int(m.group(1)) if m.group(1) else None, int(m.group(2)), int(m.group(3)))
            or m.group()
        ),
        s,
    )
    s = _DMY.sub(dmy, s)
    s = _EN_DATE.sub(en, _ranges(s))
    s = _RANGE_YEAR.sub(lambda m: f"dt{m[3]}{m[1]}{m[2]}dt{m[3]}{m[4]}", s)
    return _month_years(s)


_WEEKDAY_EN = {
    d: k
    for k, d in enumerate(
        ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"), 1
    )
}
_WEEKDAY_ZH = {c: k for k, c in enumerate("一二三四五六", 1)} | {"日": 7, "天": 7}
_EN_WEEKDAY = re.compile(r"\b(" + "|".join(_WEEKDAY_EN) + r")s?\b")
_ZH_WEEKDAY = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天])")


def _weekdays(s: str) -> str:
    s = _ZH_WEEKDAY.sub(lambda m: f" wd{_WEEKDAY_ZH[m.group(1)]} ", s)
    return _EN_WEEKDAY.sub(lambda m: f" wd{_WEEKDAY_EN[m.group(1)]} ", s)


# ---- units and currency ----------------------------------------------------------------------

_UNIT_WORDS: dict[str, str] = {}
for _code, _words in {
    "usd": "dollars dollar usd bucks 美元 美金",
    "cny": "yuan rmb cny 块钱 块 元 人民币",
    "eur": "euros euro eur 欧元",
    "gbp": "gbp 英镑",
    "jpy": "yen jpy 日元",
    "km": "kilometres kilometre kilometers kilometer km 公里 千米",
    "kg": "kilograms kilogram kilos kilo kg 公斤 千克",
    "m": "metres metre meters meter m 米",
    "cm": "centimetres centimetre centimeters centimeter cm 厘米",
    "mi": "miles mile mi 英里",
    "min": "minutes minute mins min 分钟",
    "h": "hours hour hrs hr 小时",
    "lb": "pounds pound lbs lb 磅",
}.items():
    for _w in _words.split():
        _UNIT_WORDS[_w] = _code
_UNIT_ALT = "|".join(sorted(map(re.escape, _UNIT_WORDS), key=len, reverse=True))
_AMOUNT_WORD = re.compile(rf"(?<![\d.])(\d+(?:\.\d+)?)\s*({_UNIT_ALT})(?![a-z])")
_SYMBOLS = {"$": "usd", "€": "eur", "£": "gbp", "¥": "cny", "￥": "cny"}
_AMOUNT_SYMBOL = re.compile(r"([$€£¥￥])\s*(\d+(?:\.\d+)?)")


def _amounts(s: str) -> str:
    s = _AMOUNT_SYMBOL.sub(lambda m: f" {m.group(2)}{_SYMBOLS[m.group(1)]} ", s)
    return _AMOUNT_WORD.sub(lambda m: f" {m.group(1)}{_UNIT_WORDS[m.group(2)]} ", s)


# ---- the canonical form ----------------------------------------------------------------------

# …and a short code that ends in a sign: a blood type or a grade ("a+", "ab-", "o-").
_VALUE = re.compile(
    r"\b(?:tm\d{4}|dt\d{4}(?:\d{4})?|dm\d{6}|wd\d|wk\d{3})\b|\d+(?:\.\d+)?[a-z]*"
    r"|(?<![\w+-])[a-z]{1,2}[+-](?![\w+-])"
)


@dataclass(frozen=True)
class Canonical:
    """A statement in one notation: ``text`` (rewritten, case-folded), ``key`` (``text``
    normalised: equal keys are the same statement) and ``values`` (times, dates, numbers
    with their unit, e.g. ``{"tm2100", "500usd", "2"}``)."""

    text: str
    key: str
    values: frozenset[str]


# Thousands as "k" beside a currency ($85k, 85k dollars; not a 5K run), "twice" / "thrice".
_THOUSAND_K = re.compile(
    r"(?:(?<=[$€£¥])|(?<![\w.]))(\d{1,3})[kK]"
    r"(?:(?<=[$€£¥]\d[kK])|(?<=[$€£¥]\d\d[kK])|(?<=[$€£¥]\d\d\d[kK])|"
    r"(?=\s*(?:dollars?|usd|euros?|eur|pounds?|gbp|yuan|rmb|元|美元)\b))(?![\w])"
)
# "once" as a count only before a span ("once a week", "once every month"; not "once lived").
_TWICE = re.compile(
    r"\b(twice|thrice|once(?=\s+(?:a|an|per|every|each)\s+(?:day|week|month|year|fortnight)\b))\b",
    re.IGNORECASE,
)
# Spans written as words ("half an hour", "a decade") in the units numbers give them; a
# number word joined to its unit ("five-kilometre"); a race's distance in K ("a 5K run").
_SPANS = (
    (re.compile(r"\b(?:an hour and a half|one and a half hours)\b"), "90 minutes"),
    (re.compile(r"\b(?:a |one )?quarter of an hour\b"), "15 minutes"),
    (re.compile(r"\bhalf an hour\b"), "30 minutes"),
    (re.compile(r"\b(?:a|one) decade\b"), "10 years"),
    (re.compile(r"\bhalf a dozen\b"), "6"),
    (re.compile(r"\b(?:a|one) dozen\b"), "12"),
    (re.compile(r"\b(?:a|one) fortnight\b"), "2 weeks"),
    (
        re.compile(
            r"\b([a-z]+)-(kilomet(?:re|er)s?|miles?|minutes?|hours?|days?|weeks?|months?|years?)\b"
        ),
        r"\1 \2",
    ),
    (
        re.compile(r"(?<![\w.$€£¥])(\d{1,3})k(?=\s+(?:charity\s+|fun\s+)?(?:run|race|walk)\b)"),
        r"\1 km",
    ),
)
# First place in a contest is a win, not the value 1 ("took first place in 4 tournaments" /
# "won four tournaments", "came first in a tournament"; not "family comes first").
_FIRST_PLACE = re.compile(
    r"\b(?:took|came|finished|placed|won|got|take|takes)\s+(?:the\s+)?(?:first|1st)"
    r"(?:\s+(?:place|prize))?(?=\s+(?:in|at|of)\b)|\b(?:took|won|got)\s+(?:the\s+)?"
    r"(?:first|1st)\s+(?:place|prize)\b|(?:得了|拿了|获得了?)第一名?"
)
_TIMES = {"once": "1 times", "twice": "2 times", "thrice": "3 times"}
# A number written with thousands separators (1,500; 10,000; 85,000), not a list "3,4".
_THOUSANDS = re.compile(r"(?<![\d,.])\d{1,3}(?:,\d{3})+(?![\d,]|\.\d)")


@lru_cache(maxsize=8192)
def canonical(value: str) -> Canonical:
    """The :class:`Canonical` form of a statement (see the module docstring)."""
    s = simplified(unicodedata.normalize("NFKC", value))  # 下週三 is 下周三
    s = _THOUSANDS.sub(lambda m: m.group().replace(",", ""), s)  # 10,000 → 10000
    s = _THOUSAND_K.sub(lambda m: f"{m.group(1)}000", s)  # $85k → $85000
    s = _TWICE.sub(lambda m: _TIMES[m.group(1).casefold()], s)  # twice → 2 times
    s = s.casefold()
    s = _FIRST_PLACE.sub(lambda m: "赢了" if text.has_cjk(m.group()) else "won", s)
    for pattern, written in _SPANS:
        s = pattern.sub(written, s)
    s = _zh_numbers(_weekdays(s))
    s = _en_numbers(s)
    s = _dates(_weeks(s))
    s = _times(s)
    s = _amounts(s)
    s = re.sub(r"\s+", " ", s).strip()
    values = frozenset(_VALUE.findall(s))
    return Canonical(text=s, key=text.normalize(s), values=values)
