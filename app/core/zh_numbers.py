"""Small Chinese numerals as they appear in time phrases (三天后, 十五号, 两周前): one reading
for the extractor's dates (:mod:`app.services.extraction.dates`) and recall's time phrases
(:mod:`app.services.recall.time_hint`, :mod:`app.services.recall.time_ahead`)."""

from __future__ import annotations

DIGITS = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
          "九": 9, "十": 10}  # fmt: skip


def zh_number(text: str) -> int | None:
    """``text`` (ASCII digits, or a Chinese numeral up to 九十九: 五, 十二, 二十, 三十一) as an
    integer; None when it is neither."""
    if text.isdigit():
        return int(text)
    if text in DIGITS:
        return DIGITS[text]
    if len(text) == 2 and text[0] == "十":
        return 10 + DIGITS.get(text[1], 0)
    if len(text) in (2, 3) and text[1] == "十":
        return DIGITS.get(text[0], 0) * 10 + (DIGITS.get(text[2], 0) if len(text) == 3 else 0)
    return None
