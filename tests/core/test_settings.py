"""``.env.example`` and the settings class stay in step: the same variable names, each with a
comment, and the example's values are the defaults (so copying it changes nothing)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from app.core.config import EmbeddingSettings, Settings, env_names, get_settings

EXAMPLE = Path(__file__).resolve().parents[2] / ".env.example"
# `NAME=value`, or `# NAME=value` for a variable that is unset by default.
KEY_LINE = re.compile(r"^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$")


def example_lines() -> list[str]:
    return EXAMPLE.read_text(encoding="utf-8").splitlines()


def example_keys() -> list[str]:
    return [m.group(2) for line in example_lines() if (m := KEY_LINE.match(line))]


def test_every_setting_is_in_the_example_and_nothing_else():
    keys = example_keys()
    names = env_names()
    assert sorted(set(names) - set(keys)) == [], "add these to .env.example with a comment"
    assert sorted(set(keys) - set(names)) == [], "these are not settings (any more)"
    assert len(keys) == len(set(keys)), "a variable appears twice"


def test_every_variable_has_a_comment_above_it():
    """Walking up from a variable over the variables of its group (no blank line between),
    the first other line is a comment that describes them."""
    lines = example_lines()
    undocumented = []
    for k, line in enumerate(lines):
        m = KEY_LINE.match(line)
        if not m:
            continue
        j = k - 1
        while j >= 0 and KEY_LINE.match(lines[j]):
            j -= 1
        above = lines[j].strip() if j >= 0 else ""
        if not (above.startswith("#") and len(above.lstrip("#- ").strip()) >= 3):
            undocumented.append(m.group(2))
    assert undocumented == []


def test_the_example_values_are_the_defaults(monkeypatch):
    # Only the file: no real .env, and none of these variables from the environment.
    for name in env_names():
        monkeypatch.delenv(name, raising=False)
    from_example = Settings(_env_file=EXAMPLE)  # type: ignore[call-arg]
    defaults = Settings(_env_file=None)  # type: ignore[call-arg]
    assert from_example.model_dump(mode="json") == defaults.model_dump(mode="json")


def test_env_names_cover_nested_groups_and_aliases():
    names = env_names()
    assert {
        "DATABASE_URL",
        "MAX_BODY_BYTES",
        "HINDSIGHT_DATA_DIR",
        "EMBEDDING__DIMENSION",
        "DEDUPE__MERGE_P",
        "RECALL__BUDGET_MS",
    } <= names
    assert "DATA_DIR" not in names  # read as HINDSIGHT_DATA_DIR


def test_nested_variables_are_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("DEDUPE__MERGE_P", "0.95")
    monkeypatch.setenv("MAX_BODY_BYTES", "2048")
    monkeypatch.setenv("HINDSIGHT_DATA_DIR", "/tmp/hindsight-x")
    s = Settings(_env_file=None)  # type: ignore[call-arg]
    assert s.dedupe.merge_p == 0.95 and s.max_body_bytes == 2048
    assert str(s.data_dir) == "/tmp/hindsight-x"


def test_invalid_values_fail_at_boot(monkeypatch):
    monkeypatch.setenv("MAX_BODY_BYTES", "10")  # below the 1 KiB floor
    with pytest.raises(ValidationError, match="max_body_bytes"):
        Settings(_env_file=None)  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        EmbeddingSettings(dimension=0)


def test_get_settings_is_read_once():
    assert get_settings() is get_settings()
