"""Slots a word list decides: how the subject gets to work (坐地铁上班 / commutes by subway:
``subway``) and which seat it takes (window / aisle; 靠窗 / 靠过道), each one name per way,
and the words of a statement that fill them. Pure data and functions (the pair decision's
exclusive slots, :mod:`app.services.memory.pairs.rules`)."""

from __future__ import annotations

import re
import unicodedata


def _fold(value: str) -> str:
    return unicodedata.normalize("NFKC", value).casefold().strip(" .,，。")


# Ways to get to work, by one name each (坐地铁 / takes the subway: subway).
_MODES = {
    "地铁": "subway", "公交": "bus", "公交车": "bus", "巴士": "bus", "火车": "train",
    "高铁": "train", "出租车": "taxi", "的士": "taxi", "自行车": "bike", "单车": "bike",
    "电动车": "ebike", "摩托": "motorbike", "摩托车": "motorbike", "船": "boat", "轮渡": "boat",
    "subway": "subway", "metro": "subway", "underground": "subway", "tube": "subway",
    "bus": "bus", "train": "train", "rail": "train", "taxi": "taxi", "cab": "taxi",
    "bike": "bike", "bicycle": "bike", "cycle": "bike", "cycles": "bike", "bikes": "bike",
    "car": "car", "drives": "car", "drive": "car", "ferry": "boat", "boat": "boat",
    "foot": "walk", "walks": "walk", "walk": "walk", "scooter": "scooter",
}  # fmt: skip
_ZH_COMMUTE = re.compile(
    r"(?P<verb>坐|乘|搭|开|骑)\s*(?P<mode>地铁|公交车?|巴士|火车|高铁|出租车|的士|车|自行车|单车|"
    r"电动车|摩托车?|轮渡|船)\s*(?:去)?(?:上班|通勤|去公司)|(?P<walk>步行|走路)(?:去)?(?:上班|去公司)"
)
_EN_COMMUTE = re.compile(
    r"\bcommutes?\s+(?:to\s+(?:work|the\s+office)\s+)?by\s+(?P<a>\w+)|"
    r"\b(?P<b>drives|cycles|bikes|walks)\s+(?:(?:a|the|his|her|their)\s+(?:car|bike|bicycle)\s+)?"
    r"to\s+(?:work|the\s+office)\b|"  # "drives a car to work"
    r"\b(?:takes|rides)\s+(?:the|a|his|her|their)\s+(?P<c>\w+)\s+to\s+(?:work|the\s+office)\b|"
    r"\bgoes\s+to\s+(?:work|the\s+office)\s+by\s+(?P<d>\w+)",
    re.IGNORECASE,
)


def commute(value: str) -> str | None:
    """How the subject gets to work, one name per way (坐地铁上班 / commutes by subway)."""
    m = _ZH_COMMUTE.search(value)
    if m is not None:
        if m.group("walk"):
            return "walk"
        mode = m.group("mode")
        if mode == "车":
            return "car" if m.group("verb") == "开" else "bike" if m.group("verb") == "骑" else None
        return _MODES.get(mode)
    m = _EN_COMMUTE.search(value)
    if m is not None:
        word = next(g for g in m.groups() if g).casefold()
        return _MODES.get(word)
    return None


_SEAT = re.compile(r"\b(window|aisle)\s+seats?\b|靠(窗|过道|走道)", re.IGNORECASE)


def slot_text(value: str, slot: str, filled: str) -> str:
    """The words of ``value`` that fill ``slot`` (``filled``: its value in :func:`slots`):
    the phrase itself for slots whose value is a normalised name (坐地铁上班 → subway)."""
    pattern = {"commute": (_ZH_COMMUTE, _EN_COMMUTE), "seat": (_SEAT,)}.get(slot, ())
    for p in pattern:
        m = p.search(value)
        if m is not None:
            return _fold(m.group(0))
    return filled


def seat(value: str) -> str | None:
    """Which seat the subject takes (window / aisle; 靠窗 / 靠过道)."""
    m = _SEAT.search(value)
    if m is None:
        return None
    word = (m.group(1) or m.group(2)).casefold()
    return {"窗": "window", "过道": "aisle", "走道": "aisle"}.get(word, word)
