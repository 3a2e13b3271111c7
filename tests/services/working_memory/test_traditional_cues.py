"""Working memory's cue rules read traditional characters as simplified (htrad6,
:mod:`app.core.chinese_script`): a constraint or decision in traditional characters is
standing (pinned first in a read), 謝謝 confirms like 谢谢."""

from __future__ import annotations

import pytest

from app.core.config import ClosureSettings
from app.services.working_memory.closure import is_confirmation
from app.services.working_memory.standing import is_filler, standing_kind


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("我對花生過敏", "constraint"),
        ("我們決定週五出發", "decision"),
        ("我更喜歡坐火車", "preference"),
        ("我对花生过敏", "constraint"),
    ],
)
def test_standing_in_traditional_characters(said: str, kind: str) -> None:
    """Each traditional one was None (not standing)."""
    assert standing_kind("user", said) == kind


def test_thanks_in_traditional_characters() -> None:
    """謝謝 alone was no confirmation (the phrase list is 谢谢); 不行 still is none."""
    phrases = ClosureSettings().confirmation_phrases
    assert is_confirmation("謝謝", phrases) and is_confirmation("好的，謝謝！", phrases)
    assert not is_confirmation("不行，還沒好", phrases)
    assert is_filler("謝謝！")
