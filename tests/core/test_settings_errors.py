"""A bad setting stops every command with one line naming the variable as written, and exit 2
(tester hbreak5 F30: a 60-line traceback naming `ttl.event_days`); a variable missing the
double underscore of its section is a warning (pydantic-settings ignores it silently)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from app.cli.main import cli
from app.core.config import get_settings


@pytest.fixture(autouse=True)
def fresh_settings():  # type: ignore[no-untyped-def]
    """get_settings is cached per process: read the environment this test sets, and leave
    no cached settings behind."""
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("TTL__EVENT_DAYS", "abc", "TTL__EVENT_DAYS: Input should be a valid number"),
        ("RECALL__BUDGET_MS", "0", "RECALL__BUDGET_MS: Input should be greater than or equal to"),
    ],
)
def test_an_invalid_setting_is_one_line_and_exit_2(monkeypatch, variable, value, said):
    monkeypatch.setenv(variable, value)
    result = CliRunner().invoke(cli, ["migrate", "--help"])  # stops before any command
    assert result.exit_code == 2, result.output
    assert f"invalid setting {said}" in result.stderr and f"got '{value}'" in result.stderr
    assert "Traceback" not in result.output and "ttl.event_days" not in result.output


def test_a_misspelt_setting_is_a_warning(monkeypatch):
    monkeypatch.setenv("TTL_EVENT_DAYS", "5")
    monkeypatch.setenv("TTL__EVENT_DAYS", "x")  # stops before any command runs
    result = CliRunner().invoke(cli, ["migrate", "--help"])
    assert "TTL_EVENT_DAYS is not a setting (ignored); did you mean TTL__EVENT_DAYS?" in (
        result.stderr
    )
