"""scripts/eval_dedupe_unseen.py: which held-back part each flag scores, and the fifth part
refused unless ``HINDSIGHT_SPEND_FIFTH=1`` (it is kept for a later session). Only the command
line is parsed here: nothing is embedded or scored."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.dedupe_pairs_held_back import held_back as third_held_back
from tests.dedupe_pairs_held_back_4 import fourth_held_back
from tests.dedupe_pairs_held_back_5 import fifth_held_back
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


def test_the_fifth_part_is_refused_without_the_variable(
    script: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for value in (None, "0", "yes"):
        if value is None:
            monkeypatch.delenv("HINDSIGHT_SPEND_FIFTH", raising=False)
        else:
            monkeypatch.setenv("HINDSIGHT_SPEND_FIFTH", value)
        with pytest.raises(SystemExit) as exit_info:
            script.parse_args(["--fifth-held-back"])
        assert exit_info.value.code == 2
        assert "HINDSIGHT_SPEND_FIFTH=1" in capsys.readouterr().err


def test_the_fifth_part_with_the_variable(
    script: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HINDSIGHT_SPEND_FIFTH", "1")
    args = script.parse_args(["--fifth-held-back"])
    assert script.held_back_part(args) == fifth_held_back()


def test_one_part_at_a_time(script: ModuleType) -> None:
    with pytest.raises(SystemExit):
        script.parse_args(["--held-back", "--third-held-back"])
