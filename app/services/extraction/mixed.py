"""English inside a Chinese message (tester F12): a run of English words that speaks of "I"
is put in the third person as the rest of the message is ("我下周要去上海出差，I am so excited" →
"…，The user is so excited"); other English runs (names, "AI is the future") stay as written."""

from __future__ import annotations

import re
from collections.abc import Callable

# U+2024 is an initialism's period ("M.I.T.", abbreviations.protect_text): inside the run,
# and its I is no "I" (tester G5).
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z0-9'’ ,\u2024-]*[A-Za-z0-9'’\u2024]|[A-Za-z]")
_EN_FIRST_PERSON = re.compile(
    r"(?<!\u2024)\b(?:I(?!\u2024)|I['’](?:m|ve|ll|d)|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)\b"
)


def english_runs(text: str, third_person: Callable[[str], str]) -> str:
    """``text`` with each English run that speaks of "I" rewritten by ``third_person`` (the
    English statement's rewrite), without the full stop it adds and with the run's own case
    of its first letter."""

    def one(m: re.Match[str]) -> str:
        run = m.group()
        if not _EN_FIRST_PERSON.search(run):
            return run
        out = third_person(run).rstrip(".")
        return out if out[:1].isupper() == run[:1].isupper() else out[:1].lower() + out[1:]

    return _LATIN_RUN.sub(one, text)
