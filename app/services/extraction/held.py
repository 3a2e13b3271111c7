"""Whether a clause's typed facts hold all it says, so that no event of the message says it
again (one fact per unit). "Big news: I moved to Boston, in a small apartment. My rent is
$1,800 a month." kept the typed home, *and* an event "Big news: the user moved to Boston, in a
small apartment." that restated it, *and* (in a longer message) one unit "lives in Boston, in
a small apartment. The user's rent is $1,800": a later "I moved to Seattle" then superseded
the typed home but only flagged the bundle, whose Boston stayed current.

A clause is held by its typed facts when nothing of it is left outside their words (no
content word: "and a dog", "and she is 7" are not held), once the time phrase a dated move
took into its value ("moved to Bergen last month" → "… in November 2026 and now lives
there") is left out, and (Chinese) the next clause has a subject of its own (我住在杭州，靠近西湖
stays whole in the event); a detail of place or
manner after a comma (", in a small apartment", ", near the park") goes into the one fact's
value instead ("The user moved to Boston and now lives there, in a small apartment."). The
caller (:func:`app.services.extraction.typed.typed_units`) then leaves the clause out of the
message's event, as it does for a constraint."""

from __future__ import annotations

import re
from datetime import datetime

from app.core.text import has_cjk
from app.services.extraction.dates import find_dates
from app.services.extraction.filler import content_words
from app.services.extraction.units import Candidate

# ", in a small apartment", ", with my cat", ", near the park": a detail of the fact.
_DETAIL = re.compile(
    r"^\s*,\s*((?:in|into|with|near|at|on|by|for|from|close\s+to|next\s+to|right\s+by)\s+"
    r"[^,.;:!?]{2,60}?)\s*[.!]*\s*$",
    re.IGNORECASE,
)


# What opens the text left when a held clause before it was taken out ("I live in Chicago but
# my parents moved…" → "my parents moved…"; "Hi, 我叫Lena, I work…" → "I work…").
_DANGLING = re.compile(r"^[\s,，;；:：]*(?:(?:but|and|so|while|whereas|also)\b[\s,]*)?", re.I)


def left_over(text: str) -> str:
    """``text`` (a message once its held clauses are taken out) without the conjunction or
    comma left dangling at its start, capitalised again."""
    out = _DANGLING.sub("", re.sub(r"[,，](?:\s*[,，])+", ",", text))
    return out[:1].upper() + out[1:] if out else text


# A clause that opens with a pronoun is about the clause before it ("I have two kids. They
# are my world."): that one stays in the event with it.
_POINTS_BACK = re.compile(
    r"^\W*(?:he|she|it|they|this|that|these|those|his|her|its|their)\b|^\W*[他她它这那]",
    re.IGNORECASE,
)


def holds_fact(units: list[Candidate], rest: str, now: datetime, following: list[str]) -> bool:
    """True when ``units`` (a clause's typed units, all facts) hold what the clause says,
    ``rest`` being its text outside their matches (module docstring) and the clause after it
    (``following``, at most one) not pointing back at it; the one fact then takes a trailing
    detail of ``rest`` into its value (it is changed in place). False, and nothing changed,
    otherwise."""
    if not units or any(u.type != "fact" for u in units):
        return False
    if following and _POINTS_BACK.match(following[0]):
        return False
    opens = following[0].lstrip()[:1] if following else ""
    if has_cjk(opens) and opens != "我":
        return False  # 我住在杭州，靠近西湖: the clause after it goes on about the same
    left = rest
    if any(u.occurred_at for u in units):  # a dated move holds its time phrase
        for found in reversed(find_dates(rest, now)):
            left = left[: found.start] + " " + left[found.end :]
    detail = None if len(units) > 1 or has_cjk(left) else _DETAIL.match(left)
    if detail is not None and not find_dates(detail.group(1), now):
        unit = units[0]
        unit.value = f"{unit.value.rstrip('.')}, {detail.group(1).strip()}."
        return True
    return not content_words(left)
