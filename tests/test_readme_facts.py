"""The README's figures are the code's: the recall weights of `profile: long_term` and
`short_term`, the TTL defaults per type and the extension on access, and the first two
commands a newcomer types."""

from __future__ import annotations

import re
from pathlib import Path

from app.core.config import RecallSettings, TtlSettings

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_readme_weights_are_the_defaults():
    section = README.split("## Recall scoring")[1].split("\n## ")[0]
    rows = dict(re.findall(r"^\| `(\w+)` \| ([0-9.]+) \|", section, re.M))
    recall = RecallSettings()
    expected = {signal: getattr(recall, f"weight_{signal}") for signal in
                ("context", "semantic", "entity", "keyword", "recency", "confidence")}  # fmt: skip
    assert {k: float(v) for k, v in rows.items()} == expected
    assert abs(sum(expected.values()) - 1.0) < 1e-9
    assert f"λ = {recall.recency_lambda} per hour" in README
    formula = re.search(r"`score = ([^`]+)`", README)
    assert formula and all(f"·{s}" in formula.group(1) for s in expected)


def test_readme_short_term_weights_are_the_code():
    from app.services.recall.scoring import SHORT_TERM

    seeds = " / ".join(f"{SHORT_TERM[s]:g}" for s in ("semantic", "keyword", "recency",
                                                        "confidence"))  # fmt: skip
    assert f"semantic / keyword / recency / confidence {seeds}" in README


def test_readme_ttl_defaults_are_the_settings():
    ttl = TtlSettings()
    section = README.split("## How long units live")[1].split("\n## ")[0]
    assert f"`fact` and\n`constraint` {ttl.fact_days:g} days" in section
    assert ttl.constraint_days == ttl.fact_days
    assert f"`preference` {ttl.preference_days:g}" in section
    assert ttl.action_days == ttl.result_days == ttl.event_days
    assert f"`event` {ttl.event_days:g}" in section
    assert f"at least {ttl.extend_on_access_days:g} days after that recall" in section


def test_readme_starts_with_the_two_commands():
    first = README.split("```bash\n")[1].split("```")[0].splitlines()
    assert [line.split("#")[0].strip() for line in first] == [
        "python3 scripts/serve.py",
        "python3 scripts/test.py",
    ]
    assert ".venv/bin/hindsight" in README and "pip install -e ." in README
    assert "--namespace default" in README


def test_the_try_it_example_and_the_agent_loops_use_other_users():
    # Tester C21h: both used bob, so after the curl example the agent loop's first turn
    # recalled the passport and its printed output no longer matched the README's.
    root = Path(__file__).resolve().parents[1]
    try_it = README.split("## Try it")[1].split("\n## ")[0]
    users = set(re.findall(r'"user_id": "([^"]+)"', try_it))
    examples = root / "examples"
    python = re.search(r'"--user", default="([^"]+)"', (examples / "agent_loop.py").read_text())
    ts = re.search(r'user: \{ type: "string", default: "([^"]+)"',
                   (examples / "agent_loop.mts").read_text())  # fmt: skip
    assert python and ts and python.group(1) == ts.group(1) == "bob"
    assert users and "bob" not in users, users


def test_the_score_range_the_docs_give_is_the_default_weights():
    # Tester C21b: `score` was called 0..1 (the LangGraph store); the time and answer-type
    # signals add on top of weights that sum to 1. The figure the docs give is their sum.
    from app.schemas.recall import RecallHit

    recall = RecallSettings()
    signals = ("context", "semantic", "entity", "keyword", "recency", "confidence", "time",
               "answer_type")  # fmt: skip
    top = f"{sum(getattr(recall, f'weight_{s}') for s in signals):g}"
    assert top == "1.35"
    assert f"{top} with `long_term`'s defaults" in str(RecallHit.model_fields["score"].description)
