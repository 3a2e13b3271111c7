"""scripts/eval_dedupe_unseen.py: which held-back part each flag scores, a part of the
development set refused as held back without ``--core-dev``, and the development set (with
the spent parts four to eight unless ``--core-dev``; groups that share a sentence are one
fold unit). Only
the command line and the sets are checked here: nothing is embedded or scored."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.dedupe_pairs import Pair
from tests.dedupe_pairs_dev_6 import dev6
from tests.dedupe_pairs_dev_7 import dev7
from tests.dedupe_pairs_dev_9 import dev9
from tests.dedupe_pairs_held_back import held_back as third_held_back
from tests.dedupe_pairs_held_back_4 import fourth_held_back
from tests.dedupe_pairs_held_back_5 import fifth_held_back
from tests.dedupe_pairs_held_back_6 import sixth_held_back
from tests.dedupe_pairs_held_back_7 import seventh_held_back
from tests.dedupe_pairs_held_back_8 import eighth_held_back
from tests.dedupe_pairs_held_back_9 import ninth_held_back
from tests.dedupe_pairs_unseen import development, next_held_back
from tests.dedupe_pairs_unseen import held_back as first_held_back
from tests.scripts import load_script


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script("eval_dedupe_unseen")


@pytest.mark.parametrize(
    ("flag", "part"),
    [
        ("--held-back", fourth_held_back),
        ("--third-held-back", third_held_back),
        ("--next-held-back", next_held_back),
        ("--first-held-back", first_held_back),
        ("--fifth-held-back", fifth_held_back),
        ("--sixth-held-back", sixth_held_back),
        ("--seventh-held-back", seventh_held_back),
        ("--eighth-held-back", eighth_held_back),
        ("--ninth-held-back", ninth_held_back),
    ],
)
def test_each_flag_scores_its_part(script: ModuleType, flag: str, part) -> None:  # type: ignore[no-untyped-def]
    args = script.parse_args([flag, "--core-dev"])
    assert script.held_back_part(args) == part()


def test_a_part_in_the_development_set_is_not_scored_as_held_back(
    script: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    for flag in ("--held-back", "--fifth-held-back", "--sixth-held-back",
                 "--seventh-held-back", "--eighth-held-back"):  # fmt: skip
        with pytest.raises(SystemExit) as exit_info:
            script.parse_args([flag])
        assert exit_info.value.code == 2
        assert "--core-dev" in capsys.readouterr().err


def test_the_development_set_holds_the_spent_parts_and_dev_6_7_9(script: ModuleType) -> None:
    core = script.development_set(core=True)
    assert [p for _, p in core] == [p for _, p in development()]
    dev = script.development_set()
    pairs = [p for _, p in dev]
    spent = [*fourth_held_back(), *fifth_held_back(), *dev6(), *sixth_held_back(), *dev7(),
             *seventh_held_back(), *eighth_held_back(), *dev9()]  # fmt: skip
    assert pairs == [p for _, p in [*development(), *spent]]
    # The ninth part is held back (counted, never shown: nobody reads it before it is scored).
    assert len({p for _, p in ninth_held_back()} & set(pairs)) == 0
    # A sentence is in one fold unit only: groups sharing one are joined.
    unit: dict[str, int] = {}
    for g, p in dev:
        for text in (p.old, p.new):
            assert unit.setdefault(text, g) == g
    assert len({g for g, _ in dev}) > len({g for g, _ in core}) + 70


def test_joined_groups_take_the_lowest_number(script: ModuleType) -> None:
    a, b, c = (Pair("k", "same", "x", "y"), Pair("k", "same", "y", "z"),
               Pair("k", "same", "u", "v"))  # fmt: skip
    assert script.joined([(5, a), (9, b), (7, c)]) == [(5, a), (5, b), (7, c)]


def test_no_flag_scores_no_held_back_part(script: ModuleType) -> None:
    assert script.held_back_part(script.parse_args([])) == []


def test_one_part_at_a_time(script: ModuleType) -> None:
    with pytest.raises(SystemExit):
        script.parse_args(["--held-back", "--third-held-back"])
