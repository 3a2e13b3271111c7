"""What in a Chinese sentence says something happened: the aspect markers 了 and 过, and the
words of a past time (昨天, 去年, 已经 …) — one definition for extraction (an event unit, a
past tense: :mod:`app.services.extraction.kinds`, :mod:`app.services.extraction.tense`) and
for the pair decision (a past event against a plan: :mod:`app.services.memory.pairs.referents`).

了 is no marker in 为了 (for), 除了 (except), 罢了 (merely), 了解 (understand), 了不起
(amazing), 了却 (settle); 过 is none in 难过 (sad), 经过 (pass by), 超过 (exceed), 不过
(but), 通过 (through), 路过, 太过, nor in 过生日 (celebrate a birthday), 过敏 (allergic), 过年,
过节, 过道, 过来, 过去, 过程, 过期, 过夜, 过度, 过分, 过错, 过于.
"""

from __future__ import annotations

import re

LE = r"(?<![为除罢])了(?![解不却])"
"""了 as an aspect marker (a pattern, for building others)."""
GUO = r"(?<![难经超不通路太])过(?!生日|敏|年|节|道|来|去|程|期|夜|度|分|错|于)"
"""过 as an aspect marker (a pattern)."""
PAST_WORDS = r"已经|曾经|曾|昨天|前天|上周|上个|上星期|去年|前年|刚才|那天"
"""Words of a past time (a pattern)."""

PAST = re.compile(rf"{PAST_WORDS}|{GUO}|{LE}")
"""Anything that says a Chinese sentence tells of something that happened."""
