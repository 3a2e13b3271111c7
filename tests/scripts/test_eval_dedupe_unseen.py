"""scripts/eval_dedupe_unseen.py: which held-back part each flag scores. Only the command
line is parsed here: nothing is embedded or scored."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.dedupe_pairs_held_back import held_back as third_held_back
from tests.dedupe_pairs_held_back_4 import fourth_held_back
from tests.dedupe_pairs_unseen import held_back as first_held_back
from tests.dedupe_pairs_unseen import next_held_back
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
    ],
)
def test_each_flag_scores_its_part(script: ModuleType, flag: str, part) -> None:  # type: ignore[no-untyped-def]
    args = script.parse_args([flag])
    assert script.held_back_part(args) == part()


def test_no_flag_scores_no_held_back_part(script: ModuleType) -> None:
    assert script.held_back_part(script.parse_args([])) == []


def test_one_part_at_a_time(script: ModuleType) -> None:
    with pytest.raises(SystemExit):
        script.parse_args(["--held-back", "--third-held-back"])
