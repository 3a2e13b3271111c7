"""Ranking a working-memory window into a token budget (docs/WORKING_MEMORY.md), as pure functions.

score = w_rel·relevance + w_rec·recency + w_den·density, weights renormalised over the signals
in use (no query: relevance is left out):

- recency  = 0.5 ** (messages newer than this one / half life) — position, not wall time, so a
  burst of messages and a slow chat decay alike;
- relevance = cosine similarity of the message embedding to the query embedding, min-max
  scaled over the window (docs/ARCHITECTURE.md#design-figures found min-max fusion better than RRF);
  a message whose vector the read could not compute within its embedding budget is scored
  without it (the other weights renormalised) and its relevance is null;
- density  = share of informative items (numbers, codes, names, parameters, URLs, paths) among
  the message's words, ×2, capped at 1 — computed once at append.

The budget is filled in three tiers, each in score order: the session's standing statements
first (the user's constraints, preferences and decisions: "I eat vegan food only", 我不吃辣 —
app/services/working_memory/standing.py; the user's lifts of them, "the 8am rule no longer
applies", before them all), whatever the query and however short their
density; then the other messages; filler last ("ok", "thanks!", 好的), so it never takes
budget a standing statement or a message with content needs. A message larger than the
whole budget is cut (head and tail kept) rather than dropped, and everything left out is
reported by seq, each with a one-line ``why``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import rjieba

from app.clients.tokenizer import Tokenizer
from app.repositories.working_memory.window import WindowEntry

_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+")
_WORD = re.compile(r"[^\W_]+")
# An address or a number starts where its run of letters does (tried from inside a run, a
# 100,000-letter word or Chinese run took minutes: scripts/fuzz_cpu.py).
_INFORMATIVE = re.compile(
    r"https?://\S+"  # URLs
    r"|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+"  # e-mail addresses
    r"|`[^`\n]{1,200}`"  # code spans
    r"|(?<![\w-])--?[A-Za-z][\w-]*(?:=\S+)?"  # CLI flags and parameters
    r"|\b[A-Za-z_][\w.]*=\S+"  # key=value parameters
    r"|(?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]+)+"  # paths
    r"|(?<![A-Za-z])[A-Za-z]*\d[A-Za-z0-9.:/-]*"  # numbers, dates, times, codes (LH123, 12A)
    r"|\b[A-Z]{2,}\b"  # acronyms and upper-case codes (NYC, EUR)
    r"|(?<=[^.!?。！？\s]\s)[A-Z][a-z]+(?:\s[A-Z][a-z]+)*"  # capitalised names mid-sentence
    r"|《[^》\n]{1,50}》|「[^」\n]{1,50}」|“[^”\n]{1,50}”"  # quoted titles and names (CJK)
)


def word_count(text: str) -> int:
    """Words of ``text``: Latin/number runs, plus jieba-segmented CJK words."""
    count = 0
    pos = 0
    for run in _CJK_RUN.finditer(text):
        count += len(_WORD.findall(text[pos : run.start()]))
        count += sum(1 for w in rjieba.cut(run.group()) if w.strip())
        pos = run.end()
    return count + len(_WORD.findall(text[pos:]))


def information_density(text: str) -> float:
    """0..1: twice the share of informative items among the words, capped at 1. "ok thanks"
    is 0; "flight LH123 on 2024-05-03, seat 12A" is 1."""
    words = word_count(text)
    if words == 0:
        return 0.0
    items = len(_INFORMATIVE.findall(text))
    return min(1.0, 2.0 * items / words)


@dataclass(frozen=True)
class Weights:
    """Weights of the three signals (any scale; renormalised over the signals in use)."""

    relevance: float
    recency: float
    density: float


@dataclass(frozen=True)
class Ranked:
    """A window entry with its score and signals."""

    entry: WindowEntry
    score: float
    recency: float
    density: float
    relevance: float | None = None
    cosine: float | None = None
    # Ranked for a query but without its vector (past the read's embedding budget).
    unembedded: bool = False


def rank(
    entries: list[WindowEntry],
    query_embedding: np.ndarray | None,
    weights: Weights,
    half_life: float,
) -> list[Ranked]:
    """Score every entry (``entries`` in seq order); returns them in the same order."""
    n = len(entries)
    if n == 0:
        return []
    recency = 0.5 ** (np.arange(n - 1, -1, -1, dtype=np.float64) / half_life)
    density = np.array([e.density for e in entries], dtype=np.float64)
    cosine: np.ndarray | None = None
    relevance: np.ndarray | None = None
    w_rel = weights.relevance if query_embedding is not None else 0.0
    total = w_rel + weights.recency + weights.density
    if total <= 0:
        total, w_rec, w_den = 1.0, 1.0, 0.0
    else:
        w_rec, w_den = weights.recency, weights.density
    score = (w_rec * recency + w_den * density) / total
    has = np.ones(n, dtype=bool)
    if query_embedding is not None:
        dim = query_embedding.shape[0]
        has = np.array(
            [e.embedding is not None and e.embedding.shape[0] == dim for e in entries], bool
        )
        zero = np.zeros(dim, np.float32)
        matrix = np.stack(
            [
                e.embedding if e.embedding is not None and has[i] else zero
                for i, e in enumerate(entries)
            ]
        )
        cosine = (matrix @ query_embedding).astype(np.float64)
        relevance = np.zeros(n)
        if has.any():
            low, high = float(cosine[has].min()), float(cosine[has].max())
            if high - low > 1e-9:
                relevance = (cosine - low) / (high - low)
        # A message without its vector (past the read's embedding budget) is scored on the
        # other signals, renormalised without relevance.
        rest = total - w_rel
        without = score * total / rest if rest > 0 else np.zeros(n)
        score = np.where(has, score + (w_rel * relevance) / total, without)
    return [
        Ranked(
            entry=e,
            score=float(score[i]),
            recency=float(recency[i]),
            density=float(density[i]),
            relevance=None if relevance is None or not has[i] else float(relevance[i]),
            cosine=None if cosine is None or not has[i] else float(cosine[i]),
            unembedded=not has[i],
        )
        for i, e in enumerate(entries)
    ]


def tier(r: Ranked) -> int:
    """0 for a standing statement, 2 for filler, 1 for the rest: the budget's fill order."""
    return 0 if r.entry.standing else 2 if r.entry.filler else 1


@dataclass
class Chosen:
    """A message placed in the budget; ``content`` is cut when ``truncated``; ``rank`` its
    place in fill order (1 = first)."""

    ranked: Ranked
    content: str
    tokens: int
    truncated: bool
    rank: int = 0


@dataclass(frozen=True)
class LeftOut:
    """A message that did not fit: its ranking, its place in score order (1 = best), what
    it would have cost (content + overhead) and the tokens still free when its turn came."""

    ranked: Ranked
    rank: int
    needed_tokens: int
    free_tokens: int


@dataclass
class Selection:
    """The chosen messages in seq order, the tokens they use (overhead included), and the
    messages left out (seq order)."""

    chosen: list[Chosen] = field(default_factory=list)
    used_tokens: int = 0
    left_out: list[LeftOut] = field(default_factory=list)

    @property
    def omitted_seqs(self) -> list[int]:
        """The seqs of the messages left out, ascending."""
        return [x.ranked.entry.seq for x in self.left_out]


def select(ranked: list[Ranked], budget: int, overhead: int, tokenizer: Tokenizer) -> Selection:
    """Fill ``budget`` tokens (content + ``overhead`` per message) tier by tier (standing
    statements, the rest, filler: :func:`tier`), each in score order, newest first on ties.
    A message whose cost alone exceeds the budget is cut to at most half of it on the first
    pass (so one huge tool output cannot crowd out the rest); budget still free at the end
    goes back to the cut messages."""
    out = Selection()
    remaining = budget
    min_cut = 8  # fewer content tokens than this is no longer the message
    # A lift goes first among the standing statements: a rule is never placed without the
    # later message that lifted it (tester H19).
    order = sorted(
        ranked, key=lambda r: (tier(r), r.entry.standing != "lift", -r.score, -r.entry.seq)
    )
    for place, r in enumerate(order, 1):
        cost = r.entry.tokens + overhead
        if cost <= remaining:
            out.chosen.append(Chosen(r, r.entry.content, r.entry.tokens, False, place))
            remaining -= cost
            continue
        room = min(remaining, max(budget // 2, min_cut + overhead)) - overhead
        if cost > budget and room >= min_cut:
            cut = tokenizer.truncate(r.entry.content, room)
            tokens = tokenizer.count(cut)
            out.chosen.append(Chosen(r, cut, tokens, True, place))
            remaining -= tokens + overhead
        else:
            out.left_out.append(LeftOut(r, place, cost, remaining))
    for c in out.chosen:
        if remaining <= 0:
            break
        if c.truncated:
            cut = tokenizer.truncate(c.ranked.entry.content, c.tokens + remaining)
            tokens = tokenizer.count(cut)
            remaining -= tokens - c.tokens
            c.content, c.tokens = cut, tokens
    out.chosen.sort(key=lambda c: c.ranked.entry.seq)
    out.left_out.sort(key=lambda x: x.ranked.entry.seq)
    out.used_tokens = budget - remaining
    return out


# Said of a message ranked without its vector.
UNEMBEDDED = (
    "; ranked without relevance: its embedding was not ready and computing it would have "
    "passed this read's embedding budget (LIMITS__REQUEST_TOKENS)"
)


def why_chosen(c: Chosen) -> str:
    """One line: why a chosen message is in the window."""
    r = c.ranked
    cut = "; cut to fit, being larger than the budget" if c.truncated else ""
    cut += UNEMBEDDED if r.unembedded else ""
    if r.entry.standing == "lift":
        return (
            "lifts a standing statement said before it: placed first whatever the query, so "
            f"the rule it lifts is never shown without it (place {c.rank}){cut}"
        )
    if r.entry.standing:
        return (
            f"a standing {r.entry.standing} of the session: placed before the other messages "
            f"whatever the query (place {c.rank}){cut}"
        )
    if r.entry.filler:
        return f"filler (nothing informative): placed after the other messages (place {c.rank})"
    return f"place {c.rank} in score order; it fit in the budget{cut}"


def why_left_out(x: LeftOut) -> str:
    """One line: why a message was left out."""
    r = x.ranked
    need = f"it needed {x.needed_tokens} tokens and {x.free_tokens} were still free"
    need += UNEMBEDDED if r.unembedded else ""
    if r.entry.standing == "lift":
        return (
            f"lifts a standing statement, placed first, but lifts before it took the budget: {need}"
        )
    if r.entry.standing:
        return (
            f"a standing {r.entry.standing}, placed before the other messages, but the "
            f"standing statements before it took the budget: {need}"
        )
    if r.entry.filler:
        return (
            "filler (nothing informative): placed after every message with content, "
            f"which took the budget; {need}"
        )
    return (
        f"place {x.rank} (standing statements first, then by score): {need} after the "
        "messages placed before it"
    )
