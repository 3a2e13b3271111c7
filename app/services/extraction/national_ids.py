"""National id numbers that extraction never keeps (a part of :mod:`.secrets`): a US social
security number (``ddd-dd-dddd`` with a valid area and group, or any 9 digits after "SSN",
"social security number" or "my social", spaces allowed: "My social is 123 45 6789", tester
hbreak8 H10) and a Chinese resident id (18 characters with a valid birth date and ISO 7064
check digit, or any 15-18 after 身份证)."""

from __future__ import annotations

import re


def chinese_id_ok(value: str) -> bool:
    """An 18-character Chinese resident id's check digit (GB 11643, ISO 7064 MOD 11-2)."""
    body, check = value[:17], value[17:].upper()
    total = sum(int(c) * (2 ** (17 - i) % 11) for i, c in enumerate(body))
    return "10X98765432"[total % 11] == check


_SSN = re.compile(r"(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])")
_SSN_STATED = re.compile(
    r"\b(?:SSN|social\s+security(?:\s+(?:number|no\.?|#))?|social)\b[^\d\n]{0,15}?"
    r"(?<!\d)(\d{3}[- ]?\d{2}[- ]?\d{4})(?!\d)",
    re.IGNORECASE,
)
_CN_ID = re.compile(
    r"(?<![0-9A-Za-z])[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])"
    r"\d{3}[\dXx](?![0-9A-Za-z])"
)
_CN_ID_STATED = re.compile(r"身份证(?:号码|号)?[^\d\n]{0,6}?(?<!\d)(\d{14,17}[\dXx])(?![\dA-Za-z])")


def spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of every national id number in ``text`` (module docstring)."""
    out = [m.span() for m in _SSN.finditer(text)]
    out += [m.span(1) for m in _SSN_STATED.finditer(text)]
    out += [m.span() for m in _CN_ID.finditer(text) if chinese_id_ok(m.group())]
    out += [m.span(1) for m in _CN_ID_STATED.finditer(text)]
    return out
