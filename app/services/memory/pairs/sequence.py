"""Numbered members of one sequence: "Step 3 finished", "finished chapter 4", "Epoch 12
done", 步骤3完成, 第3步完成了 (tester F34). Two statements about other members of a sequence
are two events, not one value changed: an agent logging 300 progress lines ("step 1
finished", "step 2 finished", …) opened a contradiction review of each line against every
neighbour. Not a position that changes ("is on step 3", "got to chapter 7", 读到第7章: one
value, the later holds). Read by :func:`.referents.identifiers` as identifiers of a thing
("order 1001" / "order 1002"). Pure."""

from __future__ import annotations

import re

from app.services.memory.pairs.canonical import canonical

# Nouns a number after them names a member of a sequence (not a count: "10,000 steps a day").
_NOUN_EN = (
    r"step|stage|phase|part|chapter|lesson|episode|module|section|task|item|batch|epoch|"
    r"iteration|sprint|milestone|lap|exercise|question|day|week"
)
_NUMBERED_EN = re.compile(
    rf"\b({_NOUN_EN})\s*(?:no\.?\s*|#\s*)?(\d+)(?![.,]\d|\s*%)",
    re.IGNORECASE,
)
# A position the subject is at or reached (one value that changes), said before the noun.
_POSITION_EN = re.compile(
    r"\b(?:(?:is|are|am|was|were|'s|’s|now|still)\s+(?:now\s+|still\s+)?(?:on|at|in|up\s+to)"
    r"|reached|reaches|got\s+to|gets\s+to|made\s+it\s+to|up\s+to|moved\s+on\s+to)\s+"
    rf"(?:the\s+)?(?:{_NOUN_EN})\b",
    re.IGNORECASE,
)
_NOUN_ZH = r"步骤|阶段|任务|章节|环节"
_NUMBERED_ZH = re.compile(
    rf"({_NOUN_ZH})\s*(\d+|[一二三四五六七八九十两]+)|第\s*(\d+)\s*(步|章|课|集|阶段|关|题|部分|环节)"
)
# 在第3步, 到第7章, 读到第7章: a position, not a member done.
_POSITION_ZH = re.compile(rf"(?:在|到)\s*(?:第\s*\d+\s*|(?:{_NOUN_ZH})\s*\d)")


def numbered(value: str) -> frozenset[str]:
    """The members of a sequence a statement names ("step:3", "步:3"), case-folded; none when
    it says a position it is at ("is on step 3", 读到第7章)."""
    c = canonical(value).text  # step one → step 1, 第一步 → 第1步
    if _POSITION_EN.search(c) or _POSITION_ZH.search(c):
        return frozenset()
    found = {f"{m.group(1).casefold()}:{int(m.group(2))}" for m in _NUMBERED_EN.finditer(c)}
    for m in _NUMBERED_ZH.finditer(c):
        noun, number = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        found.add(f"{noun}:{int(number) if number.isdigit() else number}")
    return frozenset(found)
