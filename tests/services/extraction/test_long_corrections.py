"""A long message's corrections cost what its length costs (tester hbreak8: 16,000 characters
of prose with a correction every 170 took seconds, a 100,000-character /extract message
minutes): each correction read every date of the whole text before it. Now the text before a
correction is read for dates only when the correction is a date, and a message is corrected
in sentence-bounded parts of ``CORRECTION_PART_CHARS``: the characters the date reader
reads grow with the message, not with its square. A message within one part is corrected
as before. No timings: the work is counted."""

from __future__ import annotations

import pytest

from app.services.extraction import retractions
from app.services.extraction.parts import parts
from app.services.extraction.retractions import CORRECTION_PART_CHARS, corrected

PROSE = (
    "I moved to Berlin last May and I work at Siemens now, not at Acme anymore. My sister "
    "Anna loves hiking with her dog. Sorry, I mean her two dogs! We went to Paris on "
    "3 March 2024 — it was great. "
)
DATED = "We met Bob on 5 May, sorry, 6 May. I live in Boston, no wait, Cambridge. "


def _read_for_dates(monkeypatch: pytest.MonkeyPatch, text: str) -> int:
    """Characters ``corrected(text)`` hands the date reader."""
    read = [0]
    find = retractions.find_dates

    def counting(chunk: str, now):  # type: ignore[no-untyped-def]
        read[0] += len(chunk)
        return find(chunk, now)

    monkeypatch.setattr(retractions, "find_dates", counting)
    corrected(text)
    return read[0]


@pytest.mark.parametrize("unit", [PROSE, DATED])
def test_the_dates_read_grow_with_the_message_not_its_square(monkeypatch, unit):
    small = unit * (10_000 // len(unit))
    large = unit * (40_000 // len(unit))
    read_small = _read_for_dates(monkeypatch, small)
    read_large = _read_for_dates(monkeypatch, large)
    # four times the text, about four times the reading (before: 16 times, 10,000
    # characters of PROSE read 218,000 characters of dates, 40,000 read 3.5 million)
    assert read_large <= 5 * read_small, (read_small, read_large)


def test_a_long_message_keeps_its_corrections():
    text = DATED * (20_000 // len(DATED))
    out = corrected(text)
    assert "5 May" not in out and "Boston" not in out
    assert out.count("6 May") == text.count("6 May") and "Cambridge" in out


def test_a_message_within_one_part_is_corrected_whole():
    # The last date before a correction, however far back (within the part).
    text = "We met on 3 March. " + "It was fun and the weather was great. " * 40
    text += "Everyone came - sorry, 13 March."
    assert len(text) < CORRECTION_PART_CHARS
    assert corrected(text).startswith("We met on 13 March.")


def test_parts_are_the_text_cut_at_sentence_ends():
    text = (PROSE + "我去年五月搬到了柏林。" + "x" * 50 + " ") * 300
    cut = parts(text, CORRECTION_PART_CHARS)
    assert "".join(cut) == text and len(cut) > 1
    assert all(len(p) <= CORRECTION_PART_CHARS for p in cut)
    assert all(p.rstrip()[-1] in ".!?。" for p in cut[:-1]), [p[-20:] for p in cut]


def test_a_sentence_that_corrects_the_one_before_stays_with_it():
    # "… Boston. Sorry, Cambridge." across what would be a part's end
    lead = "I like tea. " * (CORRECTION_PART_CHARS // 12 - 1)
    text = lead + "I live in Boston. Sorry, Cambridge. " + "I like tea. " * 200
    assert "Boston" not in corrected(text) and "Cambridge" in corrected(text)
    cut = parts(text, CORRECTION_PART_CHARS, retractions._OPENS)
    assert any("Boston. Sorry, Cambridge." in p for p in cut)


def test_text_without_sentence_ends_is_cut_at_a_space():
    text = "sorry, " * 10_000
    cut = parts(text, CORRECTION_PART_CHARS, retractions._OPENS)
    assert "".join(cut) == text
    assert all(len(p) <= CORRECTION_PART_CHARS and p.endswith(" ") for p in cut[:-1])
