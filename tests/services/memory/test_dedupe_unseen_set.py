"""The pairs the decision was not tuned on (tests/dedupe_pairs_unseen.py) are apart from the
calibration set, grouped by source fact, and partly held back (docs/DEDUPE.md)."""

from __future__ import annotations

from collections import Counter

from tests.dedupe_pairs import PAIRS
from tests.dedupe_pairs_held_back import HELD_BACK_GROUPS
from tests.dedupe_pairs_held_back import held_back as fresh_held_back
from tests.dedupe_pairs_held_back_4 import FIRST_FOURTH_GROUP, FOURTH_GROUPS, fourth_held_back
from tests.dedupe_pairs_held_back_5 import FIFTH_GROUPS, FIRST_FIFTH_GROUP, fifth_held_back
from tests.dedupe_pairs_unseen import (
    FIRST_GROUPS,
    GROUPS,
    HELD_BACK,
    NEXT_GROUPS,
    OLD_HELD_BACK,
    development,
    held_back,
    next_held_back,
)


def test_no_pair_of_the_unseen_set_is_in_the_calibration_set():
    calibration = {(p.old, p.new) for p in PAIRS} | {(p.new, p.old) for p in PAIRS}
    assert not [p for g in GROUPS for p in g if (p.old, p.new) in calibration]


def test_groups_and_the_held_back_part():
    assert len(development()) + len(held_back()) == sum(len(g) for g in GROUPS)
    assert {g for g, _ in development()}.isdisjoint({g for g, _ in held_back()})
    # A fresh held-back part among the groups added later; the first one was looked at.
    assert len(HELD_BACK) == (len(GROUPS) - FIRST_GROUPS + 1) // 5
    assert min(HELD_BACK) >= FIRST_GROUPS and not set(HELD_BACK) & set(OLD_HELD_BACK)
    assert len(GROUPS) - FIRST_GROUPS >= 50 and sum(len(g) for g in GROUPS) >= 250
    for group in GROUPS:  # each source fact has a duplicate written from it
        assert any(p.expect == "same" for p in group)
        assert len({p.old for p in group} | {p.new for p in group}) >= 2


def test_the_next_held_back_part_is_apart():
    """The groups written for the next session's held-back part are in neither the
    calibration set nor the groups above (development and the spent held-back part)."""
    seen = {(p.old, p.new) for p in PAIRS} | {(p.new, p.old) for p in PAIRS}
    seen |= {(p.old, p.new) for g in GROUPS for p in g} | {
        (p.new, p.old) for g in GROUPS for p in g
    }
    assert not [p for g in NEXT_GROUPS for p in g if (p.old, p.new) in seen]
    assert {g for g, _ in next_held_back()}.isdisjoint({g for g, _ in development()})
    assert len(next_held_back()) >= 40 and {p.expect for _, p in next_held_back()} == {
        "same",
        "contradicts",
        "distinct",
    }
    for group in NEXT_GROUPS:
        assert any(p.expect == "same" for p in group)


def test_the_third_held_back_part_is_apart():
    """The third held-back part (tests/dedupe_pairs_held_back.py) shares no pair with the
    calibration set, the unseen groups or the spent next part, and its group numbers with
    none of theirs; each group has a duplicate, and the part has every kind of label."""
    seen = {(p.old, p.new) for p in PAIRS}
    seen |= {(p.old, p.new) for g in (*GROUPS, *NEXT_GROUPS) for p in g}
    seen |= {(b, a) for a, b in seen}
    part = fresh_held_back()
    assert not [p for _, p in part if (p.old, p.new) in seen]
    numbers = {g for g, _ in part}
    assert numbers.isdisjoint({g for g, _ in development()} | {g for g, _ in next_held_back()})
    assert len(HELD_BACK_GROUPS) >= 20 and len(part) >= 60
    assert {p.expect for _, p in part} == {"same", "contradicts", "distinct"}
    assert {p.lang for _, p in part} == {"en", "zh", "mixed"}
    for group in HELD_BACK_GROUPS:
        assert any(p.expect == "same" for p in group)


def _apart(groups, part) -> None:  # type: ignore[no-untyped-def]
    """The last of ``groups`` (parts' groups, oldest first; ``part`` is its (group, pair)
    list) shares no pair, either way round, with the calibration set or an earlier unseen
    part, and no group number with them; each group has a duplicate and a second text; the
    part has every label, enough of each, and every language."""
    earlier = [*GROUPS, *NEXT_GROUPS, *HELD_BACK_GROUPS, *(g for part in groups[:-1] for g in part)]
    seen = {(p.old, p.new) for p in PAIRS} | {(p.old, p.new) for g in earlier for p in g}
    seen |= {(b, a) for a, b in seen}
    this = groups[-1]
    assert not [p for g in this for p in g if (p.old, p.new) in seen]
    numbers = {g for g, _ in part}
    assert numbers.isdisjoint(
        {g for g, _ in development()}
        | {g for g, _ in held_back()}
        | {g for g, _ in next_held_back()}
        | {g for g, _ in fresh_held_back()}
    )
    assert len(this) >= 35 and len(part) >= 125
    labels = Counter(p.expect for _, p in part)
    assert labels["same"] >= 55 and labels["contradicts"] >= 35 and labels["distinct"] >= 35
    assert {p.lang for _, p in part} == {"en", "zh", "mixed"}
    for group in this:
        assert any(p.expect == "same" for p in group)
        assert len({p.old for p in group} | {p.new for p in group}) >= 2


def test_the_fourth_held_back_part_is_apart():
    """The fourth part (tests/dedupe_pairs_held_back_4.py, what ``--held-back`` scores)."""
    _apart([FOURTH_GROUPS], fourth_held_back())
    assert {g for g, _ in fourth_held_back()} == set(
        range(FIRST_FOURTH_GROUP, FIRST_FOURTH_GROUP + len(FOURTH_GROUPS))
    )


def test_the_fifth_held_back_part_is_apart():
    """The fifth part (tests/dedupe_pairs_held_back_5.py, kept for a later session) is apart
    from the fourth too."""
    _apart([FOURTH_GROUPS, FIFTH_GROUPS], fifth_held_back())
    assert {g for g, _ in fifth_held_back()}.isdisjoint({g for g, _ in fourth_held_back()})
    assert min(g for g, _ in fifth_held_back()) == FIRST_FIFTH_GROUP


def test_the_sixth_part_and_dev_6_are_apart():
    """The sixth held-back part and the development pairs written with it (2026-12-07, blind
    to the features; smaller than the earlier parts) share no pair, either way round, with any
    other labelled set, nor a group number; every group has a duplicate."""
    from tests.dedupe_pairs_dev_6 import DEV6_GROUPS, dev6
    from tests.dedupe_pairs_held_back_6 import SIXTH_GROUPS, sixth_held_back

    earlier = [*GROUPS, *NEXT_GROUPS, *HELD_BACK_GROUPS, *FOURTH_GROUPS, *FIFTH_GROUPS]
    seen = {(p.old, p.new) for p in PAIRS} | {(p.old, p.new) for g in earlier for p in g}
    seen |= {(b, a) for a, b in seen}
    for groups, part in ((SIXTH_GROUPS, sixth_held_back()), (DEV6_GROUPS, dev6())):
        assert not [p for g in groups for p in g if (p.old, p.new) in seen]
        assert all(any(p.expect == "same" for p in g) for g in groups)
        assert {p.lang for _, p in part} == {"en", "zh", "mixed"}
    numbers = [{g for g, _ in part()} for part in (fourth_held_back, fifth_held_back)]
    six, dev = {g for g, _ in sixth_held_back()}, {g for g, _ in dev6()}
    assert six.isdisjoint(dev) and all(six.isdisjoint(n) and dev.isdisjoint(n) for n in numbers)


def test_the_seventh_part_and_dev_7_are_apart():
    """The seventh held-back part and the development pairs written with it (2026-12-07 12:50
    UTC, blind to the features) share no pair, either way round, with any other labelled set,
    nor a group number; every group has a duplicate. Failures print counts only: the seventh
    part is not read before it is scored."""
    from tests.dedupe_pairs_dev_6 import DEV6_GROUPS, dev6
    from tests.dedupe_pairs_dev_7 import DEV7_GROUPS, dev7
    from tests.dedupe_pairs_held_back_6 import SIXTH_GROUPS, sixth_held_back
    from tests.dedupe_pairs_held_back_7 import SEVENTH_GROUPS, seventh_held_back

    earlier = [*GROUPS, *NEXT_GROUPS, *HELD_BACK_GROUPS, *FOURTH_GROUPS, *FIFTH_GROUPS,
               *SIXTH_GROUPS, *DEV6_GROUPS]  # fmt: skip
    seen = {(p.old, p.new) for p in PAIRS} | {(p.old, p.new) for g in earlier for p in g}
    seen |= {(b, a) for a, b in seen}
    for groups, part in ((SEVENTH_GROUPS, seventh_held_back()), (DEV7_GROUPS, dev7())):
        assert sum((p.old, p.new) in seen for g in groups for p in g) == 0
        assert sum(not any(p.expect == "same" for p in g) for g in groups) == 0
        assert {p.lang for _, p in part} == {"en", "zh", "mixed"}
    seven_pairs = {(p.old, p.new) for g in SEVENTH_GROUPS for p in g}
    assert len(seven_pairs & {(p.old, p.new) for g in DEV7_GROUPS for p in g}) == 0
    parts = (fourth_held_back, fifth_held_back, sixth_held_back, dev6)
    numbers = set().union(*({g for g, _ in part()} for part in parts))
    seven, dev = {g for g, _ in seventh_held_back()}, {g for g, _ in dev7()}
    assert seven.isdisjoint(dev) and seven.isdisjoint(numbers) and dev.isdisjoint(numbers)


def test_the_ninth_development_part_is_new_and_in_two_languages():
    """tests/dedupe_pairs_dev_9.py (negations across languages, tester K1; not blind): no pair
    of another labelled file, either way round, nor a group number; each pair in English and
    Chinese, each group with a contradiction and another fact."""
    from tests.dedupe_pairs_dev_9 import DEV9_GROUPS, dev9
    from tests.dedupe_pairs_held_back_8 import EIGHTH_GROUPS, eighth_held_back
    from tests.scripts import load_script

    mine = {(q.old, q.new) for g in DEV9_GROUPS for q in g}
    dev = load_script("eval_dedupe_unseen").development_set()
    others = [p for _, p in dev if (p.old, p.new) not in mine]
    seen = {(p.old, p.new) for p in [*PAIRS, *others, *(p for g in EIGHTH_GROUPS for p in g)]}
    seen |= {(b, a) for a, b in seen}
    assert sum((p.old, p.new) in seen for g in DEV9_GROUPS for p in g) == 0
    assert all(p.lang == "mixed" for g in DEV9_GROUPS for p in g)
    assert all({"contradicts", "distinct"} <= {p.expect for p in g} for g in DEV9_GROUPS)
    assert {g for g, _ in dev9()}.isdisjoint({g for g, _ in eighth_held_back()})
